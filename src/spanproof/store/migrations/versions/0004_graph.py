"""Artifacts, edges, impact flags and walks (SPEC §2, §5.7).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

``artifact_versions`` never change once written except for the one approval (``approved_by``,
``approved_at`` set from empty); an approved version is final and no version is deleted.
``impact_flags`` are append-only. ``impact_walks`` is the walks' journal (updated per step) and
``impact_frontier`` the refs each walk has reached, in arrival order (``seq``).
"""

from spanproof.store.migration_ddl import graph, steps
from spanproof.store.migrations.triggers import append_only, set_once

revision = "0004"
down_revision = "0003"

upgrade, downgrade = steps(
    lambda d: (
        *graph(d),
        *set_once(
            d,
            "artifact_versions",
            "approved_at",
            ("body", "depends_on", "created_at", "number", "artifact_id"),
            also="approved_by",
            trigger="artifact_versions_final",
            function="spanproof_version_approval",
            message="spanproof artifact versions are never rewritten (only approved once)",
        ),
        *append_only(d, "impact_flags", "impact flags"),
    )
)
