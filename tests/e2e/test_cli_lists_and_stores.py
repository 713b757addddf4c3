"""The command line as a user meets it: a mistyped --db is an error, ids are never cut, every
list says "N of M" and how to page, one --json convention, honest counts and exit statuses."""

from __future__ import annotations

import codecs
import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spanproof.bootstrap import build_parser
from spanproof.cli.main import LAZY_COMMANDS, cli
from spanproof.core.documents import FetchedDocument
from spanproof.services.ingestion import ingest
from spanproof.services.records import extract_records
from spanproof.store.sqlite import SqliteEvidenceStore

RESULTS_TEXT = b"""Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Treatment with metformin did not change body weight in mice (p = 0.4).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""


def run(*args: str, width: int = 80) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": str(width)})
    return result.exit_code, result.stdout, result.stderr


def _store(path: Path, sources: int = 0, records: bool = False) -> str:
    with SqliteEvidenceStore(path) as store:
        for n in range(sources):
            raw = f"Source {n}\n\nDaily walking lowered blood pressure by {n} mmHg.\n".encode()
            ingest(store, FetchedDocument("file", {}, "text/plain", raw), f"src-{n:03d}",
                   build_parser())  # fmt: skip
        if records:
            fetched = FetchedDocument("text", {}, "text/plain", RESULTS_TEXT, title="Metformin")
            ingest(store, fetched, "paper-with-a-rather-long-source-identifier-1", build_parser())
    return str(path)


# -- --db --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["ask", "What did walking do?"],
        ["sources"],
        ["source", "x"],
        ["search", "walking", "--mode", "keyword"],
        ["records", "list"],
        ["trace", "show", "t-1"],
        ["keys", "list"],
        ["walks", "list"],
        ["faults", "run"],
    ],
)
def test_a_db_that_does_not_exist_is_an_error_naming_it(tmp_path: Path, args: list[str]) -> None:
    typo = tmp_path / "typo.sqlite"
    code, out, err = run(*args, "--db", str(typo))
    assert code == 2, (out, err)
    assert f"no store at {typo}" in err and "spanproof ingest" in err
    assert not typo.exists()  # nothing was created


def test_a_db_that_is_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    for args in (["sources"], ["ask", "q"], ["ingest", str(tmp_path)]):
        code, _, err = run(*args, "--db", str(tmp_path))
        assert code == 2 and f"--db {tmp_path} is a folder, not a SQLite store file" in err


def test_ingest_and_keys_create_may_create_a_store(tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("Walking lowered blood pressure by 5 mmHg.\n", encoding="utf-8")
    db = tmp_path / "new.sqlite"
    code, _, err = run("ingest", str(doc), "--db", str(db), "--no-embed")
    assert code == 0, err and db.exists()
    keys_db = tmp_path / "keys.sqlite"
    code, _, err = run("keys", "create", "ops", "--scope", "read", "--db", str(keys_db))
    assert code == 0, err
    assert keys_db.exists()
    code, _, err = run("ingest", str(doc), "--db", str(tmp_path / "no" / "such.sqlite"))
    assert code == 2 and "is not a folder" in err


def _store_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".sqlite" in p.name)


def test_an_ingest_of_a_missing_path_leaves_no_new_store(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    code, _, err = run("ingest", str(tmp_path / "typo.md"), "--db", str(db), "--no-embed")
    assert code == 2 and "no such file or folder" in err
    assert _store_files(tmp_path) == []  # no file, no -wal or -shm
    code, _, err = run("sources", "--db", str(db))
    assert code == 2 and f"no store at {db}" in err  # never answers from an empty store


def test_an_ingest_that_fails_in_a_new_store_removes_it_and_keeps_an_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spanproof.core.errors import ConfigurationError

    def broken() -> None:
        raise ConfigurationError("no parser")

    monkeypatch.setattr("spanproof.bootstrap.build_parser", broken)  # after the store opens
    doc = tmp_path / "a.txt"
    doc.write_text("Walking lowered blood pressure by 5 mmHg.\n", encoding="utf-8")
    code, _, err = run("ingest", str(doc), "--db", str(tmp_path / "new.sqlite"), "--no-embed")
    assert code == 3 and "no parser" in err
    assert _store_files(tmp_path) == []
    old = tmp_path / "old.sqlite"
    assert run("keys", "create", "ops", "--scope", "read", "--db", str(old))[0] == 0
    code, _, err = run("ingest", str(doc), "--db", str(old), "--no-embed")
    assert code == 3 and old.exists()  # an empty store made before this command is kept
    code, out, _ = run("keys", "list", "--db", str(old), "--json")
    assert json.loads(out)["count"] == 1


def test_an_ingest_in_which_every_document_is_quarantined_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"abc \xc3\x28 not utf-8\n")
    empty = tmp_path / "empty.md"
    empty.write_text("", encoding="utf-8")
    db = str(tmp_path / "q.sqlite")
    code, out, err = run("ingest", str(bad), str(empty), "--db", db, "--no-embed")
    assert code == 2, err
    assert "2 sources: 0 new, 0 duplicate, 2 quarantined" in out  # the summary still prints
    assert "quarantined file:" in out and "invalid_utf8" in out
    assert err.strip().splitlines() == [
        "error: nothing was ingested: all 2 documents were quarantined (listed above)"
    ]
    code, out, err = run("ingest", str(bad), "--db", db, "--no-embed", "--json")
    assert code == 0 and json.loads(out)["duplicate"] == 1  # already stored: nothing new failed


def test_an_ingest_with_some_documents_quarantined_exits_0(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("Walking lowered blood pressure by 5 mmHg.\n", encoding="utf-8")
    (tmp_path / "empty.md").write_text("", encoding="utf-8")
    code, out, err = run(
        "ingest", str(good), str(tmp_path / "empty.md"), "--db", str(tmp_path / "s.sqlite"),
        "--no-embed", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert (json.loads(out)["new"], json.loads(out)["quarantined"]) == (1, 1)


# -- lists -------------------------------------------------------------------------------------


def test_sources_say_n_of_m_and_how_to_page_in_the_table_and_the_json(tmp_path: Path) -> None:
    db = _store(tmp_path / "s.sqlite", sources=7)
    code, out, _ = run("sources", "--db", db, "--limit", "5")
    assert code == 0
    hint = f"spanproof sources --db {db} --limit 5 --offset 5"
    assert f"showing 1–5 of 7 sources; next page: {hint}" in out
    code, out, _ = run(*hint.split()[1:])  # the hinted command shows the rest, and only that
    assert code == 0 and "src-005" in out and "src-004" not in out and "showing 6–7 of 7" in out
    code, out, _ = run("sources", "--db", db, "--limit", "5", "--offset", "5", "--json")
    page = json.loads(out)
    assert [r["id"] for r in page["items"]] == ["src-005", "src-006"]
    assert (page["count"], page["total"], page["offset"], page["limit"]) == (2, 7, 5, 5)
    assert page["next_offset"] is None
    code, out, _ = run("sources", "--db", db, "--limit", "5", "--json")
    assert json.loads(out)["next_offset"] == 5


def test_every_list_prints_one_json_object_with_items(tmp_path: Path) -> None:
    db = _store(tmp_path / "s.sqlite", sources=2, records=True)
    assert run("keys", "create", "ci", "--scope", "read", "--db", db)[0] == 0
    lists = [
        ["sources"], ["records", "list"], ["review", "list"], ["keys", "list"], ["walks", "list"],
        ["artifacts", "list"], ["search", "walking", "--mode", "keyword"],
        ["records", "verify", "--all"], ["walks", "resume"],
    ]  # fmt: skip
    for args in lists:
        code, out, err = run(*args, "--db", db, "--json")
        assert code == 0, (args, err)
        document = json.loads(out)  # one document, not JSON lines
        assert isinstance(document, dict), args
        assert {"items", "count", "total", "offset", "limit", "next_offset"} <= set(document)
        assert document["count"] == len(document["items"]) <= document["total"], args


def test_records_list_never_cuts_an_id_at_80_columns(tmp_path: Path) -> None:
    db = _store(tmp_path / "r.sqlite", records=True)
    with SqliteEvidenceStore(db) as store:
        records = extract_records(store, "paper-with-a-rather-long-source-identifier-1")
    assert len(records) == 3
    code, out, _ = run("records", "list", "--db", db, width=80)
    assert code == 0
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "…" not in out
    for record in records:
        assert record.id in out  # whole, on one line
    # the long source id folds within its column, whole (no ellipsis): read the column back
    column = "".join(line.split("│")[2].strip() for line in out.splitlines() if "│" in line)
    assert "paper-with-a-rather-long-source-identifier-1 v1" in column
    assert "showing 1–3 of 3 records" in out
    assert "statement" in out and "Metformin" in out


def test_records_verify_counts_verified_and_quarantined(tmp_path: Path) -> None:
    db = _store(tmp_path / "r.sqlite", records=True)
    with SqliteEvidenceStore(db) as store:
        records = extract_records(store, "paper-with-a-rather-long-source-identifier-1")
        first = records[0].quotations[0]
        moved = dataclasses.replace(first, start=first.start + 1, end=first.end + 1)
        store.put_record(dataclasses.replace(records[0], quotations=(moved,)))  # gate fails
    code, out, _ = run("records", "verify", "--all", "--db", db, width=120)
    assert code == 0
    assert "3 record(s) checked: 1 quarantined, 2 verified" in out
    assert "3 record(s) verified" not in out
    with SqliteEvidenceStore(db) as store:
        statuses = sorted(r.status for r in store.list_records())
    assert statuses == ["quarantined", "verified", "verified"]


def test_faults_run_exits_1_exactly_when_its_json_says_not_ok(tmp_path: Path) -> None:
    db = _store(tmp_path / "f.sqlite", records=True)
    code, out, _ = run("faults", "run", "--db", db, "--json")  # no verified record: nothing ran
    assert json.loads(out)["ok"] is False and code == 1
    code, out, _ = run("faults", "run", "--db", db, width=120)
    assert code == 1 and "applied to no record" in out
    with SqliteEvidenceStore(db) as store:
        extract_records(store, "paper-with-a-rather-long-source-identifier-1")
    assert run("records", "verify", "--all", "--db", db)[0] == 0
    code, out, _ = run("faults", "run", "--db", db, "--json")
    assert json.loads(out)["ok"] is True and code == 0


# -- decoding ----------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_a_scifact_corpus_with_a_utf16_or_32_bom_is_decoded(tmp_path: Path, encoding: str) -> None:
    bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
           "utf-32-le": codecs.BOM_UTF32_LE}[encoding]  # fmt: skip
    lines = [
        json.dumps({"doc_id": n, "title": f"Trial {n}", "abstract": [f"Walking lowered it {n}."]})
        for n in (1, 2)
    ]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_bytes(bom + ("\n".join(lines) + "\n").encode(encoding))
    db = tmp_path / "c.sqlite"
    code, out, err = run("ingest", str(corpus), "--db", str(db), "--no-embed", "--json")
    assert code == 0, err
    assert (json.loads(out)["new"], json.loads(out)["quarantined"]) == (2, 0)
    code, out, _ = run("source", "scifact:2", "--db", str(db), "--json")
    assert "Walking lowered it 2." in json.dumps(json.loads(out)["sections"])


def test_a_draft_with_a_utf16_bom_is_read_as_utf16(tmp_path: Path) -> None:
    from spanproof.cli.jsonl import read_text

    draft = tmp_path / "draft.txt"
    draft.write_bytes("Walking lowered blood pressure — 5 mmHg.".encode("utf-16"))
    assert read_text(draft, "draft") == "Walking lowered blood pressure — 5 mmHg."
    draft.write_bytes(codecs.BOM_UTF8 + b"Plain UTF-8.")
    assert read_text(draft, "draft") == "Plain UTF-8."


# -- start-up ----------------------------------------------------------------------------------


def test_the_help_lists_every_command_without_importing_them() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from spanproof.cli.main import cli\n"
        "try: cli(['--help'], prog_name='spanproof')\n"
        "except SystemExit: pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('spanproof.cli.') or m in "
        "('rich', 'pydantic', 'numpy', 'fastapi')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "verify" in done.stdout and "workflows" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "['spanproof.cli.main']"


def test_the_lazy_table_matches_each_command() -> None:
    ctx = cli.make_context("spanproof", ["--help"], resilient_parsing=True)
    for name, (_, _, short_help) in LAZY_COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
        assert command.get_short_help_str(limit=1000) == short_help, name


def test_spanproof_source_json_is_the_document_the_api_gives(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from spanproof.api.app import create_app
    from spanproof.testing.apps import app_state

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        json.dumps({"doc_id": 7, "title": "Trial 7", "abstract": ["Walking lowered it.", "Hi."]})
        + "\n",
        encoding="utf-8",
    )
    db = tmp_path / "c.sqlite"
    assert run("ingest", str(corpus), "--db", str(db), "--no-embed")[0] == 0
    code, out, err = run("source", "scifact:7", "--db", str(db), "--json")
    assert code == 0, err
    shown = json.loads(out)
    with SqliteEvidenceStore(db) as store, TestClient(create_app(app_state(store))) as client:
        assert client.get("/v1/sources/scifact:7").json() == shown
    keys = [set(s) for s in shown["sections"]]
    assert keys and all(k == {"key", "title", "ordinal", "chars", "text"} for k in keys)
    assert [s["chars"] for s in shown["sections"]] == [len(s["text"]) for s in shown["sections"]]
