"""The engine: its configuration, the system database's place, the queues, and one launch per
process.

The embedded default needs no server: a SQLite store ``x.sqlite`` keeps the engine's journal in
``x.dbos.sqlite`` beside it. A PostgreSQL store keeps it in the same database (schema ``dbos``),
which every worker and API process shares, so queued workflows spread over all the workers.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dbos import DBOS, DBOSConfig

from spanproof.core.errors import ConfigurationError, StoreError
from spanproof.core.store import postgres_url
from spanproof.workflows import runtime as _runtime
from spanproof.workflows.runtime import Runtime

#: The engine's application name: workers, enqueuers and the status view must agree on it.
APP_NAME = "spanproof"
#: Queue names (SPEC §3 ingestion, §5 verification, §5.7 impact; ``fetch`` for connectors).
INGEST_QUEUE = "spanproof-ingest"
FETCH_QUEUE = "spanproof-fetch"
VERIFY_QUEUE = "spanproof-verify"
IMPACT_QUEUE = "spanproof-impact"
QUEUES = (INGEST_QUEUE, FETCH_QUEUE, VERIFY_QUEUE, IMPACT_QUEUE)
#: The modules whose workflows a worker runs.
WORKFLOW_MODULES = (
    "spanproof.workflows.ingestion",
    "spanproof.workflows.verification",
    "spanproof.workflows.impact",
)


@dataclass(frozen=True, slots=True)
class QueueLimits:
    """Concurrency per worker and rate limits over all workers.

    ``fetch_per_second`` paces network connectors (one fetch per workflow start);
    ``model_calls_per_minute`` paces verification (the LLM checker), None for no limit.
    """

    ingest_concurrency: int = 4
    verify_concurrency: int = 2
    impact_concurrency: int = 2
    fetch_concurrency: int = 2
    fetch_per_second: float = 3.0
    model_calls_per_minute: int | None = None
    polling_interval: float = 1.0


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Where the journal lives and who this process is.

    Attributes:
        system_database_url: ``sqlite:///…`` or ``postgresql://…``.
        executor_id: stable per worker: a restarted worker with the same id resumes what a
            killed one left in flight (another worker can take it over with
            ``spanproof workflows recover``).
        app_version: the journal's application version; workers and enqueuers share it.
        limits: the queues' limits.
    """

    system_database_url: str
    executor_id: str = "local"
    app_version: str = "1"
    limits: QueueLimits = field(default_factory=QueueLimits)


def system_database_url(store_url: str, explicit: str | None = None) -> str:
    """The engine's system database for a store: ``explicit`` when given, else beside the store.

    >>> system_database_url("data/spanproof.sqlite")
    'sqlite:///data/spanproof.dbos.sqlite'
    """
    if explicit:
        return explicit
    postgres = postgres_url(store_url)
    if postgres is not None:
        return postgres
    path = Path(store_url.removeprefix("sqlite:///").removeprefix("sqlite://"))
    name = path.name.removesuffix(".sqlite").removesuffix(".db") or "spanproof"
    return f"sqlite:///{path.with_name(name + '.dbos.sqlite')}"


def _dbos_config(config: EngineConfig) -> DBOSConfig:
    return {
        "name": APP_NAME,
        "system_database_url": config.system_database_url,
        "executor_id": config.executor_id,
        "application_version": config.app_version,
        "log_level": "WARNING",
        "notification_listener_polling_interval_sec": 0.1,
    }


def register_queues(limits: QueueLimits) -> None:
    """Declare the four queues with their limits (persisted in the system database).

    The ingest queue is partitioned (a source's ingestions on one of
    ``client.INGEST_PARTITIONS``) with one workflow of a partition running at a time over all
    workers, so ingestions of one source never overlap, while different sources still run
    ``ingest_concurrency`` at a time per worker.
    """
    poll = limits.polling_interval
    # Partitioned (a source on one partition), one at a time per partition over all workers:
    # a source's ingestions run one after another in the order enqueued (client.enqueue_ingestions).
    DBOS.register_queue(
        INGEST_QUEUE,
        worker_concurrency=limits.ingest_concurrency,
        partition_concurrency=1,
        polling_interval_sec=poll,
        on_conflict="always_update",
    )
    DBOS.register_queue(
        FETCH_QUEUE,
        worker_concurrency=limits.fetch_concurrency,
        limiter={"limit": max(1, round(limits.fetch_per_second)), "period": 1.0},
        polling_interval_sec=poll,
        on_conflict="always_update",
    )
    per_minute = limits.model_calls_per_minute
    DBOS.register_queue(
        VERIFY_QUEUE,
        worker_concurrency=limits.verify_concurrency,
        limiter=None if per_minute is None else {"limit": per_minute, "period": 60.0},
        polling_interval_sec=poll,
        on_conflict="always_update",
    )
    DBOS.register_queue(
        IMPACT_QUEUE,
        worker_concurrency=limits.impact_concurrency,
        polling_interval_sec=poll,
        on_conflict="always_update",
    )


#: The index a PostgreSQL journal gets so that a source's ingestions are read by their id
#: prefix (``ingest:<source>:``, :func:`spanproof.workflows.ingestion.read_journal`, once per
#: ingestion and per enqueue) through a b-tree rather than a scan of every workflow the journal
#: holds: ``LIKE 'prefix%'`` uses a ``text_pattern_ops`` index whatever the database's collation.
PREFIX_INDEX = "spanproof_workflow_id_prefix"
#: The advisory lock that makes workers starting together create the index once.
_INDEX_LOCK_KEY = 0x5350414E50524F46  # "SPANPROF"


@contextmanager
def _journal_transaction(system_database_url: str) -> Iterator[Any]:
    """One transaction on the journal's database (PostgreSQL through psycopg), its connection
    closed after.

    Raises:
        StoreError: the database cannot be reached (retryable).
    """
    import sqlalchemy as sa
    from sqlalchemy.pool import NullPool

    url = sa.make_url(system_database_url)
    if not system_database_url.startswith("sqlite"):
        url = url.set(drivername="postgresql+psycopg")
    engine = sa.create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            yield conn
    except sa.exc.OperationalError as exc:
        raise StoreError(f"workflow system database: {exc}", retryable=True) from exc
    finally:
        engine.dispose()


def journal_ready(system_database_url: str) -> bool:
    """Whether the journal's tables exist (a worker has launched on it before): then a client
    can read it before this process's engine launches and starts taking work.

    Raises:
        StoreError: the database cannot be reached (retryable).
    """
    import sqlalchemy as sa

    if system_database_url.startswith("sqlite"):
        path = Path(system_database_url.removeprefix("sqlite:///").removeprefix("sqlite://"))
        if not path.exists():
            return False
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'workflow_status'"
    else:
        query = "SELECT to_regclass('dbos.workflow_status') IS NOT NULL"
    with _journal_transaction(system_database_url) as conn:
        return bool(conn.execute(sa.text(query)).scalar())


def ensure_prefix_index(system_database_url: str) -> bool:
    """Create :data:`PREFIX_INDEX` on a PostgreSQL journal (``dbos.workflow_status``) unless it
    exists; True when the journal is PostgreSQL. A SQLite journal is left as it is: it is one
    machine's file, which a scan reads quickly.

    Raises:
        StoreError: the database cannot be reached (retryable).
    """
    if not system_database_url.startswith(("postgresql", "postgres")):
        return False
    import sqlalchemy as sa

    with _journal_transaction(system_database_url) as conn:
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _INDEX_LOCK_KEY})
        conn.execute(
            sa.text(
                f"CREATE INDEX IF NOT EXISTS {PREFIX_INDEX} "
                "ON dbos.workflow_status (workflow_uuid text_pattern_ops)"
            )
        )
    return True


_LAUNCH_LOCK = threading.Lock()


@contextmanager
def running(config: EngineConfig, runtime: Runtime) -> Iterator[None]:
    """Launch the engine in this process with ``runtime`` bound, and tear it down after.

    While it runs, this process is a worker: it resumes the workflows its executor id left in
    flight and dequeues from every queue within the limits.

    Raises:
        ConfigurationError: the engine is already running in this process.
    """
    # Importing the workflow modules registers their functions before launch.
    for module in WORKFLOW_MODULES:
        importlib.import_module(module)

    if not _LAUNCH_LOCK.acquire(blocking=False):
        raise ConfigurationError("the workflow engine is already running in this process")
    try:
        _runtime.bind(runtime, config.system_database_url)
        logging.getLogger("dbos").setLevel(logging.WARNING)
        DBOS(config=_dbos_config(config))
        try:
            DBOS.launch()
            ensure_prefix_index(config.system_database_url)
            register_queues(config.limits)
            yield
        finally:
            DBOS.destroy(destroy_registry=False)
    finally:
        _runtime.unbind()
        _LAUNCH_LOCK.release()
