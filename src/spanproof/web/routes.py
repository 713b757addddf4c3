"""HTML pages: traces and the trace viewer, search, the review queue, artifacts, impact and
workflows (Jinja2, autoescaped); sources and records are in ``browse_routes``, the API's
documentation in ``api_docs``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, cast
from urllib.parse import urlencode

from fastapi import APIRouter, BackgroundTasks, Depends, FastAPI, Form, Query, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute

from spanproof.api import errors
from spanproof.api.state import AppState, get_state, run_or_enqueue_walks
from spanproof.core.errors import SpanproofError
from spanproof.core.models import Outcome
from spanproof.core.record_store import RecordStore
from spanproof.core.store import SearchHit
from spanproof.services import artifacts as artifact_service
from spanproof.services import impact as impact_service
from spanproof.services.browse import browse_traces
from spanproof.services.review import decide_review, review_queue
from spanproof.services.search import Mode, search
from spanproof.verify.policy import strip_flags
from spanproof.web import api_docs, browse_routes
from spanproof.web.search_view import CUTOFFS, DEFAULT_CUTOFF, LIMITS, MODES, hit_views
from spanproof.web.templating import (
    LABELS,
    error_page,
    not_found,
    page_links,
    templates,
)
from spanproof.web.trace_view import (
    OutcomeView,
    PropositionView,
    RelevanceView,
    claim_views,
    plan_rows,
    segments,
)

__all__ = ["LABELS", "install", "router"]

_HERE = Path(__file__).parent
_STATIC = {
    "spanproof.css": "text/css",
    "viewer.js": "text/javascript",
    "favicon.svg": "image/svg+xml",
}
TRACE_KINDS = ("generation", "verification")
OUTCOMES = tuple(o.value for o in Outcome)

router = APIRouter(include_in_schema=False)
router.include_router(api_docs.router)
router.include_router(browse_routes.router)
State = Annotated[AppState, Depends(get_state)]


@router.get("/", response_class=RedirectResponse)
def home() -> RedirectResponse:
    return RedirectResponse("/traces", status_code=307)


@router.get("/static/{name}")
def static(name: str, request: Request) -> Response:
    if name not in _STATIC:
        return not_found(request, f"static file {name!r}")
    return FileResponse(_HERE / "static" / name, media_type=_STATIC[name])


@router.get("/traces")
def traces_page(
    request: Request,
    state: State,
    q: Annotated[str, Query(max_length=500)] = "",
    outcome: Annotated[str, Query(max_length=40)] = "",
    kind: Annotated[str, Query(max_length=40)] = "",
    limit: Annotated[int, Query(ge=1, le=200)] = 25,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> Response:
    page = browse_traces(state.traces, q=q, outcome=outcome, kind=kind, limit=limit, offset=offset)
    context = {
        "title": "Traces",
        "page": page,
        "links": page_links(request, page),
        "q": q,
        "outcome": outcome,
        "kind": kind,
        "outcomes": OUTCOMES,
        "kinds": TRACE_KINDS,
        "filtered": bool(q.strip() or outcome or kind),
    }
    return templates.TemplateResponse(request, "traces.html", context)


@router.get("/traces/{trace_id}")
def trace_page(trace_id: str, request: Request, state: State) -> Response:
    trace = state.traces.get_trace(trace_id)
    if trace is None:
        return not_found(request, f"trace {trace_id!r}")
    views = claim_views(state.store, trace)
    # Under flag the delivered text is the draft with verdict markers: the marked-up draft
    # below shows the same verdicts, claim by claim. (Both sides lose their markers: a draft
    # may quote one itself.)
    delivered_same = trace.delivered is None or strip_flags(trace.delivered) == strip_flags(
        trace.draft
    )
    rows = plan_rows(trace, views)
    context = {
        "title": f"Trace {trace.id}",
        "trace": trace,
        "outcome": OutcomeView.of(trace),
        "claims": views,
        "draft_segments": segments(trace.draft, views),
        "delivered_segments": segments(trace.delivered or "", []),
        "claims_only": not trace.draft.strip() and bool(views),
        "delivered_same": delivered_same,
        "counts": sorted(Counter(v.verdict for v in views).items()),
        "plan_rows": rows,
        "used_rows": [r for r in rows if r.used],
        "relevance": RelevanceView.of(trace),
        "proposition": PropositionView.of(trace),
    }
    return templates.TemplateResponse(request, "trace.html", context)


@router.get("/search")
def search_page(
    request: Request,
    state: State,
    q: Annotated[str, Query(max_length=1000)] = "",
    mode: Annotated[str, Query(max_length=10)] = "hybrid",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    cutoff: Annotated[int, Query(ge=0, le=100)] = DEFAULT_CUTOFF,
) -> Response:
    mode = mode if mode in MODES else "hybrid"
    hits: list[SearchHit] = []
    note = ""
    if q.strip():
        embedder = state.engine.embedder
        if mode != "keyword" and embedder is None:
            note = "semantic search is not configured; showing keyword matches"
        try:
            hits = search(state.store, q, embedder=embedder, limit=limit, mode=cast(Mode, mode))
        except SpanproofError as exc:
            note = f"semantic search is unavailable ({exc}); showing keyword matches"
            hits = search(state.store, q, embedder=None, limit=limit, mode="keyword")
        if not hits and mode == "vector" and embedder is None:
            hits = search(state.store, q, embedder=None, limit=limit, mode="keyword")
    titles: dict[str, str] = {}
    for hit in hits:
        if hit.chunk.source_id not in titles:
            src = state.store.get_source(hit.chunk.source_id)
            titles[hit.chunk.source_id] = (src.title if src else "") or hit.chunk.source_id
    shown, hidden = hit_views(hits, q, titles, cutoff, _section_titles(state, hits))
    params = {"q": q, "mode": mode, "limit": limit, "cutoff": 0}
    context = {
        "title": "Search",
        "q": q,
        "mode": mode,
        "limit": limit,
        "cutoff": cutoff,
        "modes": MODES,
        "limits": sorted({*LIMITS, limit}),
        "cutoffs": sorted({*CUTOFFS, cutoff}),
        "hits": shown,
        "hidden": hidden,
        "show_all_url": "/search?" + urlencode(params),
        "note": note,
    }
    return templates.TemplateResponse(request, "search.html", context)


def _section_titles(state: AppState, hits: list[SearchHit]) -> dict[tuple[str, int, str], str]:
    out: dict[tuple[str, int, str], str] = {}
    for hit in hits:
        c = hit.chunk
        key = (c.source_id, c.version, c.section_key)
        if key not in out:
            section = state.store.section(*key)
            out[key] = section.title if section is not None else ""
    return out


def _review_page(
    request: Request, state: AppState, error: str = "", status: int = 200, done: str = ""
) -> Response:
    try:
        items = review_queue(state.store)
    except SpanproofError as exc:
        items, error = [], str(exc)
    decided = None
    if done and not error:
        decided = browse_routes.record_or_none(state.store, done)
    context = {"title": "Review queue", "items": items, "error": error, "decided": decided}
    return templates.TemplateResponse(request, "review.html", context, status_code=status)


@router.get("/review")
def review_page(
    request: Request, state: State, decided: Annotated[str, Query(max_length=200)] = ""
) -> Response:
    return _review_page(request, state, done=decided)


@router.post("/review/{record_id}")
def review_decide(
    record_id: str,
    request: Request,
    state: State,
    background: BackgroundTasks,
    reviewer: Annotated[str, Form(max_length=200)] = "",
    reason: Annotated[str, Form(max_length=4000)] = "",
    decision: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    records = state.store
    if isinstance(records, RecordStore) and records.get_record(record_id) is None:
        return not_found(request, f"record {record_id}")
    try:
        decide_review(state.store, record_id, reviewer=reviewer, decision=decision, reason=reason)
    except SpanproofError as exc:
        return _review_page(request, state, f"{record_id}: {exc}", status=400)
    run_or_enqueue_walks(state, background)  # a rejection flags what is built on the record
    return RedirectResponse("/review?" + urlencode({"decided": record_id}), status_code=303)


@router.get("/artifacts")
def artifacts_page(request: Request, state: State) -> Response:
    """Artifacts with their judgement and flags."""
    try:
        views, error = artifact_service.list_views(state.store, limit=500), ""
    except SpanproofError as exc:
        views, error = [], str(exc)
    context = {"title": "Artifacts", "views": views, "error": error}
    return templates.TemplateResponse(request, "artifacts.html", context)


@router.get("/artifacts/{artifact_id}")
def artifact_page(artifact_id: str, request: Request, state: State) -> Response:
    try:
        view = artifact_service.artifact_view(state.store, artifact_id)
    except SpanproofError:
        return not_found(request, f"artifact {artifact_id}")
    context = {"title": view.artifact.title, "view": view}
    return templates.TemplateResponse(request, "artifact.html", context)


@router.get("/impact")
def impact_page(
    request: Request, state: State, ref: Annotated[str, Query(max_length=512)] = ""
) -> Response:
    """The dependents of a ref and whether each carries its flag."""
    report, error = None, ""
    if ref.strip():
        try:
            report = impact_service.impact(state.store, ref.strip())
        except SpanproofError as exc:
            error = str(exc)
    context = {"title": "Impact", "ref": ref, "report": report, "error": error}
    return templates.TemplateResponse(
        request, "impact.html", context, status_code=400 if error else 200
    )


@router.get("/workflows")
def workflows_page(request: Request, state: State) -> Response:
    """The durable workflows: queues with their limits and states, executors, recent runs."""
    from spanproof import bootstrap

    try:
        view, error = bootstrap.workflow_status(state.settings, state.store), ""
    except SpanproofError as exc:
        view, error = None, str(exc)
    context = {"title": "Workflows", "view": view, "error": error}
    return templates.TemplateResponse(request, "workflows.html", context)


def install(app: FastAPI) -> None:
    """Serve the pages on ``app``, their errors as HTML pages (:func:`error_page`) rather than the
    API's JSON error shape (which :func:`spanproof.api.errors.install` registers)."""
    app.include_router(router)
    errors.serve_html_errors(app, page_routes(), error_page)


def page_routes() -> list[BaseRoute]:
    """Every page route: their errors answer an HTML page (:func:`error_page`). The routers
    included in :data:`router` have no prefix, so each route is served at its own path."""
    found: list[BaseRoute] = []
    routes = list(router.routes)
    while routes:
        route = routes.pop()
        included = getattr(route, "original_router", None)  # a router included in this one
        if included is not None:
            routes.extend(included.routes)
        elif callable(getattr(route, "endpoint", None)):
            found.append(route)
    return found
