"""Artifacts, edges, impact flags and walks (SPEC §2, §5.7).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

The same tables as the SQLite revision 0004: an artifact version is written once and may be
approved once (then it is final; no version is deleted); flags are append-only; walks are the
walks' journal and ``impact_frontier`` the refs each walk has reached, in arrival order.
"""

from spanproof.store.migration_ddl import POSTGRES, graph, steps
from spanproof.store.postgres.migrations.triggers import append_only_triggers, set_once_guard

revision = "0004"
down_revision = "0003"

_UPGRADE = (
    *graph(POSTGRES),
    *set_once_guard(
        "artifact_versions",
        "artifact_versions_final",
        "spanproof_version_approval",
        """OLD.approved_at <> '' OR NEW.approved_at = ''
        OR NEW.approved_by = '' OR NEW.body IS DISTINCT FROM OLD.body
        OR NEW.depends_on IS DISTINCT FROM OLD.depends_on
        OR NEW.created_at IS DISTINCT FROM OLD.created_at
        OR NEW.number IS DISTINCT FROM OLD.number
        OR NEW.artifact_id IS DISTINCT FROM OLD.artifact_id""",
        "spanproof artifact versions are never rewritten (only approved once)",
    ),
    *append_only_triggers("impact_flags"),
)

upgrade, downgrade = steps(_UPGRADE)
