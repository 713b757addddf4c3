"""Evidence records and their attempts (SPEC §5).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

``records`` holds each record's current state (replaced as it moves through verification);
``body`` is its canonical JSON and the other columns copies for lookups. ``attempts`` is
append-only: triggers refuse every UPDATE and DELETE.
"""

from spanproof.store.migration_ddl import SQLITE, records, steps
from spanproof.store.sqlite.migrations.triggers import append_only_triggers

revision = "0003"
down_revision = "0002"

_UPGRADE = (*records(SQLITE), *append_only_triggers("attempts", "attempts"))

upgrade, downgrade = steps(_UPGRADE)
