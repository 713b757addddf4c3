"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}

Write the DDL as plain SQL through ``op.execute``: the schema is PostgreSQL-only (pgvector,
tsvector), and plain SQL reads the same here as in ``psql``. When you add a revision, bump
``HEAD_REVISION`` in ``spanproof/store/postgres/migrate.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op
${imports if imports else ""}

revision: str = ${repr(up_revision)}
down_revision: str | Sequence[str] | None = ${repr(down_revision)}
branch_labels: str | Sequence[str] | None = ${repr(branch_labels)}
depends_on: str | Sequence[str] | None = ${repr(depends_on)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    ${downgrades if downgrades else "pass"}
