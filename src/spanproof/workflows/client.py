"""Enqueue, watch and recover workflows from any process, through the system database only.

An API process or a CLI run that only enqueues uses these: it needs no runtime and runs no
workflow code; the workers dequeue. The status view reads the same database.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dbos import DBOSClient, EnqueueOptions

from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import ConfigurationError, StoreError
from spanproof.core.store import EvidenceStore
from spanproof.services.ingestion import content_hash
from spanproof.workflows.engine import (
    APP_NAME,
    FETCH_QUEUE,
    IMPACT_QUEUE,
    INGEST_QUEUE,
    QUEUES,
    VERIFY_QUEUE,
)
from spanproof.workflows.impact import IMPACT_WORKFLOW, RESUME_WORKFLOW, walk_workflow_id
from spanproof.workflows.ingestion import (
    FETCH_WORKFLOW,
    INGEST_WORKFLOW,
    Planned,
    content_history,
    plan_ingestions,
    read_journal,
)
from spanproof.workflows.verification import VERIFY_WORKFLOW, verify_workflow_id

#: Workflow states as the engine names them.
STATES = ("ENQUEUED", "PENDING", "SUCCESS", "ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED")


def _exists(system_database_url: str) -> bool:
    if not system_database_url.startswith("sqlite"):
        return True
    return Path(system_database_url.removeprefix("sqlite:///")).exists()


@contextlib.contextmanager
def connect(system_database_url: str) -> Iterator[DBOSClient]:
    """A client of the system database.

    Raises:
        ConfigurationError: a SQLite system database that no worker has created yet.
        StoreError: the database cannot be reached (retryable).
    """
    if not _exists(system_database_url):
        raise ConfigurationError(
            f"no workflow journal at {system_database_url}: start a worker "
            "(`spanproof worker`) or run `spanproof workflows ingest` once to create it"
        )
    try:
        client = DBOSClient(system_database_url=system_database_url, application_name=APP_NAME)
    except Exception as exc:
        raise StoreError(f"workflow system database: {exc}", retryable=True) from exc
    try:
        yield client
    finally:
        client.destroy()


def _options(workflow: str, queue: str, workflow_id: str) -> EnqueueOptions:
    return {"workflow_name": workflow, "queue_name": queue, "workflow_id": workflow_id}


#: Documents enqueued per journal transaction (each holds its sources' enqueue locks).
ENQUEUE_CHUNK = 100
#: Partitions of the ingest queue. A source's ingestions all go to one partition
#: (:func:`ingest_partition`), which runs one at a time, so they run in the order enqueued; a
#: worker's dequeue sweeps every partition holding queued work, so a fixed number of them
#: keeps that sweep short whatever the number of sources (one partition per source made the
#: SciFact corpus's 5,183 sources 5,183 partitions: bench/RESULTS.md, "Durable workflows").
INGEST_PARTITIONS = 64


def ingest_partition(source_id: str) -> str:
    """The ingest queue's partition of ``source_id``'s ingestions: one of
    :data:`INGEST_PARTITIONS`, by the SHA-256 of the id (the same on every machine).

    >>> ingest_partition("file:/papers/walking.md")
    'ingest-17'
    """
    digest = hashlib.sha256(source_id.encode("utf-8")).digest()
    return f"ingest-{int.from_bytes(digest[:8], 'big') % INGEST_PARTITIONS:02d}"


def _lock_key(source_id: str) -> int:
    """The advisory lock (a signed 64-bit key) that serializes enqueueing for one source."""
    digest = hashlib.sha256(f"spanproof-ingest:{source_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextlib.contextmanager
def _enqueue_transaction(system_database_url: str, sources: Iterable[str]) -> Iterator[Any]:
    """A transaction on the system database that holds the ingestion enqueue lock of each of
    ``sources`` until it commits: on PostgreSQL one transaction-scoped advisory lock per source
    (taken in key order, so two enqueuers never wait on each other in a cycle), on SQLite the
    database's write lock (``BEGIN IMMEDIATE``). Another enqueuer of the same source waits, then
    reads what this one enqueued."""
    import sqlalchemy as sa
    from sqlalchemy.pool import NullPool

    sqlite = system_database_url.startswith("sqlite")
    if sqlite:
        engine = sa.create_engine(system_database_url, poolclass=NullPool)

        @sa.event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # the driver opens no transaction of its own
            dbapi_conn.execute("PRAGMA busy_timeout=30000")

        @sa.event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    else:
        url = sa.make_url(system_database_url).set(drivername="postgresql+psycopg")
        engine = sa.create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            if not sqlite:
                for key in sorted({_lock_key(s) for s in sources}):
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
            yield conn
    except sa.exc.OperationalError as exc:
        raise StoreError(f"workflow system database: {exc}", retryable=True) from exc
    finally:
        engine.dispose()


@dataclass(frozen=True, slots=True)
class Enqueued:
    """What :func:`enqueue_ingestions` did: the workflow id of each document, in order, and
    those of them that had finished already (enqueueing one replays its stored result)."""

    ids: list[str]
    finished: set[str] = field(default_factory=set)


def enqueue_ingestions(
    client: DBOSClient,
    system_database_url: str,
    documents: Iterable[tuple[str, FetchedDocument]],
    store: EvidenceStore | None = None,
    *,
    embed: bool = True,
) -> Enqueued:
    """Enqueue one ingestion workflow per document, on the ingest queue's partition of its
    source; returns their ids (:func:`~spanproof.workflows.ingestion.plan_ingestions`).

    Each source's ingestions run one after another in the order enqueued, on any worker. Each
    id is read, under the source's enqueue lock, against what ``store`` holds now and the
    source's ingestions in the journal, and committed with the lock held, so two enqueuers at
    once never give the same id to different transitions: the second reads what the first
    enqueued. Documents earlier in ``documents`` come before later ones of the same source.
    Without a store each source's history is what the journal alone says, right for sources
    named by their content (``upload:<sha>``), whose content never changes.
    """
    docs = list(documents)
    ids: list[str] = []
    done: set[str] = set()
    for start in range(0, len(docs), ENQUEUE_CHUNK):
        chunk = docs[start : start + ENQUEUE_CHUNK]
        sources = list(dict.fromkeys(source_id for source_id, _ in chunk))
        with _enqueue_transaction(system_database_url, sources) as conn:
            # The journal is read before the store, so a workflow that finishes between the
            # two reads is counted once (with_queued).
            journal = read_journal(client.list_workflows, sources)
            plans: dict[str, list[Planned]] = {}
            for source_id in sources:
                mine = [f for s, f in chunk if s == source_id]
                stored = content_history(store, source_id) if store is not None else []
                shas = [content_hash(f.raw) for f in mine]
                plans[source_id] = plan_ingestions(source_id, shas, stored, journal)
            for source_id, fetched in chunk:
                plan = plans[source_id].pop(0)
                options = _options(INGEST_WORKFLOW, INGEST_QUEUE, plan.workflow_id)
                options["queue_partition_key"] = ingest_partition(source_id)
                options["priority"] = max(plan.priority, 1)
                client.enqueue_in_transaction(conn, options, source_id, fetched, embed)
                ids.append(plan.workflow_id)
                if plan.finished:
                    done.add(plan.workflow_id)
    return Enqueued(ids, done)


#: The system database's table of workflows (DBOS's ``dbos_system_schema`` on PostgreSQL, which
#: spanproof leaves at its default).
_WORKFLOW_TABLE = {"sqlite": "workflow_status", "postgresql": "dbos.workflow_status"}


def adopt_unpartitioned(client: DBOSClient, system_database_url: str) -> list[str]:
    """Move ingestions an earlier spanproof enqueued off their source's partition of the ingest
    queue (:func:`ingest_partition`) onto it, where this version's workers run them in order;
    returns their ids.

    Two earlier keys are known: none (a partitioned queue never dequeues an ingestion with no
    partition key, so it would wait for ever) and the source id itself (one partition per
    source; such an ingestion would run beside the source's newer ones, out of order). Each one
    still ``ENQUEUED`` gets its source's partition and a place before the source's ingestions
    there (whose ids counted it as queued), in the order it was enqueued (its enqueue time,
    then on SQLite, whose times here are whole seconds, the order its row was written). Each is
    one conditional update under the sources' enqueue locks: one a worker took meanwhile, or
    another adopter moved, is left alone, so this is safe to run from every worker at once and
    again after a crash. (DBOS's public API re-enqueues a workflow under its id only from a
    final state: cancelling it first would race a worker that dequeued it.)
    """
    import sqlalchemy as sa

    listed = client.list_workflows(
        name=INGEST_WORKFLOW,
        queue_name=INGEST_QUEUE,
        status="ENQUEUED",
        load_input=False,
        load_output=False,
    )
    stranded = [
        w.workflow_id for w in listed if not str(w.queue_partition_key or "").startswith("ingest-")
    ]
    sqlite = system_database_url.startswith("sqlite")
    table = _WORKFLOW_TABLE["sqlite" if sqlite else "postgresql"]
    order = sa.text(
        f"SELECT workflow_uuid, queue_partition_key FROM {table}"
        " WHERE workflow_uuid IN :ids AND status = 'ENQUEUED' AND queue_name = :queue"
        f" ORDER BY created_at, {'rowid' if sqlite else 'workflow_uuid'}"
    ).bindparams(sa.bindparam("ids", expanding=True))
    first = sa.text(
        f"SELECT MIN(priority) FROM {table} WHERE queue_name = :queue"
        " AND queue_partition_key = :partition AND status IN ('ENQUEUED', 'PENDING')"
        " AND substr(workflow_uuid, 1, :length) = :prefix"
    )
    move = (
        f"UPDATE {table} SET queue_partition_key = :partition, priority = :priority"
        " WHERE workflow_uuid = :id AND status = 'ENQUEUED' AND queue_name = :queue"
    )
    # moved only from where it was read: one another adopter moved meanwhile is left alone
    update = {
        True: sa.text(f"{move} AND queue_partition_key IS NULL"),
        False: sa.text(f"{move} AND queue_partition_key = :was"),
    }
    adopted: list[str] = []
    for start in range(0, len(stranded), ENQUEUE_CHUNK):
        chunk = client.list_workflows(workflow_ids=stranded[start : start + ENQUEUE_CHUNK],
                                      load_input=True, load_output=False)  # fmt: skip
        source_of = {w.workflow_id: str(w.input["args"][0]) for w in chunk if w.input}
        if not source_of:
            continue
        with _enqueue_transaction(system_database_url, source_of.values()) as conn:
            rows = conn.execute(order, {"ids": list(source_of), "queue": INGEST_QUEUE})
            by_source: dict[str, list[tuple[str, str | None]]] = {}
            for wid, key in rows:
                if key != ingest_partition(source_of[wid]):
                    by_source.setdefault(source_of[wid], []).append((wid, key))
            for source_id, moved in by_source.items():
                prefix = f"ingest:{source_id}:"
                params = {"queue": INGEST_QUEUE, "partition": ingest_partition(source_id)}
                where = {**params, "prefix": prefix, "length": len(prefix)}
                before = conn.execute(first, where).scalar()
                top = 1 if before is None else int(before)
                for i, (wid, was) in enumerate(moved):
                    place = {**params, "id": wid, "priority": top - len(moved) + i}
                    if was is not None:
                        place["was"] = was
                    if conn.execute(update[was is None], place).rowcount == 1:
                        adopted.append(wid)
    return adopted


def enqueue_fetch(client: DBOSClient, target: str, source_id: str, *, embed: bool = True) -> str:
    """Enqueue fetch-then-ingest of ``pmc:…`` / ``pmid:…`` / ``doi:…`` on the rate-limited
    fetch queue; one at a time per source: ``source_id`` is the id ``target`` names, normalised
    (``bootstrap.remote_source_id``), so ``pmid:0123`` and ``pmid:123`` enqueued while either is
    queued or running attach to one fetch. The ingestion that follows goes through the source's
    partition of the ingest queue, in order (``ingestion.fetch_and_ingest``)."""
    options = _options(FETCH_WORKFLOW, FETCH_QUEUE, f"fetch:{source_id}:{_stamp()}")
    options["deduplication_id"] = source_id
    options["duplication_policy"] = "return-existing"
    return str(client.enqueue(options, target, embed).get_workflow_id())


def _stamp() -> str:
    import time

    return str(time.time_ns())


def enqueue_verification(
    client: DBOSClient, record_id: str, attempts_before: int, *, budget: int = 3
) -> str:
    """Enqueue verification of one stored record."""
    wid = verify_workflow_id(record_id, attempts_before)
    client.enqueue(_options(VERIFY_WORKFLOW, VERIFY_QUEUE, wid), record_id, budget)
    return wid


def enqueue_walk(
    client: DBOSClient,
    changed_ref: str,
    reason: str,
    event: str = "",
    *,
    batch: int | None = None,
) -> str:
    """Enqueue the impact walk of one event (one workflow per event)."""
    wid = walk_workflow_id(changed_ref, reason, event)
    options = _options(IMPACT_WORKFLOW, IMPACT_QUEUE, wid)
    client.enqueue(options, changed_ref, reason, event, batch)
    return wid


def enqueue_resume(client: DBOSClient, walk_id: str, *, batch: int | None = None) -> str:
    """Enqueue the rest of a walk whose journal row exists (one workflow per walk)."""
    wid = f"resume:{walk_id}"
    client.enqueue(_options(RESUME_WORKFLOW, IMPACT_QUEUE, wid), walk_id, batch)
    return wid


def sweep_walks(client: DBOSClient, store: object, limit: int = 1000) -> list[str]:
    """Enqueue the rest of every walk still running in ``store``: walks that events started
    outside an impact workflow (a retraction notice a worker ingested, a rejection decided by a
    verification workflow or a reviewer, ``spanproof retract --no-walk``). Idempotent: one
    resume workflow per walk, however often it is swept."""
    from spanproof.services.impact import graph

    return [
        enqueue_resume(client, walk.id)
        for walk in graph(store).list_walks(status="running", limit=limit)
    ]


def wait(client: DBOSClient, workflow_ids: Iterable[str], poll: float = 0.2) -> list[Any]:
    """Each workflow's result, in order (raises the first workflow error met)."""
    return [
        client.retrieve_workflow(wid).get_result(polling_interval_sec=poll) for wid in workflow_ids
    ]


def recover(client: DBOSClient, executor_id: str) -> list[str]:
    """Re-enqueue the workflows a lost executor left in flight, on their own queues, so any
    live worker resumes them from their last completed step; returns their ids."""
    pending = client.list_workflows(
        status="PENDING", executor_id=executor_id, load_input=False, load_output=False
    )
    by_queue: dict[str | None, list[str]] = {}
    for wf in pending:
        by_queue.setdefault(wf.queue_name, []).append(wf.workflow_id)
    for queue, ids in by_queue.items():
        client.resume_workflows(ids, queue_name=queue if queue in QUEUES else None)
    return [wid for ids in by_queue.values() for wid in ids]


@dataclass(frozen=True, slots=True)
class QueueState:
    """One queue: its limits and how many of its workflows are in each state."""

    name: str
    worker_concurrency: int | None
    rate_limit: str
    counts: dict[str, int]


@dataclass(frozen=True, slots=True)
class WorkflowRow:
    workflow_id: str
    name: str
    status: str
    queue: str
    executor: str
    created_ms: int
    updated_ms: int
    error: str


@dataclass(frozen=True, slots=True)
class StatusView:
    """What ``spanproof queue status`` and ``/workflows`` show."""

    system_database: str
    queues: list[QueueState]
    by_workflow: dict[str, dict[str, int]]
    executors: dict[str, int]
    recent: list[WorkflowRow] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


def _rate(limiter: Any) -> str:
    if not limiter:
        return ""
    return f"{limiter['limit']} per {limiter['period']:g}s"


def _row(w: Any) -> WorkflowRow:
    return WorkflowRow(
        workflow_id=w.workflow_id,
        name=w.name,
        status=w.status,
        queue=w.queue_name or "",
        executor=w.executor_id or "",
        created_ms=w.created_at or 0,
        updated_ms=w.updated_at or 0,
        error="" if w.error is None else str(w.error)[:200],
    )


def status(client: DBOSClient, system_database: str, *, recent: int = 20) -> StatusView:
    """Queues with their limits and state counts, counts per workflow and state, the executors
    holding in-flight workflows, and the most recent workflows."""
    every = client.list_workflows(load_input=False, load_output=False)
    per_queue: dict[str, Counter[str]] = {}
    per_name: dict[str, Counter[str]] = {}
    executors: Counter[str] = Counter()
    for wf in every:
        per_name.setdefault(wf.name, Counter())[wf.status] += 1
        if wf.queue_name:
            per_queue.setdefault(wf.queue_name, Counter())[wf.status] += 1
        if wf.status == "PENDING" and wf.executor_id:
            executors[wf.executor_id] += 1
    queues = [
        QueueState(q.name, q.worker_concurrency, _rate(q.limiter), dict(per_queue.get(q.name, {})))
        for q in sorted(client.list_queues(), key=lambda q: q.name)
    ]
    # (DBOS reads limit=0 as no limit at all: 0 here means none)
    latest = client.list_workflows(limit=recent, sort_desc=True, load_input=False) if recent else []
    rows = [_row(w) for w in latest]
    return StatusView(
        system_database=_redact(system_database),
        queues=queues,
        by_workflow={k: dict(v) for k, v in sorted(per_name.items())},
        executors=dict(executors),
        recent=rows,
    )


def _redact(url: str) -> str:
    """The URL without its password (never shown)."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in creds else f"{scheme}://{user}@{host}"


class QueueClient:
    """:class:`~spanproof.core.ports.WorkQueue` over the engine's system database: what an API
    process holds to enqueue ingestion and impact walks for the workers (it runs no workflow)."""

    def __init__(self, system_database_url: str) -> None:
        self._url = system_database_url
        self._connection = connect(system_database_url)
        self._client = self._connection.__enter__()

    def enqueue_ingest(self, source_id: str, fetched: FetchedDocument) -> str:
        return enqueue_ingestions(self._client, self._url, [(source_id, fetched)]).ids[0]

    def enqueue_walk(self, walk_id: str) -> str:
        return enqueue_resume(self._client, walk_id)

    def close(self) -> None:
        self._connection.__exit__(None, None, None)
