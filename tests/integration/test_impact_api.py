"""Artifacts, expert review, retraction and impact over HTTP on a real SQLite store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_review_api import SOURCE, make_state

from spanproof.api.app import create_app
from spanproof.api.state import AppState


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    state: AppState = make_state(tmp_path / "impact.sqlite")
    with TestClient(create_app(state)) as c:
        yield c
    state.store.close()


def _error(response: Any, status: int, kind: str) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["type"] == kind and error["status"] == status
    return str(error["message"])


def _verified(client: TestClient) -> str:
    return str(client.get("/v1/records?status=verified").json()[0]["id"])


def test_curator_flow_over_http(client: TestClient) -> None:
    record_id = _verified(client)
    made = client.post(
        "/v1/artifacts/assessments",
        json={"question": "Does exercise raise insulin sensitivity?", "records": [record_id]},
    )
    assert made.status_code == 201, made.text
    assessment = made.json()
    aid = assessment["artifact"]["id"]
    assert assessment["judgement"]["label"] == "requires_expert_review"
    # the sole evidence waits in the review queue, named with its assessment
    queue = client.get("/v1/review").json()
    waiting = [i for i in queue if i["record"]["id"] == record_id]
    assert waiting and waiting[0]["assessments"] == [aid]
    looked = client.post(
        f"/v1/review/{record_id}",
        json={"reviewer": "dr. ada", "decision": "approve", "reason": "the passage says so"},
    )
    assert looked.status_code == 200
    assert client.get(f"/v1/artifacts/{aid}").json()["judgement"]["label"] == "sufficient"
    approved = client.post(f"/v1/artifacts/{aid}/versions/1/approve", json={"approver": "ada"})
    assert approved.status_code == 200 and approved.json()["versions"][0]["approved"]
    package = client.post(
        "/v1/artifacts",
        json={"kind": "package", "title": "Insulin pack", "depends_on": [f"assessment:{aid}"]},
    )
    assert package.status_code == 201, package.text
    pid = package.json()["artifact"]["id"]
    # retract the source: walks start, run after the response, and flag every dependent
    retracted = client.post(f"/v1/sources/{SOURCE}/retract", json={"status": "retracted"})
    assert retracted.status_code == 202, retracted.text
    assert [w["changed_ref"] for w in retracted.json()["walks"]] == [f"source:{SOURCE}:v1"]
    for path in ("/v1/impact", "/api/v1/impact"):
        report = client.get(path, params={"ref": f"source:{SOURCE}:v1"}).json()
        refs = {d["ref"] for d in report["dependents"]}
        assert {f"record:{record_id}", f"assessment:{aid}", f"package:{pid}"} <= refs
        assert report["flagged"] == report["count"] == len(refs)
        assert all(w["status"] == "done" for w in report["walks"])
    view = client.get(f"/v1/artifacts/{aid}").json()
    assert view["flagged"] and view["versions"][0] == approved.json()["versions"][0]
    assert client.get("/v1/walks?status=running").json() == []
    listed = {a["artifact"]["id"]: a["flagged"] for a in client.get("/v1/artifacts").json()}
    assert listed == {aid: True, pid: True}
    # the web pages show the flags
    page = client.get("/artifacts")
    assert page.status_code == 200 and page.text.count("flagged") >= 2
    impact_page = client.get("/impact", params={"ref": f"source:{SOURCE}:v1"})
    assert impact_page.status_code == 200 and f"package:{pid}" in impact_page.text
    assert client.get(f"/artifacts/{aid}").status_code == 200


def test_a_retracted_source_is_withdrawn_only_when_the_downgrade_is_asked_for(
    client: TestClient,
) -> None:
    url = f"/v1/sources/{SOURCE}/retract"
    assert client.post(url, json={}).status_code == 202
    message = _error(client.post(url, json={"status": "withdrawn"}), 422, "invalid_input")
    assert "is retracted" in message and '"downgrade": true' in message
    assert client.get(f"/v1/sources/{SOURCE}").json()["source"]["status"] == "retracted"
    lowered = client.post(url, json={"status": "withdrawn", "downgrade": True})
    assert lowered.status_code == 202, lowered.text
    assert client.get(f"/v1/sources/{SOURCE}").json()["source"]["status"] == "withdrawn"


def test_bad_requests_get_the_error_shape(client: TestClient) -> None:
    assert "not a ref" in _error(client.get("/v1/impact?ref=source:x"), 422, "invalid_input")
    _error(client.get("/v1/impact"), 422, "validation_error")
    _error(client.get("/v1/artifacts/nope"), 404, "not_found")
    _error(client.post("/v1/artifacts/nope/versions/1/approve", json={"approver": "a"}), 404,
           "not_found")  # fmt: skip
    _error(client.post("/v1/sources/nope/retract", json={}), 404, "not_found")
    huge = client.post(
        "/v1/artifacts/a/versions/99999999999999999999/approve", json={"approver": "a"}
    )
    _error(huge, 422, "validation_error")
    _error(client.post(f"/v1/sources/{SOURCE}/retract", json={"status": "gone"}), 422,
           "validation_error")  # fmt: skip
    message = _error(
        client.post("/v1/artifacts/assessments", json={"question": "q", "records": ["rec-x"]}),
        422,
        "invalid_input",
    )
    assert "unknown record" in message
    in_review = client.get("/v1/review").json()[0]["record"]["id"]
    message = _error(
        client.post("/v1/artifacts/assessments", json={"question": "q", "records": [in_review]}),
        422,
        "invalid_input",
    )
    assert "only a verified record" in message
    _error(
        client.post("/v1/artifacts", json={"kind": "package", "title": "t",
                                           "depends_on": ["record:nope"]}),
        422, "invalid_input",
    )  # fmt: skip
    _error(client.post("/v1/artifacts", json={"kind": "assessment", "title": "t",
                                              "depends_on": ["record:x"]}),
           422, "validation_error")  # fmt: skip
    assert client.get("/impact?ref=bogus").status_code == 400
    assert client.get("/artifacts/nope").status_code == 404


def test_file_source_ids_with_slashes_are_addressable(client: TestClient) -> None:
    from spanproof.bootstrap import build_parser
    from spanproof.core.documents import FetchedDocument
    from spanproof.services.ingestion import ingest

    store = client.app.state.spanproof.store  # type: ignore[attr-defined]
    source_id = "file:/data/corpus/walking study.md"
    raw = b"Walking\n\nDaily walking lowered blood pressure by 5 mmHg.\n"
    ingest(store, FetchedDocument("file", {}, "text/plain", raw), source_id, build_parser())
    shown = client.get(f"/v1/sources/{source_id}")
    assert shown.status_code == 200, shown.text
    assert shown.json()["source"]["id"] == source_id
    retracted = client.post(f"/v1/sources/{source_id}/retract", json={})
    assert retracted.status_code == 202, retracted.text
    assert retracted.json()["walks"][0]["changed_ref"] == f"source:{source_id}:v1"


def test_a_rejection_on_the_review_page_flags_what_is_built_on_the_record(
    client: TestClient,
) -> None:
    record_id = _verified(client)
    made = client.post(
        "/v1/artifacts/assessments",
        json={"question": "Does exercise raise insulin sensitivity?", "records": [record_id]},
    )
    aid = made.json()["artifact"]["id"]
    form = {"reviewer": "Ada", "decision": "reject", "reason": "obese mice only"}
    posted = client.post(f"/review/{record_id}", data=form, follow_redirects=False)
    assert posted.status_code == 303, posted.text
    # the rejection's walk ran after the response, as it does for POST /v1/review
    assert client.get("/v1/walks?status=running").json() == []
    report = client.get("/v1/impact", params={"ref": f"record:{record_id}"}).json()
    assert [d["ref"] for d in report["dependents"]] == [f"assessment:{aid}"]
    assert report["flagged"] == 1
    assert client.get(f"/v1/artifacts/{aid}").json()["flagged"]
