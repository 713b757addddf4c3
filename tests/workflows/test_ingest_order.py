"""Queued ingestions of one source run one after another in the order they were enqueued, on a
worker that runs several at once (different sources still overlap); two enqueuers at once give
distinct workflow ids to distinct transitions; and an ingestion that failed or was cancelled
holds back no later one and is tried again, not replayed, when its bytes are enqueued again;
one cancelled and resumed by hand after a later one of its source ran is superseded.
On SQLite and on PostgreSQL (store and system database both), with the engine in-process."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spanproof import __version__
from spanproof.bootstrap import build_parser, build_store
from spanproof.config import Settings
from spanproof.core.documents import FetchedDocument
from spanproof.core.store import EvidenceStore
from spanproof.services.ingestion import content_hash
from spanproof.testing.fakes import FakeEmbedder
from spanproof.workflows import EngineConfig, QueueLimits, Runtime, running
from spanproof.workflows.client import connect, enqueue_ingestions, wait
from spanproof.workflows.engine import INGEST_QUEUE

sys.path.insert(0, str(Path(__file__).parent))
from test_crash import backend  # noqa: F401

PAPER = "Walking {tag}\n\nDaily walking lowered systolic blood pressure by {mmhg} mmHg in adults.\n"
SOURCE = "file:/papers/walking.txt"


def doc(mmhg: int, tag: str = "") -> FetchedDocument:
    raw = PAPER.format(mmhg=mmhg, tag=tag).encode()
    return FetchedDocument("text", {}, "text/plain", raw, title="walking")


class Watch:
    """How many parses overlap, per source and over all (the bytes say which source: ``sources``);
    parsing bytes that contain ``fail`` raises."""

    def __init__(self, parse: Any, pause: float = 0.3) -> None:
        self.real, self.pause = parse, pause
        self.lock = threading.Lock()
        self.sources: dict[bytes, str] = {}
        self.now: dict[str, int] = {}
        self.most: dict[str, int] = {}
        self.most_overall = 0
        self.fail: str | None = None

    def add(self, source_id: str, fetched: FetchedDocument) -> tuple[str, FetchedDocument]:
        self.sources[fetched.raw] = source_id
        return source_id, fetched

    def __call__(self, raw: bytes, media_type: str) -> Any:
        if self.fail and self.fail.encode() in raw:
            raise RuntimeError("the parser broke on this version")
        source = self.sources.get(raw, "")
        with self.lock:
            self.now[source] = self.now.get(source, 0) + 1
            self.most[source] = max(self.most.get(source, 0), self.now[source])
            self.most_overall = max(self.most_overall, sum(self.now.values()))
        try:
            time.sleep(self.pause)  # long enough for an overlapping run to show
            return self.real(raw, media_type)
        finally:
            with self.lock:
                self.now[source] -= 1


@pytest.fixture
def engine(backend: tuple[str, str]) -> Iterator[tuple[EvidenceStore, Watch, Any]]:  # noqa: F811
    """The store (watched), the watch, and ``run(ids)``: a worker running 4 ingestions at once
    until ``ids`` are done, returning their results. The journal is created first, so what a
    test enqueues before ``run`` waits in the queue together."""
    store_url, sysdb = backend
    watch = Watch(build_parser())
    store = build_store(Settings(), store_url)
    runtime = Runtime(
        store=store,
        parse=watch,
        embedder=FakeEmbedder,
        checker=lambda record, passages: None,  # type: ignore[arg-type, return-value]
        fetch=lambda target: (_ for _ in ()).throw(RuntimeError("offline")),
    )
    limits = QueueLimits(ingest_concurrency=4, polling_interval=0.1)
    config = EngineConfig(sysdb, "order-test", __version__, limits)
    with running(config, runtime):
        pass  # creates the journal's tables and the queues

    def run(ids: list[str]) -> list[Any]:
        with running(config, runtime), connect(sysdb) as client:
            return wait(client, ids, poll=0.05)

    try:
        yield store, watch, run
    finally:
        store.close()


def test_an_edit_and_its_reverts_queued_together_run_in_the_order_enqueued(
    backend: tuple[str, str],  # noqa: F811
    engine: tuple[EvidenceStore, Watch, Any],
) -> None:
    store, watch, run = engine
    sysdb = backend[1]
    a, b = doc(5), doc(7)
    others = [(f"file:/papers/other-{i}.txt", doc(10 + i, f"other {i}")) for i in range(3)]
    with connect(sysdb) as client:
        ids = [
            enqueue_ingestions(client, sysdb, [watch.add(SOURCE, d)], store).ids[0]
            for d in (a, b, a, b, a)
        ]
        ids += enqueue_ingestions(client, sysdb, [watch.add(*o) for o in others], store).ids
    assert len(set(ids)) == 8
    results = run(ids)
    assert [r["status"] for r in results[:5]] == ["new", "new", "reverted", "reverted", "reverted"]
    assert store.current_history(SOURCE) == [1, 2, 1, 2, 1]
    current = store.current_version(SOURCE)
    assert current is not None and current.sha256 == content_hash(a.raw)
    assert [v.number for v in store.versions(SOURCE)] == [1, 2]
    assert watch.most[SOURCE] == 1  # never two of one source at once
    assert watch.most_overall >= 2  # while different sources ran side by side


def test_two_enqueuers_at_once_give_distinct_transitions_distinct_ids(
    backend: tuple[str, str],  # noqa: F811
    engine: tuple[EvidenceStore, Watch, Any],
) -> None:
    store, _, run = engine
    sysdb = backend[1]
    sources = [f"file:/papers/race-{i}.txt" for i in range(10)]
    start = threading.Barrier(2)
    sent: dict[str, list[str]] = {}

    def enqueue(name: str, edit: int) -> None:
        documents = [(s, d) for s in sources for d in (doc(edit, s), doc(5, s))]
        with connect(sysdb) as client:
            start.wait()
            sent[name] = enqueue_ingestions(client, sysdb, documents, store).ids

    threads = [threading.Thread(target=enqueue, args=args) for args in (("b", 7), ("c", 9))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(len(sources)):
        # each enqueuer's edit, then the source back on the original: four transitions
        mine = sent["b"][2 * i : 2 * i + 2] + sent["c"][2 * i : 2 * i + 2]
        assert len(set(mine)) == 4, mine
    run(sent["b"] + sent["c"])
    for source in sources:
        assert len(store.current_history(source)) == 4
        current = store.current_version(source)
        assert current is not None and current.sha256 == content_hash(doc(5, source).raw)


def test_a_failed_or_cancelled_ingestion_holds_back_no_later_one_and_is_tried_again(
    backend: tuple[str, str],  # noqa: F811
    engine: tuple[EvidenceStore, Watch, Any],
) -> None:
    store, watch, run = engine
    sysdb = backend[1]
    first, failing, cancelled, last = doc(5), doc(6, "FAILS"), doc(7), doc(8)
    watch.fail = "FAILS"

    def enqueue(client: Any, fetched: FetchedDocument) -> str:
        return enqueue_ingestions(client, sysdb, [(SOURCE, fetched)], store).ids[0]

    with connect(sysdb) as client:
        ids = [enqueue(client, d) for d in (first, failing, cancelled, last)]
        client.cancel_workflow(ids[2])
    assert [r["status"] for r in run([ids[0], ids[3]])] == ["new", "new"]
    with connect(sysdb) as client:
        states = [client.retrieve_workflow(w).get_status().status for w in ids]
    assert states == ["SUCCESS", "ERROR", "CANCELLED", "SUCCESS"]
    # the failed one stored its version (pending) before its parse failed; the cancelled one
    # never ran
    assert store.current_history(SOURCE) == [1, 2, 3]
    current = store.current_version(SOURCE)
    assert current is not None and current.sha256 == content_hash(last.raw)

    # The cancelled one made nothing current: its bytes enqueued again are the same transition,
    # tried again under a new id; the same bytes again attach to that try.
    with connect(sysdb) as client:
        again = [enqueue(client, cancelled)]
        assert again == [f"{ids[2]}~2"]
        assert enqueue(client, cancelled) == again[0]
        failed = enqueue(client, failing)  # the failed bytes after `last`: a new transition
        assert failed == f"{ids[1]}:2"
    with pytest.raises(RuntimeError, match="the parser broke"):
        run([*again, failed])
    assert store.current_history(SOURCE) == [1, 2, 3, 4, 2]
    assert store.current_version(SOURCE).state == "pending"  # type: ignore[union-attr]

    # Its bytes are current (unparsed) now: enqueueing them again tries that transition again
    # instead of replaying the failure, and the version is parsed.
    watch.fail = None
    with connect(sysdb) as client:
        retry = enqueue(client, failing)
    assert retry == f"{failed}~2"
    run([retry])
    assert store.current_history(SOURCE) == [1, 2, 3, 4, 2]
    assert store.current_version(SOURCE).state == "parsed"  # type: ignore[union-attr]
    with connect(sysdb) as client:
        replay = enqueue_ingestions(client, sysdb, [(SOURCE, failing)], store)
    assert replay.ids == [retry] and replay.finished == {retry}


def test_a_cancelled_ingestion_resumed_by_hand_after_a_later_one_ran_is_superseded(
    backend: tuple[str, str],  # noqa: F811
    engine: tuple[EvidenceStore, Watch, Any],
) -> None:
    store, _, run = engine
    sysdb = backend[1]
    a, b = doc(5), doc(7)
    with connect(sysdb) as client:
        ids = [enqueue_ingestions(client, sysdb, [(SOURCE, d)], store).ids[0] for d in (a, b, a)]
        client.cancel_workflow(ids[1])
    assert [r["status"] for r in run([ids[0], ids[2]])] == ["new", "duplicate"]
    assert store.current_history(SOURCE) == [1]

    # resumed by hand on DBOS's own queue, outside the source's partition
    with connect(sysdb) as client:
        client.resume_workflow(ids[1])
    (result,) = run([ids[1]])
    assert (result["status"], result["superseded_by"]) == ("superseded", ids[2])
    assert store.current_history(SOURCE) == [1]  # B was never stored
    current = store.current_version(SOURCE)
    assert current is not None and current.sha256 == content_hash(a.raw)
    with connect(sysdb) as client:
        steps = client.list_workflow_steps(ids[1])
    # the decision is a journalled step (a re-run after a crash replays it), and the only one
    assert [(s["function_name"], s["output"]) for s in steps] == [
        ("spanproof.ingest.order", ids[2])
    ]

    # B's bytes enqueued again are its transition tried again (not the superseded result
    # replayed), and they make B current
    with connect(sysdb) as client:
        again = enqueue_ingestions(client, sysdb, [(SOURCE, b)], store)
    assert again.ids == [f"{ids[1]}~2"] and not again.finished
    assert [r["status"] for r in run(again.ids)] == ["new"]
    assert store.current_history(SOURCE) == [1, 2]


def test_a_cancelled_ingestion_resumed_by_hand_with_no_later_one_run_makes_its_content_current(
    backend: tuple[str, str],  # noqa: F811
    engine: tuple[EvidenceStore, Watch, Any],
) -> None:
    store, _, run = engine
    sysdb = backend[1]
    a, b, c = doc(5), doc(7), doc(9)
    with connect(sysdb) as client:
        ids = [enqueue_ingestions(client, sysdb, [(SOURCE, d)], store).ids[0] for d in (a, b, c)]
        client.cancel_workflow(ids[1])
        client.cancel_workflow(ids[2])  # enqueued after B, but it never ran
    assert [r["status"] for r in run([ids[0]])] == ["new"]
    with connect(sysdb) as client:
        client.resume_workflow(ids[1], queue_name=INGEST_QUEUE)
    (result,) = run([ids[1]])
    assert result["status"] == "new" and "superseded_by" not in result
    assert store.current_history(SOURCE) == [1, 2]
    current = store.current_version(SOURCE)
    assert current is not None and current.sha256 == content_hash(b.raw)


def test_a_postgresql_journal_reads_a_sources_ingestions_through_an_index(
    backend: tuple[str, str],  # noqa: F811
    engine: tuple[EvidenceStore, Watch, Any],
) -> None:
    from spanproof.workflows.engine import PREFIX_INDEX, ensure_prefix_index, journal_ready

    sysdb = backend[1]
    # the fixture's worker made the journal: a worker starting now reads it before it launches
    assert journal_ready(sysdb)
    if sysdb.startswith("sqlite"):
        assert not journal_ready(sysdb.replace(".dbos.sqlite", ".none.sqlite"))
        assert ensure_prefix_index(sysdb) is False  # one machine's file: left as it is
        return
    import psycopg

    def indexes() -> list[tuple[str]]:
        with psycopg.connect(sysdb) as conn:
            return conn.execute(
                "SELECT indexname FROM pg_indexes WHERE indexname = %s", (PREFIX_INDEX,)
            ).fetchall()

    assert indexes() == [(PREFIX_INDEX,)]  # made when the fixture's worker started
    with psycopg.connect(sysdb, autocommit=True) as conn:
        conn.execute(f"DROP INDEX dbos.{PREFIX_INDEX}")
    # workers starting together: one makes it, the others wait for it and then find it
    outcomes: list[object] = []
    threads = [
        threading.Thread(target=lambda: outcomes.append(ensure_prefix_index(sysdb)))
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == [True, True, True] and indexes() == [(PREFIX_INDEX,)]
    with psycopg.connect(sysdb) as conn:
        conn.execute("SET enable_seqscan = off")  # a tiny table: ask the planner what it can use
        plan = conn.execute(
            "EXPLAIN SELECT workflow_uuid FROM dbos.workflow_status WHERE workflow_uuid LIKE %s",
            (f"ingest:{SOURCE}:%",),
        ).fetchall()
        assert any(PREFIX_INDEX in line for (line,) in plan), plan
