"""Screenshots of the web UI's main pages at 1280 px for ``docs/ui.md``.

Run: ``.venv/bin/python tests/browser/ui_screenshots.py docs/ui`` (needs Chromium and
Playwright, as the browser tests do). It builds the browser tests' world (two sources, one
answered question) plus a contradicted verification, claims sent without a draft, extra sources,
records (verified and in review), an assessment and a workflow run, serves the full app on
loopback and photographs each page.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from browser_kit import ARGS, CHROMIUM
from web_world import (
    SOURCE_ID,
    WebFixture,
    claims_trace,
    contradicted_trace,
    corrupt_source,
    more_sources,
    web_world,
)

from spanproof.api.app import create_app
from spanproof.core.records import CheckResult, Record, Verdict
from spanproof.services import artifacts
from spanproof.services.records import extract_records, verify_record
from spanproof.testing.live_server import serving

WIDTH = 1280
#: The claim opened on each trace page (by position): one per kind of relation to its text.
CLAIM_SHOWN = {"trace": 0, "trace-contradicted": 1, "trace-claims": 1, "trace-markdown": 0}
#: A chat model's answer in Markdown, a "No" to a yes/no question first.
MARKDOWN_QUESTION = "Did sodium restriction change diastolic blood pressure?"
MARKDOWN_DRAFT = (
    "## Short answer\n\n"
    "**No.** Sodium restriction to 1,500 mg per day did not change it [2](https://example.org).\n\n"
    "## Details\n\n"
    "- **Walking**: daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg "
    "after 12 weeks [1].\n"
    "- It also cured diabetes in 40% of participants.\n"
)


def _ambiguous(record: Record, passages: Any) -> Verdict:
    names = ("negation", "scope", "species", "treatment", "endpoint")
    return Verdict("ambiguous", tuple(CheckResult(n, True, "", "q") for n in names), "fake")


def furnish(web: WebFixture, tmp: Path) -> dict[str, str]:
    """Add what the pages show; returns ids to visit."""
    bad = web.store.append(contradicted_trace())
    markdown = web.store.append(contradicted_trace(MARKDOWN_DRAFT, question=MARKDOWN_QUESTION))
    claims = web.store.append(claims_trace())
    more_sources(web.store, 6)
    corrupt_source(web.store)
    records = extract_records(web.store, SOURCE_ID)
    verified = [r for r in records[:2] if verify_record(web.store, r).outcome == "verified"]
    for record in records[2:4]:
        verify_record(web.store, record, checker=_ambiguous)
    made, _ = artifacts.create_assessment(web.store, "Does walking help?", [verified[0].id])
    corpus = tmp / "corpus"
    corpus.mkdir()
    for i in range(3):
        (corpus / f"note-{i}.md").write_text(f"# Note {i}\n\nWalking {i} km a day.\n")
    db = web.store.path
    cli = str(Path(sys.executable).parent / "spanproof")
    subprocess.run(
        [cli, "workflows", "ingest", "corpus", "--db", str(db), "--no-embed"],
        cwd=tmp,
        check=True,
        capture_output=True,
    )
    return {
        "bad": bad.id,
        "markdown": markdown.id,
        "claims": claims.id,
        "record": verified[0].id,
        "artifact": made.id,
    }


def shoot(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, web_world(Path(tmp)) as web:
        ids = furnish(web, Path(tmp))
        pages = {
            "traces": "/traces",
            "trace": f"/traces/{web.trace.id}",
            "trace-contradicted": f"/traces/{ids['bad']}",
            "trace-claims": f"/traces/{ids['claims']}",
            "trace-markdown": f"/traces/{ids['markdown']}",
            "sources": "/sources",
            "source": "/sources/" + SOURCE_ID.replace(" ", "%20"),
            "records": "/records",
            "record": f"/records/{ids['record']}",
            "search": "/search?q=walking+lowered+systolic+blood+pressure",
            "review": "/review",
            "artifact": f"/artifacts/{ids['artifact']}",
            "impact": "/impact?ref=" + f"source:{SOURCE_ID}:v1".replace(" ", "%20"),
            "workflows": "/workflows",
            "docs": "/docs",
        }
        shots = []
        with serving(create_app(web.state)) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
            context = browser.new_context(viewport={"width": WIDTH, "height": 900})
            page = context.new_page()
            for name, path in pages.items():
                page.goto(base + path)
                if name in CLAIM_SHOWN:
                    page.locator("ol.claims button.claim").nth(CLAIM_SHOWN[name]).click()
                if name == "docs":
                    page.locator(".opblock").first.wait_for()
                target = out / f"{name}.png"
                page.screenshot(path=str(target), full_page=name != "docs")
                shots.append(target)
            browser.close()
    return shots


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/ui")):
        print(shot)
