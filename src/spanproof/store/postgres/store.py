"""The evidence store on PostgreSQL: pgvector for vectors, Postgres full-text search for keywords.

What both SQL stores do the same way lives in :class:`~spanproof.store.sql_store.SqlEvidenceStore`
(the tables are the SQLite store's: the DDL both dialects share is in
:mod:`spanproof.store.migration_ddl`; ``migrations/versions/`` adds PostgreSQL's own, such as the
``tsvector`` and pgvector columns and the triggers that keep versions, sections and blobs
immutable). This module keeps what only PostgreSQL does:

* **Connections** — each thread holds one pooled connection for the outermost
  :meth:`transaction`; nested ones (and every method called inside one) are savepoints. Rows a
  transaction reads and then writes are locked (``FOR NO KEY UPDATE``); a trace append locks the
  table (``SHARE ROW EXCLUSIVE``) so concurrent appends queue and the chain cannot fork.
* **Chunks** — stored with their erased ranges masked (``masked = true``) and indexed in the
  ``tsv`` column (their terms, :mod:`spanproof.store.keyword_terms`) with their number of terms
  (``term_count``), their terms counted in ``keyword_stats`` for bm25
  (:func:`~spanproof.store.postgres.search.count_terms`); an erasure masks and re-indexes the
  stored text (uncounting the old terms, counting the new) and deletes the vectors.
* **Vectors** — one ``embeddings`` table with an untyped pgvector column; ``embedding_models``
  fixes each model's dimension. Search: see :mod:`spanproof.store.postgres.search`.
* **Errors** — psycopg errors become :class:`StoreError` (``retryable`` for serialization
  failures, deadlocks, lost connections and server shutdowns) or, for integrity and data errors,
  :class:`InvalidInputError`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext

import psycopg
from psycopg.conninfo import conninfo_to_dict

from spanproof.core.errors import ConfigurationError, StoreError
from spanproof.store.chunk_rows import NewChunk
from spanproof.store.keyword_terms import tsvector_and_length as indexed
from spanproof.store.postgres import search
from spanproof.store.postgres._pool import Conn, Pool, map_error, mapped_errors
from spanproof.store.postgres.migrate import ensure_schema
from spanproof.store.postgres.search import MAX_QUERY_TERMS, SEARCH_WINDOW, model_dim
from spanproof.store.sql import POSTGRES, UnitVector
from spanproof.store.sql_store import SqlEvidenceStore

__all__ = ["APPLICATION_NAME", "MAX_QUERY_TERMS", "SEARCH_WINDOW", "PostgresEvidenceStore"]

#: ``application_name`` of the store's sessions (visible in ``pg_stat_activity``).
APPLICATION_NAME = "spanproof-store"


class PostgresEvidenceStore(SqlEvidenceStore):
    """:class:`~spanproof.core.store.EvidenceStore` on PostgreSQL with pgvector.

    Args:
        dsn: a libpq connection string or ``postgresql://`` URI.
        pool_size: the most connections held at once (one per thread in a unit of work).
        migrate: bring the schema to the newest revision on open (default). With False the
            schema must already be there.
    """

    def __init__(self, dsn: str, *, pool_size: int = 4, migrate: bool = True) -> None:
        if pool_size < 1:
            raise ConfigurationError(f"pool_size must be at least 1, not {pool_size}")
        try:
            conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as exc:
            raise ConfigurationError(f"invalid PostgreSQL DSN: {exc}") from exc
        self._dsn = dsn
        self._local = threading.local()
        if migrate:
            _run_migrations(dsn)
        self._pool = Pool(self._connect, pool_size)
        # Open one connection now, so a wrong DSN or a missing extension fails here.
        with self._read("open"):
            pass

    # connections and transactions -------------------------------------------------------------
    def _connect(self) -> Conn:
        from pgvector.psycopg import register_vector

        with mapped_errors("connect"):
            conn: Conn = psycopg.connect(
                self._dsn, autocommit=True, application_name=APPLICATION_NAME
            )
            try:
                register_vector(conn)
            except BaseException:
                conn.close()
                raise
            return conn

    def _write(self, action: str) -> AbstractContextManager[Conn]:
        """A unit of work: the thread's open transaction (as a savepoint) or a new one."""
        return self._use(action, write=True)

    def _read(self, action: str) -> AbstractContextManager[Conn]:
        """A connection for reads: the thread's open transaction, or one in autocommit."""
        return self._use(action, write=False)

    @contextmanager
    def _use(self, action: str, *, write: bool) -> Iterator[Conn]:
        outer: Conn | None = getattr(self._local, "conn", None)
        conn = self._pool.acquire() if outer is None else outer
        if write and outer is None:
            self._local.conn = conn
        try:
            with mapped_errors(action), conn.transaction() if write else nullcontext():
                yield conn
        finally:
            if outer is None:
                self._local.conn = None
                self._pool.release(conn)

    _sql = POSTGRES

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside commits together or not at all; nested calls are savepoints."""
        with self._write("transaction"):
            yield

    def close(self) -> None:
        self._pool.close()

    def _lock_traces(self, conn: Conn) -> None:
        conn.execute("LOCK TABLE traces IN SHARE ROW EXCLUSIVE MODE")

    # chunks and vectors -----------------------------------------------------------------------
    def _insert_chunks(self, conn: Conn, rows: Sequence[NewChunk]) -> None:
        POSTGRES.many(
            conn,
            "INSERT INTO chunks (id, source_id, version, section_key, span_start, span_end, text,"
            " erased, tsv, term_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS tsvector), ?)",
            [
                (c.id, c.source_id, c.version, c.section_key, c.start, c.end, t, e, *indexed(t))
                for c, e, t in rows
            ],
        )
        search.count_terms(conn, [c.id for c, _, _ in rows], 1)

    def _reindex_erased(
        self, conn: Conn, chunks: Sequence[tuple[str, str]], models: Sequence[str]
    ) -> None:
        ids = [cid for cid, _ in chunks]
        search.count_terms(conn, ids, -1)
        POSTGRES.many(
            conn,
            "UPDATE chunks SET erased = TRUE, text = ?, tsv = CAST(? AS tsvector), term_count = ?"
            " WHERE id = ?",
            [(text, *indexed(text), cid) for cid, text in chunks],
        )
        search.count_terms(conn, ids, 1)

    # vectors ----------------------------------------------------------------------------------
    def _check_dim(self, conn: Conn, model_id: str, dim: int) -> None:
        model_dim(conn, model_id, dim, create=True)

    def _insert_vectors(
        self, conn: Conn, model_id: str, rows: Sequence[tuple[str, UnitVector]]
    ) -> None:
        POSTGRES.many(
            conn,
            "INSERT INTO embeddings (model_id, chunk_id, vector) VALUES (?, ?, ?)"
            " ON CONFLICT (model_id, chunk_id) DO UPDATE SET vector = excluded.vector",
            [(model_id, cid, vec) for cid, vec in rows],
        )

    # search -----------------------------------------------------------------------------------
    _keyword_hits = staticmethod(search.keyword_search)
    _vector_hits = staticmethod(search.vector_search)


def _run_migrations(dsn: str) -> None:
    from sqlalchemy.exc import DBAPIError

    try:
        with mapped_errors("migrate"):
            ensure_schema(dsn)
    except DBAPIError as exc:
        orig = exc.orig
        if isinstance(orig, psycopg.Error):
            raise map_error(orig, "migrate") from exc
        raise StoreError(f"PostgreSQL store: migrate failed: {exc}", retryable=False) from exc
