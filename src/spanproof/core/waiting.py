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

T = TypeVar("T")

FIRST_PAUSE_S = 0.01
LONGEST_PAUSE_S = 0.25


def retry_while_busy(
    attempt: Callable[[], T], *, busy: Callable[[Exception], bool], seconds: float
) -> T:
    """``attempt()``, tried again while it raises an exception ``busy`` accepts.

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
