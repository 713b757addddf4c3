"""Which workflow an enqueued ingestion goes to (spanproof.workflows.ingestion.plan_ingestions):
ids name transitions, new ones queue after the source's unfinished ones, a duplicate attaches,
and a transition whose workflow failed or was cancelled is tried again under a new id."""

from __future__ import annotations

from spanproof.workflows.ingestion import (
    Journalled,
    Planned,
    plan_ingestions,
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
    assert plan_ingestions(S, [B], [A], done) == [Planned(wid(B16), 1, True)]


def test_a_failed_or_cancelled_one_is_not_queued_and_its_transition_is_tried_again() -> None:
    journal = [
        Journalled(wid(A16), "SUCCESS", 1, 10),
        Journalled(wid(B16), "ERROR", 2, 20),
        Journalled(wid(C16), "CANCELLED", 3, 30),
    ]
    # B and C are not in the history: C is the first change after A, tried again
    assert plan_ingestions(S, [C], [A], journal) == [Planned(wid(C16, 1, 2), 1, True)]
    more = [*journal, Journalled(wid(C16, 1, 2), "ERROR", 1, 40)]
    assert plan_ingestions(S, [C], [A], more) == [Planned(wid(C16, 1, 3), 1, True)]
    # a later try that succeeded is the one a duplicate attaches to
    ok = [*journal, Journalled(wid(B16, 1, 2), "SUCCESS", 1, 40)]
    assert plan_ingestions(S, [B], [A, B], ok) == [Planned(wid(B16, 1, 2), 0, False, True)]
