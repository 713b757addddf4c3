"""The evidence store written once for both SQL dialects (SPEC §2, §3, §7).

:class:`SqlEvidenceStore` holds everything the SQLite and PostgreSQL stores do the same way:
validation, the statements on sources, blobs, versions and sections, and (through its bases)
chunks, measurements, erasures, traces, records, the graph and API keys. A dialect subclass
provides the connection (``_write`` / ``_read``), its :class:`~spanproof.store.sql.Dialect`, and
what truly differs: keyword and vector search (``_keyword_hits``, ``_vector_hits``, given the
filter as a :class:`~spanproof.store.sql.Where`), how a chunk is indexed and un-indexed, vectors,
and locks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Self

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import InvalidInputError, StoreError
from spanproof.core.store import SearchFilter, SearchHit, Section, Source, Vector, Version
from spanproof.store.chunk_rows import ChunkStoreMethods, erased_ranges
from spanproof.store.graph_sql import GraphStoreMethods
from spanproof.store.keys_sql import KeyStoreMethods
from spanproof.store.sql import (
    UnitVector,
    Where,
    check_page,
    check_sha256,
    check_status,
    external_id,
    mask_text,
    now,
    search_filter,
    unit_vector,
)
from spanproof.store.trace_rows import TraceStoreMethods

SOURCE_COLS = "id, connector, title, status, created_at"
VERSION_COLS = "source_id, number, sha256, media_type, state, reason, format, created_at"
_TABLES = ("sources", "versions", "sections", "chunks", "embeddings", "measurements", "erasures")


class SqlEvidenceStore(ChunkStoreMethods, TraceStoreMethods, GraphStoreMethods, KeyStoreMethods):
    """The ``EvidenceStore`` port on SQL; see the module docstring for what a dialect adds."""

    def close(self) -> None:
        """Release the connection(s) (idempotent); the store cannot be used afterwards."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _keyword_hits(self, conn: Any, query: str, limit: int, where: Where) -> list[SearchHit]:
        raise NotImplementedError

    def _vector_hits(
        self, conn: Any, query: UnitVector, model_id: str, limit: int, where: Where
    ) -> list[SearchHit]:
        raise NotImplementedError

    def keyword_search(self, query: str, limit: int, flt: SearchFilter) -> list[SearchHit]:
        """Chunks matching words of ``query``, best first (higher score is better; ties by id)."""
        where = search_filter(self._sql, flt)
        if limit <= 0 or where is None:
            return []
        with self._read("keyword_search") as conn:
            return self._keyword_hits(conn, query, limit, where)

    def vector_search(
        self, vector: Vector, model_id: str, limit: int, flt: SearchFilter
    ) -> list[SearchHit]:
        """Exact cosine ranking over ``model_id``'s vectors (ties by chunk id)."""
        query = unit_vector(vector)
        where = search_filter(self._sql, flt)
        if limit <= 0 or where is None:
            return []
        with self._read("vector_search") as conn:
            return self._vector_hits(conn, query, model_id, limit, where)

    # sources ---------------------------------------------------------------------------------
    def upsert_source(self, source: Source) -> Source:
        """Insert, or update the title / merge the external ids of an existing id.

        The status of an existing source changes only through :meth:`set_status`; an external id
        held by another source raises :class:`StoreError`.
        """
        if not source.id:
            raise InvalidInputError("a source needs a non-empty id")
        check_status(source.status)
        ids = dict(external_id(k, v) for k, v in source.external_ids.items() if v.strip())
        d = self._sql
        with self._write("upsert_source") as conn:
            # The upsert locks the source row, so concurrent writers of one source run in turn and
            # a later one finds the external ids an earlier one wrote already its own.
            row = d.one(
                conn,
                "INSERT INTO sources (id, connector, title, status, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET title = CASE"
                " WHEN excluded.title <> '' THEN excluded.title ELSE sources.title END"
                f" RETURNING {SOURCE_COLS}",
                (
                    source.id,
                    source.connector,
                    source.title,
                    source.status,
                    source.created_at or now(),
                ),
            )
            for kind, value in ids.items():
                holder = d.one(
                    conn,
                    "SELECT source_id FROM source_ids WHERE kind = ? AND value = ?",
                    (kind, value),
                )
                if holder is not None and holder[0] != source.id:
                    raise StoreError(f"{kind} {value!r} already belongs to source {holder[0]!r}")
                if holder is None:
                    d.run(
                        conn,
                        "DELETE FROM source_ids WHERE source_id = ? AND kind = ?",
                        (source.id, kind),
                    )
                    d.run(
                        conn,
                        "INSERT INTO source_ids (source_id, kind, value) VALUES (?, ?, ?)",
                        (source.id, kind, value),
                    )
            return self._sources(conn, [row])[0]

    def _source(self, conn: Any, source_id: str) -> Source | None:
        row = self._sql.one(conn, f"SELECT {SOURCE_COLS} FROM sources WHERE id = ?", (source_id,))
        return None if row is None else self._sources(conn, [row])[0]

    def _sources(self, conn: Any, rows: Sequence[Sequence[Any]]) -> list[Source]:
        ext: dict[str, dict[str, str]] = {}
        for source_id, kind, value in self._sql.where_in(
            conn,
            "SELECT source_id, kind, value FROM source_ids WHERE source_id IN {in} ORDER BY kind",
            [row[0] for row in rows],
        ):
            ext.setdefault(str(source_id), {})[str(kind)] = str(value)
        return [Source(r[0], r[1], r[2], r[3], ext.get(r[0], {}), r[4]) for r in rows]

    def get_source(self, source_id: str) -> Source | None:
        with self._read("get_source") as conn:
            return self._source(conn, source_id)

    def find_source(self, id_kind: str, value: str) -> Source | None:
        """The source holding external id ``id_kind`` = ``value`` (DOIs case-insensitively)."""
        kind, value = external_id(id_kind, value)
        with self._read("find_source") as conn:
            row = self._sql.one(
                conn, "SELECT source_id FROM source_ids WHERE kind = ? AND value = ?", (kind, value)
            )
            return None if row is None else self._source(conn, row[0])

    def list_sources(
        self, *, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Source]:
        """Sources ordered by id, optionally of one status, one page at a time."""
        limit, offset = check_page(limit, offset)
        if status is not None:
            check_status(status)
        with self._read("list_sources") as conn:
            rows = self._sql.all(
                conn,
                f"SELECT {SOURCE_COLS} FROM sources WHERE (CAST(? AS TEXT) IS NULL OR status = ?)"
                " ORDER BY id LIMIT ? OFFSET ?",
                (status or None, status or None, limit, offset),
            )
            return self._sources(conn, rows)

    def set_status(self, source_id: str, status: str) -> None:
        check_status(status)
        with self._write("set_status") as conn:
            cur = self._sql.run(
                conn, "UPDATE sources SET status = ? WHERE id = ?", (status, source_id)
            )
            if cur.rowcount == 0:
                raise InvalidInputError(f"no source {source_id!r}")

    # raw bytes and versions ------------------------------------------------------------------
    def put_blob(self, sha256: str, raw: bytes) -> None:
        """Store raw bytes under their SHA-256 (checked; idempotent)."""
        actual = hashlib.sha256(raw).hexdigest()
        if sha256.lower() != actual:
            raise InvalidInputError(f"blob hash {sha256!r} does not match its bytes ({actual})")
        with self._write("put_blob") as conn:
            self._sql.run(
                conn,
                "INSERT INTO blobs (sha256, size, raw) VALUES (?, ?, ?)"
                " ON CONFLICT (sha256) DO NOTHING",
                (actual, len(raw), bytes(raw)),
            )

    def get_blob(self, sha256: str) -> bytes | None:
        row = self._row("get_blob", "SELECT raw FROM blobs WHERE sha256 = ?", (sha256.lower(),))
        return None if row is None else bytes(row[0])

    def add_version(self, source_id: str, sha256: str, media_type: str) -> tuple[Version, bool]:
        """The version of ``source_id`` with these bytes, and whether it was created now.

        A version created now is the source's current version from then on; finding an earlier
        one changes nothing (:meth:`make_current` makes it current again).
        """
        sha = check_sha256(sha256)
        d = self._sql
        with self._write("add_version") as conn:
            # The source row lock makes concurrent adders of one source number versions in turn.
            if d.one(conn, "SELECT 1 FROM sources WHERE id = ?" + d.row_lock, (source_id,)) is None:
                raise InvalidInputError(f"no source {source_id!r}; upsert it first")
            # Read after the lock (a statement of its own, so it sees a concurrent adder's rows).
            of_source = f"SELECT {VERSION_COLS} FROM versions WHERE source_id = ?"
            known = [Version(*row) for row in d.all(conn, of_source, (source_id,))]
            for found in known:
                if found.sha256 == sha:
                    return found, False
            number = max((v.number for v in known), default=0) + 1
            version = Version(source_id, number, sha, media_type, created_at=now())
            d.run(
                conn,
                f"INSERT INTO versions ({VERSION_COLS}) VALUES (?, ?, ?, ?, ?, '', '', ?)",
                (source_id, version.number, sha, media_type, version.state, version.created_at),
            )
            self._set_current(conn, source_id, version.number, version.created_at)
            return version, True

    def _set_current(self, conn: Any, source_id: str, number: int, at: str) -> None:
        """Record that ``source_id``'s content is version ``number`` from ``at`` on (the caller
        holds the source row lock, so rows of one source are numbered in turn)."""
        self._sql.run(
            conn,
            "INSERT INTO current_versions (source_id, seq, version, created_at)"
            " SELECT ?, coalesce(max(seq), 0) + 1, ?, ? FROM current_versions WHERE source_id = ?",
            (source_id, number, at, source_id),
        )

    def current_version(self, source_id: str) -> Version | None:
        """The version that is the source's content now: the newest one, or an earlier one whose
        bytes came back (:meth:`make_current`); None for a source with no version."""
        row = self._row(
            "current_version",
            f"SELECT {VERSION_COLS} FROM versions WHERE source_id = ? AND number ="
            " (SELECT version FROM current_versions WHERE source_id = ? ORDER BY seq DESC LIMIT 1)",
            (source_id, source_id),
        )
        return None if row is None else Version(*row)

    def current_history(self, source_id: str) -> list[int]:
        """The source's current versions in the order each became current (rows of
        ``current_versions`` by ``seq``)."""
        rows = self._rows(
            "current_history",
            "SELECT version FROM current_versions WHERE source_id = ? ORDER BY seq",
            (source_id,),
        )
        return [int(r[0]) for r in rows]

    def make_current(self, source_id: str, number: int) -> bool:
        """Make version ``number`` the source's content again (its bytes came back): True when
        this call changed the current version, False when it already was current.

        Nothing of any version changes: the change is one more row of the source's history of
        contents, so search and planning read this version's chunks again.
        """
        d = self._sql
        with self._write("make_current") as conn:
            if d.one(conn, "SELECT 1 FROM sources WHERE id = ?" + d.row_lock, (source_id,)) is None:
                raise InvalidInputError(f"no source {source_id!r}")
            exists = "SELECT 1 FROM versions WHERE source_id = ? AND number = ?"
            if d.one(conn, exists, (source_id, number)) is None:
                raise InvalidInputError(f"no version {number} of source {source_id!r}")
            current = d.one(
                conn,
                "SELECT version FROM current_versions WHERE source_id = ?"
                " ORDER BY seq DESC LIMIT 1",
                (source_id,),
            )
            if current is not None and int(current[0]) == number:
                return False
            self._set_current(conn, source_id, number, now())
            return True

    def versions(self, source_id: str) -> list[Version]:
        """All versions of a source, oldest first."""
        rows = self._rows(
            "versions",
            f"SELECT {VERSION_COLS} FROM versions WHERE source_id = ? ORDER BY number",
            (source_id,),
        )
        return [Version(*row) for row in rows]

    def set_version_state(
        self, source_id: str, number: int, state: str, *, reason: str = "", format: str = ""
    ) -> bool:
        """Move a ``pending`` version to ``parsed`` or ``quarantined``, once: True when this call
        moved it.

        Repeating the same move is a no-op (False: the row is read under a lock, so of two
        concurrent moves exactly one is True); any other change of a final state raises
        :class:`StoreError` (versions are immutable once judged).
        """
        if state not in ("parsed", "quarantined"):
            raise InvalidInputError(f"a version moves to 'parsed' or 'quarantined', not {state!r}")
        d = self._sql
        with self._write("set_version_state") as conn:
            row = d.one(
                conn,
                "SELECT state, reason, format FROM versions WHERE source_id = ? AND number = ?"
                + d.row_lock,
                (source_id, number),
            )
            if row is None:
                raise InvalidInputError(f"no version {number} of source {source_id!r}")
            if tuple(row) == (state, reason, format):
                return False
            if row[0] != "pending":
                raise StoreError(
                    f"version {number} of {source_id!r} is already {row[0]}; it cannot change"
                )
            d.run(
                conn,
                "UPDATE versions SET state = ?, reason = ?, format = ?"
                " WHERE source_id = ? AND number = ?",
                (state, reason, format, source_id, number),
            )
            return True

    # sections --------------------------------------------------------------------------------
    def add_sections(self, source_id: str, version: int, sections: Sequence[ParsedSection]) -> None:
        """Store sections in order (ordinals from 0); a key already stored must be identical.

        Raises:
            StoreError: a stored key arrives with a different title or text (never overwritten).
        """
        keys = [section.key for section in sections]
        if len(set(keys)) != len(keys) or not all(keys):
            raise InvalidInputError("section keys must be non-empty and unique within a version")
        d = self._sql
        where = "WHERE source_id = ? AND version = ?"
        with self._write("add_sections") as conn:
            # The version row lock orders concurrent writers of one version's ordinals.
            version_row = "SELECT 1 FROM versions WHERE source_id = ? AND number = ?" + d.row_lock
            if d.one(conn, version_row, (source_id, version)) is None:
                raise InvalidInputError(f"no version {version} of source {source_id!r}")
            columns = "SELECT key, title, text, ordinal FROM sections"
            rows = d.all(conn, f"{columns} {where}", (source_id, version))
            stored = {str(key): (str(title), str(text)) for key, title, text, _ in rows}
            ordinal = max((int(row[3]) + 1 for row in rows), default=0)
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
            d.many(
                conn,
                "INSERT INTO sections (source_id, version, key, title, text, ordinal)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                new,
            )

    def sections(self, source_id: str, version: int) -> list[Section]:
        """The sections of a version in order, erased ranges masked."""
        return self._sections(source_id, version, None)

    def section(self, source_id: str, version: int, key: str) -> Section | None:
        found = self._sections(source_id, version, key)
        return found[0] if found else None

    def _sections(self, source_id: str, version: int, key: str | None) -> list[Section]:
        d = self._sql
        with self._read("sections") as conn:
            rows = d.all(
                conn,
                "SELECT key, title, text, ordinal FROM sections WHERE source_id = ?"
                " AND version = ? AND (CAST(? AS TEXT) IS NULL OR key = ?) ORDER BY ordinal",
                (source_id, version, key, key),
            )
            erased = erased_ranges(d, conn, source_id, version) if rows else {}
        return [
            Section(source_id, version, k, title, mask_text(text, erased.get(k, [])), int(o))
            for k, title, text, o in rows
        ]

    def stats(self) -> dict[str, int]:
        """Row counts: sources, versions, sections, chunks, embeddings, measurements, erasures,
        blobs."""
        tables = (*_TABLES, "blobs")
        counts = ", ".join(f"(SELECT count(*) FROM {table})" for table in tables)
        row = self._row("stats", f"SELECT {counts}")
        return {table: int(n) for table, n in zip(tables, row, strict=True)}
