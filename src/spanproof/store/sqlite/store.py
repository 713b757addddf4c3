"""``SqliteEvidenceStore``: the ``EvidenceStore`` port on one SQLite file (SPEC §2, §3, §7, §8).

* One file in WAL mode (readers never wait for the writer), ``foreign_keys=ON``, a busy timeout,
  ``synchronous=NORMAL`` (a committed transaction survives a process crash; the last ones may be
  lost on power failure, the usual WAL trade-off).
* The schema is migrated by Alembic (``migrations/``) when a file is new or behind; an up-to-date
  file opens with one query and without importing Alembic.
* Keywords: an FTS5 table (porter stemming over ``unicode61``), ranked by ``bm25``; every query word
  is quoted, so user input is never FTS5 syntax.
* Vectors: exact cosine by brute force in numpy over a per-model matrix of unit vectors, cached in
  memory and memory-mapped from ``<file>.vectors/`` sidecars once large (see ``matrix.py``).
* Erasures: section and chunk text is masked on read; an erased chunk is re-indexed with masked
  text and its vectors are deleted, so it stops matching either search.
* One connection per store, guarded by a re-entrant lock, so a store may be shared by threads;
  ``transaction()`` holds the lock for its whole extent (see ``connection.py``).

Errors: sqlite3 errors become :class:`StoreError` (``retryable`` for busy/locked); caller
mistakes (unknown source or version, bad offsets, bad vectors) raise :class:`InvalidInputError`;
an attempt to change something immutable (a stored section, a final version state) raises
:class:`StoreError`.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

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
from spanproof.store.sqlite import search
from spanproof.store.sqlite.ann import AnnIndexes
from spanproof.store.sqlite.connection import SqliteConnection
from spanproof.store.sqlite.matrix import VectorMatrices
from spanproof.store.sqlite.query import filter_sql, mask_text, overlaps
from spanproof.store.sqlite.schema import current_revision
from spanproof.store.sqlite.search import CHUNK_COLS, erased_ranges, load_chunks
from spanproof.store.trace_rows import TRACE_COLUMNS, check_page, read_trace, seal_next

_SOURCE_COLS = "id, connector, title, status, created_at"
_VERSION_COLS = "source_id, number, sha256, media_type, state, reason, format, created_at"
_ERASURE_COLS = "id, source_id, version, section_key, span_start, span_end, reason, created_at"
_SectionRef = tuple[str, int, str]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _external_id(kind: str, value: str) -> tuple[str, str]:
    """External ids are compared with lowercase kinds, trimmed values, and DOIs lowercased."""
    kind = kind.strip().lower()
    value = value.strip()
    return kind, value.lower() if kind == "doi" else value


def _by_source(table: str, source_id: str, version: int | None) -> tuple[str, list[object]]:
    if version is None:
        return f"{table}.source_id = ?", [source_id]
    return f"{table}.source_id = ? AND {table}.version = ?", [source_id, version]


def _check_status(status: str) -> None:
    if status not in SOURCE_STATUSES:
        raise InvalidInputError(
            f"unknown source status {status!r}; use one of {', '.join(SOURCE_STATUSES)}"
        )


def _unit_vector(vector: Vector) -> np.ndarray[Any, np.dtype[np.float32]]:
    arr = np.asarray(vector, dtype=np.float32)
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidInputError(f"a vector must be one-dimensional and non-empty, not {arr.shape}")
    if not bool(np.isfinite(arr).all()):
        raise InvalidInputError("a vector contains NaN or infinity")
    norm = float(np.linalg.norm(arr))
    return np.ascontiguousarray(arr / norm if norm > 0 else arr, dtype=np.float32)


class SqliteEvidenceStore(GraphStoreMethods, KeyStoreMethods):
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

    _graph = GraphSql("?")
    _keys = KeySql("?")

    @contextmanager
    def _graph_write(self, action: str) -> Iterator[sqlite3.Connection]:
        with self.transaction():
            yield self._db

    @contextmanager
    def _graph_read(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._reading():
            yield self._db

    def transaction(self) -> AbstractContextManager[None]:
        """A unit of work: all of it commits at the outermost exit, or none of it on an exception.

        Re-entrant: a nested ``transaction()`` is a SAVEPOINT, so an exception inside it undoes
        only the nested part when the caller catches it, and everything when it propagates.
        """
        return self._cx.transaction()

    def _reading(self) -> AbstractContextManager[None]:
        return self._cx.reading()

    def close(self) -> None:
        """Close the connection (idempotent); the store cannot be used afterwards."""
        self._cx.close()
        self._vectors.clear()

    def __enter__(self) -> SqliteEvidenceStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = ", readonly=True" if self.readonly else ""
        return f"SqliteEvidenceStore({str(self.path)!r}{mode})"

    def schema_version(self) -> str:
        """The Alembic revision the file is at (``SCHEMA_HEAD`` once opened read-write)."""
        with self._reading():
            return current_revision(self._db) or ""

    # sources ---------------------------------------------------------------------------------
    def upsert_source(self, source: Source) -> Source:
        """Insert, or update the title / merge the external ids of an existing id.

        The status of an existing source changes only through :meth:`set_status`; an external id
        held by another source raises :class:`StoreError`.
        """
        if not source.id:
            raise InvalidInputError("a source needs a non-empty id")
        _check_status(source.status)
        ids = dict(_external_id(k, v) for k, v in source.external_ids.items() if v.strip())
        with self.transaction():
            db = self._db
            row = db.execute("SELECT title FROM sources WHERE id = ?", (source.id,)).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO sources (id, connector, title, status, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (
                        source.id,
                        source.connector,
                        source.title,
                        source.status,
                        source.created_at or _now(),
                    ),
                )
            elif source.title and source.title != row[0]:
                db.execute("UPDATE sources SET title = ? WHERE id = ?", (source.title, source.id))
            for kind, value in ids.items():
                self._set_external_id(source.id, kind, value)
            stored = self._source(source.id)
        if stored is None:  # pragma: no cover - inserted just above
            raise StoreError(f"source {source.id!r} vanished while being written")
        return stored

    def _set_external_id(self, source_id: str, kind: str, value: str) -> None:
        db = self._db
        holder = db.execute(
            "SELECT source_id FROM source_ids WHERE kind = ? AND value = ?", (kind, value)
        ).fetchone()
        if holder is not None and holder[0] != source_id:
            raise StoreError(f"{kind} {value!r} already belongs to source {holder[0]!r}")
        db.execute("DELETE FROM source_ids WHERE source_id = ? AND kind = ?", (source_id, kind))
        db.execute(
            "INSERT INTO source_ids (kind, value, source_id) VALUES (?, ?, ?)",
            (kind, value, source_id),
        )

    def _source(self, source_id: str) -> Source | None:
        row = self._db.execute(
            f"SELECT {_SOURCE_COLS} FROM sources WHERE id = ?", (source_id,)
        ).fetchone()
        return None if row is None else self._sources([row])[0]

    def _sources(self, rows: Sequence[Sequence[Any]]) -> list[Source]:
        ext: dict[str, dict[str, str]] = {}
        if rows:
            found = self._db.execute(
                "SELECT source_id, kind, value FROM source_ids"
                " WHERE source_id IN (SELECT value FROM json_each(?)) ORDER BY kind",
                (json.dumps([row[0] for row in rows]),),
            )
            for source_id, kind, value in found:
                ext.setdefault(source_id, {})[kind] = value
        return [Source(row[0], row[1], row[2], row[3], ext.get(row[0], {}), row[4]) for row in rows]

    def get_source(self, source_id: str) -> Source | None:
        with self._reading():
            return self._source(source_id)

    def find_source(self, id_kind: str, value: str) -> Source | None:
        """The source holding external id ``id_kind`` = ``value`` (DOIs case-insensitively)."""
        kind, value = _external_id(id_kind, value)
        with self._reading():
            row = self._db.execute(
                "SELECT source_id FROM source_ids WHERE kind = ? AND value = ?", (kind, value)
            ).fetchone()
            return None if row is None else self._source(row[0])

    def list_sources(
        self, *, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Source]:
        """Sources ordered by id, optionally of one status, one page at a time."""
        if limit < 0 or offset < 0:
            raise InvalidInputError("limit and offset must not be negative")
        if status is not None:
            _check_status(status)
        where, params = ("WHERE status = ?", [status]) if status else ("", [])
        with self._reading():
            rows = self._db.execute(
                f"SELECT {_SOURCE_COLS} FROM sources {where} ORDER BY id LIMIT ? OFFSET ?",
                [*params, limit, offset],
            ).fetchall()
            return self._sources(rows)

    def set_status(self, source_id: str, status: str) -> None:
        _check_status(status)
        with self.transaction():
            cur = self._db.execute(
                "UPDATE sources SET status = ? WHERE id = ?", (status, source_id)
            )
            if cur.rowcount == 0:
                raise InvalidInputError(f"no source {source_id!r}")

    # raw bytes and versions ------------------------------------------------------------------
    def put_blob(self, sha256: str, raw: bytes) -> None:
        """Store raw bytes under their SHA-256 (checked; idempotent)."""
        actual = hashlib.sha256(raw).hexdigest()
        if sha256.lower() != actual:
            raise InvalidInputError(f"blob hash {sha256!r} does not match its bytes ({actual})")
        with self.transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO blobs (sha256, size, raw) VALUES (?, ?, ?)",
                (actual, len(raw), raw),
            )

    def get_blob(self, sha256: str) -> bytes | None:
        with self._reading():
            row = self._db.execute(
                "SELECT raw FROM blobs WHERE sha256 = ?", (sha256.lower(),)
            ).fetchone()
        return None if row is None else bytes(row[0])

    def add_version(self, source_id: str, sha256: str, media_type: str) -> tuple[Version, bool]:
        """The version of ``source_id`` with these bytes, and whether it was created now."""
        sha = sha256.lower()
        if len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha):
            raise InvalidInputError(f"not a SHA-256 hex digest: {sha256!r}")
        with self.transaction():
            db = self._db
            if db.execute("SELECT 1 FROM sources WHERE id = ?", (source_id,)).fetchone() is None:
                raise InvalidInputError(f"no source {source_id!r}; upsert it first")
            row = db.execute(
                f"SELECT {_VERSION_COLS} FROM versions WHERE source_id = ? AND sha256 = ?",
                (source_id, sha),
            ).fetchone()
            if row is not None:
                return Version(*row), False
            (number,) = db.execute(
                "SELECT coalesce(max(number), 0) + 1 FROM versions WHERE source_id = ?",
                (source_id,),
            ).fetchone()
            version = Version(source_id, int(number), sha, media_type, created_at=_now())
            db.execute(
                f"INSERT INTO versions ({_VERSION_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    source_id,
                    version.number,
                    sha,
                    media_type,
                    version.state,
                    "",
                    "",
                    version.created_at,
                ),
            )
            return version, True

    def versions(self, source_id: str) -> list[Version]:
        """All versions of a source, oldest first."""
        with self._reading():
            rows = self._db.execute(
                f"SELECT {_VERSION_COLS} FROM versions WHERE source_id = ? ORDER BY number",
                (source_id,),
            ).fetchall()
        return [Version(*row) for row in rows]

    def set_version_state(
        self, source_id: str, number: int, state: str, *, reason: str = "", format: str = ""
    ) -> None:
        """Move a ``pending`` version to ``parsed`` or ``quarantined``, once.

        Repeating the same move is a no-op; any other change of a final state raises
        :class:`StoreError` (versions are immutable once judged).
        """
        if state not in ("parsed", "quarantined"):
            raise InvalidInputError(f"a version moves to 'parsed' or 'quarantined', not {state!r}")
        with self.transaction():
            db = self._db
            row = db.execute(
                "SELECT state, reason, format FROM versions WHERE source_id = ? AND number = ?",
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
            db.execute(
                "UPDATE versions SET state = ?, reason = ?, format = ?"
                " WHERE source_id = ? AND number = ?",
                (state, reason, format, source_id, number),
            )

    # sections --------------------------------------------------------------------------------
    def add_sections(self, source_id: str, version: int, sections: Sequence[ParsedSection]) -> None:
        """Store sections in order (ordinals from 0); a key already stored must be identical.

        Raises:
            StoreError: a stored key arrives with a different title or text (never overwritten).
        """
        keys = [section.key for section in sections]
        if len(set(keys)) != len(keys) or not all(keys):
            raise InvalidInputError("section keys must be non-empty and unique within a version")
        with self.transaction():
            db = self._db
            self._require_version(source_id, version)
            stored = {
                key: (title, text)
                for key, title, text in db.execute(
                    "SELECT key, title, text FROM sections WHERE source_id = ? AND version = ?",
                    (source_id, version),
                )
            }
            (ordinal,) = db.execute(
                "SELECT coalesce(max(ordinal) + 1, 0) FROM sections"
                " WHERE source_id = ? AND version = ?",
                (source_id, version),
            ).fetchone()
            for section in sections:
                known = stored.get(section.key)
                if known is None:
                    db.execute(
                        "INSERT INTO sections (source_id, version, key, title, text, ordinal)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (source_id, version, section.key, section.title, section.text, ordinal),
                    )
                    ordinal += 1
                elif known != (section.title, section.text):
                    raise StoreError(
                        f"section {section.key!r} of {source_id!r} v{version} is stored with "
                        "different content; sections are immutable (add a new version instead)"
                    )

    def _require_version(self, source_id: str, version: int) -> None:
        if (
            self._db.execute(
                "SELECT 1 FROM versions WHERE source_id = ? AND number = ?", (source_id, version)
            ).fetchone()
            is None
        ):
            raise InvalidInputError(f"no version {version} of source {source_id!r}")

    def sections(self, source_id: str, version: int) -> list[Section]:
        """The sections of a version in order, erased ranges masked."""
        with self._reading():
            rows = self._db.execute(
                "SELECT key, title, text, ordinal FROM sections"
                " WHERE source_id = ? AND version = ? ORDER BY ordinal",
                (source_id, version),
            ).fetchall()
            erased = erased_ranges(self._db, source_id, version)
        return [
            Section(source_id, version, key, title, mask_text(text, erased.get(key, [])), ordinal)
            for key, title, text, ordinal in rows
        ]

    def section(self, source_id: str, version: int, key: str) -> Section | None:
        with self._reading():
            row = self._db.execute(
                "SELECT title, text, ordinal FROM sections"
                " WHERE source_id = ? AND version = ? AND key = ?",
                (source_id, version, key),
            ).fetchone()
            if row is None:
                return None
            ranges = erased_ranges(self._db, source_id, version).get(key, [])
        return Section(source_id, version, key, row[0], mask_text(row[1], ranges), row[2])

    def _section_text(self, ref: _SectionRef) -> str | None:
        row = self._db.execute(
            "SELECT text FROM sections WHERE source_id = ? AND version = ? AND key = ?", ref
        ).fetchone()
        return None if row is None else str(row[0])

    # chunks ----------------------------------------------------------------------------------
    def add_chunks(self, chunks: Sequence[Chunk]) -> None:
        """Store chunks and index them for keyword search (idempotent by id).

        Each chunk must lie in a stored section with ``text == section.text[start:end]``; an id
        already stored with different content raises :class:`StoreError`.
        """
        with self.transaction():
            texts: dict[_SectionRef, str] = {}
            for chunk in chunks:
                self._add_chunk(chunk, texts)

    def _add_chunk(self, chunk: Chunk, texts: dict[_SectionRef, str]) -> None:
        db = self._db
        fields = (
            chunk.source_id,
            chunk.version,
            chunk.section_key,
            chunk.start,
            chunk.end,
            chunk.text,
        )
        row = db.execute(
            "SELECT source_id, version, section_key, span_start, span_end, text"
            " FROM chunks WHERE id = ?",
            (chunk.id,),
        ).fetchone()
        if row is not None:
            if tuple(row) != fields:
                raise StoreError(f"chunk {chunk.id!r} is already stored with different content")
            return
        ref = (chunk.source_id, chunk.version, chunk.section_key)
        if ref not in texts:
            text = self._section_text(ref)
            if text is None:
                raise InvalidInputError(f"chunk {chunk.id!r}: no section {ref}")
            texts[ref] = text
        if not 0 <= chunk.start <= chunk.end <= len(texts[ref]) or (
            texts[ref][chunk.start : chunk.end] != chunk.text
        ):
            raise InvalidInputError(
                f"chunk {chunk.id!r}: text is not section {ref}[{chunk.start}:{chunk.end}]"
            )
        ranges = erased_ranges(self._db, chunk.source_id, chunk.version).get(chunk.section_key, [])
        erased = overlaps(ranges, chunk.start, chunk.end)
        cur = db.execute(
            "INSERT INTO chunks (id, source_id, version, section_key, span_start, span_end, text,"
            " erased) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (chunk.id, *fields, int(erased)),
        )
        indexed = mask_text(chunk.text, ranges, chunk.start) if erased else chunk.text
        db.execute("INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)", (cur.lastrowid, indexed))

    def chunks(self, source_id: str, version: int | None = None) -> list[Chunk]:
        """Chunks of a source (or of one version), by version, section order and offset."""
        where, params = _by_source("c", source_id, version)
        with self._reading():
            rows = self._db.execute(
                f"SELECT {CHUNK_COLS} FROM chunks c JOIN sections s ON s.source_id = c.source_id"
                " AND s.version = c.version AND s.key = c.section_key"
                f" WHERE {where} ORDER BY c.version, s.ordinal, c.span_start, c.id",
                params,
            ).fetchall()
            return load_chunks(self._db, rows)

    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        """Chunks by id, in the order asked; unknown ids are skipped."""
        if not ids:
            return []
        with self._reading():
            rows = self._db.execute(
                f"SELECT {CHUNK_COLS} FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            ).fetchall()
            found = {chunk.id: chunk for chunk in load_chunks(self._db, rows)}
        return [found[cid] for cid in ids if cid in found]

    def chunks_missing_embedding(self, model_id: str, limit: int) -> list[Chunk]:
        """Chunks with no vector under ``model_id``, by id; erased chunks never need one."""
        if limit <= 0:
            return []
        with self._reading():
            rows = self._db.execute(
                f"SELECT {CHUNK_COLS} FROM chunks c WHERE c.erased = 0 AND NOT EXISTS"
                " (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.chunk_id = c.id)"
                " ORDER BY c.id LIMIT ?",
                (model_id, limit),
            ).fetchall()
            return load_chunks(self._db, rows)

    # vectors ---------------------------------------------------------------------------------
    def put_embeddings(self, model_id: str, items: Sequence[tuple[str, Vector]]) -> None:
        """Store vectors (normalised to unit length) for chunk ids under a model (idempotent).

        Vectors of erased chunks are dropped; all vectors of one model share one dimension.
        """
        prepared = [(chunk_id, _unit_vector(vector)) for chunk_id, vector in items]
        if not prepared:
            return
        dims = {vector.shape[0] for _, vector in prepared}
        with self.transaction():
            db = self._db
            row = db.execute(
                "SELECT dim FROM embeddings WHERE model_id = ? LIMIT 1", (model_id,)
            ).fetchone()
            if len(dims) > 1 or (row is not None and {row[0]} != dims):
                raise InvalidInputError(
                    f"vectors of model {model_id!r} must all have one dimension "
                    f"(stored: {row[0] if row else 'none'}, given: {sorted(dims)})"
                )
            before = db.total_changes
            for chunk_id, vector in prepared:
                chunk = db.execute("SELECT erased FROM chunks WHERE id = ?", (chunk_id,)).fetchone()
                if chunk is None:
                    raise InvalidInputError(f"no chunk {chunk_id!r}")
                if chunk[0]:
                    continue
                db.execute(
                    "INSERT INTO embeddings (model_id, chunk_id, dim, vector) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (model_id, chunk_id) DO UPDATE SET vector = excluded.vector"
                    " WHERE vector IS NOT excluded.vector",
                    (model_id, chunk_id, vector.shape[0], vector.tobytes()),
                )
            if db.total_changes != before:
                self._renew_vector_token(model_id)

    def _renew_vector_token(self, model_id: str) -> None:
        self._db.execute(
            "INSERT INTO vector_tokens (model_id, token) VALUES (?, ?)"
            " ON CONFLICT (model_id) DO UPDATE SET token = excluded.token",
            (model_id, uuid.uuid4().hex),
        )

    # search ----------------------------------------------------------------------------------
    def keyword_search(self, query: str, limit: int, flt: SearchFilter) -> list[SearchHit]:
        """BM25 ranking over chunk text (score = -bm25, higher is better; ties by chunk id)."""
        where = filter_sql(flt)
        if limit <= 0 or where is None:
            return []
        with self._reading():
            return search.keyword_search(self._db, query, limit, where)

    def vector_search(
        self, vector: Vector, model_id: str, limit: int, flt: SearchFilter
    ) -> list[SearchHit]:
        """Exact cosine ranking over ``model_id``'s vectors (ties by chunk id)."""
        query = _unit_vector(vector)
        where = filter_sql(flt)
        if limit <= 0 or where is None:
            return []
        with self._reading():
            return search.vector_search(
                self._db,
                self._vectors,
                query,
                model_id,
                limit,
                where,
                persist=not (self.readonly or self._cx.writing),
                indexes=self._ann,
            )

    def rebuild_vector_index(self, model_id: str) -> int:
        """Write the HNSW index file for ``model_id``'s current vectors (see ``ann``).

        Returns the number of vectors indexed; 0 when the model has none or ``hnswlib`` is not
        installed (search then stays exact).
        """
        with self._reading():
            matrix = self._vectors.get(self._db, model_id, persist=not self.readonly)
        if matrix is None or self._ann.build(model_id, matrix) is None:
            return 0
        return len(matrix.seqs)

    # measurements and erasures ---------------------------------------------------------------
    def add_measurements(self, items: Sequence[Measurement]) -> None:
        """Store measurements (idempotent); each must lie inside a stored section."""
        with self.transaction():
            lengths: dict[_SectionRef, int] = {}
            for item in items:
                ref = (item.source_id, item.version, item.section_key)
                if ref not in lengths:
                    text = self._section_text(ref)
                    if text is None:
                        raise InvalidInputError(f"measurement {item.quotation!r}: no section {ref}")
                    lengths[ref] = len(text)
                if not 0 <= item.start <= item.end <= lengths[ref] or not math.isfinite(item.value):
                    raise InvalidInputError(f"measurement {item.quotation!r}: bad offsets or value")
                self._db.execute(
                    "INSERT OR IGNORE INTO measurements (source_id, version, section_key,"
                    " span_start, span_end, value, unit, quotation)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (*ref, item.start, item.end, item.value, item.unit, item.quotation),
                )

    def measurements(self, source_id: str, version: int | None = None) -> list[Measurement]:
        """Measurements in section order; those overlapping an erased range are not served."""
        where, params = _by_source("m", source_id, version)
        with self._reading():
            rows = self._db.execute(
                "SELECT m.source_id, m.version, m.section_key, m.span_start, m.span_end, m.value,"
                " m.unit, m.quotation FROM measurements m JOIN sections s"
                " ON s.source_id = m.source_id AND s.version = m.version AND s.key = m.section_key"
                f" WHERE {where} ORDER BY m.version, s.ordinal, m.span_start, m.span_end, m.unit,"
                " m.value",
                params,
            ).fetchall()
            erased = {v: erased_ranges(self._db, source_id, v) for v in {row[1] for row in rows}}
        return [
            Measurement(*row)
            for row in rows
            if not overlaps(erased[row[1]].get(row[2], []), row[3], row[4])
        ]

    def add_erasure(
        self, source_id: str, version: int, section_key: str, start: int, end: int, reason: str
    ) -> Erasure:
        """Mask ``[start, end)`` of a section: not served, not searchable, not resolvable.

        Chunks over the range are re-indexed with masked text and lose their vectors. Erasing
        the same range again returns the first erasure.
        """
        ref = (source_id, version, section_key)
        with self.transaction():
            db = self._db
            text = self._section_text(ref)
            if text is None:
                raise InvalidInputError(f"no section {ref}")
            if not 0 <= start < end <= len(text):
                raise InvalidInputError(
                    f"erasure [{start}, {end}) is not a non-empty range of {ref} "
                    f"(length {len(text)})"
                )
            row = db.execute(
                f"SELECT {_ERASURE_COLS} FROM erasures WHERE source_id = ? AND version = ?"
                " AND section_key = ? AND span_start = ? AND span_end = ?",
                (*ref, start, end),
            ).fetchone()
            if row is not None:
                return Erasure(*row)
            created_at = _now()
            cur = db.execute(
                f"INSERT INTO erasures ({_ERASURE_COLS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?)",
                (*ref, start, end, reason, created_at),
            )
            self._unindex_erased(ref, start, end)
        return Erasure(int(cur.lastrowid or 0), *ref, start, end, reason, created_at)

    def _unindex_erased(self, ref: _SectionRef, start: int, end: int) -> None:
        db = self._db
        hit = db.execute(
            "SELECT seq, id, span_start, text FROM chunks WHERE source_id = ? AND version = ?"
            " AND section_key = ? AND span_start < ? AND span_end > ?",
            (*ref, end, start),
        ).fetchall()
        if not hit:
            return
        ranges = erased_ranges(self._db, ref[0], ref[1]).get(ref[2], [])
        for seq, _, chunk_start, text in hit:
            db.execute("UPDATE chunks SET erased = 1 WHERE seq = ?", (seq,))
            db.execute("DELETE FROM chunks_fts WHERE rowid = ?", (seq,))
            db.execute(
                "INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)",
                (seq, mask_text(text, ranges, chunk_start)),
            )
        ids = json.dumps([row[1] for row in hit])
        in_ids = "chunk_id IN (SELECT value FROM json_each(?))"
        models = [
            row[0]
            for row in db.execute(
                f"SELECT DISTINCT model_id FROM embeddings WHERE {in_ids}", (ids,)
            )
        ]
        db.execute(f"DELETE FROM embeddings WHERE {in_ids}", (ids,))
        for model_id in models:
            self._renew_vector_token(model_id)

    def erasures(self, source_id: str, version: int | None = None) -> list[Erasure]:
        """Erasures of a source (or one version), oldest first."""
        where, params = _by_source("erasures", source_id, version)
        with self._reading():
            rows = self._db.execute(
                f"SELECT {_ERASURE_COLS} FROM erasures WHERE {where} ORDER BY id", params
            ).fetchall()
        return [Erasure(*row) for row in rows]

    def stats(self) -> dict[str, int]:
        """Row counts: sources, versions, sections, chunks, embeddings, measurements, erasures."""
        tables = (
            "sources",
            "versions",
            "sections",
            "chunks",
            "embeddings",
            "measurements",
            "erasures",
            "blobs",
        )
        with self._reading():
            return {
                table: int(self._db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
                for table in tables
            }

    # traces ----------------------------------------------------------------------------------
    def append(self, trace: Trace) -> Trace:
        """Seal ``trace`` after the last one and store it, under the file's write lock.

        ``BEGIN IMMEDIATE`` takes SQLite's write lock before the last row is read, so appends
        from other threads or processes queue behind this one and the chain cannot fork.
        """
        with self.transaction():
            last = self._db.execute(
                "SELECT seq, hash FROM traces ORDER BY seq DESC LIMIT 1"
            ).fetchone()
            row = seal_next(trace, None if last is None else (int(last[0]), str(last[1])), _now())
            self._db.execute(
                f"INSERT INTO traces ({TRACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", row.values()
            )
        return row.trace

    def get_trace(self, trace_id: str) -> Trace | None:
        with self._reading():
            row = self._db.execute(
                "SELECT seq, body FROM traces WHERE id = ?", (trace_id,)
            ).fetchone()
        return None if row is None else read_trace(int(row[0]), str(row[1]))

    def list_traces(self, *, limit: int = 50, offset: int = 0) -> list[Trace]:
        """Traces newest first, one page at a time."""
        check_page(limit, offset)
        with self._reading():
            rows = self._db.execute(
                "SELECT seq, body FROM traces ORDER BY seq DESC LIMIT ? OFFSET ?", (limit, offset)
            ).fetchall()
        return [read_trace(int(seq), str(body)) for seq, body in rows]

    def chain(self) -> list[Trace]:
        """Every trace in ``seq`` order, read in one snapshot."""
        with self._reading():
            rows = self._db.execute("SELECT seq, body FROM traces ORDER BY seq").fetchall()
        return [read_trace(int(seq), str(body)) for seq, body in rows]

    # records ---------------------------------------------------------------------------------
    def put_record(self, record: Record) -> None:
        """Insert ``record`` or replace the current state of the record with its id."""
        body = record_json(record)
        with self.transaction():
            self._db.execute(
                "INSERT INTO records (id, source_id, version, status, body) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET source_id = excluded.source_id,"
                " version = excluded.version, status = excluded.status, body = excluded.body",
                (record.id, record.source_id, record.version, record.status, body),
            )

    def get_record(self, record_id: str) -> Record | None:
        with self._reading():
            row = self._db.execute("SELECT body FROM records WHERE id = ?", (record_id,)).fetchone()
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
        with self._reading():
            rows = self._db.execute(
                "SELECT id, body FROM records WHERE (? IS NULL OR status = ?)"
                " AND (? IS NULL OR source_id = ?) ORDER BY id LIMIT ? OFFSET ?",
                (status, status, source_id, source_id, limit, offset),
            ).fetchall()
        return [record_from_json(str(rid), str(body)) for rid, body in rows]

    def add_attempt(self, record_id: str, attempt: Attempt) -> None:
        """Append ``attempt`` to the record; attempts are never changed or deleted."""
        body = attempt_json(attempt)
        with self.transaction():
            if (
                self._db.execute("SELECT 1 FROM records WHERE id = ?", (record_id,)).fetchone()
                is None
            ):
                raise InvalidInputError(f"no record {record_id!r}")
            taken = self._db.execute(
                "SELECT 1 FROM attempts WHERE record_id = ? AND number = ?",
                (record_id, attempt.number),
            ).fetchone()
            if taken is not None:
                raise InvalidInputError(
                    f"record {record_id!r} already has attempt {attempt.number}"
                )
            self._db.execute(
                "INSERT INTO attempts (record_id, number, body) VALUES (?, ?, ?)",
                (record_id, attempt.number, body),
            )

    def attempts(self, record_id: str) -> list[Attempt]:
        with self._reading():
            rows = self._db.execute(
                "SELECT number, body FROM attempts WHERE record_id = ? ORDER BY number",
                (record_id,),
            ).fetchall()
        return [attempt_from_json(record_id, int(n), str(body)) for n, body in rows]
