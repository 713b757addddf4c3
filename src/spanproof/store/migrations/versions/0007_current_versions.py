"""Which version is a source's content now, recorded apart from the versions themselves.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06

A version is one content of a source, identified by its bytes, and the same bytes never add a
version. A source's content was therefore taken to be its newest version, and a file edited and
then reverted (A, B, A again) stayed on B: A's bytes found version 1, and version 2 was still
the newest. ``current_versions`` records each change of a source's content as a new row (the
highest ``seq`` names the current version): a new version, or an earlier version whose bytes
came back. Existing sources get one row per version in number order, so each one's current
version is its newest, as before. Triggers refuse every UPDATE and DELETE (and on PostgreSQL,
TRUNCATE): the table is the source's history of contents.
"""

from spanproof.store.migration_ddl import current_versions, steps
from spanproof.store.migrations.triggers import append_only

revision = "0007"
down_revision = "0006"

upgrade, downgrade = steps(
    lambda d: (
        *current_versions(d),
        *append_only(d, "current_versions", "current versions"),
    )
)
