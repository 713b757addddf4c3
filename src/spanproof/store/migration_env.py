"""Alembic run in code, one script directory and one way for both dialects (no ``alembic.ini``).

:func:`upgrade` runs the pending revisions of ``migrations/`` in one transaction on one
connection, which it hands to ``migrations/env.py`` (:func:`run_env`) in
``config.attributes["connection"]``. Without one (the ``alembic`` command line, a bare
:func:`alembic_config`) the environment builds an engine from ``sqlalchemy.url`` and disposes of
it afterwards. Alembic and SQLAlchemy are imported only when a migration runs.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

#: The Alembic script directory of both dialects, inside the package.
MIGRATIONS_DIR = Path(__file__).resolve().with_name("migrations")


def alembic_config(url: str = "") -> Any:
    """An Alembic ``Config`` for :data:`MIGRATIONS_DIR` (and the database ``url``)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def sqlite_engine(url: str, *, busy_timeout_s: float = 30.0) -> Engine:
    """A SQLAlchemy engine for SQLite whose transactions start with ``BEGIN IMMEDIATE``.

    pysqlite would otherwise run DDL outside any transaction; this follows SQLAlchemy's
    "Serializable isolation / Savepoints / Transactional DDL" recipe for pysqlite, so a whole
    upgrade commits or rolls back at once (SQLite DDL is transactional: a crash leaves the old
    schema) and concurrent migrators queue on the write lock.
    """
    from sqlalchemy import create_engine, event

    engine = create_engine(url, connect_args={"timeout": busy_timeout_s})

    @event.listens_for(engine, "connect")
    def _autocommit_driver(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin_immediate(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def upgrade(engine: Engine, revision: str, *, lock: str = "") -> None:
    """Upgrade to ``revision`` in one transaction on ``engine`` (disposed of afterwards), after
    running the statement ``lock`` (if any) in it."""
    from alembic import command

    config = alembic_config()
    try:
        with engine.begin() as conn:
            if lock:
                conn.exec_driver_sql(lock)
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
    finally:
        engine.dispose()


def script_head() -> str | None:
    """The head revision according to Alembic's script directory."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()
    return None if head is None else str(head)


def known(revision: str) -> bool:
    """Whether ``revision`` is one of the script directory's revisions."""
    from alembic.script import ScriptDirectory

    revisions = ScriptDirectory(str(MIGRATIONS_DIR)).walk_revisions()
    return any(s.revision == revision for s in revisions)


def current_revision(conn: Any, has_table: str) -> str | None:
    """The revision recorded in the database, or None for one Alembic has never touched.

    ``has_table``: the dialect's query whose one value is true when ``alembic_version`` exists.
    """
    found = conn.execute(has_table).fetchone()
    if found is None or not found[0]:
        return None
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


def run_env() -> None:
    """``env.py``: run the pending revisions on the caller's connection, or on a new engine for
    ``sqlalchemy.url``; offline (``alembic upgrade --sql``) write them out instead, for SQLite
    only (the default without a URL).

    SQLite runs the whole upgrade as one transaction; PostgreSQL (run from the command line)
    commits each revision in its own.
    """
    from alembic import context
    from sqlalchemy import NullPool, create_engine

    url = context.config.get_main_option("sqlalchemy.url") or ""
    connection: Connection | None = context.config.attributes.get("connection")
    name = connection.dialect.name if connection is not None else url.partition(":")[0]
    sqlite = not name or name.startswith("sqlite")
    options: dict[str, Any] = (
        {"transactional_ddl": True} if sqlite else {"transaction_per_migration": True}
    )
    with ExitStack() as stack:
        if context.is_offline_mode():
            if not sqlite:
                raise RuntimeError(
                    "offline (--sql) migrations are not supported; run them against a database"
                )
            context.configure(url=url or "sqlite://", literal_binds=True, **options)
        else:
            if connection is None:
                if not url:
                    raise RuntimeError("set sqlalchemy.url to run the migrations")
                engine = sqlite_engine(url) if sqlite else create_engine(url, poolclass=NullPool)
                stack.callback(engine.dispose)
                connection = stack.enter_context(engine.connect())
            context.configure(connection=connection, **options)
        with context.begin_transaction():
            context.run_migrations()
