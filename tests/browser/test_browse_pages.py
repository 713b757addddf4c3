"""Browsing in a real browser: the traces, sources and records lists (filters, search, pages with
a total) and the links between sources, traces, records, artifacts and impact rows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from browser_kit import require_browser

from spanproof.testing.live_server import serving

pytestmark = pytest.mark.browser
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402
from web_world import (  # noqa: E402
    QUESTION,
    SOURCE_ID,
    WebFixture,
    claims_trace,
    contradicted_trace,
    corrupt_source,
    more_sources,
)

from spanproof.core.artifacts import Artifact  # noqa: E402
from spanproof.core.records import Record  # noqa: E402
from spanproof.services import artifacts  # noqa: E402
from spanproof.services.records import extract_records, verify_record  # noqa: E402

READABLE_TIME = re.compile(r"^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC$")


@pytest.fixture
def base_url(web: WebFixture) -> Iterator[str]:
    with serving(web.app) as url:
        yield url


def test_traces_list_filters_searches_and_pages_with_a_total(
    web: WebFixture, base_url: str, page: Page
) -> None:
    for _ in range(20):
        web.store.append(contradicted_trace())
    for _ in range(10):
        web.store.append(claims_trace())
    page.goto(f"{base_url}/traces")
    expect(page.get_by_role("link", name="Traces")).to_have_attribute("aria-current", "page")
    pager = page.locator(".pager .count").first
    expect(pager).to_have_text("Showing 1–25 of 31 traces.")
    rows = page.locator("table.list tbody tr")
    expect(rows).to_have_count(25)
    # the question or the draft's first words, never only an opaque id
    expect(rows.first).to_contain_text("Daily walking for 30 minutes lowered systolic")
    expect(rows.first.locator("td").nth(1)).to_have_text("verification")
    created = rows.first.locator("time")
    assert READABLE_TIME.match(created.inner_text()), created.inner_text()
    assert created.get_attribute("datetime")
    page.get_by_role("link", name="Next →").first.click()
    expect(pager).to_have_text("Showing 26–31 of 31 traces.")
    expect(page.get_by_role("link", name=QUESTION)).to_be_visible()

    page.goto(f"{base_url}/traces")
    page.get_by_label("Outcome").select_option("contradicted")
    page.get_by_role("button", name="Apply").click()
    expect(pager).to_have_text("Showing 1–20 of 20 traces.")
    expect(page.locator("td.outcome[data-outcome='contradicted']")).to_have_count(20)
    page.get_by_label("Outcome").select_option("")
    page.get_by_label("Kind").select_option("generation")
    page.get_by_role("button", name="Apply").click()
    expect(pager).to_have_text("Showing 1–1 of 1 traces.")
    page.get_by_role("link", name=QUESTION).click()
    expect(page.locator("h1")).to_contain_text(web.trace.id)

    page.goto(f"{base_url}/traces")
    page.get_by_label("Text").fill("walking CURED diabetes")
    page.get_by_label("Text").press("Enter")
    expect(pager).to_have_text("Showing 1–10 of 10 traces.")  # the claims-only traces
    page.get_by_role("link", name="Clear").click()
    expect(pager).to_have_text("Showing 1–25 of 31 traces.")


def test_sources_list_has_status_versions_connector_search_filters_and_pages(
    web: WebFixture, base_url: str, page: Page
) -> None:
    more_sources(web.store, 55)
    broken = corrupt_source(web.store)
    page.goto(f"{base_url}/traces")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sources").click()
    expect(page).to_have_url(f"{base_url}/sources")
    expect(page.locator("h1")).to_have_text("Sources")
    pager = page.locator(".pager .count").first
    expect(pager).to_have_text("Showing 1–50 of 58 sources.")
    expect(page.locator("table.list tbody tr")).to_have_count(50)
    row = page.locator("table.list tbody tr", has_text=broken)
    expect(row.locator(".status")).to_have_text("quarantined")
    expect(row).to_contain_text("1 (current v1: quarantined)")
    expect(row.locator("td").nth(3)).to_have_text("file")
    page.get_by_role("link", name="Next →").first.click()
    expect(pager).to_have_text("Showing 51–58 of 58 sources.")

    page.get_by_label("Status").select_option("quarantined")
    page.get_by_role("button", name="Apply").click()
    expect(pager).to_have_text("Showing 1–1 of 1 sources.")
    page.get_by_label("Status").select_option("active")
    page.get_by_label("Connector").select_option("file")
    page.get_by_label("Text").fill("extra 07")
    page.get_by_role("button", name="Apply").click()
    expect(pager).to_have_text("Showing 1–1 of 1 sources.")
    page.get_by_role("link", name="Extra 07").click()
    expect(page.locator("h1")).to_have_text("Extra 07")
    page.get_by_role("link", name="← All sources").click()
    expect(page.locator("h1")).to_have_text("Sources")
    response = page.goto(f"{base_url}/sources/")
    assert response is not None and response.status == 200
    expect(page.locator("h1")).to_have_text("Sources")


@pytest.fixture
def built(web: WebFixture) -> tuple[list[Record], Artifact]:
    """The walking study's records (verified where the checks pass) and an assessment."""
    records = extract_records(web.store, SOURCE_ID)
    verified = [r for r in records if verify_record(web.store, r).outcome == "verified"]
    assert verified
    made, _ = artifacts.create_assessment(web.store, "Does walking help?", [verified[0].id])
    return records, made


def test_a_source_links_to_its_traces_records_and_artifacts_and_back(
    web: WebFixture, built: tuple[list[Record], Artifact], base_url: str, page: Page
) -> None:
    records, made = built
    page.goto(f"{base_url}/sources/" + quote(SOURCE_ID, safe=":/"))
    usage = page.locator(".usage")
    expect(usage.get_by_role("heading", name="Traces citing it (1)")).to_be_visible()
    heading = f"Records extracted from it ({len(records)})"
    expect(usage.get_by_role("heading", name=heading)).to_be_visible()
    expect(usage.get_by_role("link", name=made.ref)).to_be_visible()
    usage.get_by_role("link", name=QUESTION).click()
    expect(page.locator("h1")).to_contain_text(web.trace.id)
    page.go_back()

    depends = _depends(web, made)
    record = next(r for r in records if r.id in depends)
    usage.get_by_role("link", name=record.statement).click()
    expect(page).to_have_url(f"{base_url}/records/{record.id}")
    expect(page.locator("h1")).to_have_text(record.statement)
    expect(page.locator("dd .status")).to_have_text("verified")
    fields = page.locator("section[aria-labelledby='fields-h']")
    expect(fields).to_contain_text(record.fields.endpoint)
    marks = page.locator("section[aria-labelledby='quotations-h'] mark")
    assert marks.all_text_contents() == [q.text for q in record.quotations]
    attempts = page.locator("section[aria-labelledby='attempts-h'] tbody tr")
    expect(attempts).to_have_count(len(web.store.attempts(record.id)))
    expect(attempts.first).to_contain_text("verified")
    # the record's dependents link to their pages: the assessment, whose "depends on" links back
    page.locator("ul.dependents").get_by_role("link", name=made.ref).click()
    expect(page.locator("h1")).to_have_text(made.title)
    page.get_by_role("link", name=f"record:{record.id}", exact=True).click()
    expect(page).to_have_url(f"{base_url}/records/{record.id}")

    page.goto(f"{base_url}/impact?ref=" + quote(f"source:{SOURCE_ID}:v1"))
    rows = page.locator("table.impact tbody tr")
    expect(rows).to_have_count(len(records) + 1)
    rows.get_by_role("link", name=f"record:{record.id}").click()
    expect(page.locator("h1")).to_have_text(record.statement)
    page.go_back()
    rows.get_by_role("link", name=made.ref).click()
    expect(page.locator("h1")).to_have_text(made.title)


def _depends(web: WebFixture, made: Artifact) -> set[str]:
    versions = web.store.artifact_versions(made.id)
    return {ref.removeprefix("record:") for v in versions for ref in v.depends_on}


def test_records_list_filters_by_status_and_source(
    web: WebFixture, built: tuple[list[Record], Artifact], base_url: str, page: Page
) -> None:
    records, _ = built
    verified = [r for r in records if (web.store.get_record(r.id) or r).status == "verified"]
    page.goto(f"{base_url}/records")
    pager = page.locator(".pager .count").first
    expect(pager).to_have_text(f"Showing 1–{len(records)} of {len(records)} records.")
    page.get_by_label("Status").select_option("verified")
    page.get_by_role("button", name="Apply").click()
    expect(pager).to_have_text(f"Showing 1–{len(verified)} of {len(verified)} records.")
    expect(page.locator("table.list .status")).to_have_text(["verified"] * len(verified))
    page.get_by_label("Status").select_option("")
    page.get_by_label("Source id").fill("file:demo/evil.md")
    page.get_by_role("button", name="Apply").click()
    expect(pager).to_have_text("No records.")
    page.get_by_label("Source id").fill(SOURCE_ID)
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("table.list tbody tr")).to_have_count(len(records))
    page.locator("table.list tbody tr").first.get_by_role("link").first.click()
    first = min(records, key=lambda r: r.id)
    expect(page.locator("h1")).to_have_text(first.statement)
    response = page.goto(f"{base_url}/records/rec-nope")
    assert response is not None and response.status == 404


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/records?offset=-1", "offset: Input should be greater than or equal to 0"),
        ("/records?limit=abc", "limit: Input should be a valid integer"),
        ("/traces?limit=0", "limit: Input should be greater than or equal to 1"),
        ("/sources?offset=-3", "offset: Input should be greater than or equal to 0"),
    ],
)
def test_a_page_asked_a_bad_query_answers_an_html_error_page(
    base_url: str, page: Page, path: str, says: str
) -> None:
    response = page.goto(f"{base_url}{path}")
    assert response is not None and response.status == 422
    assert response.headers["content-type"].startswith("text/html")
    expect(page.locator("h1")).to_have_text("Invalid request")
    expect(page.get_by_role("alert")).to_contain_text(f"Error 422: {says}")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    page.get_by_role("link", name="Open this page without its query").click()
    expect(page).to_have_url(f"{base_url}{path.split('?', maxsplit=1)[0]}")
