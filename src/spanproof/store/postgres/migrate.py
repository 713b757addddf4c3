"""Schema migrations of the PostgreSQL store, run with Alembic on open.

The revisions are both dialects' (``spanproof/store/migrations``, run by
:mod:`spanproof.store.migration_env`). :func:`ensure_schema` first asks the database for its
revision (one cheap query) and runs Alembic only when it is behind :data:`HEAD_REVISION`; the
upgrade runs in one transaction under an advisory lock, so concurrent openers wait for each other
and a failed migration leaves nothing half-applied (PostgreSQL DDL is transactional).

The ``alembic`` command line works too: point ``script_location`` at
:data:`~spanproof.store.migration_env.MIGRATIONS_DIR` and ``sqlalchemy.url`` at
:func:`sqlalchemy_url` of the DSN.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from spanproof.core.errors import ConfigurationError
from spanproof.store import migration_env
from spanproof.store.migration_ddl import SCHEMA_HEAD

#: The newest revision in ``migrations/versions`` (a test checks it against Alembic's head).
HEAD_REVISION = SCHEMA_HEAD
#: ``pg_advisory_xact_lock`` key that serialises concurrent migrations (``SPANPROF`` in ASCII).
_LOCK_KEY = 0x5350414E50524F46


def sqlalchemy_url(dsn: str) -> str:
    """The SQLAlchemy URL (``postgresql+psycopg://…``) for a libpq DSN or URI."""
    from sqlalchemy import URL

    try:
        params = {k: str(v) for k, v in conninfo_to_dict(dsn).items() if v is not None}
    except psycopg.ProgrammingError as exc:
        raise ConfigurationError(f"invalid PostgreSQL DSN: {exc}") from exc
    user = params.pop("user", None)
    password = params.pop("password", None) or None
    database = params.pop("dbname", None)
    host = params.get("host", "")
    url_host: str | None = None
    url_port: int | None = None
    # A Unix-socket directory or a multi-host list cannot be a URL host: it stays a query param.
    if host and not host.startswith("/") and "," not in host:
        url_host = params.pop("host")
        port = params.get("port", "")
        if port.isdigit():
            url_port = int(params.pop("port"))
    url = URL.create(
        "postgresql+psycopg",
        username=user,
        password=password,
        host=url_host,
        port=url_port,
        database=database,
        query=params,
    )
    return url.render_as_string(hide_password=False)


def current_revision(conn: psycopg.Connection[tuple[Any, ...]]) -> str | None:
    """The database's Alembic revision, or None when it has never been migrated."""
    return migration_env.current_revision(conn, "SELECT to_regclass('alembic_version') IS NOT NULL")


def upgrade(dsn: str, revision: str = "head") -> None:
    """Run Alembic's upgrade to ``revision`` in one transaction under the migration lock."""
    from sqlalchemy import create_engine, pool

    engine = create_engine(sqlalchemy_url(dsn), poolclass=pool.NullPool)
    lock = f"SELECT pg_advisory_xact_lock({_LOCK_KEY})"
    migration_env.upgrade(engine, revision, lock=lock)


def ensure_schema(dsn: str) -> str:
    """Bring the database to :data:`HEAD_REVISION` if it is behind; returns the revision."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rev = current_revision(conn)
    if rev == HEAD_REVISION:
        return rev
    if rev is not None and not migration_env.known(rev):
        raise ConfigurationError(
            f"the database schema is at revision {rev!r}, which this spanproof does not know "
            f"(its newest is {HEAD_REVISION!r}); upgrade spanproof"
        )
    upgrade(dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:
        rev = current_revision(conn)
    if rev != HEAD_REVISION:
        raise ConfigurationError(f"migration ended at revision {rev!r}, not {HEAD_REVISION!r}")
    return rev
