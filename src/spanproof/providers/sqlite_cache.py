"""What the on-disk caches share (the embedding cache and the LLM judgement cache): one SQLite
file per cache in WAL mode, a table whose shape is checked on open, a lock around the
connection, and sqlite3 errors translated at the boundary (a busy database is retryable; a file
that is not a database is a configuration error that says how to recover).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spanproof.core.errors import ConfigurationError, StoreError
from spanproof.core.waiting import retry_while_busy
from spanproof.providers.closing import ClosesOnExit

__all__ = ["SqliteCacheFile", "text_sha256"]

_BUSY_ERRORS = frozenset({"SQLITE_BUSY", "SQLITE_LOCKED"})
#: How long opening a busy cache file is tried again (the connection's own busy timeout too).
_OPEN_TIMEOUT_S = 30.0


def text_sha256(text: str) -> str:
    """The cache key of a text: its SHA-256 (hex)."""
    # surrogatepass: a text with a lone surrogate still gets its own stable key.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _a(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


class SqliteCacheFile(ClosesOnExit):
    """One cache table in one SQLite file, shared by threads (a lock) and processes (WAL).

    Args:
        path: the SQLite file; created with its parent folders if absent.
        what: the cache's name in messages ("embedding cache").
        table, schema, columns: the table, its ``CREATE TABLE IF NOT EXISTS`` statement, and the
            column names an existing table must have.

    Raises:
        ConfigurationError: ``path`` cannot be created, is not a SQLite database, or holds the
            table with other columns.
    """

    def __init__(
        self, path: Path, *, what: str, table: str, schema: str, columns: tuple[str, ...]
    ) -> None:
        self._path = Path(path)
        self._what = what
        self._table = table
        self._lock = threading.Lock()
        # A file another process is creating may answer "locked" at once (a possible
        # deadlock, so SQLite does not wait): opening is tried again for up to 30 s.
        self._db = retry_while_busy(
            lambda: self._open(schema, columns),
            seconds=_OPEN_TIMEOUT_S,
        )

    @property
    def path(self) -> Path:
        """The SQLite file."""
        return self._path

    def __len__(self) -> int:
        """Number of cached rows, all models together."""
        with self._guard():
            row = self._db.execute(f"SELECT count(*) FROM {self._table}").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the SQLite connection; the cache cannot be used afterwards."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Hold the connection lock; translate sqlite3 errors at the boundary."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise self._translate(exc) from exc

    def _open(self, schema: str, columns: tuple[str, ...]) -> sqlite3.Connection:
        path, what, table = self._path, self._what, self._table
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, check_same_thread=False, timeout=_OPEN_TIMEOUT_S)
        except (OSError, sqlite3.Error) as exc:
            raise ConfigurationError(
                f"cannot open the {what} {path}: {exc}; check the folder is writable"
            ) from exc
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            with db:
                db.execute(schema)
            found = tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
        except sqlite3.Error as exc:
            db.close()
            raise self._translate(exc) from exc
        if found != columns:
            db.close()
            raise ConfigurationError(
                f"{path} holds {_a(table)} {table!r} table with columns {list(found)}, not "
                f"{_a(what)} {what}; pass another path"
            )
        return db

    def _translate(self, exc: sqlite3.Error) -> Exception:
        path, what = self._path, self._what
        if isinstance(exc, sqlite3.OperationalError) or not isinstance(exc, sqlite3.DatabaseError):
            name = getattr(exc, "sqlite_errorname", "")
            return StoreError(f"{what} {path}: {exc}", retryable=name in _BUSY_ERRORS)
        return ConfigurationError(
            f"the {what} {path} is not a readable SQLite database ({exc}); delete the file "
            "to start an empty cache, or pass another path"
        )
