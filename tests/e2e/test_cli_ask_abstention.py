"""``spanproof ask`` abstains when the store does not answer the question (issue 15): ingest the
demo corpus into a real SQLite file, ask something it says nothing about, read the abstention as
text and as JSON — on the bundled model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spanproof.cli.main import cli

pytestmark = pytest.mark.model
CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
FRANCE = "What is the capital of France?"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("abstain") / "demo.sqlite")
    code, _, err = run("ingest", str(CORPUS), "--db", path)
    assert code == 0, err
    return path


def test_an_off_topic_question_prints_the_abstention_and_the_closest_sources(db: str) -> None:
    code, out, err = run("ask", FRANCE, "--db", db)
    assert code == 0, err  # abstaining is not a failure
    lines = out.splitlines()
    assert "outcome: ∅ abstained: the sources do not answer the question" in lines
    assert "The sources do not answer this question." in lines
    assert "claims:" not in out and "sources:" not in lines  # nothing claimed, nothing cited
    at = next(i for i, line in enumerate(lines) if line.startswith("closest sources"))
    closest = [line for line in lines[at + 1 :] if line.startswith("  ")]
    assert 1 <= len(closest) <= 3
    assert all(float(line.split()[0]) < 0.5 for line in closest)  # each below the floor
    assert any(line.startswith("trace: tr_") for line in lines)


def test_the_abstention_as_json_and_under_fail_on(db: str) -> None:
    code, out, err = run("ask", FRANCE, "--db", db, "--json", "--fail-on", "unsupported")
    assert code == 0, err  # an abstention reaches no --fail-on level: nothing was claimed
    data = json.loads(out)
    assert data["answered"] is False and data["outcome"] == "abstained"
    assert data["answer"] == "The sources do not answer this question."
    assert data["draft"] == "" and data["claims"] == [] and data["citations"] == {}
    assert data["relevance"] < 0.5 and data["plan"]["spans"] == []
    assert data["closest"] and all(c["relevance"] < 0.5 for c in data["closest"])
    assert {"source_id", "title", "text"} <= set(data["closest"][0])


def test_a_question_the_store_answers_is_answered(db: str) -> None:
    code, out, err = run(
        "ask", "What did daily walking do to blood pressure?", "--db", db, "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["answered"] is True and data["relevance"] >= 0.5 and data["closest"] == []
    assert "lowered systolic blood pressure" in data["answer"]
