"""What the browser tests share: Debian's Chromium, its flags, the skip rule, a live server."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi import FastAPI

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """``app`` served by a real uvicorn on loopback for the duration; yields its base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="off", ws="none"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
