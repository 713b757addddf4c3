"""Score model v7's finding gate through the API: the verdict's JSON, the stored trace and its
replay, and the trace page, with the bundled model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.services.replay import replay
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

pytestmark = pytest.mark.model

EVIDENCE = [
    {
        "id": "S1",
        "text": "OBJECTIVE To evaluate whether metformin reduces HbA1c in obese teenagers.",
    },
    {"id": "S2", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."},
]
CLAIMS = [
    {"id": "c1", "text": "Metformin reduces HbA1c in obese teenagers."},
    {"id": "c2", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."},
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, object]]:
    store = SqliteEvidenceStore(tmp_path / "finding.sqlite")
    state = app_state(store)
    with TestClient(create_app(state)) as c:
        yield c, state
    store.close()


def test_v7_names_the_finding_gate_in_json_trace_replay_and_page(
    client: tuple[TestClient, object],
) -> None:
    http, state = client
    v2 = http.post("/v1/verify", json={"claims": CLAIMS, "evidence": EVIDENCE}).json()
    assert v2["claims"][0]["verdict"] == "supported"  # the aim shares the claim's words
    response = http.post(
        "/v1/verify", json={"claims": CLAIMS, "evidence": EVIDENCE, "score_model": "v7"}
    )
    assert response.status_code == 200, response.text
    data = response.json()
    first, second = data["claims"]
    assert first["verdict"] == "unsupported" and first["finding_gated"] is True
    assert second["verdict"] == "supported" and "finding_gated" not in second
    trace = state.traces.get_trace(data["trace_id"])  # type: ignore[attr-defined]
    assert trace is not None and trace.claims == data["claims"]
    result = replay(trace)
    assert result.ok, result.differences
    page = http.get(f"/traces/{data['trace_id']}")
    assert page.status_code == 200
    assert "finding: gated (this text states an aim or a method, not a finding)" in page.text
