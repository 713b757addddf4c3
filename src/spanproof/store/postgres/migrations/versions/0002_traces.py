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

from alembic import op

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


def _run_sql(sql: str) -> None:
    """Send a script to psycopg verbatim, in the migration's transaction (see revision 0001)."""
    driver = op.get_bind().connection.driver_connection
    if driver is None:  # pragma: no cover - an open SQLAlchemy connection has its driver's
        raise RuntimeError("the migration connection has no psycopg connection")
    with driver.cursor() as cur:
        cur.execute(sql)


def upgrade() -> None:
    _run_sql(_UPGRADE)


def downgrade() -> None:
    _run_sql(_DOWNGRADE)
