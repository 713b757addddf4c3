"""Evidence records, the review queue and fault injection over HTTP (SPEC §5.5–§5.6).

``GET /v1/records?status=``, ``GET /v1/records/{id}``, ``GET /v1/review``,
``POST /v1/review/{id}`` and ``POST /v1/faults:inject`` (also ``/api/v1/faults:inject``).
Errors use the API's one error shape (unknown ids answer 404, invalid input 422).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, BackgroundTasks, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from spanproof.api.errors import ApiError
from spanproof.api.schemas import MAX_INT
from spanproof.api.state import AppState, get_state, run_or_enqueue_walks
from spanproof.core.record_store import RecordStore, record_store_of
from spanproof.evidence.faults import MUTATIONS
from spanproof.services.browse import check_record_filter
from spanproof.services.review import (
    decide_review,
    inject_fault,
    record_document,
    review_queue,
)

State = Annotated[AppState, Depends(get_state)]
_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"description": "The error shape: {error: {type, message, status, request_id}}"}
    for status in (400, 401, 404, 422)
}

router = APIRouter(responses=_RESPONSES)


class ReviewDecision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reviewer: str = Field(..., min_length=1, max_length=200)
    decision: Literal["approve", "reject"]
    reason: str = Field(..., min_length=1, max_length=4000)


class FaultRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    record: str = Field(..., min_length=1, max_length=200, description="A stored record's id.")
    mutation: str = Field(..., min_length=1, max_length=100, description="One of the six.")


def _records(state: AppState) -> RecordStore:
    return record_store_of(state.store)


def _exists(records: RecordStore, record_id: str) -> None:
    if records.get_record(record_id) is None:
        raise ApiError(404, f"no record {record_id!r}")


@router.get("/v1/records", summary="Evidence records, by id")
def list_records(
    state: State,
    status: str | None = None,
    source: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
) -> list[dict[str, Any]]:
    """Records filtered by ``status`` (proposed, verified, rejected, in_review, quarantined)."""
    records = _records(state)
    check_record_filter(state.store, status=status or "", source_id=source or "")
    page = records.list_records(status=status, source_id=source, limit=limit, offset=offset)
    return [r.to_dict() for r in page]


@router.get("/v1/records/{record_id}", summary="One record with its attempts")
def get_record(record_id: str, state: State) -> dict[str, Any]:
    records = _records(state)
    record = records.get_record(record_id)
    if record is None:
        raise ApiError(404, f"no record {record_id!r}")
    return record_document(state.store, record)


@router.get("/v1/review", summary="The review queue")
def get_review_queue(state: State) -> list[dict[str, Any]]:
    """Records in review, each with its passages and attempts."""
    _records(state)
    return [item.to_dict() for item in review_queue(state.store)]


@router.post("/v1/review/{record_id}", summary="Approve or reject a record in review")
def post_review(
    record_id: str, body: ReviewDecision, state: State, background: BackgroundTasks
) -> dict[str, Any]:
    """Approve (→ verified) or reject (→ rejected); the decision is kept as an attempt. A
    rejection's impact walk runs after the response (or goes to the workers' queue)."""
    records = _records(state)
    _exists(records, record_id)
    record = decide_review(
        state.store, record_id, reviewer=body.reviewer, decision=body.decision, reason=body.reason
    )
    run_or_enqueue_walks(state, background)
    return record_document(state.store, record)


def _inject(body: FaultRequest, state: AppState) -> dict[str, Any]:
    records = _records(state)
    if body.mutation in MUTATIONS:  # an unknown mutation is a 422 whatever the record
        _exists(records, body.record)
    return inject_fault(state.store, body.record, body.mutation).to_dict()


@router.post("/v1/faults:inject", summary="Inject a named fault into a record")
def faults_inject(body: FaultRequest, state: State) -> dict[str, Any]:
    """Apply one mutation to a copy of the record and re-propose it; nothing is stored."""
    return _inject(body, state)


@router.post("/api/v1/faults:inject", summary="Inject a named fault (alias)")
def faults_inject_alias(body: FaultRequest, state: State) -> dict[str, Any]:
    """Same as ``/v1/faults:inject``."""
    return _inject(body, state)
