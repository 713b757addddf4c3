"""Trying an operation again while a shared resource is busy, until a deadline.

SQLite answers "database is locked" at once, without waiting out its busy timeout, wherever
waiting could deadlock (switching a file that another connection is writing in rollback mode
to WAL, as a file another process is creating is for a moment). Opening such a file is tried
again, after a pause that doubles from :data:`FIRST_PAUSE_S` to :data:`LONGEST_PAUSE_S`, until
the caller's timeout would pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from spanproof.core.errors import StoreError

T = TypeVar("T")

FIRST_PAUSE_S = 0.01
LONGEST_PAUSE_S = 0.25


def retryable_store_error(exc: Exception) -> bool:
    """Whether ``exc`` is a :class:`StoreError` that says the same call may succeed later."""
    return isinstance(exc, StoreError) and exc.retryable


def retry_while_busy(
    attempt: Callable[[], T],
    *,
    seconds: float,
    busy: Callable[[Exception], bool] = retryable_store_error,
) -> T:
    """``attempt()``, tried again while it raises an exception ``busy`` accepts (by default
    a retryable :class:`StoreError`: SQLite was busy or locked).

    The last exception propagates once the next pause would end more than ``seconds`` after
    the first try; any exception ``busy`` rejects propagates at once.
    """
    deadline = time.monotonic() + seconds
    pause = FIRST_PAUSE_S
    while True:
        try:
            return attempt()
        except Exception as exc:
            if not busy(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE_S)
