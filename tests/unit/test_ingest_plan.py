"""Which workflow an enqueued ingestion goes to (spanproof.workflows.ingestion.plan_ingestions):
ids name transitions, new ones queue after the source's unfinished ones, a duplicate attaches,
and a transition whose workflow failed, was cancelled or was superseded is tried again under a
new id; and which later ingestion supersedes one resumed by hand (superseded_by)."""

from __future__ import annotations

from spanproof.workflows.ingestion import (
    SUPERSEDED,
    Journalled,
    Planned,
    plan_ingestions,
    superseded_by,
    transition_of,
    try_of,
)

S = "file:/p/a.txt"
A, B, C = "a" * 64, "b" * 64, "c" * 64
A16, B16, C16 = A[:16], B[:16], C[:16]


def wid(sha16: str, n: int = 1, k: int = 1) -> str:
    out = f"ingest:{S}:{sha16}" + ("" if n == 1 else f":{n}")
    return out if k == 1 else f"{out}~{k}"


def test_transition_of_reads_every_try_of_a_transition_as_that_transition() -> None:
    assert transition_of(S, wid(A16)) == (A16, 1)
    assert transition_of(S, wid(A16, 3)) == (A16, 3)
    assert transition_of(S, wid(A16, 3, 2)) == (A16, 3)
    assert transition_of(S, wid(A16, 1, 4)) == (A16, 1)
    assert (try_of(wid(A16, 3, 2)), try_of(wid(A16, 3))) == (2, 1)
    for bad in (f"{wid(A16)}~1", f"{wid(A16)}~02", f"{wid(A16)}~", f"{wid(A16)}:0"):
        assert transition_of(S, bad) is None
    assert transition_of("file:/p", wid(A16)) is None  # another source's prefix


def test_new_transitions_queue_after_the_unfinished_ones_in_order() -> None:
    journal = [
        Journalled(wid(A16), "SUCCESS", 1, 10),
        Journalled(wid(B16), "PENDING", 1, 20),
        Journalled(wid(A16, 2), "ENQUEUED", 2, 30),
    ]
    plans = plan_ingestions(S, [C, A, A], [A], journal)
    assert plans == [
        Planned(wid(C16), 3, True),
        Planned(wid(A16, 3), 4, True),
        Planned(wid(A16, 3), 0, False),  # the same bytes again attach to the one just planned
    ]
    # with nothing unfinished, a duplicate of the current content replays its run
    done = [Journalled(wid(A16), "SUCCESS", 1, 10)]
    assert plan_ingestions(S, [A], [A], done) == [Planned(wid(A16), 0, False, True)]
    assert plan_ingestions(S, [B], [A], done) == [Planned(wid(B16), 2, True)]


def test_a_new_ingestion_is_placed_after_every_one_the_source_had() -> None:
    # Z and A ran within one second of the journal's clock, A placed second; B, enqueued in
    # that same second once the queue had drained, must read as enqueued after both, or the
    # guard would take A for a later ingestion and supersede B.
    journal = [
        Journalled(wid(C16), "SUCCESS", 1, 10_000),
        Journalled(wid(A16, 1), "SUCCESS", 2, 10_000),
    ]
    [plan] = plan_ingestions(S, [B], [C, A], journal)
    assert plan.priority == 3
    enqueued = [*journal, Journalled(plan.workflow_id, "ENQUEUED", plan.priority, 10_000)]
    assert superseded_by(S, plan.workflow_id, enqueued) is None


def test_a_failed_or_cancelled_one_is_not_queued_and_its_transition_is_tried_again() -> None:
    journal = [
        Journalled(wid(A16), "SUCCESS", 1, 10),
        Journalled(wid(B16), "ERROR", 2, 20),
        Journalled(wid(C16), "CANCELLED", 3, 30),
    ]
    # B and C are not in the history: C is the first change after A, tried again
    assert plan_ingestions(S, [C], [A], journal) == [Planned(wid(C16, 1, 2), 4, True)]
    more = [*journal, Journalled(wid(C16, 1, 2), "ERROR", 1, 40)]
    assert plan_ingestions(S, [C], [A], more) == [Planned(wid(C16, 1, 3), 4, True)]
    # a later try that succeeded is the one a duplicate attaches to
    ok = [*journal, Journalled(wid(B16, 1, 2), "SUCCESS", 1, 40)]
    assert plan_ingestions(S, [B], [A, B], ok) == [Planned(wid(B16, 1, 2), 0, False, True)]


def test_a_superseded_one_is_tried_again_like_a_cancelled_one() -> None:
    journal = [
        Journalled(wid(A16), "SUCCESS", 1, 10),
        Journalled(wid(B16), SUPERSEDED, 2, 10),
        Journalled(wid(A16, 2), "SUCCESS", 3, 10),
    ]
    # the source read A, then A again: B's bytes are the first change, which B never made
    assert plan_ingestions(S, [B], [A], journal) == [Planned(wid(B16, 1, 2), 4, True)]
    # so is one still queued (resumed by hand) that a later one has superseded already
    resumed = [journal[0], Journalled(wid(B16), "ENQUEUED", 2, 10), journal[2]]
    assert plan_ingestions(S, [B], [A], resumed) == [Planned(wid(B16, 1, 2), 4, True)]
    unrun = [journal[0], Journalled(wid(B16), "ENQUEUED", 2, 10)]  # nothing later has run
    assert plan_ingestions(S, [B], [A], unrun) == [Planned(wid(B16), 0, False)]


def test_superseded_by_names_the_last_later_ingestion_that_ran() -> None:
    journal = [
        Journalled(wid(A16), "SUCCESS", 1, 10),
        Journalled(wid(B16), "PENDING", 2, 10),  # cancelled in A, B, A and resumed by hand
        Journalled(wid(A16, 2), "SUCCESS", 3, 10),
        Journalled(wid(C16), "SUCCESS", 1, 20),  # enqueued after the queue drained
        Journalled(f"ingest:{S}x:{C16}", "SUCCESS", 1, 30),  # another source's
    ]
    assert superseded_by(S, wid(B16), journal) == wid(C16)
    assert superseded_by(S, wid(A16, 2), journal) == wid(C16)
    assert superseded_by(S, wid(C16), journal) is None
    assert superseded_by(S, wid(B16, 2), journal) is None  # not in the journal


def test_only_a_later_ingestion_that_ran_to_the_end_supersedes() -> None:
    for state in ("ENQUEUED", "PENDING", "ERROR", "CANCELLED", SUPERSEDED):
        journal = [
            Journalled(wid(A16), "SUCCESS", 1, 10),
            Journalled(wid(B16), "ENQUEUED", 2, 10),
            Journalled(wid(A16, 2), state, 3, 10),
        ]
        assert superseded_by(S, wid(B16), journal) is None, state
    # an earlier one enqueued in the same transaction (same time) does not supersede it
    same_time = [Journalled(wid(A16), "SUCCESS", 1, 10), Journalled(wid(B16), "ENQUEUED", 2, 10)]
    assert superseded_by(S, wid(B16), same_time) is None


def test_a_sources_ingestions_share_one_of_a_fixed_number_of_partitions() -> None:
    from collections import Counter

    from spanproof.workflows.client import INGEST_PARTITIONS, ingest_partition

    # the key is persisted in the journal: a change would strand queued ingestions (a worker
    # would then move them, adopt_unpartitioned), so it is pinned
    assert ingest_partition("file:/papers/walking.md") == "ingest-17"
    assert ingest_partition(S) == ingest_partition(S)
    sources = [f"pmid:{n}" for n in range(5000)]
    used = Counter(ingest_partition(s) for s in sources)
    assert set(used) == {f"ingest-{k:02d}" for k in range(INGEST_PARTITIONS)}
    assert max(used.values()) < 2 * 5000 / INGEST_PARTITIONS  # spread, not piled on a few
