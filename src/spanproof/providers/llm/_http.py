"""The one HTTP retry loop the chat adapters share.

Status 408, 409, 425, 429 and 5xx and transport errors (connect, read, timeout) are retryable:
they are retried with exponential backoff (``backoff``, twice that, ...) until ``max_attempts``
attempts in all, then raised as ``ProviderError(retryable=True)``. Any other status fails at once
with ``retryable=False``. A success whose body is not a JSON object is a non-retryable failure.
The api key is removed from every message, since some servers echo the key they rejected.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from spanproof.core.errors import ConfigurationError, ProviderError

_SNIPPET_CHARS = 200
_RETRYABLE_STATUSES = frozenset({408, 409, 425, 429})


def check_arguments(model: str, timeout: float, max_attempts: int, backoff: float) -> None:
    """Raise ``ConfigurationError`` for arguments that cannot work."""
    if not model.strip():
        raise ConfigurationError("model must be a non-empty model name")
    if timeout <= 0:
        raise ConfigurationError(f"timeout must be positive seconds, got {timeout}")
    if max_attempts < 1:
        raise ConfigurationError(f"max_attempts must be at least 1, got {max_attempts}")
    if backoff < 0:
        raise ConfigurationError(f"backoff must be zero or more seconds, got {backoff}")


def endpoint(base_url: str, path: str) -> str:
    """``{base_url}/v1/{path}`` for a base given with or without a trailing ``/v1``."""
    base = base_url.strip().rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise ConfigurationError(f"base_url must be an http(s) URL, got {base_url!r}")
    if base.endswith("/v1"):
        base = base[: -len("/v1")]
    return f"{base}/v1/{path}"


def is_retryable_status(status: int) -> bool:
    return status in _RETRYABLE_STATUSES or 500 <= status <= 599


class Redactor:
    """Removes a secret from text before it reaches a message."""

    def __init__(self, secret: str | None) -> None:
        self._secret = secret or None

    def __call__(self, text: str) -> str:
        return text.replace(self._secret, "[redacted]") if self._secret else text


def post_json(
    client: httpx.Client,
    url: str,
    payload: Mapping[str, Any],
    *,
    where: str,
    redact: Redactor,
    max_attempts: int,
    backoff: float,
    sleep: Callable[[float], None],
) -> dict[str, Any]:
    """POST ``payload`` to ``url`` with retries; the decoded JSON object of the reply.

    Raises:
        ProviderError: the call failed; ``retryable`` says whether a later call may succeed.
    """
    for attempt in range(1, max_attempts + 1):
        last_try = attempt == max_attempts
        tries = f"{attempt} attempt{'s' if attempt > 1 else ''}"
        try:
            response = client.post(url, json=payload)
        except httpx.TransportError as exc:
            if last_try:
                raise ProviderError(
                    f"{where}: {type(exc).__name__} after {tries}: {redact(str(exc))}",
                    retryable=True,
                ) from exc
        else:
            if response.is_success:
                return _json_object(response, where, redact)
            retryable = is_retryable_status(response.status_code)
            if last_try or not retryable:
                raise ProviderError(
                    f"{where} answered HTTP {response.status_code} after {tries}: "
                    f"{_snippet(response, redact)}",
                    retryable=retryable,
                )
        sleep(backoff * 2 ** (attempt - 1))
    raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover


def _json_object(response: httpx.Response, where: str, redact: Redactor) -> dict[str, Any]:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProviderError(
            f"{where} answered a body that is not JSON: {_snippet(response, redact)}",
            retryable=False,
        ) from exc
    if not isinstance(body, dict):
        raise ProviderError(f"{where} answered JSON that is not an object", retryable=False)
    return body


def _snippet(response: httpx.Response, redact: Redactor) -> str:
    # Redact before cutting, so a key that straddles the cut cannot leak in part.
    text = " ".join(redact(response.text).split())[:_SNIPPET_CHARS]
    return text or "(empty body)"


def malformed(where: str, what: str) -> ProviderError:
    """The error for a success reply that lacks an expected field."""
    return ProviderError(f"{where} answered an unexpected shape: {what}", retryable=False)


def token_count(usage: Any, key: str) -> int:
    """A non-negative integer token count from a usage object, 0 when absent or malformed."""
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0
