"""Keyword and vector search of the PostgreSQL store.

* **Keywords** — ``chunks.tsv`` holds a chunk's terms (:mod:`spanproof.store.keyword_terms`, the
  same terms SQLite indexes; a GIN index). A query becomes the OR of its first
  :data:`MAX_QUERY_TERMS` distinct terms, each quoted in a ``tsquery`` literal, so user input is
  never tsquery syntax: OR, not ``plainto_tsquery``'s AND, because a claim's words rarely all
  occur in one chunk. Ranking is ``ts_rank(tsv, query, 1)``, ties by chunk id (``ts_rank_cd``
  was measured and rejected: see ``docs/store.md``).
* **Vectors** — exact cosine distance (pgvector ``<=>``); score = ``1 - distance``.
* Both rank the best ``max(8 * limit, SEARCH_WINDOW)`` rows of one table first and filter them
  afterwards, falling back to one filtered ranking query when too few pass (or a ``source_ids``
  filter makes the join cheap). Both orders are total (score, then chunk id), so the result is
  the exact filtered top ``limit`` either way.

Every function takes a connection inside the caller's unit of work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spanproof.core.errors import InvalidInputError
from spanproof.core.store import SearchHit
from spanproof.store import keyword_terms
from spanproof.store.chunk_rows import CHUNK_COLS, load_chunks
from spanproof.store.postgres._pool import Conn
from spanproof.store.sql import POSTGRES, UnitVector, Where, clean_text
from spanproof.text.keywords import MAX_QUERY_TERMS, query_terms

__all__ = ["MAX_QUERY_TERMS", "SEARCH_WINDOW", "keyword_search", "model_dim", "vector_search"]

#: Searches rank at least this many candidates on one table first, then filter them.
SEARCH_WINDOW = 200


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


def _ranked(
    conn: Conn,
    limit: int,
    where: Where,
    window_sql: str,
    window_params: Sequence[Any],
    ranked_sql: str,
    params: Sequence[Any],
    score: Callable[[Any], float],
) -> list[SearchHit]:
    """The filtered top ``limit``, best first (see the module).

    ``window_sql`` ranks ``(chunk id, raw score)`` rows on one table, ``LIMIT ?`` last;
    ``ranked_sql`` ranks chunk rows with their raw score with the filter as ``{where}``, then
    ``LIMIT ?``. ``params`` bind the placeholders of ``ranked_sql`` before ``{where}``.
    """
    if not where.by_source:
        window = max(8 * limit, SEARCH_WINDOW)
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


def keyword_search(conn: Conn, query: str, limit: int, where: Where) -> list[SearchHit]:
    """``ts_rank`` ranking of the chunks matching any lexeme of ``query`` (see the module)."""
    tsquery = keyword_terms.tsquery(query_terms(clean_text(query)))
    if not tsquery:
        return []
    rank = "ts_rank(c.tsv, CAST(? AS tsquery), 1) AS score"
    return _ranked(
        conn,
        limit,
        where,
        f"SELECT c.id, {rank} FROM chunks c WHERE c.tsv @@ CAST(? AS tsquery)"
        " ORDER BY score DESC, c.id LIMIT ?",
        (tsquery, tsquery),
        f"SELECT {CHUNK_COLS}, {rank} FROM chunks c JOIN sources s ON s.id = c.source_id"
        " WHERE c.tsv @@ CAST(? AS tsquery) AND {where} ORDER BY score DESC, c.id LIMIT ?",
        (tsquery, tsquery),
        float,
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
