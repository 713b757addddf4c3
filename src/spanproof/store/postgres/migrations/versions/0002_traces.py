"""Traces: the append-only hash chain of judgements (SPEC §4.7).

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01

One row per trace. ``body`` is the trace's canonical JSON as text (not ``jsonb``, which would
reorder keys and re-print numbers): exactly the bytes that were hashed. The other columns are
copies for lookups and ordering. ``seq`` counts from 1; ``prev_hash`` is unique as well as
``hash``, so two appends can never both follow the same trace (no fork) even without the
store's table lock. The immutability trigger of revision 0001 refuses UPDATE and DELETE, and a
statement trigger refuses TRUNCATE.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.postgres.migrations.run import run_sql

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = r"""
CREATE TABLE traces (
    seq         bigint PRIMARY KEY CHECK (seq >= 1),
    id          text NOT NULL UNIQUE,
    hash        text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
    prev_hash   text NOT NULL UNIQUE CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
    kind        text NOT NULL,
    created_at  text NOT NULL,
    body        text NOT NULL
);

CREATE TRIGGER traces_immutable BEFORE UPDATE OR DELETE ON traces
    FOR EACH ROW EXECUTE FUNCTION spanproof_immutable();
CREATE TRIGGER traces_no_truncate BEFORE TRUNCATE ON traces
    FOR EACH STATEMENT EXECUTE FUNCTION spanproof_immutable();
"""

_DOWNGRADE = r"""
DROP TABLE IF EXISTS traces;
"""


def upgrade() -> None:
    run_sql(_UPGRADE)


def downgrade() -> None:
    run_sql(_DOWNGRADE)
