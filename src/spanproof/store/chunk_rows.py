"""Chunks, vectors, measurements and erasures, written once for both SQL stores (SPEC §3, §7).

Erasures: section text is never rewritten; it is masked on read. A chunk over an erased range is
marked ``erased``, leaves both searches and loses its vectors; its text is served masked. How a
chunk is indexed (``_insert_chunks``, ``_reindex_erased``) and how vectors are stored
(``_check_dim``, ``_insert_vectors``) is each dialect's own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import astuple
from typing import Any, NamedTuple

from spanproof.core.errors import InvalidInputError, StoreError
from spanproof.core.store import Chunk, Erasure, Measurement, Vector
from spanproof.store.sql import (
    Dialect,
    Ranges,
    SqlHooks,
    UnitVector,
    mask_text,
    now,
    overlaps,
    unit_vectors,
)

ERASURE_COLS = "id, source_id, version, section_key, span_start, span_end, reason, created_at"
#: The columns :func:`load_chunks` reads, on the alias ``c`` of ``chunks``.
CHUNK_COLS = (
    "c.id, c.source_id, c.version, c.section_key, c.span_start, c.span_end, c.text, c.erased"
)
SectionRef = tuple[str, int, str]


class NewChunk(NamedTuple):
    """A checked chunk to insert: whether it lies over an erasure, and its text to index."""

    chunk: Chunk
    erased: bool
    indexed: str


def erased_ranges(d: Dialect, conn: Any, source_id: str, version: int) -> dict[str, Ranges]:
    """The erased ranges of a version's sections, by section key."""
    out: dict[str, Ranges] = {}
    for key, start, end in d.all(
        conn,
        "SELECT section_key, span_start, span_end FROM erasures"
        " WHERE source_id = ? AND version = ?",
        (source_id, version),
    ):
        out.setdefault(str(key), []).append((int(start), int(end)))
    return out


def load_chunks(d: Dialect, conn: Any, rows: Iterable[Sequence[Any]]) -> list[Chunk]:
    """Chunks from :data:`CHUNK_COLS` rows, the text of erased ones masked."""
    ranges: dict[tuple[str, int], dict[str, Ranges]] = {}
    out: list[Chunk] = []
    for cid, source_id, version, key, start, end, stored, erased in rows:
        text = stored
        if erased:
            if (source_id, version) not in ranges:
                ranges[source_id, version] = erased_ranges(d, conn, source_id, version)
            text = mask_text(stored, ranges[source_id, version].get(key, []), start)
        out.append(Chunk(cid, source_id, int(version), key, int(start), int(end), text))
    return out


class ChunkStoreMethods(SqlHooks):
    """Chunk, measurement and erasure methods (hooks: :class:`SqlHooks`, plus the two below)."""

    def _insert_chunks(self, conn: Any, rows: Sequence[NewChunk]) -> None:
        """Insert checked chunks and index their ``indexed`` text for keyword search."""
        raise NotImplementedError

    def _reindex_erased(
        self, conn: Any, chunks: Sequence[tuple[str, str]], models: Sequence[str]
    ) -> None:
        """Mark ``(chunk id, masked text)`` erased and index the masked text instead; ``models``
        lost vectors of these chunks."""
        raise NotImplementedError

    def _check_dim(self, conn: Any, model_id: str, dim: int) -> None:
        """Refuse ``dim`` unless it is the dimension of ``model_id``'s stored vectors."""
        raise NotImplementedError

    def _insert_vectors(
        self, conn: Any, model_id: str, rows: Sequence[tuple[str, UnitVector]]
    ) -> None:
        """Insert or replace unit vectors of (not erased) chunks under ``model_id``."""
        raise NotImplementedError

    def put_embeddings(self, model_id: str, items: Sequence[tuple[str, Vector]]) -> None:
        """Store vectors (normalised to unit length) for chunk ids under a model (idempotent).

        Vectors of erased chunks are dropped; all vectors of one model share one dimension.
        """
        prepared = unit_vectors(model_id, items)
        if not prepared:
            return
        d = self._sql
        with self._write("put_embeddings") as conn:
            self._check_dim(conn, model_id, int(prepared[0][1].shape[0]))
            erased = {
                str(cid): bool(flag)
                for cid, flag in d.where_in(
                    conn, "SELECT id, erased FROM chunks WHERE id IN {in}", [c for c, _ in prepared]
                )
            }
            for cid, _ in prepared:
                if cid not in erased:
                    raise InvalidInputError(f"no chunk {cid!r}")
            # An erased chunk's vector would keep erased text findable: never stored.
            self._insert_vectors(conn, model_id, [(c, v) for c, v in prepared if not erased[c]])

    def _unindex_erased(self, conn: Any, ref: SectionRef, start: int, end: int) -> None:
        """Chunks over a new erasure: re-indexed with masked text, and their vectors deleted."""
        d = self._sql
        hit = d.all(
            conn,
            "SELECT id, span_start, text FROM chunks WHERE source_id = ? AND version = ?"
            " AND section_key = ? AND span_start < ? AND span_end > ?",
            (*ref, end, start),
        )
        if not hit:
            return
        ranges = erased_ranges(d, conn, ref[0], ref[1]).get(ref[2], [])
        ids = [str(row[0]) for row in hit]
        in_ids = "FROM embeddings WHERE chunk_id IN {in}"
        models = sorted({str(row[0]) for row in d.where_in(conn, "SELECT model_id " + in_ids, ids)})
        list(d.where_in(conn, "DELETE " + in_ids, ids))
        masked = [(str(cid), mask_text(str(text), ranges, int(pos))) for cid, pos, text in hit]
        self._reindex_erased(conn, masked, models)

    def _section_texts(
        self, conn: Any, refs: Iterable[SectionRef]
    ) -> tuple[dict[SectionRef, str], dict[SectionRef, Ranges]]:
        """The stored text and erased ranges of the sections of the versions ``refs`` name."""
        texts: dict[SectionRef, str] = {}
        masks: dict[SectionRef, Ranges] = {}
        for source_id, version in sorted({(ref[0], ref[1]) for ref in refs}):
            # One row a section and erasure of it (a section with none: one row, NULL offsets).
            for key, text, start, end in self._sql.all(
                conn,
                "SELECT s.key, s.text, e.span_start, e.span_end FROM sections s"
                " LEFT JOIN erasures e ON e.source_id = s.source_id AND e.version = s.version"
                " AND e.section_key = s.key WHERE s.source_id = ? AND s.version = ?",
                (source_id, version),
            ):
                ref = (source_id, version, str(key))
                texts[ref] = str(text)
                if start is not None:
                    masks.setdefault(ref, []).append((int(start), int(end)))
        return texts, masks

    # chunks ----------------------------------------------------------------------------------
    def _load(self, action: str, sql: str, params: Sequence[Any]) -> list[Chunk]:
        """The chunks one read statement selects (:data:`CHUNK_COLS`), in its order."""
        with self._read(action) as conn:
            return load_chunks(self._sql, conn, self._sql.all(conn, sql, params))

    def add_chunks(self, chunks: Sequence[Chunk]) -> None:
        """Store chunks and index them for keyword search (idempotent by id).

        Each chunk must lie in a stored section with ``text == section.text[start:end]``; an id
        already stored with different content raises :class:`StoreError`.
        """
        if not chunks:
            return
        d = self._sql
        with self._write("add_chunks") as conn:
            texts, masks = self._section_texts(
                conn, {(c.source_id, c.version, c.section_key) for c in chunks}
            )
            stored = {
                str(row[0]): tuple(row)
                for row in d.where_in(
                    conn,
                    f"SELECT {CHUNK_COLS} FROM chunks c WHERE c.id IN {{in}}",
                    [c.id for c in chunks],
                )
            }
            new: dict[str, NewChunk] = {}
            for c in chunks:
                ref = (c.source_id, c.version, c.section_key)
                ranges = masks.get(ref, [])
                masked = mask_text(c.text, ranges, c.start)
                old = stored.get(c.id)
                if old is not None:
                    if old[1:6] != (*ref, c.start, c.end) or old[6] not in (c.text, masked):
                        raise StoreError(f"chunk {c.id!r} is already stored with different content")
                    continue
                text = texts.get(ref)
                if text is None:
                    raise InvalidInputError(f"chunk {c.id!r}: no section {ref}")
                if not 0 <= c.start <= c.end <= len(text) or text[c.start : c.end] != c.text:
                    raise InvalidInputError(
                        f"chunk {c.id!r}: text is not section {ref}[{c.start}:{c.end}]"
                    )
                erased = overlaps(ranges, c.start, c.end)
                new[c.id] = NewChunk(c, erased, masked if erased else c.text)
                stored[c.id] = (c.id, *ref, c.start, c.end, c.text)
            self._insert_chunks(conn, list(new.values()))

    def chunks(self, source_id: str, version: int | None = None) -> list[Chunk]:
        """Chunks of a source (or of one version), by version, section order and offset."""
        return self._load(
            "chunks",
            f"SELECT {CHUNK_COLS} FROM chunks c JOIN sections s ON s.source_id = c.source_id"
            " AND s.version = c.version AND s.key = c.section_key WHERE c.source_id = ?"
            " AND (CAST(? AS INTEGER) IS NULL OR c.version = ?)"
            " ORDER BY c.version, s.ordinal, c.span_start, c.id",
            (source_id, version, version),
        )

    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        """Chunks by id, in the order asked; unknown ids are skipped."""
        d = self._sql
        with self._read("get_chunks") as conn:
            rows = d.where_in(conn, f"SELECT {CHUNK_COLS} FROM chunks c WHERE c.id IN {{in}}", ids)
            found = {chunk.id: chunk for chunk in load_chunks(d, conn, list(rows))}
        return [found[cid] for cid in ids if cid in found]

    def chunks_missing_embedding(self, model_id: str, limit: int) -> list[Chunk]:
        """Chunks with no vector under ``model_id``, by id; erased chunks never need one."""
        if limit <= 0:
            return []
        return self._load(
            "chunks_missing_embedding",
            f"SELECT {CHUNK_COLS} FROM chunks c WHERE NOT c.erased AND NOT EXISTS"
            " (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.chunk_id = c.id)"
            " ORDER BY c.id LIMIT ?",
            (model_id, limit),
        )

    # measurements and erasures ---------------------------------------------------------------
    def add_measurements(self, items: Sequence[Measurement]) -> None:
        """Store measurements (idempotent); each must lie inside a stored section."""
        if not items:
            return
        with self._write("add_measurements") as conn:
            texts, _ = self._section_texts(
                conn, {(m.source_id, m.version, m.section_key) for m in items}
            )
            for m in items:
                ref = (m.source_id, m.version, m.section_key)
                if ref not in texts:
                    raise InvalidInputError(f"measurement {m.quotation!r}: no section {ref}")
                if not 0 <= m.start <= m.end <= len(texts[ref]) or not math.isfinite(m.value):
                    raise InvalidInputError(f"measurement {m.quotation!r}: bad offsets or value")
            self._sql.many(
                conn,
                "INSERT INTO measurements (source_id, version, section_key, span_start, span_end,"
                " value, unit, quotation) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [astuple(m) for m in items],
            )

    def measurements(self, source_id: str, version: int | None = None) -> list[Measurement]:
        """Measurements in section order; those overlapping an erased range are not served."""
        rows = self._rows(
            "measurements",
            "SELECT m.source_id, m.version, m.section_key, m.span_start, m.span_end, m.value,"
            " m.unit, m.quotation FROM measurements m JOIN sections s"
            " ON s.source_id = m.source_id AND s.version = m.version AND s.key = m.section_key"
            " WHERE m.source_id = ? AND (CAST(? AS INTEGER) IS NULL OR m.version = ?)"
            " AND NOT EXISTS (SELECT 1 FROM erasures e WHERE e.source_id = m.source_id"
            " AND e.version = m.version AND e.section_key = m.section_key"
            " AND e.span_start < m.span_end AND m.span_start < e.span_end)"
            " ORDER BY m.version, s.ordinal, m.span_start, m.span_end, m.unit, m.value",
            (source_id, version, version),
        )
        return [
            Measurement(str(r[0]), int(r[1]), str(r[2]), int(r[3]), int(r[4]), float(r[5]), *r[6:])
            for r in rows
        ]

    def add_erasure(
        self, source_id: str, version: int, section_key: str, start: int, end: int, reason: str
    ) -> Erasure:
        """Mask ``[start, end)`` of a section: not served, not searchable, not resolvable.

        Chunks over the range are re-indexed with masked text and lose their vectors. Erasing
        the same range again returns the first erasure.
        """
        ref = (source_id, version, section_key)
        d = self._sql
        same = (
            f"SELECT {ERASURE_COLS} FROM erasures WHERE source_id = ? AND version = ?"
            " AND section_key = ? AND span_start = ? AND span_end = ?"
        )
        with self._write("add_erasure") as conn:
            row = d.one(
                conn,
                "SELECT length(text) FROM sections WHERE source_id = ? AND version = ? AND key = ?",
                ref,
            )
            if row is None:
                raise InvalidInputError(f"no section {ref}")
            if not 0 <= start < end <= int(row[0]):
                raise InvalidInputError(
                    f"erasure [{start}, {end}) is not a non-empty range of {ref} (length {row[0]})"
                )
            found = d.one(conn, same, (*ref, start, end))
            if found is not None:
                return Erasure(*found)
            created = d.all(
                conn,
                "INSERT INTO erasures (source_id, version, section_key, span_start, span_end,"
                " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
                f" RETURNING {ERASURE_COLS}",
                (*ref, start, end, reason, now()),
            )
            if not created:  # a concurrent writer erased the same range first: that one stands
                return Erasure(*d.one(conn, same, (*ref, start, end)))
            self._unindex_erased(conn, ref, start, end)
        return Erasure(*created[0])

    def erasures(self, source_id: str, version: int | None = None) -> list[Erasure]:
        """Erasures of a source (or one version), oldest first."""
        rows = self._rows(
            "erasures",
            f"SELECT {ERASURE_COLS} FROM erasures WHERE source_id = ?"
            " AND (CAST(? AS INTEGER) IS NULL OR version = ?) ORDER BY id",
            (source_id, version, version),
        )
        return [Erasure(*row) for row in rows]
