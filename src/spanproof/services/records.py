"""Evidence records as a service (SPEC §5.1–§5.6): extract, verify, and run the faults.

* :func:`extract_records` proposes findings from a source version's sections (the rule-based
  extractor by default), locates each quotation and stores a ``proposed`` record per finding
  whose quotations were all found; a quotation not found is a defect and makes no record.
  Record ids are derived from the source, version, section and quotation text, so extracting
  twice stores nothing new (an existing record keeps its state).
* :func:`verify_record` runs the gate, then (only when the gate passes) the checker on the
  passages the quotations resolve to, then the decision. Every attempt is appended to the
  record with its model id, a hash of what the checker was shown, and timestamps. A ``retry``
  re-extracts from the source sections (the failed attempt is never edited) and checks the new
  proposal, while the budget allows; the record's final status is saved.
* :func:`faults_run` applies the six mutations to every verified record and counts where each
  was caught. Mutated records are checked in memory and never stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import InvalidInputError
from spanproof.core.record_store import RecordStore
from spanproof.core.records import Attempt, Record, Verdict
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.evidence.checker import check
from spanproof.evidence.decision import Decision, decide
from spanproof.evidence.extraction import Finding, extract_findings, locate, to_record
from spanproof.evidence.faults import EXPECTED_CATCH, MUTATIONS, run_faults
from spanproof.evidence.gate import gate

Checker = Callable[[Record, Sequence[str]], Verdict]
Proposer = Callable[[Sequence[ParsedSection]], list[Finding]]

#: ``model_id`` of an attempt that ended at the gate (no model was called).
GATE_MODEL_ID = "gate"
_STATUS = {
    "verified": "verified",
    "rejected": "rejected",
    "review": "in_review",
    "quarantined": "quarantined",
}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _records(store: EvidenceStore) -> RecordStore:
    if not isinstance(store, RecordStore):
        raise InvalidInputError(f"{type(store).__name__} keeps no evidence records")
    return store


def _sections(store: EvidenceStore, source_id: str, version: int) -> list[ParsedSection]:
    return [ParsedSection(s.key, s.title, s.text) for s in store.sections(source_id, version)]


def _record_id(source_id: str, version: int, finding: Finding) -> str:
    key = canonical_json(
        [source_id, version, [[q.section_key, q.text] for q in finding.quotations]]
    )
    return f"rec-{sha256_hex(key)[:16]}"


@dataclass(frozen=True, slots=True)
class Extraction:
    """What one extraction stored: the records (new or existing) and the defects."""

    records: list[Record]
    defects: list[str]


def extract(
    store: EvidenceStore,
    source_id: str,
    version: int | None = None,
    *,
    propose: Proposer = extract_findings,
) -> Extraction:
    """Extract records from ``source_id`` (its newest parsed version by default) and store them.

    Raises:
        InvalidInputError: no such source, or no such parsed version.
    """
    records_store = _records(store)
    versions = [v for v in store.versions(source_id) if v.state == "parsed"]
    if store.get_source(source_id) is None:
        raise InvalidInputError(f"no source {source_id!r}")
    if version is None:
        if not versions:
            raise InvalidInputError(f"source {source_id!r} has no parsed version")
        version = versions[-1].number
    elif version not in {v.number for v in versions}:
        raise InvalidInputError(f"source {source_id!r} has no parsed version {version}")
    sections = _sections(store, source_id, version)
    out: list[Record] = []
    defects: list[str] = []
    seen: set[str] = set()
    for finding in propose(sections):
        quotations, missing = locate(finding, sections)
        if missing:
            defects.extend(missing)
            continue
        record_id = _record_id(source_id, version, finding)
        if record_id in seen:
            continue
        seen.add(record_id)
        existing = records_store.get_record(record_id)
        if existing is None:
            existing = to_record(
                finding, quotations, record_id=record_id, source_id=source_id, version=version
            )
            records_store.put_record(existing)
        out.append(existing)
    return Extraction(out, defects)


def extract_records(
    store: EvidenceStore,
    source_id: str,
    version: int | None = None,
    *,
    propose: Proposer = extract_findings,
) -> list[Record]:
    """The records :func:`extract` stores (defects dropped)."""
    return extract(store, source_id, version, propose=propose).records


def _passages(record: Record, texts: dict[str, str]) -> list[str]:
    return [texts.get(q.section_key, "")[q.start : q.end] for q in record.quotations]


def _reextract(
    record: Record, sections: Sequence[ParsedSection], propose: Proposer
) -> Record | None:
    """A fresh proposal for ``record`` from the source sections: the finding whose quotations
    overlap the record's most (same section, overlapping offsets), or None."""
    best: tuple[int, Record] | None = None
    for finding in propose(sections):
        quotations, missing = locate(finding, sections)
        if missing:
            continue
        overlap = sum(
            max(0, min(a.end, b.end) - max(a.start, b.start))
            for a in quotations
            for b in record.quotations
            if a.section_key == b.section_key
        )
        if overlap > 0 and (best is None or overlap > best[0]):
            candidate = to_record(
                finding,
                quotations,
                record_id=record.id,
                source_id=record.source_id,
                version=record.version,
            )
            best = (overlap, candidate)
    return None if best is None else best[1]


def verify_record(
    store: EvidenceStore,
    record: Record,
    *,
    budget: int = 3,
    checker: Checker = check,
    propose: Proposer = extract_findings,
) -> Decision:
    """Verify ``record``: gate, check, decide, retrying by re-extraction within ``budget``.

    The returned decision's ``outcome`` is ``verified``, ``rejected``, ``review`` or
    ``quarantined`` (the gate failed; the checker was not called). The record is stored with
    its final status and every attempt is appended.

    Raises:
        InvalidInputError: ``budget`` is below 1.
    """
    if budget < 1:
        raise InvalidInputError(f"budget must be at least 1; got {budget}")
    records_store = _records(store)
    sections = _sections(store, record.source_id, record.version)
    texts = {s.key: s.text for s in sections}
    if records_store.get_record(record.id) is None:
        records_store.put_record(record)
    number = len(records_store.attempts(record.id))
    current = dataclasses.replace(record, status="proposed")
    decision = Decision("review", "no attempt was made")
    for used in range(1, budget + 1):
        number += 1
        started = _now()
        defects = gate(current, texts)
        if defects:
            decision = Decision("quarantined", "gate failed: " + "; ".join(defects))
            attempt = Attempt(
                number, "gate", "quarantined", None, tuple(defects), GATE_MODEL_ID,
                sha256_hex(canonical_json(current.to_dict())), started, _now(),
            )  # fmt: skip
            records_store.add_attempt(record.id, attempt)
            break
        passages = _passages(current, texts)
        shown = sha256_hex(canonical_json({"record": current.to_dict(), "passages": passages}))
        verdict = checker(current, passages)
        decision = decide(verdict, used, budget)
        attempt = Attempt(
            number, "check", decision.outcome, verdict, (), verdict.model_id, shown, started,
            _now(),
        )  # fmt: skip
        records_store.add_attempt(record.id, attempt)
        if decision.outcome != "retry":
            break
        fresh = _reextract(current, sections, propose)
        if fresh is None:
            decision = Decision("review", "re-extraction found no finding at these quotations")
            break
        current = fresh
    records_store.put_record(dataclasses.replace(current, status=_STATUS[decision.outcome]))
    return decision


def verify_all(
    store: EvidenceStore, *, budget: int = 3, checker: Checker = check
) -> list[tuple[Record, Decision]]:
    """Verify every ``proposed`` record of the store."""
    records_store = _records(store)
    pending = _all(records_store, "proposed")
    return [(r, verify_record(store, r, budget=budget, checker=checker)) for r in pending]


def _all(records_store: RecordStore, status: str | None) -> list[Record]:
    out: list[Record] = []
    while True:
        page = records_store.list_records(status=status, limit=500, offset=len(out))
        out.extend(page)
        if len(page) < 500:
            return out


@dataclass(slots=True)
class FaultRow:
    """One mutation over the records: how often it applied, was caught as expected, and by what.

    ``caught_by`` counts each check (``gate``, a check name, ``label``) that caught it.
    """

    mutation: str
    expected: str
    applied: int = 0
    not_applicable: int = 0
    ok: int = 0
    caught_by: dict[str, int] = field(default_factory=dict)

    @property
    def all_ok(self) -> bool:
        return self.applied > 0 and self.ok == self.applied

    def to_dict(self) -> dict[str, Any]:
        return {
            "mutation": self.mutation,
            "expected": self.expected,
            "applied": self.applied,
            "not_applicable": self.not_applicable,
            "caught_at_expected": self.ok,
            "caught_by": dict(sorted(self.caught_by.items())),
            "ok": self.all_ok,
        }


@dataclass(frozen=True, slots=True)
class FaultTable:
    """The catch table of :func:`faults_run`: one row per mutation, in :data:`MUTATIONS` order."""

    records: int
    rows: list[FaultRow]

    @property
    def all_ok(self) -> bool:
        return all(row.all_ok for row in self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "rows": [row.to_dict() for row in self.rows],
            "ok": self.all_ok,
        }


def faults_run(store: EvidenceStore) -> FaultTable:
    """Run the six mutations on every verified record; nothing is written to the store."""
    records_store = _records(store)
    rows = {name: FaultRow(name, EXPECTED_CATCH[name]) for name in MUTATIONS}
    verified = _all(records_store, "verified")
    texts: dict[tuple[str, int], dict[str, str]] = {}
    for record in verified:
        key = (record.source_id, record.version)
        if key not in texts:
            texts[key] = {s.key: s.text for s in store.sections(*key)}
        for result in run_faults(record, texts[key]):
            row = rows[result.mutation]
            if result.caught_by == ("not_applicable",):
                row.not_applicable += 1
                continue
            row.applied += 1
            row.ok += int(result.ok)
            for name in result.caught_by:
                row.caught_by[name] = row.caught_by.get(name, 0) + 1
    return FaultTable(len(verified), list(rows.values()))
