"""A proposition asked of the demo store (``spanproof ask`` and ``POST /v1/generate``): the
question itself is verified against the plan and the answer leads with its verdict — on the
bundled model, a real SQLite store and the real HTTP app."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.cli.main import cli
from spanproof.core.ports import Embedder
from spanproof.core.trace import Trace
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

pytestmark = pytest.mark.model
CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
RAISED = "Is it true that daily walking raised systolic blood pressure?"
LOWERED = "Did daily walking lower systolic blood pressure?"
SODIUM = "Did sodium restriction lower blood pressure?"
WALKING = "What did daily walking do to blood pressure?"
LOWERED_SPAN = "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("proposition") / "demo.sqlite")
    code, _, err = run("ingest", str(CORPUS), "--db", path)
    assert code == 0, err
    return path


def test_ask_leads_with_contradicted_when_the_source_says_the_opposite(db: str) -> None:
    code, out, err = run("ask", RAISED, "--db", db)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == "verdict: ⊘ contradicted — Daily walking raised systolic blood pressure."
    answer = lines[lines.index("A (policy flag):") + 1]
    assert answer.startswith("Contradicted by [S")  # the verdict leads, the evidence follows
    assert LOWERED_SPAN in answer


def test_ask_json_carries_the_verdict_its_best_span_and_the_trace_records_it(db: str) -> None:
    code, out, err = run("ask", RAISED, "--db", db, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "contradicted"
    proposition = data["proposition"]
    assert proposition["claim"] == "Daily walking raised systolic blood pressure."
    assert proposition["form"] == "whether" and proposition["verification"] == "verified"
    best = proposition["best_span"]
    assert LOWERED_SPAN in best["text"] and best["marker"] in data["citations"]
    assert (
        best["source"]["title"]
        == "Daily walking and blood pressure in adults with mild hypertension"
    )
    assert data["answer"].startswith(f"Contradicted by [{best['marker']}]: “{best['text']}”\n\n")
    assert data["answer"].endswith(data["draft"])  # the evidence, as generated and verified
    store = SqliteEvidenceStore(db)
    try:
        trace = store.get_trace(data["trace_id"])
    finally:
        store.close()
    assert trace is not None and trace.proposition["verdict"] == "contradicted"
    assert trace.compute_hash() == trace.hash
    assert Trace.from_json(trace.to_json()).proposition == trace.proposition


def test_a_supported_proposition_and_one_the_sources_do_not_establish(db: str) -> None:
    data = json.loads(run("ask", LOWERED, "--db", db, "--json")[1])
    assert data["verdict"] == "supported"
    assert data["proposition"]["claim"] == "Daily walking lowered systolic blood pressure."
    assert data["answer"].startswith("Supported by [S")
    data = json.loads(run("ask", SODIUM, "--db", db, "--json")[1])
    assert data["verdict"] == "unsupported"
    assert data["answer"].startswith("Not established by the sources")


@pytest.mark.parametrize(
    ("question", "exits"),
    [
        (RAISED, (0, 1, 1)),  # contradicted
        (SODIUM, (0, 0, 1)),  # not established
        (LOWERED, (0, 0, 0)),  # supported
        ("Is Paris the capital of France?", (0, 0, 1)),  # nothing relevant: not established
    ],
)
def test_fail_on_reads_the_propositions_own_verdict(
    db: str, question: str, exits: tuple[int, int, int]
) -> None:
    for level, expected in zip(("never", "contradicted", "unsupported"), exits, strict=True):
        code, out, err = run("ask", question, "--db", db, "--json", "--fail-on", level)
        assert code == expected, (level, err)
        assert json.loads(out)["outcome"] != "contradicted"  # the quotes alone would pass


def test_the_quoted_sentences_line_is_not_read_as_the_verdict(db: str) -> None:
    lines = run("ask", RAISED, "--db", db)[1].splitlines()
    assert lines[1].startswith("verdict: ⊘ contradicted")
    assert lines[2] == "quotes checked: ✔ the quoted sentence matches its source"
    code, out, _ = run("ask", "Is Paris the capital of France?", "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[1].startswith("verdict: ✗ unsupported")
    assert lines[2] == "quotes checked: ∅ none: no source bears on the question"
    # One sentence, not the lead followed by the abstention's own.
    answer = lines[lines.index("A (policy flag):") + 1 :]
    assert answer[0] == "Not established by the sources: none of them bears on the question."
    assert answer[1].startswith("closest sources")
    assert "The sources do not answer this question." not in out


def test_a_question_that_is_no_proposition_has_no_verdict_and_its_trace_no_field(db: str) -> None:
    code, out, _ = run("ask", WALKING, "--db", db, "--json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] is None and data["proposition"] is None
    assert data["answer"] == data["draft"]
    store = SqliteEvidenceStore(db)
    try:
        trace = store.get_trace(data["trace_id"])
    finally:
        store.close()
    assert trace is not None and "proposition" not in json.loads(trace.to_json())
    assert "verdict:" not in run("ask", WALKING, "--db", db)[1]


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder

    return OnnxMiniLMEmbedder()


@pytest.fixture
def client(tmp_path: Path, minilm: Embedder) -> Iterator[TestClient]:
    from spanproof.bootstrap import build_parser
    from spanproof.ingest.files import iter_path
    from spanproof.services.ingestion import embed_pending, ingest

    store = SqliteEvidenceStore(tmp_path / "api.sqlite")
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(store, fetched, source_id, parse)
    embed_pending(store, minilm)
    with TestClient(create_app(app_state(store, embedder=minilm))) as c:
        yield c
    store.close()


def test_generate_answers_a_proposition_with_its_verdict(client: TestClient) -> None:
    response = client.post("/v1/generate", json={"question": RAISED})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["verdict"] == "contradicted"
    assert LOWERED_SPAN in data["proposition"]["best_span"]["text"]
    assert data["answer"].startswith("Contradicted by [")
    other = client.post("/v1/generate", json={"question": WALKING}).json()
    assert other["verdict"] is None and other["proposition"] is None
    schema = client.get("/openapi.json").json()["components"]["schemas"]["GenerateResponse"]
    assert "verdict" in schema["properties"] and "proposition" in schema["properties"]


AIM_TEXT = (
    "OBJECTIVE To determine whether daily stretching lowers resting heart rate in adults. "
    "METHODS Two hundred adults were randomly assigned to stretching or usual activity for "
    "twelve weeks.\n"
)
STRETCHING = "Does stretching every day reduce the resting heart rate of adults?"


def test_a_lead_quoting_a_study_aim_says_it_states_no_finding(
    tmp_path: Path, minilm: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spanproof.bootstrap import build_parser
    from spanproof.ingest.files import iter_path
    from spanproof.services.ingestion import embed_pending, ingest
    from spanproof.services.propositions import NO_FINDING_NOTE

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "stretching.txt").write_text(AIM_TEXT, encoding="utf-8")
    db = str(tmp_path / "aim.sqlite")
    code, _, err = run("ingest", str(corpus), "--db", db)
    assert code == 0, err
    # the default score model's judge doubts that an aim supports the proposition: not
    # established, and no lead quotes the aim as support
    code, out, err = run("ask", STRETCHING, "--db", db, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "unsupported"
    assert data["answer"].startswith("Not established by the sources")
    result = data["proposition"]["result"]
    assert result["verdict"] == "partial" and result["judge"]["vetoed"] is True
    # a model that reads no judge supports it on the aim's words, and the lead says so
    monkeypatch.setenv("SPANPROOF_VERIFY__SCORE_MODEL", "v56")
    code, out, err = run("ask", STRETCHING, "--db", db, "--json")
    assert code == 0, err
    data = json.loads(out)
    # the only sentence on the question is the study's aim: its words, not a finding
    assert data["verdict"] == "supported"
    assert data["proposition"]["evidence_states_finding"] is False
    assert data["answer"].startswith("Supported by [S1]: “OBJECTIVE To determine whether")
    assert NO_FINDING_NOTE in data["answer"].split("\n\n")[0]
    store = SqliteEvidenceStore(db)
    try:
        trace = store.get_trace(data["trace_id"])
    finally:
        store.close()
    assert trace is not None and trace.proposition["evidence_states_finding"] is False
    # the trace page says so in words
    api_store = SqliteEvidenceStore(tmp_path / "api.sqlite")
    parse = build_parser()
    for source_id, fetched in iter_path(corpus):
        ingest(api_store, fetched, source_id, parse)
    embed_pending(api_store, minilm)
    try:
        with TestClient(create_app(app_state(api_store, embedder=minilm))) as http:
            answer = http.post("/v1/generate", json={"question": STRETCHING}).json()
            assert answer["proposition"]["evidence_states_finding"] is False
            page = http.get(f"/traces/{answer['trace_id']}")
            assert page.status_code == 200
            assert 'id="proposition-no-finding"' in page.text
            assert "not what it found" in page.text
    finally:
        api_store.close()
