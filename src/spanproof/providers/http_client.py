"""What every HTTP adapter shares besides its retry policy (:mod:`spanproof.providers.retry`).

A checked base URL (http or https, a host, no credentials), secrets kept out of messages, and
the lifetime of the one ``httpx`` client an adapter owns. Used by the model adapters
(``providers/_http.py``) and the literature connectors (``ingest/clients/_polite.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import httpx

from spanproof.core.errors import ConfigurationError, RuntimeFailure
from spanproof.providers.closing import ClosesOnExit

__all__ = ["HttpClientOwner", "Redactor", "check_base_url", "json_object"]


def check_base_url(url: str, *, given: str, example: str) -> httpx.URL:
    """``url`` parsed, or a ``ConfigurationError`` that quotes ``given`` and shows ``example``.

    Refused: what does not parse, a scheme other than http(s), no host, and credentials (they
    would end up in logs; the adapters take ``api_key`` instead).
    """
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise ConfigurationError(f"base_url {given!r} is not a URL: {exc}") from exc
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigurationError(
            f"base_url must be an http(s) URL such as {example}, got {given!r}"
        )
    if parsed.userinfo:
        raise ConfigurationError("base_url must not carry credentials; pass api_key instead")
    return parsed


def json_object(
    body: bytes, *, where: str, error: type[RuntimeFailure], snippet: Callable[[], str]
) -> dict[str, Any]:
    """A successful reply's ``body`` decoded as a JSON object.

    Raises:
        RuntimeFailure: ``error`` (not retryable) naming ``where``: the body is not JSON (with
            ``snippet()`` of it) or not an object.
    """
    try:
        decoded = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        message = f"{where}: the reply is not JSON ({exc}): {snippet()}"
        raise error(message, retryable=False) from exc
    if not isinstance(decoded, dict):
        raise error(f"{where}: the reply is JSON but not an object", retryable=False)
    return decoded


class Redactor:
    """Removes a secret (as sent, and percent-encoded) from text bound for a message."""

    def __init__(self, secret: str | None) -> None:
        self._forms = (
            sorted({secret, quote(secret, safe="")}, key=len, reverse=True) if secret else []
        )

    def __call__(self, text: str) -> str:
        for form in self._forms:
            text = text.replace(form, "[redacted]")
        return text


class HttpClientOwner(ClosesOnExit):
    """Base of the adapters that own an ``httpx`` client: :meth:`close` (or leaving a ``with``
    block) closes its connection pool. Subclasses set ``_client`` (or override :meth:`close`)."""

    _client: httpx.Client

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()
