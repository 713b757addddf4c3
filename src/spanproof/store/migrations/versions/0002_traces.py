"""Traces: the append-only hash chain of judgements (SPEC §4.7).

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01

One row per trace. ``body`` is the trace's canonical JSON, exactly the text that was hashed (not
PostgreSQL's ``jsonb``, which would reorder keys and re-print numbers); the other columns are
copies for lookups and ordering. ``seq`` counts from 1 with no gaps; ``prev_hash`` is unique as
well as ``hash``, so two appends can never both follow the same trace (no fork), even if the
store's write lock were bypassed. Triggers refuse every UPDATE and DELETE (and on PostgreSQL,
TRUNCATE).
"""

from spanproof.store.migration_ddl import steps, traces
from spanproof.store.migrations.triggers import append_only

revision = "0002"
down_revision = "0001"

upgrade, downgrade = steps(lambda d: (*traces(d), *append_only(d, "traces", "traces")))
