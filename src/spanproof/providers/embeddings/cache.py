"""An on-disk embedding cache in front of any :class:`~spanproof.core.ports.Embedder`.

Vectors live in one SQLite table keyed by ``(model_id, model_hash, sha256(text))``, stored as
little-endian float32 blobs, so a hit returns the very bytes the model produced and a new model
(or new weights under the same name) never reads another model's vectors.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from spanproof.core.ports import Embedder, FloatMatrix
from spanproof.providers.sqlite_cache import SqliteCacheFile, text_sha256

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


class CachedEmbedder(SqliteCacheFile):
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
        super().__init__(
            path, what="embedding cache", table=_TABLE, schema=_SCHEMA, columns=_COLUMNS
        )

    @property
    def model_id(self) -> str:
        """The inner embedder's model id."""
        return self._inner.model_id

    @property
    def model_hash(self) -> str:
        """The inner embedder's model hash."""
        return self._inner.model_hash

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
        keys = [text_sha256(text) for text in texts]
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

    def missing(self, texts: Sequence[str]) -> list[str]:
        """The distinct ``texts`` with no cached vector under this model, in first-seen order:
        what :meth:`embed` would send to the inner embedder. Calls no model.

        Raises:
            StoreError: SQLite failed (retryable when the database was busy or locked).
        """
        keys = {text_sha256(text): text for text in texts}
        found = self._cached((self.model_id, self.model_hash), sorted(keys))
        return [text for key, text in keys.items() if key not in found]

    def _cached(self, model: tuple[str, str], keys: Sequence[str]) -> set[str]:
        return {row[0] for row in self._select("text_sha256", model, keys)}

    def _lookup(self, model: tuple[str, str], keys: Sequence[str]) -> dict[str, bytes]:
        return {key: bytes(blob) for key, blob in self._select("text_sha256, vector", model, keys)}

    def _select(self, columns: str, model: tuple[str, str], keys: Sequence[str]) -> list[Any]:
        """``columns`` of the rows of ``model`` whose text hash is one of ``keys``."""
        rows: list[Any] = []
        with self._guard():
            for chunk in _iter_chunks(keys, _LOOKUP_CHUNK):
                marks = ",".join("?" * len(chunk))
                rows.extend(
                    self._db.execute(
                        f"SELECT {columns} FROM {_TABLE} "
                        f"WHERE model_id = ? AND model_hash = ? AND text_sha256 IN ({marks})",
                        (*model, *chunk),
                    )
                )
        return rows

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


def _iter_chunks(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
