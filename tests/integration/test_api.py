"""The HTTP API through the ASGI app, on a real SQLite store holding the demo corpus and the
deterministic FakeEmbedder: every route, answered in its documented shape."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.state import AppState
from spanproof.core.models import outcome_of
from spanproof.core.trace import Trace, check_chain
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.fakes import FakeEmbedder

CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
WALKING = "What did daily walking do to blood pressure?"
EVIDENCE = [
    {"id": "S1", "text": "Daily walking lowered systolic blood pressure by 5 mmHg in adults."},
    {"id": "S2", "text": "Coffee intake was not associated with sleep duration."},
]


def make_state(path: Path) -> AppState:
    from spanproof.bootstrap import build_parser
    from spanproof.ingest.files import iter_path
    from spanproof.services.ingestion import embed_pending, ingest

    store = SqliteEvidenceStore(path)
    embedder = FakeEmbedder()
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(store, fetched, source_id, parse)
    embed_pending(store, embedder)
    return app_state(store, embedder=embedder)


@pytest.fixture
def state(tmp_path: Path) -> Iterator[AppState]:
    s = make_state(tmp_path / "api.sqlite")
    yield s
    s.store.close()


@pytest.fixture
def client(state: AppState) -> Iterator[TestClient]:
    with TestClient(create_app(state)) as c:
        yield c


def test_openapi_lists_every_route(client: TestClient) -> None:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    paths = set(response.json()["paths"])
    assert {
        "/v1/verify",
        "/v1/generate",
        "/v1/trace/{trace_id}",
        "/v1/traces/{trace_id}",
        "/v1/traces",
        "/v1/sources",
        "/v1/sources/{source_id}",
        "/v1/search",
        "/healthz",
        "/metrics",
    } <= paths


def test_verify_claims_returns_the_cli_contract_object(client: TestClient) -> None:
    body = {
        "claims": [{"id": "c1", "text": "Daily walking lowered systolic blood pressure."}],
        "evidence": EVIDENCE,
    }
    response = client.post("/v1/verify", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert set(data) == {
        "score_model",
        "embed_model",
        "embed_model_hash",
        "verification",
        "outcome",
        "counts",
        "claims",
        "delivered",
        "trace_id",
    }
    assert data["outcome"] == "all_supported"
    assert data["counts"] == {
        "supported": 1,
        "partial": 0,
        "unsupported": 0,
        "contradicted": 0,
        "evidence_redacted": 0,
    }
    assert data["trace_id"].startswith("tr_")
    assert data["verification"] == "verified" and data["score_model"] == "v2"
    assert data["embed_model"] == "fake-bow" and data["delivered"] is None
    assert [c["id"] for c in data["claims"]] == ["c1"]
    assert data["claims"][0]["verdict"] == "supported"
    assert data["claims"][0]["best_span"]["id"] == "S1"


def test_verify_draft_decomposes_and_applies_the_policy(client: TestClient) -> None:
    draft = "Daily walking lowered systolic blood pressure [S1]. Mars is made of cheese [S2]."
    response = client.post(
        "/v1/verify",
        json={"draft": draft, "evidence": EVIDENCE, "policy": "redact", "score_model": "v1"},
    )
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["score_model"] == "v1" and len(data["claims"]) == 2
    verdicts = [c["verdict"] for c in data["claims"]]
    assert verdicts[0] == "supported" and verdicts[1] != "supported"
    assert "cheese" not in data["delivered"] and "walking" in data["delivered"]
    assert data["outcome"] in {"not_all_supported", "contradicted"}
    assert data["counts"]["supported"] == 1 and sum(data["counts"].values()) == 2


def test_verify_under_flag_marks_the_claim_and_says_the_outcome(client: TestClient) -> None:
    draft = "Daily walking lowered systolic blood pressure [S1]. Mars is made of cheese [S2]."
    response = client.post("/v1/verify", json={"draft": draft, "evidence": EVIDENCE})
    assert response.status_code == 200, response.text
    data = response.json()
    assert [c["verdict"] for c in data["claims"]] == ["supported", "unsupported"]
    assert data["verification"] == "verified" and data["outcome"] == "not_all_supported"
    assert data["counts"]["unsupported"] == 1
    assert data["delivered"] == draft + " ⟦unsupported⟧"


def test_openapi_documents_outcome_and_counts(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for name in ("VerifyResponse", "GenerateResponse"):
        assert {"outcome", "counts"} <= set(schemas[name]["required"]), name
    assert set(schemas["Outcome"]["enum"]) == {
        "all_supported",
        "not_all_supported",
        "contradicted",
        "no_claims",
        "abstained",
        "unavailable",
    }
    assert set(schemas["VerdictCounts"]["properties"]) == {
        "supported",
        "partial",
        "unsupported",
        "contradicted",
        "evidence_redacted",
    }


def test_verify_accepts_plain_string_claims(client: TestClient) -> None:
    response = client.post(
        "/v1/verify", json={"claims": ["Coffee was not linked to sleep."], "evidence": EVIDENCE}
    )
    assert response.status_code == 200
    assert response.json()["claims"][0]["id"] == "c1"


def test_verify_needs_exactly_one_of_draft_or_claims(client: TestClient) -> None:
    response = client.post("/v1/verify", json={"evidence": EVIDENCE})
    assert response.status_code == 422
    assert "exactly one of 'draft' or 'claims'" in response.json()["error"]["message"]


def test_verify_duplicate_evidence_ids_is_invalid_input(client: TestClient) -> None:
    response = client.post(
        "/v1/verify", json={"claims": ["x"], "evidence": [EVIDENCE[0], EVIDENCE[0]]}
    )
    assert response.status_code == 422
    assert response.json()["error"]["type"] == "invalid_input"


@pytest.mark.parametrize(
    ("claims", "message"),
    [
        (["   "], "claim 1: the text is blank"),
        ([{"id": "a", "text": "One."}, {"id": "a", "text": "Two."}], "claim 2: duplicate id 'a'"),
    ],
)
def test_verify_blank_or_repeated_claims_are_invalid_input_and_store_no_trace(
    client: TestClient, state: AppState, claims: list[object], message: str
) -> None:
    before = len(client.get("/v1/traces").json())
    response = client.post("/v1/verify", json={"claims": claims, "evidence": EVIDENCE})
    assert response.status_code == 422
    assert response.json()["error"]["type"] == "invalid_input"
    assert message in response.json()["error"]["message"]
    assert len(client.get("/v1/traces").json()) == before


def test_generate_answers_verifies_and_traces(client: TestClient, state: AppState) -> None:
    response = client.post("/v1/generate", json={"question": WALKING})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["question"] == WALKING and data["verification"] == "verified"
    assert data["claims"] and data["citations"] and data["plan"]["spans"]
    verdicts = [c["verdict"] for c in data["claims"]]
    assert data["outcome"] == outcome_of(data["verification"], verdicts).value
    assert sum(data["counts"].values()) == len(data["claims"])
    assert data["trace_id"].startswith("tr_")
    trace = client.get(f"/v1/trace/{data['trace_id']}")
    assert trace.status_code == 200
    stored = state.traces.get_trace(data["trace_id"])
    assert stored is not None
    assert trace.text == stored.to_json()
    alias = client.get(f"/v1/traces/{data['trace_id']}")
    assert alias.text == trace.text
    parsed = Trace.from_json(trace.text)
    assert parsed.compute_hash() == parsed.hash and check_chain([parsed]) == []


def test_generate_redact_policy(client: TestClient) -> None:
    response = client.post("/v1/generate", json={"question": WALKING, "policy": "redact"})
    assert response.status_code == 200
    assert response.json()["policy"] == "redact"


def test_generate_blank_question_is_a_validation_error(client: TestClient) -> None:
    response = client.post("/v1/generate", json={"question": "   "})
    assert response.status_code == 422
    assert response.json()["error"]["type"] == "invalid_input"


def test_traces_lists_recent_first_and_pages(client: TestClient) -> None:
    ids = [client.post("/v1/generate", json={"question": WALKING}).json()["trace_id"] for _ in "ab"]
    listed = client.get("/v1/traces").json()
    assert [t["id"] for t in listed] == ids[::-1]
    answered = client.get(f"/v1/traces/{ids[0]}").json()
    assert listed[1]["outcome"] == answered["outcome"] and listed[1]["counts"] == answered["counts"]
    assert listed[0]["question"] == WALKING and listed[0]["kind"] == "generation"
    page = client.get("/v1/traces", params={"limit": 1, "offset": 1}).json()
    assert [t["id"] for t in page] == [ids[0]]


def test_traces_carry_a_propositions_own_verdict(client: TestClient) -> None:
    asked = client.post(
        "/v1/generate", json={"question": "Is it true that daily walking raised systolic blood "
                              "pressure?"}
    ).json()  # fmt: skip
    assert asked["verdict"] == "contradicted"
    plain = client.post("/v1/generate", json={"question": WALKING}).json()
    listed = {t["id"]: t for t in client.get("/v1/traces").json()}
    assert listed[asked["trace_id"]]["verdict"] == "contradicted"
    assert listed[asked["trace_id"]]["outcome"] == asked["outcome"]  # the quoted evidence's
    assert listed[plain["trace_id"]]["verdict"] is None


def test_unknown_trace_is_404(client: TestClient) -> None:
    for path in ("/v1/trace/tr_nope", "/v1/traces/tr_nope"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["error"]["type"] == "not_found"


def test_upload_text_source_then_list_show_and_search(client: TestClient) -> None:
    text = "Zinc lozenges\n\nZinc lozenges shortened common colds by two days in adults."
    response = client.post(
        "/v1/sources", json={"text": text, "title": "Zinc trial", "media_type": "text/plain"}
    )
    assert response.status_code == 201, response.text
    data = response.json()
    assert data["source_id"].startswith("upload:") and len(data["source_id"]) == 7 + 16
    assert data["status"] == "new" and data["version"] == 1 and data["chunks_embedded"] >= 1
    again = client.post("/v1/sources", json={"text": text, "media_type": "text/plain"}).json()
    assert again["status"] == "duplicate" and again["source_id"] == data["source_id"]

    listed = client.get("/v1/sources", params={"limit": 100}).json()
    assert data["source_id"] in {s["id"] for s in listed}
    shown = client.get(f"/v1/sources/{data['source_id']}")
    assert shown.status_code == 200
    body = shown.json()
    assert body["source"]["title"] == "Zinc trial" and body["versions"][0]["state"] == "parsed"
    assert any("shortened common colds" in s["text"] for s in body["sections"])

    hits = client.get("/v1/search", params={"q": "zinc lozenges colds", "limit": 3}).json()
    assert hits and hits[0]["source"] == data["source_id"] and hits[0]["rank"] == 1
    keyword = client.get("/v1/search", params={"q": "zinc", "mode": "keyword"}).json()
    assert keyword[0]["source"] == data["source_id"]


def test_upload_base64_markdown(client: TestClient) -> None:
    raw = b"# Tea\n\nGreen tea drinkers slept longer.\n"
    response = client.post(
        "/v1/sources",
        json={"content_base64": base64.b64encode(raw).decode(), "media_type": "text/markdown"},
    )
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "new"


def test_upload_garbage_is_quarantined_not_an_error(client: TestClient) -> None:
    raw = b"<article><front>" * 3  # truncated XML
    response = client.post(
        "/v1/sources",
        json={
            "content_base64": base64.b64encode(raw).decode(),
            "media_type": "application/jats+xml",
        },
    )
    assert response.status_code == 201
    data = response.json()
    assert data["status"] == "quarantined" and data["reason"]
    # the list says so too (as `spanproof sources` and the web UI do), and filters by it
    listed = {s["id"]: s for s in client.get("/v1/sources", params={"limit": 100}).json()}
    assert listed[data["source_id"]]["status"] == "quarantined"
    assert listed[data["source_id"]]["source_status"] == "active"
    assert any(s["status"] == "active" for s in listed.values())  # the demo corpus
    quarantined = client.get("/v1/sources", params={"status": "quarantined"}).json()
    assert [s["id"] for s in quarantined] == [data["source_id"]]
    active = client.get("/v1/sources", params={"status": "active", "limit": 1000}).json()
    assert active and data["source_id"] not in {s["id"] for s in active}
    bogus = client.get("/v1/sources", params={"status": "bogus"})
    assert bogus.status_code == 422 and bogus.json()["error"]["type"] == "invalid_input"


def test_upload_refuses_paths_urls_and_bad_base64(client: TestClient) -> None:
    for body in ({"path": "/etc/passwd"}, {"url": "http://example.org/x"}):
        response = client.post("/v1/sources", json=body)
        assert response.status_code == 422
    bad = client.post("/v1/sources", json={"content_base64": "%%%not base64"})
    assert bad.status_code == 422 and bad.json()["error"]["type"] == "invalid_input"
    both = client.post("/v1/sources", json={"text": "a", "content_base64": "YQ=="})
    assert both.status_code == 422


def test_unknown_source_is_404(client: TestClient) -> None:
    response = client.get("/v1/sources/upload:nope")
    assert response.status_code == 404


def test_search_validates_its_parameters(client: TestClient) -> None:
    assert client.get("/v1/search").status_code == 422
    assert client.get("/v1/search", params={"q": "x", "mode": "psychic"}).status_code == 422
    assert client.get("/v1/search", params={"q": "x", "limit": 0}).status_code == 422


def test_healthz_reports_store_and_models(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "ok" and data["store"] is True
    assert data["models"]["embed"] == "fake-bow" and data["models"]["score_model"] == "v2"


def test_metrics_count_requests_latency_and_verdicts(client: TestClient) -> None:
    client.post(
        "/v1/verify",
        json={"claims": ["Daily walking lowered blood pressure."], "evidence": EVIDENCE},
    )
    client.get("/v1/sources/upload:nope")
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    got = response.text.splitlines()
    # prometheus_client writes labels in name order and values as floats.
    assert 'spanproof_http_requests_total{method="POST",route="/v1/verify",status="200"} 1.0' in got
    assert any('method="GET",route="/v1/sources/{source_id}",status="404"' in x for x in got)
    assert 'spanproof_http_request_duration_seconds_bucket{le="+Inf",route="/v1/verify"} 1.0' in got
    assert 'spanproof_http_request_duration_seconds_count{route="/v1/verify"} 1.0' in got
    assert 'spanproof_verifications_total{endpoint="verify",outcome="verified"} 1.0' in got
    verdicts = [x for x in got if x.startswith("spanproof_claim_verdicts_total{verdict=")]
    assert sum(float(x.rsplit(" ", 1)[1]) for x in verdicts) == 1.0  # one claim, one verdict
    assert "# TYPE spanproof_http_request_duration_seconds histogram" in got


def test_every_response_carries_a_request_id(client: TestClient) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": "abc123"})
    assert response.headers["x-request-id"] == "abc123"
    error = client.get("/v1/sources/upload:nope")
    assert error.headers["x-request-id"] == error.json()["error"]["request_id"] != ""


def test_api_keys_guard_every_v1_and_seed_route_but_not_health_or_metrics(state: AppState) -> None:
    key = "s3cret-key-value"
    app = create_app(state, api_keys=[key])
    routes = [
        ("POST", "/v1/verify", {"claims": ["x"], "evidence": EVIDENCE}),
        ("POST", "/v1/generate", {"question": WALKING}),
        ("GET", "/v1/trace/tr_x", None),
        ("GET", "/v1/traces/tr_x", None),
        ("GET", "/v1/traces", None),
        ("POST", "/v1/sources", {"text": "Some text here."}),
        ("GET", "/v1/sources", None),
        ("GET", "/v1/sources/upload:x", None),
        ("GET", "/v1/search?q=walking", None),
        ("GET", "/v1/records", None),
        ("GET", "/v1/review", None),
        ("POST", "/v1/faults:inject", {"record": "rec-x", "mutation": "flip_negation"}),
        ("POST", "/api/v1/faults:inject", {"record": "rec-x", "mutation": "flip_negation"}),
    ]
    with TestClient(app) as client:
        for method, path, body in routes:
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"X-API-Key": "wrong"}):
                response = client.request(method, path, json=body, headers=headers)
                assert response.status_code == 401, (method, path, headers)
                assert response.json()["error"]["type"] == "unauthorized"
                assert key not in response.text
            ok_bearer = client.request(
                method, path, json=body, headers={"Authorization": f"Bearer {key}"}
            )
            ok_header = client.request(method, path, json=body, headers={"X-API-Key": key})
            assert ok_bearer.status_code != 401 and ok_header.status_code != 401, path
        assert client.get("/healthz").status_code == 200
        assert client.get("/metrics").status_code == 200


def test_stored_trace_json_is_canonical(client: TestClient) -> None:
    trace_id = client.post("/v1/generate", json={"question": WALKING}).json()["trace_id"]
    text = client.get(f"/v1/traces/{trace_id}").text
    assert json.loads(text)["id"] == trace_id
