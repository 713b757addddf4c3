"""An optional approximate (HNSW) index over one model's vector matrix, in a rebuildable file.

Exact brute force is the default (bench/RESULTS.md: under 6 ms at 100,000 vectors here). On
request (``spanproof reindex``), ``SqliteEvidenceStore.rebuild_vector_index`` writes
``<model>-<token>.hnsw`` next to the matrix sidecar. Vector search uses the file only while its
token matches the model's current vectors, so an index never answers for vectors it has not seen;
otherwise search stays exact. Candidates from the index are re-scored exactly and ranked with the
same tie-break (chunk id). ``hnswlib`` is an optional dependency (the ``ann`` extra): without it
every search is exact.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from spanproof.store.sqlite.matrix import (
    VectorMatrix,
    cosine_scores,
    model_key,
    remove_others,
    write_atomically,
)

M = 16
EF_CONSTRUCTION = 100


def available() -> bool:
    try:
        import hnswlib  # noqa: F401
    except ImportError:
        return False
    return True


class AnnIndexes:
    """The HNSW index files of one store, cached in memory by (model, token)."""

    def __init__(self, directory: Path) -> None:
        self._dir = directory
        self._cache: dict[str, tuple[str, Any]] = {}

    def _path(self, model_id: str, token: str) -> Path:
        return self._dir / f"{model_key(model_id)}-{token}.hnsw"

    def build(self, model_id: str, matrix: VectorMatrix) -> Path | None:
        """Write the index for ``matrix`` (labels are row numbers); removes older ones."""
        path = self._path(model_id, matrix.token)
        if not available():
            return None
        import hnswlib

        index = hnswlib.Index(space="ip", dim=matrix.dim)
        index.init_index(max_elements=len(matrix.seqs), ef_construction=EF_CONSTRUCTION, M=M)
        index.set_num_threads(max(1, os.cpu_count() or 1))
        index.add_items(np.asarray(matrix.vectors), np.arange(len(matrix.seqs)))
        path.parent.mkdir(exist_ok=True)
        write_atomically(path, lambda tmp: index.save_index(str(tmp)))
        remove_others(path.parent, f"{model_key(model_id)}-*.hnsw", [path])
        self._cache[model_id] = (matrix.token, index)
        return path

    def get(self, model_id: str, matrix: VectorMatrix) -> Any | None:
        """The index for exactly these vectors, or None (then search is exact)."""
        cached = self._cache.get(model_id)
        if cached is not None and cached[0] == matrix.token:
            return cached[1]
        path = self._path(model_id, matrix.token)
        if not path.exists() or not available():
            return None
        import hnswlib

        index = hnswlib.Index(space="ip", dim=matrix.dim)
        try:
            index.load_index(str(path), max_elements=len(matrix.seqs))
        except (RuntimeError, OSError):
            return None  # unreadable: fall back to exact search
        if index.get_current_count() != len(matrix.seqs):
            return None
        self._cache[model_id] = (matrix.token, index)
        return index


def candidates(
    index: Any, matrix: VectorMatrix, query: npt.NDArray[np.float32], k: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """Rows of the ``k`` approximate nearest vectors, re-scored exactly, best first."""
    k = min(k, len(matrix.seqs))
    index.set_ef(max(k, 200))
    labels, _ = index.knn_query(query.reshape(1, -1), k=k)
    rows = np.asarray(labels[0], dtype=np.int64)
    scores = np.asarray(cosine_scores(matrix.vectors[rows], query), dtype=np.float32)
    order = np.lexsort((rows, -scores))  # score descending, then row (= chunk id order)
    return rows[order], scores[order]
