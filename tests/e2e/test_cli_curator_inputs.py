"""The curator's commands as a user meets them: an erasure reaches the records that quoted the
erased text, a contradictory or unknown input is refused with exit 2 before anything changes,
and what a command prints says what happened."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from spanproof.cli.main import cli

PAPER = """Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""
#: The first finding's sentence, which the erasure below masks.
ERASED = "Metformin at 250 mg/kg significantly reduced hepatic triglyceride content"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> Any:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def curated(tmp_path: Path) -> tuple[str, str, list[str]]:
    """A store with the paper's two findings as verified records: (db, source id, record ids)."""
    db = str(tmp_path / "store.sqlite")
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    assert run("ingest", str(tmp_path / "paper.txt"), "--db", db, "--no-embed")[0] == 0
    [source] = run_json("sources", "--db", db)["items"]
    run("records", "extract", source["id"], "--db", db)
    run("records", "verify", "--all", "--db", db)
    records = run_json("records", "list", "--status", "verified", "--db", db)["items"]
    return db, source["id"], sorted(r["id"] for r in records)


def _section_of(db: str, source_id: str) -> tuple[str, int, int]:
    """The key of the section holding :data:`ERASED`, and the sentence's range in it."""
    shown = run_json("source", source_id, "--db", db)
    for section in shown["sections"]:
        at = section["text"].find(ERASED)
        if at >= 0:
            return section["key"], at, at + len(ERASED)
    raise AssertionError("the sentence is in no section")


# -- erase ---------------------------------------------------------------------------------------


def test_an_erasure_masks_the_records_that_quoted_it_and_flags_what_is_built_on_them(
    curated: tuple[str, str, list[str]],
) -> None:
    db, sid, ids = curated
    quoting = [r for r in ids if ERASED in json.dumps(run_json("records", "show", r, "--db", db))]
    [record] = quoting
    made = run_json("artifacts", "assess", "Does metformin cut liver fat?", "-r", record,
                    "--db", db)  # fmt: skip
    key, start, end = _section_of(db, sid)
    erased = run_json("erase", sid, "--version", "1", "--section", key, "--start", str(start),
                      "--end", str(end), "--reason", "GDPR #18", "--db", db)  # fmt: skip
    assert erased["records_masked"] == [record]
    shown = run_json("records", "show", record, "--db", db)
    assert ERASED not in json.dumps(shown)  # statement, fields, quotes, the checks' quotes
    assert shown["status"] == "quarantined" and shown["statement"] == "[erased]"
    assert "was erased" in shown["attempts"][-1]["defects"][0]
    listed = run_json("records", "list", "--db", db)["items"]
    assert ERASED not in json.dumps(listed)
    assessment = run_json("artifacts", "show", made["artifact"]["id"], "--db", db)
    assert assessment["flagged"]  # built on a record that was verified and is no more
    # the other finding is untouched
    other = next(r for r in ids if r != record)
    assert run_json("records", "show", other, "--db", db)["status"] == "verified"
    # extraction no longer quotes the masked sentence; erasing again changes nothing
    assert run("records", "extract", sid, "--db", db)[0] == 0
    after = run_json("records", "list", "--db", db)["items"]
    assert {r["id"] for r in after} == set(ids)  # no new record over the masked sentence
    again = run_json("erase", sid, "--version", "1", "--section", key, "--start", str(start),
                     "--end", str(end), "--reason", "GDPR #18", "--db", db)  # fmt: skip
    assert again["id"] == erased["id"] and again["records_masked"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--start", "5", "--end", "5", "--reason", "x"], "empty range"),
        (["--start", "0", "--end", "5", "--reason", "  "], "reason is required"),
        (["--start", "0", "--end", "99999", "--reason", "x"], "outside 0.."),
    ],
)
def test_a_bad_erasure_is_refused_and_erases_nothing(
    curated: tuple[str, str, list[str]], args: list[str], message: str
) -> None:
    db, sid, _ = curated
    key, _, _ = _section_of(db, sid)
    code, _, err = run("erase", sid, "--version", "1", "--section", key, *args, "--db", db)
    assert code == 2 and message in err
    code, _, err = run("erase", "source:abc", "--version", "1", "--section", key, "--start", "0",
                       "--end", "5", "--reason", "x", "--db", db)  # fmt: skip
    assert code == 2 and "unknown source 'source:abc'" in err
    assert "█" not in json.dumps(run_json("source", sid, "--db", db))


# -- review, impact, artifacts --------------------------------------------------------------


@pytest.mark.parametrize("flags", [["--approve", "--reject"], []], ids=["both", "neither"])
def test_a_review_decision_needs_exactly_one_of_approve_and_reject(
    curated: tuple[str, str, list[str]], flags: list[str]
) -> None:
    db, _, ids = curated
    code, _, err = run("review", "decide", ids[0], *flags, "--reviewer", "Ada", "--reason", "x",
                       "--db", db)  # fmt: skip
    assert code == 2 and "give --approve or --reject" in err
    assert run_json("records", "show", ids[0], "--db", db)["status"] == "verified"


def test_a_reviewers_reason_is_shown_as_the_reason_not_as_a_failure(
    curated: tuple[str, str, list[str]],
) -> None:
    db, _, ids = curated
    code, _, err = run("review", "decide", ids[0], "--approve", "--reviewer", "Ada", "--reason",
                       "Results sentence says so.", "--db", db)  # fmt: skip
    assert code == 0, err
    table = run("records", "show", ids[0], "--db", db)[1]
    assert "reason: Results sentence says so." in table


def test_review_decide_json_is_the_record_with_its_attempts_as_the_api_answers(
    curated: tuple[str, str, list[str]],
) -> None:
    db, _, ids = curated
    decided = run_json("review", "decide", ids[0], "--reject", "--reviewer", "Ada", "--reason",
                       "Only in mice.", "--db", db)  # fmt: skip
    assert decided == run_json("records", "show", ids[0], "--db", db)
    assert decided["status"] == "rejected"
    assert decided["attempts"][-1]["model_id"] == "reviewer:Ada"


@pytest.mark.parametrize("decision", ["--reject", "--approve"])
def test_records_verify_does_not_overrule_a_reviewers_decision(
    curated: tuple[str, str, list[str]], decision: str
) -> None:
    db, _, ids = curated
    code, _, err = run("review", "decide", ids[0], decision, "--reviewer", "Ada", "--reason",
                       "Read the passage.", "--db", db)  # fmt: skip
    assert code == 0, err
    decided = run_json("records", "show", ids[0], "--db", db)
    code, out, err = run("records", "verify", ids[0], "--db", db)
    assert code == 2 and out == ""
    assert f"record {ids[0]!r} was decided by reviewer Ada" in err
    assert run_json("records", "show", ids[0], "--db", db) == decided  # no attempt added


def test_review_list_says_when_a_records_source_was_retracted(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    hedged = "Results\n\nAspirin may reduce headache frequency in adults compared with placebo.\n"
    (tmp_path / "hedged.txt").write_text(hedged, encoding="utf-8")
    assert run("ingest", str(tmp_path / "hedged.txt"), "--db", db, "--no-embed")[0] == 0
    [source] = run_json("sources", "--db", db)["items"]
    run("records", "extract", source["id"], "--db", db)
    assert run_json("records", "verify", "--all", "--db", db)["outcomes"] == {"review": 1}
    [waiting] = run_json("review", "list", "--db", db)["items"]
    assert waiting["source_status"] == "active"
    assert run("retract", source["id"], "--db", db)[0] == 0
    [waiting] = run_json("review", "list", "--db", db)["items"]
    assert waiting["source_status"] == "retracted"
    shown = run("review", "list", "--db", db)[1]
    assert f"{waiting['record']['id']}: its source {source['id']} is retracted" in shown


@pytest.mark.parametrize(
    "ref", ["record:rec-999999", "source:nope:v1", "package:pac-nope", "assessment:ass-nope"]
)
def test_impact_of_a_ref_that_names_nothing_is_an_error(
    curated: tuple[str, str, list[str]], ref: str
) -> None:
    db, sid, _ = curated
    code, out, err = run("impact", ref, "--db", db)
    assert code == 2 and f"{ref} does not exist" in err and out == ""
    code, _, err = run("impact", f"source:{sid}:v9", "--db", db)  # no such version
    assert code == 2 and "does not exist" in err
    assert run("impact", f"source:{sid}:v1", "--db", db)[0] == 0


def test_an_artifact_is_found_by_the_ref_its_list_shows(
    curated: tuple[str, str, list[str]],
) -> None:
    db, _, ids = curated
    made = run_json("artifacts", "assess", "Does metformin cut liver fat?", "-r", ids[0],
                    "--db", db)  # fmt: skip
    [listed] = run_json("artifacts", "list", "--db", db)["items"]
    ref = listed["artifact"]["ref"]
    assert ref == f"assessment:{made['artifact']['id']}"
    assert (
        run_json("artifacts", "show", ref, "--db", db)["artifact"]["id"] == made["artifact"]["id"]
    )
    code, _, err = run("artifacts", "approve", ref, "1", "--approver", "Ada", "--db", db)
    assert code == 0, err
    code, _, err = run("artifacts", "approve", "ass-nope", "1", "--approver", "Ada", "--db", db)
    assert code == 2 and "unknown artifact 'ass-nope'" in err


def test_records_list_refuses_a_source_the_store_does_not_hold(
    curated: tuple[str, str, list[str]],
) -> None:
    db, sid, ids = curated
    code, out, err = run("records", "list", "--source", sid + "x", "--db", db)
    assert code == 2 and out == "" and f"no source {sid + 'x'!r}" in err
    listed = run_json("records", "list", "--source", sid, "--db", db)["items"]
    assert sorted(r["id"] for r in listed) == ids


# -- sources, search, --db -------------------------------------------------------------------


def test_sources_refuses_an_unknown_status_and_reads_a_known_one_in_any_case(
    curated: tuple[str, str, list[str]],
) -> None:
    db, _, _ = curated
    code, _, err = run("sources", "--status", "bogus", "--db", db)
    assert code == 2 and "bogus" in err
    assert run_json("sources", "--status", "ACTIVE", "--db", db)["total"] == 1


def test_search_checks_its_limit_and_sources_and_says_when_more_may_match(
    curated: tuple[str, str, list[str]],
) -> None:
    db, sid, _ = curated
    for limit in ("0", "-5"):
        code, _, _ = run("search", "metformin", "--mode", "keyword", "--limit", limit, "--db", db)
        assert code == 2
    code, _, err = run("search", "metformin", "--source", "nope", "--db", db)
    assert code == 2 and "'nope'" in err
    full = run_json("search", "mice", "--mode", "keyword", "--limit", "1", "--db", db)
    assert full["count"] == 1 and full["total_is_lower_bound"]
    some = run_json("search", "metformin", "--mode", "keyword", "--source", sid, "--db", db)
    assert 0 < some["count"] < 10 and "total_is_lower_bound" not in some
    # the store was ingested with --no-embed: a vector search says why it finds nothing
    code, out, err = run("search", "metformin", "--mode", "vector", "--db", db)
    assert code == 0 and "no results" in out and "spanproof embed" in err
    # a query of stop words alone has no keyword terms: it says so rather than nothing
    code, out, err = run("search", "the and of", "--mode", "keyword", "--db", db)
    assert code == 0 and "no results" in out
    assert "no keyword terms (only stop words or punctuation)" in err and "--mode vector" in err
    code, _, err = run("search", "metformin mice", "--mode", "keyword", "--db", db)
    assert "keyword terms" not in err


def test_a_db_that_is_not_a_sqlite_file_is_bad_input(tmp_path: Path) -> None:
    notes = tmp_path / "notes.sqlite"
    notes.write_text("# notes, not a database\n", encoding="utf-8")
    for args in (["sources"], ["search", "x", "--mode", "keyword"], ["ingest", str(notes)]):
        code, _, err = run(*args, "--db", str(notes))
        assert code == 2 and "is not a SQLite store file" in err
    assert notes.read_text(encoding="utf-8") == "# notes, not a database\n"
