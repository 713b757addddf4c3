"""Impact flags in a real browser: an expert looks at the sole evidence of an assessment on the
review page, the source is retracted, and the artifact and impact pages show the flags."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_kit import require_browser

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from web_world import SOURCE_ID, WebFixture  # noqa: E402

from spanproof.core.artifacts import Artifact  # noqa: E402
from spanproof.services import artifacts, impact  # noqa: E402
from spanproof.services.records import extract_records, verify_record  # noqa: E402


@pytest.fixture
def assessment(web: WebFixture) -> Artifact:
    """An assessment resting on one verified record of the walking study."""
    for record in extract_records(web.store, SOURCE_ID):
        if verify_record(web.store, record).outcome == "verified":
            made, _ = artifacts.create_assessment(web.store, "Does walking help?", [record.id])
            return made
    raise AssertionError("no record of the walking study verified")


@pytest.fixture
def base_url(web: WebFixture, assessment: Artifact) -> Iterator[str]:
    with serving(web.app) as url:
        yield url


def test_expert_look_then_retraction_flags(
    web: WebFixture, assessment: Artifact, base_url: str, page: Page
) -> None:
    page.goto(f"{base_url}/artifacts/{assessment.id}")
    expect(page.locator("main")).to_contain_text("requires_expert_review")
    # the sole evidence waits on the review page, naming the assessment
    page.goto(f"{base_url}/review")
    note = page.get_by_role("note")
    expect(note).to_contain_text(assessment.id)
    item = page.locator("article.review-item").filter(has=note)
    item.get_by_label("Reviewer").fill("Ada")
    item.get_by_label("Reason").fill("The sentence states it.")
    item.get_by_role("button", name="Approve").click()
    page.wait_for_url(f"{base_url}/review?decided=*")
    expect(page.get_by_role("status")).to_contain_text("is now verified")
    expect(page.get_by_role("note")).to_have_count(0)
    page.goto(f"{base_url}/artifacts/{assessment.id}")
    expect(page.locator("main")).to_contain_text("sufficient")
    expect(page.locator(".flag")).to_have_count(0)

    for walk_id in impact.retract(web.store, SOURCE_ID):
        impact.run_walk(web.store, walk_id)
    page.goto(f"{base_url}/artifacts")
    row = page.locator(f"#artifact-{assessment.id}")
    expect(row.locator(".flag")).to_have_text("flagged")
    row.get_by_role("link").click()
    expect(page.get_by_role("heading", name="Flagged")).to_be_visible()
    page.get_by_role("link", name=f"source:{SOURCE_ID}:v1").first.click()
    expect(page.get_by_role("textbox", name="Ref")).to_have_value(f"source:{SOURCE_ID}:v1")
    rows = page.locator("table.impact tbody tr")
    expect(rows.filter(has_text=assessment.ref)).to_have_count(1)
    expect(rows.filter(has_text=assessment.ref).locator(".flag")).to_have_text("flagged")


def test_a_record_page_says_in_words_that_its_source_was_retracted(
    web: WebFixture, assessment: Artifact, base_url: str, page: Page
) -> None:
    record_id = assessment_record(web, assessment)
    page.goto(f"{base_url}/records/{record_id}")
    expect(page.get_by_role("note")).to_have_count(0)
    expect(page.locator("main")).not_to_contain_text("Source status")
    impact.retract(web.store, SOURCE_ID)
    page.goto(f"{base_url}/records/{record_id}")
    meta = page.locator("dl.meta").first
    expect(meta).to_contain_text("Source status")
    expect(meta.locator(".source-status")).to_have_text("retracted")
    note = page.get_by_role("note")
    expect(note).to_contain_text(f"Its source {SOURCE_ID} is retracted")
    expect(note).to_contain_text("no eligible evidence")


def assessment_record(web: WebFixture, made: Artifact) -> str:
    """The record the assessment rests on."""
    (version,) = web.store.artifact_versions(made.id)
    (ref,) = version.depends_on
    return ref.removeprefix("record:")
