"""``spanproof worker``, ``spanproof queue status`` and ``spanproof workflows …``: the durable
workflows (SPEC §3, §5, §5.7, §8) from the shell.

``spanproof workflows ingest|verify|walk`` runs the work through the engine. By default the
command is its own worker (the embedded default: one command, no server, the journal beside the
store); with ``--enqueue-only`` it only enqueues, and ``spanproof worker`` processes sharing the
system database do the work.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spanproof.cli.errors import handle_errors
from spanproof.cli.record_commands import BUDGET_OPTION
from spanproof.cli.store_commands import (
    DB_OPTION,
    check_store,
    echo_failures,
    echo_quarantine,
    fail_if_all_quarantined,
    fail_if_any_failed,
    open_store,
    read_targets,
)
from spanproof.config import Settings, load_settings
from spanproof.core.artifacts import WALK_REASONS
from spanproof.core.errors import ConfigurationError, InvalidInputError
from spanproof.core.record_store import RecordStore

EXECUTOR_OPTION = click.option(
    "--executor-id",
    default=None,
    help="This worker's stable id (default: SPANPROOF_WORKFLOWS__EXECUTOR_ID, else 'local'). "
    "A restarted worker with the same id resumes what it left in flight.",
)
ENQUEUE_ONLY = click.option(
    "--enqueue-only",
    is_flag=True,
    help="Only enqueue (for `spanproof worker` processes to run) and print the workflow ids.",
)


@contextmanager
def _worker(settings: Settings, db: str | None, executor_id: str | None) -> Iterator[str]:
    """This process as a worker while the block runs; yields the system database URL.

    It first moves the ingestions an earlier version enqueued off their source's partition (with
    none, or one per source) onto it, so that it runs them in order (``adopt_unpartitioned``):
    before its engine launches, when the journal exists already (once launched, the engine
    takes work at once, and would take such an ingestion where it stands, beside its source's
    newer ones), and again after (what an earlier version's enqueuer added meanwhile).
    """
    from spanproof.bootstrap import build_engine_config, build_workflow_runtime
    from spanproof.workflows import running
    from spanproof.workflows.client import adopt_unpartitioned, connect
    from spanproof.workflows.engine import ensure_prefix_index, journal_ready

    config = build_engine_config(settings, db, executor_id)
    runtime = build_workflow_runtime(settings, db)
    url = config.system_database_url
    try:
        if journal_ready(url):
            ensure_prefix_index(url)
            with connect(url) as client:
                adopt_unpartitioned(client, url)
        with running(config, runtime):
            with connect(url) as client:
                adopt_unpartitioned(client, url)
            yield url
    finally:
        runtime.store.close()


@contextmanager
def _engine(db: str | None, executor_id: str | None, enqueue_only: bool) -> Iterator[str]:
    settings = load_settings()
    if enqueue_only:
        from spanproof.bootstrap import build_engine_config

        yield build_engine_config(settings, db, executor_id).system_database_url
        return
    with _worker(settings, db, executor_id) as url:
        yield url


def _run(
    db: str | None,
    executor_id: str | None,
    enqueue_only: bool,
    enqueue: Callable[[Any, str], list[str]],
) -> tuple[list[str], list[Any]]:
    """Enqueue through a client (``enqueue(client, system_database_url)``); unless
    ``enqueue_only``, work as a worker until all are done."""
    from spanproof.workflows.client import connect, wait

    with _engine(db, executor_id, enqueue_only) as url, connect(url) as client:
        ids = enqueue(client, url)
        results = [] if enqueue_only else wait(client, ids)
    return ids, results


@click.command("worker")
@DB_OPTION
@EXECUTOR_OPTION
@handle_errors
def worker_command(db: str | None, executor_id: str | None) -> None:
    """Run workflows from the queues until stopped (SIGTERM or Ctrl-C).

    Every few seconds the worker also queues the impact walks that events started outside a
    workflow (a retraction notice it ingested, a reviewer's rejection), so they run here too.

    Every worker of a deployment points at the same store and system database (PostgreSQL for
    several machines) and has its own stable --executor-id.
    """
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    from spanproof.workflows.client import adopt_unpartitioned, connect, sweep_walks
    from spanproof.workflows.runtime import current

    settings = load_settings()
    check_store(settings, db)  # a mistyped --db is an error, not a new empty store
    try:
        with _worker(settings, db, executor_id) as url, connect(url) as client:
            click.echo(f"worker {executor_id or settings.workflows.executor_id} ready")
            sys.stdout.flush()
            while not stop.wait(settings.workflows.sweep_interval):
                sweep_walks(client, current().store)  # walks that events started elsewhere
                adopt_unpartitioned(client, url)  # an earlier version's enqueuer still running
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)


@click.group("workflows")
def workflows_group() -> None:
    """Ingest, verify and walk impact through the durable workflow engine."""


@workflows_group.command("ingest")
@click.argument("targets", nargs=-1, required=True)
@DB_OPTION
@click.option("--no-embed", is_flag=True, help="Store and index only; embed later.")
@ENQUEUE_ONLY
@EXECUTOR_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@handle_errors
def workflows_ingest(
    targets: tuple[str, ...],
    db: str | None,
    no_embed: bool,
    enqueue_only: bool,
    executor_id: str | None,
    as_json: bool,
) -> None:
    """Ingest like `spanproof ingest`, one durable workflow per source.

    Local files travel in the journal (any worker can run them); pmc:/pmid:/doi: sources are
    fetched by a worker on the rate-limited fetch queue. A file that cannot be read or a source
    that cannot be fetched is listed as failed, the rest are stored, and the command exits
    non-zero after its summary.
    """
    from spanproof.bootstrap import is_remote, remote_source_id
    from spanproof.workflows.client import enqueue_fetch, enqueue_ingestions

    settings = load_settings()
    check_store(settings, db, create=True)
    remote = [t for t in targets if is_remote(t)]
    for target in remote:
        remote_source_id(target)  # a malformed id is refused before the journal
    local = [t for t in targets if t not in remote]
    # A missing path fails before a store is made; a file that cannot be read is listed as
    # failed (as `spanproof ingest` lists it) and the rest go on.
    documents, unread = read_targets(settings, tuple(local), db)
    earlier: set[str] = set()

    def enqueue(client: Any, url: str) -> list[str]:
        ids: list[str] = []
        if documents:
            # What each source reads now and is queued to read names its run, read and
            # enqueued under the source's enqueue lock; its ingestions run in this order.
            with open_store(db, create=True) as (_, store):
                sent = enqueue_ingestions(client, url, documents, store, embed=not no_embed)
            earlier.update(sent.finished)
            ids = sent.ids
        fetches = [(t, remote_source_id(t)) for t in remote]  # one fetch per source
        return ids + [enqueue_fetch(client, t, s, embed=not no_embed) for t, s in fetches]

    nothing = not documents and not remote  # every file unreadable: no store, no journal
    ids, results = ([], []) if nothing else _run(db, executor_id, enqueue_only, enqueue)
    # A workflow an earlier run finished replays that run's result ("new", "reverted"): the
    # bytes are the source's current content already.
    statuses = [
        "duplicate" if wid in earlier and r["status"] in ("new", "reverted") else r["status"]
        for wid, r in zip(ids, results, strict=False)
    ]
    counts = Counter(statuses)
    summary: dict[str, Any] = {
        "workflows": len(ids),
        "enqueued_only": enqueue_only,
        "new": counts.get("new", 0),
        "duplicate": counts.get("duplicate", 0),
        "reverted": counts.get("reverted", 0),
        "quarantined": counts.get("quarantined", 0),
        # an ingestion of the source enqueued after it had run: it changed nothing
        "superseded": counts.get("superseded", 0),
        "failed": counts.get("failed", 0) + len(unread),
        "chunks_embedded": sum(
            int(r.get("chunks_embedded", 0))
            for wid, r in zip(ids, results, strict=False)
            if wid not in earlier
        ),
    }
    quarantine = [
        {"source": r["source_id"], "version": r["version"], "reason": r["reason"]}
        for r in results
        if r["status"] == "quarantined"
    ]
    failures = unread + [
        {k: r[k] for k in ("target", "error", "reason", "retryable")}
        for r in results
        if r["status"] == "failed"
    ]
    _emit(summary, ids, as_json, quarantine, failures)
    fail_if_any_failed({**summary, "failures": failures}, as_json)
    fail_if_all_quarantined(summary, as_json)


def _proposed(db: str | None) -> list[tuple[str, int]]:
    with open_store(db) as (_, store):
        if not isinstance(store, RecordStore):
            raise ConfigurationError(f"{type(store).__name__} keeps no evidence records")
        out: list[tuple[str, int]] = []
        while True:
            page = store.list_records(status="proposed", limit=500, offset=len(out))
            out.extend((r.id, len(store.attempts(r.id))) for r in page)
            if len(page) < 500:
                return out


@workflows_group.command("verify")
@DB_OPTION
@BUDGET_OPTION
@ENQUEUE_ONLY
@EXECUTOR_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def workflows_verify(
    db: str | None, budget: int, enqueue_only: bool, executor_id: str | None, as_json: bool
) -> None:
    """Verify every proposed record, one durable workflow per record (each attempt a step)."""
    from spanproof.workflows.client import enqueue_verification

    pending = _proposed(db)

    def enqueue(client: Any, _url: str) -> list[str]:
        return [enqueue_verification(client, rid, n, budget=budget) for rid, n in pending]

    ids, results = _run(db, executor_id, enqueue_only, enqueue)
    outcomes = Counter(r["outcome"] for r in results)
    _emit({"workflows": len(ids), "enqueued_only": enqueue_only, **outcomes}, ids, as_json)


@workflows_group.command("walk")
@click.argument("changed_ref")
@click.option("--reason", required=True, type=click.Choice(WALK_REASONS), help="Why it changed.")
@click.option("--event", default="", help="Names the event, so a new event walks again.")
@DB_OPTION
@ENQUEUE_ONLY
@EXECUTOR_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def workflows_walk(
    changed_ref: str,
    reason: str,
    event: str,
    db: str | None,
    enqueue_only: bool,
    executor_id: str | None,
    as_json: bool,
) -> None:
    """Walk impact from CHANGED_REF (for example source:pmc:PMC123:v1) in journalled steps."""
    from spanproof.services.impact import ref_exists
    from spanproof.workflows.client import enqueue_walk

    check_store(load_settings(), db)
    # Checked before anything is journalled: a workflow that failed on bad input would replay
    # that failure to every later call with the same arguments.
    with open_store(db) as (_, store):
        if not ref_exists(store, changed_ref):
            raise InvalidInputError(f"{changed_ref} does not exist in this store")

    def enqueue(client: Any, _url: str) -> list[str]:
        return [enqueue_walk(client, changed_ref, reason, event)]

    ids, results = _run(db, executor_id, enqueue_only, enqueue)
    summary: dict[str, Any] = {"workflows": len(ids), "enqueued_only": enqueue_only}
    if results:
        summary.update(results[0])
    _emit(summary, ids, as_json)


@workflows_group.command("recover")
@click.option("--executor-id", required=True, help="The lost worker's executor id.")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the re-enqueued ids as JSON.")
@handle_errors
def workflows_recover(executor_id: str, db: str | None, as_json: bool) -> None:
    """Hand a lost worker's in-flight workflows to the live workers (re-enqueued on their own
    queues; each resumes from its last completed step).

    Ingestions an earlier spanproof version enqueued off their source's partition (with none, or
    one per source) are moved onto it too, as every worker does when it starts.
    """
    from spanproof.workflows.client import adopt_unpartitioned, connect, recover

    url = _system_database(db)
    with connect(url) as client:
        ids = recover(client, executor_id)
        adopted = adopt_unpartitioned(client, url)
    if as_json:
        click.echo(json.dumps({"executor_id": executor_id, "workflow_ids": ids,
                               "adopted": adopted}))  # fmt: skip
        return
    click.echo(f"{len(ids)} workflows of {executor_id} re-enqueued")
    for wid in ids:
        click.echo(f"  {wid}")
    if adopted:
        click.echo(f"{len(adopted)} ingestions enqueued without a partition moved onto it")
        for wid in adopted:
            click.echo(f"  {wid}")


def _system_database(db: str | None) -> str:
    from spanproof.bootstrap import build_engine_config

    return build_engine_config(load_settings(), db).system_database_url


def _emit(
    summary: dict[str, Any],
    ids: list[str],
    as_json: bool,
    quarantine: list[dict[str, Any]] | None = None,
    failures: list[dict[str, Any]] | None = None,
) -> None:
    """The summary (and, for an ingestion, each quarantined document and each source that could
    not be fetched, with its reason)."""
    if as_json:
        extra = {} if quarantine is None else {"quarantine": quarantine}
        if failures is not None:
            extra["failures"] = failures
        click.echo(json.dumps({**summary, **extra, "workflow_ids": ids}, ensure_ascii=False))
        return
    click.echo(", ".join(f"{k}: {v}" for k, v in summary.items()))
    echo_quarantine(quarantine or [])
    echo_failures(failures or [])


@click.group("queue")
def queue_group() -> None:
    """Watch the workflow queues."""


def _when(ms: int) -> str:
    if not ms:
        return ""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")


@queue_group.command("status")
@DB_OPTION
@click.option(
    "--recent",
    type=click.IntRange(0, 10_000),
    default=20,
    show_default=True,
    help="How many recent workflows (0: none, only the queue counts).",
)
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def queue_status(db: str | None, recent: int, as_json: bool) -> None:
    """Queues (limits and workflows per state), executors with work in flight, recent workflows."""
    from spanproof.workflows.client import connect, status

    url = _system_database(db)
    with connect(url) as client:
        view = status(client, url, recent=recent)
    if as_json:
        click.echo(json.dumps(view.to_dict(), ensure_ascii=False))
        return
    console = Console()
    console.print(f"system database: {escape(view.system_database)}")
    queues = Table(title="queues")
    for col in ("queue", "per worker", "rate limit", "enqueued", "running", "done", "failed"):
        queues.add_column(col, no_wrap=col == "queue")
    for q in view.queues:
        c = q.counts
        queues.add_row(
            q.name, str(q.worker_concurrency or "-"), q.rate_limit or "-",
            str(c.get("ENQUEUED", 0)), str(c.get("PENDING", 0)), str(c.get("SUCCESS", 0)),
            str(c.get("ERROR", 0) + c.get("MAX_RECOVERY_ATTEMPTS_EXCEEDED", 0)),
        )  # fmt: skip
    console.print(queues)
    for executor, n in sorted(view.executors.items()):
        console.print(f"executor {escape(executor)}: {n} in flight")
    rows = Table(title="recent workflows")
    for col in ("id", "workflow", "status", "executor", "updated", "error"):
        rows.add_column(col, overflow="fold")
    for w in view.recent:
        rows.add_row(
            escape(w.workflow_id), w.name, w.status, escape(w.executor),
            _when(w.updated_ms), escape(w.error[:80]),
        )  # fmt: skip
    console.print(rows)


COMMANDS = (worker_command, workflows_group, queue_group)
