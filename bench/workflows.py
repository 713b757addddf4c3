"""Durable workflows: per-step journalling overhead, and SciFact ingestion over 1, 2 and 4
`spanproof worker` processes sharing one PostgreSQL.

    make bench-workflows   # = python bench/workflows.py --write bench/RESULTS.md

1. Overhead: the same store steps (``ingest`` of one SciFact abstract each) run as plain calls
   and as journalled DBOS steps (one workflow per document, SQLite system database beside a
   SQLite store, run in-process); and 2,000 trivial steps in one workflow against 2,000 plain
   calls. Reported per step and as a ratio.
2. Scale-out: a fresh PostgreSQL database (pgserver: PostgreSQL 16 + pgvector) per run holds
   the store and the system database; the corpus is enqueued (``--enqueue-only``), then N
   workers drain the ingest queue (``--no-embed``: parsing, chunking and indexing; the embedding
   model would dominate and is measured by bench-ingest). Time from the workers' start to an
   empty queue.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from _results import write_section  # noqa: E402


def corpus_path() -> Path:
    from spanproof.evaluation.devdata import data_dir

    return data_dir() / "scifact" / "corpus.jsonl"


def documents(limit: int | None) -> list[tuple[str, Any]]:
    from spanproof.bootstrap import local_documents

    docs = list(local_documents(corpus_path()))
    return docs if limit is None else docs[:limit]


def overhead(docs: list[tuple[str, Any]], trivial: int) -> dict[str, float]:
    from dbos import DBOS

    from spanproof import __version__
    from spanproof.bootstrap import build_parser
    from spanproof.services.ingestion import ingest
    from spanproof.store.sqlite import SqliteEvidenceStore
    from spanproof.testing.fakes import FakeEmbedder
    from spanproof.workflows import EngineConfig, QueueLimits, Runtime, running
    from spanproof.workflows.ingestion import ingest_document

    parse = build_parser()
    tmp = Path(tempfile.mkdtemp(prefix="wf-bench-"))
    plain = SqliteEvidenceStore(tmp / "plain.sqlite")
    t0 = time.perf_counter()
    for sid, fetched in docs:
        ingest(plain, fetched, sid, parse)
    plain_s = time.perf_counter() - t0
    plain.close()

    store = SqliteEvidenceStore(tmp / "engine.sqlite")
    runtime = Runtime(store, parse, FakeEmbedder, lambda r, p: None, lambda t: None)  # type: ignore[arg-type, return-value]
    config = EngineConfig(f"sqlite:///{tmp / 'engine.dbos.sqlite'}", "bench", __version__,
                          QueueLimits(polling_interval=0.05))  # fmt: skip

    @DBOS.step(name="bench.noop")
    def noop(i: int) -> int:
        return i + 1

    @DBOS.workflow(name="bench.many_steps")
    def many(n: int) -> int:
        return sum(noop(i) for i in range(n))

    with running(config, runtime):
        t0 = time.perf_counter()
        for sid, fetched in docs:
            ingest_document(sid, fetched, False)  # a workflow run directly: its one store step
        engine_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        many(trivial)
        journalled_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    sum(_bare(i) for i in range(trivial))
    bare_s = time.perf_counter() - t0
    store.close()
    n = len(docs)
    return {
        "docs": n,
        "plain_ms": 1000 * plain_s / n,
        "engine_ms": 1000 * engine_s / n,
        "ratio": engine_s / plain_s,
        "trivial": trivial,
        "trivial_ms": 1000 * journalled_s / trivial,
        "bare_us": 1e6 * bare_s / trivial,
    }


def _bare(i: int) -> int:
    return i + 1


def _pg() -> tuple[Any, str]:
    import pgserver  # type: ignore[import-untyped]

    tmp = tempfile.mkdtemp(prefix="wfpg-")
    server = pgserver.get_server(tmp, cleanup_mode="stop")
    return server, server.get_uri()


def _database(admin_uri: str, name: str) -> str:
    import psycopg

    with psycopg.connect(admin_uri, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    head, _, query = admin_uri.partition("?")
    base = head.rsplit("/", 1)[0]
    return f"{base}/{name}" + (f"?{query}" if query else "")


def _spanproof(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "spanproof.cli.main", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)


def _pending(url: str) -> int:
    from spanproof.workflows.client import connect

    with connect(url) as client:
        return len(
            client.list_workflows(
                status=["ENQUEUED", "PENDING"], load_input=False, load_output=False
            )
        )


def scale_run(admin_uri: str, workers: int, corpus: Path, limit: int | None) -> dict[str, float]:
    url = _database(admin_uri, f"wfbench_{workers}")
    env = {**os.environ, "SPANPROOF_WORKFLOWS__POLLING_INTERVAL": "0.1"}
    procs = []
    source = corpus
    if limit is not None:
        source = Path(tempfile.mkdtemp(prefix="wfcorpus-")) / "corpus.jsonl"
        with corpus.open(encoding="utf-8") as f:
            source.write_text("".join(next(f) for _ in range(limit)), encoding="utf-8")
    # A worker started and stopped once creates the schema (store and the engine's journal).
    first = subprocess.Popen(
        [sys.executable, "-m", "spanproof.cli.main", "worker", "--db", url, "--executor-id",
         "setup"], stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert first.stdout is not None
    first.stdout.readline()
    first.terminate()
    first.wait()
    _spanproof("workflows", "ingest", str(source), "--db", url, "--no-embed", "--enqueue-only",
               env=env)  # fmt: skip
    total = _pending(url)
    t0 = time.perf_counter()
    for i in range(workers):
        proc = subprocess.Popen(
            [sys.executable, "-m", "spanproof.cli.main", "worker", "--db", url,
             "--executor-id", f"w{i}"], stdout=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        procs.append(proc)
    while _pending(url) > 0:
        time.sleep(0.25)
    elapsed = time.perf_counter() - t0
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait()
    return {"workers": workers, "docs": total, "seconds": elapsed, "per_s": total / elapsed}


def journal_read(admin_uri: str, corpus: Path, rows: int, sources: int = 200) -> dict[str, float]:
    """The order step's journal read (one source's ingestions, by their id prefix) on a journal
    of about ``rows`` workflows: 1,000 SciFact ingestions by one worker, then the journal's rows
    copied under other ids until it holds ``rows``; median of ``sources`` reads without and with
    the prefix index the engine makes on PostgreSQL (``engine.PREFIX_INDEX``)."""
    import statistics

    import psycopg

    from spanproof.workflows.client import connect
    from spanproof.workflows.engine import PREFIX_INDEX
    from spanproof.workflows.ingestion import INGEST_WORKFLOW, read_journal

    url = _database(admin_uri, "wfbench_journal")
    original = _database
    globals()["_database"] = lambda _admin, _name: url
    try:
        scale_run(admin_uri, 1, corpus, 1000)
    finally:
        globals()["_database"] = original
    with psycopg.connect(url, autocommit=True) as conn:
        columns = [
            r[0]
            for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = 'dbos'"
                " AND table_name = 'workflow_status' ORDER BY ordinal_position"
            )
        ]
        have = _workflows(conn)
        copies = max(0, -(-(rows - have) // have))
        values = ", ".join(
            "'copy:' || g || ':' || workflow_uuid"
            if c == "workflow_uuid"
            else "NULL"
            if c == "deduplication_id"
            else c
            for c in columns
        )
        conn.execute(
            f"INSERT INTO dbos.workflow_status ({', '.join(columns)}) SELECT {values} "
            f"FROM dbos.workflow_status, generate_series(1, {copies}) AS g"
        )
        conn.execute("ANALYZE dbos.workflow_status")
        total = _workflows(conn)
    with connect(url) as client:
        listed = client.list_workflows(name=INGEST_WORKFLOW, load_input=False, load_output=False)
        ids = [w.workflow_id for w in listed if w.workflow_id.startswith("ingest:")]
    names = sorted({":".join(i.split(":")[1:-1]) for i in ids})[:sources]

    def median_ms() -> float:
        with connect(url) as client:
            read_journal(client.list_workflows, names[:1])
            times = []
            for name in names:
                t0 = time.perf_counter()
                read_journal(client.list_workflows, [name])
                times.append(1000 * (time.perf_counter() - t0))
        return statistics.median(times)

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP INDEX IF EXISTS dbos.{PREFIX_INDEX}")
    scan = median_ms()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            f"CREATE INDEX {PREFIX_INDEX} ON dbos.workflow_status (workflow_uuid text_pattern_ops)"
        )
    indexed = median_ms()
    return {"rows": total, "sources": len(names), "scan_ms": scan, "index_ms": indexed}


def _workflows(conn: Any) -> int:
    row = conn.execute("SELECT count(*) FROM dbos.workflow_status").fetchone()
    return int(row[0]) if row else 0


def render(
    over: dict[str, float],
    scale: list[dict[str, float]],
    limit: int | None,
    journal: dict[str, float] | None = None,
) -> str:
    base = scale[0]["per_s"] if scale else 1.0
    rows = "\n".join(
        f"| {int(r['workers'])} | {int(r['docs'])} | {r['seconds']:.1f} | {r['per_s']:.1f} | "
        f"{r['per_s'] / base:.2f}× |"
        for r in scale
    )
    cpus = os.cpu_count()
    command = "python bench/workflows.py --write bench/RESULTS.md" + (
        f" --limit {limit}" if limit else ""
    )
    return f"""## Durable workflows: journalling overhead and scale-out (DBOS Transact)

Measured by `{command}` on {platform.machine()} with {cpus} CPUs,
Python {platform.python_version()}.

**Per-step journalling overhead** (SQLite store, SQLite system database beside it, in-process):

| steps | plain call | as a journalled step | ratio |
|---|---|---|---|
| ingest one SciFact abstract ({int(over["docs"])} docs, one workflow each) | {
        over["plain_ms"]:.2f} ms | {over["engine_ms"]:.2f} ms | {over["ratio"]:.2f}× |
| a trivial step ({int(over["trivial"])} steps in one workflow) | {over["bare_us"]:.2f} µs | {
        over["trivial_ms"]:.2f} ms | — |

**Scale-out**: SciFact corpus ingested (`--no-embed`) by N `spanproof worker` processes
sharing one PostgreSQL 16 (pgserver, store and system database in one database), 4 ingestion
workflows per worker, queue polled every 0.1 s; time from the workers' start to an empty queue:

| workers | documents | seconds | documents/s | speed-up |
|---|---|---|---|---|
{rows}

The speed-up is bounded by the CPUs: parsing and chunking are CPU work in each worker process,
and the PostgreSQL server shares the same cores, so beyond the core count more workers add
contention, not throughput.
{_journal_text(journal)}"""


def _journal_text(journal: dict[str, float] | None) -> str:
    if journal is None:
        return ""
    return f"""
**The order step's journal read** (one source's ingestions, read by their id prefix before an
ingestion writes anything) on a journal of {int(journal["rows"]):,} workflows (1,000 SciFact
ingestions and copies of their rows), median of {int(journal["sources"])} reads through the
engine's client: {journal["scan_ms"]:.2f} ms without the prefix index (a scan of every
workflow), {journal["index_ms"]:.2f} ms with it (`engine.PREFIX_INDEX`, which a worker makes on
a PostgreSQL journal when it starts): {journal["scan_ms"] / journal["index_ms"]:.1f}× faster.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, help="Write the section into this RESULTS.md.")
    parser.add_argument("--limit", type=int, default=None, help="Only the first N documents.")
    parser.add_argument("--overhead-docs", type=int, default=500)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument(
        "--journal-rows", type=int, default=200_000, help="journal size for the read (0: skip)"
    )
    args = parser.parse_args()
    over = overhead(documents(args.overhead_docs), 2000)
    print(over, flush=True)
    server, admin = _pg()
    try:
        scale = []
        for n in [int(x) for x in args.workers.split(",")]:
            scale.append(scale_run(admin, n, corpus_path(), args.limit))
            print(scale[-1], flush=True)
        journal = (
            journal_read(admin, corpus_path(), args.journal_rows) if args.journal_rows else None
        )
        print(journal, flush=True)
    finally:
        server.cleanup()
    body = render(over, scale, args.limit, journal)
    print(body)
    if args.write:
        write_section(args.write, "workflows", body)


if __name__ == "__main__":
    main()
