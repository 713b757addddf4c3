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

from spanproof.store.sqlite.migrations.run import (
    append_only_triggers,
    drop_append_only_triggers,
    run_statements,
)

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
    *append_only_triggers("traces", "traces"),
)

_DOWNGRADE = (
    *drop_append_only_triggers("traces"),
    "DROP TABLE traces",
)


def upgrade() -> None:
    run_statements(_UPGRADE)


def downgrade() -> None:
    run_statements(_DOWNGRADE)
