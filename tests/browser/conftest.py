"""Fixtures of the web UI tests (the world itself is built in ``web_world``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import ARGS, CHROMIUM, watch_csp
from web_world import WebFixture, web_world


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebFixture]:
    with web_world(tmp_path) as world:
        yield world


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium through Playwright (imported here: pages tests need neither)."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: .ci/run installs it (apt-get install chromium)"
    )
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; any uncaught page error, or anything the page's Content-Security-Policy
    blocked (:func:`watch_csp`), fails the test."""
    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    violations = watch_csp(page)
    yield page
    context.close()
    assert not errors, errors
    assert not violations, violations
