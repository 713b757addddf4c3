"""Evidence records and their attempts (SPEC §5).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

``records`` holds each record's current state (replaced as it moves through verification);
``body`` is its canonical JSON as text and the other columns copies for lookups. ``attempts``
is append-only: the immutability trigger of revision 0001 refuses UPDATE and DELETE, and a
statement trigger refuses TRUNCATE.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.postgres.migrations.run import run_sql

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = r"""
CREATE TABLE records (
    id          text PRIMARY KEY,
    source_id   text NOT NULL,
    version     integer NOT NULL,
    status      text NOT NULL,
    body        text NOT NULL
);
CREATE INDEX records_status ON records (status, id);
CREATE INDEX records_source ON records (source_id, id);

CREATE TABLE attempts (
    record_id   text NOT NULL REFERENCES records (id),
    number      integer NOT NULL CHECK (number >= 1),
    body        text NOT NULL,
    PRIMARY KEY (record_id, number)
);

CREATE TRIGGER attempts_immutable BEFORE UPDATE OR DELETE ON attempts
    FOR EACH ROW EXECUTE FUNCTION spanproof_immutable();
CREATE TRIGGER attempts_no_truncate BEFORE TRUNCATE ON attempts
    FOR EACH STATEMENT EXECUTE FUNCTION spanproof_immutable();
"""

_DOWNGRADE = r"""
DROP TABLE IF EXISTS attempts, records;
"""


def upgrade() -> None:
    run_sql(_UPGRADE)


def downgrade() -> None:
    run_sql(_DOWNGRADE)
