"""Reads of the SQLite store that serve chunks: masking on read, keyword and vector search.

Every function takes the store's connection inside an open (read or write) transaction.

Both searches rank first and filter second: they take a window of the best-ranked chunk rows,
keep those that pass the :class:`SearchFilter` with a few index lookups, and widen the window
only when too few passed to be sure of the top ``limit`` (equal scores included). Filtering
first would join every matching chunk to its source and versions (hundreds of ms at 100k chunks).

Keyword queries first leave out words that occur in at least half of all chunks ("the", "of"):
FTS5's BM25 gives those an IDF of 1e-6, so they barely change the order of the chunks that match
a rarer word, yet matching them costs a pass over almost every chunk. Only when fewer than
``limit`` chunks match a rarer word does the full query run.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from spanproof.core.errors import InvalidInputError
from spanproof.core.store import Chunk, SearchHit
from spanproof.store.sqlite import ann
from spanproof.store.sqlite.ann import AnnIndexes
from spanproof.store.sqlite.matrix import VectorMatrices
from spanproof.store.sqlite.query import fts_match, mask_text, query_words, ranked

#: The columns :func:`load_chunks` reads, on the alias ``c`` of ``chunks``.
CHUNK_COLS = (
    "c.id, c.source_id, c.version, c.section_key, c.span_start, c.span_end, c.text, c.erased"
)
#: ``chunks_fts``'s tokenizer as created by migration 0001 (a test pins the two together).
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"
_QUERY_TABLES = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words"
    f" USING fts5 (word, tokenize = '{FTS_TOKENIZER}')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms"
    " USING fts5vocab (temp, query_words, 'instance')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunk_terms USING fts5vocab (main, chunks_fts, 'row')",
)
Ranges = list[tuple[int, int]]
Where = tuple[str, list[object]]


def erased_ranges(db: sqlite3.Connection, source_id: str, version: int) -> dict[str, Ranges]:
    """The erased ranges of a version's sections, by section key."""
    out: dict[str, Ranges] = {}
    for key, start, end in db.execute(
        "SELECT section_key, span_start, span_end FROM erasures"
        " WHERE source_id = ? AND version = ?",
        (source_id, version),
    ):
        out.setdefault(key, []).append((start, end))
    return out


def load_chunks(db: sqlite3.Connection, rows: Sequence[Sequence[Any]]) -> list[Chunk]:
    """Chunks from :data:`CHUNK_COLS` rows, the text of erased ones masked."""
    ranges: dict[tuple[str, int], dict[str, Ranges]] = {}
    out: list[Chunk] = []
    for cid, source_id, version, key, start, end, text, erased in rows:
        served = text
        if erased:
            if (source_id, version) not in ranges:
                ranges[source_id, version] = erased_ranges(db, source_id, version)
            served = mask_text(text, ranges[source_id, version].get(key, []), start)
        out.append(Chunk(cid, source_id, version, key, start, end, served))
    return out


def passing_chunks(
    db: sqlite3.Connection, seqs: Sequence[int], where: Where, *, erased_too: bool
) -> dict[int, Chunk]:
    """The chunks among ``seqs`` that pass the filter ``where``, by seq."""
    condition, params = where
    if not erased_too:
        condition = f"c.erased = 0 AND ({condition})"
    rows = db.execute(
        # The seqs drive the join (SQLite keeps the order of a CROSS JOIN), so this costs a few
        # index lookups rather than a scan of every active source.
        f"SELECT c.seq, {CHUNK_COLS} FROM json_each(?) AS j CROSS JOIN chunks c ON c.seq = j.value"
        f" CROSS JOIN sources s ON s.id = c.source_id WHERE {condition}",
        [json.dumps(list(seqs)), *params],
    ).fetchall()
    chunks = load_chunks(db, [row[1:] for row in rows])
    return {int(row[0]): chunk for row, chunk in zip(rows, chunks, strict=True)}


def _common_words(db: sqlite3.Connection, words: list[str]) -> set[str]:
    """Words whose one index term is in at least half the chunks.

    The words go through the same tokenizer as the index (a scratch FTS5 table in ``temp``), so
    stems are exactly the index's; a word that becomes no term or several is never dropped.
    """
    for statement in _QUERY_TABLES:
        db.execute(statement)
    db.execute("DELETE FROM temp.query_words")
    db.executemany(
        "INSERT INTO temp.query_words (rowid, word) VALUES (?, ?)", enumerate(words, start=1)
    )
    terms: dict[int, list[str]] = {}
    for doc, term in db.execute("SELECT doc, term FROM temp.query_terms"):
        terms.setdefault(int(doc), []).append(str(term))
    (total,) = db.execute("SELECT coalesce(max(seq), 0) FROM chunks").fetchone()
    common: set[str] = set()
    for index, word in enumerate(words, start=1):
        found = terms.get(index, [])
        if len(found) != 1:
            continue
        row = db.execute("SELECT doc FROM temp.chunk_terms WHERE term = ?", found).fetchone()
        if row is not None and 2 * int(row[0]) >= int(total):
            common.add(word)
    return common


def keyword_search(db: sqlite3.Connection, query: str, limit: int, where: Where) -> list[SearchHit]:
    """BM25 ranking (score ``-bm25``, higher is better; equal scores by chunk id)."""
    words = query_words(query)
    if not words:
        return []
    common = _common_words(db, words) if len(words) > 1 else set()
    rarer = [word for word in words if word not in common]
    if common and rarer:
        hits = _keyword_hits(db, fts_match(rarer), limit, where)
        if len(hits) == limit:
            return hits
        # Too few chunks match a rarer word: those matching only common words fill the rest.
    return _keyword_hits(db, fts_match(words), limit, where)


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
    scores = matrix.vectors @ query
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
