"""The trace viewer in a real browser: Debian's Chromium, headless, driven by Playwright.

Skips (with the reason) where ``/usr/bin/chromium`` is missing, except under CI (``CI`` set),
where ``.ci/run`` installs it and a missing browser is a failure.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
pytestmark = pytest.mark.browser

if not os.environ.get("CI"):
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing (apt-get install chromium); required when CI is set",
            allow_module_level=True,
        )
    pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402
from web_world import WebFixture, expected_mark  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def base_url(web: WebFixture) -> Iterator[str]:
    port = _free_port()
    config = uvicorn.Config(
        web.app, host="127.0.0.1", port=port, log_level="warning", lifespan="off", ws="none"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: .ci/run installs it (apt-get install chromium)"
    )
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


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
