"""API keys, stored by hash (SPEC §9; see ``spanproof.core.keys``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

The same table as the SQLite revision 0005: ``key_hash`` is the SHA-256 (hex) of the key, which
is never stored; a row changes only by being revoked once and is never deleted or truncated.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.postgres.migrations.run import run_sql

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = r"""
CREATE TABLE api_keys (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    scope       text NOT NULL CHECK (scope IN ('read', 'write')),
    key_hash    text NOT NULL UNIQUE CHECK (length(key_hash) = 64),
    created_at  text NOT NULL,
    revoked_at  text NOT NULL DEFAULT ''
);

CREATE FUNCTION spanproof_key_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR OLD.revoked_at <> '' OR NEW.revoked_at = ''
        OR NEW.id IS DISTINCT FROM OLD.id OR NEW.name IS DISTINCT FROM OLD.name
        OR NEW.scope IS DISTINCT FROM OLD.scope
        OR NEW.key_hash IS DISTINCT FROM OLD.key_hash
        OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'spanproof API keys are never changed or deleted (only revoked once)'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER api_keys_revoke_only BEFORE UPDATE OR DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION spanproof_key_revocation();
CREATE TRIGGER api_keys_no_truncate BEFORE TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION spanproof_immutable();
"""

_DOWNGRADE = r"""
DROP TABLE IF EXISTS api_keys;
DROP FUNCTION IF EXISTS spanproof_key_revocation();
"""


def upgrade() -> None:
    run_sql(_UPGRADE)


def downgrade() -> None:
    run_sql(_DOWNGRADE)
