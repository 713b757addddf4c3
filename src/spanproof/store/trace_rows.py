"""Trace and record rows, written once for both SQL stores.

:meth:`TraceStoreMethods.append` takes the dialect's write lock (``_lock_traces``), reads the last
row's ``seq`` and ``hash``, seals the trace after it and inserts its row; reading parses
``body`` (the canonical JSON that was hashed) back. The other columns of ``traces`` and
``records`` are copies of fields of ``body``, for lookups and ordering only.
"""

from __future__ import annotations

import re
from typing import Any

from spanproof.core.errors import InvalidInputError, StoreError
from spanproof.core.record_store import (
    attempt_from_json,
    attempt_json,
    record_from_json,
    record_json,
)
from spanproof.core.records import Attempt, Record
from spanproof.core.trace import GENESIS, Trace, canonical_json
from spanproof.store.sql import SqlHooks, check_page, now

#: The columns of the ``traces`` table.
TRACE_COLUMNS = "seq, id, hash, prev_hash, kind, created_at, body"


def read_trace(seq: int, body: str) -> Trace:
    """The trace stored in ``body`` (row ``seq``).

    Raises:
        StoreError: the stored text is not a trace (not JSON, or fields missing or unknown):
            the row was damaged outside spanproof.
    """
    try:
        return Trace.from_json(body)
    except (TypeError, ValueError) as exc:  # JSONDecodeError is a ValueError
        raise StoreError(f"trace at seq {seq} is corrupt (its body is not a trace): {exc}") from exc


class TraceStoreMethods(SqlHooks):
    """The trace and record methods (hooks: :class:`SqlHooks`)."""

    def _lock_traces(self, conn: Any) -> None:
        """Make concurrent appends queue behind this transaction (SQLite's write lock does)."""

    # traces ----------------------------------------------------------------------------------
    def append(self, trace: Trace) -> Trace:
        """Seal ``trace`` after the last one and store it, under the store's write lock, so
        appends from other threads or processes queue behind this one and the chain cannot
        fork. Returns the trace as :meth:`get_trace` will read it back.

        ``created_at`` is kept when the caller set it (the time of the judgement), else now.

        Raises:
            InvalidInputError: the trace holds something canonical JSON cannot carry (NaN,
                infinity, a non-JSON type, a lone surrogate).
        """
        d = self._sql
        with self._write("append trace") as conn:
            self._lock_traces(conn)
            last = d.one(conn, "SELECT seq, hash FROM traces ORDER BY seq DESC LIMIT 1")
            seq, prev_hash = (1, GENESIS) if last is None else (int(last[0]) + 1, str(last[1]))
            created_at = trace.created_at or now()
            try:
                sealed = trace.sealed(seq=seq, prev_hash=prev_hash, created_at=created_at)
                body = sealed.to_json()
                body.encode("utf-8")
            except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
                raise InvalidInputError(
                    f"the trace cannot be serialised as canonical JSON: {exc}"
                ) from exc
            # Read back from the stored text, so the caller gets exactly what get_trace() returns.
            stored = Trace.from_json(body)
            row = (seq, sealed.id, sealed.hash, prev_hash, sealed.kind, sealed.created_at, body)
            d.run(conn, f"INSERT INTO traces ({TRACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        return stored

    def get_trace(self, trace_id: str) -> Trace | None:
        row = self._row("get trace", "SELECT seq, body FROM traces WHERE id = ?", (trace_id,))
        return None if row is None else read_trace(int(row[0]), str(row[1]))

    def list_traces(self, *, limit: int = 50, offset: int = 0) -> list[Trace]:
        """Traces newest first, one page at a time."""
        limit, offset = check_page(limit, offset)
        rows = self._rows(
            "list traces",
            "SELECT seq, body FROM traces ORDER BY seq DESC LIMIT ? OFFSET ?",
            (limit, offset),
        )
        return [read_trace(int(seq), str(body)) for seq, body in rows]

    def chain(self) -> list[Trace]:
        """Every trace in ``seq`` order (one statement, so one snapshot)."""
        rows = self._rows("read trace chain", "SELECT seq, body FROM traces ORDER BY seq")
        return [read_trace(int(seq), str(body)) for seq, body in rows]

    def traces_citing(self, source_id: str) -> list[Trace]:
        """Every trace whose stored JSON holds ``"source_id":"<source_id>"``, in ``seq`` order."""
        needle = canonical_json({"source_id": source_id})[1:-1]
        pattern = "%" + re.sub(r"([!%_])", r"!\1", needle) + "%"
        rows = self._rows(
            "read traces citing a source",
            "SELECT seq, body FROM traces WHERE body LIKE ? ESCAPE '!' ORDER BY seq",
            (pattern,),
        )
        return [read_trace(int(seq), str(body)) for seq, body in rows]

    def store_erased(self, trace: Trace) -> None:
        """Store an erasure's masking of a trace in place of its text (same id, seq, hash)."""
        body = trace.to_json()
        with self._write("store erased trace") as conn:
            changed = self._sql.all(
                conn,
                "UPDATE traces SET body = ? WHERE id = ? AND seq = ? AND hash = ? RETURNING seq",
                (body, trace.id, trace.seq, trace.hash),
            )
            if not changed:
                raise InvalidInputError(
                    f"no trace {trace.id!r} at seq {trace.seq} with hash {trace.hash[:12]}…"
                )

    # records ---------------------------------------------------------------------------------
    def put_record(self, record: Record) -> None:
        """Insert ``record`` or replace the current state of the record with its id."""
        body = record_json(record)
        with self._write("put record") as conn:
            self._sql.run(
                conn,
                "INSERT INTO records (id, source_id, version, status, body) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET source_id = excluded.source_id,"
                " version = excluded.version, status = excluded.status, body = excluded.body",
                (record.id, record.source_id, record.version, record.status, body),
            )

    def get_record(self, record_id: str) -> Record | None:
        row = self._row("get record", "SELECT body FROM records WHERE id = ?", (record_id,))
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
        limit, offset = check_page(limit, offset)
        rows = self._rows(
            "list records",
            "SELECT id, body FROM records WHERE (CAST(? AS TEXT) IS NULL OR status = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR source_id = ?) ORDER BY id LIMIT ? OFFSET ?",
            (status, status, source_id, source_id, limit, offset),
        )
        return [record_from_json(str(rid), str(body)) for rid, body in rows]

    def add_attempt(self, record_id: str, attempt: Attempt) -> None:
        """Append ``attempt`` to the record; attempts are never changed or deleted."""
        body = attempt_json(attempt)
        d = self._sql
        with self._write("add attempt") as conn:
            if d.one(conn, "SELECT 1 FROM records WHERE id = ?" + d.row_lock, (record_id,)) is None:
                raise InvalidInputError(f"no record {record_id!r}")
            taken = d.one(
                conn,
                "SELECT 1 FROM attempts WHERE record_id = ? AND number = ?",
                (record_id, attempt.number),
            )
            if taken is not None:
                raise InvalidInputError(
                    f"record {record_id!r} already has attempt {attempt.number}"
                )
            d.run(
                conn,
                "INSERT INTO attempts (record_id, number, body) VALUES (?, ?, ?)",
                (record_id, attempt.number, body),
            )

    def store_erased_attempt(self, record_id: str, attempt: Attempt) -> None:
        """Store an erasure's masking of an attempt in place of it (same record and number)."""
        with self._write("store erased attempt") as conn:
            changed = self._sql.all(
                conn,
                "UPDATE attempts SET body = ? WHERE record_id = ? AND number = ? RETURNING number",
                (attempt_json(attempt), record_id, attempt.number),
            )
            if not changed:
                raise InvalidInputError(f"record {record_id!r} has no attempt {attempt.number}")

    def attempts(self, record_id: str) -> list[Attempt]:
        rows = self._rows(
            "list attempts",
            "SELECT number, body FROM attempts WHERE record_id = ? ORDER BY number",
            (record_id,),
        )
        return [attempt_from_json(record_id, int(n), str(body)) for n, body in rows]
