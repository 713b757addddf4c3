"""The web UI's pages through the ASGI app (no browser): status codes, escaping, labels, 404s."""

from __future__ import annotations

import html
from urllib.parse import quote

from fastapi.testclient import TestClient
from web_world import (
    CONTRADICTED_DRAFT,
    EVIL_ID,
    EVIL_TITLE,
    SOURCE_ID,
    WebFixture,
    contradicted_trace,
    expected_mark,
)

from spanproof.web.routes import LABELS


def test_home_redirects_to_the_trace_list(web: WebFixture) -> None:
    with TestClient(web.app) as client:
        response = client.get("/", follow_redirects=False)
        assert response.status_code == 307
        assert response.headers["location"] == "/traces"
        page = client.get("/traces")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert f'href="/traces/{web.trace.id}"' in page.text
    assert web.trace.kind in page.text
    assert '<html lang="en">' in page.text and "<main" in page.text and "<nav" in page.text


def test_trace_page_shows_every_claim_with_a_verdict_label(web: WebFixture) -> None:
    with TestClient(web.app) as client:
        page = client.get(f"/traces/{web.trace.id}")
    assert page.status_code == 200
    text = page.text
    for index, claim in enumerate(web.trace.claims, start=1):
        assert f'aria-controls="claim-panel-{index}"' in text
        assert f'id="claim-panel-{index}"' in text
        assert html.escape(LABELS[claim["verdict"]], quote=False) in text
    assert 'aria-expanded="false"' in text
    verdict = web.trace.claims[0]["verdict"]
    relation = {"supported": "supports", "partial": "partial"}.get(verdict, "closest")
    mark = html.escape(expected_mark(web.store, web.trace))
    assert f'<mark class="span-{relation}">{mark}</mark>' in text
    assert quote(SOURCE_ID, safe=":/@") in text
    assert "/static/viewer.js" in text


def test_trace_pages_say_the_outcome_in_words_and_verification_second(web: WebFixture) -> None:
    bad = web.store.append(contradicted_trace())
    with TestClient(web.app) as client:
        page = client.get(f"/traces/{bad.id}")
        listing = client.get("/traces")
    assert page.status_code == 200 and listing.status_code == 200
    headline = "✖ 1 claim contradicted, 1 unsupported, 1 supported"
    assert (
        '<p class="outcome outcome-contradicted" id="outcome" data-outcome="contradicted">'
        f'<span class="outcome-name">Outcome:</span> {headline}</p>'
    ) in page.text
    # "verified" is still said, after the outcome and without the green of success.
    assert page.text.index(headline) < page.text.index("<dt>Verification</dt><dd>verified ")
    assert 'class="ok"' not in page.text
    # Under flag the delivered text carries ⟦verdict⟧ marks; the page shows the same verdicts
    # on the interactive draft instead of a second copy.
    assert bad.delivered is not None and "⟦contradicted⟧" in bad.delivered
    assert "Draft (before the policy)" not in page.text
    assert (
        f'<td class="outcome outcome-contradicted" data-outcome="contradicted">{headline}</td>'
        in (listing.text)
    )
    good = web.trace.outcome
    assert good and f'data-outcome="{good}"' in listing.text


def test_a_draft_quoting_a_flag_mark_is_still_shown_once(web: WebFixture) -> None:
    # The draft writes a mark itself; under flag the delivered text is still the draft plus
    # marks, so the page shows the one interactive draft, not a second copy.
    draft = CONTRADICTED_DRAFT + " The checker writes ⟦unsupported⟧ after such claims."
    trace = web.store.append(contradicted_trace(draft))
    assert trace.delivered is not None and trace.delivered.count("⟦") > draft.count("⟦")
    with TestClient(web.app) as client:
        page = client.get(f"/traces/{trace.id}")
    assert page.status_code == 200
    assert "Draft (before the policy)" not in page.text


def test_titles_and_text_are_escaped(web: WebFixture) -> None:
    with TestClient(web.app) as client:
        page = client.get(f"/sources/{EVIL_ID}")
        hits = client.get("/search", params={"q": "<script>canopy"})
    assert page.status_code == 200
    assert EVIL_TITLE not in page.text
    assert "&lt;script&gt;" in page.text
    assert "&lt;b&gt;at noon&lt;/b&gt; &amp; quieter" in page.text
    assert hits.status_code == 200
    assert "<script>canopy" not in hits.text and "&lt;script&gt;canopy" in hits.text
    assert "<script>alert" not in hits.text


def test_source_page_lists_versions_and_sections(web: WebFixture) -> None:
    with TestClient(web.app) as client:
        page = client.get("/sources/" + quote(SOURCE_ID, safe=":/"))
        v1 = client.get("/sources/" + quote(SOURCE_ID, safe=":/"), params={"v": 1})
        missing = client.get("/sources/" + quote(SOURCE_ID, safe=":/"), params={"v": 9})
    assert page.status_code == 200 and v1.status_code == 200
    version = web.store.versions(SOURCE_ID)[0]
    assert version.sha256[:12] in page.text and version.state in page.text
    sections = [s for s in web.store.sections(SOURCE_ID, version.number) if s.text]
    assert sections
    for section in sections:
        assert f'id="section-{quote(section.key, safe="")}"' in page.text
        assert html.escape(section.text.splitlines()[0], quote=False) in page.text
    assert missing.status_code == 404


def test_search_links_to_source_sections(web: WebFixture) -> None:
    with TestClient(web.app) as client:
        empty = client.get("/search")
        page = client.get("/search", params={"q": "systolic blood pressure"})
    assert empty.status_code == 200 and '<label for="q">' in empty.text
    assert page.status_code == 200
    assert 'href="/sources/' + quote(SOURCE_ID, safe=":/@") + "?v=1#section-" in page.text


def test_unknown_ids_give_an_html_404(web: WebFixture) -> None:
    with TestClient(web.app) as client:
        for path in ("/traces/tr_nope", "/sources/file:nope/x.md", "/static/routes.py"):
            response = client.get(path)
            assert response.status_code == 404, path
            assert response.headers["content-type"].startswith("text/html")
        css = client.get("/static/spanproof.css")
    assert "Not found" in response.text
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


def test_lists_answer_and_escape_what_they_show(web: WebFixture) -> None:
    with TestClient(web.app) as client:
        sources = client.get("/sources")
        slash = client.get("/sources/")
        records = client.get("/records", params={"status": "verified"})
        traces = client.get("/traces", params={"q": "<script>", "limit": 5})
        bad = client.get("/traces", params={"limit": 0})
        unknown = client.get("/records", params={"source": "file:nope.md"})
        bogus = client.get("/records", params={"status": "bogus"})
    assert sources.status_code == 200 and slash.status_code == 200
    assert EVIL_TITLE not in sources.text and "&lt;script&gt;alert" in sources.text
    assert "Showing 1–2 of 2 sources." in sources.text
    assert records.status_code == 200 and "No records." in records.text
    assert unknown.status_code == 200 and "no source &#39;file:nope.md&#39;" in unknown.text
    assert bogus.status_code == 200 and "unknown status &#39;bogus&#39;" in bogus.text
    assert traces.status_code == 200 and "<script>" not in traces.text.split("<main", 1)[1]
    # a page answers its errors as a page (the API's JSON error shape is for /v1)
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("text/html")
    assert "limit: Input should be greater than or equal to 1" in bad.text
