"""Alembic environment of the PostgreSQL evidence store.

Run programmatically by :func:`spanproof.store.postgres.migrate.upgrade`, which hands over an
open SQLAlchemy connection (holding the migration advisory lock) in
``config.attributes["connection"]``. Without one (the ``alembic`` command line, with
``sqlalchemy.url`` set to ``postgresql+psycopg://...``), it opens its own.
"""

from __future__ import annotations

from sqlalchemy import create_engine, pool

from spanproof.store.migration_env import run_env

run_env(
    lambda url: create_engine(url, poolclass=pool.NullPool),
    offline=False,
    transaction_per_migration=True,
)
