"""Keyword and vector search of the PostgreSQL store.

* **Keywords** — ``chunks.tsv`` holds a chunk's terms (:mod:`spanproof.store.keyword_terms`, the
  same terms SQLite indexes; a GIN index). A query becomes the OR of its first
  :data:`MAX_QUERY_TERMS` distinct terms, each quoted in a ``tsquery`` literal, so user input is
  never tsquery syntax: OR, not ``plainto_tsquery``'s AND, because a claim's words rarely all
  occur in one chunk. Ranking is FTS5's bm25 (k1 = 1.2, b = 0.75, an IDF of
  ``log((N - n + 0.5) / (n + 0.5))``, at least 1e-6), computed in SQL: a chunk's term
  frequencies are the positions of the query's terms in its ``tsv``, its length is
  ``chunks.term_count``, and N, the average length and each term's document count n come from
  ``keyword_stats`` (:func:`count_terms`). So both dialects give the same scores and order
  (ties by chunk id), and SQLite's rule for common terms holds too: terms in at least half of
  all chunks are left out unless fewer than ``limit`` chunks match the rarer ones.
* **Pruning** (MaxScore) — a term adds less than ``(k1 + 1) * idf`` to any chunk's score, so a
  chunk that matches none of the rarest terms scores less than the sum of that bound over the
  others. The search matches the rarest terms first (about :data:`FIRST_ROWS` chunks' worth),
  scores what they match by every term, and adds rarer-first terms only while the bound of those
  left out is not below the ``limit``-th score: at most two queries, each over far fewer chunks
  than the OR of all terms matches.
* **Vectors** — exact cosine distance (pgvector ``<=>``); score = ``1 - distance``.
* Both rank the best ``max(8 * limit, SEARCH_WINDOW)`` rows of one table first and filter them
  afterwards, falling back to one filtered ranking query when too few pass (or a ``source_ids``
  filter makes the join cheap). Both orders are total (score, then chunk id), so the result is
  the exact filtered top ``limit`` either way.

Every function takes a connection inside the caller's unit of work.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from spanproof.core.errors import InvalidInputError
from spanproof.core.store import SearchHit
from spanproof.store import keyword_terms
from spanproof.store.chunk_rows import CHUNK_COLS, load_chunks
from spanproof.store.postgres._pool import Conn
from spanproof.store.sql import POSTGRES, UnitVector, Where, clean_text
from spanproof.text.keywords import MAX_QUERY_TERMS, query_terms

__all__ = [
    "MAX_QUERY_TERMS",
    "SEARCH_WINDOW",
    "count_terms",
    "keyword_search",
    "model_dim",
    "vector_search",
]

#: Searches rank at least this many candidates on one table first, then filter them.
SEARCH_WINDOW = 200
#: The first keyword query matches the rarest terms whose document counts add up to about this.
FIRST_ROWS = 500
#: FTS5's bm25 parameters.
K1 = 1.2
B = 0.75
#: FTS5's IDF for a term in at least half of all chunks (its formula gives 0 or less there).
MIN_IDF = 1e-6

#: Adds ``sign`` times the chunks ``ids``' terms to ``keyword_stats``: per term, the chunks that
#: hold it and its positions; the row of the empty term counts every chunk and every position
#: (``term_count``). Terms in sorted order, the empty one first, so concurrent writers lock the
#: rows in one order (the empty term's row makes them take turns: no deadlock between them).
_COUNT_TERMS = """
    INSERT INTO keyword_stats AS k (term, chunks, occurrences)
    SELECT term, CAST(? AS BIGINT) * count(*), CAST(? AS BIGINT) * sum(n) FROM (
        SELECT u.lexeme AS term, cardinality(u.positions) AS n
        FROM chunks c, unnest(c.tsv) u WHERE c.id = ANY(CAST(? AS TEXT[]))
        UNION ALL SELECT '', c.term_count FROM chunks c WHERE c.id = ANY(CAST(? AS TEXT[]))
    ) t GROUP BY term ORDER BY term
    ON CONFLICT (term) DO UPDATE SET chunks = k.chunks + excluded.chunks,
        occurrences = k.occurrences + excluded.occurrences
    RETURNING term, chunks
"""


def model_dim(conn: Conn, model_id: str, dim: int, *, create: bool) -> bool:
    """Check ``dim`` against the model's; False when the model has no vectors yet."""
    if create:
        conn.execute(
            "INSERT INTO embedding_models (model_id, dim) VALUES (%s, %s)"
            " ON CONFLICT (model_id) DO NOTHING",
            (model_id, dim),
        )
    row = conn.execute("SELECT dim FROM embedding_models WHERE model_id = %s", (model_id,))
    found = row.fetchone()
    if found is None:
        return False
    if int(found[0]) != dim:
        what = "vectors" if create else "query vector"
        raise InvalidInputError(
            f"{what} of {dim} dimensions; model {model_id!r} has {found[0]}-dimensional vectors"
        )
    return True


def _window(limit: int) -> int:
    return max(8 * limit, SEARCH_WINDOW)


def _ranked(
    conn: Conn,
    limit: int,
    where: Where,
    window_sql: str,
    window_params: Sequence[Any],
    ranked_sql: str,
    params: Sequence[Any],
    score: Callable[[Any], float],
    best: list[Any] | None = None,
) -> list[SearchHit]:
    """The filtered top ``limit``, best first (see the module).

    ``window_sql`` ranks ``(chunk id, raw score)`` rows on one table, ``LIMIT ?`` last (the
    caller may pass what it gave for ``LIMIT`` :func:`window` as ``best``); ``ranked_sql`` ranks
    chunk rows with their raw score with the filter as ``{where}``, then ``LIMIT ?``. ``params``
    bind the placeholders of ``ranked_sql`` before ``{where}``.
    """
    if not where.by_source:
        window = _window(limit)
        if best is None:
            best = POSTGRES.all(conn, window_sql, [*window_params, window])
        if best:
            rows = POSTGRES.all(
                conn,
                f"SELECT {CHUNK_COLS} FROM chunks c JOIN sources s ON s.id = c.source_id"
                f" WHERE c.id = ANY(CAST(? AS TEXT[])) AND {where.condition}",
                [[r[0] for r in best], *where.params],
            )
            passing = {c.id: c for c in load_chunks(POSTGRES, conn, rows)}
            found = [(passing[str(cid)], raw) for cid, raw in best if cid in passing]
        else:
            found = []
        if len(found) >= limit or len(best) < window:
            return [SearchHit(c, score(raw), i) for i, (c, raw) in enumerate(found[:limit], 1)]
    rows = POSTGRES.all(
        conn, ranked_sql.format(where=where.condition), [*params, *where.params, limit]
    )
    chunks = load_chunks(POSTGRES, conn, [r[:8] for r in rows])
    return [
        SearchHit(chunk, score(row[8]), rank)
        for rank, (chunk, row) in enumerate(zip(chunks, rows, strict=True), start=1)
    ]


def count_terms(conn: Conn, ids: Sequence[str], sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) the terms of the stored chunks ``ids`` in
    ``keyword_stats``. A term no chunk holds any more loses its row, so an erased word leaves no
    trace there either."""
    if not ids:
        return
    rows = POSTGRES.all(conn, _COUNT_TERMS, (sign, sign, list(ids), list(ids)))
    gone = [str(term) for term, chunks in rows if term and int(chunks) == 0]
    if gone:
        POSTGRES.run(
            conn,
            "DELETE FROM keyword_stats WHERE term = ANY(CAST(? AS TEXT[])) AND chunks = 0",
            (gone,),
        )


def keyword_search(conn: Conn, query: str, limit: int, where: Where) -> list[SearchHit]:
    """bm25 ranking of the chunks matching any term of ``query`` (see the module)."""
    words = query_terms(clean_text(query))
    if not words:
        return []
    stats = {
        str(term): (int(chunks), int(occurrences))
        for term, chunks, occurrences in POSTGRES.all(
            conn,
            "SELECT term, chunks, occurrences FROM keyword_stats"
            " WHERE term = ANY(CAST(? AS TEXT[]))",
            ([*words, ""],),
        )
    }
    total, length = stats.get("", (0, 0))
    if total == 0:
        return []
    docs = {word: stats.get(word, (0, 0))[0] for word in words}
    idf = {word: _idf(total, docs[word]) for word in words}
    bm25 = _Bm25(idf, docs, length / total)
    common = {word for word in words if 2 * docs[word] >= total} if len(words) > 1 else set()
    rarer = [word for word in words if word not in common]
    if common and rarer:
        hits = bm25.hits(conn, rarer, limit, where)
        if len(hits) == limit:
            return hits
        # Too few chunks match a rarer term: those matching only common terms fill the rest.
    return bm25.hits(conn, words, limit, where)


def _idf(total: int, docs: int) -> float:
    """FTS5's IDF of a term in ``docs`` of ``total`` chunks."""
    idf = math.log((total - docs + 0.5) / (docs + 0.5))
    return idf if idf > 0 else MIN_IDF


#: bm25 of chunk ``c`` for the terms and IDFs bound as arrays, as FTS5 computes it. The query's
#: terms get weight A (chunks' positions have none) and ``ts_filter`` keeps only those, so the
#: join sees a few lexemes rather than every term of the chunk.
_SCORE = """(SELECT sum(q.idf * ((cardinality(u.positions) * CAST(? AS FLOAT8))
        / (cardinality(u.positions) + CAST(? AS FLOAT8) * (CAST(? AS FLOAT8)
           + CAST(? AS FLOAT8) * c.term_count / CAST(? AS FLOAT8)))))
    FROM unnest(ts_filter(setweight(c.tsv, 'A', CAST(? AS TEXT[])), ARRAY[CAST('a' AS "char")])) u
    JOIN unnest(CAST(? AS TEXT[]), CAST(? AS FLOAT8[])) q (term, idf) ON q.term = u.lexeme)"""


class _Bm25:
    """bm25 over the terms of one query: their IDFs and document counts, the average length."""

    def __init__(self, idf: dict[str, float], docs: dict[str, int], average: float) -> None:
        self.idf, self.docs, self.average = idf, docs, average

    def hits(self, conn: Conn, words: list[str], limit: int, where: Where) -> list[SearchHit]:
        """The exact filtered top ``limit`` by bm25 over ``words`` of the chunks matching any of
        them, matching as few as the bound allows (see the module)."""
        rarest = sorted(words, key=lambda word: (-self.idf[word], word))
        # bound[i]: what the terms rarest[i:] can add to a chunk's score, at most.
        bound = [0.0] * (len(rarest) + 1)
        for i in range(len(rarest) - 1, -1, -1):
            bound[i] = bound[i + 1] + (K1 + 1) * self.idf[rarest[i]]
        matched, rows = 1, self.docs[rarest[0]]
        while matched < len(rarest) and rows + self.docs[rarest[matched]] <= FIRST_ROWS:
            rows += self.docs[rarest[matched]]
            matched += 1

        def needed(worst: float) -> int:
            """How many of the rarest terms a chunk must match to score ``worst`` or more: one
            matching none of rarest[:n] scores less than bound[n] (each term adds at most
            256 / 256.3 of its bound, as tf <= 256 and k1 * (1 - b) = 0.3)."""
            return next(i for i in range(len(rarest) + 1) if bound[i] <= worst)

        while True:
            window_sql, ranked_sql, params = self._statements(words, rarest[:matched])
            best = None
            if not where.by_source:
                # The unfiltered window's limit-th score bounds the filtered one from above, so
                # a window that cannot be enough is widened before any chunk row is read.
                best = POSTGRES.all(conn, window_sql, [*params, _window(limit)])
                top = float(best[limit - 1][1]) if len(best) >= limit else 0.0
                if needed(top) > matched:
                    matched = needed(top)
                    continue
            found = _ranked(conn, limit, where, window_sql, params, ranked_sql, params, float, best)
            more = needed(found[-1].score if len(found) == limit else 0.0)
            if more <= matched:
                return found
            matched = more

    def _statements(self, words: list[str], match: list[str]) -> tuple[str, str, list[Any]]:
        """The window and filtered ranking statements (see :func:`_ranked`) that score the chunks
        matching any of ``match`` by bm25 over ``words``, and the parameters of both."""
        idf = [self.idf[word] for word in words]
        params = [
            K1 + 1,
            K1,
            1 - B,
            B,
            self.average,
            words,
            words,
            idf,
            keyword_terms.tsquery(match),
        ]
        return (
            f"SELECT c.id, {_SCORE} AS score FROM chunks c WHERE c.tsv @@ CAST(? AS tsquery)"
            " ORDER BY score DESC, c.id LIMIT ?",
            f"SELECT {CHUNK_COLS}, {_SCORE} AS score FROM chunks c"
            " JOIN sources s ON s.id = c.source_id"
            " WHERE c.tsv @@ CAST(? AS tsquery) AND {where} ORDER BY score DESC, c.id LIMIT ?",
            params,
        )


def vector_search(
    conn: Conn, query: UnitVector, model_id: str, limit: int, where: Where
) -> list[SearchHit]:
    """Exact cosine ranking (pgvector ``<=>``) over ``model_id``'s vectors (see the module)."""
    if not model_dim(conn, model_id, int(query.shape[0]), create=False):
        return []
    unmasked = Where(f"NOT c.erased AND {where.condition}", where.params, where.by_source)
    return _ranked(
        conn,
        limit,
        unmasked,
        "SELECT chunk_id, vector <=> ? AS distance FROM embeddings"
        " WHERE model_id = ? ORDER BY distance, chunk_id LIMIT ?",
        (query, model_id),
        f"SELECT {CHUNK_COLS}, e.vector <=> ? AS distance FROM embeddings e"
        " JOIN chunks c ON c.id = e.chunk_id JOIN sources s ON s.id = c.source_id"
        " WHERE e.model_id = ? AND {where} ORDER BY distance, c.id LIMIT ?",
        (query, model_id),
        lambda distance: 1.0 - float(distance),
    )
