"""The one exception tree of spanproof.

::

    SpanproofError
    ├── ConfigurationError      caller mistake: a setting or argument is wrong (says how to fix it)
    ├── InvalidInputError       caller mistake: input data is malformed (file, JSON line, span)
    ├── DecomposeError          the decomposer gave no valid claims after its attempts
    └── RuntimeFailure          something outside the caller failed; carries ``retryable``
        ├── ProviderError       an embedding or chat model call failed
        ├── SourceError         a source could not be fetched or read
        └── StoreError          a storage backend failed

Retry policies read only ``retryable``; they never match on messages.
"""

from __future__ import annotations

import re


class SpanproofError(Exception):
    """Root of every error spanproof raises on purpose."""


class ConfigurationError(SpanproofError):
    """A setting or argument is wrong; the message says how to fix it."""


class InvalidInputError(SpanproofError):
    """Input data is malformed; the message names where (file, line, field)."""


class DecomposeError(SpanproofError):
    """The decomposer produced no valid claim list after all its attempts."""

    def __init__(self, message: str, attempts: int = 0) -> None:
        super().__init__(message)
        self.attempts = attempts


class RuntimeFailure(SpanproofError):
    """A failure outside the caller's control.

    Attributes:
        retryable: whether repeating the same call may succeed.
    """

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable


class ProviderError(RuntimeFailure):
    """An embedding or chat model call failed (network, HTTP status, bad payload)."""


class SourceError(RuntimeFailure):
    """A source could not be fetched or read."""


class StoreError(RuntimeFailure):
    """A storage backend failed."""


def check_choice(value: str, allowed: tuple[str, ...], what: str) -> None:
    """Raise :class:`InvalidInputError` naming the choices unless ``value`` is one of them."""
    if value not in allowed:
        raise InvalidInputError(f"{what} must be one of {', '.join(allowed)}; got {value!r}")


#: A UTF-16 surrogate code point: in a Python string always a lone one (JSON's ``"\\ud800"``
#: escape decodes to it), which is no character and cannot be encoded as UTF-8.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text: str, what: str) -> None:
    """Raise :class:`InvalidInputError` when ``text`` holds a lone surrogate, saying where."""
    found = LONE_SURROGATE.search(text)
    if found is not None:
        raise InvalidInputError(
            f"{what} holds a lone surrogate U+{ord(found.group()):04X} at character "
            f"{found.start()} (a JSON escape \\ud800-\\udfff without its pair?): not text"
        )
