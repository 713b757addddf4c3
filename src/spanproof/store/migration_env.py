"""Alembic run in code, one way for both dialects (no ``alembic.ini``).

:func:`upgrade` runs the pending revisions of a script directory in one transaction on one
connection, which it hands to the dialect's ``migrations/env.py`` (:func:`run_env`) in
``config.attributes["connection"]``. Without one (the ``alembic`` command line, a bare
:func:`alembic_config`) the environment builds an engine from ``sqlalchemy.url`` and disposes of
it afterwards. Alembic and SQLAlchemy are imported only when a migration runs.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine


def alembic_config(directory: Path, url: str = "") -> Any:
    """An Alembic ``Config`` for the script directory ``directory`` (and the database ``url``)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(directory))
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(directory: Path, engine: Engine, revision: str, *, lock: str = "") -> None:
    """Upgrade to ``revision`` in one transaction on ``engine`` (disposed of afterwards), after
    running the statement ``lock`` (if any) in it."""
    from alembic import command

    config = alembic_config(directory)
    try:
        with engine.begin() as conn:
            if lock:
                conn.exec_driver_sql(lock)
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
    finally:
        engine.dispose()


def script_head(directory: Path) -> str | None:
    """The head revision according to Alembic's script directory."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(directory)).get_current_head()
    return None if head is None else str(head)


def known(directory: Path, revision: str) -> bool:
    """Whether ``revision`` is one of the script directory's revisions."""
    from alembic.script import ScriptDirectory

    return any(s.revision == revision for s in ScriptDirectory(str(directory)).walk_revisions())


def current_revision(conn: Any, has_table: str) -> str | None:
    """The revision recorded in the database, or None for one Alembic has never touched.

    ``has_table``: the dialect's query whose one value is true when ``alembic_version`` exists.
    """
    found = conn.execute(has_table).fetchone()
    if found is None or not found[0]:
        return None
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


def run_env(
    new_engine: Callable[[str], Engine], default_url: str = "", *, offline: bool, **options: Any
) -> None:
    """Run the pending revisions on the caller's connection, or on a new engine; offline
    (``alembic upgrade --sql``) write them out instead, where the dialect allows it (``offline``).

    ``options`` go to ``context.configure`` (for example ``transactional_ddl=True``).
    """
    from alembic import context

    url = context.config.get_main_option("sqlalchemy.url") or default_url
    connection: Connection | None = context.config.attributes.get("connection")
    with ExitStack() as stack:
        if context.is_offline_mode():
            if not offline:
                raise RuntimeError(
                    "offline (--sql) migrations are not supported; run them against a database"
                )
            context.configure(url=url, literal_binds=True, **options)
        else:
            if connection is None:
                if not url:
                    raise RuntimeError("set sqlalchemy.url to run the migrations")
                engine = new_engine(url)
                stack.callback(engine.dispose)
                connection = stack.enter_context(engine.connect())
            context.configure(connection=connection, **options)
        with context.begin_transaction():
            context.run_migrations()
