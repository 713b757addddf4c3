"""Artifacts, edges, flags and impact walks in SQL, written once for SQLite and PostgreSQL.

Both backends run the same statements (``?`` placeholders are rewritten for psycopg): the
tables differ only in their DDL (see each backend's migration 0004). Every method takes an open
connection inside the caller's transaction; the caller owns commit and rollback, so a walk step's
flags, frontier rows and cursor commit together or not at all.

The walk keeps its frontier in ``impact_frontier`` (one row per ref reached, unique per walk, in
arrival order) and its position in ``impact_walks`` (``node_seq``: the frontier row being
expanded; ``edge_cursor``: the last ``to_ref`` followed from it). A step follows at most
``batch`` edges, so memory stays bounded however large the graph is: a large store takes more
steps, not longer ones.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from spanproof.core.artifacts import (
    Artifact,
    ArtifactVersion,
    Edge,
    Flag,
    Walk,
    WalkStep,
)
from spanproof.core.errors import InvalidInputError, StoreError
from spanproof.core.graph_store import MAX_WALK_BATCH
from spanproof.core.trace import canonical_json

_WALK_COLUMNS = "id, changed_ref, reason, status, steps, edges, flags, started_at, finished_at"
_FLAG_COLUMNS = "ref, changed_ref, reason, walk_id, created_at"
_VERSION_COLUMNS = "artifact_id, number, body, depends_on, created_at, approved_by, approved_at"
#: Rows per multi-row INSERT (4 parameters each, well under SQLite's variable limit).
_INSERT_ROWS = 500


def _page(limit: int, offset: int = 0) -> None:
    if limit < 0 or offset < 0:
        raise InvalidInputError("limit and offset must not be negative")


def _walk(row: Sequence[Any]) -> Walk:
    return Walk(
        id=str(row[0]),
        changed_ref=str(row[1]),
        reason=str(row[2]),
        status=str(row[3]),
        steps=int(row[4]),
        edges=int(row[5]),
        flags=int(row[6]),
        started_at=str(row[7]),
        finished_at=str(row[8]),
    )


def _flag(row: Sequence[Any]) -> Flag:
    return Flag(str(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]))


def _version(row: Sequence[Any]) -> ArtifactVersion:
    key = f"{row[0]}#{row[1]}"
    try:
        body = json.loads(str(row[2]))
        depends_on = json.loads(str(row[3]))
    except ValueError as exc:
        raise StoreError(f"artifact version {key} is corrupt: {exc}") from exc
    if not isinstance(body, dict) or not isinstance(depends_on, list):
        raise StoreError(f"artifact version {key} is corrupt (wrong JSON types)")
    return ArtifactVersion(
        artifact_id=str(row[0]),
        number=int(row[1]),
        body=body,
        depends_on=tuple(str(r) for r in depends_on),
        created_at=str(row[4]),
        approved_by=str(row[5]),
        approved_at=str(row[6]),
    )


class GraphSql:
    """The graph statements for one SQL dialect.

    Args:
        placeholder: the driver's parameter marker (``?`` for sqlite3, ``%s`` for psycopg).
        lock_suffix: appended to the walk row's SELECT in a step (``FOR UPDATE`` on
            PostgreSQL, so two workers never expand one walk at once; SQLite's write
            transaction already excludes them).
    """

    def __init__(self, placeholder: str, lock_suffix: str = "") -> None:
        self._ph = placeholder
        self._lock = lock_suffix

    def _q(self, sql: str) -> str:
        return sql if self._ph == "?" else sql.replace("?", self._ph)

    def _run(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> Any:
        return conn.execute(self._q(sql), tuple(params))

    def _insert_many(
        self, conn: Any, head: str, rows: Sequence[Sequence[Any]], tail: str = ""
    ) -> int:
        """Multi-row INSERT ``head VALUES (...), ... tail``; returns rows inserted."""
        added = 0
        for start in range(0, len(rows), _INSERT_ROWS):
            part = rows[start : start + _INSERT_ROWS]
            marks = ", ".join("(" + ", ".join("?" * len(r)) + ")" for r in part)
            params = [v for r in part for v in r]
            cur = self._run(conn, f"{head} VALUES {marks} {tail}", params)
            added += max(int(cur.rowcount), 0)
        return added

    # artifacts ---------------------------------------------------------------------------------
    def create_artifact(self, conn: Any, artifact: Artifact) -> None:
        taken = self._run(conn, "SELECT 1 FROM artifacts WHERE id = ?", (artifact.id,)).fetchone()
        if taken is not None:
            raise InvalidInputError(f"artifact {artifact.id!r} exists")
        self._run(
            conn,
            "INSERT INTO artifacts (id, kind, title, created_at) VALUES (?, ?, ?, ?)",
            (artifact.id, artifact.kind, artifact.title, artifact.created_at),
        )

    def get_artifact(self, conn: Any, artifact_id: str) -> Artifact | None:
        row = self._run(
            conn, "SELECT id, kind, title, created_at FROM artifacts WHERE id = ?", (artifact_id,)
        ).fetchone()
        return None if row is None else Artifact(str(row[0]), str(row[1]), str(row[2]), str(row[3]))

    def list_artifacts(
        self, conn: Any, kind: str | None, limit: int, offset: int
    ) -> list[Artifact]:
        _page(limit, offset)
        rows = self._run(
            conn,
            "SELECT id, kind, title, created_at FROM artifacts"
            " WHERE (CAST(? AS TEXT) IS NULL OR kind = ?) ORDER BY id LIMIT ? OFFSET ?",
            (kind, kind, limit, offset),
        ).fetchall()
        return [Artifact(str(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in rows]

    def add_artifact_version(self, conn: Any, version: ArtifactVersion, kind_ref: str) -> None:
        if version.approved:
            raise InvalidInputError("a new version is a draft; approve it afterwards")
        found = self._run(
            conn, "SELECT 1 FROM artifacts WHERE id = ?", (version.artifact_id,)
        ).fetchone()
        if found is None:
            raise InvalidInputError(f"unknown artifact {version.artifact_id!r}")
        row = self._run(
            conn,
            "SELECT COALESCE(MAX(number), 0) FROM artifact_versions WHERE artifact_id = ?",
            (version.artifact_id,),
        ).fetchone()
        expected = int(row[0]) + 1
        if version.number != expected:
            raise InvalidInputError(
                f"artifact {version.artifact_id!r}: the next version is {expected}, "
                f"not {version.number}"
            )
        self._run(
            conn,
            f"INSERT INTO artifact_versions ({_VERSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, '', '')",
            (
                version.artifact_id,
                version.number,
                canonical_json(version.body),
                canonical_json(list(version.depends_on)),
                version.created_at,
            ),
        )
        self.add_edges(conn, [Edge(ref, kind_ref) for ref in version.depends_on])

    def artifact_versions(self, conn: Any, artifact_id: str) -> list[ArtifactVersion]:
        rows = self._run(
            conn,
            f"SELECT {_VERSION_COLUMNS} FROM artifact_versions WHERE artifact_id = ?"
            " ORDER BY number",
            (artifact_id,),
        ).fetchall()
        return [_version(r) for r in rows]

    def approve_artifact_version(
        self, conn: Any, artifact_id: str, number: int, approver: str, at: str
    ) -> ArtifactVersion:
        if not approver.strip():
            raise InvalidInputError("an approval needs the approver's name")
        row = self._run(
            conn,
            f"SELECT {_VERSION_COLUMNS} FROM artifact_versions"
            " WHERE artifact_id = ? AND number = ?",
            (artifact_id, number),
        ).fetchone()
        if row is None:
            raise InvalidInputError(f"artifact {artifact_id!r} has no version {number}")
        if _version(row).approved:
            raise InvalidInputError(f"artifact {artifact_id!r} version {number} is approved")
        self._run(
            conn,
            "UPDATE artifact_versions SET approved_by = ?, approved_at = ?"
            " WHERE artifact_id = ? AND number = ?",
            (approver, at, artifact_id, number),
        )
        approved = self._run(
            conn,
            f"SELECT {_VERSION_COLUMNS} FROM artifact_versions"
            " WHERE artifact_id = ? AND number = ?",
            (artifact_id, number),
        ).fetchone()
        return _version(approved)

    # edges -------------------------------------------------------------------------------------
    def add_edges(self, conn: Any, edges: Sequence[Edge]) -> int:
        unique = sorted({(e.from_ref, e.to_ref) for e in edges})
        return self._insert_many(
            conn,
            "INSERT INTO edges (from_ref, to_ref)",
            unique,
            "ON CONFLICT (from_ref, to_ref) DO NOTHING",
        )

    def edges_from(self, conn: Any, ref: str, after: str, limit: int) -> list[Edge]:
        _page(limit)
        rows = self._run(
            conn,
            "SELECT from_ref, to_ref FROM edges WHERE from_ref = ? AND to_ref > ?"
            " ORDER BY to_ref LIMIT ?",
            (ref, after, limit),
        ).fetchall()
        return [Edge(str(a), str(b)) for a, b in rows]

    def edges_to(self, conn: Any, ref: str, limit: int) -> list[Edge]:
        _page(limit)
        rows = self._run(
            conn,
            "SELECT from_ref, to_ref FROM edges WHERE to_ref = ? ORDER BY from_ref LIMIT ?",
            (ref, limit),
        ).fetchall()
        return [Edge(str(a), str(b)) for a, b in rows]

    def dependents(self, conn: Any, ref: str, limit: int) -> list[str]:
        _page(limit)
        rows = self._run(
            conn,
            "WITH RECURSIVE reach(ref) AS ("
            " SELECT CAST(? AS TEXT)"
            " UNION SELECT e.to_ref FROM edges e JOIN reach r ON e.from_ref = r.ref)"
            " SELECT ref FROM reach WHERE ref <> ? ORDER BY ref LIMIT ?",
            (ref, ref, limit),
        ).fetchall()
        return [str(r[0]) for r in rows]

    # flags -------------------------------------------------------------------------------------
    def flags_on(self, conn: Any, refs: Sequence[str]) -> list[Flag]:
        found: list[Flag] = []
        unique = sorted(set(refs))
        for start in range(0, len(unique), _INSERT_ROWS):
            part = unique[start : start + _INSERT_ROWS]
            marks = ", ".join("?" * len(part))
            rows = self._run(
                conn,
                f"SELECT {_FLAG_COLUMNS} FROM impact_flags WHERE ref IN ({marks})",
                part,
            ).fetchall()
            found.extend(_flag(r) for r in rows)
        return sorted(found, key=lambda f: (f.ref, f.changed_ref))

    def list_flags(self, conn: Any, changed_ref: str | None, limit: int, offset: int) -> list[Flag]:
        _page(limit, offset)
        rows = self._run(
            conn,
            f"SELECT {_FLAG_COLUMNS} FROM impact_flags"
            " WHERE (CAST(? AS TEXT) IS NULL OR changed_ref = ?)"
            " ORDER BY ref, changed_ref LIMIT ? OFFSET ?",
            (changed_ref, changed_ref, limit, offset),
        ).fetchall()
        return [_flag(r) for r in rows]

    # walks -------------------------------------------------------------------------------------
    def get_walk(self, conn: Any, walk_id: str) -> Walk | None:
        row = self._run(
            conn, f"SELECT {_WALK_COLUMNS} FROM impact_walks WHERE id = ?", (walk_id,)
        ).fetchone()
        return None if row is None else _walk(row)

    def list_walks(
        self, conn: Any, status: str | None, changed_ref: str | None, limit: int
    ) -> list[Walk]:
        _page(limit)
        rows = self._run(
            conn,
            f"SELECT {_WALK_COLUMNS} FROM impact_walks"
            " WHERE (CAST(? AS TEXT) IS NULL OR status = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR changed_ref = ?)"
            " ORDER BY started_at, id LIMIT ?",
            (status, status, changed_ref, changed_ref, limit),
        ).fetchall()
        return [_walk(r) for r in rows]

    def start_walk(self, conn: Any, walk_id: str, changed_ref: str, reason: str, at: str) -> Walk:
        existing = self.get_walk(conn, walk_id)
        if existing is not None:
            return existing
        self._run(
            conn,
            "INSERT INTO impact_frontier (walk_id, ref) VALUES (?, ?)",
            (walk_id, changed_ref),
        )
        first = self._run(
            conn, "SELECT seq FROM impact_frontier WHERE walk_id = ? AND ref = ?",
            (walk_id, changed_ref),
        ).fetchone()  # fmt: skip
        self._run(
            conn,
            f"INSERT INTO impact_walks ({_WALK_COLUMNS}, node_seq, edge_cursor)"
            " VALUES (?, ?, ?, 'running', 0, 0, 0, ?, '', ?, '')",
            (walk_id, changed_ref, reason, at, int(first[0])),
        )
        walk = self.get_walk(conn, walk_id)
        assert walk is not None
        return walk

    def walk_step(self, conn: Any, walk_id: str, batch: int, at: str) -> WalkStep:
        if not 1 <= batch <= MAX_WALK_BATCH:
            raise InvalidInputError(f"batch must be 1..{MAX_WALK_BATCH}, not {batch}")
        row = self._run(
            conn,
            "SELECT changed_ref, reason, status, node_seq, edge_cursor FROM impact_walks"
            f" WHERE id = ?{self._lock}",
            (walk_id,),
        ).fetchone()
        if row is None:
            raise InvalidInputError(f"unknown walk {walk_id!r}")
        changed_ref, reason, status = str(row[0]), str(row[1]), str(row[2])
        if status == "done":
            return WalkStep(walk_id, True, 0, 0)
        node_seq, cursor = int(row[3]), str(row[4])
        followed = flagged = expanded = 0
        done = False
        while followed < batch and expanded < batch:
            expanded += 1
            node = self._run(
                conn,
                "SELECT seq, ref FROM impact_frontier WHERE walk_id = ? AND seq >= ?"
                " ORDER BY seq LIMIT 1",
                (walk_id, node_seq),
            ).fetchone()
            if node is None:
                done = True
                break
            node_seq, ref = int(node[0]), str(node[1])
            room = batch - followed
            targets = [
                str(r[0])
                for r in self._run(
                    conn,
                    "SELECT to_ref FROM edges WHERE from_ref = ? AND to_ref > ?"
                    " ORDER BY to_ref LIMIT ?",
                    (ref, cursor, room),
                ).fetchall()
            ]
            followed += len(targets)
            if targets:
                self._insert_many(
                    conn,
                    "INSERT INTO impact_frontier (walk_id, ref)",
                    [(walk_id, t) for t in targets],
                    "ON CONFLICT (walk_id, ref) DO NOTHING",
                )
                flagged += self._insert_many(
                    conn,
                    f"INSERT INTO impact_flags ({_FLAG_COLUMNS})",
                    [(t, changed_ref, reason, walk_id, at) for t in targets if t != changed_ref],
                    "ON CONFLICT (ref, changed_ref) DO NOTHING",
                )
            if len(targets) < room:  # this ref has no more edges: go to the next one
                node_seq, cursor = node_seq + 1, ""
            else:
                cursor = targets[-1]
        if done:
            self._run(
                conn,
                "UPDATE impact_walks SET status = 'done', finished_at = ?, steps = steps + 1,"
                " edges = edges + ?, flags = flags + ?, node_seq = ?, edge_cursor = ?"
                " WHERE id = ?",
                (at, followed, flagged, node_seq, cursor, walk_id),
            )
        else:
            self._run(
                conn,
                "UPDATE impact_walks SET steps = steps + 1, edges = edges + ?,"
                " flags = flags + ?, node_seq = ?, edge_cursor = ? WHERE id = ?",
                (followed, flagged, node_seq, cursor, walk_id),
            )
        return WalkStep(walk_id, done, followed, flagged)


class GraphStoreMethods:
    """The :class:`~spanproof.core.graph_store.GraphStore` methods for a store class that
    provides ``_graph`` (its :class:`GraphSql`), ``_graph_write(action)`` (a context manager
    yielding a connection inside a write transaction) and ``_graph_read(action)`` (one yielding
    a connection for reads)."""

    _graph: GraphSql

    def _graph_write(self, action: str) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _graph_read(self, action: str) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def create_artifact(self, artifact: Artifact) -> None:
        with self._graph_write("create artifact") as conn:
            self._graph.create_artifact(conn, artifact)

    def get_artifact(self, artifact_id: str) -> Artifact | None:
        with self._graph_read("get artifact") as conn:
            return self._graph.get_artifact(conn, artifact_id)

    def list_artifacts(
        self, *, kind: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Artifact]:
        with self._graph_read("list artifacts") as conn:
            return self._graph.list_artifacts(conn, kind, limit, offset)

    def add_artifact_version(self, version: ArtifactVersion) -> None:
        with self._graph_write("add artifact version") as conn:
            artifact = self._graph.get_artifact(conn, version.artifact_id)
            if artifact is None:
                raise InvalidInputError(f"unknown artifact {version.artifact_id!r}")
            self._graph.add_artifact_version(conn, version, artifact.ref)

    def artifact_versions(self, artifact_id: str) -> list[ArtifactVersion]:
        with self._graph_read("artifact versions") as conn:
            return self._graph.artifact_versions(conn, artifact_id)

    def approve_artifact_version(
        self, artifact_id: str, number: int, approver: str, at: str
    ) -> ArtifactVersion:
        with self._graph_write("approve artifact version") as conn:
            return self._graph.approve_artifact_version(conn, artifact_id, number, approver, at)

    def add_edges(self, edges: Sequence[Edge]) -> int:
        if not edges:
            return 0
        with self._graph_write("add edges") as conn:
            return self._graph.add_edges(conn, edges)

    def edges_from(self, ref: str, *, after: str = "", limit: int = 1000) -> list[Edge]:
        with self._graph_read("edges from") as conn:
            return self._graph.edges_from(conn, ref, after, limit)

    def edges_to(self, ref: str, *, limit: int = 1000) -> list[Edge]:
        with self._graph_read("edges to") as conn:
            return self._graph.edges_to(conn, ref, limit)

    def dependents(self, ref: str, *, limit: int = 1000) -> list[str]:
        with self._graph_read("dependents") as conn:
            return self._graph.dependents(conn, ref, limit)

    def flags_on(self, refs: Sequence[str]) -> list[Flag]:
        with self._graph_read("flags") as conn:
            return self._graph.flags_on(conn, refs)

    def list_flags(
        self, *, changed_ref: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Flag]:
        with self._graph_read("list flags") as conn:
            return self._graph.list_flags(conn, changed_ref, limit, offset)

    def start_walk(self, walk_id: str, changed_ref: str, reason: str, at: str) -> Walk:
        with self._graph_write("start walk") as conn:
            return self._graph.start_walk(conn, walk_id, changed_ref, reason, at)

    def walk_step(self, walk_id: str, batch: int, at: str) -> WalkStep:
        with self._graph_write("walk step") as conn:
            return self._graph.walk_step(conn, walk_id, batch, at)

    def get_walk(self, walk_id: str) -> Walk | None:
        with self._graph_read("get walk") as conn:
            return self._graph.get_walk(conn, walk_id)

    def list_walks(
        self, *, status: str | None = None, changed_ref: str | None = None, limit: int = 100
    ) -> list[Walk]:
        with self._graph_read("list walks") as conn:
            return self._graph.list_walks(conn, status, changed_ref, limit)
