"""The workflow CLI end to end with real processes: the embedded one-command default, the status
view (CLI and web page), `spanproof worker` processes sharing one PostgreSQL, and handing a lost
worker's in-flight workflows to another (`spanproof workflows recover`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.state import AppState
from spanproof.config import Settings
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.apps import app_state

sys.path.insert(0, str(Path(__file__).parent))
from test_crash import backend, run_worker  # noqa: F401

from pg_fixtures import pg_url
from process_kit import text_corpus


def spanproof(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spanproof.cli.main", *args],
        capture_output=True,
        text=True,
        env=env or _env(),
        timeout=300,
        check=False,
    )


def _env() -> dict[str, str]:
    return {**os.environ, "SPANPROOF_WORKFLOWS__POLLING_INTERVAL": "0.1"}


def test_embedded_ingest_is_one_command_with_the_journal_beside_the_store(tmp_path: Path) -> None:
    corpus = text_corpus(tmp_path / "corpus", 3)
    db = tmp_path / "data" / "store.sqlite"
    db.parent.mkdir()
    first = spanproof("workflows", "ingest", str(corpus), "--db", str(db), "--no-embed", "--json")
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert summary["workflows"] == 3 and summary["new"] == 3
    assert (tmp_path / "data" / "store.dbos.sqlite").exists()
    again = spanproof("workflows", "ingest", str(corpus), "--db", str(db), "--no-embed", "--json")
    assert json.loads(again.stdout)["workflow_ids"] == summary["workflow_ids"]  # same workflows
    with SqliteEvidenceStore(db) as store:
        assert store.stats()["sources"] == 3 and store.stats()["versions"] == 3
    status = spanproof("queue", "status", "--db", str(db), "--json")
    assert status.returncode == 0, status.stderr
    view = json.loads(status.stdout)
    (ingest_queue,) = [q for q in view["queues"] if q["name"] == "spanproof-ingest"]
    assert ingest_queue["counts"] == {"SUCCESS": 3}
    assert ingest_queue["worker_concurrency"] == 4
    assert view["by_workflow"] == {"spanproof.ingest_document": {"SUCCESS": 3}}
    text = spanproof("queue", "status", "--db", str(db))
    assert "spanproof-ingest" in text.stdout

    with SqliteEvidenceStore(db) as store, TestClient(create_app(_state(store))) as client:
        page = client.get("/workflows")
        assert page.status_code == 200
        assert "spanproof-ingest" in page.text and "spanproof.ingest_document" in page.text


def test_status_before_any_worker_says_how_to_start_one(tmp_path: Path) -> None:
    result = spanproof("queue", "status", "--db", str(tmp_path / "none.sqlite"))
    assert result.returncode == 3 and "spanproof worker" in result.stderr
    with (
        SqliteEvidenceStore(tmp_path / "empty.sqlite") as store,
        TestClient(create_app(_state(store))) as client,
    ):
        page = client.get("/workflows")
    assert page.status_code == 200 and "spanproof worker" in page.text


def _state(store: SqliteEvidenceStore) -> AppState:
    return app_state(store)


@pytest.fixture
def pg() -> Iterator[str]:
    from pg_fixtures import fresh_database

    with fresh_database() as dsn:
        yield pg_url(dsn)


def _workers(url: str, *ids: str) -> list[subprocess.Popen[str]]:
    procs = []
    for executor in ids:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spanproof.cli.main", "worker", "--db", url,
             "--executor-id", executor],
            stdout=subprocess.PIPE, text=True, env=_env(),
        )  # fmt: skip
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == f"worker {executor} ready"
        procs.append(proc)
    return procs


def _drain(url: str, timeout: float = 120) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = spanproof("queue", "status", "--db", url, "--json", "--recent", "100").stdout
        view: dict[str, object] = json.loads(out)
        counts = view["by_workflow"].get("spanproof.ingest_document", {})  # type: ignore[attr-defined]
        if counts and set(counts) == {"SUCCESS"}:
            return view
        time.sleep(0.5)
    raise AssertionError(f"workflows not done: {view}")


def _stop(procs: list[subprocess.Popen[str]]) -> None:
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=60)
        assert proc.stdout is not None
        proc.stdout.close()
        assert proc.returncode == 0


def test_two_workers_share_the_queue_and_the_api_side_only_enqueues(
    pg: str, tmp_path: Path
) -> None:
    corpus = text_corpus(tmp_path / "corpus", 40)
    # The system database is created by the first worker; the enqueuer only writes rows.
    procs = _workers(pg, "w1", "w2")
    try:
        sent = spanproof(
            "workflows", "ingest", str(corpus), "--db", pg, "--no-embed", "--enqueue-only",
            "--json",
        )  # fmt: skip
        assert sent.returncode == 0, sent.stderr
        assert json.loads(sent.stdout)["workflows"] == 40
        view = _drain(pg)
    finally:
        _stop(procs)
    ran_by = {w["executor"] for w in view["recent"]}  # type: ignore[index, union-attr]
    assert ran_by == {"w1", "w2"}
    assert view["by_workflow"] == {"spanproof.ingest_document": {"SUCCESS": 40}}


def test_a_lost_workers_workflows_are_recovered_by_another(
    backend: tuple[str, str],  # noqa: F811
    tmp_path: Path,
) -> None:
    corpus = text_corpus(tmp_path / "corpus", 40)
    run_worker("ingest", backend, corpus, kill_after="chunks", count=5)  # executor crash-test
    store_url = backend[0]
    recovered = spanproof("workflows", "recover", "--executor-id", "crash-test", "--db", store_url)
    assert recovered.returncode == 0, recovered.stderr
    assert "re-enqueued" in recovered.stdout
    procs = _workers(store_url, "replacement")
    try:
        view = _drain(store_url)
    finally:
        _stop(procs)
    counts = view["by_workflow"]["spanproof.ingest_document"]  # type: ignore[index]
    from spanproof.bootstrap import build_store

    store = build_store(Settings(), store_url)
    try:
        stats = store.stats()
        assert stats["sources"] == counts["SUCCESS"] == stats["versions"]  # type: ignore[index]
        assert all(len(store.versions(s.id)) == 1 for s in store.list_sources(limit=100))
    finally:
        store.close()


def test_the_api_only_enqueues_and_a_worker_does_the_work(pg: str) -> None:
    from spanproof.store.postgres import PostgresEvidenceStore
    from spanproof.workflows import system_database_url
    from spanproof.workflows.client import QueueClient

    text = "Walking\n\nDaily walking lowered systolic blood pressure by 5 mmHg in adults.\n"
    procs = _workers(pg, "api-worker")  # a worker creates the journal's tables
    with PostgresEvidenceStore(pg, pool_size=2) as store:
        queue = QueueClient(system_database_url(pg, None))
        state = _state(store)  # type: ignore[arg-type]
        state.work_queue = queue
        try:
            with TestClient(create_app(state)) as client:
                queued = client.post("/v1/sources", json={"text": text, "media_type": "text/plain"})
                assert queued.status_code == 202, queued.text
                body = queued.json()
                assert body["status"] == "queued" and body["workflow_id"]
                deadline = time.monotonic() + 120
                while store.get_source(body["source_id"]) is None:
                    assert time.monotonic() < deadline, "the worker never ingested the upload"
                    time.sleep(0.3)
                retracted = client.post(f"/v1/sources/{body['source_id']}/retract", json={})
                assert retracted.status_code == 202, retracted.text
                [walk] = retracted.json()["walks"]
                while (w := store.get_walk(walk["id"])) is None or not w.done:
                    assert time.monotonic() < deadline, "the worker never walked"
                    time.sleep(0.3)
        finally:
            _stop(procs)
            queue.close()


def test_a_worker_runs_walks_that_events_started_elsewhere(pg: str) -> None:
    from spanproof.core.artifacts import Edge
    from spanproof.services import impact
    from spanproof.store.postgres import PostgresEvidenceStore

    with PostgresEvidenceStore(pg, pool_size=1) as store:
        store.add_edges([Edge("record:r", f"assessment:a{i}") for i in range(30)])
        walk_id = impact.start_walk(store, "record:r", "rejected", "attempt-2")
        procs = _workers(pg, "sweeper")
        try:
            deadline = time.monotonic() + 60
            while (walk := store.get_walk(walk_id)) is None or not walk.done:
                assert time.monotonic() < deadline, "no worker ran the walk"
                time.sleep(0.3)
        finally:
            _stop(procs)
        assert walk.flags == 30 and len(store.list_flags(changed_ref="record:r")) == 30


def test_an_edit_and_its_reverts_enqueued_before_workers_run_end_on_the_last(
    backend: tuple[str, str],  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Workers that run several ingestions at once (two of them on PostgreSQL) still run one
    # source's in the order enqueued: the end state is the last enqueue's.
    monkeypatch.setenv("SPANPROOF_WORKFLOWS__INGEST_CONCURRENCY", "4")
    db = backend[0]
    other = text_corpus(tmp_path / "corpus", 3)
    made = spanproof("workflows", "ingest", str(other), "--db", db, "--no-embed")  # the journal
    assert made.returncode == 0, made.stderr
    paper = tmp_path / "paper.txt"
    first = "Walking\n\nDaily walking lowered systolic blood pressure by 5 mmHg.\n"
    edited = first.replace("5 mmHg", "7 mmHg")

    def enqueue(text: str) -> list[str]:
        paper.write_text(text, encoding="utf-8")
        sent = spanproof("workflows", "ingest", str(paper), "--db", db, "--no-embed",
                         "--enqueue-only", "--json")  # fmt: skip
        assert sent.returncode == 0, sent.stderr
        return list(json.loads(sent.stdout)["workflow_ids"])

    ids = [enqueue(text) for text in (first, edited, first, edited, first)]
    assert len({i for one in ids for i in one}) == 5  # each revert a transition of its own
    assert enqueue(first) == ids[-1]  # the same bytes as the last enqueued attach to its workflow
    (other / "doc9999.txt").write_text("Study 9\n\nA new study lowered marker 3.\n", "utf-8")
    more = spanproof("workflows", "ingest", str(other), "--db", db, "--no-embed", "--enqueue-only")
    assert more.returncode == 0, more.stderr
    procs = _workers(db, *(("w1", "w2") if db.startswith("postgresql") else ("w1",)))
    try:
        view = _drain(db)
    finally:
        _stop(procs)
    assert view["by_workflow"] == {"spanproof.ingest_document": {"SUCCESS": 9}}
    source = f"file:{paper.resolve()}"
    from spanproof.bootstrap import build_store

    store = build_store(Settings(), db)
    try:
        assert store.current_history(source) == [1, 2, 1, 2, 1]
        assert store.current_version(source).number == 1  # type: ignore[union-attr]
    finally:
        store.close()


@pytest.mark.parametrize("legacy_key", ["none", "source"])
def test_ingestions_an_earlier_version_enqueued_off_their_partition_run_in_order(
    backend: tuple[str, str],  # noqa: F811
    tmp_path: Path,
    legacy_key: str,
) -> None:
    # An earlier spanproof enqueued ingestions with no partition key (DBOSClient.enqueue as it
    # did), or with the source id as the key (one partition per source); a worker of this
    # version moves them onto their source's partition when it starts, and runs them in the
    # order they were enqueued, before what this version enqueued after.
    from spanproof.bootstrap import build_store
    from spanproof.core.documents import FetchedDocument
    from spanproof.services.ingestion import content_hash
    from spanproof.workflows.client import connect, ingest_partition
    from spanproof.workflows.engine import INGEST_QUEUE
    from spanproof.workflows.ingestion import INGEST_WORKFLOW, ingest_workflow_id

    db, sysdb = backend
    other = text_corpus(tmp_path / "corpus", 2)
    made = spanproof("workflows", "ingest", str(other), "--db", db, "--no-embed")  # the journal
    assert made.returncode == 0, made.stderr
    paper = tmp_path / "paper.txt"
    source = f"file:{paper.resolve()}"
    first = "Walking\n\nDaily walking lowered systolic blood pressure by 5 mmHg.\n"
    edited = first.replace("5 mmHg", "7 mmHg")
    texts = (first, edited, first)
    docs = [FetchedDocument("text", {}, "text/plain", t.encode(), title="paper") for t in texts]
    legacy: list[str] = []
    with connect(sysdb) as client:
        history: list[str] = []
        for d in docs:
            wid = ingest_workflow_id(source, d, history)
            history.append(content_hash(d.raw))
            options = {"workflow_name": INGEST_WORKFLOW, "queue_name": INGEST_QUEUE,
                       "workflow_id": wid}  # fmt: skip
            if legacy_key == "source":
                options["queue_partition_key"] = source
            client.enqueue(options, source, d, False)  # type: ignore[arg-type]
            legacy.append(wid)
        rows = client.list_workflows(workflow_ids=legacy, load_input=False, load_output=False)
        assert {w.queue_partition_key for w in rows} == {None if legacy_key == "none" else source}
    assert len(set(legacy)) == 3
    # This version enqueues the edit again: it counts the legacy ones as queued before it.
    paper.write_text(edited, encoding="utf-8")
    sent = spanproof("workflows", "ingest", str(paper), "--db", db, "--no-embed",
                     "--enqueue-only", "--json")  # fmt: skip
    assert sent.returncode == 0, sent.stderr
    [after] = json.loads(sent.stdout)["workflow_ids"]
    assert after == f"{legacy[1]}:2"
    procs = _workers(db, *(("w1", "w2") if db.startswith("postgresql") else ("w1",)))
    try:
        view = _drain(db)
    finally:
        _stop(procs)
    assert view["by_workflow"] == {"spanproof.ingest_document": {"SUCCESS": 6}}
    with connect(sysdb) as client:
        rows = client.list_workflows(workflow_ids=legacy, load_input=False, load_output=False)
        assert {w.queue_partition_key for w in rows} == {ingest_partition(source)}
    store = build_store(Settings(), db)
    try:
        assert store.current_history(source) == [1, 2, 1, 2]
        assert store.current_version(source).number == 2  # type: ignore[union-attr]
    finally:
        store.close()
    # Nothing is left to move: recover (with no lost executor) moves nothing again.
    again = spanproof("workflows", "recover", "--executor-id", "gone", "--db", db, "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["adopted"] == []
