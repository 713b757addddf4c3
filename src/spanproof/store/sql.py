"""What both SQL stores share below the store classes: the dialect, validation and row helpers.

A :class:`Dialect` runs statements written once, in SQLite's spelling (``?`` placeholders,
``span_start``/``span_end``/``erased`` columns), on either driver: for psycopg it rewrites the
placeholders and the three column names the PostgreSQL schema spells differently, once per
statement text (cached). Nothing here opens a connection or a transaction; callers pass a
connection inside their own transaction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

import numpy as np

from spanproof.core.errors import InvalidInputError
from spanproof.core.store import MASK, SOURCE_STATUSES, SearchFilter, Vector

#: Values per ``IN (...)`` list or multi-row INSERT (well under SQLite's variable limit).
BATCH = 500
Ranges = list[tuple[int, int]]
UnitVector = np.ndarray[Any, np.dtype[np.float32]]


@dataclass(frozen=True, eq=False)
class Dialect:
    """How one database spells the shared statements and the shared tables (SQLite's defaults).

    Args:
        placeholder: the driver's parameter marker (``?`` for sqlite3, ``%s`` for psycopg).
        renames: column names the schema spells differently from the shared statements.
        row_lock: appended to a SELECT that reads a row the transaction then writes (``FOR NO
            KEY UPDATE`` on PostgreSQL; SQLite's write transaction already excludes writers).
        walk_lock: the same for the impact walk row (``FOR UPDATE`` on PostgreSQL).
        postgres: whether this is PostgreSQL, for the few things only it has (lists bound as
            arrays rather than JSON text; some checks in the schema).
        text, integer, bigint, blob: column types in the shared DDL
            (:mod:`spanproof.store.migration_ddl`).
        serial_key: an integer primary key whose values the database assigns.
        without_rowid: the clause that stores a table in its primary key's order.
    """

    placeholder: str = "?"
    renames: dict[str, str] = field(default_factory=dict)
    row_lock: str = ""
    walk_lock: str = ""
    postgres: bool = False
    text: str = "TEXT"
    integer: str = "INTEGER"
    bigint: str = "INTEGER"
    blob: str = "BLOB"
    serial_key: str = "INTEGER PRIMARY KEY"
    without_rowid: str = " WITHOUT ROWID"
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def hex64(self, column: str) -> str:
        """The check that ``column`` is a lowercase hex SHA-256 (PostgreSQL schema only)."""
        return f" CHECK ({column} ~ '^[0-9a-f]{{64}}$')" if self.postgres else ""

    def q(self, sql: str) -> str:
        """``sql`` in this dialect's spelling."""
        done = self._cache.get(sql)
        if done is None:
            done = sql if self.placeholder == "?" else sql.replace("?", self.placeholder)
            if self.renames:
                pattern = r"\b(" + "|".join(map(re.escape, self.renames)) + r")\b"
                done = re.sub(pattern, lambda m: self.renames[m.group(1)], done)
            if len(sql) < 2000:  # multi-row INSERTs vary in length: not worth keeping
                self._cache[sql] = done
        return done

    def run(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> Any:
        """Execute one statement and return the cursor."""
        check_no_nul(params)
        return conn.execute(self.q(sql), tuple(params))

    def one(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of one statement, or None."""
        return self.run(conn, sql, params).fetchone()

    def all(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of one statement."""
        return list(self.run(conn, sql, params).fetchall())

    def many(self, conn: Any, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Execute one statement for each of ``rows``."""
        if rows:
            for row in rows:
                check_no_nul(row)
            with closing(conn.cursor()) as cur:
                cur.executemany(self.q(sql), rows)

    def one_of(self, column: str, values: Sequence[str]) -> tuple[str, Any]:
        """The condition that ``column`` is one of ``values``, bound as one parameter (so any
        number of them), and that parameter."""
        if self.postgres:
            return f"{column} = ANY(CAST(? AS TEXT[]))", list(values)
        return f"{column} IN (SELECT value FROM json_each(?))", json.dumps(list(values))

    def where_in(self, conn: Any, sql: str, values: Sequence[Any]) -> Iterator[Any]:
        """Rows of ``sql`` whose ``{in}`` becomes a list of ``values`` (run in batches, lazily:
        iterate to run them all)."""
        for start in range(0, len(values), BATCH):
            part = list(values[start : start + BATCH])
            marks = "(" + ", ".join("?" * len(part)) + ")"
            cur = self.run(conn, sql.replace("{in}", marks), part)
            if cur.description is not None:  # a statement without rows has nothing to fetch
                yield from cur.fetchall()


def check_no_nul(params: Iterable[Any]) -> None:
    """Raises InvalidInputError for a text parameter with a NUL character.

    PostgreSQL can neither store nor compare such text; refusing it on both dialects keeps them
    alike (SQLite stored a title or id with NUL and looked one up as unknown, where PostgreSQL
    failed with its driver's message). Nothing a store holds has NUL: parsed text with NUL is
    quarantined, and JSON bodies escape it.
    """
    for value in params:
        if isinstance(value, list | tuple):
            check_no_nul(value)
        elif isinstance(value, str) and "\x00" in value:
            raise InvalidInputError(f"text with a NUL character (\\x00): {value[:80]!r}")


SQLITE = Dialect()
POSTGRES = Dialect(
    placeholder="%s",
    renames={"span_start": "start_pos", "span_end": "end_pos", "erased": "masked"},
    row_lock=" FOR NO KEY UPDATE",
    walk_lock=" FOR UPDATE",
    postgres=True,
    text="text",
    integer="integer",
    bigint="bigint",
    blob="bytea",
    serial_key="bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    without_rowid="",
)


class Where(NamedTuple):
    """A search filter as one SQL condition on ``c`` (chunks) and ``s`` (sources)."""

    condition: str
    params: list[Any]
    #: Whether it keeps only chunks of given sources (then filtering first is cheap).
    by_source: bool


def search_filter(d: Dialect, flt: SearchFilter) -> Where | None:
    """``flt`` as a :class:`Where` (shared spelling, lists bound ``d``'s way); None when nothing
    can match.

    Eligibility (SPEC §3.6): the source is active, and the chunk belongs to the source's current
    version (its newest, or an earlier one whose bytes came back), which is parsed.
    """
    clauses: list[str] = []
    params: list[Any] = []
    for column, values in (("c.source_id", flt.source_ids), ("s.status", flt.statuses)):
        if values is not None:
            if not values:
                return None
            check_no_nul(values)  # SQLite binds them as JSON text, where NUL is escaped
            clause, param = d.one_of(column, values)
            clauses.append(clause)
            params.append(param)
    if flt.eligible_only:
        clauses.append(
            "s.status = 'active'"
            " AND EXISTS (SELECT 1 FROM versions v WHERE v.source_id = c.source_id"
            " AND v.number = c.version AND v.state = 'parsed')"
            " AND c.version = (SELECT h.version FROM current_versions h"
            " WHERE h.source_id = c.source_id ORDER BY h.seq DESC LIMIT 1)"
        )
    condition = " AND ".join(f"({clause})" for clause in clauses) or "TRUE"
    return Where(condition, params, flt.source_ids is not None)


class SqlHooks:
    """What a store class gives the shared methods: ``_sql`` (its :class:`Dialect`),
    ``_write(action)`` (a context manager yielding a connection inside a write transaction,
    nested ones being savepoints) and ``_read(action)`` (one yielding a connection for reads,
    the enclosing transaction's when there is one); it gets ``_rows`` and ``_row`` for one-statement
    reads."""

    _sql: Dialect

    def _write(self, action: str) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _read(self, action: str) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _rows(self, action: str, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of one read statement (run inside ``_read(action)``)."""
        with self._read(action) as conn:
            return self._sql.all(conn, sql, params)

    def _row(self, action: str, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of one read statement (run inside ``_read(action)``), or None."""
        with self._read(action) as conn:
            return self._sql.one(conn, sql, params)


def now() -> str:
    """The current UTC time as the stores write it (``YYYY-MM-DDTHH:MM:SS.ffffffZ``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def external_id(kind: str, value: str) -> tuple[str, str]:
    """External ids are compared with lowercase kinds, trimmed values, and DOIs lowercased."""
    kind = kind.strip().lower()
    value = value.strip()
    return kind, value.lower() if kind == "doi" else value


def check_status(status: str) -> None:
    if status not in SOURCE_STATUSES:
        raise InvalidInputError(
            f"unknown source status {status!r}; use one of {', '.join(SOURCE_STATUSES)}"
        )


#: The largest integer both drivers bind (SQLite's INTEGER, PostgreSQL's bigint).
MAX_SQL_INT = 2**63 - 1


def check_page(limit: int, offset: int = 0) -> tuple[int, int]:
    """``limit`` and ``offset`` as bound to ``LIMIT ? OFFSET ?``: never negative, and at most
    :data:`MAX_SQL_INT` (no table holds more rows), so a larger one reads as that many on both
    dialects rather than failing differently on each driver."""
    if limit < 0 or offset < 0:
        raise InvalidInputError("limit and offset must not be negative")
    return min(limit, MAX_SQL_INT), min(offset, MAX_SQL_INT)


def check_sha256(sha256: str) -> str:
    """``sha256`` lowercased, when it is a SHA-256 hex digest."""
    sha = sha256.lower()
    if len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha):
        raise InvalidInputError(f"not a SHA-256 hex digest: {sha256!r}")
    return sha


def unit_vector(vector: Vector) -> UnitVector:
    """``vector`` as contiguous float32 of unit length (a zero vector stays zero)."""
    arr = np.asarray(vector, dtype=np.float32)
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidInputError(f"a vector must be one-dimensional and non-empty, not {arr.shape}")
    if not bool(np.isfinite(arr).all()):
        raise InvalidInputError("a vector contains NaN or infinity")
    norm = float(np.linalg.norm(arr))
    return np.ascontiguousarray(arr / norm if norm > 0 else arr, dtype=np.float32)


def unit_vectors(
    model_id: str, items: Sequence[tuple[str, Vector]]
) -> list[tuple[str, UnitVector]]:
    """``items`` with unit vectors, all of one dimension."""
    prepared = [(chunk_id, unit_vector(vector)) for chunk_id, vector in items]
    dims = sorted({vector.shape[0] for _, vector in prepared})
    if len(dims) > 1:
        raise InvalidInputError(
            f"vectors of model {model_id!r} must all have one dimension (given: {dims})"
        )
    return prepared


def clean_text(text: str) -> str:
    """``text`` without NUL and lone surrogates, which no backend can bind or index."""
    return text.replace("\x00", " ").encode("utf-8", "ignore").decode("utf-8")


def mask_text(text: str, ranges: Iterable[tuple[int, int]], offset: int = 0) -> str:
    """``text`` with every character inside ``ranges`` replaced by :data:`MASK`.

    ``ranges`` are offsets into the section; ``text`` starts at ``offset`` in that section, so a
    chunk is masked with its section's erasures. Lengths never change; masking is idempotent.
    """
    chars: list[str] | None = None
    for start, end in ranges:
        first, last = max(start - offset, 0), min(end - offset, len(text))
        if first < last:
            chars = list(text) if chars is None else chars
            chars[first:last] = MASK * (last - first)
    return text if chars is None else "".join(chars)


def overlaps(ranges: Iterable[tuple[int, int]], start: int, end: int) -> bool:
    """Whether any range shares a character with ``[start, end)``."""
    return any(r_start < end and start < r_end for r_start, r_end in ranges)
