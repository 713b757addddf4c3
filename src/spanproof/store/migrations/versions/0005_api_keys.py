"""API keys, stored by hash (SPEC §9; see ``spanproof.core.keys``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

``key_hash`` is the SHA-256 (hex) of the key; the key itself is never stored. A row changes only
by being revoked once (``revoked_at`` set from empty) and is never deleted (nor truncated).
"""

from spanproof.store.migration_ddl import api_keys, steps
from spanproof.store.migrations.triggers import set_once

revision = "0005"
down_revision = "0004"

upgrade, downgrade = steps(
    lambda d: (
        *api_keys(d),
        *set_once(
            d,
            "api_keys",
            "revoked_at",
            ("id", "name", "scope", "key_hash", "created_at"),
            trigger="api_keys_revoke_only",
            function="spanproof_key_revocation",
            message="spanproof API keys are never changed or deleted (only revoked once)",
        ),
    )
)
