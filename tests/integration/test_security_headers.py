"""Every response of the real app carries the security headers (``api/security_headers.py``):
the API's JSON, the pages, 404s, the middleware's refusals before routing, the API's
documentation, the static files — and an HTML response the Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.security_headers import CONTENT_SECURITY_POLICY
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

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
