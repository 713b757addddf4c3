"""The web UI's form and a keyless server against other sites: a review posted from another
site's page is refused (403), a keyless server answers only to this machine's names (421), a form
body that is not UTF-8 is refused (400), and a decision on an unknown record is a 404. A page's
refusals answer the HTML error page (test_page_refusals.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.services.ingestion import ingest
from spanproof.services.records import extract_records, verify_all
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.apps import app_state

PAPER = b"""Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
"""
FORM = {"reviewer": "Mallory", "decision": "reject", "reason": "forged"}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(tmp_path / "s.sqlite") as s:
        ingest(s, FetchedDocument("text", {}, "text/plain", PAPER), "paper-1", build_parser())
        extract_records(s, "paper-1")
        verify_all(s)
        yield s


def _record(store: SqliteEvidenceStore) -> str:
    [record] = store.list_records()
    assert record.status == "verified"
    return record.id


def _post_review(store: SqliteEvidenceStore, headers: dict[str, str]) -> tuple[str, httpx.Response]:
    """The review form of the store's one record posted with ``headers``: (record id, answer)."""
    record = _record(store)
    with TestClient(create_app(app_state(store))) as client:
        response = client.post(f"/review/{record}", data=FORM, headers=headers,
                               follow_redirects=False)  # fmt: skip
    return record, response


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver"},
    ],
)
def test_a_review_posted_from_another_sites_page_is_refused(
    store: SqliteEvidenceStore, headers: dict[str, str]
) -> None:
    record, response = _post_review(store, headers)
    # a page: the HTML error page (test_page_refusals.py pins the JSON shape off the pages)
    assert response.status_code == 403 and response.headers["content-type"].startswith("text/html")
    assert "sent from another site" in response.text
    assert store.get_record(record).status == "verified"  # type: ignore[union-attr]
    assert store.attempts(record)[-1].outcome != "review:reject"


@pytest.mark.parametrize(
    "headers",
    [{}, {"Origin": "http://testserver"}, {"Sec-Fetch-Site": "same-origin"}],
    ids=["no-browser-headers", "same-origin", "fetch-same-origin"],
)
def test_a_review_posted_from_its_own_page_is_decided(
    store: SqliteEvidenceStore, headers: dict[str, str]
) -> None:
    record, response = _post_review(store, headers)
    assert response.status_code == 303
    assert store.get_record(record).status == "rejected"  # type: ignore[union-attr]


def test_a_form_that_is_not_utf8_or_names_no_record_is_refused(
    store: SqliteEvidenceStore,
) -> None:
    record = _record(store)
    with TestClient(create_app(app_state(store))) as client:
        bad = client.post(
            f"/review/{record}",
            content=b"reviewer=Ada\xff&decision=approve&reason=x",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        # a page answers the HTML error page (the API's JSON is for /v1: test_error_shape.py)
        assert bad.status_code == 400 and bad.headers["content-type"].startswith("text/html")
        assert "the request body is not valid UTF-8" in bad.text and '"error"' not in bad.text
        assert "without its query" not in bad.text  # a form's path is no page to go back to
        elsewhere = client.post(
            "/no-such-page",
            content=b"x=\xff",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert elsewhere.json()["error"]["type"] == "invalid_utf8"  # no page: the JSON shape
        assert client.post("/review/rec-nope", data=FORM).status_code == 404
    assert store.attempts(record)[-1].model_id != "reviewer:Ada\xff"


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("localhost:8000", 200),
        ("127.0.0.1:8000", 200),
        ("[::1]:8000", 200),
        ("127.0.0.1", 200),
        ("app.localhost", 200),
        ("attacker.example", 421),
        ("attacker.example:8000", 421),
        ("10.0.0.5:8000", 421),
    ],
)
def test_a_keyless_server_answers_only_to_this_machines_names(
    store: SqliteEvidenceStore, host: str, status: int
) -> None:
    app = create_app(app_state(store), loopback_only=True)
    with TestClient(app) as client:
        for path in ("/healthz", "/v1/traces", "/traces"):
            assert client.get(path, headers={"Host": host}).status_code == status, path


def test_a_server_with_keys_answers_to_any_name(store: SqliteEvidenceStore) -> None:
    with TestClient(create_app(app_state(store), api_keys=["k"])) as client:
        response = client.get("/v1/traces", headers={"Host": "api.example", "X-API-Key": "k"})
        assert response.status_code == 200


def test_a_key_the_server_does_not_read_says_a_restart_makes_it_count(
    store: SqliteEvidenceStore,
) -> None:
    # Started with --api-key only (no stored key then): stored keys are not read until a restart.
    with TestClient(create_app(app_state(store), api_keys=["k"])) as client:
        refused = client.get("/v1/traces", headers={"X-API-Key": "spk_made_later"})
        assert refused.status_code == 401
        message = refused.json()["error"]["message"]
        assert "once the server is restarted" in message and "spk_made_later" not in message


def test_an_artifact_body_nested_too_deep_is_refused_and_lists_keep_working(
    store: SqliteEvidenceStore,
) -> None:
    record = _record(store)
    with TestClient(create_app(app_state(store))) as client:
        made = client.post(
            "/v1/artifacts/assessments", json={"question": "Q?", "records": [record]}
        )
        assert made.status_code in (200, 201), made.text
        ref = made.json()["artifact"]["ref"]
        deep: dict[str, object] = {"x": 1}
        for _ in range(40):
            deep = {"a": deep}
        body = {"kind": "design", "title": "d", "depends_on": [ref], "body": deep}
        refused = client.post("/v1/artifacts", json=body)
        assert refused.status_code == 422 and "32 levels" in refused.json()["error"]["message"]
        shallow = {**body, "body": {"a": {"b": [1, {"c": 2}]}}}
        assert client.post("/v1/artifacts", json=shallow).status_code in (200, 201)
        listed = client.get("/v1/artifacts")
        assert listed.status_code == 200 and len(listed.json()) == 2


def test_head_answers_as_get_without_a_body(store: SqliteEvidenceStore) -> None:
    with TestClient(create_app(app_state(store))) as client:
        for path in ("/healthz", "/v1/traces", "/traces", "/openapi.json"):
            got, head = client.get(path), client.head(path)
            assert head.status_code == got.status_code == 200, path
            assert (
                head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
            )
        assert client.head("/v1/traces/tr_nope").status_code == 404
    # a read key may use HEAD, as it may GET
    with TestClient(create_app(app_state(store), api_keys=["k"])) as client:
        assert client.head("/v1/traces").status_code == 401
        assert client.head("/v1/traces", headers={"X-API-Key": "k"}).status_code == 200


def test_json_the_parser_cannot_read_is_malformed_json(store: SqliteEvidenceStore) -> None:
    deep = '{"claims": ["x"], "evidence": ' + "[" * 5000 + "]" * 5000 + "}"
    with TestClient(create_app(app_state(store))) as client:
        for body in (deep, '{"claims": ["x"], "evidence": [], "n": ' + "9" * 5000 + "}"):
            response = client.post(
                "/v1/verify", content=body, headers={"Content-Type": "application/json"}
            )
            assert response.status_code == 400, response.text[:200]
            assert response.json()["error"]["type"] == "malformed_json"


def test_an_empty_json_body_is_unreadable_not_invalid(store: SqliteEvidenceStore) -> None:
    with TestClient(create_app(app_state(store))) as client:
        for path in ("/v1/verify", "/v1/generate"):
            response = client.post(path, content=b"", headers={"Content-Type": "application/json"})
            assert response.status_code == 400, path
            assert response.json()["error"]["type"] == "malformed_json"
            assert "empty" in response.json()["error"]["message"]
        # a body that was read but lacks a field stays a 422
        assert client.post("/v1/verify", json={"evidence": []}).status_code == 422


def test_a_page_answers_a_bad_query_with_an_html_page_and_the_api_with_json(
    store: SqliteEvidenceStore,
) -> None:
    with TestClient(create_app(app_state(store))) as client:
        for path in ("/records?offset=-1", "/records?limit=abc", "/traces?limit=0",
                     "/sources?limit=0", "/search?limit=0", "/sources/x?v=0"):  # fmt: skip
            page = client.get(path)
            assert page.status_code == 422, path
            assert page.headers["content-type"].startswith("text/html"), path
            assert "<h1>Invalid request</h1>" in page.text and "Error 422:" in page.text
        api = client.get("/v1/records?offset=-1")
        assert api.status_code == 422 and api.json()["error"]["type"] == "validation_error"
        assert client.get("/nope").json()["error"]["type"] == "not_found"  # no page: JSON
