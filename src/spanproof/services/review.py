"""The review queue and fault injection (SPEC §5.5–§5.6).

* :func:`review_queue` lists the ``in_review`` records, each with its passages (the section
  text around every quotation, the quotation itself kept apart so it can be highlighted) and
  its attempts.
* :func:`decide_review` approves (→ ``verified``) or rejects (→ ``rejected``) a record that is
  ``in_review``; the decision is appended as an attempt (stage ``check``, outcome
  ``review:approve`` or ``review:reject``, model id ``reviewer:<name>``, the reason as its one
  note in ``defects``), so who decided, when and why stays on the record.
* :func:`inject_fault` applies one named mutation to a stored record as an operator would and
  re-proposes it: the gate, then (when the gate passes) the checker and the decision, all in
  memory. The mutated copy is never stored and never becomes evidence.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from spanproof.core.clock import utc_now
from spanproof.core.errors import InvalidInputError
from spanproof.core.graph_store import GraphStore
from spanproof.core.record_store import RecordStore, record_store_of
from spanproof.core.records import Attempt, Record
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.evidence.checker import check
from spanproof.evidence.decision import decide
from spanproof.evidence.faults import EXPECTED_CATCH, MUTATIONS
from spanproof.evidence.gate import gate
from spanproof.services.artifacts import expert_review_pending
from spanproof.services.erasure import shown_attempts
from spanproof.services.impact import on_record_decided

#: Characters of section text shown on each side of a quotation.
CONTEXT_CHARS = 400
DECISIONS = ("approve", "reject")
_DECIDED = {"approve": "verified", "reject": "rejected"}
#: A reviewer decides records in review, and may look once at a verified one (the sole evidence
#: of an assessment waits for exactly that look: SPEC §5.5).
_DECIDABLE = ("in_review", "verified")


def _record(records: RecordStore, record_id: str) -> Record:
    record = records.get_record(record_id)
    if record is None:
        raise InvalidInputError(f"unknown record {record_id!r}")
    return record


@dataclass(frozen=True, slots=True)
class Passage:
    """One quotation in its section: ``before`` + ``quote`` + ``after`` is a window of the
    section's canonical text (``truncated_before``/``_after`` say whether text was cut off).
    ``found`` is False when the quotation no longer resolves in the stored section."""

    section_key: str
    section_title: str
    before: str
    quote: str
    after: str
    truncated_before: bool
    truncated_after: bool
    found: bool

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """A record waiting for a reviewer, with its passages and every attempt so far."""

    record: Record
    passages: tuple[Passage, ...]
    attempts: tuple[Attempt, ...]
    #: Assessments waiting on this verified record: it is their only affirmative evidence.
    assessments: tuple[str, ...] = ()
    #: The status of the record's source (``retracted`` or ``withdrawn`` tells the reviewer
    #: that an approval makes no eligible evidence).
    source_status: str = "active"

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record.to_dict(),
            "passages": [p.to_dict() for p in self.passages],
            "attempts": [a.to_dict() for a in self.attempts],
            "assessments": list(self.assessments),
            "source_status": self.source_status,
        }


def passages(store: EvidenceStore, record: Record) -> tuple[Passage, ...]:
    """The section text around each of ``record``'s quotations."""
    out: list[Passage] = []
    for q in record.quotations:
        section = store.section(record.source_id, record.version, q.section_key)
        text = section.text if section is not None else ""
        title = section.title if section is not None else ""
        found = section is not None and 0 <= q.start <= q.end <= len(text)
        if not found:
            out.append(Passage(q.section_key, title, "", q.text, "", False, False, False))
            continue
        lo = max(0, q.start - CONTEXT_CHARS)
        hi = min(len(text), q.end + CONTEXT_CHARS)
        out.append(
            Passage(
                q.section_key,
                title,
                text[lo : q.start],
                text[q.start : q.end],
                text[q.end : hi],
                lo > 0,
                hi < len(text),
                True,
            )
        )
    return tuple(out)


def _all_in_review(records: RecordStore) -> list[Record]:
    out: list[Record] = []
    while True:
        page = records.list_records(status="in_review", limit=500, offset=len(out))
        out.extend(page)
        if len(page) < 500:
            return out


def source_status_of(store: EvidenceStore, record: Record) -> str:
    """The status of the record's source: ``active``, ``corrected``, ``withdrawn`` or
    ``retracted`` (``active`` for a source the store does not hold)."""
    source = store.get_source(record.source_id)
    return source.status if source is not None else "active"


def record_document(store: EvidenceStore, record: Record) -> dict[str, Any]:
    """The record as every JSON view gives it (``records show``, ``review decide``, ``GET
    /v1/records/{id}``, ``POST /v1/review/{id}``): its fields, its attempts as shown (erased
    passages masked) and its source's status."""
    attempts = shown_attempts(record_store_of(store).attempts(record.id))
    return {
        **record.to_dict(),
        "attempts": [a.to_dict() for a in attempts],
        "source_status": source_status_of(store, record),
    }


def source_note(record: Record, status: str) -> str:
    """What the source's ``status`` means for the record, in words ("" for an active source)."""
    if status in ("retracted", "withdrawn"):
        return (
            f"Its source {record.source_id} is {status}: whatever its status, this record is "
            "no eligible evidence."
        )
    if status == "corrected":
        return (
            f"Its source {record.source_id} is corrected (a correction notice was published "
            "for it): read the quotations against the corrected text."
        )
    return ""


def review_queue(store: EvidenceStore) -> list[ReviewItem]:
    """Every ``in_review`` record (by id), then every verified record that is the only
    affirmative evidence of an assessment and waits for an expert's look, each with its passages,
    attempts and its source's status."""
    records = record_store_of(store)
    statuses: dict[str, str] = {}

    def source_status(record: Record) -> str:
        if record.source_id not in statuses:
            statuses[record.source_id] = source_status_of(store, record)
        return statuses[record.source_id]

    items = [
        ReviewItem(r, passages(store, r), tuple(records.attempts(r.id)), (), source_status(r))
        for r in _all_in_review(records)
    ]
    if isinstance(store, GraphStore):
        for record_id, waiting in sorted(expert_review_pending(store).items()):
            record = records.get_record(record_id)
            if record is not None and record.status == "verified":
                attempts = tuple(records.attempts(record_id))
                items.append(ReviewItem(record, passages(store, record), attempts, tuple(waiting),
                                        source_status(record)))  # fmt: skip
    return items


def _decided_by(reviews: list[Attempt]) -> str:
    """``, already approved by reviewer Ada at <time>`` for the latest review, or nothing."""
    if not reviews:
        return ""
    last = reviews[-1]
    done = {"review:approve": "approved", "review:reject": "rejected"}.get(last.outcome, "decided")
    who = last.model_id.removeprefix("reviewer:")
    return f", already {done} by reviewer {who} at {last.finished_at}"


def decide_review(
    store: EvidenceStore, record_id: str, *, reviewer: str, decision: str, reason: str
) -> Record:
    """Approve or reject a record in review (or a verified record an expert looks at); the
    decision is kept as an attempt, and a rejection starts an impact walk.

    Raises:
        InvalidInputError: unknown record, a record not in review, an unknown decision, or an
            empty reviewer or reason.
    """
    records = record_store_of(store)
    reviewer, reason = reviewer.strip(), reason.strip()
    if decision not in DECISIONS:
        raise InvalidInputError(f"decision must be one of {', '.join(DECISIONS)}; got {decision!r}")
    if not reviewer:
        raise InvalidInputError("a reviewer is required")
    if not reason:
        raise InvalidInputError("a reason is required")
    started = utc_now()
    with store.transaction():
        record = _record(records, record_id)
        reviews = [a for a in records.attempts(record_id) if a.outcome.startswith("review:")]
        if record.status not in _DECIDABLE or (record.status == "verified" and reviews):
            raise InvalidInputError(
                f"record {record_id!r} is {record.status}{_decided_by(reviews)}: only in_review "
                "records, or verified records no reviewer has looked at yet, can be decided"
            )
        number = len(records.attempts(record_id)) + 1
        shown = sha256_hex(
            canonical_json({"record": record.to_dict(), "decision": decision, "reason": reason})
        )
        attempt = Attempt(
            number, "check", f"review:{decision}", None, (reason,), f"reviewer:{reviewer}",
            shown, started, utc_now(),
        )  # fmt: skip
        records.add_attempt(record_id, attempt)
        decided = dataclasses.replace(record, status=_DECIDED[decision])
        records.put_record(decided)
        on_record_decided(store, decided, record, event=f"attempt-{number}")
    return decided


@dataclass(frozen=True, slots=True)
class FaultOutcome:
    """Where an injected mutation was caught.

    ``caught_by`` lists ``gate``, failed check names and ``label`` (a non-entailed label);
    ``decision`` is what a re-proposal would have come to (``quarantined`` at the gate,
    otherwise the decision on the verdict; ``not_applicable`` when the mutation does not apply).
    ``caught`` is True when the expected check caught it and it was not verified. ``stored``
    is always False: the mutated copy is never written.
    """

    record_id: str
    mutation: str
    expected: str
    applied: bool
    caught_by: tuple[str, ...]
    caught: bool
    decision: str
    reason: str
    mutated: Record | None
    stored: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record_id,
            "mutation": self.mutation,
            "expected": self.expected,
            "applied": self.applied,
            "caught_by": list(self.caught_by),
            "caught": self.caught,
            "decision": self.decision,
            "reason": self.reason,
            "mutated": None if self.mutated is None else self.mutated.to_dict(),
            "stored": self.stored,
        }


def inject_fault(store: EvidenceStore, record_id: str, mutation: str) -> FaultOutcome:
    """Apply ``mutation`` to the stored record ``record_id`` and re-propose it, in memory.

    Raises:
        InvalidInputError: unknown mutation (the message lists the six) or unknown record.
    """
    if mutation not in MUTATIONS:
        raise InvalidInputError(f"unknown mutation {mutation!r}; one of {', '.join(MUTATIONS)}")
    records = record_store_of(store)
    record = _record(records, record_id)
    texts = {s.key: s.text for s in store.sections(record.source_id, record.version)}
    expected = EXPECTED_CATCH[mutation]
    mutated = MUTATIONS[mutation](record, texts)
    if mutated is None:
        return FaultOutcome(
            record_id, mutation, expected, False, ("not_applicable",), False, "not_applicable",
            f"{mutation} does not apply to this record", None,
        )  # fmt: skip
    defects = gate(mutated, texts)
    if defects:
        return FaultOutcome(
            record_id, mutation, expected, True, ("gate",), expected == "gate", "quarantined",
            "gate failed: " + "; ".join(defects), mutated,
        )  # fmt: skip
    passages_text = [texts.get(q.section_key, "")[q.start : q.end] for q in mutated.quotations]
    verdict = check(mutated, passages_text)
    decided = decide(verdict, 1, 1)
    caught_by = verdict.failed() + (("label",) if verdict.label != "entailed" else ())
    caught = expected in caught_by and decided.outcome != "verified"
    return FaultOutcome(
        record_id, mutation, expected, True, caught_by, caught, decided.outcome, decided.reason,
        mutated,
    )  # fmt: skip
