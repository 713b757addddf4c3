"""The evidence store on PostgreSQL: pgvector for vectors, Postgres full-text search for keywords.

Design (see ``migrations/versions/0001_initial.py`` for the DDL):

* **Schema** — the SQLite store's tables: ``sources``, ``source_ids``, ``blobs`` (``bytea``),
  ``versions`` (``UNIQUE (source_id, sha256)``), ``sections``, ``chunks``, ``embedding_models``,
  ``embeddings``, ``measurements``, ``erasures``. Migrations run with Alembic when the store
  opens (one cheap query when the database is already at the head revision).
* **Vectors** — one ``embeddings`` table with an untyped pgvector ``vector`` column, keyed by
  ``(model_id, chunk_id)``; ``embedding_models`` fixes each model's dimension, so a model's
  vectors are always comparable (a typed ``vector(N)`` column would need a table per
  dimension). Vectors are stored normalised. Search is exact cosine distance (``<=>``): the
  nearest ``max(8 * limit, 200)`` of the model's rows first, filtered afterwards, falling back
  to one filtered ranking query when too few pass; ordered by distance then chunk id; score =
  cosine similarity = ``1 - distance``. No ANN index: at 100k vectors the exact scan is the
  cost, and an HNSW index can be added per model later as a partial expression index
  (``((vector::vector(N)) vector_cosine_ops) WHERE model_id = '…'``) without a schema change.
* **Keywords** — ``chunks.tsv = to_tsvector('english', text)`` (a maintained column with a GIN
  index). A query becomes the OR of its first 64 distinct ``english`` lexemes (stop words
  dropped, stems matched, each lexeme quoted), so user input is never tsquery syntax: OR, not
  ``plainto_tsquery``'s AND, because a claim's words rarely all occur in one chunk. Ranking is
  ``ts_rank(tsv, query, 1)`` (term frequency, divided by 1 + log length), ties by chunk id.
  ``ts_rank_cd`` was measured and rejected: with OR queries on SciFact (100k chunks) it was
  6x slower (median 208 ms vs 33 ms) and found less (doc recall@10 0.62 vs 0.73).
* **Erasure** — sections are never rewritten: their text is masked on read. Chunks overlapping an
  erased range get their stored text masked and re-indexed (erased words no longer match, the
  rest still does), ``masked = true``, and their vectors deleted; a masked chunk is never
  vector-searched or re-embedded.
* **Transactions** — each thread holds one pooled connection for the outermost
  :meth:`transaction`; nested ones (and every method called inside one) are savepoints.
* **Errors** — psycopg errors become :class:`StoreError` (``retryable`` for serialization
  failures, deadlocks, lost connections and server shutdowns) or, for integrity and data errors,
  :class:`InvalidInputError`.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, LiteralString

import numpy as np
import psycopg
from psycopg.conninfo import conninfo_to_dict

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import ConfigurationError, InvalidInputError, StoreError
from spanproof.core.record_store import (
    attempt_from_json,
    attempt_json,
    check_record_page,
    record_from_json,
    record_json,
)
from spanproof.core.records import Attempt, Record
from spanproof.core.store import (
    MASK,
    SOURCE_STATUSES,
    Chunk,
    Erasure,
    Measurement,
    SearchFilter,
    SearchHit,
    Section,
    Source,
    Vector,
    Version,
)
from spanproof.core.trace import Trace
from spanproof.store.graph_sql import GraphSql, GraphStoreMethods
from spanproof.store.keys_sql import KeySql, KeyStoreMethods
from spanproof.store.postgres._pool import Conn, Pool, map_error, mapped_errors
from spanproof.store.postgres.migrate import ensure_schema
from spanproof.store.trace_rows import TRACE_COLUMNS, check_page, read_trace, seal_next

#: ``application_name`` of the store's sessions (visible in ``pg_stat_activity``).
APPLICATION_NAME = "spanproof-store"

_SOURCE_COLUMNS = """
    s.id, s.connector, s.title, s.status, s.created_at,
    (SELECT coalesce(jsonb_object_agg(i.kind, i.value), '{}'::jsonb)
       FROM source_ids i WHERE i.source_id = s.id)
"""
_VERSION_COLUMNS = "source_id, number, sha256, media_type, state, reason, format, created_at"
_CHUNK_COLUMNS = "c.id, c.source_id, c.version, c.section_key, c.start_pos, c.end_pos, c.text"
_ERASURE_COLUMNS = "id, source_id, version, section_key, start_pos, end_pos, reason, created_at"
#: At most this many distinct lexemes of a query reach the tsquery (bounds huge queries' cost).
MAX_QUERY_TERMS = 64
#: Searches rank at least this many candidates on one table first, then filter them.
SEARCH_WINDOW = 200

_Ref = tuple[str, int, str]
_Masks = dict[str, list[tuple[int, int]]]


class PostgresEvidenceStore(GraphStoreMethods, KeyStoreMethods):
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

    def _current(self) -> Conn | None:
        conn: Conn | None = getattr(self._local, "conn", None)
        return conn

    @contextmanager
    def _tx(self, action: str) -> Iterator[Conn]:
        """A unit of work: the thread's open transaction (as a savepoint) or a new one."""
        outer = self._current()
        if outer is not None:
            with mapped_errors(action), outer.transaction():
                yield outer
            return
        conn = self._pool.acquire()
        self._local.conn = conn
        try:
            with mapped_errors(action), conn.transaction():
                yield conn
        finally:
            self._local.conn = None
            self._pool.release(conn)

    @contextmanager
    def _read(self, action: str) -> Iterator[Conn]:
        """A connection for reads: the thread's open transaction, or one in autocommit."""
        outer = self._current()
        if outer is not None:
            with mapped_errors(action):
                yield outer
            return
        conn = self._pool.acquire()
        try:
            with mapped_errors(action):
                yield conn
        finally:
            self._pool.release(conn)

    _graph = GraphSql("%s", " FOR UPDATE")
    _keys = KeySql("%s")

    @contextmanager
    def _graph_write(self, action: str) -> Iterator[Conn]:
        with self._tx(action) as conn:
            yield conn

    @contextmanager
    def _graph_read(self, action: str) -> Iterator[Conn]:
        with self._read(action) as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside commits together or not at all; nested calls are savepoints."""
        with self._tx("transaction"):
            yield

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> PostgresEvidenceStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # sources ----------------------------------------------------------------------------------
    def upsert_source(self, source: Source) -> Source:
        """Insert, or update the title / merge the external ids of an existing id.

        The status of an existing source changes only through :meth:`set_status`; an external id
        held by another source raises :class:`StoreError`.
        """
        if not source.id:
            raise InvalidInputError("a source needs a non-empty id")
        _check_status(source.status)
        ids = _normalise_ids(source.external_ids)
        with self._tx("upsert_source") as conn:
            conn.execute(
                """
                INSERT INTO sources (id, connector, title, status, created_at)
                VALUES (%s, %s, %s, %s, %s)
                ON CONFLICT (id) DO UPDATE
                   SET title = CASE WHEN excluded.title <> '' THEN excluded.title
                                    ELSE sources.title END
                """,
                (
                    source.id,
                    source.connector,
                    source.title,
                    source.status,
                    source.created_at or _now(),
                ),
            )
            for kind, value in ids.items():
                holder = conn.execute(
                    "SELECT source_id FROM source_ids WHERE kind = %s AND value = %s",
                    (kind, value),
                ).fetchone()
                if holder is not None and holder[0] != source.id:
                    raise StoreError(f"{kind} {value!r} already belongs to source {holder[0]!r}")
                conn.execute(
                    """
                    INSERT INTO source_ids (source_id, kind, value) VALUES (%s, %s, %s)
                    ON CONFLICT (source_id, kind) DO UPDATE SET value = excluded.value
                    """,
                    (source.id, kind, value),
                )
            stored = self._get_source(conn, source.id)
        if stored is None:  # pragma: no cover - written just above
            raise StoreError(f"source {source.id!r} vanished while being written")
        return stored

    def get_source(self, source_id: str) -> Source | None:
        with self._read("get_source") as conn:
            return self._get_source(conn, source_id)

    @staticmethod
    def _get_source(conn: Conn, source_id: str) -> Source | None:
        row = conn.execute(
            f"SELECT {_SOURCE_COLUMNS} FROM sources s WHERE s.id = %s", (source_id,)
        ).fetchone()
        return None if row is None else _source(row)

    def find_source(self, id_kind: str, value: str) -> Source | None:
        """The source holding external id ``id_kind`` = ``value`` (DOIs case-insensitively)."""
        kind, norm = _normalise_id(id_kind, value)
        with self._read("find_source") as conn:
            row = conn.execute(
                f"""
                SELECT {_SOURCE_COLUMNS} FROM source_ids f JOIN sources s ON s.id = f.source_id
                 WHERE f.kind = %s AND f.value = %s
                """,
                (kind, norm),
            ).fetchone()
        return None if row is None else _source(row)

    def list_sources(
        self, *, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Source]:
        """Sources ordered by id, optionally of one status, one page at a time."""
        if limit < 0 or offset < 0:
            raise InvalidInputError("limit and offset must not be negative")
        if status is not None:
            _check_status(status)
        with self._read("list_sources") as conn:
            rows = conn.execute(
                f"""
                SELECT {_SOURCE_COLUMNS} FROM sources s
                 WHERE (%(status)s::text IS NULL OR s.status = %(status)s::text)
                 ORDER BY s.id LIMIT %(limit)s OFFSET %(offset)s
                """,
                {"status": status or None, "limit": limit, "offset": offset},
            ).fetchall()
        return [_source(r) for r in rows]

    def set_status(self, source_id: str, status: str) -> None:
        _check_status(status)
        with self._tx("set_status") as conn:
            cur = conn.execute("UPDATE sources SET status = %s WHERE id = %s", (status, source_id))
            if cur.rowcount == 0:
                raise InvalidInputError(f"no source {source_id!r}")

    # raw bytes and versions -------------------------------------------------------------------
    def put_blob(self, sha256: str, raw: bytes) -> None:
        """Store raw bytes under their SHA-256 (checked; idempotent)."""
        actual = hashlib.sha256(raw).hexdigest()
        if sha256.lower() != actual:
            raise InvalidInputError(f"blob hash {sha256!r} does not match its bytes ({actual})")
        with self._tx("put_blob") as conn:
            conn.execute(
                "INSERT INTO blobs (sha256, size, raw) VALUES (%s, %s, %s) "
                "ON CONFLICT (sha256) DO NOTHING",
                (actual, len(raw), bytes(raw)),
            )

    def get_blob(self, sha256: str) -> bytes | None:
        with self._read("get_blob") as conn:
            row = conn.execute(
                "SELECT raw FROM blobs WHERE sha256 = %s", (sha256.lower(),)
            ).fetchone()
        return None if row is None else bytes(row[0])

    def add_version(self, source_id: str, sha256: str, media_type: str) -> tuple[Version, bool]:
        """The version of ``source_id`` with these bytes, and whether it was created now."""
        sha = sha256.lower()
        if len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha):
            raise InvalidInputError(f"not a SHA-256 hex digest: {sha256!r}")
        with self._tx("add_version") as conn:
            # Lock the source row: concurrent adders of one source number its versions in turn.
            locked = conn.execute(
                "SELECT 1 FROM sources WHERE id = %s FOR NO KEY UPDATE", (source_id,)
            ).fetchone()
            if locked is None:
                raise InvalidInputError(f"no source {source_id!r}; upsert it first")
            row = conn.execute(
                f"SELECT {_VERSION_COLUMNS} FROM versions WHERE source_id = %s AND sha256 = %s",
                (source_id, sha),
            ).fetchone()
            if row is not None:
                return _version(row), False
            row = conn.execute(
                f"""
                INSERT INTO versions (source_id, number, sha256, media_type, created_at)
                SELECT %(s)s, coalesce(max(number), 0) + 1, %(h)s, %(m)s, %(t)s
                  FROM versions WHERE source_id = %(s)s
                RETURNING {_VERSION_COLUMNS}
                """,
                {"s": source_id, "h": sha, "m": media_type, "t": _now()},
            ).fetchone()
        if row is None:  # pragma: no cover - INSERT … RETURNING always returns the row
            raise StoreError(f"version of {source_id!r} vanished while being written")
        return _version(row), True

    def versions(self, source_id: str) -> list[Version]:
        """All versions of a source, oldest first."""
        with self._read("versions") as conn:
            rows = conn.execute(
                f"SELECT {_VERSION_COLUMNS} FROM versions WHERE source_id = %s ORDER BY number",
                (source_id,),
            ).fetchall()
        return [_version(r) for r in rows]

    def set_version_state(
        self, source_id: str, number: int, state: str, *, reason: str = "", format: str = ""
    ) -> None:
        """Move a ``pending`` version to ``parsed`` or ``quarantined``, once.

        Repeating the same move is a no-op; any other change of a final state raises
        :class:`StoreError` (versions are immutable once judged).
        """
        if state not in ("parsed", "quarantined"):
            raise InvalidInputError(f"a version moves to 'parsed' or 'quarantined', not {state!r}")
        with self._tx("set_version_state") as conn:
            row = conn.execute(
                "SELECT state, reason, format FROM versions "
                "WHERE source_id = %s AND number = %s FOR NO KEY UPDATE",
                (source_id, number),
            ).fetchone()
            if row is None:
                raise InvalidInputError(f"no version {number} of source {source_id!r}")
            if tuple(row) == (state, reason, format):
                return
            if row[0] != "pending":
                raise StoreError(
                    f"version {number} of {source_id!r} is already {row[0]}; it cannot change"
                )
            conn.execute(
                "UPDATE versions SET state = %s, reason = %s, format = %s "
                "WHERE source_id = %s AND number = %s",
                (state, reason, format, source_id, number),
            )

    # sections ---------------------------------------------------------------------------------
    def add_sections(self, source_id: str, version: int, sections: Sequence[ParsedSection]) -> None:
        """Store sections in order (ordinals from 0); a key already stored must be identical.

        Raises:
            StoreError: a stored key arrives with a different title or text (never overwritten).
        """
        keys = [s.key for s in sections]
        if len(set(keys)) != len(keys) or not all(keys):
            raise InvalidInputError("section keys must be non-empty and unique within a version")
        with self._tx("add_sections") as conn:
            # The version row lock orders concurrent writers of one version's ordinals.
            if (
                conn.execute(
                    "SELECT 1 FROM versions WHERE source_id = %s AND number = %s FOR NO KEY UPDATE",
                    (source_id, version),
                ).fetchone()
                is None
            ):
                raise InvalidInputError(f"no version {version} of source {source_id!r}")
            stored = {
                str(key): (str(title), str(text))
                for key, title, text in conn.execute(
                    "SELECT key, title, text FROM sections WHERE source_id = %s AND version = %s",
                    (source_id, version),
                )
            }
            row = conn.execute(
                "SELECT coalesce(max(ordinal) + 1, 0) FROM sections "
                "WHERE source_id = %s AND version = %s",
                (source_id, version),
            ).fetchone()
            ordinal = int(row[0]) if row is not None else 0
            new: list[tuple[Any, ...]] = []
            for s in sections:
                known = stored.get(s.key)
                if known is None:
                    new.append((source_id, version, s.key, s.title, s.text, ordinal))
                    ordinal += 1
                elif known != (s.title, s.text):
                    raise StoreError(
                        f"section {s.key!r} of {source_id!r} v{version} is stored with "
                        "different content; sections are immutable (add a new version instead)"
                    )
            if new:
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO sections (source_id, version, key, title, text, ordinal) "
                        "VALUES (%s, %s, %s, %s, %s, %s)",
                        new,
                    )

    def sections(self, source_id: str, version: int) -> list[Section]:
        """The sections of a version in order, erased ranges masked."""
        with self._read("sections") as conn:
            rows = conn.execute(
                "SELECT source_id, version, key, title, text, ordinal FROM sections "
                "WHERE source_id = %s AND version = %s ORDER BY ordinal",
                (source_id, version),
            ).fetchall()
            masks = self._masks(conn, source_id, version) if rows else {}
        return [_section(r, masks.get(str(r[2]), ())) for r in rows]

    def section(self, source_id: str, version: int, key: str) -> Section | None:
        with self._read("section") as conn:
            row = conn.execute(
                "SELECT source_id, version, key, title, text, ordinal FROM sections "
                "WHERE source_id = %s AND version = %s AND key = %s",
                (source_id, version, key),
            ).fetchone()
            if row is None:
                return None
            masks = self._masks(conn, source_id, version, key)
        return _section(row, masks.get(key, ()))

    @staticmethod
    def _masks(conn: Conn, source_id: str, version: int, key: str | None = None) -> _Masks:
        rows = conn.execute(
            """
            SELECT section_key, start_pos, end_pos FROM erasures
             WHERE source_id = %s AND version = %s AND (%s::text IS NULL OR section_key = %s::text)
            """,
            (source_id, version, key, key),
        ).fetchall()
        out: _Masks = {}
        for k, start, end in rows:
            out.setdefault(str(k), []).append((int(start), int(end)))
        return out

    # chunks -----------------------------------------------------------------------------------
    def add_chunks(self, chunks: Sequence[Chunk]) -> None:
        """Store chunks and index them for keyword search (idempotent by id).

        Each chunk must lie in a stored section with ``text == section.text[start:end]``; an id
        already stored with different content raises :class:`StoreError`.
        """
        if not chunks:
            return
        with self._tx("add_chunks") as conn:
            refs = {(c.source_id, c.version, c.section_key) for c in chunks}
            texts, masks = self._section_texts(conn, refs)
            stored = {
                str(r[0]): r
                for r in conn.execute(
                    "SELECT id, source_id, version, section_key, start_pos, end_pos, text "
                    "FROM chunks WHERE id = ANY(%s::text[])",
                    ([c.id for c in chunks],),
                )
            }
            rows: dict[str, tuple[Any, ...]] = {}
            for c in chunks:
                ref = (c.source_id, c.version, c.section_key)
                ranges = masks.get(ref, [])
                old = stored.get(c.id) or rows.get(c.id)
                if old is not None:
                    same_place = tuple(old[1:6]) == (*ref, c.start, c.end)
                    same_text = old[6] in (c.text, _apply_masks(c.text, ranges, offset=c.start))
                    if not (same_place and same_text):
                        raise StoreError(f"chunk {c.id!r} is already stored with different content")
                    continue
                text = texts.get(ref)
                if text is None:
                    raise InvalidInputError(f"chunk {c.id!r}: no section {ref}")
                if not 0 <= c.start <= c.end <= len(text) or text[c.start : c.end] != c.text:
                    raise InvalidInputError(
                        f"chunk {c.id!r}: text is not section {ref}[{c.start}:{c.end}]"
                    )
                erased = any(s < c.end and c.start < e for s, e in ranges)
                stored_text = _apply_masks(c.text, ranges, offset=c.start) if erased else c.text
                rows[c.id] = (c.id, *ref, c.start, c.end, stored_text, erased, stored_text)
            if rows:
                with conn.cursor() as cur:
                    cur.executemany(
                        """
                        INSERT INTO chunks (id, source_id, version, section_key, start_pos,
                                            end_pos, text, masked, tsv)
                        VALUES (%s, %s, %s, %s, %s, %s, %s, %s,
                                to_tsvector('english'::regconfig, %s::text))
                        """,
                        list(rows.values()),
                    )

    @staticmethod
    def _section_texts(
        conn: Conn, wanted: Iterable[_Ref]
    ) -> tuple[dict[_Ref, str], dict[_Ref, list[tuple[int, int]]]]:
        keys = sorted(wanted)
        src = [k[0] for k in keys]
        ver = [k[1] for k in keys]
        sec = [k[2] for k in keys]
        texts: dict[_Ref, str] = {}
        for s, v, k, t in conn.execute(
            """
            SELECT x.source_id, x.version, x.key, x.text
              FROM sections x
              JOIN unnest(%s::text[], %s::int[], %s::text[]) AS w(source_id, version, key)
                ON (x.source_id, x.version, x.key) = (w.source_id, w.version, w.key)
            """,
            (src, ver, sec),
        ):
            texts[(str(s), int(v), str(k))] = str(t)
        masks: dict[_Ref, list[tuple[int, int]]] = {}
        for s, v, k, start, end in conn.execute(
            """
            SELECT e.source_id, e.version, e.section_key, e.start_pos, e.end_pos
              FROM erasures e
              JOIN unnest(%s::text[], %s::int[], %s::text[]) AS w(source_id, version, key)
                ON (e.source_id, e.version, e.section_key) = (w.source_id, w.version, w.key)
            """,
            (src, ver, sec),
        ):
            masks.setdefault((str(s), int(v), str(k)), []).append((int(start), int(end)))
        return texts, masks

    def chunks(self, source_id: str, version: int | None = None) -> list[Chunk]:
        """Chunks of a source (or of one version), by version, section order and offset."""
        with self._read("chunks") as conn:
            rows = conn.execute(
                f"""
                SELECT {_CHUNK_COLUMNS} FROM chunks c
                  JOIN sections x ON (x.source_id, x.version, x.key)
                                   = (c.source_id, c.version, c.section_key)
                 WHERE c.source_id = %(s)s AND (%(v)s::int IS NULL OR c.version = %(v)s::int)
                 ORDER BY c.version, x.ordinal, c.start_pos, c.id
                """,
                {"s": source_id, "v": version},
            ).fetchall()
        return [_chunk(r) for r in rows]

    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        """Chunks by id, in the order asked; unknown ids are skipped."""
        if not ids:
            return []
        with self._read("get_chunks") as conn:
            rows = conn.execute(
                f"SELECT {_CHUNK_COLUMNS} FROM chunks c WHERE c.id = ANY(%s::text[])",
                (list(ids),),
            ).fetchall()
        by_id = {str(r[0]): _chunk(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def chunks_missing_embedding(self, model_id: str, limit: int) -> list[Chunk]:
        """Chunks with no vector under ``model_id``, by id; erased chunks never need one."""
        if limit <= 0:
            return []
        with self._read("chunks_missing_embedding") as conn:
            rows = conn.execute(
                f"""
                SELECT {_CHUNK_COLUMNS} FROM chunks c
                 WHERE NOT c.masked
                   AND NOT EXISTS (SELECT 1 FROM embeddings e
                                    WHERE e.model_id = %s AND e.chunk_id = c.id)
                 ORDER BY c.id LIMIT %s
                """,
                (model_id, limit),
            ).fetchall()
        return [_chunk(r) for r in rows]

    # embeddings -------------------------------------------------------------------------------
    def put_embeddings(self, model_id: str, items: Sequence[tuple[str, Vector]]) -> None:
        """Store vectors (normalised to unit length) for chunk ids under a model (idempotent).

        Vectors of erased chunks are dropped; all vectors of one model share one dimension.
        """
        prepared = [(cid, _unit_vector(v)) for cid, v in items]
        if not prepared:
            return
        dims = {v.shape[0] for _, v in prepared}
        if len(dims) != 1:
            raise InvalidInputError(
                f"vectors of model {model_id!r} must all have one dimension (given: {sorted(dims)})"
            )
        dim = int(dims.pop())
        with self._tx("put_embeddings") as conn:
            self._model_dim(conn, model_id, dim, create=True)
            found = {
                str(cid): bool(masked)
                for cid, masked in conn.execute(
                    "SELECT id, masked FROM chunks WHERE id = ANY(%s::text[])",
                    ([cid for cid, _ in prepared],),
                )
            }
            for cid, _ in prepared:
                if cid not in found:
                    raise InvalidInputError(f"no chunk {cid!r}")
            # A masked chunk's vector would keep erased text findable: never stored.
            rows = [(model_id, cid, vec) for cid, vec in prepared if not found[cid]]
            if rows:
                with conn.cursor() as cur:
                    cur.executemany(
                        """
                        INSERT INTO embeddings (model_id, chunk_id, vector) VALUES (%s, %s, %s)
                        ON CONFLICT (model_id, chunk_id) DO UPDATE SET vector = excluded.vector
                        """,
                        rows,
                    )

    @staticmethod
    def _model_dim(conn: Conn, model_id: str, dim: int, *, create: bool) -> bool:
        """Check ``dim`` against the model's; False when the model has no vectors yet."""
        if create:
            conn.execute(
                "INSERT INTO embedding_models (model_id, dim) VALUES (%s, %s) "
                "ON CONFLICT (model_id) DO NOTHING",
                (model_id, dim),
            )
        row = conn.execute(
            "SELECT dim FROM embedding_models WHERE model_id = %s", (model_id,)
        ).fetchone()
        if row is None:
            return False
        if int(row[0]) != dim:
            what = "vectors" if create else "query vector"
            raise InvalidInputError(
                f"{what} of {dim} dimensions; model {model_id!r} has {row[0]}-dimensional vectors"
            )
        return True

    # search -----------------------------------------------------------------------------------
    def keyword_search(self, query: str, limit: int, flt: SearchFilter) -> list[SearchHit]:
        """Postgres full-text ranking (``ts_rank``, higher is better; ties by chunk id).

        The query is the OR of the first :data:`MAX_QUERY_TERMS` distinct ``english`` lexemes
        of ``query``, each quoted, so user input is never tsquery syntax. As in
        :meth:`vector_search`, the best ``max(8 * limit, 200)`` matches are ranked on ``chunks``
        alone and filtered afterwards, with one filtered ranking query as the fallback.
        """
        where = _filter_sql(flt)
        if limit <= 0 or where is None:
            return []
        condition, params = where
        with self._read("keyword_search") as conn:
            row = conn.execute(
                """
                WITH terms AS (
                    SELECT t.lexeme
                      FROM unnest(to_tsvector('english'::regconfig, %s::text)) AS t
                     ORDER BY t.positions[1], t.lexeme
                     LIMIT %s
                )
                SELECT string_agg(
                           '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''',
                           ' | ')::tsquery::text
                  FROM terms
                """,
                (_clean_text(query), MAX_QUERY_TERMS),
            ).fetchone()
            tsquery = None if row is None else row[0]
            if not tsquery:
                return []
            if flt.source_ids is None:
                window = max(8 * limit, SEARCH_WINDOW)
                best = conn.execute(
                    """
                    SELECT c.id, ts_rank(c.tsv, %(tq)s::tsquery, 1) AS score FROM chunks c
                     WHERE c.tsv @@ %(tq)s::tsquery ORDER BY score DESC, c.id LIMIT %(window)s
                    """,
                    {"tq": tsquery, "window": window},
                ).fetchall()
                found = self._passing(conn, best, condition, params)
                if len(found) >= limit or len(best) < window:
                    return [
                        SearchHit(chunk=chunk, score=score, rank=i)
                        for i, (chunk, score) in enumerate(found[:limit], start=1)
                    ]
            rows = conn.execute(
                f"""
                SELECT {_CHUNK_COLUMNS}, ts_rank(c.tsv, %(tq)s::tsquery, 1) AS score
                  FROM chunks c JOIN sources s ON s.id = c.source_id
                 WHERE c.tsv @@ %(tq)s::tsquery {condition}
                 ORDER BY score DESC, c.id
                 LIMIT %(limit)s
                """,
                {**params, "tq": tsquery, "limit": limit},
            ).fetchall()
        return [
            SearchHit(chunk=_chunk(r), score=float(r[7]), rank=i)
            for i, r in enumerate(rows, start=1)
        ]

    @staticmethod
    def _passing(
        conn: Conn,
        ranked: Sequence[Sequence[Any]],
        condition: LiteralString,
        params: dict[str, Any],
    ) -> list[tuple[Chunk, float]]:
        """The ``(chunk id, score)`` rows of ``ranked`` whose chunks pass the filter, in order."""
        if not ranked:
            return []
        rows = conn.execute(
            f"""
            SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN sources s ON s.id = c.source_id
             WHERE c.id = ANY(%(ids)s::text[]) {condition}
            """,
            {**params, "ids": [r[0] for r in ranked]},
        ).fetchall()
        passing = {str(r[0]): _chunk(r) for r in rows}
        return [(passing[str(cid)], float(score)) for cid, score in ranked if cid in passing]

    def vector_search(
        self, vector: Vector, model_id: str, limit: int, flt: SearchFilter
    ) -> list[SearchHit]:
        """Exact cosine ranking (pgvector ``<=>``) over ``model_id``'s vectors; ties by chunk id.

        The nearest ``max(8 * limit, 200)`` vectors are found first, on the ``embeddings`` table
        alone, and then filtered; only when too few of them pass (or a ``source_ids`` filter makes
        the join cheap) does one query rank the filtered chunks directly. Both orders are total
        (distance, then chunk id), so the result is the exact filtered top ``limit`` either way.
        """
        query = _unit_vector(vector)
        where = _filter_sql(flt)
        if limit <= 0 or where is None:
            return []
        condition, params = where
        with self._read("vector_search") as conn:
            if not self._model_dim(conn, model_id, int(query.shape[0]), create=False):
                return []
            if flt.source_ids is None:
                window = max(8 * limit, SEARCH_WINDOW)
                nearest = conn.execute(
                    """
                    SELECT chunk_id, vector <=> %s AS distance FROM embeddings
                     WHERE model_id = %s ORDER BY distance, chunk_id LIMIT %s
                    """,
                    (query, model_id, window),
                ).fetchall()
                found = [
                    (chunk, 1.0 - score)
                    for chunk, score in self._passing(
                        conn, nearest, " AND NOT c.masked" + condition, params
                    )
                ]
                if len(found) >= limit or len(nearest) < window:
                    return [
                        SearchHit(chunk=chunk, score=score, rank=i)
                        for i, (chunk, score) in enumerate(found[:limit], start=1)
                    ]
            rows = conn.execute(
                f"""
                SELECT {_CHUNK_COLUMNS}, e.vector <=> %(v)s AS distance
                  FROM embeddings e
                  JOIN chunks c ON c.id = e.chunk_id
                  JOIN sources s ON s.id = c.source_id
                 WHERE e.model_id = %(m)s AND NOT c.masked {condition}
                 ORDER BY distance, c.id
                 LIMIT %(limit)s
                """,
                {**params, "m": model_id, "v": query, "limit": limit},
            ).fetchall()
        return [
            SearchHit(chunk=_chunk(r), score=1.0 - float(r[7]), rank=i)
            for i, r in enumerate(rows, start=1)
        ]

    # measurements -----------------------------------------------------------------------------
    def add_measurements(self, items: Sequence[Measurement]) -> None:
        """Store measurements (idempotent); each must lie inside a stored section."""
        if not items:
            return
        with self._tx("add_measurements") as conn:
            texts, _ = self._section_texts(
                conn, {(m.source_id, m.version, m.section_key) for m in items}
            )
            for m in items:
                ref = (m.source_id, m.version, m.section_key)
                if ref not in texts:
                    raise InvalidInputError(f"measurement {m.quotation!r}: no section {ref}")
                if not 0 <= m.start <= m.end <= len(texts[ref]) or not math.isfinite(m.value):
                    raise InvalidInputError(f"measurement {m.quotation!r}: bad offsets or value")
            with conn.cursor() as cur:
                cur.executemany(
                    """
                    INSERT INTO measurements (source_id, version, section_key, start_pos,
                                              end_pos, value, unit, quotation)
                    VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
                    ON CONFLICT DO NOTHING
                    """,
                    [
                        (
                            m.source_id,
                            m.version,
                            m.section_key,
                            m.start,
                            m.end,
                            m.value,
                            m.unit,
                            m.quotation,
                        )
                        for m in items
                    ],
                )

    def measurements(self, source_id: str, version: int | None = None) -> list[Measurement]:
        """Measurements in section order; those overlapping an erased range are not served."""
        with self._read("measurements") as conn:
            rows = conn.execute(
                """
                SELECT m.source_id, m.version, m.section_key, m.start_pos, m.end_pos, m.value,
                       m.unit, m.quotation
                  FROM measurements m
                  JOIN sections x ON (x.source_id, x.version, x.key)
                                   = (m.source_id, m.version, m.section_key)
                 WHERE m.source_id = %(s)s AND (%(v)s::int IS NULL OR m.version = %(v)s::int)
                   AND NOT EXISTS (
                       SELECT 1 FROM erasures e
                        WHERE (e.source_id, e.version, e.section_key)
                            = (m.source_id, m.version, m.section_key)
                          AND e.start_pos < m.end_pos AND m.start_pos < e.end_pos)
                 ORDER BY m.version, x.ordinal, m.start_pos, m.end_pos, m.unit, m.value
                """,
                {"s": source_id, "v": version},
            ).fetchall()
        return [
            Measurement(
                source_id=str(r[0]),
                version=int(r[1]),
                section_key=str(r[2]),
                start=int(r[3]),
                end=int(r[4]),
                value=float(r[5]),
                unit=str(r[6]),
                quotation=str(r[7]),
            )
            for r in rows
        ]

    # erasures ---------------------------------------------------------------------------------
    def add_erasure(
        self, source_id: str, version: int, section_key: str, start: int, end: int, reason: str
    ) -> Erasure:
        """Mask ``[start, end)`` of a section: not served, not searchable, not resolvable.

        Chunks over the range get their stored text masked and re-indexed, and lose their
        vectors. Erasing the same range again returns the first erasure.
        """
        ref = (source_id, version, section_key)
        with self._tx("add_erasure") as conn:
            row = conn.execute(
                "SELECT char_length(text) FROM sections "
                "WHERE source_id = %s AND version = %s AND key = %s",
                ref,
            ).fetchone()
            if row is None:
                raise InvalidInputError(f"no section {ref}")
            length = int(row[0])
            if not 0 <= start < end <= length:
                raise InvalidInputError(
                    f"erasure [{start}, {end}) is not a non-empty range of {ref} (length {length})"
                )
            erased = conn.execute(
                f"""
                INSERT INTO erasures (source_id, version, section_key, start_pos, end_pos, reason,
                                      created_at)
                VALUES (%s, %s, %s, %s, %s, %s, %s)
                ON CONFLICT (source_id, version, section_key, start_pos, end_pos) DO NOTHING
                RETURNING {_ERASURE_COLUMNS}
                """,
                (*ref, start, end, reason, _now()),
            ).fetchone()
            if erased is None:  # the same range was erased before: that erasure stands
                erased = conn.execute(
                    f"SELECT {_ERASURE_COLUMNS} FROM erasures WHERE source_id = %s "
                    "AND version = %s AND section_key = %s AND start_pos = %s AND end_pos = %s",
                    (*ref, start, end),
                ).fetchone()
                if erased is None:  # pragma: no cover - the conflict proves it exists
                    raise StoreError(f"erasure of {ref} vanished while being written")
                return _erasure(erased)
            self._unindex_erased(conn, ref, start, end)
        return _erasure(erased)

    @staticmethod
    def _unindex_erased(conn: Conn, ref: _Ref, start: int, end: int) -> None:
        """Mask the stored text of chunks over ``[start, end)``, re-index it, drop vectors."""
        hit = {"s": ref[0], "v": ref[1], "k": ref[2], "a": start, "b": end, "mask": MASK}
        over = """c.source_id = %(s)s AND c.version = %(v)s AND c.section_key = %(k)s
                  AND c.start_pos < %(b)s AND %(a)s < c.end_pos"""
        conn.execute(
            f"DELETE FROM embeddings e USING chunks c WHERE e.chunk_id = c.id AND {over}", hit
        )
        conn.execute(
            f"""
            UPDATE chunks x
               SET masked = true,
                   text = overlay(x.text PLACING repeat(%(mask)s::text, w.n)
                                  FROM w.first + 1 FOR w.n)
              FROM (SELECT c.id,
                           greatest(c.start_pos, %(a)s) - c.start_pos AS first,
                           least(c.end_pos, %(b)s) - greatest(c.start_pos, %(a)s) AS n
                      FROM chunks c WHERE {over}) AS w
             WHERE x.id = w.id
            """,
            hit,
        )
        conn.execute(
            f"UPDATE chunks c SET tsv = to_tsvector('english'::regconfig, c.text) WHERE {over}",
            hit,
        )

    def erasures(self, source_id: str, version: int | None = None) -> list[Erasure]:
        """Erasures of a source (or one version), oldest first."""
        with self._read("erasures") as conn:
            rows = conn.execute(
                f"""
                SELECT {_ERASURE_COLUMNS} FROM erasures
                 WHERE source_id = %(s)s AND (%(v)s::int IS NULL OR version = %(v)s::int)
                 ORDER BY id
                """,
                {"s": source_id, "v": version},
            ).fetchall()
        return [_erasure(r) for r in rows]

    def stats(self) -> dict[str, int]:
        """Row counts of sources, versions, sections, chunks, embeddings, measurements, erasures
        and blobs."""
        with self._read("stats") as conn:
            row = conn.execute(
                """
                SELECT (SELECT count(*) FROM sources), (SELECT count(*) FROM versions),
                       (SELECT count(*) FROM sections), (SELECT count(*) FROM chunks),
                       (SELECT count(*) FROM embeddings), (SELECT count(*) FROM measurements),
                       (SELECT count(*) FROM erasures), (SELECT count(*) FROM blobs)
                """
            ).fetchone()
        if row is None:  # pragma: no cover - a SELECT of constants returns one row
            raise StoreError("stats returned nothing")
        return {n: int(v) for n, v in zip(_STATS, row, strict=True)}

    # traces -----------------------------------------------------------------------------------
    def append(self, trace: Trace) -> Trace:
        """Seal ``trace`` after the last one and store it.

        ``SHARE ROW EXCLUSIVE`` conflicts with itself and with every writer but not with
        readers: concurrent appends queue until this transaction ends, so the last row read
        here is still the last at commit and the chain cannot fork.
        """
        with self._tx("append trace") as conn:
            conn.execute("LOCK TABLE traces IN SHARE ROW EXCLUSIVE MODE")
            last = conn.execute("SELECT seq, hash FROM traces ORDER BY seq DESC LIMIT 1").fetchone()
            row = seal_next(trace, None if last is None else (int(last[0]), str(last[1])), _now())
            conn.execute(
                f"INSERT INTO traces ({TRACE_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                row.values(),
            )
        return row.trace

    def get_trace(self, trace_id: str) -> Trace | None:
        with self._read("get trace") as conn:
            row = conn.execute("SELECT seq, body FROM traces WHERE id = %s", (trace_id,)).fetchone()
        return None if row is None else read_trace(int(row[0]), str(row[1]))

    def list_traces(self, *, limit: int = 50, offset: int = 0) -> list[Trace]:
        """Traces newest first, one page at a time."""
        check_page(limit, offset)
        with self._read("list traces") as conn:
            rows = conn.execute(
                "SELECT seq, body FROM traces ORDER BY seq DESC LIMIT %s OFFSET %s",
                (limit, offset),
            ).fetchall()
        return [read_trace(int(seq), str(body)) for seq, body in rows]

    def chain(self) -> list[Trace]:
        """Every trace in ``seq`` order (one statement, so one snapshot)."""
        with self._read("read trace chain") as conn:
            rows = conn.execute("SELECT seq, body FROM traces ORDER BY seq").fetchall()
        return [read_trace(int(seq), str(body)) for seq, body in rows]

    # records ---------------------------------------------------------------------------------
    def put_record(self, record: Record) -> None:
        """Insert ``record`` or replace the current state of the record with its id."""
        body = record_json(record)
        with self._tx("put record") as conn:
            conn.execute(
                "INSERT INTO records (id, source_id, version, status, body)"
                " VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET source_id = excluded.source_id,"
                " version = excluded.version, status = excluded.status, body = excluded.body",
                (record.id, record.source_id, record.version, record.status, body),
            )

    def get_record(self, record_id: str) -> Record | None:
        with self._read("get record") as conn:
            row = conn.execute("SELECT body FROM records WHERE id = %s", (record_id,)).fetchone()
        return None if row is None else record_from_json(record_id, str(row[0]))

    def list_records(
        self,
        *,
        status: str | None = None,
        source_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Record]:
        """Records ordered by id, filtered by status and source, one page at a time."""
        check_record_page(limit, offset)
        with self._read("list records") as conn:
            rows = conn.execute(
                "SELECT id, body FROM records WHERE (%s::text IS NULL OR status = %s)"
                " AND (%s::text IS NULL OR source_id = %s) ORDER BY id LIMIT %s OFFSET %s",
                (status, status, source_id, source_id, limit, offset),
            ).fetchall()
        return [record_from_json(str(rid), str(body)) for rid, body in rows]

    def add_attempt(self, record_id: str, attempt: Attempt) -> None:
        """Append ``attempt`` to the record; attempts are never changed or deleted."""
        body = attempt_json(attempt)
        with self._tx("add attempt") as conn:
            found = conn.execute(
                "SELECT 1 FROM records WHERE id = %s FOR UPDATE", (record_id,)
            ).fetchone()
            if found is None:
                raise InvalidInputError(f"no record {record_id!r}")
            taken = conn.execute(
                "SELECT 1 FROM attempts WHERE record_id = %s AND number = %s",
                (record_id, attempt.number),
            ).fetchone()
            if taken is not None:
                raise InvalidInputError(
                    f"record {record_id!r} already has attempt {attempt.number}"
                )
            conn.execute(
                "INSERT INTO attempts (record_id, number, body) VALUES (%s, %s, %s)",
                (record_id, attempt.number, body),
            )

    def attempts(self, record_id: str) -> list[Attempt]:
        with self._read("list attempts") as conn:
            rows = conn.execute(
                "SELECT number, body FROM attempts WHERE record_id = %s ORDER BY number",
                (record_id,),
            ).fetchall()
        return [attempt_from_json(record_id, int(n), str(body)) for n, body in rows]


# helpers --------------------------------------------------------------------------------------
_STATS = (
    "sources",
    "versions",
    "sections",
    "chunks",
    "embeddings",
    "measurements",
    "erasures",
    "blobs",
)


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


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _clean_text(text: str) -> str:
    """``text`` without NUL and lone surrogates, which PostgreSQL cannot take."""
    return text.replace("\x00", " ").encode("utf-8", "ignore").decode("utf-8")


def _filter_sql(flt: SearchFilter) -> tuple[LiteralString, dict[str, Any]] | None:
    """SQL conditions on ``c`` (chunks) and ``s`` (sources); None when nothing can match.

    Eligibility (SPEC §3.6): the source is active, and the chunk belongs to the source's latest
    version, which is parsed.
    """
    where: LiteralString = ""
    params: dict[str, Any] = {}
    if flt.source_ids is not None:
        if not flt.source_ids:
            return None
        where += " AND c.source_id = ANY(%(f_ids)s::text[])"
        params["f_ids"] = list(flt.source_ids)
    if flt.statuses is not None:
        if not flt.statuses:
            return None
        where += " AND s.status = ANY(%(f_statuses)s::text[])"
        params["f_statuses"] = list(flt.statuses)
    if flt.eligible_only:
        where += """
            AND s.status = 'active'
            AND EXISTS (SELECT 1 FROM versions v
                         WHERE v.source_id = c.source_id AND v.number = c.version
                           AND v.state = 'parsed')
            AND NOT EXISTS (SELECT 1 FROM versions n
                             WHERE n.source_id = c.source_id AND n.number > c.version)
        """
    return where, params


def _check_status(status: str) -> None:
    if status not in SOURCE_STATUSES:
        raise InvalidInputError(
            f"unknown source status {status!r}; use one of {', '.join(SOURCE_STATUSES)}"
        )


def _unit_vector(vector: Vector) -> Vector:
    arr = np.asarray(vector, dtype=np.float32)
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidInputError(f"a vector must be one-dimensional and non-empty, not {arr.shape}")
    if not bool(np.isfinite(arr).all()):
        raise InvalidInputError("a vector contains NaN or infinity")
    norm = float(np.linalg.norm(arr))
    return np.ascontiguousarray(arr / norm if norm > 0 else arr, dtype=np.float32)


def _normalise_id(kind: str, value: str) -> tuple[str, str]:
    """External ids are compared with lowercase kinds, trimmed values, and DOIs lowercased."""
    kind = kind.strip().lower()
    value = value.strip()
    return kind, value.lower() if kind == "doi" else value


def _normalise_ids(ids: dict[str, str]) -> dict[str, str]:
    return dict(_normalise_id(k, v) for k, v in ids.items() if v.strip())


def _apply_masks(text: str, ranges: Iterable[tuple[int, int]], *, offset: int = 0) -> str:
    """``text`` (starting at ``offset`` in its section) with erased ranges made :data:`MASK`."""
    chars = list(text)
    for start, end in ranges:
        for i in range(max(start - offset, 0), min(end - offset, len(chars))):
            chars[i] = MASK
    return "".join(chars)


def _source(row: Sequence[Any]) -> Source:
    return Source(
        id=row[0],
        connector=row[1],
        title=row[2],
        status=row[3],
        created_at=row[4],
        external_ids={str(k): str(v) for k, v in dict(row[5] or {}).items()},
    )


def _version(row: Sequence[Any]) -> Version:
    return Version(
        source_id=row[0],
        number=int(row[1]),
        sha256=row[2],
        media_type=row[3],
        state=row[4],
        reason=row[5],
        format=row[6],
        created_at=row[7],
    )


def _section(row: Sequence[Any], masks: Iterable[tuple[int, int]]) -> Section:
    return Section(
        source_id=row[0],
        version=int(row[1]),
        key=row[2],
        title=row[3],
        text=_apply_masks(row[4], masks),
        ordinal=int(row[5]),
    )


def _chunk(row: Sequence[Any]) -> Chunk:
    return Chunk(
        id=row[0],
        source_id=row[1],
        version=int(row[2]),
        section_key=row[3],
        start=int(row[4]),
        end=int(row[5]),
        text=row[6],
    )


def _erasure(row: Sequence[Any]) -> Erasure:
    return Erasure(
        id=int(row[0]),
        source_id=row[1],
        version=int(row[2]),
        section_key=row[3],
        start=int(row[4]),
        end=int(row[5]),
        reason=row[6],
        created_at=row[7],
    )
