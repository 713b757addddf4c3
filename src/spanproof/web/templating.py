"""What every page shares: the Jinja2 environment (autoescaped), URLs of the things pages name,
verdict labels, readable times and the HTML 404."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, PackageLoader, select_autoescape

from spanproof.core.models import Verdict
from spanproof.services.browse import Page, ref_parts

env = Environment(
    loader=PackageLoader("spanproof.web", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
templates = Jinja2Templates(env=env)

#: Text (not only colour) for every verdict.
LABELS: dict[str, str] = {
    Verdict.SUPPORTED.value: "supported ✓",
    Verdict.PARTIAL.value: "partial ◐",
    Verdict.UNSUPPORTED.value: "unsupported ✗",
    Verdict.CONTRADICTED.value: "contradicted ⚠",
    Verdict.EVIDENCE_REDACTED.value: "evidence redacted ▨",
}


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


def record_url(record_id: str) -> str:
    return "/records/" + quote(record_id, safe="")


def trace_url(trace_id: str) -> str:
    return "/traces/" + quote(trace_id, safe="")


def ref_url(ref: str) -> str | None:
    """The page of what a ref names (a source version, a record, an artifact), if any."""
    kind, ident, version = ref_parts(ref)
    if kind == "source":
        return source_url(ident, version)
    if kind == "record":
        return record_url(ident)
    if kind:
        return "/artifacts/" + quote(ident, safe="")
    return None


def _parse_time(value: Any) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value / 1000, UTC) if value > 0 else None
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def when(value: Any) -> str:
    """An ISO 8601 string (or epoch milliseconds) as ``1 Dec 2026, 18:00:52 UTC``."""
    parsed = _parse_time(value)
    if parsed is None:
        return str(value) if value else "—"
    utc = parsed.astimezone(UTC)
    return f"{utc.day} {utc:%b %Y, %H:%M:%S} UTC"


def iso(value: Any) -> str:
    """The machine-readable form for ``<time datetime>``."""
    parsed = _parse_time(value)
    return parsed.astimezone(UTC).isoformat(timespec="seconds") if parsed else ""


def duration(ms: Any) -> str:
    """Milliseconds as ``850 ms``, ``12.3 s``, ``4 min 05 s`` or ``2 h 03 min``."""
    if not isinstance(ms, int | float) or isinstance(ms, bool) or ms < 0:
        return "—"
    if ms < 1000:
        return f"{ms:.0f} ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {sec:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def page_url(request: Request, **changes: Any) -> str:
    """The current page's URL with query parameters changed (empty values dropped)."""
    params = {k: v for k, v in request.query_params.items()}
    params.update({k: str(v) for k, v in changes.items()})
    kept = {k: v for k, v in params.items() if v != "" and not (k == "offset" and v == "0")}
    return request.url.path + ("?" + urlencode(kept) if kept else "")


def page_links(request: Request, page: Page[Any]) -> dict[str, str | None]:
    """The previous and next page URLs of ``page`` (None at either end)."""
    prev_url = None if page.prev_offset is None else page_url(request, offset=page.prev_offset)
    next_url = None if page.next_offset is None else page_url(request, offset=page.next_offset)
    return {"prev": prev_url, "next": next_url}


def _label(verdict: Any) -> str:
    return LABELS.get(str(verdict), str(verdict))


env.globals.update(
    source_url=source_url,
    section_anchor=section_anchor,
    record_url=record_url,
    trace_url=trace_url,
    ref_url=ref_url,
    labels=LABELS,
)
env.filters.update(verdict_label=_label, when=when, iso=iso, duration=duration)


#: The heading of an error page, by status.
_ERROR_TITLES = {400: "Bad request", 401: "API key needed", 403: "Refused", 404: "Not found",
                 413: "Request too large", 421: "Wrong address",
                 422: "Invalid request"}  # fmt: skip

#: Refusals of who asks or how (a key, another site, another name), never of the query.
_REFUSALS = frozenset({401, 403, 421})


def error_page(request: Request, status: int, message: str) -> Response:
    """An error as a page (the API answers the same status as JSON; the middleware's refusals
    before routing give a page its own message, what happened and what to do). A query
    parameter's place (``query.limit``) is named as the parameter alone."""
    title = _ERROR_TITLES.get(status, "Server error" if status >= 500 else "Error")
    shown = "; ".join(part.removeprefix("query.") for part in message.split("; "))
    # A form posted to a page has no page of its own to go back to (its path takes POST only),
    # and neither a refusal of the key or the address nor a failure of the server's own is
    # mended by dropping the query.
    asked = (
        request.method in ("GET", "HEAD")
        and bool(request.url.query)  # without a query the link would lead back here
        and status not in _REFUSALS
        and status < 500
    )
    back = request.url.path if asked else ""
    # A failure of the server's own is found in its log by the request id (never shown: why).
    rid = str(request.scope.get("spanproof.request_id", "")) if status >= 500 else ""
    context = {"title": title, "status": status, "message": shown, "back": back, "rid": rid}
    return templates.TemplateResponse(request, "error.html", context, status_code=status)


def not_found(request: Request, what: str) -> Response:
    return templates.TemplateResponse(
        request, "not_found.html", {"what": what, "title": "Not found"}, status_code=404
    )
