"""The trace page shows whether the sources answered the question: an abstention's notice with
the closest sources, the relevance of an answer, and the verdict on a question that is a claim.

Traces come from the real engine (extractive generator, fake embedder, the coverage-only
relevance model) over the web world's store. Skips like ``test_trace_viewer`` without Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_kit import require_browser

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from web_world import (  # noqa: E402
    EVIL_TITLE,
    OFF_TOPIC,
    PROPOSITION,
    QUESTION,
    SOURCE_ID,
    WebFixture,
    asked,
    claims_trace,
)


@pytest.fixture
def base_url(web: WebFixture) -> Iterator[str]:
    with serving(web.app) as url:
        yield url


def test_an_abstention_says_the_sources_do_not_answer_and_links_the_closest_sources(
    web: WebFixture, base_url: str, page: Page
) -> None:
    trace = asked(web, OFF_TOPIC)
    assert trace.outcome == "abstained" and not trace.claims
    closest = trace.relevance["closest"]
    assert trace.relevance["answered"] is False and closest
    score = f"{trace.relevance['score']:.3f}"
    page.goto(f"{base_url}/traces/{trace.id}")

    notice = page.locator("#abstention")
    expect(notice).to_be_visible()
    expect(notice.locator(".abstention-notice")).to_have_text(
        "∅ The sources do not answer this question."
    )
    expect(notice).to_contain_text(f"Best relevance to the question {score}, below the floor")
    expect(page.locator("#relevance")).to_contain_text(f"{score} abstained")
    items = notice.locator("ol.closest > li")
    expect(items).to_have_count(len(closest))
    for index, entry in enumerate(closest):
        item = items.nth(index)
        expect(item.locator("blockquote")).to_have_text(entry["text"])
        expect(item.locator(".score")).to_have_text(f"{entry['relevance']:.3f}")
        expect(item.locator('a[href^="/sources/"]')).to_have_text(entry["title"])
    # Titles are text, not markup.
    expect(notice.get_by_text(EVIL_TITLE)).to_have_count(1)
    # No empty draft under an abstention.
    expect(page.locator("#draft-h")).to_have_count(0)

    walking = next(i for i, e in enumerate(closest) if e["source_id"] == SOURCE_ID)
    items.nth(walking).locator("a").click()
    expect(page.locator("h1")).to_have_text(closest[walking]["title"])


def test_an_answered_generation_shows_its_relevance_in_the_summary(
    web: WebFixture, base_url: str, page: Page
) -> None:
    trace = asked(web, QUESTION)
    assert trace.relevance["answered"] is True and trace.claims and not trace.proposition
    page.goto(f"{base_url}/traces/{trace.id}")
    relevance = page.locator("#relevance")
    expect(relevance).to_be_visible()
    expect(relevance).to_contain_text(f"{trace.relevance['score']:.3f} answered")
    expect(relevance).to_contain_text(trace.relevance["model"])
    expect(page.locator("dt:text-is('Relevance')")).to_have_count(1)
    expect(page.locator("#abstention")).to_have_count(0)
    expect(page.locator("#proposition")).to_have_count(0)
    expect(page.locator("div.answer button.claim")).to_have_count(len(trace.claims))


def test_a_proposition_leads_with_its_verdict_in_words_claim_and_best_span(
    web: WebFixture, base_url: str, page: Page
) -> None:
    trace = asked(web, PROPOSITION)
    proposition = trace.proposition
    assert proposition["verdict"] == "contradicted"
    best = proposition["best_span"]
    page.goto(f"{base_url}/traces/{trace.id}")

    block = page.locator("#proposition")
    expect(block).to_be_visible()
    verdict = block.locator("h2 .verdict")
    expect(verdict).to_have_text("contradicted ⚠")  # icon and word, the page's verdict label
    expect(verdict).to_have_class("verdict verdict-contradicted")
    expect(block.locator(".proposition-claim")).to_have_text(proposition["claim"])
    expect(block.locator(".relation")).to_contain_text("Contradicting text")
    expect(block.locator("blockquote.proposition-span")).to_have_text(best["text"])
    link = block.locator(".evidence-name a")
    expect(link).to_have_text(best["source"]["title"])
    expect(page.locator("#relevance")).to_contain_text("answered")
    # The outcome line speaks of the quoted evidence, not of the question's claim.
    expect(page.locator("#outcome .outcome-name")).to_have_text("Outcome of the quoted evidence:")
    # Above the answer.
    answer = page.locator("section[aria-labelledby='answer-h'] div.answer").first
    block_box, answer_box = block.bounding_box(), answer.bounding_box()
    assert block_box and answer_box
    assert block_box["y"] + block_box["height"] <= answer_box["y"]

    link.click()
    expect(page.locator("h1")).to_have_text(best["source"]["title"])


def test_the_traces_list_shows_a_propositions_verdict_beside_the_evidence_outcome(
    web: WebFixture, base_url: str, page: Page
) -> None:
    trace = asked(web, PROPOSITION)
    page.goto(f"{base_url}/traces")
    row = page.locator("tr", has=page.locator(f"a[href='/traces/{trace.id}']"))
    cell = row.locator("td.outcome")
    expect(cell).to_contain_text("The question:")
    expect(cell.locator(".verdict")).to_have_class("verdict verdict-contradicted")
    expect(cell).to_contain_text("quoted evidence:")


def test_traces_without_relevance_or_a_proposition_render_as_before(
    web: WebFixture, base_url: str, page: Page
) -> None:
    sent = web.store.append(claims_trace())
    for old in (web.trace, sent):
        assert not old.relevance and not old.proposition
        page.goto(f"{base_url}/traces/{old.id}")
        expect(page.locator("#outcome")).to_be_visible()
        expect(page.locator("div.answer button.claim").first).to_be_visible()
        for absent in ("#abstention", "#proposition", "#relevance", "dt:text-is('Relevance')"):
            expect(page.locator(absent)).to_have_count(0)
        expect(page.get_by_text("The sources do not answer this question")).to_have_count(0)
