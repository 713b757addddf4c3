"""Artifacts, edges, flags and impact walks in SQL, written once for SQLite and PostgreSQL.

Both backends run the same statements (spelled for each driver by its
:class:`~spanproof.store.sql.Dialect`): the tables differ only in their DDL (see each backend's
migration 0004). Every method takes an open connection inside the caller's transaction; the
caller owns commit and rollback, so a walk step's flags, frontier rows and cursor commit together
or not at all.

The walk keeps its frontier in ``impact_frontier`` (one row per ref reached, unique per walk, in
arrival order) and its position in ``impact_walks`` (``node_seq``: the frontier row being
expanded; ``edge_cursor``: the last ``to_ref`` followed from it). A step follows at most
``batch`` edges, so memory stays bounded however large the graph is: a large store takes more
steps, not longer ones.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
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
from spanproof.store.sql import BATCH, SqlHooks, check_page

_WALK_COLUMNS = "id, changed_ref, reason, status, steps, edges, flags, started_at, finished_at"
_FLAG_COLUMNS = "ref, changed_ref, reason, walk_id, created_at"
_VERSION_COLUMNS = "artifact_id, number, body, depends_on, created_at, approved_by, approved_at"


def _version(row: Sequence[Any]) -> ArtifactVersion:
    key = f"{row[0]}#{row[1]}"
    try:
        body = json.loads(str(row[2]))
        depends_on = json.loads(str(row[3]))
    except ValueError as exc:
        raise StoreError(f"artifact version {key} is corrupt: {exc}") from exc
    if not isinstance(body, dict) or not isinstance(depends_on, list):
        raise StoreError(f"artifact version {key} is corrupt (wrong JSON types)")
    return ArtifactVersion(row[0], row[1], body, tuple(map(str, depends_on)), *row[4:])


class GraphStoreMethods(SqlHooks):
    """The :class:`~spanproof.core.graph_store.GraphStore` methods (hooks: :class:`SqlHooks`).

    The dialect's ``walk_lock`` is appended to the walk row's SELECT in a step (``FOR UPDATE``
    on PostgreSQL, so two workers never expand one walk at once; SQLite's write transaction
    already excludes them).
    """

    def _insert_many(self, conn: Any, head: str, rows: Sequence[Sequence[Any]], tail: str) -> int:
        """Multi-row INSERT ``head VALUES (...), ... tail``; returns rows inserted."""
        added = 0
        for start in range(0, len(rows), BATCH):
            part = rows[start : start + BATCH]
            marks = ", ".join("(" + ", ".join("?" * len(r)) + ")" for r in part)
            params = [v for r in part for v in r]
            cur = self._sql.run(conn, f"{head} VALUES {marks} {tail}", params)
            added += max(int(cur.rowcount), 0)
        return added

    # artifacts ---------------------------------------------------------------------------------
    def create_artifact(self, artifact: Artifact) -> None:
        with self._write("create artifact") as conn:
            taken = self._sql.one(conn, "SELECT 1 FROM artifacts WHERE id = ?", (artifact.id,))
            if taken is not None:
                raise InvalidInputError(f"artifact {artifact.id!r} exists")
            self._sql.run(
                conn,
                "INSERT INTO artifacts (id, kind, title, created_at) VALUES (?, ?, ?, ?)",
                (artifact.id, artifact.kind, artifact.title, artifact.created_at),
            )

    def get_artifact(self, artifact_id: str) -> Artifact | None:
        row = self._row(
            "get artifact",
            "SELECT id, kind, title, created_at FROM artifacts WHERE id = ?",
            (artifact_id,),
        )
        return None if row is None else Artifact(*row)

    def list_artifacts(
        self, *, kind: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Artifact]:
        limit, offset = check_page(limit, offset)
        rows = self._rows(
            "list artifacts",
            "SELECT id, kind, title, created_at FROM artifacts"
            " WHERE (CAST(? AS TEXT) IS NULL OR kind = ?) ORDER BY id LIMIT ? OFFSET ?",
            (kind, kind, limit, offset),
        )
        return [Artifact(*r) for r in rows]

    def add_artifact_version(self, version: ArtifactVersion) -> None:
        with self._write("add artifact version") as conn:
            if version.approved:
                raise InvalidInputError("a new version is a draft; approve it afterwards")
            artifact = self.get_artifact(version.artifact_id)
            if artifact is None:
                raise InvalidInputError(f"unknown artifact {version.artifact_id!r}")
            row = self._sql.one(
                conn,
                "SELECT COALESCE(MAX(number), 0) FROM artifact_versions WHERE artifact_id = ?",
                (version.artifact_id,),
            )
            expected = int(row[0]) + 1
            if version.number != expected:
                raise InvalidInputError(
                    f"artifact {version.artifact_id!r}: the next version is {expected}, "
                    f"not {version.number}"
                )
            self._sql.run(
                conn,
                f"INSERT INTO artifact_versions ({_VERSION_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, '', '')",
                (
                    version.artifact_id,
                    version.number,
                    canonical_json(version.body),
                    canonical_json(list(version.depends_on)),
                    version.created_at,
                ),
            )
            self.add_edges([Edge(ref, artifact.ref) for ref in version.depends_on])

    def artifact_versions(self, artifact_id: str) -> list[ArtifactVersion]:
        rows = self._rows(
            "artifact versions",
            f"SELECT {_VERSION_COLUMNS} FROM artifact_versions WHERE artifact_id = ?"
            " ORDER BY number",
            (artifact_id,),
        )
        return [_version(r) for r in rows]

    def approve_artifact_version(
        self, artifact_id: str, number: int, approver: str, at: str
    ) -> ArtifactVersion:
        with self._write("approve artifact version") as conn:
            if not approver.strip():
                raise InvalidInputError("an approval needs the approver's name")
            row = self._sql.one(
                conn,
                f"SELECT {_VERSION_COLUMNS} FROM artifact_versions"
                " WHERE artifact_id = ? AND number = ?",
                (artifact_id, number),
            )
            if row is None:
                raise InvalidInputError(f"artifact {artifact_id!r} has no version {number}")
            draft = _version(row)
            if draft.approved:
                raise InvalidInputError(f"artifact {artifact_id!r} version {number} is approved")
            self._sql.run(
                conn,
                "UPDATE artifact_versions SET approved_by = ?, approved_at = ?"
                " WHERE artifact_id = ? AND number = ?",
                (approver, at, artifact_id, number),
            )
            return replace(draft, approved_by=approver, approved_at=at)

    # edges -------------------------------------------------------------------------------------
    def add_edges(self, edges: Sequence[Edge]) -> int:
        if not edges:
            return 0
        with self._write("add edges") as conn:
            unique = sorted({(e.from_ref, e.to_ref) for e in edges})
            return self._insert_many(
                conn,
                "INSERT INTO edges (from_ref, to_ref)",
                unique,
                "ON CONFLICT (from_ref, to_ref) DO NOTHING",
            )

    def edges_from(self, ref: str, *, after: str = "", limit: int = 1000) -> list[Edge]:
        limit, _ = check_page(limit)
        rows = self._rows(
            "edges from",
            "SELECT from_ref, to_ref FROM edges WHERE from_ref = ? AND to_ref > ?"
            " ORDER BY to_ref LIMIT ?",
            (ref, after, limit),
        )
        return [Edge(*r) for r in rows]

    def edges_to(self, ref: str, *, limit: int = 1000) -> list[Edge]:
        limit, _ = check_page(limit)
        rows = self._rows(
            "edges to",
            "SELECT from_ref, to_ref FROM edges WHERE to_ref = ? ORDER BY from_ref LIMIT ?",
            (ref, limit),
        )
        return [Edge(*r) for r in rows]

    def dependents(self, ref: str, *, limit: int = 1000) -> list[str]:
        limit, _ = check_page(limit)
        rows = self._rows(
            "dependents",
            "WITH RECURSIVE reach(ref) AS (SELECT CAST(? AS TEXT)"
            " UNION SELECT e.to_ref FROM edges e JOIN reach r ON e.from_ref = r.ref)"
            " SELECT ref FROM reach WHERE ref <> ? ORDER BY ref LIMIT ?",
            (ref, ref, limit),
        )
        return [str(r[0]) for r in rows]

    # flags -------------------------------------------------------------------------------------
    def flags_on(self, refs: Sequence[str]) -> list[Flag]:
        with self._read("flags") as conn:
            rows = self._sql.where_in(
                conn,
                f"SELECT {_FLAG_COLUMNS} FROM impact_flags WHERE ref IN {{in}}",
                sorted(set(refs)),
            )
            return sorted((Flag(*r) for r in rows), key=lambda f: (f.ref, f.changed_ref))

    def list_flags(
        self, *, changed_ref: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Flag]:
        limit, offset = check_page(limit, offset)
        rows = self._rows(
            "list flags",
            f"SELECT {_FLAG_COLUMNS} FROM impact_flags"
            " WHERE (CAST(? AS TEXT) IS NULL OR changed_ref = ?)"
            " ORDER BY ref, changed_ref LIMIT ? OFFSET ?",
            (changed_ref, changed_ref, limit, offset),
        )
        return [Flag(*r) for r in rows]

    # walks -------------------------------------------------------------------------------------
    def get_walk(self, walk_id: str) -> Walk | None:
        row = self._row(
            "get walk", f"SELECT {_WALK_COLUMNS} FROM impact_walks WHERE id = ?", (walk_id,)
        )
        return None if row is None else Walk(*row)

    def list_walks(
        self, *, status: str | None = None, changed_ref: str | None = None, limit: int = 100
    ) -> list[Walk]:
        limit, _ = check_page(limit)
        rows = self._rows(
            "list walks",
            f"SELECT {_WALK_COLUMNS} FROM impact_walks"
            " WHERE (CAST(? AS TEXT) IS NULL OR status = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR changed_ref = ?)"
            " ORDER BY started_at, id LIMIT ?",
            (status, status, changed_ref, changed_ref, limit),
        )
        return [Walk(*r) for r in rows]

    def start_walk(self, walk_id: str, changed_ref: str, reason: str, at: str) -> Walk:
        with self._write("start walk") as conn:
            existing = self.get_walk(walk_id)
            if existing is not None:
                return existing
            ((first,),) = self._sql.all(
                conn,
                "INSERT INTO impact_frontier (walk_id, ref) VALUES (?, ?) RETURNING seq",
                (walk_id, changed_ref),
            )
            self._sql.run(
                conn,
                f"INSERT INTO impact_walks ({_WALK_COLUMNS}, node_seq, edge_cursor)"
                " VALUES (?, ?, ?, 'running', 0, 0, 0, ?, '', ?, '')",
                (walk_id, changed_ref, reason, at, int(first)),
            )
            return Walk(walk_id, changed_ref, reason, "running", 0, 0, 0, at)

    def walk_step(self, walk_id: str, batch: int, at: str) -> WalkStep:
        with self._write("walk step") as conn:
            if not 1 <= batch <= MAX_WALK_BATCH:
                raise InvalidInputError(f"batch must be 1..{MAX_WALK_BATCH}, not {batch}")
            row = self._sql.one(
                conn,
                "SELECT changed_ref, reason, status, node_seq, edge_cursor FROM impact_walks"
                f" WHERE id = ?{self._sql.walk_lock}",
                (walk_id,),
            )
            if row is None:
                raise InvalidInputError(f"unknown walk {walk_id!r}")
            changed_ref, reason, status, node_seq, cursor = row
            if status == "done":
                return WalkStep(walk_id, True, 0, 0)
            followed = flagged = expanded = 0
            done = False
            while followed < batch and expanded < batch:
                expanded += 1
                node = self._sql.one(
                    conn,
                    "SELECT seq, ref FROM impact_frontier WHERE walk_id = ? AND seq >= ?"
                    " ORDER BY seq LIMIT 1",
                    (walk_id, node_seq),
                )
                if node is None:
                    done = True
                    break
                node_seq, ref = node
                room = batch - followed
                targets = [
                    str(r[0])
                    for r in self._sql.all(
                        conn,
                        "SELECT to_ref FROM edges WHERE from_ref = ? AND to_ref > ?"
                        " ORDER BY to_ref LIMIT ?",
                        (ref, cursor, room),
                    )
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
                        [
                            (t, changed_ref, reason, walk_id, at)
                            for t in targets
                            if t != changed_ref
                        ],
                        "ON CONFLICT (ref, changed_ref) DO NOTHING",
                    )
                if len(targets) < room:  # this ref has no more edges: go to the next one
                    node_seq, cursor = node_seq + 1, ""
                else:
                    cursor = targets[-1]
            # A walk that ends in this step is done, finished at this step's time.
            finished = ("done", at) if done else ("running", "")
            self._sql.run(
                conn,
                "UPDATE impact_walks SET status = ?, finished_at = ?, steps = steps + 1,"
                " edges = edges + ?, flags = flags + ?, node_seq = ?, edge_cursor = ? WHERE id = ?",
                (*finished, followed, flagged, node_seq, cursor, walk_id),
            )
            return WalkStep(walk_id, done, followed, flagged)
