"""API keys, stored by hash (SPEC §9; see ``spanproof.core.keys``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

``key_hash`` is the SHA-256 (hex) of the key; the key itself is never stored. A row changes only
by being revoked once (``revoked_at`` set from empty) and is never deleted.
"""

from spanproof.store.migration_ddl import SQLITE, api_keys, steps
from spanproof.store.sqlite.migrations.triggers import refuse

revision = "0005"
down_revision = "0004"

_UPGRADE = (
    *api_keys(SQLITE),
    refuse(
        "api_keys_revoke_only",
        "UPDATE",
        "api_keys",
        "spanproof API keys are never changed (only revoked once)",
        when="""
    WHEN OLD.revoked_at <> '' OR NEW.revoked_at = '' OR NEW.id IS NOT OLD.id
        OR NEW.name IS NOT OLD.name OR NEW.scope IS NOT OLD.scope
        OR NEW.key_hash IS NOT OLD.key_hash OR NEW.created_at IS NOT OLD.created_at""",
    ),
    refuse(
        "api_keys_no_delete",
        "DELETE",
        "api_keys",
        "spanproof API keys are never deleted (revoke them)",
    ),
)

upgrade, downgrade = steps(_UPGRADE)
