"""A real process killed with SIGKILL mid-walk: the walk resumes where its journal says and ends
with exactly the flags of an uninterrupted walk, on SQLite and on PostgreSQL."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pg_fixtures import fresh_database
from process_kit import run_child
from spanproof.core.artifacts import Edge
from spanproof.core.graph_store import GraphStore
from spanproof.services import impact
from spanproof.store.postgres import PostgresEvidenceStore
from spanproof.store.sqlite import SqliteEvidenceStore

CHILD = textwrap.dedent(
    """
    import sys
    from spanproof.services import impact
    kind, target, walk_id = sys.argv[1], sys.argv[2], sys.argv[3]
    if kind == "postgres":
        from spanproof.store.postgres import PostgresEvidenceStore as Store
    else:
        from spanproof.store.sqlite import SqliteEvidenceStore as Store
    store = Store(target)
    sys.stdin.readline()  # paced: one step per line from the parent
    while not impact.walk_step(store, walk_id, batch=7).done:
        print("step", flush=True)
        sys.stdin.readline()
    print("done", flush=True)
    store.close()
    """
)


def _graph_edges() -> list[Edge]:
    """source → 120 records → 30 assessments (each on 4 records) → 6 packages → 2 designs, and a
    cycle from a design back to an assessment: 120 + 120 + 30 + 6 + 1 edges."""
    edges = [Edge("source:paper:v1", f"record:r{i:03d}") for i in range(120)]
    edges += [Edge(f"record:r{i:03d}", f"assessment:a{i % 30:02d}") for i in range(120)]
    edges += [Edge(f"assessment:a{j:02d}", f"package:p{j % 6}") for j in range(30)]
    edges += [Edge(f"package:p{k}", f"design:d{k % 2}") for k in range(6)]
    edges.append(Edge("design:d0", "assessment:a00"))
    return edges


EXPECTED_FLAGS = 120 + 30 + 6 + 2


def _run_child(target: str, walk_id: str, kill_after: int | None) -> None:
    """Run the walk in a child process (``target`` is ``kind|dsn``); SIGKILL it after
    ``kill_after`` steps (paced: the child waits for the parent before each step, so it cannot
    finish the walk before the kill however slowly the parent reads)."""
    args = [sys.executable, "-c", CHILD, *target.split("|", 1), walk_id]
    if kill_after is None:
        run_child(args, timeout=120, paced=True)
    else:
        run_child(args, kill_after="step", count=kill_after, timeout=120, paced=True)


@contextmanager
def _sqlite(tmp_path: Path) -> Iterator[tuple[str, GraphStore]]:
    path = tmp_path / "graph.sqlite"
    with SqliteEvidenceStore(path) as store:
        yield f"sqlite|{path}", store


@contextmanager
def _postgres(tmp_path: Path) -> Iterator[tuple[str, GraphStore]]:
    with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=1) as store:
        yield f"postgres|{dsn}", store


@pytest.mark.parametrize("backend", [_sqlite, _postgres], ids=["sqlite", "postgres"])
def test_a_walk_killed_mid_step_resumes_with_every_flag_once(
    tmp_path: Path, backend: object
) -> None:
    with backend(tmp_path) as (target, store):  # type: ignore[operator]
        store.add_edges(_graph_edges())
        walk_id = impact.start_walk(store, "source:paper:v1", "retracted")
        _run_child(target, walk_id, kill_after=8)
        partial = store.get_walk(walk_id)
        assert partial is not None and partial.status == "running"
        assert 0 < partial.flags < EXPECTED_FLAGS
        assert len(store.list_flags(limit=10_000)) == partial.flags  # journal matches the rows
        # restart: the walk goes on from its journal row
        _run_child(target, walk_id, kill_after=None)
        done = store.get_walk(walk_id)
        assert done is not None and done.done
        flags = store.list_flags(changed_ref="source:paper:v1", limit=10_000)
        assert len(flags) == done.flags == EXPECTED_FLAGS
        assert len({f.ref for f in flags}) == EXPECTED_FLAGS
        assert done.edges == len(_graph_edges())
        # every dependent carries the flag, nothing else does
        assert {f.ref for f in flags} == set(store.dependents("source:paper:v1", limit=10_000))
        # resuming a finished walk does nothing
        assert impact.resume_walks(store) == []
