"""Evidence records and their attempts (SPEC §5).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

``records`` holds each record's current state (replaced as it moves through verification);
``body`` is its canonical JSON as text and the other columns copies for lookups. ``attempts``
is append-only: the immutability trigger of revision 0001 refuses UPDATE and DELETE, and a
statement trigger refuses TRUNCATE.
"""

from spanproof.store.migration_ddl import POSTGRES, records, steps
from spanproof.store.postgres.migrations.triggers import append_only_triggers

revision = "0003"
down_revision = "0002"

_UPGRADE = (*records(POSTGRES), *append_only_triggers("attempts"))

upgrade, downgrade = steps(_UPGRADE)
