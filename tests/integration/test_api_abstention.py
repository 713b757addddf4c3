"""``POST /v1/generate`` abstains when the store does not answer the question (issue 15): through
the ASGI app, on a real SQLite store holding the demo corpus, with the engine's relevance model
(the lexical one: the deterministic FakeEmbedder is not the bundled model)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.state import AppState
from spanproof.bootstrap import build_parser
from spanproof.core.trace import Trace
from spanproof.ingest.files import iter_path
from spanproof.services.answering import Engine
from spanproof.services.generation import ExtractiveGenerator
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.relevance import relevance_model_for
from spanproof.verify.scoring import V2

CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteEvidenceStore(tmp_path / "api.sqlite")
    embedder = FakeEmbedder()
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(store, fetched, source_id, parse)
    embed_pending(store, embedder)
    state: AppState = app_state(store, embedder=embedder)
    state.engine = Engine(
        store=store,
        traces=store,
        embedder=embedder,
        decomposer=RuleBasedDecomposer(),
        generator=ExtractiveGenerator(embedder),
        score_model=V2,
        relevance=relevance_model_for(embedder.model_id),
    )
    with TestClient(create_app(state)) as c:
        yield c
    store.close()


def test_generate_abstains_with_answered_false_and_the_closest_sources(client: TestClient) -> None:
    response = client.post("/v1/generate", json={"question": "What is the capital of France?"})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["answered"] is False and data["outcome"] == "abstained"
    assert data["answer"] == "The sources do not answer this question."
    assert data["claims"] == [] and data["citations"] == {} and data["draft"] == ""
    assert isinstance(data["relevance"], float) and data["relevance"] < 0.5
    assert data["closest"] and all(c["relevance"] < 0.5 for c in data["closest"])
    trace = Trace.from_json(client.get(f"/v1/trace/{data['trace_id']}").text)
    assert trace.outcome == "abstained" and trace.relevance["answered"] is False
    assert trace.compute_hash() == trace.hash


def test_generate_answers_with_answered_true_and_its_relevance(client: TestClient) -> None:
    question = "What did daily walking do to blood pressure?"
    data = client.post("/v1/generate", json={"question": question}).json()
    assert data["answered"] is True and data["relevance"] >= 0.5 and data["closest"] == []
    assert data["claims"] and data["outcome"] == "all_supported"


def test_the_openapi_document_describes_answered_and_relevance(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["GenerateResponse"]
    assert {"answered", "relevance", "closest"} <= set(schema["properties"])
    assert "abstain" in schema["properties"]["answered"]["description"]
