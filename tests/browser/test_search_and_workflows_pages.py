"""The search page (scores, matched words marked, a relevance cut-off, mode and limit) and the
workflows page (readable times, durations, nothing wider than the window) in a real browser."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_kit import require_browser

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from web_world import WebFixture  # noqa: E402

from spanproof import bootstrap  # noqa: E402
from spanproof.workflows.client import QueueState, StatusView, WorkflowRow  # noqa: E402


@pytest.fixture
def base_url(web: WebFixture) -> Iterator[str]:
    with serving(web.app) as url:
        yield url


def test_search_shows_scores_marks_words_and_cuts_off_weak_hits(
    web: WebFixture, base_url: str, page: Page
) -> None:
    page.goto(f"{base_url}/search")
    page.get_by_label("Search the sources").fill("walking lowered systolic blood pressure")
    page.get_by_role("button", name="Search").click()
    results = page.locator("ol.results > li")
    expect(results.first).to_be_visible()
    first = results.first
    expect(first.locator(".score")).to_contain_text("(100% of the best)")
    expect(first.locator("mark").first).to_be_visible()
    marked = {t.lower() for t in first.locator("mark").all_text_contents()}
    assert {"walking", "lowered", "systolic", "blood", "pressure"} <= marked
    shown = results.count()
    hidden = page.locator("#hidden-note")
    expect(hidden).to_contain_text("below 50% of the best score")
    expect(page.get_by_label("Relevance cut-off")).to_have_value("50")
    hidden.get_by_role("link", name="Show every result").click()
    expect(page.get_by_label("Relevance cut-off")).to_have_value("0")
    assert results.count() > shown
    expect(page.locator("#hidden-note")).to_have_count(0)

    page.get_by_label("Mode").select_option("keyword")
    page.get_by_label("Show at most").select_option("10")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(
        f"{base_url}/search?q=walking+lowered+systolic+blood+pressure&mode=keyword&limit=10&cutoff=0"
    )
    expect(page.get_by_label("Mode")).to_have_value("keyword")
    assert 1 <= results.count() <= 10
    for index in range(results.count()):  # keyword hits all contain a word of the query
        expect(results.nth(index).locator("mark").first).to_be_visible()


def _status() -> StatusView:
    long_id = "ingest:file:/srv/corpora/very/long/path/" + "x" * 120 + ".md:9216982a793629c6"
    rows = [
        WorkflowRow(long_id, "spanproof.ingest_document", "SUCCESS", "spanproof-ingest",
                    "local", 1_764_612_000_000, 1_764_612_006_000, ""),
        WorkflowRow("verify:rec-1", "spanproof.verify_record", "ERROR", "spanproof-verify",
                    "executor-" + "y" * 80, 1_764_612_000_000, 1_764_612_252_500,
                    "ProviderError: " + "upstream refused the request; " * 8),
        WorkflowRow("impact:walk-1", "spanproof.impact_walk", "PENDING", "spanproof-impact",
                    "local", 1_764_612_000_000, 1_764_612_000_400, ""),
    ]  # fmt: skip
    queues = [QueueState("spanproof-ingest", 4, "", {"SUCCESS": 1})]
    return StatusView("sqlite:///tmp/store.dbos.sqlite", queues, {}, {}, rows)


def test_workflows_page_shows_times_and_durations_without_overflow(
    web: WebFixture, base_url: str, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bootstrap, "workflow_status", lambda settings, store: _status())
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base_url}/workflows")
    rows = page.locator("table.workflows tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0).locator("time")).to_have_text("1 Dec 2025, 18:00:00 UTC")
    expect(rows.nth(0).locator("td").nth(4)).to_have_text("6.0 s")
    expect(rows.nth(1).locator("td").nth(4)).to_have_text("4 min 12 s")
    expect(rows.nth(2).locator("td").nth(4)).to_have_text("not finished")
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    table = page.locator("table.workflows").bounding_box()
    assert table is not None and table["x"] + table["width"] <= 1280
