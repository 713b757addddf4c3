"""Alembic environment of the PostgreSQL evidence store.

Run programmatically by :func:`spanproof.store.postgres.migrate.upgrade`, which hands over an
open SQLAlchemy connection (holding the migration advisory lock) in
``config.attributes["connection"]``. Without one (the ``alembic`` command line, with
``sqlalchemy.url`` set), it opens its own.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, pool


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=None, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("set sqlalchemy.url (postgresql+psycopg://...) to run migrations")
    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("offline (--sql) migrations are not supported; run them against a database")
run_migrations_online()
