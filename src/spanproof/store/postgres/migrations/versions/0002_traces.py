"""Traces: the append-only hash chain of judgements (SPEC §4.7).

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01

One row per trace. ``body`` is the trace's canonical JSON as text (not ``jsonb``, which would
reorder keys and re-print numbers): exactly the bytes that were hashed. The other columns are
copies for lookups and ordering. ``seq`` counts from 1; ``prev_hash`` is unique as well as
``hash``, so two appends can never both follow the same trace (no fork) even without the
store's table lock. The immutability trigger of revision 0001 refuses UPDATE and DELETE, and a
statement trigger refuses TRUNCATE.
"""

from spanproof.store.migration_ddl import POSTGRES, steps, traces
from spanproof.store.postgres.migrations.triggers import append_only_triggers

revision = "0002"
down_revision = "0001"

_UPGRADE = (*traces(POSTGRES), *append_only_triggers("traces"))

upgrade, downgrade = steps(_UPGRADE)
