"""retry_while_busy: an operation tried again while busy, until its deadline."""

from __future__ import annotations

import pytest

from spanproof.core.errors import StoreError
from spanproof.core.waiting import retry_while_busy


def _busy(exc: Exception) -> bool:
    return isinstance(exc, StoreError) and exc.retryable


def test_a_busy_operation_is_tried_again_until_it_succeeds() -> None:
    tries: list[int] = []

    def attempt() -> str:
        tries.append(1)
        if len(tries) < 3:
            raise StoreError("locked", retryable=True)
        return "open"

    assert retry_while_busy(attempt, busy=_busy, seconds=5) == "open"
    assert len(tries) == 3


def test_an_error_that_is_not_busy_leaves_at_once() -> None:
    tries: list[int] = []

    def attempt() -> str:
        tries.append(1)
        raise StoreError("no such table", retryable=False)

    with pytest.raises(StoreError, match="no such table"):
        retry_while_busy(attempt, busy=_busy, seconds=5)
    assert len(tries) == 1


def test_the_last_busy_error_leaves_when_the_deadline_would_pass() -> None:
    tries: list[int] = []

    def attempt() -> str:
        tries.append(1)
        raise StoreError(f"locked {len(tries)}", retryable=True)

    with pytest.raises(StoreError) as caught:
        retry_while_busy(attempt, busy=_busy, seconds=0.2)
    # Pauses of 0.01, 0.02, 0.04 and 0.08 s fit in 0.2 s, a fifth (0.16 s) would not: at most
    # five tries, and the error that leaves is the last try's.
    assert 1 < len(tries) <= 5
    assert str(caught.value) == f"locked {len(tries)}"


def test_no_time_means_one_try() -> None:
    tries: list[int] = []

    def attempt() -> str:
        tries.append(1)
        raise StoreError("locked", retryable=True)

    with pytest.raises(StoreError):
        retry_while_busy(attempt, busy=_busy, seconds=0)
    assert len(tries) == 1
