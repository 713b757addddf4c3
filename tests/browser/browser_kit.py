"""What the browser tests share: Debian's Chromium, its flags, the skip rule, a live server, the
watch for Content-Security-Policy violations."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

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


#: Reports every ``securitypolicyviolation`` event of a document to the console (run before the
#: page's own scripts, outside its CSP, in every frame the page loads).
_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  const blocked = e.blockedURI || "inline";
  const where = `${e.sourceFile || e.documentURI}:${e.lineNumber}`;
  console.error(`securitypolicyviolation: ${e.effectiveDirective} blocked ${blocked} at ${where}`);
});
"""


def watch_csp(page: Any) -> list[str]:
    """The list, filled as ``page`` runs, of what its Content-Security-Policy blocked: each
    ``securitypolicyviolation`` event, and each console message of Chromium's about a
    Content Security Policy."""
    violations: list[str] = []

    def on_console(message: Any) -> None:
        text = str(message.text)
        if text.startswith("securitypolicyviolation:") or "Content Security Policy" in text:
            violations.append(text)

    page.add_init_script(_REPORT_VIOLATIONS)
    page.on("console", on_console)
    return violations
