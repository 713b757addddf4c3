"""Every response of the real app carries the security headers (``api/security_headers.py``):
the API's JSON, the pages, 404s, the middleware's refusals before routing, the API's
documentation, the static files, the catch-all's 500 — and an HTML response the
Content-Security-Policy. A page that fails unexpectedly answers the HTML error page (500, the
request id, never the exception); ``/v1`` answers the JSON shape. So does a failure of the API
middleware itself (the catch-all, ``Backstop``, is outside it), logged once; and an answer to
HEAD, a 500 or a refusal included, is sent without its body."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.errors import INTERNAL_MESSAGE
from spanproof.api.middleware import Backstop
from spanproof.api.security_headers import (
    API_DOCS_CONTENT_SECURITY_POLICY,
    CONTENT_SECURITY_POLICY,
)
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
        docs = response.request.url.path == "/docs"  # Swagger UI: its own policy
        policy = API_DOCS_CONTENT_SECURITY_POLICY if docs else CONTENT_SECURITY_POLICY
        assert headers["content-security-policy"] == policy, response.request.url
        assert headers["cross-origin-opener-policy"] == "same-origin"
        assert headers["permissions-policy"] == "camera=(), microphone=(), geolocation=()"
    else:
        for name in ("content-security-policy", "cross-origin-opener-policy",
                     "permissions-policy"):  # fmt: skip
            assert name not in headers, name
    for name in ("content-security-policy", "x-frame-options", "referrer-policy",
                 "cross-origin-opener-policy", "permissions-policy"):  # fmt: skip
        assert len(headers.get_list(name)) <= 1, name  # set once, never doubled


def _directives(policy: str) -> dict[str, str]:
    return dict(d.split(" ", 1) for d in policy.split("; "))


def test_the_policy_is_as_strict_as_the_pages_allow() -> None:
    assert _directives(CONTENT_SECURITY_POLICY) == {
        "default-src": "'self'",
        "img-src": "'self'",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "object-src": "'none'",
    }
    # /docs alone widens img-src: Swagger UI's stylesheet draws its icons as data: images
    assert _directives(API_DOCS_CONTENT_SECURITY_POLICY) == {
        **_directives(CONTENT_SECURITY_POLICY),
        "img-src": "'self' data:",
    }
    for policy in (CONTENT_SECURITY_POLICY, API_DOCS_CONTENT_SECURITY_POLICY):
        assert "unsafe" not in policy  # no inline script or style, no eval


def test_only_the_api_docs_page_allows_data_images(store: SqliteEvidenceStore) -> None:
    with _client(store) as client:
        docs = client.get("/docs")
        missing = client.get("/traces/no-such-trace")  # an error page is a page too
        pages = [client.get(path) for path in ("/traces", "/review", "/records")]
    assert docs.headers["content-security-policy"] == API_DOCS_CONTENT_SECURITY_POLICY
    for response in (missing, *pages):
        if response.headers["content-type"].startswith("text/html"):
            assert "data:" not in response.headers["content-security-policy"], response.url


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


def _failure_logs(caplog: pytest.LogCaptureFixture, rid: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if rid in r.getMessage()]


def test_a_failure_inside_the_middleware_answers_the_projects_500(
    store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An exception the API middleware raises outside any route (here its check of the
    ``Host``) is no plain-text "Internal Server Error": a page's path answers the HTML error
    page, ``/v1`` the JSON shape, both with the security headers and the request id; it is
    logged once, under that id, and raised no further (the test client would re-raise it)."""

    def broken(host: str | None) -> bool:
        raise RuntimeError(SECRET)

    monkeypatch.setattr("spanproof.api.middleware._loopback_host", broken)
    with _client(store, loopback_only=True) as client:
        page = client.get("/traces", headers={"X-Request-ID": "rid-mw-page"})
        api = client.get("/v1/traces", headers={"X-Request-ID": "rid-mw-api"})
        head = client.head("/traces", headers={"X-Request-ID": "rid-mw-head"})
    assert_error_page(page)
    assert page.headers["x-request-id"] == "rid-mw-page"
    assert api.status_code == 500
    assert_secured(api, page=False)
    assert api.headers["x-request-id"] == "rid-mw-api"
    assert api.json() == {"error": {"type": "internal_error", "message": INTERNAL_MESSAGE,
                                    "status": 500, "request_id": "rid-mw-api"}}  # fmt: skip
    assert head.status_code == 500 and head.content == b""
    assert_secured(head, page=True)
    for rid in ("rid-mw-page", "rid-mw-api", "rid-mw-head"):
        assert _failure_logs(caplog, rid) == [f"request {rid} failed unexpectedly"]
    assert SECRET not in page.text + api.text


def test_a_refusal_that_fails_to_render_answers_the_projects_500(
    store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal's own page failing (a 401 for a page without a key) is answered too."""

    def broken(*args: Any) -> Any:
        raise RuntimeError(SECRET)

    monkeypatch.setattr("spanproof.api.middleware.html_before_routing", broken)
    with _client(store, api_keys=["a-key-0123456789"]) as client:
        refused = client.get("/traces")
    assert refused.status_code == 500
    assert_secured(refused, page=refused.headers["content-type"].startswith("text/html"))
    assert refused.headers["x-request-id"]
    assert SECRET not in refused.text and "Internal Server Error" not in refused.text


def test_a_failure_after_the_answer_was_sent_keeps_the_answer(
    store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The request's metrics failing once its answer is sent: the client keeps its answer, the
    failure is logged once under the request id, nothing is raised further."""

    def broken(self: Any, *args: Any) -> None:
        raise RuntimeError(SECRET)

    monkeypatch.setattr("spanproof.api.metrics.Metrics.observe_request", broken)
    with _client(store) as client:
        answer = client.get("/v1/traces", headers={"X-Request-ID": "rid-after"})
    assert answer.status_code == 200 and answer.json() == []
    assert_secured(answer, page=False)
    assert _failure_logs(caplog, "rid-after") == [
        "request rid-after failed after its answer was sent"
    ]


def _sent(app: Any, method: str, path: str, headers: dict[str, str] | None = None) -> Any:
    """(status, headers, body bytes) of what ``app`` sends for a request, read at the ASGI
    level: the test client and uvicorn both drop a HEAD answer's body, hiding one sent."""
    messages: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    raw = [(b"host", b"testserver")] + [
        (name.lower().encode(), value.encode()) for name, value in (headers or {}).items()
    ]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"", "headers": raw,
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}  # fmt: skip
    asyncio.run(app(scope, receive, send))
    [start] = [m for m in messages if m["type"] == "http.response.start"]
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def test_a_head_request_that_fails_answers_500_without_a_body(store: SqliteEvidenceStore) -> None:
    state = app_state(store)
    state.traces = _Exploding()  # type: ignore[assignment]
    app = create_app(state)
    for path, page in (("/traces", True), ("/v1/traces", False)):
        status, headers, body = _sent(app, "HEAD", path)
        assert (status, body) == (500, b""), path
        assert int(headers["content-length"]) > 0  # the length the GET's body has
        assert headers["content-type"].startswith("text/html") is page
        assert headers["x-frame-options"] == "DENY" and headers["x-request-id"]
        get_status, _, get_body = _sent(app, "GET", path)
        assert get_status == 500 and get_body  # GET keeps its body


def test_a_refusal_to_a_head_request_has_no_body(store: SqliteEvidenceStore) -> None:
    """The middleware's refusals before routing (a 401 for want of a key) too."""
    app = create_app(app_state(store), api_keys=["a-key-0123456789"])
    for path in ("/traces", "/v1/traces"):
        status, headers, body = _sent(app, "HEAD", path)
        assert (status, body) == (401, b""), path
        assert headers["x-content-type-options"] == "nosniff"
    for method in ("GET", "HEAD"):  # and a route's own answer
        status, _, body = _sent(app, method, "/healthz")
        assert status == 200 and bool(body) is (method == "GET")


def test_a_failure_after_the_answer_started_is_raised_on_not_answered_twice(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A started answer cannot be replaced: no second ``http.response.start``, the failure is
    logged under the request id (never its message) and raised on, so the server cuts the
    connection."""

    async def streaming(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"part", "more_body": True})
        raise RuntimeError(SECRET)

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    scope = {"type": "http", "method": "GET", "path": "/v1/x", "headers": [
        (b"x-request-id", b"rid-cut")]}  # fmt: skip
    with pytest.raises(RuntimeError):
        asyncio.run(Backstop(streaming)(scope, receive, send))
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert _failure_logs(caplog, "rid-cut") == [
        "request rid-cut failed after its answer started (RuntimeError); the connection is cut"
    ]
    assert SECRET not in caplog.text


def test_pages_name_an_icon_the_server_serves(store: SqliteEvidenceStore) -> None:
    # without one a browser asks for /favicon.ico, which no route serves (a 404 on every page)
    with _client(store) as client:
        page = client.get("/traces")
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text
        icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg")
