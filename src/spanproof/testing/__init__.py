"""Public test doubles and helpers for spanproof's own tests and for its users' tests.

Owns: fakes that implement the same ports as the real adapters, and loopback test servers.
May import: ``spanproof.core``, ``spanproof.text``, ``spanproof.verify``, the standard library.
Must not: call a real model or reach the network beyond loopback.
"""

from typing import Any

__all__ = ["assert_grounded"]


def __getattr__(name: str) -> Any:
    """``spanproof.testing.assert_grounded`` (:mod:`spanproof.testing.grounding`), loaded on first
    use: it builds a verifier, which the fakes here never need."""
    if name == "assert_grounded":
        from spanproof.testing.grounding import assert_grounded

        return assert_grounded
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
