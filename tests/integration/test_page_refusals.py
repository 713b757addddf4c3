"""What the middleware refuses before any route sees the request — a keyless server addressed by
another name (421), a form from another site (403), a missing, unknown or revoked key (401), a
read key sending a form (403), a body over the limit (413), a Content-Length that is no number
(400), a key that cannot be checked (503) — answers a web page's path with the HTML error page
(same status, the headers that matter, a message saying what happened and what to do), and the
``/v1`` API, or a path that is no page, with the JSON error shape as before."""

from __future__ import annotations

import base64
import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.core.errors import StoreError
from spanproof.core.keys import hash_key, new_api_key
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.live_server import serving

KEY = "page-refusal-key-0123456789"
AT = "2026-12-01T12:00:00.000000+00:00"
FORM = {"reviewer": "Ada", "decision": "approve", "reason": "checked"}
FORM_TYPE = {"Content-Type": "application/x-www-form-urlencoded"}
LIMIT = 1000


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(tmp_path / "refusals.sqlite") as s:
        yield s


def _client(store: SqliteEvidenceStore, **options: Any) -> TestClient:
    return TestClient(create_app(app_state(store), max_body_bytes=LIMIT, **options))


def _basic(key: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"me:{key}".encode()).decode()}


def _stored_key(store: SqliteEvidenceStore, scope: str, *, revoked: bool = False) -> str:
    key, plain = new_api_key(f"{scope} key", scope, AT)
    store.add_api_key(key, hash_key(plain))
    if revoked:
        store.revoke_api_key(key.id, AT)
    return plain


def assert_page(
    response: httpx.Response, status: int, title: str, *phrases: str, rid: str = ""
) -> None:
    """``response`` is the HTML error page with ``status``, its heading ``title``, saying each of
    ``phrases``, with no JSON body, no key and the request id header."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html"), response.text
    text = html.unescape(response.text)
    assert f"<h1>{title}</h1>" in text and f"Error {status}:" in text, text
    for phrase in phrases:
        assert phrase in text, (phrase, text)
    assert '"error"' not in text and '"request_id"' not in text
    assert KEY not in text
    assert response.headers["x-request-id"] == (rid or response.headers["x-request-id"])
    assert response.headers["x-request-id"]


def assert_json(
    response: httpx.Response, status: int, kind: str, message: str | None = None
) -> dict[str, Any]:
    """``response`` is the API's JSON error shape, as the middleware answered it before."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    error: dict[str, Any] = response.json()["error"]
    assert error["type"] == kind and error["status"] == status
    assert error["request_id"] == response.headers["x-request-id"]
    if message is not None:
        assert error["message"] == message
    assert KEY not in response.text
    return error


MISDIRECTED = (
    "this server answers only requests addressed to this machine (localhost, 127.0.0.1, [::1]); "
    "serve with an API key to be reached by another name"
)


def test_a_keyless_server_addressed_by_another_name_answers_a_page_with_html(
    store: SqliteEvidenceStore,
) -> None:
    away = {"Host": "attacker.example:8000", "X-Request-ID": "rid-421"}
    with _client(store, loopback_only=True) as client:
        for path in ("/traces", "/sources/paper-1", "/docs"):
            assert_page(
                client.get(path, headers=away), 421, "Wrong address",
                "localhost or 127.0.0.1", "start it with an API key", rid="rid-421",
            )  # fmt: skip
        assert_page(client.post("/review/rec-x", data=FORM, headers=away), 421, "Wrong address")
        assert_json(client.get("/v1/traces", headers=away), 421, "misdirected_request",
                    MISDIRECTED)  # fmt: skip
        for path in ("/healthz", "/openapi.json", "/no-such-page"):  # no page: JSON
            assert_json(client.get(path, headers=away), 421, "misdirected_request", MISDIRECTED)
        assert client.get("/traces", headers={"Host": "localhost:8000"}).status_code == 200


def test_a_form_from_another_site_answers_an_html_page(store: SqliteEvidenceStore) -> None:
    evil = {"Origin": "https://evil.example"}
    with _client(store) as client:
        page = client.post("/review/rec-x", data=FORM, headers=evil)
        assert_page(page, 403, "Refused", "another site", "nothing was changed",
                    "open the page on this server")  # fmt: skip
        assert "without its query" not in page.text
        # not a page: the JSON shape, as before
        assert_json(client.post("/no-such-page", data=FORM, headers=evil), 403, "cross_site",
                    "a form may be posted only from this server's own pages")  # fmt: skip
        # the API takes no forms: another site's Origin is no refusal there (its key is)
        api = client.post("/v1/verify", json={"claims": ["x"], "evidence": []}, headers=evil)
        assert api.status_code != 403


def test_a_page_without_a_key_answers_html_and_asks_for_the_key(
    store: SqliteEvidenceStore,
) -> None:
    with _client(store, api_keys=[KEY]) as client:
        page = client.get("/traces?limit=5", headers={"X-Request-ID": "rid-401"})
        assert_page(page, 401, "API key needed", "needs an API key", "as the password",
                    rid="rid-401")  # fmt: skip
        assert page.headers["www-authenticate"] == 'Basic realm="spanproof"'
        assert "without its query" not in page.text  # the query is not what is wrong
        form = client.post("/review/rec-x", data=FORM)
        assert_page(form, 401, "API key needed", "needs an API key")
        assert form.headers["www-authenticate"] == 'Basic realm="spanproof"'
        api = client.get("/v1/traces")
        assert_json(api, 401, "unauthorized", "an API key is required: send 'Authorization: "
                    "Bearer <key>' or 'X-API-Key'")  # fmt: skip
        assert api.headers["www-authenticate"] == "Bearer"
        assert client.get("/traces", headers=_basic(KEY)).status_code == 200


def test_a_page_given_an_unknown_or_revoked_key_answers_html_naming_no_key(
    store: SqliteEvidenceStore,
) -> None:
    _stored_key(store, "write")  # the server reads stored keys
    revoked = _stored_key(store, "read", revoked=True)
    with _client(store, api_keys=[KEY]) as client:
        wrong = client.get("/records", headers=_basic("spk_typo"))
        assert_page(wrong, 401, "API key needed", "is not valid", "enter the key again")
        assert "spk_typo" not in wrong.text  # what was given is never shown
        assert wrong.headers["www-authenticate"] == 'Basic realm="spanproof"'
        gone = client.get("/records", headers=_basic(revoked))
        assert_page(gone, 401, "API key needed", "was revoked at", "enter another key")
        assert revoked not in gone.text
        api = client.get("/v1/records", headers={"X-API-Key": revoked})
        assert "was revoked at" in assert_json(api, 401, "unauthorized")["message"]
        assert revoked not in api.text
        api = client.get("/v1/records", headers={"X-API-Key": "spk_typo"})
        assert_json(api, 401, "unauthorized", "this API key is not valid: no such key is "
                    "configured or stored (check it for typos)")  # fmt: skip


def test_a_key_the_server_does_not_read_answers_a_page_saying_a_restart_makes_it_count(
    store: SqliteEvidenceStore,
) -> None:
    with _client(store, api_keys=[KEY]) as client:  # no stored key: stored keys are not read
        page = client.get("/traces", headers=_basic("spk_made_later"))
        assert_page(page, 401, "API key needed", "once the server is restarted")
        assert "spk_made_later" not in page.text


def test_a_read_key_sending_a_form_answers_an_html_page(store: SqliteEvidenceStore) -> None:
    read_key = _stored_key(store, "read")
    with _client(store) as client:
        page = client.post("/review/rec-x", data=FORM, headers=_basic(read_key))
        assert_page(page, 403, "Refused", "scope 'read'", "nothing was changed",
                    "scope 'write'")  # fmt: skip
        assert read_key not in page.text
        assert client.get("/review", headers=_basic(read_key)).status_code == 200
        api = client.post("/v1/verify", json={"claims": ["x"], "evidence": []},
                          headers={"X-API-Key": read_key})  # fmt: skip
        assert_json(api, 403, "forbidden", "this API key has scope 'read': it may use GET and "
                    "HEAD only; POST needs a key with scope 'write'")  # fmt: skip


def test_a_key_that_cannot_be_checked_answers_a_page_with_html(
    store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stored_key(store, "write")
    with _client(store) as client:

        def broken(_: str) -> None:
            raise StoreError("database is locked at /secret/path.sqlite", retryable=True)

        monkeypatch.setattr(store, "find_api_key", broken)
        page = client.get("/traces", headers=_basic("spk_any"))
        assert_page(page, 503, "Server error", "could not be checked", "try again")
        assert "/secret/path" not in page.text
        error = assert_json(client.get("/v1/traces", headers={"X-API-Key": "spk_any"}), 503,
                            "store_error", "the evidence store failed")  # fmt: skip
        assert error["retryable"] is True


OVER = f"the request body is over the limit of {LIMIT} bytes"


def test_a_form_over_the_limit_answers_an_html_page(store: SqliteEvidenceStore) -> None:
    big = {**FORM, "reason": "x" * (2 * LIMIT)}
    with _client(store) as client:
        page = client.post("/review/rec-x", data=big)
        assert_page(page, 413, "Request too large", f"{LIMIT} bytes", "nothing was changed",
                    "shorten")  # fmt: skip
        assert "without its query" not in page.text

        def chunks() -> Iterator[bytes]:
            for _ in range(20):
                yield b"reason=" + b"x" * 100

        streamed = client.post("/review/rec-x", content=chunks(), headers=FORM_TYPE)
        assert "content-length" not in {k.lower() for k in streamed.request.headers}
        assert_page(streamed, 413, "Request too large", f"{LIMIT} bytes", "shorten")
        assert streamed.headers["connection"] == "close"
        api = client.post("/v1/verify", json={"draft": "x" * (2 * LIMIT), "evidence": []})
        assert_json(api, 413, "payload_too_large", OVER)
        api = client.post("/v1/verify", content=chunks(),
                          headers={"Content-Type": "application/json"})  # fmt: skip
        assert_json(api, 413, "payload_too_large", OVER)
        assert api.headers["connection"] == "close"


def test_a_content_length_that_is_no_number_answers_a_page_with_html(
    store: SqliteEvidenceStore,
) -> None:
    with _client(store) as client:
        page = client.post("/review/rec-x", content=b"", headers={**FORM_TYPE,
                           "Content-Length": "ten"})  # fmt: skip
        assert_page(page, 400, "Bad request", "Content-Length", "send the form again")
        api = client.post("/v1/verify", content=b"", headers={
            "Content-Type": "application/json", "Content-Length": "ten"})  # fmt: skip
        assert_json(api, 400, "bad_request", "Content-Length is not a number")


def test_a_real_server_answers_its_refusals_to_a_page_in_html_and_to_the_api_in_json(
    store: SqliteEvidenceStore,
) -> None:
    """Over TCP, through uvicorn: the 401 and a streamed 413 (which closes the connection)."""
    app = create_app(app_state(store), api_keys=[KEY], max_body_bytes=LIMIT)
    with serving(app) as base_url, httpx.Client(base_url=base_url, timeout=30) as http:
        page = http.get("/traces", headers={"X-Request-ID": "rid-live"})
        assert_page(page, 401, "API key needed", "needs an API key", rid="rid-live")
        assert page.headers["www-authenticate"] == 'Basic realm="spanproof"'
        api = http.get("/v1/traces")
        assert_json(api, 401, "unauthorized")
        assert api.headers["www-authenticate"] == "Bearer"

        def chunks() -> Iterator[bytes]:
            for _ in range(20):
                yield b"reason=" + b"x" * 100

        big = http.post("/review/rec-x", content=chunks(), headers={**FORM_TYPE, **_basic(KEY)})
        assert_page(big, 413, "Request too large", f"{LIMIT} bytes", "shorten")
        api = http.post("/v1/verify", content=chunks(),
                        headers={"Content-Type": "application/json", "X-API-Key": KEY})  # fmt: skip
        assert_json(api, 413, "payload_too_large", OVER)


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_an_address_no_page_serves_answers_a_browser_with_html_and_the_rest_with_json(
    store: SqliteEvidenceStore,
) -> None:
    with _client(store) as client:
        page = client.get("/tracez", headers={"Accept": BROWSER_ACCEPT})
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "there is no page at this address" in page.text
        assert "without its query" not in page.text  # there is no query to drop
        for path, accept in (("/tracez", "*/*"), ("/tracez", "application/json"),
                             ("/v1/tracez", BROWSER_ACCEPT), ("/healthzz", "*/*")):  # fmt: skip
            answer = client.get(path, headers={"Accept": accept})
            assert answer.status_code == 404, path
            assert answer.headers["content-type"] == "application/json", (path, accept)
            assert answer.json()["error"]["type"] == "not_found"
