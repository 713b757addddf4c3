"""The SQLite connection of one store: pragmas, migration on open, re-entrant transactions.

One connection per store, guarded by a re-entrant lock so a store may be shared by threads; a
transaction holds the lock for its whole extent. sqlite3 errors leave as :class:`StoreError`
(``retryable`` for busy/locked), text sqlite3 cannot encode as :class:`InvalidInputError`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spanproof.core.errors import ConfigurationError, InvalidInputError, StoreError
from spanproof.core.waiting import retry_while_busy
from spanproof.store.sqlite.schema import SCHEMA_HEAD, current_revision, upgrade

_BUSY_CODES = frozenset({5, 6})  # SQLITE_BUSY, SQLITE_LOCKED (primary result codes)


def store_error(exc: sqlite3.Error) -> StoreError:
    """``exc`` as a :class:`StoreError`, retryable when SQLite was busy or locked."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        retryable = (code & 0xFF) in _BUSY_CODES
    else:  # errors raised by the sqlite3 module itself carry no code
        retryable = isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)
    return StoreError(f"SQLite store: {exc}", retryable=retryable)


@contextmanager
def _translating() -> Iterator[None]:
    """sqlite3 errors leave as :class:`StoreError`, unencodable text as ``InvalidInputError``."""
    try:
        yield
    except sqlite3.Error as exc:
        raise store_error(exc) from exc
    except UnicodeEncodeError as exc:
        raise InvalidInputError(f"text cannot be stored: {exc.reason} (a lone surrogate?)") from exc


class SqliteConnection:
    """An open database file at the current schema, with transactions.

    Args:
        path: the database file; created (and migrated) when missing unless ``readonly``.
        readonly: open without write access; the file must exist and be at the current schema.
        busy_timeout_ms: how long a statement waits for another connection's lock.
    """

    def __init__(self, path: Path, *, readonly: bool, busy_timeout_ms: int) -> None:
        self.path = path
        self.readonly = readonly
        self._busy_timeout_ms = busy_timeout_ms
        self._lock = threading.RLock()
        self._depth = 0
        self._writing = False
        self._conn: sqlite3.Connection | None = self._open()

    @property
    def db(self) -> sqlite3.Connection:
        """The sqlite3 connection (use it inside :meth:`transaction` or :meth:`reading`)."""
        if self._conn is None:
            raise StoreError("the store is closed")
        return self._conn

    @property
    def writing(self) -> bool:
        """Whether a write transaction is open (its changes may still roll back)."""
        return self._writing

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _open(self) -> sqlite3.Connection:
        """Connect and prepare, tried again while the file is busy or locked, for up to the
        busy timeout (:func:`~spanproof.core.waiting.retry_while_busy`: SQLite answers some
        opens "database is locked" at once, without its own wait). Each try opens a new
        connection, so no lock of a failed try is held while the other writer finishes."""
        if self.readonly and not self.path.exists():
            raise ConfigurationError(f"no database at {self.path}; open it read-write to create it")
        return retry_while_busy(
            self._connect_and_prepare,
            seconds=self._busy_timeout_ms / 1000,
        )

    def _connect_and_prepare(self) -> sqlite3.Connection:
        target = f"{self.path.resolve().as_uri()}?mode=ro" if self.readonly else str(self.path)
        with _translating():
            conn = sqlite3.connect(
                target,
                uri=self.readonly,
                isolation_level=None,
                check_same_thread=False,
                timeout=self._busy_timeout_ms / 1000,
            )
        try:
            self._prepare(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        with _translating():
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            conn.execute("PRAGMA foreign_keys = ON")
            if not self.readonly:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
            revision = current_revision(conn)
            if revision == SCHEMA_HEAD:
                return
            if self.readonly:
                raise StoreError(
                    f"{self.path} is at schema {revision or 'none'}, not {SCHEMA_HEAD}; "
                    "open it read-write once to migrate it"
                )
            upgrade(self.path, busy_timeout_s=self._busy_timeout_ms / 1000)
            revision = current_revision(conn)
        if revision != SCHEMA_HEAD:
            raise StoreError(f"{self.path} is at schema {revision}, expected {SCHEMA_HEAD}")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A unit of work: all of it commits at the outermost exit, or none of it on an exception.

        Re-entrant: a nested ``transaction()`` is a SAVEPOINT, so an exception inside it undoes
        only the nested part when the caller catches it, and everything when it propagates.
        """
        with self._lock:
            if self._depth == 0:
                yield from self._outermost("BEGIN" if self.readonly else "BEGIN IMMEDIATE")
            else:
                yield from self._savepoint()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """A read snapshot (a deferred transaction), or the enclosing transaction if any."""
        with self._lock:
            if self._depth == 0:
                yield from self._outermost("BEGIN")
                return
            with _translating():
                yield

    def _outermost(self, begin: str) -> Iterator[None]:
        db = self.db
        with _translating():
            db.execute(begin)
        self._depth, self._writing = 1, begin == "BEGIN IMMEDIATE"
        with _translating():
            try:
                yield
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            finally:
                self._depth, self._writing = 0, False
            try:
                db.execute("COMMIT")
            except sqlite3.Error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def _savepoint(self) -> Iterator[None]:
        db = self.db
        name = f"sp{self._depth}"
        db.execute(f"SAVEPOINT {name}")
        self._depth += 1
        with _translating():
            try:
                yield
            except BaseException:
                # SQLITE_FULL or an I/O error may have rolled back the whole transaction already:
                # then there is no savepoint left, and the original error is the one to report.
                if db.in_transaction:
                    db.execute(f"ROLLBACK TO {name}")
                    db.execute(f"RELEASE {name}")
                raise
            finally:
                self._depth -= 1
            db.execute(f"RELEASE {name}")
