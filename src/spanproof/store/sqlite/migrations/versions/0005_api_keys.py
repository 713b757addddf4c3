"""API keys, stored by hash (SPEC §9; see ``spanproof.core.keys``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

``key_hash`` is the SHA-256 (hex) of the key; the key itself is never stored. A row changes only
by being revoked once (``revoked_at`` set from empty) and is never deleted.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.sqlite.migrations.run import run_statements

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = (
    """
    CREATE TABLE api_keys (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        scope       TEXT NOT NULL CHECK (scope IN ('read', 'write')),
        key_hash    TEXT NOT NULL UNIQUE CHECK (length(key_hash) = 64),
        created_at  TEXT NOT NULL,
        revoked_at  TEXT NOT NULL DEFAULT ''
    )
    """,
    """
    CREATE TRIGGER api_keys_revoke_only BEFORE UPDATE ON api_keys
    WHEN OLD.revoked_at <> '' OR NEW.revoked_at = '' OR NEW.id IS NOT OLD.id
        OR NEW.name IS NOT OLD.name OR NEW.scope IS NOT OLD.scope
        OR NEW.key_hash IS NOT OLD.key_hash OR NEW.created_at IS NOT OLD.created_at
    BEGIN
        SELECT RAISE(ABORT, 'spanproof API keys are never changed (only revoked once)');
    END
    """,
    """
    CREATE TRIGGER api_keys_no_delete BEFORE DELETE ON api_keys
    BEGIN
        SELECT RAISE(ABORT, 'spanproof API keys are never deleted (revoke them)');
    END
    """,
)

_DOWNGRADE = (
    "DROP TRIGGER IF EXISTS api_keys_no_delete",
    "DROP TRIGGER IF EXISTS api_keys_revoke_only",
    "DROP TABLE api_keys",
)


def upgrade() -> None:
    run_statements(_UPGRADE)


def downgrade() -> None:
    run_statements(_DOWNGRADE)
