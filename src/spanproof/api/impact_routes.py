"""Artifacts, retraction and impact over HTTP (SPEC §2, §5.5, §5.7).

``GET /v1/impact?ref=`` (also ``/api/v1/impact``) lists a ref's dependents and whether each
carries the flag; ``GET /v1/walks``; ``POST /v1/sources/{id}/retract`` marks a source retracted
(or withdrawn) and starts the walks, which run after the response (``202``; follow them with
``GET /v1/walks`` or ``/v1/impact``). ``GET|POST /v1/artifacts``,
``POST /v1/artifacts/assessments``, ``GET /v1/artifacts/{id}`` and
``POST /v1/artifacts/{id}/versions/{n}/approve``. Errors use the API's one error shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, BackgroundTasks, Depends, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from spanproof.api.errors import ApiError
from spanproof.api.schemas import MAX_INT
from spanproof.api.state import AppState, get_state, run_or_enqueue_walks
from spanproof.core.artifacts import ARTIFACT_KINDS, MAX_REF_CHARS
from spanproof.core.graph_store import GraphStore
from spanproof.services import artifacts as artifact_service
from spanproof.services import impact as impact_service

State = Annotated[AppState, Depends(get_state)]
_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"description": "The error shape: {error: {type, message, status, request_id}}"}
    for status in (400, 401, 404, 422)
}
router = APIRouter(responses=_RESPONSES)
Ref = Annotated[str, Field(min_length=1, max_length=MAX_REF_CHARS)]


class AssessmentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(..., min_length=1, max_length=artifact_service.MAX_QUESTION_CHARS)
    records: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        ..., min_length=1, max_length=1000
    )
    title: str = Field("", max_length=500)


class ArtifactRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["package", "approach", "design"]
    title: str = Field(..., min_length=1, max_length=500)
    depends_on: list[Ref] = Field(..., min_length=1, max_length=1000)
    body: dict[str, Any] = Field(default_factory=dict)


class ApprovalRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    approver: str = Field(..., min_length=1, max_length=200)


class RetractRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Literal["retracted", "withdrawn"] = "retracted"
    #: Allow lowering the status (retracted → withdrawn): without it a lower status is refused.
    downgrade: bool = False


def _graph(state: AppState) -> GraphStore:
    return impact_service.graph(state.store)


def _impact(state: AppState, ref: str, limit: int) -> dict[str, Any]:
    return impact_service.impact(state.store, ref, limit=limit).to_dict()


@router.get("/v1/impact", summary="What depends on a ref, and whether each is flagged")
def get_impact(
    state: State,
    ref: Annotated[str, Query(min_length=1, max_length=MAX_REF_CHARS)],
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
) -> dict[str, Any]:
    """``ref`` is ``source:<id>:v<n>``, ``record:<id>`` or ``<artifact kind>:<id>``."""
    return _impact(state, ref, limit)


@router.get("/api/v1/impact", summary="What depends on a ref (alias)")
def get_impact_alias(
    state: State,
    ref: Annotated[str, Query(min_length=1, max_length=MAX_REF_CHARS)],
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
) -> dict[str, Any]:
    """Same as ``/v1/impact``."""
    return _impact(state, ref, limit)


@router.get("/v1/walks", summary="Impact walks")
def list_walks(
    state: State,
    status: Literal["running", "done"] | None = None,
    ref: Annotated[str | None, Query(max_length=MAX_REF_CHARS)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[dict[str, Any]]:
    walks = _graph(state).list_walks(status=status, changed_ref=ref, limit=limit)
    return [w.to_dict() for w in walks]


@router.post("/v1/sources/{source_id:path}/retract", status_code=202, summary="Retract a source")
def retract_source(
    source_id: str, body: RetractRequest, state: State, background: BackgroundTasks
) -> dict[str, Any]:
    """Mark the source retracted (or withdrawn) and start the impact walks; they run after the
    response, and a crash leaves them journalled for ``spanproof walks resume``.

    A status is never lowered (withdrawn for a retracted source answers 422) unless the body
    says ``"downgrade": true``.
    """
    if state.store.get_source(source_id) is None:
        raise ApiError(404, f"no source {source_id!r}")
    walk_ids = impact_service.retract(state.store, source_id, body.status, downgrade=body.downgrade)
    graph = _graph(state)
    walks = [w.to_dict() for w in (graph.get_walk(i) for i in walk_ids) if w is not None]
    run_or_enqueue_walks(state, background)
    return {"source_id": source_id, "status": body.status, "walks": walks}


@router.get("/v1/artifacts", summary="Artifacts with their judgement and flags")
def list_artifacts(
    state: State,
    kind: Literal["assessment", "package", "approach", "design"] | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
) -> list[dict[str, Any]]:
    views = artifact_service.list_views(state.store, kind=kind, limit=limit, offset=offset)
    return [v.to_dict() for v in views]


def _view(state: AppState, artifact_id: str) -> dict[str, Any]:
    if _graph(state).get_artifact(artifact_id) is None:
        raise ApiError(404, f"no artifact {artifact_id!r}")
    return artifact_service.artifact_view(state.store, artifact_id).to_dict()


@router.get("/v1/artifacts/{artifact_id}", summary="One artifact")
def get_artifact(artifact_id: str, state: State) -> dict[str, Any]:
    return _view(state, artifact_id)


@router.post("/v1/artifacts/assessments", status_code=201, summary="Assess a question")
def create_assessment(body: AssessmentRequest, state: State) -> dict[str, Any]:
    """An assessment on verified records, with its sufficiency judgement."""
    artifact, _ = artifact_service.create_assessment(
        state.store, body.question, body.records, title=body.title
    )
    return _view(state, artifact.id)


@router.post("/v1/artifacts", status_code=201, summary="Create a package, approach or design")
def create_artifact(body: ArtifactRequest, state: State) -> dict[str, Any]:
    assert body.kind in ARTIFACT_KINDS
    artifact, _ = artifact_service.create_artifact(
        state.store, body.kind, body.title, body.depends_on, body.body
    )
    return _view(state, artifact.id)


@router.post("/v1/artifacts/{artifact_id}/versions/{number}/approve", summary="Approve a version")
def approve_version(
    artifact_id: str,
    number: Annotated[int, Path(ge=1, le=MAX_INT)],
    body: ApprovalRequest,
    state: State,
) -> dict[str, Any]:
    """The version is final from then on."""
    if _graph(state).get_artifact(artifact_id) is None:
        raise ApiError(404, f"no artifact {artifact_id!r}")
    artifact_service.approve(state.store, artifact_id, number, body.approver)
    return _view(state, artifact_id)
