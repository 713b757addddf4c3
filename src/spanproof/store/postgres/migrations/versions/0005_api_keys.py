"""API keys, stored by hash (SPEC §9; see ``spanproof.core.keys``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

The same table as the SQLite revision 0005: ``key_hash`` is the SHA-256 (hex) of the key, which
is never stored; a row changes only by being revoked once and is never deleted or truncated.
"""

from spanproof.store.migration_ddl import POSTGRES, api_keys, steps
from spanproof.store.postgres.migrations.triggers import set_once_guard

revision = "0005"
down_revision = "0004"

_UPGRADE = (
    *api_keys(POSTGRES),
    *set_once_guard(
        "api_keys",
        "api_keys_revoke_only",
        "spanproof_key_revocation",
        """OLD.revoked_at <> '' OR NEW.revoked_at = ''
        OR NEW.id IS DISTINCT FROM OLD.id OR NEW.name IS DISTINCT FROM OLD.name
        OR NEW.scope IS DISTINCT FROM OLD.scope
        OR NEW.key_hash IS DISTINCT FROM OLD.key_hash
        OR NEW.created_at IS DISTINCT FROM OLD.created_at""",
        "spanproof API keys are never changed or deleted (only revoked once)",
    ),
)

upgrade, downgrade = steps(_UPGRADE)
