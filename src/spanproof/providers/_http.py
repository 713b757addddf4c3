"""The one HTTP layer the model adapters share: JSON POSTs with retries and key redaction.

Status 408, 409, 425, 429 and 5xx and transport errors (connect, read, timeout) are retryable:
the shared :class:`~spanproof.providers.retry.RetryPolicy` retries them with exponential backoff
(``backoff``, twice that, ...) until ``max_attempts`` attempts in all, then they are raised as
``ProviderError(retryable=True)``. Any other status fails at once with ``retryable=False``.
A success whose body is not a JSON object is a non-retryable failure. The api key is removed
from every message, since some servers echo the key they rejected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import httpx

from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.providers.http_client import (
    HttpClientOwner,
    Redactor,
    check_base_url,
    json_object,
)
from spanproof.providers.retry import RetryPolicy, is_retryable_status, tries

__all__ = [
    "JsonHttpAdapter",
    "Redactor",  # from http_client, where the connectors share it
    "api_root",
    "bearer",
    "check_arguments",
    "malformed",
    "post_json",
]

_SNIPPET_CHARS = 200
#: Besides the statuses every adapter retries: 409, which model APIs answer while overloaded.
_ALSO_RETRYABLE = frozenset({409})


def check_arguments(
    model: str, timeout: float, max_attempts: int, backoff: float, *, backoff_name: str = "backoff"
) -> None:
    """Raise ``ConfigurationError`` for arguments that cannot work."""
    if not model.strip():
        raise ConfigurationError(f"model must be a non-empty model name, got {model!r}")
    if timeout <= 0:
        raise ConfigurationError(f"timeout must be positive seconds, got {timeout}")
    if max_attempts < 1:
        raise ConfigurationError(f"max_attempts must be at least 1, got {max_attempts}")
    if backoff < 0:
        raise ConfigurationError(f"{backoff_name} must be zero or more seconds, got {backoff}")


def api_root(base_url: str) -> str:
    """``base_url`` without surrounding space, a trailing ``/`` or a trailing ``/v1``.

    Raises:
        ConfigurationError: it is not an http(s) URL with a host, or it carries credentials.
    """
    url = base_url.strip().rstrip("/").removesuffix("/v1")
    check_base_url(url, given=base_url, example="http://localhost:8000")
    return url


def bearer(api_key: str | None) -> dict[str, str]:
    """The ``Authorization: Bearer ...`` header for ``api_key``; none without a key."""
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def post_json(
    client: httpx.Client,
    url: str,
    payload: Mapping[str, Any],
    *,
    where: str,
    redact: Redactor,
    policy: RetryPolicy,
) -> dict[str, Any]:
    """POST ``payload`` to ``url``, retried as ``policy`` says; the reply's decoded JSON object.

    Raises:
        ProviderError: the call failed; ``retryable`` says whether a later call may succeed.
    """

    def attempt(n: int) -> dict[str, Any]:
        try:
            response = client.post(url, json=payload)
        except httpx.TransportError as exc:
            raise ProviderError(
                f"{where}: {type(exc).__name__} after {tries(n)}: {redact(str(exc))}",
                retryable=True,
            ) from exc
        if response.is_success:
            return json_object(
                response.content,
                where=where,
                error=ProviderError,
                snippet=lambda: _snippet(response, redact),
            )
        raise ProviderError(
            f"{where} answered HTTP {response.status_code} after {tries(n)}: "
            f"{_snippet(response, redact)}",
            retryable=is_retryable_status(response.status_code, also=_ALSO_RETRYABLE),
        )

    return policy.run(attempt)


def _snippet(response: httpx.Response, redact: Redactor) -> str:
    # Redact before cutting, so a key that straddles the cut cannot leak in part.
    text = " ".join(redact(response.text).split())[:_SNIPPET_CHARS]
    return text or "(empty body)"


def malformed(where: str, what: str) -> ProviderError:
    """The error for a success reply that lacks an expected field."""
    return ProviderError(f"{where} answered an unexpected shape: {what}", retryable=False)


class JsonHttpAdapter(HttpClientOwner):
    """Base of the HTTP model adapters: one ``httpx`` client that POSTs JSON to one endpoint.

    Checks the shared arguments, builds ``{base_url}/v1/{path}``, and owns the client:
    :meth:`close` (or leaving a ``with`` block) closes its connection pool. :meth:`_post` sends
    a payload through :func:`post_json`, so retries, errors and redaction are the same for all.

    Args:
        base_url: the API root, with or without a trailing ``/v1``.
        path: the endpoint below ``/v1/``.
        model: the remote model name.
        label: names the endpoint in messages (``"{label} endpoint {url} (model ...)"``).
        api_key: the secret to redact from every message (headers must carry it themselves).
        headers: sent with every request, besides ``Accept: application/json``.
        timeout, max_attempts, backoff, transport, sleep: as the adapters document them.
        backoff_name: what messages call ``backoff``.

    Raises:
        ConfigurationError: a bad ``base_url``, or an argument out of range.
    """

    def __init__(
        self,
        base_url: str,
        path: str,
        model: str,
        *,
        label: str,
        api_key: str | None,
        headers: Mapping[str, str],
        timeout: float,
        max_attempts: int,
        backoff: float,
        transport: httpx.BaseTransport | None,
        sleep: Callable[[float], None],
        backoff_name: str = "backoff",
    ) -> None:
        check_arguments(model, timeout, max_attempts, backoff, backoff_name=backoff_name)
        self._base_url = api_root(base_url)
        self._url = f"{self._base_url}/v1/{path}"
        self._model = model
        self._where = f"{label} endpoint {self._url} (model {model!r})"
        self._redact = Redactor(api_key)
        self._retry = RetryPolicy(max_attempts=max_attempts, backoff=backoff, sleep=sleep)
        self._client = httpx.Client(
            transport=transport,
            timeout=timeout,
            headers={"Accept": "application/json", **headers},
        )

    def _post(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """POST ``payload`` with retries; the reply's JSON object. Raises ``ProviderError``."""
        return post_json(
            self._client,
            self._url,
            payload,
            where=self._where,
            redact=self._redact,
            policy=self._retry,
        )
