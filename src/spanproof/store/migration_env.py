"""What the SQLite and PostgreSQL Alembic environments (``*/migrations/env.py``) do alike.

The caller hands over an open connection in ``config.attributes["connection"]`` or an engine in
``config.attributes["engine"]``; without either (the ``alembic`` command line, a bare
``Config``) an engine is built from ``sqlalchemy.url`` and disposed of afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from alembic import context
from sqlalchemy import Connection, Engine


def run_online(new_engine: Callable[[str], Engine], default_url: str = "", **options: Any) -> None:
    """Run the pending revisions on the caller's connection or engine, or on a new engine.

    ``options`` go to ``context.configure`` (for example ``transactional_ddl=True``).
    """
    config = context.config
    connection: Connection | None = config.attributes.get("connection")
    if connection is not None:
        _run(connection, options)
        return
    engine: Engine | None = config.attributes.get("engine")
    own = engine is None
    if engine is None:
        url = config.get_main_option("sqlalchemy.url") or default_url
        if not url:
            raise RuntimeError("set sqlalchemy.url to run the migrations")
        engine = new_engine(url)
    try:
        with engine.connect() as conn:
            _run(conn, options)
    finally:
        if own:
            engine.dispose()


def _run(connection: Connection, options: dict[str, Any]) -> None:
    context.configure(connection=connection, **options)
    with context.begin_transaction():
        context.run_migrations()
