"""The SQLite schema version and its Alembic migrations, run in code (no ``alembic.ini``).

Opening a file checks ``alembic_version`` with one cheap query; Alembic and SQLAlchemy are imported
only when that says the file is new or behind :data:`SCHEMA_HEAD`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from spanproof.core.errors import StoreError
from spanproof.store import migration_ddl as ddl
from spanproof.store import migration_env

#: The newest revision, one for both dialects (see :mod:`spanproof.store.migration_ddl`).
SCHEMA_HEAD = ddl.SCHEMA_HEAD
#: The Alembic script directory that ships inside the package.
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def current_revision(conn: sqlite3.Connection) -> str | None:
    """The revision recorded in the file, or None for a file Alembic has never touched."""
    return migration_env.current_revision(
        conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
    )


def alembic_config(path: Path) -> Any:
    """An Alembic ``Config`` for the database at ``path`` built in code."""
    return migration_env.alembic_config(MIGRATIONS_DIR, _url(path))


def migration_engine(url: str, *, busy_timeout_s: float = 30.0) -> Any:
    """A SQLAlchemy engine whose transactions start with ``BEGIN IMMEDIATE``.

    pysqlite would otherwise run DDL outside any transaction; this follows SQLAlchemy's
    "Serializable isolation / Savepoints / Transactional DDL" recipe for pysqlite, so a whole
    upgrade commits or rolls back at once and concurrent migrators queue on the write lock.
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


def upgrade(path: Path, *, busy_timeout_s: float, revision: str = "head") -> None:
    """Upgrade the file at ``path`` to ``revision`` in one transaction.

    Raises:
        StoreError: the file is at a revision this version does not know (written by a newer
            spanproof?), or the database failed; ``retryable`` when it was busy.
    """
    from alembic.util import CommandError
    from sqlalchemy.exc import OperationalError, SQLAlchemyError

    engine = migration_engine(_url(path), busy_timeout_s=busy_timeout_s)
    try:
        migration_env.upgrade(MIGRATIONS_DIR, engine, revision)
    except CommandError as exc:
        raise StoreError(f"cannot migrate {path}: {exc}") from exc
    except SQLAlchemyError as exc:
        busy = isinstance(exc, OperationalError) and "locked" in str(exc.orig)
        raise StoreError(f"cannot migrate {path}: {exc}", retryable=busy) from exc


def _url(path: Path) -> str:
    from sqlalchemy.engine import URL

    return URL.create("sqlite", database=str(path)).render_as_string()


def script_head() -> str | None:
    """The head revision according to Alembic's script directory (for tests and tools)."""
    return migration_env.script_head(MIGRATIONS_DIR)
