"""What the browser tests share: Debian's Chromium, its flags, the skip rule, a live server."""

from __future__ import annotations

import os
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


def require_browser() -> None:
    """Skip the calling module (with the reason) where Chromium or Playwright is missing, except
    under CI (``CI`` set), where ``.ci/run`` installs Chromium and a missing browser must fail."""
    if os.environ.get("CI"):
        return
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing (apt-get install chromium); required when CI is set",
            allow_module_level=True,
        )
    pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")
