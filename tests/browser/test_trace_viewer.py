"""The trace viewer in a real browser: Debian's Chromium, headless, driven by Playwright.

Skips (with the reason) where ``/usr/bin/chromium`` is missing, except under CI (``CI`` set),
where ``.ci/run`` installs it and a missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from browser_kit import require_browser, serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from web_world import WebFixture, contradicted_trace, expected_mark  # noqa: E402


@pytest.fixture
def base_url(web: WebFixture) -> Iterator[str]:
    with serving(web.app) as url:
        yield url


def test_clicking_a_claim_highlights_the_exact_source_characters(
    web: WebFixture, base_url: str, page: Page
) -> None:
    expected = expected_mark(web.store, web.trace)
    assert expected.strip()
    page.goto(f"{base_url}/traces/{web.trace.id}")
    expect(page).to_have_title(f"Trace {web.trace.id} · spanproof")
    first = page.locator('button[aria-controls="claim-panel-1"]').first
    panel = page.locator("#claim-panel-1")
    expect(panel).to_be_hidden()
    expect(first).to_have_attribute("aria-expanded", "false")

    first.click()

    expect(panel).to_be_visible()
    expect(first).to_have_attribute("aria-expanded", "true")
    mark = panel.locator("mark")
    expect(mark).to_have_count(1)
    assert mark.text_content() == expected
    verdict = web.trace.claims[0]["verdict"]
    expect(panel.locator(f".verdict-{verdict}").first).to_be_visible()
    link = panel.locator('a[href^="/sources/"]')
    expect(link).to_have_count(1)
    shot = os.environ.get("SPANPROOF_WEB_SCREENSHOT")
    if shot:
        panel.scroll_into_view_if_needed()
        page.screenshot(path=shot, full_page=True)

    link.click()
    entry = next(e for e in web.trace.plan if e["id"] == web.trace.claims[0]["best_span"]["id"])
    expect(page.locator("h1")).to_have_text(entry["title"] or entry["source_id"])


def test_the_outcome_is_the_first_thing_said_in_words_not_colour_alone(
    web: WebFixture, base_url: str, page: Page
) -> None:
    bad = web.store.append(contradicted_trace())
    page.goto(f"{base_url}/traces/{bad.id}")
    outcome = page.locator("#outcome")
    expect(outcome).to_be_visible()
    expect(outcome).to_have_text("Outcome: ✖ 1 claim contradicted, 1 unsupported, 1 supported")
    verification = page.locator("dt:text-is('Verification') + dd")
    expect(verification).to_contain_text("verified")
    first_claim = page.locator("div.answer button.claim").first
    outcome_box, verification_box = outcome.bounding_box(), verification.bounding_box()
    claim_box = first_claim.bounding_box()
    assert outcome_box and verification_box and claim_box
    assert outcome_box["y"] < verification_box["y"] < claim_box["y"]  # above everything else
    # Verification is said in the body text colour: no green "verified" above contradictions.
    colour = "el => getComputedStyle(el).color"
    assert verification.evaluate(colour) == page.locator("main").evaluate(colour)
    page.goto(f"{base_url}/traces")
    cell = page.locator(f'tr:has(a[href="/traces/{bad.id}"]) td.outcome')
    expect(cell).to_have_text("✖ 1 claim contradicted, 1 unsupported, 1 supported")


def test_claims_open_and_close_from_the_keyboard(
    web: WebFixture, base_url: str, page: Page
) -> None:
    page.goto(f"{base_url}/traces/{web.trace.id}")
    last = len(web.trace.claims)
    button = page.locator(f'ol.claims button[aria-controls="claim-panel-{last}"]')
    panel = page.locator(f"#claim-panel-{last}")
    button.focus()
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(panel).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    assert panel.locator("mark").text_content() == expected_mark(web.store, web.trace, last - 1)
    page.keyboard.press("Space")
    expect(panel).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
    # Tab moves through the claim buttons (they are focusable, in document order).
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('button.claim')"):
            break
    else:
        pytest.fail("no claim button is reachable with Tab")
