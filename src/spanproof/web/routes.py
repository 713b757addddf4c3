"""HTML pages: recent traces, the trace viewer, sources, search and the review queue (Jinja2,
autoescaped)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, PackageLoader, select_autoescape

from spanproof.api.state import AppState, get_state
from spanproof.core.errors import SpanproofError
from spanproof.core.models import Verdict
from spanproof.core.outcome import headline, trace_outcome
from spanproof.core.store import EvidenceStore, SearchHit, Section, Version
from spanproof.core.trace import Trace
from spanproof.services import artifacts as artifact_service
from spanproof.services import impact as impact_service
from spanproof.services.review import decide_review, review_queue
from spanproof.services.search import search
from spanproof.verify.policy import strip_flags
from spanproof.web.edit_view import EditsView, edits_view

_HERE = Path(__file__).parent
_STATIC = {"spanproof.css": "text/css", "viewer.js": "text/javascript"}
_env = Environment(
    loader=PackageLoader("spanproof.web", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
templates = Jinja2Templates(env=_env)

#: Text (not only colour) for every verdict.
LABELS: dict[str, str] = {
    Verdict.SUPPORTED.value: "supported ✓",
    Verdict.PARTIAL.value: "partial ◐",
    Verdict.UNSUPPORTED.value: "unsupported ✗",
    Verdict.CONTRADICTED.value: "contradicted ⚠",
    Verdict.EVIDENCE_REDACTED.value: "evidence redacted ▨",
}
GATES = ("numeric", "entity", "polarity")

router = APIRouter(include_in_schema=False)
State = Annotated[AppState, Depends(get_state)]


def source_url(source_id: str, version: int | None = None, section_key: str | None = None) -> str:
    """The source page of ``source_id`` (ids hold ``:`` and ``/``), optionally a section."""
    url = "/sources/" + quote(source_id, safe=":/@")
    if version is not None:
        url += f"?v={version}"
    if section_key is not None:
        url += "#" + section_anchor(section_key)
    return url


def section_anchor(key: str) -> str:
    return "section-" + quote(key, safe="")


_env.globals["source_url"] = source_url
_env.globals["section_anchor"] = section_anchor
_env.globals["labels"] = LABELS


def _label(verdict: Any) -> str:
    return LABELS.get(str(verdict), str(verdict))


_env.filters["verdict_label"] = _label


@dataclass(frozen=True, slots=True)
class Highlight:
    """A text with one highlighted range: ``text[:start]``, ``text[start:end]``, the rest."""

    before: str
    marked: str
    after: str

    @classmethod
    def of(cls, text: str, start: int, end: int) -> Highlight:
        start = max(0, min(start, len(text)))
        end = max(start, min(end, len(text)))
        return cls(text[:start], text[start:end], text[end:])


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a claim's best span lies: its plan entry and the highlighted section text."""

    entry: dict[str, Any]
    highlight: Highlight
    section_title: str
    from_store: bool
    url: str | None


@dataclass(frozen=True, slots=True)
class ClaimView:
    claim: dict[str, Any]
    panel_id: str
    verdict: str
    label: str
    gates: list[str]
    evidence: Evidence | None
    edits: EditsView | None = None  # score model v4's edit check


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of answer text; ``claim`` set when the piece is a claim's draft span."""

    text: str
    claim: ClaimView | None = None


def _not_found(request: Request, what: str) -> Response:
    return templates.TemplateResponse(
        request, "not_found.html", {"what": what, "title": "Not found"}, status_code=404
    )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _evidence(
    store: EvidenceStore, claim: dict[str, Any], plan: list[dict[str, Any]]
) -> Evidence | None:
    best = claim.get("best_span")
    if not isinstance(best, dict):
        return None
    entry = next((e for e in plan if str(e.get("id")) == str(best.get("id"))), None)
    b_start, b_end = _int(best.get("start")), _int(best.get("end"))
    if entry is None or b_start is None or b_end is None:
        return None
    source_id, version, key = (
        entry.get("source_id"),
        _int(entry.get("version")),
        entry.get("section_key"),
    )
    e_start = _int(entry.get("start"))
    section: Section | None = None
    if (
        isinstance(source_id, str)
        and version is not None
        and isinstance(key, str)
        and e_start is not None
    ):
        section = store.section(source_id, version, key)
    if section is not None and e_start is not None:
        return Evidence(
            entry,
            Highlight.of(section.text, e_start + b_start, e_start + b_end),
            section.title,
            True,
            source_url(section.source_id, section.version, section.key),
        )
    url = source_url(source_id) if isinstance(source_id, str) else None
    return Evidence(entry, Highlight.of(str(entry.get("text", "")), b_start, b_end), "", False, url)


def _claim_views(store: EvidenceStore, trace: Trace) -> list[ClaimView]:
    views = []
    for index, claim in enumerate(trace.claims, start=1):
        verdict = str(claim.get("verdict", ""))
        views.append(
            ClaimView(
                claim=claim,
                panel_id=f"claim-panel-{index}",
                verdict=verdict if verdict in LABELS else "unknown",
                label=_label(verdict),
                gates=[g for g in GATES if claim.get(f"{g}_gated")],
                evidence=_evidence(store, claim, trace.plan),
                edits=edits_view(claim, trace.plan),
            )
        )
    return views


def _segments(text: str, views: list[ClaimView]) -> list[Segment]:
    """``text`` cut at the claims' draft spans (overlapping spans: the first one wins)."""
    placed = []
    for view in views:
        span = view.claim.get("draft_span")
        if isinstance(span, list | tuple) and len(span) == 2:
            start, end = _int(span[0]), _int(span[1])
            if start is not None and end is not None and 0 <= start < end <= len(text):
                placed.append((start, end, view))
    placed.sort(key=lambda p: (p[0], p[1]))
    segments: list[Segment] = []
    cursor = 0
    for start, end, view in placed:
        if start < cursor:
            continue
        if start > cursor:
            segments.append(Segment(text[cursor:start]))
        segments.append(Segment(text[start:end], view))
        cursor = end
    if cursor < len(text):
        segments.append(Segment(text[cursor:]))
    return segments


@router.get("/", response_class=RedirectResponse)
def home() -> RedirectResponse:
    return RedirectResponse("/traces", status_code=307)


@router.get("/static/{name}")
def static(name: str, request: Request) -> Response:
    if name not in _STATIC:
        return _not_found(request, f"static file {name!r}")
    return FileResponse(_HERE / "static" / name, media_type=_STATIC[name])


@dataclass(frozen=True, slots=True)
class OutcomeView:
    """A trace's outcome as shown: its value (for the CSS class) and its icon and words."""

    value: str
    headline: str

    @classmethod
    def of(cls, trace: Trace) -> OutcomeView:
        outcome, counts = trace_outcome(trace)
        if outcome is None:
            return cls(
                "unknown", "? outcome unknown (a stored verdict is not one spanproof writes)"
            )
        return cls(outcome.value, headline(outcome, counts, trace.verification))


@router.get("/traces")
def traces_page(request: Request, state: State) -> Response:
    rows = []
    for trace in state.traces.list_traces(limit=100):
        counts = Counter(str(c.get("verdict", "")) for c in trace.claims)
        rows.append(
            {"trace": trace, "counts": sorted(counts.items()), "outcome": OutcomeView.of(trace)}
        )
    return templates.TemplateResponse(
        request, "traces.html", {"rows": rows, "title": "Recent traces"}
    )


@router.get("/traces/{trace_id}")
def trace_page(trace_id: str, request: Request, state: State) -> Response:
    trace = state.traces.get_trace(trace_id)
    if trace is None:
        return _not_found(request, f"trace {trace_id!r}")
    views = _claim_views(state.store, trace)
    # Under flag the delivered text is the draft with verdict markers: the marked-up draft
    # below shows the same verdicts, claim by claim.
    delivered_same = trace.delivered is None or strip_flags(trace.delivered) == trace.draft
    context = {
        "title": f"Trace {trace.id}",
        "trace": trace,
        "outcome": OutcomeView.of(trace),
        "claims": views,
        "draft_segments": _segments(trace.draft, views),
        "delivered_same": delivered_same,
        "counts": sorted(Counter(v.verdict for v in views).items()),
    }
    return templates.TemplateResponse(request, "trace.html", context)


def _pick_version(versions: list[Version], wanted: int | None) -> Version | None:
    if wanted is not None:
        return next((v for v in versions if v.number == wanted), None)
    parsed = [v for v in versions if v.state == "parsed"]
    return max(parsed or versions, key=lambda v: v.number, default=None)


@router.get("/sources/{source_id:path}")
def source_page(
    source_id: str,
    request: Request,
    state: State,
    v: Annotated[int | None, Query(ge=1)] = None,
) -> Response:
    source = state.store.get_source(source_id)
    if source is None:
        return _not_found(request, f"source {source_id!r}")
    versions = state.store.versions(source_id)
    version = _pick_version(versions, v)
    if v is not None and version is None:
        return _not_found(request, f"version {v} of source {source_id!r}")
    sections = state.store.sections(source_id, version.number) if version is not None else []
    context = {
        "title": source.title or source.id,
        "source": source,
        "versions": versions,
        "version": version,
        "sections": sections,
    }
    return templates.TemplateResponse(request, "source.html", context)


@router.get("/search")
def search_page(
    request: Request,
    state: State,
    q: Annotated[str, Query(max_length=1000)] = "",
) -> Response:
    hits: list[SearchHit] = []
    note = ""
    if q.strip():
        try:
            hits = search(state.store, q, embedder=state.engine.embedder, limit=20)
        except SpanproofError as exc:
            note = f"semantic search is unavailable ({exc}); showing keyword matches"
            hits = search(state.store, q, embedder=None, limit=20, mode="keyword")
    titles: dict[str, str] = {}
    for hit in hits:
        if hit.chunk.source_id not in titles:
            src = state.store.get_source(hit.chunk.source_id)
            titles[hit.chunk.source_id] = (src.title if src else "") or hit.chunk.source_id
    context = {"title": "Search", "q": q, "hits": hits, "titles": titles, "note": note}
    return templates.TemplateResponse(request, "search.html", context)


def _review_page(request: Request, state: AppState, error: str = "", status: int = 200) -> Response:
    try:
        items = review_queue(state.store)
    except SpanproofError as exc:
        items, error = [], str(exc)
    context = {"title": "Review queue", "items": items, "error": error}
    return templates.TemplateResponse(request, "review.html", context, status_code=status)


@router.get("/review")
def review_page(request: Request, state: State) -> Response:
    return _review_page(request, state)


@router.post("/review/{record_id}")
def review_decide(
    record_id: str,
    request: Request,
    state: State,
    reviewer: Annotated[str, Form(max_length=200)] = "",
    reason: Annotated[str, Form(max_length=4000)] = "",
    decision: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    try:
        decide_review(state.store, record_id, reviewer=reviewer, decision=decision, reason=reason)
    except SpanproofError as exc:
        return _review_page(request, state, f"{record_id}: {exc}", status=400)
    return RedirectResponse("/review", status_code=303)


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
        return _not_found(request, f"artifact {artifact_id}")
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
    from spanproof.bootstrap import workflow_status

    try:
        view, error = workflow_status(state.settings, state.store), ""
    except SpanproofError as exc:
        view, error = None, str(exc)
    context = {"title": "Workflows", "view": view, "error": error}
    return templates.TemplateResponse(request, "workflows.html", context)
