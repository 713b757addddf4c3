"""Evidence records as a service (SPEC §5.1–§5.6): extract, verify, and run the faults.

* :func:`extract_records` proposes findings from a source version's sections (the rule-based
  extractor by default), locates each quotation and stores a ``proposed`` record per finding
  whose quotations were all found; a quotation not found is a defect and makes no record.
  Record ids are derived from the source, version, section and quotation text, so extracting
  twice stores nothing new (an existing record keeps its state).
* :func:`verify_record` runs the gate, then (only when the gate passes) the checker on the
  passages the quotations resolve to, then the decision. Every attempt is appended to the
  record with its model id, a hash of what the checker was shown (the prompt's hash for a
  :class:`PromptedChecker` such as the LLM checker), and timestamps. A checker whose output was
  unusable sends the record to review. A ``retry`` re-extracts from the source sections (the
  failed attempt is never edited) and checks the new proposal, while the budget allows; the
  record's final status is saved.
* :func:`faults_run` applies the six mutations to every verified record and counts where each
  was caught. Mutated records are checked in memory and never stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from spanproof.core.clock import utc_now
from spanproof.core.documents import ParsedSection
from spanproof.core.errors import InvalidInputError
from spanproof.core.record_store import RecordStore, record_store_of
from spanproof.core.records import Attempt, Record, Verdict
from spanproof.core.store import MASK, EvidenceStore
from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.evidence.check_prompt import is_unusable
from spanproof.evidence.checker import check
from spanproof.evidence.decision import Decision, decide
from spanproof.evidence.extraction import Finding, extract_findings, locate, to_record
from spanproof.evidence.faults import EXPECTED_CATCH, MUTATIONS, run_faults
from spanproof.evidence.gate import gate
from spanproof.services.impact import link_record, on_record_decided

Checker = Callable[[Record, Sequence[str]], Verdict]
Proposer = Callable[[Sequence[ParsedSection]], list[Finding]]


@runtime_checkable
class PromptedChecker(Protocol):
    """A checker that can name the hash of the prompt it sends (the LLM checker); an attempt
    records that hash instead of the hash of the record and passages."""

    def __call__(self, record: Record, passages: Sequence[str]) -> Verdict: ...

    def prompt_hash_for(self, record: Record, passages: Sequence[str]) -> str: ...


#: ``model_id`` of an attempt that ended at the gate (no model was called).
GATE_MODEL_ID = "gate"
_STATUS = {
    "verified": "verified",
    "rejected": "rejected",
    "review": "in_review",
    "quarantined": "quarantined",
}


def status_after(decision: Decision) -> str:
    """The record status a verification's ``decision`` leaves: ``in_review`` for ``review``,
    ``verified`` for ``unchanged`` (nothing was written: the record stays verified), else the
    outcome's own name (``verified``, ``rejected``, ``quarantined``)."""
    if decision.outcome == "unchanged":
        return "verified"
    return _STATUS[decision.outcome]


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
    """Extract records from ``source_id`` (by default its current version when that is parsed,
    else its newest parsed one) and store them.

    Raises:
        InvalidInputError: no such source, or no such parsed version.
    """
    records_store = record_store_of(store)
    versions = [v for v in store.versions(source_id) if v.state == "parsed"]
    if store.get_source(source_id) is None:
        raise InvalidInputError(f"no source {source_id!r}")
    if version is None:
        if not versions:
            raise InvalidInputError(f"source {source_id!r} has no parsed version")
        current = store.current_version(source_id)
        parsed = current is not None and current.state == "parsed"
        version = current.number if current is not None and parsed else versions[-1].number
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
        if any(MASK in q.text for q in quotations):  # erased text is never quoted
            defects.append("a finding that quotes erased text was left out")
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
            with store.transaction():
                records_store.put_record(existing)
                link_record(store, existing)
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


def _decide(verdict: Verdict, used: int, budget: int) -> Decision:
    """:func:`decide`, except that a checker whose output was unusable sends to review (its
    failed checks were never made, so they must not reject or retry)."""
    if is_unusable(verdict):
        reason = "the checker's output was unusable: a reviewer decides beside the passage"
        return Decision("review", reason, verdict.failed())
    return decide(verdict, used, budget)


@dataclass(frozen=True, slots=True)
class Run:
    """One verification run's fixed facts: the record as stored before the run (None when it
    was new) and the number its first attempt takes."""

    previous: Record | None
    first: int


def begin_verification(store: EvidenceStore, record: Record) -> Run:
    """Store ``record`` (with its edge from the source version) when it is new; the run's facts."""
    records_store = record_store_of(store)
    stored = records_store.get_record(record.id)
    if stored is None:
        with store.transaction():
            records_store.put_record(record)
            link_record(store, record)
    return Run(stored, len(records_store.attempts(record.id)) + 1)


def stored_decision(attempt: Attempt, used: int, budget: int) -> Decision:
    """The decision a stored attempt made (rebuilt from its verdict, no checker call)."""
    if attempt.stage == "gate" or attempt.verdict is None:
        return Decision("quarantined", "gate failed: " + "; ".join(attempt.defects))
    return _decide(attempt.verdict, used, budget)


def attempt_verification(
    store: EvidenceStore,
    record: Record,
    number: int,
    used: int,
    budget: int,
    checker: Checker = check,
) -> Decision:
    """Attempt ``number`` (the ``used``-th of the run): gate, then (only when it passes) the
    checker on the passages, then the decision; the attempt is appended to the record.

    Idempotent: when attempt ``number`` is already stored (a run resumed after a crash) its
    decision is rebuilt from it and nothing is checked or stored again.
    """
    records_store = record_store_of(store)
    done = {a.number: a for a in records_store.attempts(record.id)}
    if number in done:
        return stored_decision(done[number], used, budget)
    texts = {s.key: s.text for s in _sections(store, record.source_id, record.version)}
    started = utc_now()
    defects = gate(record, texts)
    if defects:
        attempt = Attempt(
            number, "gate", "quarantined", None, tuple(defects), GATE_MODEL_ID,
            sha256_hex(canonical_json(record.to_dict())), started, utc_now(),
        )  # fmt: skip
        records_store.add_attempt(record.id, attempt)
        return Decision("quarantined", "gate failed: " + "; ".join(defects))
    passages = _passages(record, texts)
    shown = _prompt_hash(checker, record, passages)
    verdict = checker(record, passages)
    decision = _decide(verdict, used, budget)
    attempt = Attempt(
        number, "check", decision.outcome, verdict, (), verdict.model_id, shown, started, utc_now()
    )
    records_store.add_attempt(record.id, attempt)
    return decision


def _prompt_hash(checker: Checker, record: Record, passages: Sequence[str]) -> str:
    """What an attempt records of what the checker was shown: the prompt's hash for a
    :class:`PromptedChecker`, else the hash of the record and its passages."""
    if isinstance(checker, PromptedChecker):
        return checker.prompt_hash_for(record, passages)
    return sha256_hex(canonical_json({"record": record.to_dict(), "passages": passages}))


def unchanged_since(
    store: EvidenceStore, record: Record, checker: Checker = check
) -> Decision | None:
    """``unchanged`` when ``record`` is stored verified and checking it again would repeat its
    last attempt: the same record and passages (the attempt's prompt hash), the gate passing
    and the checker answering the very verdict that attempt holds. None otherwise (a new attempt
    is due).

    The checker is called (a changed checker or model must be seen); when its verdict differs,
    the run that follows calls it again and records what it answers then.
    """
    records_store = record_store_of(store)
    stored = records_store.get_record(record.id)
    proposed = dataclasses.replace(record, status="proposed")  # as attempts hash it
    if stored is None or stored.status != "verified":
        return None
    if dataclasses.replace(stored, status="proposed") != proposed:
        return None
    attempts = records_store.attempts(record.id)
    last = attempts[-1] if attempts else None
    if last is None or last.stage != "check" or last.outcome != "verified" or not last.verdict:
        return None
    texts = {s.key: s.text for s in _sections(store, record.source_id, record.version)}
    if gate(proposed, texts):
        return None
    passages = _passages(proposed, texts)
    if _prompt_hash(checker, proposed, passages) != last.prompt_hash:
        return None
    if checker(proposed, passages).to_dict() != last.verdict.to_dict():
        return None
    return Decision(
        "unchanged",
        f"unchanged since attempt {last.number}: the same record, passages and verdict "
        "(no attempt added)",
    )


def reextract(
    store: EvidenceStore, record: Record, propose: Proposer = extract_findings
) -> Record | None:
    """A fresh proposal for ``record`` from its source sections (never an edit of it), or None."""
    return _reextract(record, _sections(store, record.source_id, record.version), propose)


def finish_verification(
    store: EvidenceStore, record: Record, decision: Decision, run: Run
) -> Record:
    """Store the record with the status its decision gives, and start the impact walk that
    move calls for, in one transaction."""
    final = dataclasses.replace(record, status=_STATUS[decision.outcome])
    with store.transaction():
        record_store_of(store).put_record(final)
        on_record_decided(store, final, run.previous, event=f"attempt-{run.first}")
    return final


def _refuse_if_reviewed(records_store: RecordStore, record_id: str) -> None:
    """Refuse to check again a record whose status a reviewer set (its latest attempt is the
    reviewer's decision)."""
    attempts = records_store.attempts(record_id)
    if attempts and attempts[-1].outcome.startswith("review:"):
        last = attempts[-1]
        reviewer = last.model_id.removeprefix("reviewer:")
        decision = last.outcome.removeprefix("review:")
        raise InvalidInputError(
            f"record {record_id!r} was decided by reviewer {reviewer} ({decision}, attempt "
            f"{last.number}): the checks do not overrule a reviewer's decision"
        )


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
    its final status and every attempt is appended. A verified record that checks exactly as its
    last attempt did is ``unchanged`` (:func:`unchanged_since`): nothing is stored, so checking
    it again never piles up identical attempts. The durable workflow runs the same steps
    (:func:`begin_verification`, :func:`attempt_verification`, :func:`reextract`,
    :func:`finish_verification`) one journalled step each.

    Raises:
        InvalidInputError: ``budget`` is below 1, or a reviewer decided the record last (the
            checks never overrule a reviewer: their decision stands as the record's status).
    """
    if budget < 1:
        raise InvalidInputError(f"budget must be at least 1; got {budget}")
    _refuse_if_reviewed(record_store_of(store), record.id)
    unchanged = unchanged_since(store, record, checker)
    if unchanged is not None:
        return unchanged
    run = begin_verification(store, record)
    current = dataclasses.replace(record, status="proposed")
    decision = Decision("review", "no attempt was made")
    for used in range(1, budget + 1):
        decision = attempt_verification(store, current, run.first + used - 1, used, budget, checker)
        if decision.outcome != "retry":
            break
        fresh = reextract(store, current, propose)
        if fresh is None:
            decision = Decision("review", "re-extraction found no finding at these quotations")
            break
        current = fresh
    finish_verification(store, current, decision, run)
    return decision


def verify_all(
    store: EvidenceStore, *, budget: int = 3, checker: Checker = check
) -> list[tuple[Record, Decision]]:
    """Verify every ``proposed`` record of the store."""
    records_store = record_store_of(store)
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
    records_store = record_store_of(store)
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
