"""``POST /v1/verify`` writes a verification trace (SPEC §4.7) that replays exactly and chains."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.state import AppState
from spanproof.core.trace import check_chain
from spanproof.services.replay import replay
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

EVIDENCE = [
    {"id": "S1", "text": "Daily walking lowered systolic blood pressure by 5 mmHg in adults."},
    {"id": "S2", "text": "Coffee intake was not associated with sleep duration.", "title": "C"},
]


@pytest.fixture
def state(tmp_path: Path) -> Iterator[AppState]:
    store = SqliteEvidenceStore(tmp_path / "verify-trace.sqlite")
    yield app_state(store)
    store.close()


@pytest.fixture
def client(state: AppState) -> Iterator[TestClient]:
    with TestClient(create_app(state)) as c:
        yield c


def test_verify_claims_stores_a_trace_that_replays(client: TestClient, state: AppState) -> None:
    body = {
        "claims": [
            {"id": "c1", "text": "Daily walking lowered systolic blood pressure."},
            "Coffee intake shortened sleep duration.",
        ],
        "evidence": EVIDENCE,
    }
    response = client.post("/v1/verify", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert {"score_model", "embed_model", "verification", "claims", "delivered"} <= set(data)
    trace = state.traces.get_trace(data["trace_id"])
    assert trace is not None
    assert trace.kind == "verification" and trace.verification == "verified"
    assert [p["marker"] for p in trace.plan] == ["S1", "S2"]
    assert trace.plan[1]["title"] == "C"
    assert trace.draft == "" and trace.prompt_hash == ""
    assert trace.models["score_model"] == "v2" and trace.models["embed"] == "fake-bow"
    assert trace.claims == data["claims"]
    assert trace.embeddings["claims"] and trace.embeddings["windows"]
    result = replay(trace)
    assert result.ok, result.differences
    assert result.claims_checked == 2
    assert check_chain(state.traces.chain()) == []


def test_verify_draft_trace_records_the_draft_and_replays(
    client: TestClient, state: AppState
) -> None:
    draft = "Daily walking lowered systolic blood pressure [S1]. Mars is made of cheese [S2]."
    first = client.post("/v1/verify", json={"draft": draft, "evidence": EVIDENCE})
    second = client.post(
        "/v1/verify",
        json={"draft": draft, "evidence": EVIDENCE, "policy": "redact", "score_model": "v1"},
    )
    assert first.status_code == 200 and second.status_code == 200, second.text
    ids = [first.json()["trace_id"], second.json()["trace_id"]]
    chain = state.traces.chain()
    assert [t.id for t in chain] == ids
    assert check_chain(chain) == []
    for trace, policy, model in zip(chain, ("flag", "redact"), ("v2", "v1"), strict=True):
        assert trace.draft == draft and trace.request["policy"] == policy
        assert trace.models["score_model"] == model and trace.models["decompose"]
        assert len(trace.claims) == 2
        result = replay(trace)
        assert result.ok, result.differences
    assert chain[1].delivered == second.json()["delivered"]


def test_tampered_verification_trace_fails_replay(client: TestClient, state: AppState) -> None:
    body = {"claims": ["Daily walking lowered systolic blood pressure."], "evidence": EVIDENCE}
    trace_id = client.post("/v1/verify", json=body).json()["trace_id"]
    trace = state.traces.get_trace(trace_id)
    assert trace is not None
    changed = dict(trace.claims[0], score=0.123)
    tampered = replace(trace, claims=[changed])
    assert not replay(tampered).ok
    assert check_chain([tampered])


def test_a_bare_no_is_verified_against_the_question_and_the_trace_records_it(
    client: TestClient, state: AppState
) -> None:
    evidence = [{"id": "S1", "text": "Coffee intake was not associated with sleep duration."}]
    question = "Was coffee intake associated with sleep duration?"
    body = {"draft": "Yes.", "evidence": evidence, "question": question}
    response = client.post("/v1/verify", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert [(c["text"], c["verdict"]) for c in data["claims"]] == [
        ("Coffee intake was associated with sleep duration.", "contradicted")
    ]
    assert data["outcome"] == "contradicted" and data["delivered"] == "Yes. ⟦contradicted⟧"
    trace = state.traces.get_trace(data["trace_id"])
    assert trace is not None and trace.request["question"] == question
    assert replay(trace).ok
    # a "No." is read as the proposition turned round, and replays so
    denial = client.post("/v1/verify", json={**body, "draft": "No, it was not."}).json()
    assert [(c["text"], c["verdict"], c["negates"]) for c in denial["claims"]] == [
        (
            "Coffee intake was not associated with sleep duration.",
            "partial",
            "Coffee intake was associated with sleep duration.",
        )
    ]
    stored = state.traces.get_trace(denial["trace_id"])
    assert stored is not None and replay(stored).ok, replay(stored).differences
    # without the question the same draft states nothing
    plain = client.post("/v1/verify", json={"draft": "Yes.", "evidence": evidence}).json()
    assert plain["outcome"] == "no_claims" and plain["claims"] == []


def test_a_question_without_a_draft_is_refused(client: TestClient) -> None:
    body = {"claims": ["Coffee helps."], "evidence": EVIDENCE, "question": "Does it?"}
    response = client.post("/v1/verify", json=body)
    assert response.status_code == 422
    assert "'question' goes with 'draft'" in response.text
