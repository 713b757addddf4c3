"""The edit check (score models v4, v6 and v8) through the entry points: ``POST /v1/verify``
JSON, the stored trace and its replay, the trace viewer page, and ``spanproof verify --json``
with the bundled model."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.state import AppState
from spanproof.services.replay import replay
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

EVIDENCE = [
    {
        "id": "S1",
        "text": "Budesonide reduced relapse in adults with asthma. It was well tolerated.",
    },
    {"id": "S2", "text": "Aspirin did not reduce stroke risk in the 2019 trial."},
]
CLAIMS = [
    {"id": "c1", "text": "Budesonide reduced relapse in adults with eczema."},
    {"id": "c2", "text": "Aspirin reduced stroke risk in the 2019 trial."},
    {"id": "c3", "text": "Budesonide reduced relapse in adults with asthma."},
]


@pytest.fixture
def state(tmp_path: Path) -> Iterator[AppState]:
    store = SqliteEvidenceStore(tmp_path / "edits.sqlite")
    yield app_state(store)
    store.close()


@pytest.fixture
def client(state: AppState) -> Iterator[TestClient]:
    with TestClient(create_app(state)) as c:
        yield c


@pytest.mark.parametrize("model", ["v4", "v6", *(f"v{n}" for n in range(8, 35))])
def test_the_edit_checks_verify_json_carries_edits_and_its_trace_replays(
    client: TestClient, state: AppState, model: str
) -> None:
    body = {"claims": CLAIMS, "evidence": EVIDENCE, "score_model": model}
    response = client.post("/v1/verify", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["score_model"] == model
    first, second, third = data["claims"]
    assert first["verdict"] == "unsupported"
    (edit,) = first["edits"]
    assert {k: v for k, v in edit.items() if k != "judgement"} == {
        "op": "substitution",
        "claim": {"start": 42, "end": 48, "text": "eczema"},
        "evidence": {"id": "S1", "start": 42, "end": 48, "text": "asthma"},
    }
    assert edit["judgement"].startswith("unsupported: different meaning (similarity ")
    assert second["verdict"] == "contradicted" and second["polarity_gated"]
    assert second["edits"][0]["judgement"] == "contradicted: negation dropped"
    assert third["verdict"] == "supported" and "edits" not in third
    trace = state.traces.get_trace(data["trace_id"])
    assert trace is not None and trace.claims == data["claims"]
    assert [p["text"] for p in trace.embeddings["phrases"]] == ["eczema", "asthma"]
    result = replay(trace)
    assert result.ok, result.differences


def test_v2_verify_json_has_no_edits(client: TestClient) -> None:
    data = client.post("/v1/verify", json={"claims": CLAIMS, "evidence": EVIDENCE}).json()
    assert data["score_model"] == "v2"
    assert all("edits" not in c for c in data["claims"])


def test_the_trace_page_shows_the_claim_beside_its_evidence_sentence(
    client: TestClient,
) -> None:
    body = {"claims": CLAIMS, "evidence": EVIDENCE, "score_model": "v4"}
    trace_id = client.post("/v1/verify", json=body).json()["trace_id"]
    page = client.get(f"/traces/{trace_id}")
    assert page.status_code == 200
    html = page.text
    assert "Edit check against S1: unsupported" in html
    assert '<mark>eczema</mark><span class="edit-label"> [1 substitution]</span>' in html
    assert '<mark>asthma</mark><span class="edit-label"> [1 substitution]</span>' in html
    # Only the evidence sentence, not the rest of the span, stands beside the claim.
    evidence_side = re.search(r"Evidence sentence</figcaption><p>(.*?)</p>", html)
    assert evidence_side is not None and "well tolerated" not in evidence_side.group(1)
    assert '<del>did not</del><span class="edit-label"> [1 deletion]</span>' in html
    assert "contradicted: negation dropped" in html
    # each claim's gates line names what the edit check refused, as `spanproof verify` does
    gates = re.findall(r"<dt>Gates</dt><dd>(.*?)</dd>", html)
    assert len(gates) == 3
    assert "edit: different meaning (similarity " in gates[0]
    assert gates[1].endswith("edit: negation dropped (the edit check, below)")
    assert "edit:" not in gates[2]


@pytest.mark.model
def test_cli_verify_json_with_v4_names_the_substitution(tmp_path: Path) -> None:
    from spanproof.cli.main import cli

    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps(c) + "\n" for c in CLAIMS), encoding="utf-8")
    evidence = tmp_path / "evidence.jsonl"
    evidence.write_text("".join(json.dumps(e) + "\n" for e in EVIDENCE), encoding="utf-8")
    args = ["verify", "--claims", str(claims), "--evidence", str(evidence), "--json"]
    result = CliRunner().invoke(cli, [*args, "--score-model", "v4"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["score_model"] == "v4"
    verdicts = [c["verdict"] for c in report["claims"]]
    assert verdicts == ["unsupported", "contradicted", "supported"]
    assert report["claims"][0]["edits"][0]["claim"]["text"] == "eczema"
