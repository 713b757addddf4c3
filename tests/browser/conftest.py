"""Fixtures of the web UI tests (the world itself is built in ``web_world``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_world import WebFixture, web_world


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebFixture]:
    with web_world(tmp_path) as world:
        yield world
