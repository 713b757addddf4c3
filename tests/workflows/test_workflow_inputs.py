"""The workflow commands refuse bad input before anything reaches the journal (a workflow that
failed on bad input would replay that failure to every later call with the same arguments),
count what they did as `spanproof ingest` does, and never make a store from a mistyped --db."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from process_kit import text_corpus
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.loopback import LoopbackPaths

PAPER = """Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
"""


def spanproof(
    *args: str, timeout: float = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPANPROOF_WORKFLOWS__POLLING_INTERVAL": "0.1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "spanproof.cli.main", *args],
        capture_output=True, text=True, env=env, timeout=timeout, check=False,
    )  # fmt: skip


def test_ingesting_again_counts_duplicates_and_a_quarantine_says_why(tmp_path: Path) -> None:
    corpus = text_corpus(tmp_path / "corpus", 2)
    db = str(tmp_path / "store.sqlite")
    first = spanproof("workflows", "ingest", str(corpus), "--db", db, "--no-embed", "--json")
    assert first.returncode == 0, first.stderr
    assert (json.loads(first.stdout)["new"], json.loads(first.stdout)["duplicate"]) == (2, 0)
    (corpus / "doc9999.txt").write_text("Study 9\n\nA new study lowered marker 3.\n", "utf-8")
    again = spanproof("workflows", "ingest", str(corpus), "--db", db, "--no-embed", "--json")
    summary = json.loads(again.stdout)
    assert (summary["new"], summary["duplicate"], summary["workflows"]) == (1, 2, 3)
    (tmp_path / "empty.md").write_text("", encoding="utf-8")
    empty = spanproof("workflows", "ingest", str(tmp_path / "empty.md"), "--db", db, "--no-embed")
    assert empty.returncode == 2 and "nothing was ingested" in empty.stderr
    assert "quarantined" in empty.stdout and ": " in empty.stdout.split("quarantined", 2)[-1]


def test_a_missing_path_leaves_no_store_and_a_mistyped_db_starts_no_worker(tmp_path: Path) -> None:
    missing = spanproof("workflows", "ingest", str(tmp_path / "nothere.md"), "--db",
                        str(tmp_path / "new.sqlite"), "--no-embed")  # fmt: skip
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    worker = spanproof("worker", "--db", str(tmp_path / "typo.sqlite"), timeout=60)
    assert worker.returncode == 2 and "no store at" in worker.stderr
    folder = tmp_path / "folder"
    folder.mkdir()
    assert spanproof("worker", "--db", str(folder), timeout=60).returncode == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_bad_verify_and_walk_input_is_refused_before_the_journal(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    assert (
        spanproof("ingest", str(tmp_path / "paper.txt"), "--db", db, "--no-embed").returncode == 0
    )
    sources = json.loads(spanproof("sources", "--db", db, "--json").stdout)["items"]
    assert spanproof("records", "extract", sources[0]["id"], "--db", db).returncode == 0
    zero = spanproof("workflows", "verify", "--db", db, "--budget", "0")
    assert zero.returncode == 2 and "Traceback" not in zero.stderr and "--budget" in zero.stderr
    # the refused call journalled nothing: the next one verifies
    ok = spanproof("workflows", "verify", "--db", db, "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["workflows"] >= 1
    for args, says in (
        (["record:rec-999999", "--reason", "retracted"], "does not exist"),
        (["garbage", "--reason", "retracted"], "not a ref"),
        ([f"source:{sources[0]['id']}:v1", "--reason", "banana"], "banana"),
    ):
        walked = spanproof("workflows", "walk", *args, "--db", db)
        assert walked.returncode == 2 and says in walked.stderr, walked.stderr
        assert "Traceback" not in walked.stderr
    done = spanproof("workflows", "walk", f"source:{sources[0]['id']}:v1", "--reason",
                     "corrected", "--db", db, "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_queue_status_recent_0_lists_no_workflows_and_a_negative_count_is_refused(
    tmp_path: Path,
) -> None:
    corpus = text_corpus(tmp_path / "corpus", 2)
    db = str(tmp_path / "store.sqlite")
    assert spanproof("workflows", "ingest", str(corpus), "--db", db, "--no-embed").returncode == 0
    shown = json.loads(spanproof("queue", "status", "--db", db, "--json", "--recent", "1").stdout)
    assert len(shown["recent"]) == 1
    none = json.loads(spanproof("queue", "status", "--db", db, "--json", "--recent", "0").stdout)
    assert none["recent"] == [] and none["queues"]
    assert spanproof("queue", "status", "--db", db, "--recent", "-1").returncode == 2


@pytest.fixture
def crossref() -> Iterator[str]:
    """A loopback Crossref answering the fabricated work for 10.5555/spanproof.2024.001 and
    404 "Resource not found." for any other DOI; yields its base URL."""
    fixture = Path(__file__).parents[1] / "fixtures" / "connectors" / "crossref_work.json"
    work = (200, fixture.read_bytes(), "")
    with LoopbackPaths({"/works/10.5555/spanproof.2024.001": work}) as server:
        yield server.base_url


def test_a_remote_source_that_fails_is_reported_and_the_rest_is_ingested(
    tmp_path: Path, crossref: str
) -> None:
    env = {"SPANPROOF_CONNECTORS__CROSSREF_URL": crossref}
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    db = str(tmp_path / "store.sqlite")
    run = spanproof(
        "workflows", "ingest", "doi:10.5555/missing", "doi:10.5555/spanproof.2024.001",
        str(tmp_path / "paper.txt"), "--db", db, "--no-embed", "--json", env=env,
    )  # fmt: skip
    assert run.returncode == 4, run.stderr
    assert "Traceback" not in run.stderr and "1 target failed" in run.stderr
    summary = json.loads(run.stdout)
    assert (summary["workflows"], summary["new"], summary["failed"]) == (3, 2, 1)
    [failure] = summary["failures"]
    assert failure["target"] == "doi:10.5555/missing" and "HTTP 404" in failure["reason"]
    sources = json.loads(spanproof("sources", "--db", db, "--json").stdout)["items"]
    assert {s["id"] for s in sources} == {
        "doi:10.5555/spanproof.2024.001",
        f"file:{(tmp_path / 'paper.txt').resolve()}",
    }
    text = spanproof("workflows", "ingest", "doi:10.5555/missing", "--db", db, env=env)
    assert text.returncode == 4
    assert "failed doi:10.5555/missing: Crossref work 10.5555/missing" in text.stdout


#: The CLI with ``locked.txt`` unreadable, as chmod 000 makes it for anyone but root (the tests
#: run as root, who reads it anyway).
LOCKED_CLI = """
import pathlib
read_bytes = pathlib.Path.read_bytes
def refuse(self):
    if self.name == "locked.txt":
        raise PermissionError(13, "Permission denied", str(self))
    return read_bytes(self)
pathlib.Path.read_bytes = refuse
from spanproof.cli.main import main
main()
"""


def test_an_unreadable_file_is_reported_and_the_rest_is_ingested(
    tmp_path: Path, crossref: str
) -> None:
    files = []
    for name in ("a.txt", "locked.txt", "b.txt"):
        (tmp_path / name).write_text(f"Study {name}\n\nWalking lowered blood pressure.\n", "utf-8")
        files.append(str(tmp_path / name))
    db = str(tmp_path / "store.sqlite")
    env = {**os.environ, "SPANPROOF_WORKFLOWS__POLLING_INTERVAL": "0.1",
           "SPANPROOF_CONNECTORS__CROSSREF_URL": crossref}  # fmt: skip

    def locked(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", LOCKED_CLI, "workflows", "ingest", *args, "--db", db,
             "--no-embed"],
            capture_output=True, text=True, env=env, timeout=300, check=False,
        )  # fmt: skip

    run = locked(*files, "--json")
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "1 target failed" in run.stderr
    summary = json.loads(run.stdout)
    assert (summary["workflows"], summary["new"], summary["failed"]) == (2, 2, 1)
    [failure] = summary["failures"]
    assert failure == {
        "target": files[1],
        "error": "InvalidInputError",
        "reason": f"cannot read {files[1]}: Permission denied",
        "retryable": False,
    }
    sources = json.loads(spanproof("sources", "--db", db, "--json").stdout)["items"]
    assert sorted(s["id"] for s in sources) == [f"file:{Path(f).resolve()}" for f in files[::2]]
    # a remote source that fails beside it is a runtime failure: exit 4, both listed
    text = locked(files[1], "doi:10.5555/missing")
    assert text.returncode == 4, text.stderr
    assert f"failed {files[1]}: cannot read" in text.stdout
    assert "failed doi:10.5555/missing: Crossref work" in text.stdout


def test_a_malformed_remote_id_is_refused_before_the_journal(tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite"
    run = spanproof("workflows", "ingest", "pmid:12ab", "--db", str(db), "--no-embed")
    assert run.returncode == 2 and "'12ab' is not a PMID" in run.stderr
    assert "Traceback" not in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no store, no journal


def test_a_file_reverted_to_earlier_bytes_is_reverted_by_a_new_workflow(tmp_path: Path) -> None:
    paper = tmp_path / "paper.txt"
    db = str(tmp_path / "store.sqlite")
    edited = PAPER.replace("250 mg/kg", "500 mg/kg")

    def ingest(text: str) -> dict[str, Any]:
        paper.write_text(text, encoding="utf-8")
        done = spanproof("workflows", "ingest", str(paper), "--db", db, "--no-embed", "--json")
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    first, second, back = ingest(PAPER), ingest(edited), ingest(PAPER)
    assert (first["new"], second["new"]) == (1, 1)
    assert (back["reverted"], back["new"], back["duplicate"], back["superseded"]) == (1, 0, 0, 0)
    assert back["workflow_ids"] != first["workflow_ids"]  # A's first run is not replayed
    with SqliteEvidenceStore(Path(db)) as store:
        (source,) = store.list_sources()
        assert store.current_version(source.id).number == 1  # type: ignore[union-attr]
        assert store.current_history(source.id) == [1, 2, 1]
    # the same bytes again replay the run that made them current: nothing happens
    again = ingest(PAPER)
    assert (again["duplicate"], again["reverted"]) == (1, 0)
    assert again["workflow_ids"] == back["workflow_ids"]
    # and the edit coming back is a transition again
    assert ingest(edited)["reverted"] == 1
    assert ingest(PAPER)["reverted"] == 1
    with SqliteEvidenceStore(Path(db)) as store:
        assert store.current_history(source.id) == [1, 2, 1, 2, 1]


def test_one_remote_source_under_two_spellings_is_fetched_once_and_ingested_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # doi:10.5555/SPANPROOF… and doi:10.5555/spanproof… name one source: enqueued while one is
    # queued, they attach to one fetch; its ingestion goes through the source's partition of the
    # ingest queue.
    sys.path.insert(0, str(Path(__file__).parent))
    from test_workers import _stop, _workers

    fixture = Path(__file__).parents[1] / "fixtures" / "connectors" / "crossref_work.json"
    script = {"/works/10.5555/spanproof.2024.001": (200, fixture.read_bytes(), "")}
    db = str(tmp_path / "store.sqlite")
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    made = spanproof("workflows", "ingest", str(tmp_path / "paper.txt"), "--db", db, "--no-embed")
    assert made.returncode == 0, made.stderr  # the store and the journal
    with LoopbackPaths(dict(script)) as server:
        env = {"SPANPROOF_CONNECTORS__CROSSREF_URL": server.base_url}
        ids = []
        for target in ("doi:10.5555/SPANPROOF.2024.001", "doi:10.5555/spanproof.2024.001"):
            sent = spanproof("workflows", "ingest", target, "--db", db, "--no-embed",
                             "--enqueue-only", "--json", env=env)  # fmt: skip
            assert sent.returncode == 0, sent.stderr
            ids += json.loads(sent.stdout)["workflow_ids"]
        assert len(ids) == 2 and ids[0] == ids[1]
        assert ids[0].startswith("fetch:doi:10.5555/spanproof.2024.001:")
        monkeypatch.setenv("SPANPROOF_CONNECTORS__CROSSREF_URL", server.base_url)
        procs = _workers(db, "w1")
        try:
            deadline = time.monotonic() + 120
            while True:
                view = json.loads(spanproof("queue", "status", "--db", db, "--json").stdout)
                fetches = view["by_workflow"].get("spanproof.fetch_and_ingest", {})
                if fetches == {"SUCCESS": 1}:
                    break
                assert time.monotonic() < deadline, view
                time.sleep(0.3)
        finally:
            _stop(procs)
        asked = [path.split("?", 1)[0] for path in server.asked]
        assert asked.count("/works/10.5555/spanproof.2024.001") == 1
    assert view["by_workflow"]["spanproof.ingest_document"] == {"SUCCESS": 2}
    with SqliteEvidenceStore(Path(db)) as store:
        assert store.current_history("doi:10.5555/spanproof.2024.001") == [1]
