"""The pages under the whole app's Content-Security-Policy in a real browser: every page named in
the navigation (and a trace, a source, a record, an error page) loads and works with nothing
blocked, while an inline script is blocked and no other site may frame a page."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from browser_kit import require_browser, watch_csp

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Browser, Page, expect  # noqa: E402
from web_world import SOURCE_ID, WebFixture, queue_for_review  # noqa: E402

from spanproof import bootstrap  # noqa: E402
from spanproof.api.app import create_app  # noqa: E402
from spanproof.api.security_headers import (  # noqa: E402
    API_DOCS_CONTENT_SECURITY_POLICY,
    CONTENT_SECURITY_POLICY,
)
from spanproof.core.records import Record  # noqa: E402
from spanproof.workflows.client import QueueState, StatusView, WorkflowRow  # noqa: E402


@pytest.fixture
def queued(web: WebFixture) -> list[Record]:
    """Two records of the walking study waiting for review."""
    return queue_for_review(web.store)


@pytest.fixture
def base_url(
    web: WebFixture, queued: list[Record], monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The whole app (``create_app``: the API, the pages, the middleware), a workflow listed."""
    row = WorkflowRow("ingest:file:demo/walking.md", "spanproof.ingest_document", "SUCCESS",
                      "spanproof-ingest", "local", 1_764_612_000_000, 1_764_612_006_000,
                      "")  # fmt: skip
    queues = [QueueState("spanproof-ingest", 4, "", {"SUCCESS": 1})]
    status = StatusView("sqlite:///tmp/store.dbos.sqlite", queues, {}, {}, [row])
    monkeypatch.setattr(bootstrap, "workflow_status", lambda settings, store: status)
    with serving(create_app(web.state)) as url:
        yield url


def _pages(web: WebFixture, queued: list[Record]) -> list[tuple[str, str]]:
    """(path, a CSS selector the page shows once drawn) for every page checked."""
    return [
        ("/traces", "table.list tbody tr"),
        (f"/traces/{web.trace.id}", "button.claim"),
        ("/sources", "table.list tbody tr"),
        ("/sources/" + quote(SOURCE_ID, safe=":/@"), "main h1"),
        ("/records", "table.list tbody tr"),
        (f"/records/{quote(queued[0].id, safe='')}", "main h1"),
        ("/search?q=walking+blood+pressure", "ol.results > li"),
        ("/review", "article.review-item"),
        ("/artifacts", "main h1"),
        ("/impact", "main h1"),
        ("/workflows", "table.workflows tbody tr"),
        ("/traces/no-such-trace", "main h1"),
        ("/records?offset=-1", "main h1"),
        ("/docs", ".opblock"),
    ]


def test_every_page_loads_under_the_policy_with_nothing_blocked(
    web: WebFixture, queued: list[Record], base_url: str, page: Page
) -> None:
    violations = watch_csp(page)
    for path, drawn in _pages(web, queued):
        response = page.goto(base_url + path)
        assert response is not None
        headers = response.headers
        policy = API_DOCS_CONTENT_SECURITY_POLICY if path == "/docs" else CONTENT_SECURITY_POLICY
        assert headers["content-security-policy"] == policy, path
        assert headers["x-frame-options"] == "DENY", path
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["cross-origin-opener-policy"] == "same-origin", path
        assert headers["permissions-policy"].startswith("camera=()"), path
        expect(page.locator(drawn).first).to_be_visible()
        page.wait_for_load_state("load")
        assert violations == [], (path, violations)
    # the stylesheet applied: the workflows table's column widths come from it, not style=""
    page.goto(base_url + "/workflows")
    width = page.evaluate("getComputedStyle(document.querySelector('table.workflows col')).width")
    table = page.evaluate("document.querySelector('table.workflows').clientWidth")
    assert abs(float(width.removesuffix("px")) - 0.23 * table) < 0.05 * table, (width, table)
    assert violations == []


def test_the_trace_viewer_script_runs_under_the_policy(
    web: WebFixture, base_url: str, page: Page
) -> None:
    violations = watch_csp(page)
    page.goto(f"{base_url}/traces/{web.trace.id}")
    claim = page.locator("button.claim").first
    expect(claim).to_have_attribute("aria-expanded", "false")
    claim.click()
    expect(claim).to_have_attribute("aria-expanded", "true")
    panel = page.locator(f"#{claim.get_attribute('aria-controls')}")
    expect(panel).to_be_visible()
    assert violations == []


def test_swagger_ui_draws_and_calls_the_api_under_the_policy(base_url: str, page: Page) -> None:
    violations = watch_csp(page)
    page.goto(f"{base_url}/docs")
    health = page.locator(
        ".opblock", has=page.locator(".opblock-summary-path", has_text="/healthz")
    )
    health.locator(".opblock-summary").first.click()
    health.get_by_role("button", name="Try it out").click()
    health.get_by_role("button", name="Execute").click()
    status = health.locator(".live-responses-table tbody .response-col_status").first
    expect(status).to_have_text("200")
    assert violations == []


def test_an_inline_script_is_blocked_and_reported(browser: Browser, base_url: str) -> None:
    """The watch works: a script put inline into a page does not run, and is reported."""
    context = browser.new_context()
    try:
        page = context.new_page()
        violations = watch_csp(page)
        page.goto(f"{base_url}/traces")
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.inlineRan = true'; document.body.append(s); }"
        )
        expect(page.locator("body")).to_be_visible()
        page.wait_for_timeout(200)
        assert page.evaluate("window.inlineRan === undefined")
        assert any("script-src" in v for v in violations), violations
    finally:
        context.close()


def test_a_data_image_is_blocked_on_a_page_but_drawn_on_the_api_docs(
    browser: Browser, base_url: str
) -> None:
    """Only ``/docs`` (Swagger UI's icons) may draw ``data:`` images; on another page one is
    blocked and reported."""
    pixel = "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="
    draw = (
        "(src) => new Promise((done) => { const i = new Image(); i.onload = () => done(true);"
        " i.onerror = () => done(false); i.src = src; document.body.append(i); })"
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        violations = watch_csp(page)
        page.goto(f"{base_url}/traces")
        assert page.evaluate(draw, pixel) is False
        page.wait_for_timeout(200)
        assert any("img-src" in v for v in violations), violations
        violations.clear()
        page.goto(f"{base_url}/docs")
        assert page.evaluate(draw, pixel) is True
        assert violations == []
    finally:
        context.close()


def test_no_other_site_may_frame_a_page(browser: Browser, base_url: str) -> None:
    """``frame-ancestors 'none'``: a page of another origin that frames the review queue gets
    an empty frame, never the page and its forms."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(f'<iframe src="{base_url}/review" width="600" height="400"></iframe>')
        page.wait_for_timeout(500)
        frame = page.frames[-1]
        assert frame is not page.main_frame
        assert "Review queue" not in frame.content()
    finally:
        context.close()
