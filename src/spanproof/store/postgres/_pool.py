"""A small thread-safe connection pool and the mapping of psycopg errors to ``StoreError``.

The store needs only this: at most ``size`` connections, a broken one is closed and replaced on
its next use, and every connection is set up the same way (autocommit, pgvector types).
"""

from __future__ import annotations

import contextlib
import select
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeAlias

import psycopg
from psycopg import pq

from spanproof.core.errors import InvalidInputError, StoreError

Conn: TypeAlias = psycopg.Connection[tuple[Any, ...]]

#: SQLSTATEs after which the same call may succeed: serialization failure, deadlock, connection
#: exceptions (class 08), operator intervention (57P01–57P05: shutdown, terminated backend,
#: cannot connect now), insufficient resources (53), lock not available, query canceled.
_RETRYABLE_PREFIXES = ("40001", "40P01", "08", "57P", "53", "55P03", "57014")
#: SQLSTATEs that mean the caller's data is wrong (other integrity and data exceptions).
_INPUT_PREFIXES = ("22", "23")


def map_error(exc: psycopg.Error, action: str) -> StoreError | InvalidInputError:
    """The spanproof error for a psycopg error raised while doing ``action``."""
    state = exc.sqlstate or ""
    message = f"PostgreSQL store: {action} failed: {type(exc).__name__}: {exc}".strip()
    if state.startswith(_RETRYABLE_PREFIXES) or (
        not state and isinstance(exc, psycopg.OperationalError)
    ):
        return StoreError(message, retryable=True)
    if state == "23001":  # restrict_violation: the schema's immutability triggers
        return StoreError(message, retryable=False)
    if state == "23505":  # unique_violation: every write checks first, so only a concurrent
        return StoreError(message, retryable=True)  # writer gets here; a retry sees its row
    if state.startswith(_INPUT_PREFIXES) or isinstance(exc, psycopg.DataError):
        return InvalidInputError(message)
    return StoreError(message, retryable=False)


@contextmanager
def mapped_errors(action: str) -> Iterator[None]:
    """Re-raise psycopg errors as ``StoreError`` (``retryable`` set) or ``InvalidInputError``."""
    try:
        yield
    except psycopg.Error as exc:
        raise map_error(exc, action) from exc
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            f"PostgreSQL store: {action}: text cannot be stored: {exc.reason} (a lone surrogate?)"
        ) from exc


class Pool:
    """At most ``size`` open connections, handed out one per unit of work."""

    def __init__(self, connect: Callable[[], Conn], size: int, *, timeout_s: float = 30.0) -> None:
        self._connect = connect
        self._size = size
        self._timeout_s = timeout_s
        self._idle: list[Conn] = []
        self._open = 0
        self._closed = False
        self._cond = threading.Condition()

    def acquire(self) -> Conn:
        with self._cond:
            while True:
                if self._closed:
                    raise StoreError("PostgreSQL store is closed", retryable=False)
                while self._idle:
                    conn = self._idle.pop()
                    if _usable(conn) and _quiet(conn):
                        return conn
                    self._discard(conn)
                if self._open < self._size:
                    self._open += 1
                    break
                if not self._cond.wait(self._timeout_s):
                    raise StoreError(
                        f"PostgreSQL store: no connection free within {self._timeout_s:.0f} s "
                        f"(pool_size={self._size})",
                        retryable=True,
                    )
        try:
            return self._connect()
        except BaseException:
            with self._cond:
                self._open -= 1
                self._cond.notify()
            raise

    def release(self, conn: Conn) -> None:
        with self._cond:
            if self._closed or not _usable(conn):
                self._discard(conn)
            else:
                self._idle.append(conn)
            self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            for conn in idle:
                self._discard(conn)
            self._cond.notify_all()

    def _discard(self, conn: Conn) -> None:
        self._open -= 1
        with contextlib.suppress(psycopg.Error):
            conn.close()


def _usable(conn: Conn) -> bool:
    return (
        not conn.closed
        and not conn.broken
        and conn.info.transaction_status == pq.TransactionStatus.IDLE
    )


def _quiet(conn: Conn) -> bool:
    """Whether an idle connection has nothing to read, as a live idle one never has.

    A server that ended the session (restart, ``pg_terminate_backend``, idle timeout) has sent
    an error and closed the socket: readable. Such a connection is dropped before use, so a
    fresh unit of work never fails on a connection that died while it sat in the pool.
    """
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return False
    return not readable
