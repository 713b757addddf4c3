"""The store commands end to end: ingest (files and a Crossref DOI over loopback), sources,
source, search, erase — on a real SQLite file and the bundled model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from spanproof.cli.main import cli
from spanproof.testing.loopback import LoopbackPaths

pytestmark = pytest.mark.model
FIXTURES = Path(__file__).parents[1] / "fixtures"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def crossref(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A loopback server answering /works/<doi> with the retracted-work fixture."""
    body = (FIXTURES / "connectors" / "crossref_work_retracted.json").read_bytes()
    with LoopbackPaths(default=(200, body, ""), content_type="application/json") as server:
        monkeypatch.setenv("SPANPROOF_CONNECTORS__CROSSREF_URL", server.base_url)
        yield server.asked


@pytest.fixture
def literature(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, tuple[int, bytes, str]]]:
    """One loopback server standing in for Crossref, Europe PMC and PubMed: a path answers the
    (status, body, Retry-After) the test puts under it, any other path 404 "Resource not found."."""
    with LoopbackPaths() as server:
        root = server.base_url
        monkeypatch.setenv("SPANPROOF_CONNECTORS__CROSSREF_URL", f"{root}/crossref")
        monkeypatch.setenv("SPANPROOF_CONNECTORS__EUROPEPMC_URL", f"{root}/europepmc")
        monkeypatch.setenv("SPANPROOF_CONNECTORS__PUBMED_URL", f"{root}/eutils")
        yield server.script


def test_a_remote_target_that_fails_is_reported_and_the_rest_of_the_batch_is_ingested(
    tmp_path: Path, literature: dict[str, tuple[int, bytes, str]]
) -> None:
    connectors = FIXTURES / "connectors"
    literature["/crossref/works/10.5555/spanproof.2024.001"] = (
        200, (connectors / "crossref_work.json").read_bytes(), "",
    )  # fmt: skip
    literature["/europepmc/PMC11000001/fullTextXML"] = (
        200, (connectors / "europepmc_fulltext.xml").read_bytes(), "",
    )  # fmt: skip
    literature["/crossref/works/10.5555/garbled"] = (200, b"<html>maintenance</html>", "")
    literature["/eutils/efetch.fcgi"] = (503, b"busy", "3600")  # longer than any wait: fails now
    db = str(tmp_path / "store.sqlite")
    kept = tmp_path / "kept.txt"
    kept.write_text("Daily walking lowered systolic blood pressure by 5 mmHg.\n")
    assert run("ingest", str(kept), "--db", db, "--no-embed")[0] == 0
    note = tmp_path / "note.txt"
    note.write_text("A structured walking programme lowered HbA1c over 24 weeks.\n")

    code, out, err = run(
        "ingest", "doi:10.5555/spanproof.2024.001", "doi:10.5555/missing", str(note),
        "pmc:PMC11000001", "pmid:39000009", "doi:10.5555/garbled", "--db", db, "--no-embed",
        "--json",
    )  # fmt: skip
    assert code == 4, err  # a source could not be fetched: the runtime-failure status
    summary = json.loads(out)
    assert (summary["sources"], summary["new"], summary["failed"]) == (3, 3, 3)
    failures = {f["target"]: f for f in summary["failures"]}
    assert list(failures) == ["doi:10.5555/missing", "pmid:39000009", "doi:10.5555/garbled"]
    assert "HTTP 404" in failures["doi:10.5555/missing"]["reason"]
    assert "HTTP 503" in failures["pmid:39000009"]["reason"]
    assert "unexpected reply shape" in failures["doi:10.5555/garbled"]["reason"]
    assert [f["retryable"] for f in failures.values()] == [False, True, False]
    assert "3 targets failed" in err
    code, out, _ = run("sources", "--db", db, "--json")
    ids = {r["id"] for r in json.loads(out)["items"]}
    assert ids == {
        f"file:{kept.resolve()}", f"file:{note.resolve()}",
        "doi:10.5555/spanproof.2024.001", "pmc:PMC11000001",
    }  # fmt: skip

    code, out, err = run("ingest", "doi:10.5555/missing", "--db", db, "--no-embed")
    assert code == 4
    assert "0 sources: 0 new" in out and "1 target failed" in out
    assert "failed doi:10.5555/missing: Crossref work 10.5555/missing" in out
    assert "HTTP 404" in out and "1 target failed" in err
    fresh = tmp_path / "fresh.sqlite"
    code, _, _ = run("ingest", "doi:10.5555/missing", "--db", str(fresh), "--no-embed")
    assert code == 4  # nothing was stored: the store this run made is not left behind
    assert not [f for f in tmp_path.iterdir() if f.name.startswith("fresh")]


def test_a_malformed_remote_id_fails_the_batch_before_anything_is_fetched_or_stored(
    tmp_path: Path, literature: dict[str, tuple[int, bytes, str]]
) -> None:
    literature["/crossref/works/10.5555/spanproof.2024.001"] = (
        200, (FIXTURES / "connectors" / "crossref_work.json").read_bytes(), "",
    )  # fmt: skip
    db = tmp_path / "store.sqlite"
    code, _, err = run("ingest", "doi:10.5555/spanproof.2024.001", "pmid:12ab", "--db", str(db))
    assert code == 2 and "'12ab' is not a PMID" in err
    assert not db.exists()


def test_ingest_list_show_search_and_erase(tmp_path: Path, crossref: list[str]) -> None:
    db = str(tmp_path / "store.sqlite")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "walk.txt").write_text(
        "Walking\n\nDaily walking lowered systolic blood pressure by 5 mmHg after 12 weeks.\n"
    )
    (docs / "bad.xml").write_bytes(b"<article><body><p>cut")
    code, out, _ = run("ingest", str(docs), "--db", db, "--json")
    assert code == 0
    summary = json.loads(out)
    assert (summary["new"], summary["quarantined"], summary["duplicate"]) == (1, 1, 0)
    assert summary["quarantine"][0]["reason"].startswith("corrupt_xml")
    assert summary["chunks_embedded"] >= 1
    code, out, _ = run("ingest", str(docs), "--db", db, "--json")
    assert json.loads(out)["duplicate"] == 2  # same bytes: no new version

    code, out, _ = run("ingest", "doi:10.5555/SPANPROOF.2023.042", "--db", db, "--json")
    assert code == 0, out
    assert crossref and crossref[0].startswith("/works/")
    code, out, _ = run("sources", "--db", db, "--json")
    rows = {r["id"]: r for r in json.loads(out)["items"]}
    doi_rows = [r for r in rows.values() if r["id"].startswith("doi:")]
    assert len(doi_rows) == 1 and doi_rows[0]["status"] == "retracted"
    # the corrupt file's only version is quarantined: so is the source, as listed
    bad = next(r for i, r in rows.items() if i.endswith("bad.xml"))
    assert (bad["status"], bad["source_status"]) == ("quarantined", "active")
    # the retraction notice started an impact walk from the version, and ingest ran it
    code, out, _ = run("walks", "list", "--db", db, "--json")
    [walk] = json.loads(out)["items"]
    assert walk["changed_ref"] == f"source:{doi_rows[0]['id']}:v1"
    assert (walk["reason"], walk["status"]) == ("retracted", "done")

    walk_id = next(i for i in rows if i.endswith("walk.txt"))
    code, out, _ = run("source", walk_id, "--db", db, "--json")
    shown = json.loads(out)
    assert shown["versions"][0]["state"] == "parsed"
    section = next(s for s in shown["sections"] if "5 mmHg" in s["text"])

    code, out, _ = run("search", "walking blood pressure", "--db", db, "--json")
    hits = json.loads(out)["items"]
    assert hits[0]["source"] == walk_id and "walking" in hits[0]["text"]

    start = section["text"].index("systolic")
    code, out, _ = run(
        "erase", walk_id, "--version", "1", "--section", section["key"],
        "--start", str(start), "--end", str(start + 8), "--reason", "test", "--db", db,
    )  # fmt: skip
    assert code == 0, out
    code, out, _ = run("search", "systolic", "--mode", "keyword", "--db", db, "--json")
    assert json.loads(out)["items"] == []
    code, out, _ = run("source", walk_id, "--db", db, "--json")
    assert "systolic" not in json.dumps(json.loads(out)["sections"])


def test_unknown_source_and_missing_path_are_clear_errors(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    code, _, err = run("ingest", str(tmp_path / "missing"), "--db", db)
    assert code == 2 and "no such file or folder" in err
    code, _, err = run("source", "nope", "--db", db)
    assert code == 2 and f"no store at {db}" in err  # the failed ingest left no empty store
    assert run("keys", "create", "ops", "--scope", "read", "--db", db)[0] == 0
    code, _, err = run("source", "nope", "--db", db)
    assert code == 2 and "unknown source id 'nope'" in err
    code, _, err = run("ingest", "ftp:thing", "--db", db)
    assert code == 2


def test_a_folder_walk_never_ingests_the_store_kept_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `spanproof ingest .` with the default store in the folder: the store (and its -wal file
    # and vector folder) stays out, so a second run adds nothing rather than a copy of the store.
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SPANPROOF_STORE__URL", raising=False)
    (tmp_path / "walk.txt").write_text("Daily walking lowered blood pressure.\n", encoding="utf-8")
    assert run("ingest", ".", "--no-embed")[0] == 0
    (tmp_path / "spanproof.sqlite-wal").write_bytes(b"\x00" * 8)
    (tmp_path / "spanproof.sqlite.vectors").mkdir()
    (tmp_path / "spanproof.sqlite.vectors" / "m.npy").write_bytes(b"\x00" * 8)
    size = (tmp_path / "spanproof.sqlite").stat().st_size
    code, out, _ = run("ingest", ".", "--no-embed", "--json")
    assert code == 0 and json.loads(out)["sources"] == 1 and json.loads(out)["duplicate"] == 1
    assert (tmp_path / "spanproof.sqlite").stat().st_size == size
    code, _, err = run("ingest", "spanproof.sqlite", "--no-embed")
    assert code == 2 and "the evidence store's own file" in err


def test_an_unreadable_file_is_reported_and_the_rest_of_the_folder_is_ingested(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ok.txt").write_text("Daily walking lowered blood pressure.\n", encoding="utf-8")
    (docs / "locked.txt").write_text("Not readable.\n", encoding="utf-8")
    read_bytes = Path.read_bytes

    def refuse(self: Path) -> bytes:  # what chmod 000 does to anyone but root
        if self.name == "locked.txt":
            raise PermissionError(13, "Permission denied", str(self))
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    db = str(tmp_path / "store.sqlite")
    code, out, err = run("ingest", str(docs), "--db", db, "--no-embed")
    assert code == 2 and "Traceback" not in err and "1 target failed" in err
    assert "1 source: 1 new" in out  # ok.txt, after locked.txt in the walk
    assert f"failed {docs / 'locked.txt'}: cannot read" in out
    assert "locked.txt: Permission denied" in out
    code, out, _ = run("ingest", str(docs), "--db", db, "--no-embed", "--json")
    [failure] = json.loads(out)["failures"]
    assert failure["target"] == str(docs / "locked.txt") and not failure["retryable"]
    code, out, _ = run("sources", "--db", db, "--json")
    assert [r["id"] for r in json.loads(out)["items"]] == [f"file:{(docs / 'ok.txt').resolve()}"]


def test_ingest_reads_each_file_only_when_it_is_ingested(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder larger than memory must not be read whole before the first file is stored.
    from spanproof.services import ingestion

    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (docs / name).write_text(f"Walking study {name} lowered blood pressure.\n")
    events: list[str] = []
    read_bytes, ingest = Path.read_bytes, ingestion.ingest

    def reading(self: Path) -> bytes:
        events.append(f"read {self.name}")
        return read_bytes(self)

    def storing(store: Any, fetched: Any, source_id: str, parse: Any) -> Any:
        events.append(f"ingest {source_id.rsplit('/', 1)[-1]}")
        return ingest(store, fetched, source_id, parse)

    monkeypatch.setattr(Path, "read_bytes", reading)
    monkeypatch.setattr(ingestion, "ingest", storing)
    code, out, _ = run("ingest", str(docs), "--db", str(tmp_path / "s.sqlite"), "--no-embed")
    assert code == 0 and "3 sources: 3 new" in out
    steps = [e for e in events if e.split()[1] in ("a.txt", "b.txt", "c.txt")]
    assert steps == [
        f"{verb} {n}" for n in ("a.txt", "b.txt", "c.txt") for verb in ("read", "ingest")
    ]


def test_ingest_says_when_a_file_is_reverted_and_source_shows_that_version(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "store.sqlite")
    note = tmp_path / "note.txt"
    first = "Note\n\nDaily walking lowered systolic blood pressure by 5 mmHg.\n"
    note.write_text(first)
    run("ingest", str(note), "--db", db, "--no-embed")
    note.write_text("Note\n\nDaily walking changed nothing at all.\n")
    run("ingest", str(note), "--db", db, "--no-embed")
    note.write_text(first)
    code, out, _ = run("ingest", str(note), "--db", db, "--no-embed", "--json")
    sid = f"file:{note.resolve()}"
    summary = json.loads(out)
    assert code == 0
    assert (summary["new"], summary["duplicate"], summary["reverted"]) == (0, 0, 1)
    assert summary["reverts"] == [{"source": sid, "version": 1, "reason": ""}]
    note.write_text("Note\n\nDaily walking changed nothing at all.\n")
    code, out, _ = run("ingest", str(note), "--db", db, "--no-embed")
    assert code == 0 and f"reverted {sid} to the content of v2" in out
    # the counts add up to the sources ingested: the reverted one is counted too
    assert "1 source: 0 new, 0 duplicate, 1 reverted, 0 quarantined" in out
    note.write_text(first)
    run("ingest", str(note), "--db", db, "--no-embed")
    code, out, _ = run("source", sid, "--db", db, "--json")
    shown = json.loads(out)
    assert shown["current_version"]["number"] == 1 and len(shown["versions"]) == 2
    assert any("5 mmHg" in s["text"] for s in shown["sections"])
    code, out, _ = run("source", sid, "--db", db)
    assert "v1 (current) parsed" in out and "v2 parsed" in out
    # each section of the current version under its key (never taken for console markup)
    assert "[p2] : Daily walking lowered systolic blood pressure by 5 mmHg." in out
    code, out, _ = run("sources", "--db", db, "--json")
    (item,) = json.loads(out)["items"]
    assert (item["latest_version"]["number"], item["current_version"]["number"]) == (2, 1)


def test_ingest_says_when_a_file_reverts_to_a_version_that_was_quarantined(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "store.sqlite")
    note = tmp_path / "note.txt"
    sid = f"file:{note.resolve()}"
    good = "Note\n\nDaily walking lowered systolic blood pressure by 5 mmHg.\n"
    bad = b"Note\n\n\xff\xfe not text\n"  # invalid UTF-8: quarantined
    note.write_text(good)
    run("ingest", str(note), "--db", db, "--no-embed")
    note.write_bytes(bad)
    out = run("ingest", str(note), "--db", db, "--no-embed", "--json")[1]
    [quarantined] = json.loads(out)["quarantine"]
    for as_json in (True, False):
        note.write_text(good)
        run("ingest", str(note), "--db", db, "--no-embed")
        note.write_bytes(bad)  # the source's content is the quarantined version again
        code, out, err = run("ingest", str(note), "--db", db, "--no-embed", *["--json"] * as_json)
        # nothing that parses was stored, as when the bytes were quarantined the first time
        assert code == 2 and "nothing was ingested: the document was quarantined" in err
        if as_json:
            assert json.loads(out)["reverts"] == [
                {"source": sid, "version": 2, "reason": quarantined["reason"]}
            ]
        else:
            why = f"reverted {sid} to the content of v2, quarantined: {quarantined['reason']}"
            assert why in out
