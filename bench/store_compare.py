"""Two source trees' stores side by side: SciFact ingestion (SQLite, PostgreSQL) and impact walks.

    git worktree add /tmp/store_old <commit>      # once: the tree to compare against
    SPANPROOF_DATA_DIR=../shared/data python bench/store_compare.py --old /tmp/store_old \\
        [--new .] [--repeats 3] [--docs 300] [--only postgres] [--write bench/RESULTS.md]

Every measurement runs in a fresh process with ``PYTHONPATH=<tree>/src`` and the same Python,
old and new taking turns (old first in even rounds, new first in odd ones), so drift in the
machine's load hits both alike. Measured, wall time only (setup is not timed):

* ``ingest sqlite``: ingestion of the first ``--docs`` SciFact abstracts (parse, chunk, index,
  measurements; no embeddings) into a fresh SQLite store;
* ``ingest postgres``: the same into a fresh database of one PostgreSQL server (pgserver);
* ``impact 10k`` / ``impact 100k``: the impact walk over bench/impact.py's synthetic graph.

Reported: the median over ``--repeats`` of each, per tree, and the ratio new / old (below 1 is
faster), with the fastest and slowest run. ``ingest postgres`` also counts, per document, the
statements the client sent (SQL statements, each row of an ``executemany``, and the transaction
commands BEGIN, SAVEPOINT, RELEASE, COMMIT) and the times it waited on the server
(``psycopg.Connection.wait`` calls: round trips, a pipeline's several statements being one).
``--only`` keeps the measurements of one kind (``sqlite``, ``postgres``, ``impact``); ``--write``
replaces the ``store-compare`` section of the results file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _results import write_section  # type: ignore[import-not-found]

REPO = Path(__file__).resolve().parent.parent
IMPACT_SIZES = (10_000, 100_000)


# worker side: runs inside the tree under test ------------------------------------------------
def _ingest_seconds(store: Any, docs: int) -> float:
    from spanproof.bootstrap import build_parser
    from spanproof.evaluation.devdata import data_dir
    from spanproof.ingest.files import iter_path
    from spanproof.services.ingestion import ingest

    root = data_dir()
    if root is None:
        raise SystemExit("SciFact not found: set SPANPROOF_DATA_DIR")
    items = list(islice(iter_path(root / "scifact" / "corpus.jsonl"), docs))
    parse = build_parser()
    began = time.perf_counter()
    for sid, fetched in items:
        ingest(store, fetched, sid, parse)
    return time.perf_counter() - began


def _impact_seconds(total: int) -> float:
    from impact import edges_for  # type: ignore[import-not-found]

    from spanproof.services import impact
    from spanproof.store.sqlite import SqliteEvidenceStore

    with tempfile.TemporaryDirectory() as folder:
        store = SqliteEvidenceStore(Path(folder) / "graph.sqlite")
        edges = edges_for(total)
        for start in range(0, len(edges), 50_000):
            store.add_edges(edges[start : start + 50_000])
        walk_id = impact.start_walk(store, "source:paper:v1", "retracted")
        began = time.perf_counter()
        impact.run_walk(store, walk_id, batch=impact.DEFAULT_BATCH)
        seconds = time.perf_counter() - began
        store.close()
    return seconds


def worker(task: str, arg: str) -> dict[str, Any]:
    import spanproof

    if task == "sqlite":
        from spanproof.store.sqlite import SqliteEvidenceStore

        with tempfile.TemporaryDirectory() as folder:
            store = SqliteEvidenceStore(Path(folder) / "ingest.sqlite")
            seconds = _ingest_seconds(store, int(arg))
            store.close()
    elif task == "postgres":
        from spanproof.store.postgres import PostgresEvidenceStore

        store = PostgresEvidenceStore(os.environ["STORE_COMPARE_DSN"])
        counts = _count_round_trips()
        seconds = _ingest_seconds(store, int(arg))
        store.close()
        per_doc = {k: round(v / int(arg), 2) for k, v in counts.items()}
        return {"seconds": seconds, "spanproof": spanproof.__file__, **per_doc}
    else:
        seconds = _impact_seconds(int(arg))
    return {"seconds": seconds, "spanproof": spanproof.__file__}


def _count_round_trips() -> dict[str, int]:
    """Count, from now on, the statements psycopg sends and its waits on the server (the counts
    are only read after the timed part; counting adds well under a microsecond a call)."""
    import psycopg

    counts = {"statements": 0, "waits": 0}
    conn_cls: Any = psycopg.Connection
    cur_cls: Any = psycopg.Cursor
    wait, command = conn_cls.wait, conn_cls._exec_command
    execute, executemany = cur_cls.execute, cur_cls.executemany

    def counted_wait(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["waits"] += 1
        return wait(self, *args, **kwargs)

    def counted_command(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["statements"] += 1
        return command(self, *args, **kwargs)

    def counted_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["statements"] += 1
        return execute(self, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, rows: Any, **kwargs: Any) -> Any:
        rows = list(rows)
        counts["statements"] += len(rows)
        return executemany(self, query, rows, **kwargs)

    conn_cls.wait, conn_cls._exec_command = counted_wait, counted_command
    cur_cls.execute, cur_cls.executemany = counted_execute, counted_executemany
    return counts


# driver side ---------------------------------------------------------------------------------
class Postgres:
    """One pgserver for the whole run; a fresh empty database for every measurement."""

    def __init__(self) -> None:
        import pgserver

        self._dir = tempfile.mkdtemp(prefix="spg", dir="/tmp")
        self._server = pgserver.get_server(self._dir, cleanup_mode="stop")
        self._count = 0

    def fresh(self) -> str:
        import psycopg
        from psycopg.conninfo import make_conninfo

        self._count += 1
        name = f"compare_{self._count}"
        uri = self._server.get_uri()
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return make_conninfo(uri, dbname=name)

    def close(self) -> None:
        self._server.cleanup()


def measure(tree: Path, task: str, arg: str, env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", task, arg],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **env, "PYTHONPATH": str(tree / "src")},
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["spanproof"]).resolve().is_relative_to((tree / "src").resolve()):
        raise SystemExit(f"{tree}: the worker imported spanproof from {result['spanproof']}")
    return dict(result)


def summary(
    name: str,
    times: dict[tuple[str, str], list[float]],
    counts: dict[tuple[str, str], dict[str, Any]],
) -> dict[str, Any]:
    """One measurement's medians, runs and (PostgreSQL) counts per document, old and new."""
    row: dict[str, Any] = {"name": name}
    for which in ("old", "new"):
        row[which] = statistics.median(times[name, which])
        row[which + " runs"] = times[name, which]
        for key in ("statements", "waits"):
            if (name, which) in counts:
                row[f"{which} {key}"] = counts[name, which][key]
    return row


def render(rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [
        "## Store: old and new source side by side",
        "",
        f"Measured by `python bench/store_compare.py --old {args.old} --repeats {args.repeats}"
        f" --docs {args.docs}{' --only ' + args.only if args.only else ''}` on"
        f" {time.strftime('%Y-%m-%d')}: each number is the median wall"
        " time of fresh processes, old and new taking turns (setup not timed); load average"
        f" {os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores.",
        "",
        "| measurement | old | new | new / old | old runs | new runs |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        spread = [f"{min(r[w + ' runs']):.2f}–{max(r[w + ' runs']):.2f} s" for w in ("old", "new")]
        lines.append(
            f"| {r['name']} | {r['old']:.2f} s | {r['new']:.2f} s | {r['new'] / r['old']:.2f}"
            f" | {spread[0]} | {spread[1]} |"
        )
    for r in rows:
        if "old statements" in r:
            lines.append(
                f"\nPer document ({r['name']}): {r['old statements']} statements and"
                f" {r['old waits']} waits on the server (old), {r['new statements']} and"
                f" {r['new waits']} (new)."
            )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, help="the source tree to compare against")
    parser.add_argument("--new", type=Path, default=REPO)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--docs", type=int, default=300, help="SciFact abstracts per ingestion")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--only", choices=("sqlite", "postgres", "impact"))
    parser.add_argument("--write", type=Path)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return 0
    if args.old is None:
        parser.error("--old DIR is required (a checkout of the tree to compare against)")
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    tasks = [(f"ingest sqlite ({args.docs} docs)", "sqlite", str(args.docs))]
    pg = None if args.skip_postgres or args.only not in (None, "postgres") else Postgres()
    if pg is not None:
        tasks.append((f"ingest postgres ({args.docs} docs)", "postgres", str(args.docs)))
    tasks += [(f"impact walk {n // 1000}k edges", "impact", str(n)) for n in IMPACT_SIZES]
    tasks = [t for t in tasks if args.only in (None, t[1])]
    times: dict[tuple[str, str], list[float]] = {}
    counts: dict[tuple[str, str], dict[str, Any]] = {}
    try:
        for round_ in range(args.repeats):
            order = ("old", "new") if round_ % 2 == 0 else ("new", "old")
            for name, task, arg in tasks:
                for which in order:
                    env = {"STORE_COMPARE_DSN": pg.fresh()} if task == "postgres" and pg else {}
                    result = measure(trees[which], task, arg, env)
                    seconds = float(result["seconds"])
                    times.setdefault((name, which), []).append(seconds)
                    if "waits" in result:
                        counts[name, which] = result
                    print(f"round {round_ + 1} {which:>3} {name}: {seconds:.2f} s", flush=True)
    finally:
        if pg is not None:
            pg.close()
    rows = [summary(name, times, counts) for name, _, _ in tasks]
    text = render(rows, args)
    print(text)
    if args.write:
        write_section(args.write, "store-compare", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
