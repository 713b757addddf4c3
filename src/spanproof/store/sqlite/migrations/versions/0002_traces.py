"""Traces: the append-only hash chain of judgements (SPEC §4.7).

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01

One row per trace. ``body`` is the trace's canonical JSON, exactly as hashed: the other columns
are copies for lookups and ordering. ``seq`` counts from 1 with no gaps; ``prev_hash`` is unique
as well as ``hash``, so two appends can never both follow the same trace (no fork), even if the
store's write lock were bypassed. Triggers refuse every UPDATE and DELETE.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = (
    """
    CREATE TABLE traces (
        seq         INTEGER PRIMARY KEY CHECK (seq >= 1),
        id          TEXT NOT NULL UNIQUE,
        hash        TEXT NOT NULL UNIQUE,
        prev_hash   TEXT NOT NULL UNIQUE,
        kind        TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        body        TEXT NOT NULL
    )
    """,
    """
    CREATE TRIGGER traces_no_update BEFORE UPDATE ON traces
    BEGIN
        SELECT RAISE(ABORT, 'spanproof traces are never changed or deleted');
    END
    """,
    """
    CREATE TRIGGER traces_no_delete BEFORE DELETE ON traces
    BEGIN
        SELECT RAISE(ABORT, 'spanproof traces are never changed or deleted');
    END
    """,
)

_DOWNGRADE = (
    "DROP TRIGGER IF EXISTS traces_no_delete",
    "DROP TRIGGER IF EXISTS traces_no_update",
    "DROP TABLE traces",
)


def upgrade() -> None:
    for statement in _UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    for statement in _DOWNGRADE:
        op.execute(statement)
