"""Alembic environment for the SQLite store.

Run programmatically by :func:`spanproof.store.sqlite.schema.upgrade`, which passes a SQLAlchemy
engine in ``config.attributes["engine"]``; without one (the ``alembic`` command line, a bare
``Config``) an engine is built from ``sqlalchemy.url``. Either way transactions start with
``BEGIN IMMEDIATE``: the whole upgrade is one transaction (SQLite DDL is transactional), so a
crash leaves the old schema and two processes opening a new file at once migrate it once.
"""

from __future__ import annotations

from alembic import context

from spanproof.store.migration_env import run_online
from spanproof.store.sqlite.schema import migration_engine

if context.is_offline_mode():
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url") or "sqlite://",
        literal_binds=True,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    run_online(migration_engine, "sqlite://", transactional_ddl=True)
