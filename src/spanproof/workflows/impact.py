"""The impact walk as a durable workflow (SPEC §5.7).

``spanproof.impact_walk`` starts the walk's journal row once (``start`` step:
:func:`spanproof.services.impact.start_walk`, idempotent per event), then runs ``step`` steps,
each :func:`spanproof.services.impact.walk_step` over at most ``batch`` edges, until the walk is
done. A large store takes more steps, never one long one.

Each walk step follows its edges, sets its flags and advances the walk's cursor in one store
transaction, so a step the engine re-runs after a crash (committed, not yet checkpointed) starts
from the advanced cursor and flags nothing twice.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dbos import DBOS

from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.services.impact import start_walk, walk_step
from spanproof.workflows.runtime import current

IMPACT_WORKFLOW = "spanproof.impact_walk"
#: Steps a walk whose journal row exists already (started with the change that caused it).
RESUME_WORKFLOW = "spanproof.resume_walk"


def walk_workflow_id(changed_ref: str, reason: str, event: str = "") -> str:
    """One workflow per event, as the service's walk id is."""
    return "impact:" + sha256_hex(canonical_json([changed_ref, reason, event]))[:24]


@DBOS.step(name="spanproof.impact.start")
def start_step(changed_ref: str, reason: str, event: str) -> str:
    """The walk's id (its journal row is created once)."""
    return start_walk(current().store, changed_ref, reason, event)


@DBOS.step(name="spanproof.impact.step")
def walk_step_step(walk_id: str, batch: int) -> dict[str, Any]:
    """One bounded batch of edges in one store transaction with the walk's cursor."""
    return dataclasses.asdict(walk_step(current().store, walk_id, batch))


@DBOS.workflow(name=IMPACT_WORKFLOW)
def impact_walk(
    changed_ref: str, reason: str, event: str = "", batch: int | None = None
) -> dict[str, Any]:
    """Walk outward from ``changed_ref``, flagging each dependent; returns the walk id and the
    number of steps, edges and new flags."""
    size = batch if batch is not None else current().walk_batch
    walk_id = start_step(changed_ref, reason, event)
    return _steps(walk_id, size)


def _steps(walk_id: str, size: int) -> dict[str, Any]:
    steps = edges = flags = 0
    while True:
        step = walk_step_step(walk_id, size)
        steps += 1
        edges += int(step["edges"])
        flags += int(step["flags"])
        if step["done"]:
            return {"walk": walk_id, "steps": steps, "edges": edges, "flags": flags}


@DBOS.workflow(name=RESUME_WORKFLOW)
def resume_walk(walk_id: str, batch: int | None = None) -> dict[str, Any]:
    """Carry an existing walk on to its end, one journalled step per batch of edges."""
    return _steps(walk_id, batch if batch is not None else current().walk_batch)
