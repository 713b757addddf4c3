"""Erasure across the store (SPEC §7): the masked range, and the evidence records that quoted it.

The store masks the range in what it serves, indexes and resolves (``add_erasure``). A record
keeps copies of what it quotes — its quotations, its statement and its fields — so an erasure
would otherwise go on being served through it. :func:`erase` masks those copies in the same
transaction: each quotation over the range is cut again from the masked section text, the
statement and the free-text fields become :data:`ERASED`, and the record is quarantined with an
attempt saying why (a verified one starts a ``reproposed`` walk, so what is built on it is
flagged). Its earlier attempts are append-only but for this one change: their checks lose the
passage text they quoted (:data:`ERASED` in its place). :func:`shown_attempts` — what every
view of a record shows — withholds that text too, for attempts stored before erasures reached
them. Traces that read the range (a planned span over it) are masked too
(:func:`spanproof.core.trace_erasure.erase_in_trace`): their passages, every copy of the erased
text in their drafts, answers and claims, and the vectors of what was masked; the digests of
the masked strings keep the hash chain checkable (``core.trace``). Such a trace no longer
replays: the text its scores were computed from is gone.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from spanproof.core.clock import utc_now
from spanproof.core.errors import InvalidInputError
from spanproof.core.record_store import RecordStore
from spanproof.core.records import Attempt, Quotation, Record, Verdict
from spanproof.core.store import Erasure, EvidenceStore
from spanproof.core.trace import TraceStore
from spanproof.core.trace_erasure import TraceErasure, erase_in_trace
from spanproof.services.impact import on_record_decided

#: What replaces an erased record's statement and free-text fields.
ERASED = "[erased]"
#: The model id of the attempt an erasure adds to a record it masks.
ERASURE_ATTEMPT = "erasure"
#: Records of one source read per page while looking for those an erasure touches.
_PAGE = 500


@dataclass(frozen=True, slots=True)
class ErasureOutcome:
    """The erasure (a new one, or the same range erased before) and the records it masked."""

    erasure: Erasure
    records: tuple[str, ...]
    traces: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        e = self.erasure
        return {
            "id": e.id,
            "source_id": e.source_id,
            "version": e.version,
            "section": e.section_key,
            "start": e.start,
            "end": e.end,
            "reason": e.reason,
            "records_masked": list(self.records),
            "traces_masked": list(self.traces),
        }


def erase(
    store: EvidenceStore,
    source_id: str,
    version: int,
    section_key: str,
    start: int,
    end: int,
    reason: str,
) -> ErasureOutcome:
    """Mask ``[start, end)`` of a section and every record's copy of it, in one transaction.

    Raises:
        InvalidInputError: a blank reason, an empty range, an unknown source, version or
            section, or a range outside the section.
    """
    reason = reason.strip()
    if not reason:
        raise InvalidInputError("a reason is required: say why the range is erased")
    if start >= end:
        raise InvalidInputError(f"empty range: start {start} must be below end {end}")
    if store.get_source(source_id) is None:
        raise InvalidInputError(f"unknown source {source_id!r}")
    if not any(v.number == version for v in store.versions(source_id)):
        raise InvalidInputError(f"{source_id} has no version {version}")
    section = store.section(source_id, version, section_key)
    if section is None:
        raise InvalidInputError(f"no section {section_key!r} in {source_id} v{version}")
    if not 0 <= start < end <= len(section.text):
        raise InvalidInputError(f"range [{start}, {end}) outside 0..{len(section.text)}")
    masked: list[str] = []
    traces: list[str] = []
    before = section.text[start:end]  # as served: earlier erasures' masks included
    with store.transaction():
        erasure = store.add_erasure(source_id, version, section_key, start, end, reason)
        if isinstance(store, TraceStore):
            traces = _mask_traces(store, TraceErasure(erasure, before))
        if isinstance(store, RecordStore):
            served = store.section(source_id, version, section_key)
            text = served.text if served is not None else ""
            for record in _records_of(store, source_id, version):
                if not any(_over(q, section_key, start, end) for q in record.quotations):
                    continue
                changed = _masked(record, section_key, text)
                if changed == record:
                    continue  # the same range erased again: masked already
                _quarantine(store, record, changed, erasure)
                masked.append(record.id)
    return ErasureOutcome(erasure, tuple(masked), tuple(traces))


def _mask_traces(store: TraceStore, erased: TraceErasure) -> list[str]:
    """Mask what the traces that read the range copied of it; the ids of those masked."""
    masked = []
    for trace in store.traces_citing(erased.erasure.source_id):
        changed = erase_in_trace(trace, erased)
        if changed is not None:
            store.store_erased(changed)
            masked.append(trace.id)
    return masked


def _records_of(store: RecordStore, source_id: str, version: int) -> list[Record]:
    out: list[Record] = []
    offset = 0
    while True:
        page = store.list_records(source_id=source_id, limit=_PAGE, offset=offset)
        out.extend(r for r in page if r.version == version)
        if len(page) < _PAGE:
            return out
        offset += _PAGE


def _over(q: Quotation, section_key: str, start: int, end: int) -> bool:
    return q.section_key == section_key and q.start < end and start < q.end


def _masked(record: Record, section_key: str, text: str) -> Record:
    """``record`` (one of whose quotations lies over an erased range of the section) with its
    quotations of the section cut again from the masked ``text``, its statement and free-text
    fields erased, quarantined."""
    quotations = tuple(
        dataclasses.replace(q, text=text[q.start : q.end])
        if q.section_key == section_key and q.end <= len(text)
        else q
        for q in record.quotations
    )
    fields = record.fields
    erased_fields = dataclasses.replace(
        fields,
        subject=ERASED,
        endpoint=ERASED,
        species=ERASED,
        treatment=ERASED if fields.treatment else "",
        scope=ERASED if fields.scope else "",
    )
    return dataclasses.replace(
        record,
        statement=ERASED,
        quotations=quotations,
        fields=erased_fields,
        status="quarantined",
    )


def _quarantine(store: RecordStore, record: Record, changed: Record, erasure: Erasure) -> None:
    """Store the masked record with an attempt that says why; a verified record's move starts
    a ``reproposed`` walk (:func:`~spanproof.services.impact.on_record_decided`)."""
    now = utc_now()
    earlier = store.attempts(record.id)
    for attempt in earlier:  # the passage text their checks quoted may be the erased text
        withheld = _withheld(attempt)
        if withheld != attempt:
            store.store_erased_attempt(record.id, withheld)
    number = len(earlier) + 1
    why = f"a quotation's range was erased (erasure #{erasure.id}: {erasure.reason})"
    attempt = Attempt(number, "gate", "quarantined", None, (why,), ERASURE_ATTEMPT, "", now, now)
    store.add_attempt(record.id, attempt)
    store.put_record(changed)
    on_record_decided(store, changed, record, event=f"erasure-{erasure.id}")


def shown_attempts(attempts: list[Attempt]) -> list[Attempt]:
    """``attempts`` as a view shows them: the checks of every attempt before the record's last
    erasure keep their names and results but not the passage text they quoted, which may be
    the erased text."""
    last = max((i for i, a in enumerate(attempts) if a.model_id == ERASURE_ATTEMPT), default=-1)
    return [_withheld(a) if i < last else a for i, a in enumerate(attempts)]


def _withheld(attempt: Attempt) -> Attempt:
    if attempt.verdict is None:
        return attempt
    checks = tuple(
        dataclasses.replace(c, quote=ERASED) if c.quote else c for c in attempt.verdict.checks
    )
    verdict: Verdict = dataclasses.replace(attempt.verdict, checks=checks)
    return dataclasses.replace(attempt, verdict=verdict)
