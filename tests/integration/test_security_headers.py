"""Every response of the real app carries the security headers (``api/security_headers.py``):
the API's JSON, the pages, 404s, the middleware's refusals before routing, the API's
documentation, the static files, the catch-all's 500 — and an HTML response the
Content-Security-Policy. A page that fails unexpectedly answers the HTML error page (500, the
request id, never the exception); ``/v1`` answers the JSON shape."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.errors import INTERNAL_MESSAGE
from spanproof.api.security_headers import CONTENT_SECURITY_POLICY
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

SECRET = "db password is hunter2-0123456789"
FORM = {"reviewer": "Ada", "decision": "approve", "reason": "checked"}
FORM_TYPE = {"Content-Type": "application/x-www-form-urlencoded"}
LIMIT = 1000


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(tmp_path / "headers.sqlite") as s:
        yield s


def _client(store: SqliteEvidenceStore, **options: Any) -> TestClient:
    return TestClient(create_app(app_state(store), max_body_bytes=LIMIT, **options))


def assert_secured(response: httpx.Response, *, page: bool) -> None:
    """``response`` carries every security header; the CSP exactly when it is HTML (``page``)."""
    headers = response.headers
    assert headers["x-content-type-options"] == "nosniff", response.request.url
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"
    assert "strict-transport-security" not in headers  # plain http on loopback stays usable
    assert headers["content-type"].startswith("text/html") is page, headers["content-type"]
    if page:
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    else:
        assert "content-security-policy" not in headers
    for name in ("content-security-policy", "x-frame-options", "referrer-policy"):
        assert len(headers.get_list(name)) <= 1, name  # set once, never doubled


def test_the_policy_is_as_strict_as_the_pages_allow() -> None:
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives == {
        "default-src": "'self'",
        "img-src": "'self' data:",  # Swagger UI's stylesheet draws its icons as data: images
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "object-src": "'none'",
    }
    assert "unsafe" not in CONTENT_SECURITY_POLICY  # no inline script or style, no eval


def test_api_responses_pages_and_files_carry_the_headers(store: SqliteEvidenceStore) -> None:
    with _client(store) as client:
        assert_secured(client.get("/v1/traces"), page=False)
        assert_secured(client.get("/healthz"), page=False)
        assert_secured(client.head("/healthz"), page=False)
        assert_secured(client.get("/openapi.json"), page=False)
        assert_secured(client.get("/metrics"), page=False)
        assert_secured(client.get("/static/spanproof.css"), page=False)
        assert_secured(client.get("/static/viewer.js"), page=False)
        assert_secured(client.get("/static/api-docs/swagger-init.js"), page=False)
        for path in ("/traces", "/sources", "/records", "/review", "/workflows", "/docs"):
            response = client.get(path)
            assert response.status_code == 200, path
            assert_secured(response, page=True)
        redirect = client.get("/", follow_redirects=False)
        assert redirect.status_code == 307
        assert redirect.headers["x-frame-options"] == "DENY"


def test_the_docs_page_runs_no_inline_script(store: SqliteEvidenceStore) -> None:
    with _client(store) as client:
        docs = client.get("/docs")
    assert_secured(docs, page=True)
    assert "<script>" not in docs.text and "style=" not in docs.text
    assert '<script src="/static/api-docs/swagger-init.js"></script>' in docs.text
    assert 'data-openapi-url="/openapi.json"' in docs.text


def test_404s_carry_the_headers(store: SqliteEvidenceStore) -> None:
    with _client(store) as client:
        api = client.get("/v1/traces/no-such-trace")
        assert api.status_code == 404
        assert_secured(api, page=False)
        route = client.get("/no-such-route")
        assert route.status_code == 404
        assert_secured(route, page=False)
        page = client.get("/traces/no-such-trace")
        assert page.status_code == 404
        assert_secured(page, page=True)
        asset = client.get("/static/nothing.js")
        assert asset.status_code == 404
        assert_secured(asset, page=True)  # the HTML "not found" page


def test_refusals_before_routing_carry_the_headers(store: SqliteEvidenceStore) -> None:
    big = "x" * (LIMIT + 1)
    with _client(store) as client:
        too_large = client.post("/review/rec-x", content=big, headers=FORM_TYPE)
        assert too_large.status_code == 413
        assert_secured(too_large, page=True)
        api_too_large = client.post("/v1/verify", content=big, headers={
            "Content-Type": "application/json"})  # fmt: skip
        assert api_too_large.status_code == 413
        assert_secured(api_too_large, page=False)
        cross = client.post("/review/rec-x", data=FORM, headers={"Origin": "https://evil.example"})
        assert cross.status_code == 403
        assert_secured(cross, page=True)
    with _client(store, api_keys=["a-key-0123456789"]) as client:
        keyless = client.get("/traces")
        assert keyless.status_code == 401
        assert_secured(keyless, page=True)
        assert_secured(client.get("/v1/traces"), page=False)
    with _client(store, loopback_only=True) as client:
        away = client.get("/traces", headers={"Host": "attacker.example"})
        assert away.status_code == 421
        assert_secured(away, page=True)


class _Exploding:
    """A trace store whose every call fails with a message that must never be shown."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError(SECRET)

        return fail


def assert_error_page(response: httpx.Response) -> None:
    """The HTML 500 page: the request id shown, the exception's message not."""
    assert response.status_code == 500, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert_secured(response, page=True)
    text = html.unescape(response.text)
    assert "<h1>Server error</h1>" in text and "Error 500:" in text
    assert "the server's log" in text
    rid = response.headers["x-request-id"]
    assert f"Request id: <code>{rid}</code>" in text
    assert SECRET not in text and "RuntimeError" not in text and "Traceback" not in text
    assert '"error"' not in text


def test_a_page_that_fails_unexpectedly_answers_the_html_error_page(
    store: SqliteEvidenceStore, caplog: pytest.LogCaptureFixture
) -> None:
    state = app_state(store)
    state.traces = _Exploding()  # type: ignore[assignment]
    with TestClient(create_app(state)) as client:
        page = client.get("/traces", headers={"X-Request-ID": "rid-page-500"})
        assert_error_page(page)
        assert page.headers["x-request-id"] == "rid-page-500"
        assert "without its query" not in page.text  # the query is not what failed
        api = client.get("/v1/traces", headers={"X-Request-ID": "rid-api-500"})
    assert api.status_code == 500
    assert api.headers["content-type"] == "application/json"
    assert_secured(api, page=False)
    assert api.json() == {"error": {"type": "internal_error", "message": INTERNAL_MESSAGE,
                                    "status": 500, "request_id": "rid-api-500"}}  # fmt: skip
    assert SECRET not in api.text
    # the failure is in the log, under the request id the page shows
    assert "request rid-page-500 failed unexpectedly" in caplog.text
    assert "request rid-api-500 failed unexpectedly" in caplog.text


def test_a_form_that_fails_unexpectedly_answers_the_html_error_page(
    store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(record_id: str) -> None:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(store, "get_record", broken)
    with _client(store) as client:
        page = client.post("/review/rec-x", data=FORM)
        assert_error_page(page)
        assert "open its page again" in page.text
        assert "without its query" not in page.text  # a form's path has no page of its own


def test_an_error_page_that_fails_too_falls_back_to_json(store: SqliteEvidenceStore) -> None:
    state = app_state(store)
    state.traces = _Exploding()  # type: ignore[assignment]
    app = create_app(state)

    def broken_page(*args: Any) -> Any:
        raise RuntimeError(SECRET)

    app.state.html_error_page = broken_page
    with TestClient(app) as client:
        page = client.get("/traces")
    assert page.status_code == 500
    assert page.json()["error"]["type"] == "internal_error"
    assert SECRET not in page.text
    assert_secured(page, page=False)
