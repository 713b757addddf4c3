"""HTML pages of the store's contents: the sources list, a source (with what uses it), the
records list and a record (statement, fields, quotations in their passages, attempts and what
depends on it)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import RedirectResponse, Response

from spanproof.api.state import AppState, get_state
from spanproof.core.artifacts import record_ref
from spanproof.core.errors import SpanproofError
from spanproof.core.record_store import RecordStore
from spanproof.core.records import RECORD_STATUSES, Record
from spanproof.core.store import SOURCE_STATUSES, EvidenceStore, Version
from spanproof.services import impact as impact_service
from spanproof.services.browse import (
    Page,
    browse_records,
    browse_sources,
    check_record_filter,
    connectors,
    shown_status,
    source_usage,
)
from spanproof.services.erasure import shown_attempts
from spanproof.services.review import passages, source_note
from spanproof.web.templating import not_found, page_links, templates

router = APIRouter(include_in_schema=False)
State = Annotated[AppState, Depends(get_state)]
#: What the sources list can filter on: a source's status, or its current version quarantined.
SHOWN_STATUSES = (*SOURCE_STATUSES, "quarantined")


def record_or_none(store: EvidenceStore, record_id: str) -> Record | None:
    return store.get_record(record_id) if isinstance(store, RecordStore) else None


@router.get("/sources")
def sources_page(
    request: Request,
    state: State,
    q: Annotated[str, Query(max_length=500)] = "",
    status: Annotated[str, Query(max_length=40)] = "",
    connector: Annotated[str, Query(max_length=100)] = "",
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> Response:
    """Sources by id with their status, versions and connector; search, filters, pages."""
    page = browse_sources(
        state.store, q=q, status=status, connector=connector, limit=limit, offset=offset
    )
    context = {
        "title": "Sources",
        "page": page,
        "links": page_links(request, page),
        "q": q,
        "status": status,
        "connector": connector,
        "statuses": SHOWN_STATUSES,
        "connectors": connectors(state.store),
        "filtered": bool(q.strip() or status or connector),
    }
    return templates.TemplateResponse(request, "sources.html", context)


def _pick_version(
    versions: list[Version], wanted: int | None, current: Version | None
) -> Version | None:
    """The version asked for; else the current one when it is parsed, else the newest parsed."""
    if wanted is not None:
        return next((v for v in versions if v.number == wanted), None)
    if current is not None and current.state == "parsed":
        return current
    parsed = [v for v in versions if v.state == "parsed"]
    return max(parsed or versions, key=lambda v: v.number, default=None)


@router.get("/sources/{source_id:path}")
def source_page(
    source_id: str,
    request: Request,
    state: State,
    v: Annotated[int | None, Query(ge=1)] = None,
) -> Response:
    if not source_id:
        return RedirectResponse("/sources", status_code=307)
    source = state.store.get_source(source_id)
    if source is None:
        return not_found(request, f"source {source_id!r}")
    versions = state.store.versions(source_id)
    current = state.store.current_version(source_id)
    version = _pick_version(versions, v, current)
    if v is not None and version is None:
        return not_found(request, f"version {v} of source {source_id!r}")
    sections = state.store.sections(source_id, version.number) if version is not None else []
    context = {
        "title": source.title or source.id,
        "source": source,
        "status": shown_status(source, current, detail=True),
        "versions": versions,
        "version": version,
        "current": current,
        "sections": sections,
        "usage": source_usage(state.store, state.traces, source_id),
    }
    return templates.TemplateResponse(request, "source.html", context)


@router.get("/records")
def records_page(
    request: Request,
    state: State,
    status: Annotated[str, Query(max_length=40)] = "",
    source: Annotated[str, Query(max_length=1000)] = "",
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> Response:
    """Evidence records by id, filtered by status and source."""
    error = ""
    page: Page[Record] = Page([], 0, offset, limit)
    if isinstance(state.store, RecordStore):
        try:
            check_record_filter(state.store, status=status, source_id=source.strip())
            page = browse_records(
                state.store, status=status, source_id=source.strip(), limit=limit, offset=offset
            )
        except SpanproofError as exc:
            error = str(exc)
    else:
        error = "this store keeps no evidence records"
    context = {
        "title": "Records",
        "page": page,
        "links": page_links(request, page),
        "status": status,
        "source": source,
        "statuses": RECORD_STATUSES,
        "error": error,
        "filtered": bool(status or source.strip()),
    }
    return templates.TemplateResponse(request, "records.html", context)


@router.get("/records/{record_id}")
def record_page(record_id: str, request: Request, state: State) -> Response:
    store = state.store
    record = record_or_none(store, record_id)
    if record is None or not isinstance(store, RecordStore):
        return not_found(request, f"record {record_id!r}")
    report, error = None, ""
    try:
        report = impact_service.impact(store, record_ref(record.id))
    except SpanproofError as exc:
        error = str(exc)
    source = store.get_source(record.source_id)
    source_status = source.status if source is not None else "active"
    context = {
        "title": f"Record {record.id}",
        "record": record,
        "source": source,
        "source_status": source_status,
        "source_note": source_note(record, source_status),
        "passages": passages(store, record),
        "attempts": shown_attempts(store.attempts(record.id)),
        "report": report,
        "impact_error": error,
        "ref": record_ref(record.id),
    }
    return templates.TemplateResponse(request, "record.html", context)
