"""The review queue page in a real browser: Debian's Chromium, headless, driven by Playwright.

Skips (with the reason) where ``/usr/bin/chromium`` is missing, except under CI (``CI`` set),
where ``.ci/run`` installs it and a missing browser is a failure.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_kit import require_browser

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from web_world import SOURCE_ID, WebFixture, queue_for_review  # noqa: E402

from spanproof.core.records import Record  # noqa: E402


@pytest.fixture
def queued(web: WebFixture) -> list[Record]:
    """Two records of the walking study waiting for review."""
    return queue_for_review(web.store)


@pytest.fixture
def base_url(web: WebFixture, queued: list[Record]) -> Iterator[str]:
    with serving(web.app) as url:
        yield url


def test_approving_a_record_in_the_browser(
    web: WebFixture, queued: list[Record], base_url: str, page: Page
) -> None:
    record = queued[0]
    page.goto(f"{base_url}/review")
    expect(page).to_have_title("Review queue · spanproof")
    expect(page.get_by_role("link", name="Review")).to_be_visible()
    items = page.locator("article.review-item")
    expect(items).to_have_count(2)
    item = page.locator(f"#review-{record.id}")
    mark = item.locator("blockquote mark")
    expect(mark).to_have_count(len(record.quotations))
    assert mark.all_text_contents() == [q.text for q in record.quotations]
    for index, q in enumerate(record.quotations):
        section = web.store.section(SOURCE_ID, record.version, q.section_key)
        assert section is not None and section.text[q.start : q.end] == q.text
        passage = item.locator("blockquote").nth(index).text_content() or ""
        assert passage.strip("…") in section.text

    item.get_by_label("Reviewer").fill("Ada Lovelace")
    item.get_by_label("Reason").fill("The results sentence states the fall directly.")
    item.get_by_role("button", name="Approve").click()

    page.wait_for_url(f"{base_url}/review?decided={record.id}")
    confirmation = page.get_by_role("status")
    expect(confirmation).to_contain_text("Decision saved")
    expect(confirmation).to_contain_text(f"({record.id}) is now verified")
    expect(items).to_have_count(1)
    expect(page.locator(f"#review-{record.id}")).to_have_count(0)
    expect(page.locator(f"#review-{queued[1].id}")).to_have_count(1)
    stored = web.store.get_record(record.id)
    assert stored is not None and stored.status == "verified"
    last = web.store.attempts(record.id)[-1]
    assert last.outcome == "review:approve" and last.model_id == "reviewer:Ada Lovelace"
    assert last.defects == ("The results sentence states the fall directly.",)
    other = web.store.get_record(queued[1].id)
    assert other is not None and other.status == "in_review"


def test_a_form_without_a_reason_is_refused(
    web: WebFixture, queued: list[Record], base_url: str, page: Page
) -> None:
    record = queued[1]
    page.goto(f"{base_url}/review")
    item = page.locator(f"#review-{record.id}")
    item.get_by_label("Reviewer").fill("Ada")
    item.get_by_label("Reason").fill("   ")  # passes the browser's `required`, not the server
    item.get_by_role("button", name="Reject").click()
    expect(page.get_by_role("alert")).to_contain_text("a reason is required")
    stored = web.store.get_record(record.id)
    assert stored is not None and stored.status == "in_review"


def test_the_confirmation_links_to_the_decided_record(
    web: WebFixture, queued: list[Record], base_url: str, page: Page
) -> None:
    record = queued[1]
    page.goto(f"{base_url}/review")
    item = page.locator(f"#review-{record.id}")
    item.get_by_label("Reviewer").fill("Ada")
    item.get_by_label("Reason").fill("The passage does not say this.")
    item.get_by_role("button", name="Reject").click()
    confirmation = page.get_by_role("status")
    expect(confirmation).to_contain_text("is now rejected")
    confirmation.get_by_role("link", name=record.statement).click()
    expect(page.locator("h1")).to_have_text(record.statement)
    expect(page.locator("section[aria-labelledby='attempts-h'] tbody tr").last).to_contain_text(
        "review:reject"
    )
