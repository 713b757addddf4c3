"""Artifacts, edges, impact flags and walks (SPEC §2, §5.7).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

``artifact_versions`` never change once written except for the one approval (``approved_by``,
``approved_at`` set from empty); an approved version is final and no version is deleted.
``impact_flags`` are append-only. ``impact_walks`` is the walks' journal (updated per step) and
``impact_frontier`` the refs each walk has reached, in arrival order (``seq``).
"""

from spanproof.store.migration_ddl import SQLITE, graph, steps
from spanproof.store.sqlite.migrations.triggers import append_only_triggers, refuse

revision = "0004"
down_revision = "0003"

_FINAL = "spanproof artifact versions are never rewritten (only approved once)"
_UPGRADE = (
    *graph(SQLITE),
    refuse(
        "artifact_versions_final",
        "UPDATE",
        "artifact_versions",
        _FINAL,
        when="""
    WHEN OLD.approved_at <> '' OR NEW.approved_at = '' OR NEW.approved_by = ''
        OR NEW.body IS NOT OLD.body OR NEW.depends_on IS NOT OLD.depends_on
        OR NEW.created_at IS NOT OLD.created_at OR NEW.number IS NOT OLD.number
        OR NEW.artifact_id IS NOT OLD.artifact_id""",
    ),
    refuse("artifact_versions_no_delete", "DELETE", "artifact_versions", _FINAL),
    *append_only_triggers("impact_flags", "impact flags"),
)

upgrade, downgrade = steps(_UPGRADE)
