"""``spanproof ask`` end to end: ingest the demo corpus into a real SQLite file, ask, and read the
answer as text (verdict marks, sources, trace id) and as JSON — on the bundled model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spanproof import Engine
from spanproof.cli.main import cli
from spanproof.config import Settings
from spanproof.services.generation import Generation
from spanproof.services.planning import Plan

pytestmark = pytest.mark.model
CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
WALKING = "What did daily walking do to blood pressure?"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("ask") / "demo.sqlite")
    code, out, err = run("ingest", str(CORPUS), "--db", path)
    assert code == 0, err
    assert "5 sources: 5 new" in out
    return path


def test_ask_json_has_the_answer_claims_citations_plan_and_trace_id(db: str) -> None:
    code, out, err = run("ask", WALKING, "--db", db, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["question"] == WALKING
    assert data["verification"] == "verified" and data["policy"] == "flag"
    assert data["answer"] == data["draft"] and "[S" in data["draft"]
    assert data["claims"] and {c["verdict"] for c in data["claims"]} == {"supported"}
    assert data["outcome"] == "all_supported"
    assert data["counts"]["supported"] == len(data["claims"]) == sum(data["counts"].values())
    for claim in data["claims"]:
        assert set(claim) >= {"id", "text", "draft_span", "verdict", "score", "best_span"}
        assert all(m in data["citations"] for m in claim["cited_markers"])
    for ref in data["citations"].values():
        assert set(ref) == {"source_id", "version", "section_key", "start", "end", "title"}
    plan = data["plan"]
    assert plan["plan_model"] == "planner-v1" and len(plan["plan_hash"]) == 64
    assert plan["tokens"] <= plan["budget_tokens"] == 600
    assert data["models"]["gen"] == "extractive-v4"
    assert data["trace_id"].startswith("tr_")


def test_ask_prints_the_answer_with_a_mark_per_claim_and_the_trace_id(db: str) -> None:
    code, out, err = run("ask", WALKING, "--db", db)
    assert code == 0, err
    assert f"Q: {WALKING}" in out
    outcome = next(line for line in out.splitlines() if line.startswith("outcome: "))
    assert outcome.startswith("outcome: ✔ ") and outcome.endswith(" supported")  # not "verified"
    assert "A (policy flag):" in out
    assert "✓ supported" in out  # mark plus verdict text, never colour alone
    assert "lowered systolic blood pressure by 5 mmHg" in out
    assert "sources:" in out and "[S1]" in out
    assert "Daily walking and blood pressure in adults with mild hypertension" in out
    trace_line = next(line for line in out.splitlines() if line.startswith("trace: "))
    assert trace_line.removeprefix("trace: ").startswith("tr_")


def test_ask_with_the_redact_policy(db: str) -> None:
    code, out, err = run("ask", WALKING, "--db", db, "--policy", "redact", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["policy"] == "redact" and data["verification"] == "verified"
    assert data["answer"] == data["draft"]  # every claim supported: nothing to remove


#: An answer the extractive generator would never write: one claim true, one reversed, one made up.
SCRIPTED_ANSWER = (
    "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 weeks [S1]. "
    "Daily walking for 30 minutes raised systolic blood pressure by 5 mmHg after 12 weeks [S1]. "
    "Walking also cured diabetes in 40% of participants."
)


class ScriptedGenerator:
    """Writes the same draft whatever the question (the engine around it is the real one)."""

    model_id = "scripted-v1"

    def generate(self, question: str, plan: Plan) -> Generation:
        return Generation(SCRIPTED_ANSWER, self.model_id, "0" * 64)


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    from spanproof import bootstrap

    real = bootstrap.build_engine

    def build_engine(settings: Settings, db: str | None = None) -> Engine:
        engine = real(settings, db)
        engine.generator = ScriptedGenerator()
        return engine

    monkeypatch.setattr(bootstrap, "build_engine", build_engine)


@pytest.mark.usefixtures("scripted")
def test_ask_says_a_contradicted_answer_and_fail_on_exits_1(db: str) -> None:
    code, out, err = run("ask", WALKING, "--db", db, "--fail-on", "contradicted")
    assert code == 1, err
    assert "outcome: ✖ 1 claim contradicted, 1 unsupported, 1 supported" in out
    flat = " ".join(out.split())
    assert "after 12 weeks [S1]. ⟦contradicted⟧ Walking also cured" in flat  # flag marks inline
    assert "participants. ⟦unsupported⟧" in flat
    code, out, _ = run("ask", WALKING, "--db", db, "--json", "--fail-on", "unsupported")
    assert code == 1
    data = json.loads(out)
    assert data["outcome"] == "contradicted" and data["verification"] == "verified"
    assert data["counts"] == {
        "supported": 1, "partial": 0, "unsupported": 1, "contradicted": 1, "evidence_redacted": 0
    }  # fmt: skip
    assert data["draft"] == SCRIPTED_ANSWER  # the draft itself is never marked
    assert run("ask", WALKING, "--db", db)[0] == 0  # --fail-on never is the default


def test_ask_fail_on_passes_a_supported_answer(db: str) -> None:
    assert run("ask", WALKING, "--db", db, "--fail-on", "unsupported")[0] == 0


def test_ask_refuses_a_blank_question(db: str) -> None:
    code, _, err = run("ask", "  ", "--db", db)
    assert code == 2
    assert "question is empty" in err


def test_ask_is_listed_in_the_help() -> None:
    code, out, _ = run("--help")
    assert code == 0 and "ask" in out
