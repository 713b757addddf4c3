"""``/docs`` works with no internet: every request the pages make goes to the app
itself (the browser is cut off from everything else), and Swagger UI draws the API's operations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import require_browser

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from fastapi.testclient import TestClient  # noqa: E402
from playwright.sync_api import Page, Route, expect  # noqa: E402
from web_world import WebFixture  # noqa: E402

from spanproof.api.app import create_app  # noqa: E402


@pytest.fixture
def base_url(web: WebFixture) -> Iterator[str]:
    with serving(create_app(web.state)) as url:
        yield url


def _offline(page: Page, base_url: str) -> list[str]:
    """Abort every request that leaves ``base_url``; returns the list of those attempted."""
    outside: list[str] = []

    def handle(route: Route, request: Any) -> None:
        if request.url.startswith(base_url + "/"):
            route.continue_()
        else:
            outside.append(request.url)
            route.abort()

    page.route("**/*", handle)
    return outside


def test_swagger_ui_draws_the_operations_with_no_internet(base_url: str, page: Page) -> None:
    outside = _offline(page, base_url)
    page.goto(f"{base_url}/docs")
    expect(page).to_have_title("spanproof API · Swagger UI")
    verify = page.locator(".opblock-summary-path", has_text="/v1/verify")
    expect(verify.first).to_be_visible()
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() >= 10
    assert outside == []


def test_the_docs_pages_name_no_cdn(web: WebFixture) -> None:
    app = create_app(web.state)
    with TestClient(app) as client:
        page = client.get("/docs")
        assert page.status_code == 200
        assert "cdn." not in page.text and "https://" not in page.text
        assert "/static/api-docs/swagger-ui-bundle.js" in page.text
        assert client.get("/redoc").status_code == 404  # ReDoc would fetch its logo online
        js = client.get("/static/api-docs/swagger-ui-bundle.js")
        css = client.get("/static/api-docs/swagger-ui.css")
        missing = client.get("/static/api-docs/core.py")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert len(js.content) > 100_000 and b"SwaggerUIBundle" in js.content
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert missing.status_code == 404
