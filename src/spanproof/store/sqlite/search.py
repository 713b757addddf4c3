"""Reads of the SQLite store that serve chunks: masking on read, keyword and vector search.

Every function takes the store's connection inside an open (read or write) transaction.

Both searches rank first and filter second: they take a window of the best-ranked chunk rows,
keep those that pass the :class:`SearchFilter` with a few index lookups, and widen the window
only when too few passed to be sure of the top ``limit`` (equal scores included). Filtering
first would join every matching chunk to its source and versions (hundreds of ms at 100k chunks).

Keywords: ``chunks_fts`` holds each chunk's terms (:mod:`spanproof.store.keyword_terms`), and a
query searches for the OR of its own terms, made by the same function. Queries first leave out
terms that occur in at least half of all chunks (stop words are never terms; "patient" may be):
FTS5's BM25 gives those an IDF of 1e-6, so they barely change the order of the chunks that match
a rarer word, yet matching them costs a pass over almost every chunk. Only when fewer than
``limit`` chunks match a rarer term does the full query run.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from spanproof.core.errors import InvalidInputError
from spanproof.core.store import Chunk, SearchHit
from spanproof.store.chunk_rows import CHUNK_COLS, load_chunks
from spanproof.store.sql import SQLITE, Where, clean_text
from spanproof.store.sqlite import ann
from spanproof.store.sqlite.ann import AnnIndexes
from spanproof.store.sqlite.matrix import VectorMatrices, cosine_scores
from spanproof.text.keywords import query_terms


def query_words(text: str) -> list[str]:
    """The distinct terms of ``text`` in order (at most
    :data:`~spanproof.text.keywords.MAX_QUERY_TERMS`): terms as the index holds them, so
    ``title:aspirin`` gives ``titl`` and ``aspirin``."""
    return query_terms(clean_text(text))


def fts_match(words: Iterable[str]) -> str:
    """An FTS5 MATCH expression: each word quoted, joined with OR ("" for no words).

    Quoting every word means user input can never be FTS5 syntax (``AND``, ``NEAR(``, ``*``,
    column filters).
    """
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def ranked(scores: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.intp]:
    """Indices of the ``k`` best scores, best first, equal scores in index order.

    The order is total, so the top ``k`` is always a prefix of the top ``k' > k``.
    """
    n = int(scores.shape[0])
    if k <= 0 or n == 0:
        return np.empty(0, dtype=np.intp)
    if k >= n:
        candidates = np.arange(n, dtype=np.intp)
    else:
        threshold = np.partition(scores, n - k)[n - k]
        candidates = np.flatnonzero(scores >= threshold)
    order = np.lexsort((candidates, -scores[candidates]))
    return candidates[order][:k]


_CHUNK_TERMS = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunk_terms USING fts5vocab (main, chunks_fts, 'row')"
)


def passing_chunks(
    db: sqlite3.Connection, seqs: Sequence[int], where: Where, *, erased_too: bool
) -> dict[int, Chunk]:
    """The chunks among ``seqs`` that pass the filter ``where``, by seq."""
    condition = where.condition if erased_too else f"c.erased = 0 AND ({where.condition})"
    rows = db.execute(
        # The seqs drive the join (SQLite keeps the order of a CROSS JOIN), so this costs a few
        # index lookups rather than a scan of every active source.
        f"SELECT c.seq, {CHUNK_COLS} FROM json_each(?) AS j CROSS JOIN chunks c ON c.seq = j.value"
        f" CROSS JOIN sources s ON s.id = c.source_id WHERE {condition}",
        [json.dumps(list(seqs)), *where.params],
    ).fetchall()
    chunks = load_chunks(SQLITE, db, [row[1:] for row in rows])
    return {int(row[0]): chunk for row, chunk in zip(rows, chunks, strict=True)}


def _common_words(db: sqlite3.Connection, words: list[str]) -> set[str]:
    """Words (index terms) that are in at least half the chunks."""
    db.execute(_CHUNK_TERMS)
    (total,) = db.execute("SELECT coalesce(max(seq), 0) FROM chunks").fetchone()
    common: set[str] = set()
    for word in words:
        row = db.execute("SELECT doc FROM temp.chunk_terms WHERE term = ?", (word,)).fetchone()
        if row is not None and 2 * int(row[0]) >= int(total):
            common.add(word)
    return common


def keyword_search(
    conn: sqlite3.Connection, query: str, limit: int, where: Where
) -> list[SearchHit]:
    """BM25 ranking (score ``-bm25``, higher is better; equal scores by chunk id)."""
    words = query_words(query)
    if not words:
        return []
    common = _common_words(conn, words) if len(words) > 1 else set()
    rarer = [word for word in words if word not in common]
    if common and rarer:
        hits = _keyword_hits(conn, fts_match(rarer), limit, where)
        if len(hits) == limit:
            return hits
        # Too few chunks match a rarer word: those matching only common words fill the rest.
    return _keyword_hits(conn, fts_match(words), limit, where)


def _keyword_hits(db: sqlite3.Connection, match: str, limit: int, where: Where) -> list[SearchHit]:
    window = max(4 * limit, 64)
    while True:
        scored = db.execute(
            "SELECT rowid, bm25(chunks_fts) AS bm FROM chunks_fts WHERE chunks_fts MATCH ?"
            " ORDER BY bm LIMIT ?",
            (match, window),
        ).fetchall()
        passing = passing_chunks(db, [row[0] for row in scored], where, erased_too=True)
        best = sorted(
            ((float(bm), passing[seq].id, passing[seq]) for seq, bm in scored if seq in passing),
            key=lambda item: (item[0], item[1]),
        )[:limit]
        # Exact when every match was seen, or when the window's worst score is strictly worse
        # than the last kept one (so nothing outside the window can equal or beat it).
        if len(scored) < window or (len(best) == limit and best[-1][0] < float(scored[-1][1])):
            return [
                SearchHit(chunk, -bm, rank) for rank, (bm, _, chunk) in enumerate(best, start=1)
            ]
        window *= 8


def vector_search(
    db: sqlite3.Connection,
    matrices: VectorMatrices,
    query: np.ndarray[Any, np.dtype[np.float32]],
    model_id: str,
    limit: int,
    where: Where,
    *,
    persist: bool,
    indexes: AnnIndexes | None = None,
) -> list[SearchHit]:
    """Cosine ranking of ``model_id``'s vectors against the unit vector ``query``: exact, or
    through a fresh HNSW index file when one exists (candidates re-scored exactly)."""
    matrix = matrices.get(db, model_id, persist=persist)
    if matrix is None:
        return []
    if matrix.dim != query.shape[0]:
        raise InvalidInputError(
            f"the query vector has {query.shape[0]} dimensions; {model_id!r} has {matrix.dim}"
        )
    index = indexes.get(model_id, matrix) if indexes is not None else None
    if index is not None:
        rows, approx = ann.candidates(index, matrix, query, max(8 * limit, 100))
        passing = passing_chunks(db, matrix.seqs[rows].tolist(), where, erased_too=False)
        hits = [
            SearchHit(passing[int(matrix.seqs[r])], float(sc), 0)
            for r, sc in zip(rows, approx, strict=True)
            if int(matrix.seqs[r]) in passing
        ][:limit]
        if len(hits) == limit:  # else filters removed too many: fall back to exact search
            return [SearchHit(h.chunk, h.score, i) for i, h in enumerate(hits, start=1)]
    scores = cosine_scores(matrix.vectors, query)
    total = int(scores.shape[0])
    found: list[SearchHit] = []
    done, window = 0, min(total, max(4 * limit, 32))
    while True:
        order = ranked(scores, window)[done:]
        passing = passing_chunks(db, matrix.seqs[order].tolist(), where, erased_too=False)
        for index in order:
            chunk = passing.get(int(matrix.seqs[index]))
            if chunk is not None:
                found.append(SearchHit(chunk, float(scores[index]), len(found) + 1))
                if len(found) == limit:
                    return found
        if window >= total:
            return found
        done, window = window, min(total, window * 8)
