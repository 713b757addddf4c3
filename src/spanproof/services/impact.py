"""Impact (SPEC §5.7): events start walks; walks flag every dependent, in small journalled steps.

An **event** — a source retracted or withdrawn (a Crossref notice arriving through the
connector included), a record rejected or re-proposed — starts one walk per changed ref
(:func:`start_walk`). The walk id is derived from (changed ref, reason, event key), so the same
event starts the same walk once however often it is reported. Each :func:`walk_step` follows at
most ``batch`` edges in one store transaction that also advances the walk's journal row, so a
crash mid-walk loses nothing and repeats nothing: :func:`resume_walks` carries every unfinished
walk on from where it stopped. Flags are per (dependent, changed ref); approved artifact versions
are never touched (a flag is a row of its own).

:func:`impact` answers ``GET /v1/impact?ref=…``: the ref's dependents (transitively), each with
whether it carries the flag for that ref, and the walks that started from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spanproof.core.artifacts import (
    WALK_REASONS,
    Edge,
    Flag,
    Walk,
    WalkStep,
    parse_ref,
    record_ref,
    source_ref,
)
from spanproof.core.clock import utc_now
from spanproof.core.errors import InvalidInputError
from spanproof.core.graph_store import GraphStore
from spanproof.core.record_store import record_store_of
from spanproof.core.records import Record
from spanproof.core.store import SOURCE_SEVERITY, EvidenceStore
from spanproof.core.trace import canonical_json, sha256_hex

#: Edges one step follows by default: a few milliseconds of work in one transaction.
DEFAULT_BATCH = 500
#: Source statuses that start a walk from every version of the source.
_STARTS_WALK = {"retracted": "retracted", "withdrawn": "withdrawn"}

StepProgress = Callable[[WalkStep], None]


def graph(store: object) -> GraphStore:
    """``store`` as a :class:`GraphStore`, or a clear error."""
    if not isinstance(store, GraphStore):
        raise InvalidInputError(f"{type(store).__name__} keeps no artifacts or edges")
    return store


def walk_id_for(changed_ref: str, reason: str, event: str = "") -> str:
    """The id of the walk an event starts: the same event always names the same walk."""
    return "walk-" + sha256_hex(canonical_json([changed_ref, reason, event]))[:24]


def start_walk(store: object, changed_ref: str, reason: str, event: str = "") -> str:
    """Start (once) the walk for an event and return its id.

    Raises:
        InvalidInputError: a malformed ref or an unknown reason.
    """
    parse_ref(changed_ref)
    if reason not in WALK_REASONS:
        raise InvalidInputError(f"reason must be one of {', '.join(WALK_REASONS)}; got {reason!r}")
    walk_id = walk_id_for(changed_ref, reason, event)
    graph(store).start_walk(walk_id, changed_ref, reason, utc_now())
    return walk_id


def walk_step(store: object, walk_id: str, batch: int = DEFAULT_BATCH) -> WalkStep:
    """One journalled step of the walk (at most ``batch`` edges, one transaction)."""
    return graph(store).walk_step(walk_id, batch, utc_now())


def run_walk(
    store: object,
    walk_id: str,
    *,
    batch: int = DEFAULT_BATCH,
    progress: StepProgress | None = None,
) -> Walk:
    """Step the walk until it is done and return its final journal row."""
    graphs = graph(store)
    while True:
        step = graphs.walk_step(walk_id, batch, utc_now())
        if progress is not None:
            progress(step)
        if step.done:
            break
    walk = graphs.get_walk(walk_id)
    if walk is None:  # pragma: no cover - the step above proved it exists
        raise InvalidInputError(f"unknown walk {walk_id!r}")
    return walk


def resume_walks(
    store: object, *, batch: int = DEFAULT_BATCH, progress: StepProgress | None = None
) -> list[Walk]:
    """Finish every walk that is still running (after a crash, or started but not run)."""
    graphs = graph(store)
    finished: list[Walk] = []
    while True:
        running = graphs.list_walks(status="running", limit=100)
        if not running:
            return finished
        finished.extend(run_walk(store, w.id, batch=batch, progress=progress) for w in running)


# events ----------------------------------------------------------------------------------------
def on_source_status(store: EvidenceStore, source_id: str, status: str) -> list[str]:
    """The walks a source's new ``status`` starts: one per version when it is retracted or
    withdrawn, none otherwise. Call it inside the transaction that sets the status, so the event
    and the change commit together."""
    reason = _STARTS_WALK.get(status)
    if reason is None or not isinstance(store, GraphStore):
        return []
    return [
        start_walk(store, source_ref(source_id, v.number), reason)
        for v in store.versions(source_id)
    ]


def on_record_decided(
    store: object, record: Record, previous: Record | None, event: str
) -> str | None:
    """The walk a record's move starts: ``rejected`` when it becomes rejected; ``reproposed``
    when a record that was verified comes back changed (another statement, quotations or fields)
    or no longer verified. ``event`` names the move (an attempt number), so each move starts its
    own walk. Call it inside the transaction that stores the move."""
    if not isinstance(store, GraphStore) or previous is None:
        return None
    if record.status == "rejected" and previous.status != "rejected":
        return start_walk(store, record_ref(record.id), "rejected", event)
    if previous.status == "verified" and (
        record.status != "verified" or dataclasses.replace(record, status="verified") != previous
    ):
        return start_walk(store, record_ref(record.id), "reproposed", event)
    return None


def link_record(store: object, record: Record) -> None:
    """The edge from the record's source version to the record."""
    if isinstance(store, GraphStore):
        store.add_edges([Edge(source_ref(record.source_id, record.version), record_ref(record.id))])


# the report ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Dependent:
    """One ref built (directly or not) on the changed ref, and its flags."""

    ref: str
    flagged: bool
    flags: tuple[Flag, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "flagged": self.flagged,
            "flags": [f.to_dict() for f in self.flags],
        }


@dataclass(frozen=True, slots=True)
class ImpactReport:
    """``GET /v1/impact``: the dependents of ``ref`` (at most ``limit``; ``truncated`` when
    there were more) and the walks that started from it."""

    ref: str
    dependents: tuple[Dependent, ...]
    truncated: bool
    walks: tuple[Walk, ...]

    @property
    def flagged(self) -> int:
        return sum(1 for d in self.dependents if d.flagged)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "dependents": [d.to_dict() for d in self.dependents],
            "count": len(self.dependents),
            "flagged": self.flagged,
            "truncated": self.truncated,
            "walks": [w.to_dict() for w in self.walks],
        }


def ref_exists(store: EvidenceStore, text: str) -> bool:
    """Whether the thing a ref names is in the store: a record, a source version, an artifact
    of the ref's kind.

    Raises:
        InvalidInputError: a malformed ref.
    """
    ref = parse_ref(text)
    if ref.kind == "record":
        return record_store_of(store).get_record(ref.id) is not None
    if ref.kind == "source":
        return any(v.number == ref.version for v in store.versions(ref.id))
    artifact = graph(store).get_artifact(ref.id)
    return artifact is not None and artifact.kind == ref.kind


def impact(store: object, ref: str, *, limit: int = 1000) -> ImpactReport:
    """What depends on ``ref`` and whether each dependent carries the flag for it.

    Raises:
        InvalidInputError: a malformed ref, one that names nothing in the store (an empty
            answer would read as "nothing depends on it"), or a limit outside 1..10000.
    """
    parse_ref(ref)
    if not 1 <= limit <= 10_000:
        raise InvalidInputError(f"limit must be 1..10000, not {limit}")
    graphs = graph(store)
    if not ref_exists(store, ref):  # type: ignore[arg-type]
        raise InvalidInputError(f"{ref} does not exist in this store")
    refs = graphs.dependents(ref, limit=limit + 1)
    truncated = len(refs) > limit
    refs = refs[:limit]
    by_ref: dict[str, list[Flag]] = {}
    for flag in graphs.flags_on(refs):
        by_ref.setdefault(flag.ref, []).append(flag)
    dependents = tuple(
        Dependent(r, any(f.changed_ref == ref for f in by_ref.get(r, [])), tuple(by_ref.get(r, [])))
        for r in refs
    )
    walks = tuple(graphs.list_walks(changed_ref=ref, limit=100))
    return ImpactReport(ref, dependents, truncated, walks)


def flags_for(store: object, refs: Sequence[str]) -> dict[str, list[Flag]]:
    """The flags on each of ``refs`` (only refs that carry one appear)."""
    out: dict[str, list[Flag]] = {}
    for flag in graph(store).flags_on(refs):
        out.setdefault(flag.ref, []).append(flag)
    return out


def retract(
    store: EvidenceStore, source_id: str, status: str = "retracted", *, downgrade: bool = False
) -> list[str]:
    """Set a source's status to ``retracted`` or ``withdrawn`` (an operator acting on a notice)
    and start the impact walks, in one transaction; returns the walk ids (run them with
    :func:`run_walk` or :func:`resume_walks`).

    A status is never lowered on :data:`~spanproof.core.store.SOURCE_SEVERITY` (active <
    corrected < withdrawn < retracted), the scale ingestion keeps for Crossref notices: a
    retracted source asked to be withdrawn is refused unless ``downgrade`` (an operator
    correcting a mistaken retraction). The same status again changes nothing and starts no
    new walk; a graver one (withdrawn → retracted) is always taken.

    Raises:
        InvalidInputError: unknown source, another status, or a lower status without
            ``downgrade``.
    """
    if status not in _STARTS_WALK:
        raise InvalidInputError(f"status must be one of {', '.join(_STARTS_WALK)}; got {status!r}")
    graph(store)
    with store.transaction():
        source = store.get_source(source_id)
        if source is None:
            raise InvalidInputError(f"unknown source {source_id!r}")
        if not downgrade and SOURCE_SEVERITY[status] < SOURCE_SEVERITY.get(source.status, 0):
            raise InvalidInputError(
                f"source {source_id!r} is {source.status}; {status} would lower it, and a "
                f"status is never lowered by a later notice (retracted > withdrawn > "
                f"corrected): ask for the downgrade explicitly (--downgrade, or "
                f'"downgrade": true in the API) to correct a mistaken {source.status}'
            )
        store.set_status(source_id, status)
        return on_source_status(store, source_id, status)
