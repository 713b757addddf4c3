"""Work per request has limits (SPANPROOF_LIMITS__*), with clear 413s; an empty draft is a 422
that writes no trace; a re-uploaded source is a 200 duplicate; invalid input is always 422."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.config import LimitSettings, Settings
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

LIMITS = LimitSettings(max_evidence_items=5, max_claims=3, max_chars=2_000)
EVIDENCE = [{"id": "S1", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."}]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(tmp_path / "limits.sqlite") as s:
        yield s


@pytest.fixture
def client(store: SqliteEvidenceStore) -> Iterator[TestClient]:
    state = app_state(store, settings=Settings(limits=LIMITS))
    with TestClient(create_app(state)) as c:
        yield c


def _error(response: Any, status: int, kind: str) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert (error["status"], error["type"]) == (status, kind)
    return str(error["message"])


def test_each_limit_answers_413_naming_the_limit_and_its_setting(
    client: TestClient, store: SqliteEvidenceStore
) -> None:
    many = [{"id": f"E{n}", "text": f"Item {n}."} for n in range(6)]
    message = _error(client.post("/v1/verify", json={"claims": ["x"], "evidence": many}), 413,
                     "limit_exceeded")  # fmt: skip
    assert "6 evidence items" in message and "limit of 5" in message
    assert "SPANPROOF_LIMITS__MAX_EVIDENCE_ITEMS" in message
    claims = ["a", "b", "c", "d"]
    message = _error(client.post("/v1/verify", json={"claims": claims, "evidence": EVIDENCE}),
                     413, "limit_exceeded")  # fmt: skip
    assert "4 claims" in message and "SPANPROOF_LIMITS__MAX_CLAIMS" in message
    long_draft = "Walking helps. " * 200  # 3,000 characters
    message = _error(client.post("/v1/verify", json={"draft": long_draft, "evidence": EVIDENCE}),
                     413, "limit_exceeded")  # fmt: skip
    assert "characters" in message and "SPANPROOF_LIMITS__MAX_CHARS" in message
    assert store.list_traces(limit=10) == []  # nothing refused was traced


def test_a_draft_that_decomposes_into_more_claims_than_the_limit_is_a_413(
    client: TestClient, store: SqliteEvidenceStore
) -> None:
    four = "Walking lowered pressure. Sodium lowered pressure. Sleep lowered cortisol. Tea helped."
    message = _error(client.post("/v1/verify", json={"draft": four, "evidence": EVIDENCE}), 413,
                     "limit_exceeded")  # fmt: skip
    assert "4 claims in its draft" in message and "SPANPROOF_LIMITS__MAX_CLAIMS" in message
    assert store.list_traces(limit=10) == []
    three = four.rsplit(" Tea", 1)[0]
    response = client.post("/v1/verify", json={"draft": three, "evidence": EVIDENCE})
    assert response.status_code == 200 and len(response.json()["claims"]) == 3


def test_a_request_at_the_limits_is_accepted(client: TestClient) -> None:
    evidence = [{"id": f"E{n}", "text": f"Walking lowered pressure by {n} mmHg."} for n in range(5)]
    body = {"claims": ["Walking lowered pressure.", "b", "c"], "evidence": evidence}
    response = client.post("/v1/verify", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["trace_id"]


def test_an_empty_draft_is_a_422_and_writes_no_trace(
    client: TestClient, store: SqliteEvidenceStore
) -> None:
    for draft in ("", "   \n\t"):
        message = _error(client.post("/v1/verify", json={"draft": draft, "evidence": EVIDENCE}),
                         422, "invalid_input")  # fmt: skip
        assert "the draft is empty" in message
    message = _error(client.post("/v1/verify", json={"claims": [], "evidence": EVIDENCE}), 422,
                     "invalid_input")  # fmt: skip
    assert "'claims' is empty" in message
    assert store.list_traces(limit=10) == []


def test_a_reuploaded_identical_source_is_a_200_duplicate(client: TestClient) -> None:
    body = {"text": "Zinc shortened colds by a day.\n", "media_type": "text/plain"}
    first = client.post("/v1/sources", json=body)
    assert first.status_code == 201 and first.json()["status"] == "new"
    again = client.post("/v1/sources", json=body)
    assert again.status_code == 200, again.text
    assert again.json()["status"] == "duplicate"
    assert again.json()["source_id"] == first.json()["source_id"]


def test_validation_errors_are_422_whatever_finds_them(client: TestClient) -> None:
    _error(client.get("/v1/records", params={"status": "bogus"}), 422, "invalid_input")
    _error(client.get("/v1/search", params={"q": "x", "mode": "bogus"}), 422, "validation_error")
    _error(client.post("/v1/generate", json={"question": "  "}), 422, "invalid_input")
    _error(client.post("/v1/sources", json={"content_base64": "%%%"}), 422, "invalid_input")
    _error(client.post("/v1/verify", json={"evidence": EVIDENCE}), 422, "validation_error")
    # a body that cannot be read at all stays a 400
    bad = client.post(
        "/v1/verify", content=b"{not json", headers={"content-type": "application/json"}
    )
    _error(bad, 400, "malformed_json")


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPANPROOF_LIMITS__MAX_EVIDENCE_ITEMS", "7")
    assert Settings().limits.max_evidence_items == 7
    defaults = LimitSettings()
    assert (defaults.max_evidence_items, defaults.max_claims, defaults.max_chars) == (
        1000, 200, 500_000,
    )  # fmt: skip


def test_a_malformed_erased_range_of_an_evidence_item_is_a_422_not_a_500(
    client: TestClient, store: SqliteEvidenceStore
) -> None:
    # Extra keys are kept as metadata, but "erased" is read as the item's masked ranges: a
    # boolean there raised a bare TypeError, a 500.
    item = {**EVIDENCE[0], "erased": True}
    response = client.post("/v1/verify", json={"claims": ["x"], "evidence": [item]})
    message = _error(response, 422, "invalid_input")
    assert "evidence item 1: 'erased' must be a list" in message
    assert store.list_traces(limit=10) == []


def test_a_blank_evidence_or_claim_id_is_a_422(
    client: TestClient, store: SqliteEvidenceStore
) -> None:
    blank = {**EVIDENCE[0], "id": " "}
    response = client.post("/v1/verify", json={"claims": ["x"], "evidence": [blank]})
    assert "evidence item 1: 'id' is blank" in _error(response, 422, "invalid_input")
    claim = {"id": "", "text": "Walking lowered blood pressure."}
    response = client.post("/v1/verify", json={"claims": [claim], "evidence": EVIDENCE})
    assert "claim 1: 'id' is blank" in _error(response, 422, "invalid_input")
    assert store.list_traces(limit=10) == []
