"""The review queue and fault injection over HTTP, on a real SQLite store holding records in
review (the checker answered "ambiguous") and one verified record."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.state import AppState
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.records import CheckResult, Record, Verdict
from spanproof.evidence.faults import EXPECTED_CATCH, MUTATIONS
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.records import extract_records, verify_record
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.fakes import FakeEmbedder

SOURCE = "paper-1"
TEXT = b"""Metformin and liver fat in mice

Methods

Male mice were fed a high-fat diet for twelve weeks.

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Treatment with metformin did not change body weight in mice (p = 0.4).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""


def _ambiguous(record: Record, passages: Sequence[str]) -> Verdict:
    names = ("negation", "scope", "species", "treatment", "endpoint")
    return Verdict("ambiguous", tuple(CheckResult(n, True, "", "q") for n in names), "fake")


def make_state(path: Path) -> AppState:
    store = SqliteEvidenceStore(path)
    embedder = FakeEmbedder()
    fetched = FetchedDocument("text", {}, "text/plain", TEXT, title="Metformin")
    assert ingest(store, fetched, SOURCE, build_parser()).status == "new"
    embed_pending(store, embedder)
    records = extract_records(store, SOURCE)
    assert len(records) == 3
    for record in records[:2]:
        assert verify_record(store, record, checker=_ambiguous).outcome == "review"
    assert verify_record(store, records[2]).outcome == "verified"
    return app_state(store, embedder=embedder)


@pytest.fixture
def state(tmp_path: Path) -> Iterator[AppState]:
    s = make_state(tmp_path / "review.sqlite")
    yield s
    s.store.close()


@pytest.fixture
def store(state: AppState) -> SqliteEvidenceStore:
    assert isinstance(state.store, SqliteEvidenceStore)
    return state.store


@pytest.fixture
def client(state: AppState) -> Iterator[TestClient]:
    with TestClient(create_app(state)) as c:
        yield c


def _snapshot(store: SqliteEvidenceStore) -> dict[str, Any]:
    return {r.id: (r, store.attempts(r.id)) for r in store.list_records()}


def _assert_error(response: Any, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["status"] == status and error["type"] == kind
    assert error["message"] and "request_id" in error
    return error


def test_records_list_filter_and_show(client: TestClient, store: SqliteEvidenceStore) -> None:
    everything = client.get("/v1/records").json()
    assert len(everything) == 3
    in_review = client.get("/v1/records", params={"status": "in_review"}).json()
    assert len(in_review) == 2 and {r["status"] for r in in_review} == {"in_review"}
    verified = client.get("/v1/records?status=verified").json()
    assert len(verified) == 1
    shown = client.get(f"/v1/records/{verified[0]['id']}").json()
    assert shown["id"] == verified[0]["id"] and shown["attempts"][0]["outcome"] == "verified"
    _assert_error(client.get("/v1/records?status=bogus"), 422, "invalid_input")
    unknown = _assert_error(client.get("/v1/records?source=paper-x"), 422, "invalid_input")
    assert "no source 'paper-x'" in unknown["message"]
    assert len(client.get("/v1/records", params={"source": SOURCE}).json()) == 3
    _assert_error(client.get("/v1/records/rec-nope"), 404, "not_found")


def test_a_record_says_its_sources_status(client: TestClient) -> None:
    (verified,) = client.get("/v1/records?status=verified").json()
    assert client.get(f"/v1/records/{verified['id']}").json()["source_status"] == "active"
    assert client.post(f"/v1/sources/{SOURCE}/retract", json={"status": "withdrawn"}).is_success
    assert client.get(f"/v1/records/{verified['id']}").json()["source_status"] == "withdrawn"


def test_queue_lists_records_in_review_with_passages(
    client: TestClient, store: SqliteEvidenceStore
) -> None:
    queue = client.get("/v1/review").json()
    assert len(queue) == 2
    for item in queue:
        record = item["record"]
        assert record["status"] == "in_review"
        (passage,) = item["passages"]
        (quotation,) = record["quotations"]
        assert passage["quote"] == quotation["text"] and passage["found"]
        section = store.section(SOURCE, 1, quotation["section_key"])
        assert section is not None
        assert passage["before"] + passage["quote"] + passage["after"] in section.text
        assert [a["outcome"] for a in item["attempts"]] == ["review"]


def test_the_queue_says_when_a_records_source_was_retracted(client: TestClient) -> None:
    assert {i["source_status"] for i in client.get("/v1/review").json()} == {"active"}
    retracted = client.post(f"/v1/sources/{SOURCE}/retract", json={"status": "retracted"})
    assert retracted.status_code == 202, retracted.text
    queue = client.get("/v1/review").json()
    assert len(queue) == 2 and {i["source_status"] for i in queue} == {"retracted"}
    page = client.get("/review")
    assert page.status_code == 200
    assert page.text.count(f"Its source {SOURCE} is retracted") == 2


@pytest.mark.parametrize(("decision", "status"), [("approve", "verified"), ("reject", "rejected")])
def test_decision_changes_status_and_records_who_and_why(
    client: TestClient, store: SqliteEvidenceStore, decision: str, status: str
) -> None:
    rid = client.get("/v1/review").json()[0]["record"]["id"]
    body = {"reviewer": "ada", "decision": decision, "reason": "the passage says so"}
    response = client.post(f"/v1/review/{rid}", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == status
    stored = store.get_record(rid)
    assert stored is not None and stored.status == status
    last = store.attempts(rid)[-1]
    assert last.stage == "check" and last.outcome == f"review:{decision}"
    assert last.model_id == "reviewer:ada" and last.defects == ("the passage says so",)
    assert last.started_at <= last.finished_at
    assert response.json()["attempts"][-1]["model_id"] == "reviewer:ada"
    assert rid not in {i["record"]["id"] for i in client.get("/v1/review").json()}
    # decided once: deciding again is refused in the error shape, and changes nothing
    before = _snapshot(store)
    error = _assert_error(client.post(f"/v1/review/{rid}", json=body), 422, "invalid_input")
    assert "in_review" in error["message"]
    done = {"approve": "approved", "reject": "rejected"}[decision]
    assert f"already {done} by reviewer ada" in error["message"]  # who decided, not only what
    assert _snapshot(store) == before


def test_review_refuses_bad_requests(client: TestClient, store: SqliteEvidenceStore) -> None:
    verified = client.get("/v1/records?status=verified").json()[0]["id"]
    queued = client.get("/v1/review").json()[0]["record"]["id"]
    ok = {"reviewer": "ada", "decision": "approve", "reason": "fine"}
    # an expert may look at a verified record once (SPEC §5.5); a second look is refused
    looked = client.post(f"/v1/review/{verified}", json=ok)
    assert looked.status_code == 200 and looked.json()["status"] == "verified"
    before = _snapshot(store)
    _assert_error(client.post(f"/v1/review/{verified}", json=ok), 422, "invalid_input")
    _assert_error(client.post("/v1/review/rec-nope", json=ok), 404, "not_found")
    _assert_error(
        client.post(f"/v1/review/{queued}", json={**ok, "reason": "   "}), 422, "invalid_input"
    )
    _assert_error(client.post(f"/v1/review/{queued}", json={**ok, "reason": ""}), 422,
                  "validation_error")  # fmt: skip
    _assert_error(
        client.post(f"/v1/review/{queued}", json={**ok, "decision": "maybe"}),
        422,
        "validation_error",
    )
    assert _snapshot(store) == before


@pytest.mark.parametrize("prefix", ["/v1", "/api/v1"])
def test_faults_inject_catches_all_six_and_stores_nothing(
    client: TestClient, store: SqliteEvidenceStore, prefix: str
) -> None:
    before = _snapshot(store)
    assert len(MUTATIONS) == 6
    for rid in before:
        for mutation in MUTATIONS:
            response = client.post(
                f"{prefix}/faults:inject", json={"record": rid, "mutation": mutation}
            )
            assert response.status_code == 200, response.text
            outcome = response.json()
            assert outcome["record"] == rid and outcome["mutation"] == mutation
            assert outcome["applied"] and outcome["expected"] == EXPECTED_CATCH[mutation]
            assert EXPECTED_CATCH[mutation] in outcome["caught_by"], outcome
            assert outcome["caught"] and outcome["decision"] != "verified"
            assert outcome["stored"] is False and outcome["mutated"]["id"] == rid
    assert _snapshot(store) == before


def test_faults_inject_errors(client: TestClient, store: SqliteEvidenceStore) -> None:
    rid = next(iter(_snapshot(store)))
    error = _assert_error(
        client.post("/v1/faults:inject", json={"record": rid, "mutation": "melt"}),
        422,
        "invalid_input",
    )
    assert all(name in error["message"] for name in MUTATIONS)
    _assert_error(
        client.post("/api/v1/faults:inject", json={"record": rid, "mutation": "melt"}),
        422,
        "invalid_input",
    )
    _assert_error(
        client.post("/v1/faults:inject", json={"record": "rec-nope", "mutation": "break_span"}),
        404,
        "not_found",
    )
    _assert_error(client.post("/v1/faults:inject", json={"record": rid}), 422, "validation_error")
