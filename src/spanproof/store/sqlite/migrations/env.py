"""Alembic environment for the SQLite store.

Run programmatically by :func:`spanproof.store.sqlite.schema.upgrade`, which passes a SQLAlchemy
engine in ``config.attributes["engine"]``; without one (the ``alembic`` command line, a bare
``Config``) an engine is built from ``sqlalchemy.url``. Either way transactions start with
``BEGIN IMMEDIATE``: the whole upgrade is one transaction (SQLite DDL is transactional), so a
crash leaves the old schema and two processes opening a new file at once migrate it once.
"""

from __future__ import annotations

from alembic import context

from spanproof.store.sqlite.schema import migration_engine

config = context.config


def _run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url") or "sqlite://",
        literal_binds=True,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_online() -> None:
    given = config.attributes.get("engine")
    own = given is None  # run from the alembic command line or a bare Config
    url = config.get_main_option("sqlalchemy.url") or "sqlite://"
    engine = migration_engine(url) if given is None else given
    try:
        with engine.connect() as connection:
            context.configure(connection=connection, transactional_ddl=True)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        if own:
            engine.dispose()


if context.is_offline_mode():
    _run_offline()
else:
    _run_online()
