"""The curated public API: exactly what ``spanproof.__all__`` lists, each name importable."""

from __future__ import annotations

import importlib

import pytest

import spanproof

PUBLIC = [
    "Answer",
    "Claim",
    "ClaimVerdict",
    "ConfigurationError",
    "DecomposeError",
    "Engine",
    "EvidenceSpan",
    "InvalidInputError",
    "Outcome",
    "Policy",
    "ProviderError",
    "Report",
    "SpanRef",
    "SpanproofError",
    "Verdict",
    "Verifier",
    "__version__",
]


def test_all_is_pinned() -> None:
    assert sorted(spanproof.__all__) == PUBLIC
    assert len(set(spanproof.__all__)) == len(spanproof.__all__)


@pytest.mark.parametrize("name", PUBLIC)
def test_each_public_name_imports(name: str) -> None:
    module = importlib.import_module("spanproof")
    assert getattr(module, name) is not None
    namespace: dict[str, object] = {}
    exec(f"from spanproof import {name}", namespace)
    assert namespace[name] is getattr(spanproof, name)


def test_star_import_gives_exactly_all() -> None:
    namespace: dict[str, object] = {}
    exec("from spanproof import *", namespace)
    assert sorted(k for k in namespace if k != "__builtins__") == PUBLIC


def test_errors_share_one_root() -> None:
    for name in ("ConfigurationError", "DecomposeError", "InvalidInputError", "ProviderError"):
        assert issubclass(getattr(spanproof, name), spanproof.SpanproofError)


def test_version_is_a_string() -> None:
    assert isinstance(spanproof.__version__, str)
    assert spanproof.__version__
