"""The trace viewer in a real browser: Debian's Chromium, headless, driven by Playwright.

Skips (with the reason) where ``/usr/bin/chromium`` is missing, except under CI (``CI`` set),
where ``.ci/run`` installs it and a missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from browser_kit import require_browser

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from web_world import (  # noqa: E402
    CLAIMS,
    CLAIMS_EVIDENCE,
    WebFixture,
    claims_trace,
    contradicted_trace,
    expected_mark,
)


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


def test_the_answer_sits_beside_the_source_text_and_the_plan_shows_used_spans(
    web: WebFixture, base_url: str, page: Page
) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base_url}/traces/{web.trace.id}")
    answer, source = page.locator(".pane-answer"), page.locator(".pane-source")
    expect(page.locator("#source-empty")).to_be_visible()
    page.locator("ol.claims button.claim").first.click()
    expect(page.locator("#source-empty")).to_be_hidden()
    a, s = answer.bounding_box(), source.bounding_box()
    assert a and s and s["x"] >= a["x"] + a["width"] and abs(s["y"] - a["y"]) < 5  # two panes
    # one claim's source text at a time
    page.locator("ol.claims button.claim").nth(1).click()
    expect(page.locator(".pane-source .panel:visible")).to_have_count(1)
    expect(page.locator("#claim-panel-2")).to_be_visible()
    # only the plan spans the claims cite or were judged on, the rest behind "show all"
    used = {str(c["best_span"]["id"]) for c in web.trace.claims}
    used |= {str(m) for c in web.trace.claims for m in c.get("cited_markers") or ()}
    assert len(used) < len(web.trace.plan)
    first_table = page.locator("section[aria-labelledby='plan-h'] > table.plan tbody tr")
    expect(first_table).to_have_count(len(used))
    every = page.locator("details.all-plan table.plan tbody tr")
    expect(every.first).to_be_hidden()
    page.get_by_text(f"Show all {len(web.trace.plan)} spans").click()
    expect(every).to_have_count(len(web.trace.plan))
    expect(every.last).to_be_visible()
    # narrow screens: one column, the source text below the answer
    page.set_viewport_size({"width": 700, "height": 900})
    a, s = answer.bounding_box(), source.bounding_box()
    assert a and s and s["y"] >= a["y"] + a["height"] - 1


def test_contradicted_and_unsupported_differ_beyond_colour_and_closest_text_is_not_evidence(
    web: WebFixture, base_url: str, page: Page
) -> None:
    bad = web.store.append(contradicted_trace())
    verdicts = [c["verdict"] for c in bad.claims]
    assert verdicts == ["supported", "contradicted", "unsupported"]
    page.goto(f"{base_url}/traces/{bad.id}")
    buttons = page.locator("ol.claims button.claim")
    expect(buttons.nth(1).locator(".claim-label")).to_have_text(" (contradicted ⚠)")
    expect(buttons.nth(2).locator(".claim-label")).to_have_text(" (unsupported ✗)")
    style = "el => getComputedStyle(el).borderBottomStyle"
    assert buttons.nth(1).evaluate(style) != buttons.nth(2).evaluate(style)

    buttons.nth(0).click()
    supported = page.locator("#claim-panel-1")
    expect(supported.locator(".relation")).to_contain_text("Evidence")
    evidence_bg = supported.locator("mark").evaluate("el => getComputedStyle(el).backgroundColor")

    buttons.nth(2).click()
    unsupported = page.locator("#claim-panel-3")
    expect(unsupported.locator(".relation")).to_have_text(
        "Closest text — does not support the claim"
    )
    closest = unsupported.locator("mark")
    expect(closest).to_have_class("span-closest")
    background = closest.evaluate("el => getComputedStyle(el).backgroundColor")
    assert background != evidence_bg and background == "rgba(0, 0, 0, 0)"

    buttons.nth(1).click()
    contradicted = page.locator("#claim-panel-2")
    expect(contradicted.locator(".relation")).to_contain_text("Contradicting text")
    expect(contradicted.locator("mark")).to_have_class("span-contradicts")
    expect(contradicted).to_contain_text("Evidence S2")


def test_claims_sent_without_a_draft_are_the_delivered_answer_with_evidence_titles(
    web: WebFixture, base_url: str, page: Page
) -> None:
    sent = web.store.append(claims_trace())
    assert sent.draft == "" and sent.delivered is None
    page.goto(f"{base_url}/traces/{sent.id}")
    delivered = page.locator("section[aria-labelledby='answer-h'] div.answer")
    expect(delivered.locator("button.claim")).to_have_count(len(CLAIMS))
    for index, text in enumerate(CLAIMS):
        expect(delivered.locator("button.claim").nth(index)).to_contain_text(text)
    page.get_by_text(f"Show all {len(CLAIMS_EVIDENCE)} spans").click()
    plan = page.locator("details.all-plan table.plan")
    for item in CLAIMS_EVIDENCE:
        row = plan.locator(f"tr#plan-{item['id']}")
        expect(row).to_contain_text(item["id"])
        expect(row).to_contain_text(item["title"])
    delivered.locator("button.claim").first.click()
    panel = page.locator("#claim-panel-1")
    first = CLAIMS_EVIDENCE[0]
    expect(panel.locator(".evidence-name")).to_have_text(
        f"Evidence {first['id']}: {first['title']}"
    )


def test_a_bare_no_shows_the_proposition_it_denies_and_why_a_person_should_look(
    web: WebFixture, base_url: str, page: Page
) -> None:
    question = "Did sodium restriction to 1,500 mg per day change diastolic blood pressure?"
    trace = web.store.append(contradicted_trace("No, it did not [S2].", question))
    assert trace.claims[0]["negates"] and trace.claims[0]["verdict"] == "partial"
    page.goto(f"{base_url}/traces/{trace.id}")
    expect(page.locator("dl.meta").first).to_contain_text(question)
    button = page.locator("div.answer button.claim")
    expect(button).to_have_count(1)
    expect(button).to_contain_text("No, it did not [S2].")
    expect(button.locator(".claim-label")).to_have_text(" (partial ◐)")
    button.click()
    panel = page.locator("#claim-panel-1")
    expect(panel.locator(".panel-claim")).to_have_text(trace.claims[0]["text"])
    expect(panel.locator("dd.denies")).to_contain_text(trace.claims[0]["negates"])
    expect(panel.locator(".relation")).to_contain_text("the proposition the answer denies")


def test_a_list_items_bullet_stays_on_its_claims_line(
    web: WebFixture, base_url: str, page: Page
) -> None:
    long = (
        "- Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 "
        "weeks in a trial that enrolled adults with mild hypertension and followed them [S1].\n"
        "- Sodium restriction to 1,500 mg per day reduced diastolic blood pressure [S2]."
    )
    trace = web.store.append(contradicted_trace(long))
    page.set_viewport_size({"width": 900, "height": 900})
    page.goto(f"{base_url}/traces/{trace.id}")
    answer = page.locator("section[aria-labelledby='answer-h'] div.answer")
    tops = answer.evaluate(
        """el => {
            const bullet = [...el.querySelectorAll(":scope > span.md")].find(
                n => n.textContent === "-");
            const button = el.querySelector("button.claim");
            return [bullet.getBoundingClientRect().top, button.getBoundingClientRect().top];
        }"""
    )
    assert abs(tops[0] - tops[1]) < 6, tops  # the bullet is not left alone on a line above


def test_an_answers_markdown_is_dimmed_not_hidden(
    web: WebFixture, base_url: str, page: Page
) -> None:
    draft = (
        "## Walking\n\n"
        "- **Daily walking** lowered systolic blood pressure by 5 mmHg "
        "[S1](https://example.org/trial) after 12 weeks.\n"
        "- Sodium restriction raised diastolic blood pressure [S2]."
    )
    trace = web.store.append(contradicted_trace(draft))
    page.goto(f"{base_url}/traces/{trace.id}")
    answer = page.locator("section[aria-labelledby='answer-h'] div.answer")
    shown = answer.evaluate(
        """el => {
            const copy = el.cloneNode(true);
            copy.querySelectorAll(".claim-label").forEach(n => n.remove());
            return copy.textContent;
        }"""
    )
    assert shown == draft  # every character of the draft is on the page, in order
    styles = answer.evaluate(
        """el => {
            const of = s => [...el.querySelectorAll(s)].map(n => [n.textContent,
                getComputedStyle(n).color, getComputedStyle(n).fontWeight]);
            return {md: of("span.md"), heading: of("span.md-heading"),
                    text: getComputedStyle(el).color};
        }"""
    )
    dimmed = {text for text, *_ in styles["md"]}
    assert {"##", "-", "**", "](https://example.org/trial)"} <= dimmed
    assert all(color != styles["text"] for _, color, _ in styles["md"])
    assert [(text, weight) for text, _, weight in styles["heading"]] == [(" Walking", "700")]
    # a claim's box holds its words and its dimmed marks, the words still the draft's
    first = answer.locator("button.claim").first
    assert first.locator("span.md").first.text_content() == "**"
