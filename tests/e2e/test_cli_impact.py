"""The curator flow on the command line: ingest, extract, verify, assess, approve, retract,
impact, walks — on a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from spanproof.cli.main import cli
from spanproof.store.sqlite import SqliteEvidenceStore

PAPER = """Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.stdout


def run_json(*args: str) -> Any:
    return json.loads(run(*args, "--json"))


def test_curator_flow_on_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    run("ingest", str(tmp_path / "paper.txt"), "--db", db, "--no-embed")
    [source] = run_json("sources", "--db", db)["items"]
    sid = source["id"]
    run("records", "extract", sid, "--db", db)
    run("records", "verify", "--all", "--db", db)
    listed_records = run_json("records", "list", "--status", "verified", "--db", db)["items"]
    verified = [r["id"] for r in listed_records]
    assert len(verified) == 2
    made = run_json("artifacts", "assess", "Does metformin cut liver fat?", "-r", verified[0],
                    "-r", verified[1], "--db", db)  # fmt: skip
    aid = made["artifact"]["id"]
    assert made["judgement"]["label"] == "sufficient"
    run("artifacts", "approve", aid, "1", "--approver", "dr. ada", "--db", db)
    package = run_json("artifacts", "create", "package", "Liver pack", "-d", f"assessment:{aid}",
                       "--db", db)  # fmt: skip
    pid = package["artifact"]["id"]
    before = run_json("impact", f"source:{sid}:v1", "--db", db)
    assert before["flagged"] == 0 and before["count"] == 4  # 2 records, assessment, package
    retracted = run_json("retract", sid, "--db", db)
    [walk] = retracted["walks"]
    assert walk["status"] == "done" and walk["flags"] == 4
    after = run_json("impact", f"source:{sid}:v1", "--db", db)
    assert after["flagged"] == 4 and all(d["flagged"] for d in after["dependents"])
    shown = run_json("artifacts", "show", aid, "--db", db)
    assert shown["flagged"] and shown["versions"][0]["approved_by"] == "dr. ada"
    assert shown["judgement"]["label"] == "requires_expert_review"
    listed = run_json("artifacts", "list", "--db", db)
    assert {a["artifact"]["id"] for a in listed["items"]} == {aid, pid} and listed["total"] == 2
    assert run_json("walks", "list", "--db", db)["items"][0]["status"] == "done"
    assert run_json("walks", "resume", "--db", db)["items"] == []
    table = run("impact", f"source:{sid}:v1", "--db", db)
    assert "flagged" in table and f"package:{pid}" in table
    # retracting again starts no new walk and flags nothing twice
    again = run_json("retract", sid, "--db", db)
    assert again["walks"][0]["flags"] == 4
    assert run_json("impact", f"source:{sid}:v1", "--db", db)["flagged"] == 4


def test_a_retraction_is_not_lowered_to_withdrawn_unless_asked(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    run("ingest", str(tmp_path / "paper.txt"), "--db", db, "--no-embed")
    [source] = run_json("sources", "--db", db)["items"]
    sid = source["id"]

    def status() -> str:
        return str(run_json("source", sid, "--db", db)["source"]["status"])

    run("retract", sid, "--status", "withdrawn", "--db", db)
    assert status() == "withdrawn"
    run("retract", sid, "--db", db)  # a graver notice is always taken
    assert status() == "retracted"
    refused = CliRunner().invoke(cli, ["retract", sid, "--status", "withdrawn", "--db", db])
    assert refused.exit_code == 2
    assert "is retracted" in refused.output and "--downgrade" in refused.output
    assert status() == "retracted"
    run("retract", sid, "--db", db)  # the same status again is fine
    lowered = run_json("retract", sid, "--status", "withdrawn", "--downgrade", "--db", db)
    assert lowered["status"] == "withdrawn" and status() == "withdrawn"


def test_bad_input_exits_with_a_clear_error(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    SqliteEvidenceStore(db).close()  # an empty store (a missing one is an error of its own)
    result = CliRunner().invoke(cli, ["impact", "nonsense", "--db", db])
    assert result.exit_code != 0 and "not a ref" in result.output
    result = CliRunner().invoke(cli, ["retract", "nope", "--db", db])
    assert result.exit_code != 0 and "unknown source" in result.output
    result = CliRunner().invoke(cli, ["artifacts", "show", "nope", "--db", db])
    assert result.exit_code != 0 and "unknown artifact" in result.output
