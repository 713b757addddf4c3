"""Evidence records and their attempts (SPEC §5).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

``records`` holds each record's current state (replaced as it moves through verification);
``body`` is its canonical JSON (text) and the other columns copies for lookups. ``attempts`` is
append-only: triggers refuse every UPDATE and DELETE (and on PostgreSQL, TRUNCATE).
"""

from spanproof.store.migration_ddl import records, steps
from spanproof.store.migrations.triggers import append_only

revision = "0003"
down_revision = "0002"

upgrade, downgrade = steps(lambda d: (*records(d), *append_only(d, "attempts", "attempts")))
