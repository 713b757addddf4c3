"""Evidence records and their attempts (SPEC §5).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

``records`` holds each record's current state (replaced as it moves through verification);
``body`` is its canonical JSON and the other columns copies for lookups. ``attempts`` is
append-only: triggers refuse every UPDATE and DELETE.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.sqlite.migrations.run import (
    append_only_triggers,
    drop_append_only_triggers,
    run_statements,
)

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = (
    """
    CREATE TABLE records (
        id          TEXT PRIMARY KEY,
        source_id   TEXT NOT NULL,
        version     INTEGER NOT NULL,
        status      TEXT NOT NULL,
        body        TEXT NOT NULL
    )
    """,
    "CREATE INDEX records_status ON records (status, id)",
    "CREATE INDEX records_source ON records (source_id, id)",
    """
    CREATE TABLE attempts (
        record_id   TEXT NOT NULL REFERENCES records (id),
        number      INTEGER NOT NULL CHECK (number >= 1),
        body        TEXT NOT NULL,
        PRIMARY KEY (record_id, number)
    )
    """,
    *append_only_triggers("attempts", "attempts"),
)

_DOWNGRADE = (
    *drop_append_only_triggers("attempts"),
    "DROP TABLE attempts",
    "DROP TABLE records",
)


def upgrade() -> None:
    run_statements(_UPGRADE)


def downgrade() -> None:
    run_statements(_DOWNGRADE)
