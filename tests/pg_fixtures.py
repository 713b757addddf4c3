"""A real PostgreSQL with pgvector for the tests: one server per session, a database per test.

The server is the ``pgserver`` wheel (PostgreSQL 16 + pgvector, a dev dependency) started in a
temporary directory on a Unix socket, or the server at ``SPANPROOF_TEST_PG_DSN`` when that is set
(it needs the ``vector`` extension available and the right to create databases).

Without either, the PostgreSQL tests are skipped with a reason on a developer's machine, and
**fail** when ``CI`` is set: CI never skips them.

Each test gets a fresh database copied from a template that is already migrated to the newest
revision (``CREATE DATABASE … TEMPLATE``, tens of milliseconds), and dropped afterwards.

Use from a test module (no ``conftest.py`` needed)::

    from pg_fixtures import fresh_database

    @pytest.fixture
    def dsn() -> Iterator[str]:
        with fresh_database() as dsn:
            yield dsn
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

if TYPE_CHECKING:
    from spanproof.core.store import EvidenceStore

ENV_DSN = "SPANPROOF_TEST_PG_DSN"


@dataclass
class PgCluster:
    """A PostgreSQL server the tests may create and drop databases on."""

    admin_dsn: str
    prefix: str
    server: Any = None  # the pgserver handle when we started one
    tmpdir: str | None = None
    template: str | None = None
    _counter: itertools.count[int] = field(default_factory=itertools.count)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def dsn(self, dbname: str) -> str:
        return make_conninfo(self.admin_dsn, dbname=dbname)

    def admin(self) -> psycopg.Connection[tuple[Any, ...]]:
        return psycopg.connect(self.admin_dsn, autocommit=True)

    def create_database(self, *, migrated: bool = True) -> str:
        """A new database: migrated to the newest revision, or empty (``template0``)."""
        with self._lock:
            name = f"{self.prefix}_{next(self._counter)}"
        template = self._migrated_template() if migrated else "template0"
        with self.admin() as conn:
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(name), sql.Identifier(template)
                )
            )
        return name

    def drop_database(self, name: str) -> None:
        with self.admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )

    def _migrated_template(self) -> str:
        with self._lock:
            if self.template is None:
                from spanproof.store.postgres import PostgresEvidenceStore

                name = f"{self.prefix}_template"
                with self.admin() as conn:
                    conn.execute(
                        sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                            sql.Identifier(name)
                        )
                    )
                    conn.execute(
                        sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(
                            sql.Identifier(name)
                        )
                    )
                PostgresEvidenceStore(self.dsn(name), pool_size=1).close()
                self.template = name
            return self.template

    def shutdown(self) -> None:
        if self.template is not None:
            with contextlib.suppress(psycopg.Error):
                self.drop_database(self.template)
            self.template = None
        if self.server is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with contextlib.suppress(Exception):
                    self.server.cleanup()
            self.server = None
        if self.tmpdir is not None:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None


_CLUSTER: dict[str, PgCluster] = {}  # the one cluster of this test process, once started
_CLUSTER_LOCK = threading.Lock()


def pg_cluster() -> PgCluster:
    """The session's PostgreSQL (started on first use); skips or fails the test when absent."""
    with _CLUSTER_LOCK:
        if "cluster" not in _CLUSTER:
            cluster = _start()
            atexit.register(cluster.shutdown)
            _CLUSTER["cluster"] = cluster
        return _CLUSTER["cluster"]


def _start() -> PgCluster:
    prefix = f"spanproof_test_{os.getpid()}"
    external = os.environ.get(ENV_DSN, "").strip()
    if external:
        try:
            with psycopg.connect(external, autocommit=True, connect_timeout=10) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error as exc:
            pytest.fail(f"{ENV_DSN} is set but PostgreSQL there cannot be reached: {exc}")
        return PgCluster(admin_dsn=external, prefix=prefix)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver
    except ImportError as exc:
        reason = (
            "PostgreSQL store tests need a PostgreSQL with pgvector: install the dev extra "
            f"(pip install -e '.[dev]', which brings pgserver) or set {ENV_DSN} ({exc})"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI never skips the PostgreSQL tests: {reason}", pytrace=False)
        pytest.skip(reason)
    # Short path: a Unix socket path must stay under ~100 bytes.
    tmpdir = tempfile.mkdtemp(prefix="spg-")
    try:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (CI, root shells).
            warnings.simplefilter("ignore")
            server = pgserver.get_server(tmpdir, cleanup_mode="stop")
            uri = server.get_uri()
    except Exception as exc:
        shutil.rmtree(tmpdir, ignore_errors=True)
        pytest.fail(f"pgserver could not start PostgreSQL in {tmpdir}: {exc}", pytrace=False)
    cluster = PgCluster(admin_dsn=uri, prefix=prefix, server=server, tmpdir=tmpdir)
    # A throwaway test server: durability is not what these tests measure.
    with cluster.admin() as conn:
        conn.execute("ALTER SYSTEM SET fsync = off")
        conn.execute("ALTER SYSTEM SET synchronous_commit = off")
        conn.execute("ALTER SYSTEM SET full_page_writes = off")
        conn.execute("SELECT pg_reload_conf()")
    return cluster


@contextlib.contextmanager
def fresh_database(*, migrated: bool = True) -> Iterator[str]:
    """The DSN of a new database, dropped afterwards: migrated, or empty with ``migrated=False``."""
    cluster = pg_cluster()
    name = cluster.create_database(migrated=migrated)
    try:
        yield cluster.dsn(name)
    finally:
        cluster.drop_database(name)


@contextlib.contextmanager
def dialect_store(dialect: str, tmp_path: Path) -> Iterator[EvidenceStore]:
    """An empty store of ``dialect`` (``sqlite``: a file under ``tmp_path``; ``postgres``: a
    fresh database), closed (and dropped) afterwards."""
    from spanproof.store.postgres import PostgresEvidenceStore
    from spanproof.store.sqlite import SqliteEvidenceStore

    if dialect == "sqlite":
        with SqliteEvidenceStore(tmp_path / "store.sqlite") as store:
            yield store
        return
    with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=2) as pg_store:
        yield pg_store


def pg_url(dsn: str) -> str:
    """A libpq conninfo as a postgresql:// URL (the store and the engine both take one)."""
    parts = conninfo_to_dict(dsn)
    user = quote(str(parts.get("user", "postgres")))
    password = parts.get("password")
    auth = f"{user}:{quote(str(password))}" if password else user
    host = str(parts.get("host", ""))
    port = parts.get("port")
    db = quote(str(parts["dbname"]))
    if host.startswith("/"):
        query = f"?host={quote(host)}" + (f"&port={port}" if port else "")
        return f"postgresql://{auth}@/{db}{query}"
    return f"postgresql://{auth}@{host}{':' + str(port) if port else ''}/{db}"
