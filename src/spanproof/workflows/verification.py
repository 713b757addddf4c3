"""Record verification per record and attempt as a durable workflow (SPEC §5.2–§5.4).

``spanproof.verify_record`` runs :func:`spanproof.services.records.verify_record`'s loop with
each attempt as one journalled step: ``begin`` (how many attempts the record already has, so
this run's attempt numbers are fixed), then per attempt ``attempt`` (gate → checker → decision,
appended to the record) and, on ``retry``, ``reextract`` (a fresh proposal from the source
sections, never an edit of the failed attempt), within the attempt budget; ``finish`` saves the
record's final status.

Attempts are append-only and numbered: an ``attempt`` step re-run after a crash finds its
number already stored and rebuilds the decision from the stored verdict instead of calling the
checker again, so no attempt is made or stored twice.
"""

from __future__ import annotations

import dataclasses

from dbos import DBOS

from spanproof.core.errors import InvalidInputError
from spanproof.core.record_store import RecordStore
from spanproof.core.records import Record
from spanproof.evidence.decision import Decision
from spanproof.services.records import (
    Run,
    attempt_verification,
    begin_verification,
    finish_verification,
    reextract,
)
from spanproof.workflows.runtime import current

VERIFY_WORKFLOW = "spanproof.verify_record"


@DBOS.step(name="spanproof.verify.begin")
def begin_step(record_id: str) -> tuple[Record, Run]:
    """The record (as ``proposed``) and the run's facts (previous state, first attempt)."""
    store = current().store
    record = store.get_record(record_id) if isinstance(store, RecordStore) else None
    if record is None:
        raise InvalidInputError(f"no record {record_id!r}")
    return dataclasses.replace(record, status="proposed"), begin_verification(store, record)


@DBOS.step(name="spanproof.verify.attempt")
def attempt_step(record: Record, number: int, used: int, budget: int) -> Decision:
    """Attempt ``number`` (the ``used``-th of this run): gate, check, decide, append; a number
    already stored is read back, never redone."""
    rt = current()
    return attempt_verification(rt.store, record, number, used, budget, rt.checker)


@DBOS.step(name="spanproof.verify.reextract")
def reextract_step(record: Record) -> Record | None:
    """A fresh proposal for ``record`` from its source sections (deterministic), or None."""
    return reextract(current().store, record)


@DBOS.step(name="spanproof.verify.finish")
def finish_step(record: Record, decision: Decision, run: Run) -> str:
    """Save the record with its final status and start the impact walk the move calls for
    (idempotent: the same row again, and the walk id is fixed by the event)."""
    return finish_verification(current().store, record, decision, run).status


@DBOS.workflow(name=VERIFY_WORKFLOW)
def verify_record(record_id: str, budget: int = 3) -> dict[str, str]:
    """Verify one stored record within ``budget`` attempts; returns outcome, reason, status.

    Raises:
        InvalidInputError: ``budget`` is below 1, or no such record.
    """
    if budget < 1:
        raise InvalidInputError(f"budget must be at least 1; got {budget}")
    current_record, run = begin_step(record_id)
    decision = Decision("review", "no attempt was made")
    for used in range(1, budget + 1):
        decision = attempt_step(current_record, run.first + used - 1, used, budget)
        if decision.outcome != "retry":
            break
        fresh = reextract_step(current_record)
        if fresh is None:
            decision = Decision("review", "re-extraction found no finding at these quotations")
            break
        current_record = fresh
    status = finish_step(current_record, decision, run)
    return {"record": record_id, "outcome": decision.outcome, "reason": decision.reason,
            "status": status}  # fmt: skip


def verify_workflow_id(record_id: str, attempts_before: int) -> str:
    """One workflow per record and attempt count: enqueueing twice runs once, and a record
    verified again later (after new attempts) gets a new workflow."""
    return f"verify:{record_id}:{attempts_before}"
