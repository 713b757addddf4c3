"""Per-model matrices of unit vectors for exact (brute-force) cosine search.

A matrix holds every vector of one model, rows ordered by chunk id (so equal scores rank by chunk
id), and is identified by the model's token in ``vector_tokens``, which every change to that
model's vectors renews. It is cached in memory and, from ``sidecar_min`` vectors up, written as a
pair of ``.npy`` files next to the database that later processes memory-map instead of reading
every vector out of SQLite again. A stale token never matches, so stale files are never used.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class VectorMatrix:
    """All vectors of one model: ``vectors[i]`` belongs to the chunk with ``seqs[i]``."""

    token: str
    seqs: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])


def cosine_scores(
    vectors: npt.NDArray[np.float32], query: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """``vectors @ query``, with equal rows scoring exactly equal wherever they lie.

    BLAS matrix-vector products (OpenBLAS ``sgemv``) take the last rows of a matrix through
    another kernel, so a vector repeated in several chunks (a boilerplate sentence) scored a few
    ulps apart by position and ranked by it rather than by chunk id, unlike PostgreSQL. einsum
    sums every row alike, as fast on a memory-bound product.
    """
    scores: npt.NDArray[np.float32] = np.einsum("ij,j->i", vectors, query)
    return scores


class VectorMatrices:
    """The matrix cache of one store connection."""

    def __init__(self, sidecar_dir: Path, sidecar_min: int) -> None:
        self._dir = sidecar_dir
        self._min = sidecar_min
        self._cache: dict[str, VectorMatrix] = {}

    def clear(self) -> None:
        self._cache.clear()

    def get(self, conn: sqlite3.Connection, model_id: str, *, persist: bool) -> VectorMatrix | None:
        """The current matrix of ``model_id``; None when the model has no vectors.

        Args:
            conn: the store's connection, inside a read or write transaction.
            model_id: the embedding model.
            persist: whether a sidecar may be written (not inside an open write transaction, whose
                changes might still roll back, and not on a read-only store).
        """
        row = conn.execute(
            "SELECT token FROM vector_tokens WHERE model_id = ?", (model_id,)
        ).fetchone()
        if row is None:
            return None
        token = str(row[0])
        cached = self._cache.get(model_id)
        if cached is not None and cached.token == token:
            return cached
        matrix = self._load_sidecar(model_id, token)
        if matrix is None:
            matrix = _load_rows(conn, model_id, token)
            if matrix is None:
                return None
            if persist and len(matrix.seqs) >= self._min:
                self._write_sidecar(model_id, matrix)
        self._cache[model_id] = matrix
        return matrix

    def _paths(self, model_id: str, token: str) -> tuple[Path, Path]:
        stem = f"{model_key(model_id)}-{token}"
        return self._dir / f"{stem}.vec.npy", self._dir / f"{stem}.seq.npy"

    def _load_sidecar(self, model_id: str, token: str) -> VectorMatrix | None:
        paths = self._paths(model_id, token)
        if not paths[0].exists() or not paths[1].exists():
            return None
        try:
            vectors = np.load(paths[0], mmap_mode="r", allow_pickle=False)
            seqs = np.load(paths[1], allow_pickle=False)
        except (OSError, ValueError):
            return None  # unreadable or half-written by a crashed process: rebuild from SQLite
        if vectors.ndim != 2 or seqs.shape != (vectors.shape[0],):
            return None
        return VectorMatrix(token, seqs.astype(np.int64, copy=False), vectors)

    def _write_sidecar(self, model_id: str, matrix: VectorMatrix) -> None:
        paths = self._paths(model_id, matrix.token)
        directory = paths[0].parent
        try:
            directory.mkdir(exist_ok=True)
            # seq first, vectors last: a reader needs both, and each appears atomically.
            for path, array in ((paths[1], matrix.seqs), (paths[0], matrix.vectors)):
                write_atomically(path, partial(_save, array))
            remove_others(directory, f"{model_key(model_id)}-*.npy", paths)
        except OSError:
            return  # the sidecar is an optimisation; the matrix in memory is still right


def model_key(model_id: str) -> str:
    """The file name stem of ``model_id``'s sidecar and index files."""
    return hashlib.sha256(model_id.encode("utf-8")).hexdigest()[:16]


def _save(array: npt.NDArray[np.generic], path: Path) -> None:
    np.save(path, array, allow_pickle=False)


def write_atomically(path: Path, write: Callable[[Path], object]) -> None:
    """``write`` a temporary file beside ``path``, then rename it to ``path``; a failed write
    (a full disk) leaves no half file behind."""
    tmp = path.with_name(f".{uuid.uuid4().hex}.tmp{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def remove_others(directory: Path, pattern: str, keep: Iterable[Path]) -> None:
    """Delete the files in ``directory`` matching ``pattern`` except ``keep`` (best effort)."""
    for old in set(directory.glob(pattern)) - set(keep):
        with contextlib.suppress(OSError):
            old.unlink()


def _load_rows(conn: sqlite3.Connection, model_id: str, token: str) -> VectorMatrix | None:
    rows = conn.execute(
        "SELECT c.seq, e.dim, e.vector FROM embeddings e JOIN chunks c ON c.id = e.chunk_id"
        " WHERE e.model_id = ? ORDER BY e.chunk_id",
        (model_id,),
    ).fetchall()
    if not rows:
        return None
    dim = int(rows[0][1])
    vectors = np.frombuffer(b"".join(row[2] for row in rows), dtype=np.float32)
    seqs = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
    return VectorMatrix(token, seqs, vectors.reshape(len(rows), dim))
