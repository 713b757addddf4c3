"""The SQLite schema version and its Alembic migrations, run in code (no ``alembic.ini``).

Opening a file checks ``alembic_version`` with one cheap query; Alembic and SQLAlchemy are imported
only when that says the file is new or behind :data:`SCHEMA_HEAD`. The revisions are both
dialects' (``spanproof/store/migrations``, see :mod:`spanproof.store.migration_env`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from spanproof.core.errors import StoreError
from spanproof.store import migration_env
from spanproof.store.migration_ddl import SCHEMA_HEAD
from spanproof.store.migration_env import script_head

__all__ = ["SCHEMA_HEAD", "alembic_config", "current_revision", "script_head", "upgrade"]


def current_revision(conn: sqlite3.Connection) -> str | None:
    """The revision recorded in the file, or None for a file Alembic has never touched."""
    return migration_env.current_revision(
        conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
    )


def alembic_config(path: Path) -> Any:
    """An Alembic ``Config`` for the database at ``path`` built in code."""
    return migration_env.alembic_config(_url(path))


def upgrade(path: Path, *, busy_timeout_s: float, revision: str = "head") -> None:
    """Upgrade the file at ``path`` to ``revision`` in one transaction.

    Raises:
        StoreError: the file is at a revision this version does not know (written by a newer
            spanproof?), or the database failed; ``retryable`` when it was busy.
    """
    from alembic.util import CommandError
    from sqlalchemy.exc import OperationalError, SQLAlchemyError

    engine = migration_env.sqlite_engine(_url(path), busy_timeout_s=busy_timeout_s)
    try:
        migration_env.upgrade(engine, revision)
    except CommandError as exc:
        raise StoreError(f"cannot migrate {path}: {exc}") from exc
    except SQLAlchemyError as exc:
        busy = isinstance(exc, OperationalError) and "locked" in str(exc.orig)
        raise StoreError(f"cannot migrate {path}: {exc}", retryable=busy) from exc


def _url(path: Path) -> str:
    from sqlalchemy.engine import URL

    return URL.create("sqlite", database=str(path)).render_as_string()
