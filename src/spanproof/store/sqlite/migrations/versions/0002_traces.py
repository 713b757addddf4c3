"""Traces: the append-only hash chain of judgements (SPEC §4.7).

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01

One row per trace. ``body`` is the trace's canonical JSON, exactly as hashed: the other columns
are copies for lookups and ordering. ``seq`` counts from 1 with no gaps; ``prev_hash`` is unique
as well as ``hash``, so two appends can never both follow the same trace (no fork), even if the
store's write lock were bypassed. Triggers refuse every UPDATE and DELETE.
"""

from spanproof.store.migration_ddl import SQLITE, steps, traces
from spanproof.store.sqlite.migrations.triggers import append_only_triggers

revision = "0002"
down_revision = "0001"

_UPGRADE = (*traces(SQLITE), *append_only_triggers("traces", "traces"))

upgrade, downgrade = steps(_UPGRADE)
