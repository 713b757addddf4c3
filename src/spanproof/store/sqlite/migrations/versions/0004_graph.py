"""Artifacts, edges, impact flags and walks (SPEC §2, §5.7).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

``artifact_versions`` never change once written except for the one approval (``approved_by``,
``approved_at`` set from empty); an approved version is final and no version is deleted.
``impact_flags`` are append-only. ``impact_walks`` is the walks' journal (updated per step) and
``impact_frontier`` the refs each walk has reached, in arrival order (``seq``).
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.sqlite.migrations.run import (
    append_only_triggers,
    drop_append_only_triggers,
    run_statements,
)

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = (
    """
    CREATE TABLE artifacts (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('assessment', 'package', 'approach', 'design')),
        title       TEXT NOT NULL,
        created_at  TEXT NOT NULL
    )
    """,
    "CREATE INDEX artifacts_kind ON artifacts (kind, id)",
    """
    CREATE TABLE artifact_versions (
        artifact_id TEXT NOT NULL REFERENCES artifacts (id),
        number      INTEGER NOT NULL CHECK (number >= 1),
        body        TEXT NOT NULL,
        depends_on  TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        approved_by TEXT NOT NULL DEFAULT '',
        approved_at TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (artifact_id, number)
    )
    """,
    """
    CREATE TRIGGER artifact_versions_final BEFORE UPDATE ON artifact_versions
    WHEN OLD.approved_at <> '' OR NEW.approved_at = '' OR NEW.approved_by = ''
        OR NEW.body IS NOT OLD.body OR NEW.depends_on IS NOT OLD.depends_on
        OR NEW.created_at IS NOT OLD.created_at OR NEW.number IS NOT OLD.number
        OR NEW.artifact_id IS NOT OLD.artifact_id
    BEGIN
        SELECT RAISE(ABORT, 'spanproof artifact versions are never rewritten (only approved once)');
    END
    """,
    """
    CREATE TRIGGER artifact_versions_no_delete BEFORE DELETE ON artifact_versions
    BEGIN
        SELECT RAISE(ABORT, 'spanproof artifact versions are never rewritten (only approved once)');
    END
    """,
    """
    CREATE TABLE edges (
        from_ref    TEXT NOT NULL,
        to_ref      TEXT NOT NULL,
        PRIMARY KEY (from_ref, to_ref)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX edges_to ON edges (to_ref, from_ref)",
    """
    CREATE TABLE impact_flags (
        ref         TEXT NOT NULL,
        changed_ref TEXT NOT NULL,
        reason      TEXT NOT NULL,
        walk_id     TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        PRIMARY KEY (ref, changed_ref)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX impact_flags_changed ON impact_flags (changed_ref, ref)",
    *append_only_triggers("impact_flags", "impact flags"),
    """
    CREATE TABLE impact_walks (
        id          TEXT PRIMARY KEY,
        changed_ref TEXT NOT NULL,
        reason      TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('running', 'done')),
        steps       INTEGER NOT NULL,
        edges       INTEGER NOT NULL,
        flags       INTEGER NOT NULL,
        started_at  TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        node_seq    INTEGER NOT NULL,
        edge_cursor TEXT NOT NULL
    )
    """,
    "CREATE INDEX impact_walks_status ON impact_walks (status, started_at, id)",
    "CREATE INDEX impact_walks_changed ON impact_walks (changed_ref, started_at, id)",
    """
    CREATE TABLE impact_frontier (
        seq         INTEGER PRIMARY KEY,
        walk_id     TEXT NOT NULL,
        ref         TEXT NOT NULL,
        UNIQUE (walk_id, ref)
    )
    """,
    "CREATE INDEX impact_frontier_walk ON impact_frontier (walk_id, seq)",
)

_DOWNGRADE = (
    "DROP TABLE impact_frontier",
    "DROP TABLE impact_walks",
    *drop_append_only_triggers("impact_flags"),
    "DROP TABLE impact_flags",
    "DROP TABLE edges",
    "DROP TRIGGER IF EXISTS artifact_versions_no_delete",
    "DROP TRIGGER IF EXISTS artifact_versions_final",
    "DROP TABLE artifact_versions",
    "DROP TABLE artifacts",
)


def upgrade() -> None:
    run_statements(_UPGRADE)


def downgrade() -> None:
    run_statements(_DOWNGRADE)
