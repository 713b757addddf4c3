"""Shared fixtures: an isolated embedding cache and blocked real model calls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("spanproof.testing.store_contract")


@pytest.fixture(autouse=True)
def _isolated_settings(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Each test session gets its own embedding cache; no LLM is configured; no key leaks in."""
    cache = tmp_path_factory.getbasetemp() / "embedding-cache"
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", str(cache))
    for name in ("SPANPROOF_LLM__KIND", "SPANPROOF_LLM__API_KEY", "SPANPROOF_EMBEDDER__KIND"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(Path(__file__).parent)  # no stray spanproof.toml from the caller
    yield
