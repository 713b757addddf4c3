"""Browsing the store page by page: traces, sources and records with filters, a total and
what uses a source (the web UI's lists; SPEC §4.7, §2, §5).

Everything here composes the stores' own paged reads (``list_traces``, ``list_sources``,
``list_records``): a filtered list is read in pages, filtered in memory and counted, so its total
is exact up to :data:`SCAN_LIMIT` rows read (``Page.capped`` says when that limit was reached).
That costs a read of every row (for traces, their JSON), about 0.4 s per 1,000 small traces; the
unfiltered trace list reads one page only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, TypeVar

from spanproof.core.artifacts import ARTIFACT_KINDS, parse_ref, source_ref
from spanproof.core.errors import InvalidInputError
from spanproof.core.graph_store import GraphStore
from spanproof.core.outcome import headline, trace_outcome
from spanproof.core.record_store import RecordStore
from spanproof.core.records import RECORD_STATUSES, Record
from spanproof.core.store import EvidenceStore, Source, Version, iter_sources
from spanproof.core.trace import Trace, TraceStore

#: The most rows one listing reads to filter and count (a larger store says "at least").
SCAN_LIMIT = 10_000
#: Rows read from a store per call.
_BATCH = 200
#: Words of a draft shown when a trace has no question.
_TITLE_WORDS = 16

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a filtered list: ``items`` from ``offset``, of ``total`` that matched.

    ``capped``: the scan stopped at :data:`SCAN_LIMIT` rows, so ``total`` is a lower bound.
    """

    items: list[T]
    total: int
    offset: int
    limit: int
    capped: bool = False

    @property
    def first(self) -> int:
        """The 1-based position of the first item (0 when the page is empty)."""
        return self.offset + 1 if self.items else 0

    @property
    def last(self) -> int:
        return self.offset + len(self.items)

    @property
    def prev_offset(self) -> int | None:
        """The previous page's offset; past the end of the list, the last page's."""
        if self.offset <= 0:
            return None
        last_page = (max(self.total, 1) - 1) // self.limit * self.limit
        return max(0, min(self.offset - self.limit, last_page))

    @property
    def next_offset(self) -> int | None:
        return self.offset + self.limit if self.last < self.total else None


def check_page(limit: int, offset: int, most: int = 500) -> None:
    """Raises InvalidInputError for a limit outside 1..``most`` or a negative offset."""
    if not 1 <= limit <= most:
        raise InvalidInputError(f"limit must be 1..{most}, not {limit}")
    if offset < 0:
        raise InvalidInputError(f"offset must not be negative, not {offset}")


def check_record_filter(store: EvidenceStore, *, status: str = "", source_id: str = "") -> None:
    """Refuse a record filter that can match nothing because it names nothing: a status that is
    not a record status, or a source the store does not hold (an empty list would read as "no
    records" for a mistyped id).

    Raises:
        InvalidInputError: naming the status or the source.
    """
    if status and status not in RECORD_STATUSES:
        raise InvalidInputError(
            f"unknown status {status!r}; use one of {', '.join(RECORD_STATUSES)}"
        )
    if source_id and store.get_source(source_id) is None:
        raise InvalidInputError(f"no source {source_id!r} in this store (ids match exactly)")


def _paged(
    rows: Iterator[T], keep: Callable[[T], bool], limit: int, offset: int, scan: int
) -> Page[T]:
    """The page ``[offset, offset + limit)`` of the rows ``keep`` accepts, and their count."""
    items: list[T] = []
    total = 0
    for read, row in enumerate(rows, start=1):
        if keep(row):
            if offset <= total < offset + limit:
                items.append(row)
            total += 1
        if read >= scan:
            return Page(items, total, offset, limit, capped=True)
    return Page(items, total, offset, limit)


# traces ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TraceSummary:
    """One line of the trace list: what was asked (or the draft's first words) and what came of
    it. ``outcome`` is an ``Outcome`` value, or ``unknown`` for a verdict spanproof never writes.
    """

    id: str
    seq: int
    kind: str
    title: str
    outcome: str
    headline: str
    counts: dict[str, int]
    claims: int
    evidence: int
    verification: str
    created_at: str
    source_ids: tuple[str, ...] = field(default=())
    #: The verdict of the question itself when it was a proposition ("Is it true that …"):
    #: ``supported`` | ``contradicted`` | ``unsupported``; "" otherwise. ``outcome`` is then that
    #: of the quoted evidence, which may all be supported while the proposition is contradicted.
    verdict: str = ""
    #: What the text search reads: the question, the draft and the claims (casefolded).
    searchable: str = field(default="", repr=False)


def _first_words(text: str, n: int = _TITLE_WORDS) -> str:
    words = text.split()
    return " ".join(words[:n]) + (" …" if len(words) > n else "")


def trace_title(trace: Trace) -> str:
    """The question asked, else the draft's first words, else the first claim's."""
    question = trace.request.get("question")
    if isinstance(question, str) and question.strip():
        return question.strip()
    if trace.draft.strip():
        return _first_words(trace.draft)
    for claim in trace.claims:
        text = claim.get("text")
        if isinstance(text, str) and text.strip():
            more = f" (+{len(trace.claims) - 1} more claims)" if len(trace.claims) > 1 else ""
            return _first_words(text) + more
    return "(empty)"


def proposition_verdict(trace: Trace) -> str:
    """The verdict a proposition question got (``Trace.proposition``), or "" (none, or an
    older trace, or a check that could not run)."""
    record = trace.proposition
    verdict = record.get("verdict") if isinstance(record, dict) else None
    return str(verdict) if verdict else ""


def trace_summary(trace: Trace) -> TraceSummary:
    outcome, counts = trace_outcome(trace)
    sources = sorted(
        {str(e["source_id"]) for e in trace.plan if isinstance(e.get("source_id"), str)}
    )
    return TraceSummary(
        id=trace.id,
        seq=trace.seq,
        kind=trace.kind,
        title=trace_title(trace),
        outcome=outcome.value if outcome is not None else "unknown",
        headline=(
            headline(outcome, counts, trace.verification)
            if outcome is not None
            else "? outcome unknown"
        ),
        counts=dict(sorted(counts.items())),
        claims=len(trace.claims),
        evidence=len(trace.plan),
        verification=trace.verification,
        created_at=trace.created_at,
        source_ids=tuple(sources),
        verdict=proposition_verdict(trace),
        searchable=" ".join(
            [trace.id, str(trace.request.get("question") or ""), trace.draft, *sources]
            + [str(c.get("text", "")) for c in trace.claims]
        ).casefold(),
    )


def _all_traces(traces: TraceStore) -> Iterator[TraceSummary]:
    offset = 0
    while True:
        batch = traces.list_traces(limit=_BATCH, offset=offset)
        yield from (trace_summary(t) for t in batch)
        if len(batch) < _BATCH:
            return
        offset += _BATCH


def browse_traces(
    traces: TraceStore,
    *,
    outcome: str = "",
    kind: str = "",
    q: str = "",
    source_id: str = "",
    limit: int = 25,
    offset: int = 0,
    scan: int = SCAN_LIMIT,
) -> Page[TraceSummary]:
    """Traces newest first, those with ``outcome`` and ``kind`` (when given) whose id, question,
    draft, claims or source ids contain ``q`` (case-insensitive), citing ``source_id``."""
    check_page(limit, offset)
    needle = q.strip().casefold()
    if not (outcome or kind or needle or source_id):
        # Unfiltered: read one page; the chain numbers traces 1..n with no gaps, so the newest
        # trace's seq is the total.
        newest = traces.list_traces(limit=1)
        page = [trace_summary(t) for t in traces.list_traces(limit=limit, offset=offset)]
        return Page(page, newest[0].seq if newest else 0, offset, limit)

    def keep(s: TraceSummary) -> bool:
        if (outcome and s.outcome != outcome) or (kind and s.kind != kind):
            return False
        if source_id and source_id not in s.source_ids:
            return False
        return not needle or needle in s.searchable

    return _paged(_all_traces(traces), keep, limit, offset, scan)


# sources ---------------------------------------------------------------------------------------
def shown_status(source: Source, current: Version | None, *, detail: bool = False) -> str:
    """The status a view shows: ``quarantined`` for an active source whose current version
    could not be parsed (nothing of it can be cited), with ``detail`` ``quarantined: v2 <the
    reason>``; else the stored status."""
    if source.status == "active" and current is not None and current.state == "quarantined":
        detailed = f"quarantined: v{current.number} {current.reason}".strip()
        return detailed if detail else "quarantined"
    return source.status


@dataclass(frozen=True, slots=True)
class SourceRow:
    """A source with its versions: ``latest`` the newest, ``current`` the one that is its content
    now (the newest, or an earlier one whose bytes came back); ``shown_status`` is
    ``quarantined`` when the source is active but its current version could not be parsed
    (nothing of it can be cited)."""

    source: Source
    versions: int
    latest: Version | None
    current: Version | None = None

    @property
    def shown_status(self) -> str:
        return shown_status(self.source, self.current)

    def to_dict(self) -> dict[str, Any]:
        """The row as ``spanproof sources --json`` and ``GET /v1/sources`` list it: the source,
        ``status`` as shown, ``source_status`` as stored, the number of ``versions``, and the
        ``latest_version`` and ``current_version`` in full (None for a source without one)."""
        return {
            **asdict(self.source),
            "status": self.shown_status,
            "source_status": self.source.status,
            "versions": self.versions,
            "latest_version": asdict(self.latest) if self.latest else None,
            "current_version": asdict(self.current) if self.current else None,
        }


def source_document(store: EvidenceStore, source: Source) -> dict[str, Any]:
    """One source as ``spanproof source --json`` and ``GET /v1/sources/{id}`` show it: the
    source, its versions, its current version and that version's sections (``key``, ``title``,
    ``ordinal``, ``chars``, ``text``)."""
    versions = store.versions(source.id)
    current = store.current_version(source.id)
    sections = store.sections(source.id, current.number) if current else []
    return {
        "source": asdict(source),
        "versions": [asdict(v) for v in versions],
        "current_version": asdict(current) if current else None,
        "sections": [
            {
                "key": s.key,
                "title": s.title,
                "ordinal": s.ordinal,
                "chars": len(s.text),
                "text": s.text,
            }
            for s in sections
        ],
    }


def _source_rows(store: EvidenceStore) -> Iterator[SourceRow]:
    for source in iter_sources(store, _BATCH):
        versions = store.versions(source.id)
        current = store.current_version(source.id) if versions else None
        yield SourceRow(source, len(versions), versions[-1] if versions else None, current)


def browse_sources(
    store: EvidenceStore,
    *,
    q: str = "",
    status: str = "",
    connector: str = "",
    limit: int = 50,
    offset: int = 0,
    scan: int = SCAN_LIMIT,
    most: int = 500,
) -> Page[SourceRow]:
    """Sources by id whose shown status is ``status`` and connector ``connector`` (when given)
    and whose id, title or external ids contain ``q`` (case-insensitive); ``limit`` is at most
    ``most``."""
    check_page(limit, offset, most)
    needle = q.strip().casefold()

    def keep(row: SourceRow) -> bool:
        if (status and row.shown_status != status) or (
            connector and row.source.connector != connector
        ):
            return False
        s = row.source
        hay = " ".join((s.id, s.title, *s.external_ids.values())).casefold()
        return not needle or needle in hay

    return _paged(_source_rows(store), keep, limit, offset, scan)


def connectors(store: EvidenceStore, scan: int = SCAN_LIMIT) -> list[str]:
    """The connectors of the sources (the first ``scan`` sources), sorted."""
    seen: set[str] = set()
    for n, source in enumerate(iter_sources(store, _BATCH), start=1):
        seen.add(source.connector)
        if n >= scan:
            break
    return sorted(seen)


# records ---------------------------------------------------------------------------------------
def browse_records(
    records: RecordStore,
    *,
    status: str = "",
    source_id: str = "",
    limit: int = 50,
    offset: int = 0,
    scan: int = SCAN_LIMIT,
) -> Page[Record]:
    """Records by id with ``status`` and from ``source_id`` (when given), and their count."""
    check_page(limit, offset)
    items = records.list_records(
        status=status or None, source_id=source_id or None, limit=limit, offset=offset
    )
    total, capped, read = 0, False, 0
    while True:  # count: ids only matter, read in large pages
        batch = records.list_records(
            status=status or None, source_id=source_id or None, limit=1000, offset=read
        )
        read += len(batch)
        if len(batch) < 1000:
            total = read
            break
        if read >= scan:
            total, capped = read, True
            break
    # A capped count is a lower bound that the page shown raises; an empty page past the end
    # counts nothing (its offset is not a record).
    return Page(items, max(total, offset + len(items)) if items else total, offset, limit, capped)


# what uses a source ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SourceUsage:
    """What rests on one source: the traces that cite it (newest first), its records and the
    artifacts built on them (refs, sorted)."""

    traces: Page[TraceSummary]
    records: Page[Record]
    artifacts: tuple[str, ...]


def source_usage(
    store: EvidenceStore, traces: TraceStore, source_id: str, *, limit: int = 25
) -> SourceUsage:
    """The traces, records and artifacts that use ``source_id`` (first ``limit`` of each)."""
    cited = browse_traces(traces, source_id=source_id, limit=limit)
    records = (
        browse_records(store, source_id=source_id, limit=limit)
        if isinstance(store, RecordStore)
        else Page([], 0, 0, limit)
    )
    artifacts: set[str] = set()
    if isinstance(store, GraphStore):
        for version in store.versions(source_id):
            for ref in store.dependents(source_ref(source_id, version.number), limit=1000):
                if ref.partition(":")[0] in ARTIFACT_KINDS:
                    artifacts.add(ref)
    return SourceUsage(cited, records, tuple(sorted(artifacts)))


def ref_parts(ref: str) -> tuple[str, str, int | None]:
    """``(kind, id, version)`` of a ref (``("", ref, None)`` when it is not one)."""
    try:
        parsed = parse_ref(ref)
    except InvalidInputError:
        return "", ref, None
    return parsed.kind, parsed.id, parsed.version
