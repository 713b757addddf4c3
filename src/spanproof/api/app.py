"""The HTTP app: ``create_app(state)`` serves the JSON API under ``/v1/``, ``/healthz``,
``/metrics``, and the web UI from the same process when it is installed."""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.responses import JSONResponse, Response

from spanproof import __version__
from spanproof.api import errors
from spanproof.api.chat_routes import router as chat_router
from spanproof.api.errors import ApiError
from spanproof.api.impact_routes import router as impact_router
from spanproof.api.limits import CappedDecomposer, check_verify_request
from spanproof.api.metrics import CONTENT_TYPE, Metrics
from spanproof.api.middleware import ApiMiddleware, Backstop
from spanproof.api.records_routes import router as records_router
from spanproof.api.schemas import (
    MAX_INT,
    GenerateRequest,
    GenerateResponse,
    Health,
    SearchHitOut,
    SourceUpload,
    SourceUploadResponse,
    VerifyRequest,
    VerifyResponse,
)
from spanproof.api.security_headers import SecurityHeaders
from spanproof.api.state import AppState, get_state, stored_key_store
from spanproof.core.checker import EntailmentChecker
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError
from spanproof.core.models import Policy
from spanproof.core.outcome import trace_outcome
from spanproof.core.store import SOURCE_STATUSES, SearchFilter
from spanproof.core.trace import Trace
from spanproof.services.browse import browse_sources, proposition_verdict, source_document
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.replay import RecordingEmbedder
from spanproof.services.search import hit_row
from spanproof.services.search import search as run_search
from spanproof.services.verification_trace import verification_trace
from spanproof.verifier import Verifier, to_evidence
from spanproof.verify.scoring import BAND_SUFFIX, ScoreModel, score_model

State = Annotated[AppState, Depends(get_state)]
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"description": "The error shape: {error: {type, message, status, request_id}}"}
    for status in (400, 401, 404, 413, 415, 422, 500)
}

v1 = APIRouter(prefix="/v1", responses=ERROR_RESPONSES)
ops = APIRouter()


def _metrics(request: Request) -> Metrics:
    metrics: Metrics = request.app.state.metrics
    return metrics


def _checker(request: Request, model: ScoreModel) -> EntailmentChecker | None:
    """The checker a request's own score model reads, loaded once per app (see below)."""
    cache: dict[str, EntailmentChecker | None] = getattr(request.app.state, "checkers", {})
    return cache.get(model.name)


def _remember_checker(
    request: Request, model: ScoreModel, checker: EntailmentChecker | None
) -> None:
    cache: dict[str, EntailmentChecker | None] = getattr(request.app.state, "checkers", {})
    cache.setdefault(model.name, checker)
    request.app.state.checkers = cache


@v1.post("/verify", response_model=VerifyResponse, summary="Verify a draft or claims")
def verify(body: VerifyRequest, state: State, request: Request) -> dict[str, Any]:
    """Verify a draft (decomposed into claims) or atomic claims against evidence.

    The answer is the CLI ``verify --json`` contract object. A request over the server's limits
    (``SPANPROOF_LIMITS__*``) answers 413, an empty draft or claim list 422; neither is traced.
    """
    check_verify_request(body, state.settings.limits)
    base = state.verifier
    model = base.model
    # The server's own model keeps its band when a request names it ("v3" for "v3:band=0.3").
    if body.score_model is not None and body.score_model != model.name.partition(BAND_SUFFIX)[0]:
        model = score_model(body.score_model)
    # One recorder per request: the trace stores the very vectors scoring used (SPEC §4.7).
    recorder = RecordingEmbedder(base.embedder)
    checker = base.checker if model.name == base.model.name else _checker(request, model)
    decomposer = CappedDecomposer(base.decomposer, state.settings.limits.max_claims)
    verifier = Verifier(
        embedder=recorder, decomposer=decomposer, score_model=model, checker=checker
    )
    _remember_checker(request, model, verifier.checker)
    evidence = to_evidence([e.model_dump() for e in body.evidence])
    request_record: dict[str, Any] = {
        "mode": "draft" if body.draft is not None else "claims",
        "evidence": len(evidence),
        "score_model": model.name,
    }
    if body.draft is not None:
        policy = body.policy or state.settings.verify.policy
        report = verifier.verify(body.draft, evidence, policy=policy, question=body.question or "")
        request_record["policy"] = Policy(policy).value
        if body.question:
            request_record["question"] = body.question
    else:
        claims = [
            c if isinstance(c, str) else c.model_dump(exclude_none=True) for c in body.claims or []
        ]
        report = verifier.check_claims(claims, evidence)
        request_record["claims"] = len(claims)
    trace = verification_trace(report, evidence, report.claims, recorder, model, request_record)
    stored = state.traces.append(trace)
    _metrics(request).observe_verification(
        "verify", report.verification, [c.verdict.value for c in report.claims]
    )
    return {**report.to_dict(), "trace_id": stored.id}


@v1.post("/generate", response_model=GenerateResponse, summary="Answer a question, verified")
def generate(body: GenerateRequest, state: State, request: Request) -> dict[str, Any]:
    """Plan, generate, verify and trace an answer: answer, claims, citations, plan, trace id.

    When no span of the store is relevant enough to the question the answer abstains:
    ``answered`` is false, ``answer`` says the sources do not answer the question, the outcome
    is ``abstained`` and ``closest`` lists the nearest sources.
    """
    policy = Policy(body.policy) if body.policy else None
    answer = state.engine.ask(body.question, policy=policy)
    _metrics(request).observe_verification(
        "generate", answer.verification, [c.verdict.value for c in answer.claims]
    )
    return answer.to_dict()


def _trace(state: AppState, trace_id: str) -> Response:
    trace = state.traces.get_trace(trace_id)
    if trace is None:
        raise ApiError(404, f"no trace {trace_id!r}")
    # The stored canonical JSON, byte for byte (its hash can be checked by the caller).
    return Response(trace.to_json(), media_type="application/json")


@v1.get("/trace/{trace_id}", summary="One stored trace")
def get_trace(trace_id: str, state: State) -> Response:
    """The stored trace's canonical JSON."""
    return _trace(state, trace_id)


@v1.get("/traces/{trace_id}", summary="One stored trace (alias)")
def get_trace_alias(trace_id: str, state: State) -> Response:
    """The stored trace's canonical JSON (same as ``/v1/trace/{id}``)."""
    return _trace(state, trace_id)


@v1.get("/traces", summary="Recent traces, newest first")
def list_traces(
    state: State,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
) -> list[dict[str, Any]]:
    """Summaries of recent traces (open one with ``/v1/traces/{id}``)."""
    return [_summary(t) for t in state.traces.list_traces(limit=limit, offset=offset)]


def _summary(trace: Trace) -> dict[str, Any]:
    """One line of ``/v1/traces``; the outcome is derived for traces written before it was
    stored (None when a stored verdict is not one spanproof writes)."""
    outcome, counts = trace_outcome(trace)
    return {
        "id": trace.id,
        "seq": trace.seq,
        "kind": trace.kind,
        "created_at": trace.created_at,
        "question": trace.request.get("question"),
        "verification": trace.verification,
        "outcome": outcome.value if outcome is not None else None,
        # a proposition's own verdict; ``outcome`` is then that of the quoted evidence
        "verdict": proposition_verdict(trace) or None,
        "counts": counts,
        "claims": len(trace.claims),
        "hash": trace.hash,
    }


def _upload_bytes(body: SourceUpload) -> bytes:
    if body.text is not None:
        raw = body.text.encode("utf-8")
    else:
        try:
            raw = base64.b64decode(body.content_base64 or "", validate=True)
        except (binascii.Error, ValueError):
            raise InvalidInputError("'content_base64' is not valid base64") from None
    if not raw:
        raise InvalidInputError("the document is empty")
    return raw


@v1.post(
    "/sources",
    response_model=SourceUploadResponse,
    status_code=201,
    summary="Ingest a document",
    responses={200: {"model": SourceUploadResponse, "description": "Already stored: duplicate"}},
)
def add_source(body: SourceUpload, state: State, request: Request) -> Any:
    """Ingest a document sent inline (never a path or URL) as ``upload:<sha256[:16]>``.

    When the API only enqueues (``SPANPROOF_WORKFLOWS__API_ENQUEUE``), the document goes to the
    ingestion queue and the answer is 202 with ``{source_id, status: "queued", workflow_id}``.

    Corrupt or hostile content is stored and quarantined with its reason; new chunks are embedded.
    A document already stored (the same bytes) answers 200 with ``"status": "duplicate"``.
    """
    raw = _upload_bytes(body)
    source_id = f"upload:{hashlib.sha256(raw).hexdigest()[:16]}"
    fetched = FetchedDocument(
        connector="upload", external_ids={}, media_type=body.media_type, raw=raw, title=body.title
    )
    if state.work_queue is not None:  # the API only enqueues: a worker ingests and embeds
        workflow_id = state.work_queue.enqueue_ingest(source_id, fetched)
        queued = {"source_id": source_id, "status": "queued", "workflow_id": workflow_id}
        return JSONResponse(queued, status_code=202)
    outcome = ingest(state.store, fetched, source_id, request.app.state.parse)
    embedded = 0
    if state.engine.embedder is not None:
        embedded = embed_pending(state.store, state.engine.embedder, sentences=True)
    answer = {
        "source_id": outcome.source_id,
        "version": outcome.version,
        "status": outcome.status,
        "reason": outcome.reason,
        "sections": outcome.sections,
        "chunks": outcome.chunks,
        "chunks_embedded": embedded,
    }
    if outcome.status == "duplicate":  # nothing was created: 200, not 201
        return JSONResponse(answer, status_code=200)
    return answer


@v1.get("/sources", summary="List sources")
def list_sources(
    state: State,
    status: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
) -> list[dict[str, Any]]:
    """Each source as ``spanproof sources --json`` lists it. ``status`` is ``quarantined`` for an
    active source whose current version could not be parsed (as in the web UI);
    ``source_status`` is the stored one; ``versions`` counts its versions, and
    ``latest_version`` and ``current_version`` give the newest and the one it reads now."""
    shown = (*SOURCE_STATUSES, "quarantined")
    if status and status not in shown:
        raise InvalidInputError(f"unknown source status {status!r}; use one of {', '.join(shown)}")
    page = browse_sources(state.store, status=status or "", limit=limit, offset=offset, most=1000)
    return [r.to_dict() for r in page.items]


@v1.get("/sources/{source_id:path}", summary="A source: metadata, versions and sections")
def get_source(source_id: str, state: State) -> dict[str, Any]:
    source = state.store.get_source(source_id)
    if source is None:
        raise ApiError(404, f"no source {source_id!r}")
    return source_document(state.store, source)


@v1.get("/search", response_model=list[SearchHitOut], summary="Search the store")
def search(
    state: State,
    q: Annotated[str, Query(min_length=1, max_length=2000)],
    mode: Literal["hybrid", "keyword", "vector"] = "hybrid",
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
) -> list[dict[str, Any]]:
    """Keyword and semantic search, fused by reciprocal rank (eligible sources only)."""
    embedder = state.engine.embedder if mode != "keyword" else None
    hits = run_search(state.store, q, embedder=embedder, limit=limit, mode=mode, flt=SearchFilter())
    return [hit_row(h) for h in hits]


@ops.get("/healthz", response_model=Health, summary="Liveness and the models in use")
def healthz(state: State) -> JSONResponse:
    try:
        state.store.stats()
        reachable = True
    except Exception:
        reachable = False
    embedder = state.engine.embedder
    models = {
        "embed": embedder.model_id if embedder is not None else "",
        "decompose": state.engine.decomposer.model_id,
        "gen": state.engine.generator.model_id,
        "score_model": state.engine.score_model.name,
    }
    body = Health(
        status="ok" if reachable else "degraded",
        store=reachable,
        models=models,
        version=__version__,
    )
    return JSONResponse(body.model_dump(), status_code=200 if reachable else 503)


@ops.get("/metrics", summary="Prometheus metrics", response_class=Response)
def metrics(request: Request) -> Response:
    return Response(_metrics(request).render(), media_type=CONTENT_TYPE)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """On shutdown, close the chat proxy's upstream connection pool."""
    yield
    proxy = getattr(app.state, "chat_proxy", None)
    if proxy is not None:
        proxy.upstream.close()


def create_app(
    state: AppState,
    *,
    api_keys: Sequence[str] = (),
    max_body_bytes: int = 2_000_000,
    loopback_only: bool = False,
) -> FastAPI:
    """The app serving ``state``.

    Args:
        state: the store, verifier and engine to serve.
        api_keys: when non-empty, every ``/v1/*`` route needs one of them (``Authorization:
            Bearer <key>`` or ``X-API-Key``); ``/healthz`` and ``/metrics`` stay open. When the
            store holds an active key (``spanproof keys create``) at this call, keys are required
            too, and the stored keys are accepted by scope (see ``api/middleware.py``).
        max_body_bytes: the largest request body accepted (413 above it, checked before parsing).
        loopback_only: answer only requests whose ``Host`` names this machine (``spanproof
            serve`` without keys; see ``api/middleware.py``).
    """
    from spanproof.bootstrap import build_chat_proxy, build_parser

    app = FastAPI(
        title="spanproof",
        version=__version__,
        description="Check every factual claim against the exact source text it may rest on.",
        openapi_url="/openapi.json",
        # /docs comes with the web UI, its assets served locally (no CDN); no /redoc.
        docs_url=None,
        redoc_url=None,
        lifespan=_lifespan,
    )
    app.state.spanproof = state
    app.state.metrics = Metrics()
    app.state.parse = build_parser()
    # None: the route answers 503.
    app.state.chat_proxy = build_chat_proxy(state.settings, state.engine, state.traces)
    errors.install(app)
    app.include_router(v1)
    app.include_router(ops)
    app.include_router(records_router)
    app.include_router(impact_router)
    app.include_router(chat_router)
    try:
        from spanproof.web.routes import install as install_web
    except ImportError:
        pass
    else:
        install_web(app)  # the pages, their errors as HTML pages
    app.add_middleware(
        ApiMiddleware,
        api_keys=tuple(api_keys),
        max_body_bytes=max_body_bytes,
        metrics=app.state.metrics,
        key_store=stored_key_store(state),
        loopback_only=loopback_only,
    )
    # Added later is further out: every response gets the security headers, the middleware's
    # refusals included; outside them, Backstop answers whatever any layer inside raises (a
    # 500 with the headers, in the project's shape) and drops every HEAD answer's body.
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Backstop)
    return app
