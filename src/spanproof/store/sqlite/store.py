"""``SqliteEvidenceStore``: the ``EvidenceStore`` port on one SQLite file (SPEC §2, §3, §7, §8).

* One file in WAL mode (readers never wait for the writer), ``foreign_keys=ON``, a busy timeout,
  ``synchronous=NORMAL`` (a committed transaction survives a process crash; the last ones may be
  lost on power failure, the usual WAL trade-off).
* The schema is migrated by Alembic (``migrations/``) when a file is new or behind; an up-to-date
  file opens with one query and without importing Alembic.
* Keywords: an FTS5 table of each chunk's terms (:mod:`spanproof.store.keyword_terms`, the same
  terms PostgreSQL indexes), ranked by ``bm25``; every query term is quoted, so user input is
  never FTS5 syntax.
* Vectors: exact cosine by brute force in numpy over a per-model matrix of unit vectors, cached in
  memory and memory-mapped from ``<file>.vectors/`` sidecars once large (see ``matrix.py``).
* Erasures: section and chunk text is masked on read; an erased chunk is re-indexed with masked
  text and its vectors are deleted, so it stops matching either search.
* One connection per store, guarded by a re-entrant lock, so a store may be shared by threads;
  ``transaction()`` holds the lock for its whole extent (see ``connection.py``).

What both SQL stores do the same way lives in :class:`~spanproof.store.sql_store.SqlEvidenceStore`;
this module keeps what only SQLite does (the connection, FTS5, vectors in numpy, erasure
re-indexing).

Errors: sqlite3 errors become :class:`StoreError` (``retryable`` for busy/locked); caller
mistakes (unknown source or version, bad offsets, bad vectors) raise :class:`InvalidInputError`;
an attempt to change something immutable (a stored section, a final version state) raises
:class:`StoreError`.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from spanproof.core.errors import ConfigurationError, InvalidInputError
from spanproof.core.store import SearchHit
from spanproof.store.chunk_rows import NewChunk
from spanproof.store.keyword_terms import fts_document
from spanproof.store.sql import SQLITE, UnitVector, Where
from spanproof.store.sql_store import SqlEvidenceStore
from spanproof.store.sqlite import search
from spanproof.store.sqlite.ann import AnnIndexes
from spanproof.store.sqlite.connection import SqliteConnection
from spanproof.store.sqlite.matrix import VectorMatrices
from spanproof.store.sqlite.schema import current_revision


class SqliteEvidenceStore(SqlEvidenceStore):
    """The evidence store in one SQLite file (the embedded default).

    Args:
        path: the database file; created (and migrated) when missing unless ``readonly``.
        readonly: open without write access; the file must exist and be at the current schema.
        busy_timeout_ms: how long a statement waits for another process's lock before a retryable
            :class:`StoreError`.
        vector_sidecar_min: from this many vectors of one model up, the vector matrix is also
            written to ``<path>.vectors/`` for later processes to memory-map.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        readonly: bool = False,
        busy_timeout_ms: int = 5_000,
        vector_sidecar_min: int = 20_000,
    ) -> None:
        if str(path) in ("", ":memory:") or str(path).startswith("file:"):
            raise ConfigurationError("SqliteEvidenceStore needs a file path (not :memory: or URI)")
        self.path = Path(path)
        self.readonly = readonly
        self._cx = SqliteConnection(self.path, readonly=readonly, busy_timeout_ms=busy_timeout_ms)
        self._vectors = VectorMatrices(Path(f"{self.path}.vectors"), vector_sidecar_min)
        self._ann = AnnIndexes(Path(f"{self.path}.vectors"))

    @property
    def _db(self) -> sqlite3.Connection:
        return self._cx.db

    _sql = SQLITE

    @contextmanager
    def _write(self, action: str) -> Iterator[sqlite3.Connection]:
        with self.transaction():
            yield self._db

    @contextmanager
    def _read(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._cx.reading():
            yield self._db

    def transaction(self) -> AbstractContextManager[None]:
        """A unit of work: all of it commits at the outermost exit, or none of it on an exception.

        Re-entrant: a nested ``transaction()`` is a SAVEPOINT, so an exception inside it undoes
        only the nested part when the caller catches it, and everything when it propagates.
        """
        return self._cx.transaction()

    def close(self) -> None:
        """Close the connection (idempotent); the store cannot be used afterwards."""
        self._cx.close()
        self._vectors.clear()

    def __repr__(self) -> str:
        mode = ", readonly=True" if self.readonly else ""
        return f"SqliteEvidenceStore({str(self.path)!r}{mode})"

    def schema_version(self) -> str:
        """The Alembic revision the file is at (``SCHEMA_HEAD`` once opened read-write)."""
        with self._read("schema_version") as db:
            return current_revision(db) or ""

    # chunks ----------------------------------------------------------------------------------
    def _insert_chunks(self, conn: sqlite3.Connection, rows: Sequence[NewChunk]) -> None:
        for c, erased, indexed in rows:
            cur = conn.execute(
                "INSERT INTO chunks (id, source_id, version, section_key, span_start, span_end,"
                " text, erased) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (c.id, c.source_id, c.version, c.section_key, c.start, c.end, c.text, int(erased)),
            )
            conn.execute(
                "INSERT INTO chunks_fts (rowid, terms) VALUES (?, ?)",
                (cur.lastrowid, fts_document(indexed)),
            )

    def _reindex_erased(
        self, conn: sqlite3.Connection, chunks: Sequence[tuple[str, str]], models: Sequence[str]
    ) -> None:
        for cid, text in chunks:
            (seq,) = conn.execute(
                "UPDATE chunks SET erased = 1 WHERE id = ? RETURNING seq", (cid,)
            ).fetchall()[0]
            conn.execute("DELETE FROM chunks_fts WHERE rowid = ?", (seq,))
            conn.execute(
                "INSERT INTO chunks_fts (rowid, terms) VALUES (?, ?)", (seq, fts_document(text))
            )
        for model_id in models:
            self._renew_vector_token(conn, model_id)

    # vectors ---------------------------------------------------------------------------------
    def _check_dim(self, conn: sqlite3.Connection, model_id: str, dim: int) -> None:
        row = conn.execute(
            "SELECT dim FROM embeddings WHERE model_id = ? LIMIT 1", (model_id,)
        ).fetchone()
        if row is not None and row[0] != dim:
            raise InvalidInputError(
                f"vectors of model {model_id!r} must all have one dimension "
                f"(stored: {row[0]}, given: {dim})"
            )

    def _insert_vectors(
        self, conn: sqlite3.Connection, model_id: str, rows: Sequence[tuple[str, UnitVector]]
    ) -> None:
        before = conn.total_changes
        for chunk_id, vector in rows:
            conn.execute(
                "INSERT INTO embeddings (model_id, chunk_id, dim, vector) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (model_id, chunk_id) DO UPDATE SET vector = excluded.vector"
                " WHERE vector IS NOT excluded.vector",
                (model_id, chunk_id, vector.shape[0], vector.tobytes()),
            )
        if conn.total_changes != before:
            self._renew_vector_token(conn, model_id)

    @staticmethod
    def _renew_vector_token(db: sqlite3.Connection, model_id: str) -> None:
        db.execute(
            "INSERT INTO vector_tokens (model_id, token) VALUES (?, ?)"
            " ON CONFLICT (model_id) DO UPDATE SET token = excluded.token",
            (model_id, uuid.uuid4().hex),
        )

    # search ----------------------------------------------------------------------------------
    _keyword_hits = staticmethod(search.keyword_search)

    def _vector_hits(
        self, conn: sqlite3.Connection, query: UnitVector, model_id: str, limit: int, where: Where
    ) -> list[SearchHit]:
        persist = not (self.readonly or self._cx.writing)
        return search.vector_search(
            conn, self._vectors, query, model_id, limit, where, persist=persist, indexes=self._ann
        )

    def rebuild_vector_index(self, model_id: str) -> int:
        """Write the HNSW index file for ``model_id``'s current vectors (see ``ann``).

        Returns the number of vectors indexed; 0 when the model has none or ``hnswlib`` is not
        installed (search then stays exact).
        """
        with self._read("rebuild_vector_index") as db:
            matrix = self._vectors.get(db, model_id, persist=not self.readonly)
        if matrix is None or self._ann.build(model_id, matrix) is None:
            return 0
        return len(matrix.seqs)
