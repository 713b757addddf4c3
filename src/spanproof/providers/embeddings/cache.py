"""An on-disk embedding cache in front of any :class:`~spanproof.core.ports.Embedder`.

Vectors live in one SQLite table keyed by ``(model_id, model_hash, sha256(text))``, stored as
little-endian float32 blobs, so a hit returns the very bytes the model produced and a new model
(or new weights under the same name) never reads another model's vectors.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType

import numpy as np

from spanproof.core.errors import ConfigurationError, StoreError
from spanproof.core.ports import Embedder, FloatMatrix

__all__ = ["CachedEmbedder"]

_TABLE = "embedding"
_COLUMNS = ("model_id", "model_hash", "text_sha256", "dim", "vector")
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {_TABLE} (
    model_id    TEXT    NOT NULL,
    model_hash  TEXT    NOT NULL,
    text_sha256 TEXT    NOT NULL,
    dim         INTEGER NOT NULL,
    vector      BLOB    NOT NULL,
    PRIMARY KEY (model_id, model_hash, text_sha256)
) WITHOUT ROWID
"""
# Stay well under SQLITE_MAX_VARIABLE_NUMBER (999 in old builds) with three fixed parameters.
_LOOKUP_CHUNK = 500
_VECTOR_DTYPE = np.dtype("<f4")
_BUSY_ERRORS = frozenset({"SQLITE_BUSY", "SQLITE_LOCKED"})


class CachedEmbedder:
    """Wraps ``inner`` so that a text is embedded once per model, ever, across processes.

    ``model_id``, ``model_hash`` and ``window_ranges`` are ``inner``'s. :meth:`embed` looks every
    text up, sends only the distinct misses to ``inner.embed`` in one call, stores them, and
    returns the rows in the caller's order. Close it (or use it as a context manager) when done.

    Args:
        inner: the embedder whose vectors are cached.
        path: the SQLite file; created with its parent folders if absent.

    Raises:
        ConfigurationError: ``path`` cannot be created, is not a SQLite database, or holds an
            ``embedding`` table of another shape.
    """

    def __init__(self, inner: Embedder, path: Path) -> None:
        self._inner = inner
        self._path = Path(path)
        self._lock = threading.Lock()
        self._db = _open(self._path)

    @property
    def model_id(self) -> str:
        """The inner embedder's model id."""
        return self._inner.model_id

    @property
    def model_hash(self) -> str:
        """The inner embedder's model hash."""
        return self._inner.model_hash

    @property
    def path(self) -> Path:
        """The SQLite file."""
        return self._path

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        """The inner embedder's windows (not cached: they need no model call)."""
        return self._inner.window_ranges(text)

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed ``texts``, calling the inner embedder only for texts not cached yet.

        Raises:
            StoreError: SQLite failed (retryable when the database was busy or locked).
            ConfigurationError: the file turned out to be corrupt.
            ProviderError: from the inner embedder, unchanged.
        """
        if not texts:
            return self._inner.embed([])
        model = (self.model_id, self.model_hash)
        keys = [_text_key(text) for text in texts]
        found = self._lookup(model, sorted(set(keys)))
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in found:
                missing.setdefault(key, text)
        if missing:
            vectors = self._inner.embed(list(missing.values()))
            fresh = {
                key: np.ascontiguousarray(row, dtype=_VECTOR_DTYPE).tobytes()
                for key, row in zip(missing, vectors, strict=True)
            }
            self._store(model, fresh)
            found.update(fresh)
        return np.stack([np.frombuffer(found[key], dtype=_VECTOR_DTYPE) for key in keys]).astype(
            np.float32, copy=False
        )

    def __len__(self) -> int:
        """Number of cached vectors, all models together."""
        with self._guard():
            row = self._db.execute(f"SELECT count(*) FROM {_TABLE}").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the SQLite connection; the cache cannot be used afterwards."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> CachedEmbedder:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _lookup(self, model: tuple[str, str], keys: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        with self._guard():
            for chunk in _iter_chunks(keys, _LOOKUP_CHUNK):
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT text_sha256, vector FROM {_TABLE} "
                    f"WHERE model_id = ? AND model_hash = ? AND text_sha256 IN ({marks})",
                    (*model, *chunk),
                )
                found.update((key, bytes(blob)) for key, blob in rows)
        return found

    def _store(self, model: tuple[str, str], vectors: dict[str, bytes]) -> None:
        rows = [
            (*model, key, len(blob) // _VECTOR_DTYPE.itemsize, blob)
            for key, blob in vectors.items()
        ]
        with self._guard(), self._db:
            # Another process may have stored the same text meanwhile: same model, same vector.
            self._db.executemany(
                f"INSERT OR IGNORE INTO {_TABLE} ({', '.join(_COLUMNS)}) VALUES (?, ?, ?, ?, ?)",
                rows,
            )

    def _guard(self) -> _Guard:
        return _Guard(self._lock, self._path)


class _Guard:
    """Holds the connection lock and translates sqlite3 errors at the boundary."""

    def __init__(self, lock: threading.Lock, path: Path) -> None:
        self._lock = lock
        self._path = path

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._lock.release()
        if isinstance(exc, sqlite3.Error):
            raise _translate(exc, self._path) from exc


def _open(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, check_same_thread=False, timeout=30.0)
    except (OSError, sqlite3.Error) as exc:
        raise ConfigurationError(
            f"cannot open the embedding cache {path}: {exc}; check the folder is writable"
        ) from exc
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        with db:
            db.execute(_SCHEMA)
        columns = tuple(row[1] for row in db.execute(f"PRAGMA table_info({_TABLE})"))
    except sqlite3.Error as exc:
        db.close()
        raise _translate(exc, path) from exc
    if columns != _COLUMNS:
        db.close()
        raise ConfigurationError(
            f"{path} holds an {_TABLE!r} table with columns {list(columns)}, not an embedding "
            "cache; pass another path"
        )
    return db


def _translate(exc: sqlite3.Error, path: Path) -> Exception:
    if isinstance(exc, sqlite3.OperationalError) or not isinstance(exc, sqlite3.DatabaseError):
        name = getattr(exc, "sqlite_errorname", "")
        return StoreError(f"embedding cache {path}: {exc}", retryable=name in _BUSY_ERRORS)
    return ConfigurationError(
        f"the embedding cache {path} is not a readable SQLite database ({exc}); delete the file "
        "to start an empty cache, or pass another path"
    )


def _text_key(text: str) -> str:
    # surrogatepass: a text with a lone surrogate still gets its own stable key.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _iter_chunks(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
