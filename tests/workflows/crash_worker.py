"""A worker process for the crash tests: ``python crash_worker.py MODE STORE SYSDB``.

MODE is ``ingest``, ``order`` (an edit and its reverts of one source), ``verify`` or ``walk``.
The worker launches the engine (executor id ``crash-test``, so a restart resumes what a killed
run left in flight), enqueues the mode's
workflows (their ids are deterministic, so the restart's enqueue attaches to the same ones),
waits for every result and prints ``done``. Hooks on the store print a marker line after the
step's write (``chunks`` inside the ingestion transaction, ``attempt`` after an attempt
committed, ``walked`` after a walk step committed) and pause, so the test can kill -9 the
process at a chosen point mid-work.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spanproof import __version__
from spanproof.bootstrap import build_parser, build_store
from spanproof.config import Settings
from spanproof.core.artifacts import Edge
from spanproof.core.documents import FetchedDocument
from spanproof.core.records import CheckResult, Record, Verdict
from spanproof.testing.fakes import FakeEmbedder
from spanproof.workflows import EngineConfig, QueueLimits, Runtime, running
from spanproof.workflows.client import (
    connect,
    enqueue_ingestions,
    enqueue_verification,
    enqueue_walk,
    wait,
)
from spanproof.workflows.ingestion import INGEST_WORKFLOW

EXECUTOR = "crash-test"
CHANGED = "source:retracted-paper:v1"
DEPENDENTS = 60
WALK_BATCH = 10
BUDGET = 3


def _say(marker: str, pause: float) -> None:
    print(marker, flush=True)
    time.sleep(pause)


def hook(store: Any) -> None:
    """Print a marker after the writes the tests kill around."""
    base = type(store)

    class Hooked(base):  # type: ignore[misc, valid-type]
        def add_chunks(self, chunks: Any) -> Any:
            out = super().add_chunks(chunks)
            _say("chunks", 0.02)
            return out

        def add_attempt(self, record_id: str, attempt: Any) -> Any:
            out = super().add_attempt(record_id, attempt)
            _say("attempt", 0.05)
            return out

        def walk_step(self, walk_id: str, batch: int, at: str) -> Any:
            out = super().walk_step(walk_id, batch, at)
            _say("walked", 0.3)
            return out

    store.__class__ = Hooked


def scope_fails(record: Record, passages: Sequence[str]) -> Verdict:
    """A checker that always fails ``scope``: every record uses its whole attempt budget, each
    retry re-extracting from the source sections."""
    names = ("negation", "scope", "species", "treatment", "endpoint")
    checks = tuple(CheckResult(n, n != "scope", "", "q") for n in names)
    return Verdict("entailed", checks, "crash-test-checker")


def documents(corpus: Path) -> list[tuple[str, Any]]:
    from spanproof.bootstrap import local_documents

    return list(local_documents(corpus))


ORDER_SOURCE = "file:/order/paper.txt"
ORDER_TEXT = "Walking\n\nDaily walking lowered systolic blood pressure by {} mmHg.\n"


def order_documents() -> list[FetchedDocument]:
    """An edit and its reverts of one source: A, B, A, B, A."""
    texts = [ORDER_TEXT.format(mmhg) for mmhg in (5, 7, 5, 7, 5)]
    return [FetchedDocument("text", {}, "text/plain", t.encode(), title="walking") for t in texts]


def enqueue(mode: str, client: Any, store: Any, corpus: Path, sysdb: str) -> list[str]:
    if mode == "order":  # enqueued once; the restart waits on the same workflows
        journal = client.list_workflows(name=INGEST_WORKFLOW, load_input=False, load_output=False)
        if journal:
            return [w.workflow_id for w in journal]
        return [
            enqueue_ingestions(client, sysdb, [(ORDER_SOURCE, d)], store).ids[0]
            for d in order_documents()
        ]
    if mode == "ingest":
        return enqueue_ingestions(client, sysdb, documents(corpus)).ids
    if mode == "verify":
        ids = sorted(r.id for r in store.list_records(limit=1000))
        # attempts_before is 0 for every record: the restart enqueues the same workflow ids.
        return [enqueue_verification(client, rid, 0, budget=BUDGET) for rid in ids]
    return [enqueue_walk(client, CHANGED, "retracted", batch=WALK_BATCH)]


def main(mode: str, store_url: str, sysdb: str, corpus: str) -> None:
    store = build_store(Settings(), store_url)
    hook(store)
    if mode == "walk":
        store.add_edges([Edge(CHANGED, f"record:dep-{i:03d}") for i in range(DEPENDENTS)])
    runtime = Runtime(
        store=store,
        parse=build_parser(),
        embedder=FakeEmbedder,
        checker=scope_fails,
        fetch=lambda target: (_ for _ in ()).throw(RuntimeError("offline")),
        walk_batch=WALK_BATCH,
    )
    # The CLI worker's application version: a workflow resumes only on a worker of its version.
    config = EngineConfig(sysdb, EXECUTOR, __version__, QueueLimits(polling_interval=0.1))
    with running(config, runtime), connect(sysdb) as client:
        ids = enqueue(mode, client, store, Path(corpus), sysdb)
        print("enqueued", len(ids), flush=True)
        wait(client, ids, poll=0.05)
    print("done", flush=True)
    store.close()


if __name__ == "__main__":
    main(*sys.argv[1:5])
