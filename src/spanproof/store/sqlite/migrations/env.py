"""Alembic environment for the SQLite store.

Run programmatically by :func:`spanproof.store.sqlite.schema.upgrade`, which passes an open
SQLAlchemy connection in ``config.attributes["connection"]``; without one (the ``alembic`` command
line, a bare ``Config``) an engine is built from ``sqlalchemy.url``. Either way transactions start
with ``BEGIN IMMEDIATE``: the whole upgrade is one transaction (SQLite DDL is transactional), so a
crash leaves the old schema and two processes opening a new file at once migrate it once.
"""

from __future__ import annotations

from spanproof.store.migration_env import run_env
from spanproof.store.sqlite.schema import migration_engine

run_env(migration_engine, "sqlite://", offline=True, transactional_ddl=True)
