"""The polite HTTP client every literature connector uses: identify, pace, retry, stay put.

* **Identify**: a ``User-Agent`` naming spanproof and, when given, the ``mailto`` address (what
  Crossref's polite pool and NCBI ask for); the address can also travel as a query parameter.
* **Pace**: at most ``rate_per_s`` requests per second (a minimum interval between request
  starts, retries and redirects included), measured on an injectable clock.
* **Retry**: status 408, 425, 429 and 5xx, timeouts and transport errors are retried up to
  ``max_attempts`` attempts in all, waiting what ``Retry-After`` asks, or else ``backoff``, twice
  that, and so on. A ``Retry-After`` longer than ``max_retry_after`` fails at once (retryable),
  rather than calling back early. The policy is the one the model adapters share
  (:class:`~spanproof.providers.retry.RetryPolicy`); pacing stays here.
* **Stay put**: requests go only to paths under ``base_url``. Redirects are followed only when
  they stay there; one to another host or path is refused.
* **Fail clearly**: every failure is a :class:`~spanproof.core.errors.SourceError` whose
  ``retryable`` says whether a later call may succeed, whose message names what was asked for,
  and from which the api key is removed (some services echo the key they rejected).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime
from importlib import metadata
from typing import Any
from urllib.parse import unquote

import httpx

from spanproof.core.errors import ConfigurationError, InvalidInputError, SourceError
from spanproof.providers.http_client import (
    HttpClientOwner,
    Redactor,
    check_base_url,
    json_object,
)
from spanproof.providers.retry import RetryAfter, RetryPolicy, is_retryable_status, tries

__all__ = ["Params", "PoliteClient"]

#: Query parameters: a value of ``None`` leaves the parameter out.
Params = Mapping[str, str | int | None]

_SECRET_PARAM = re.compile(r"((?:api_key|apikey|key|token)=)[^&\s\"']+", re.IGNORECASE)


class _RedactSecrets(logging.Filter):
    """httpx logs every request URL at INFO; NCBI takes its key as ``api_key=``. This filter
    masks secret query parameters before any handler sees the line."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = _SECRET_PARAM.sub(r"\1***", message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


logging.getLogger("httpx").addFilter(_RedactSecrets())

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_MAX_REDIRECTS = 5
_SNIPPET_BYTES = 2048
_SNIPPET_CHARS = 200
_DEFAULT_MAX_BYTES = 64 * 1024 * 1024


def _package_version() -> str:
    try:
        return metadata.version("spanproof")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


class PoliteClient(HttpClientOwner):
    """GET requests to one service, politely (see the module docstring).

    Args:
        base_url: the service root, e.g. ``https://api.crossref.org``; every request path is
            below it.
        label: names the service in messages (``"Crossref"``).
        mailto: a contact address for the ``User-Agent`` (and ``mailto_param``).
        mailto_param: the query parameter that also carries ``mailto`` (``mailto``, ``email``).
        api_key: a secret sent as the query parameter ``api_key_param``; never in messages.
        api_key_param: the query parameter for ``api_key`` (required with a key).
        rate_per_s: the most requests started per second (``math.inf``: no pacing).
        timeout: seconds for each connect, read and write.
        max_attempts: attempts in all for a retryable failure (1 = no retry).
        backoff: seconds before the first retry without ``Retry-After``; doubled each time.
        max_retry_after: the longest ``Retry-After`` (seconds) waited for.
        max_bytes: the largest body accepted.
        transport: an ``httpx`` transport (tests); the default opens real connections.
        sleep, clock: waiting and the monotonic clock; tests inject fakes so nothing waits.

    Raises:
        ConfigurationError: a bad ``base_url``, ``mailto`` or an argument out of range.
    """

    def __init__(
        self,
        base_url: str,
        *,
        label: str = "source",
        mailto: str | None = None,
        mailto_param: str | None = None,
        api_key: str | None = None,
        api_key_param: str | None = None,
        rate_per_s: float = 1.0,
        timeout: float = 30.0,
        max_attempts: int = 4,
        backoff: float = 0.5,
        max_retry_after: float = 120.0,
        max_bytes: int = _DEFAULT_MAX_BYTES,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        _check_numbers(rate_per_s, timeout, max_bytes)
        self._retry = RetryPolicy(
            max_attempts=max_attempts, backoff=backoff, max_retry_after=max_retry_after, sleep=sleep
        )
        self._base = _base_url(base_url)
        self._base_path = self._base.path.rstrip("/")
        self._label = label
        self._fixed_params = _fixed_params(mailto, mailto_param, api_key, api_key_param)
        self._redact = Redactor(api_key)
        self._interval = 1.0 / rate_per_s
        self._max_bytes = max_bytes
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()
        self._next_start = float("-inf")
        self.user_agent = _user_agent(mailto)
        self._client = httpx.Client(
            transport=transport,
            timeout=timeout,
            follow_redirects=False,  # followed by hand, and only when they stay under base_url
            headers={"User-Agent": self.user_agent},
        )

    @property
    def base_url(self) -> str:
        """The service root every request stays under."""
        return str(self._base)

    def get(
        self, path: str, params: Params | None = None, *, what: str, accept: str = "*/*"
    ) -> bytes:
        """GET ``path`` (below ``base_url``) with retries; the body of the successful reply.

        Args:
            path: the path below ``base_url``, ids already percent-encoded.
            params: query parameters (the mailto and api key parameters are added).
            what: names what is fetched, for messages (``"work 10.5555/12345678"``).
            accept: the ``Accept`` header.

        Raises:
            InvalidInputError: ``path`` would leave ``base_url``.
            SourceError: the request failed; ``retryable`` says whether a later call may succeed.
        """
        url = self._url_for(path)
        query = {k: str(v) for k, v in (params or {}).items() if v is not None}
        query.update(self._fixed_params)
        where = f"{self._label} {what} ({url.path})"
        return self._retry.run(lambda n: self._attempt(url, query, accept, where, n))

    def get_json(self, path: str, params: Params | None = None, *, what: str) -> dict[str, Any]:
        """:meth:`get` a JSON object.

        Raises:
            SourceError: as :meth:`get`, or the body is not a JSON object (not retryable).
        """
        body = self.get(path, params, what=what, accept="application/json")
        return json_object(
            body,
            where=f"{self._label} {what}",
            error=SourceError,
            snippet=lambda: self._snippet(body),
        )

    def malformed(self, what: str, detail: str) -> SourceError:
        """The error for a reply that lacks what the service documents (not retryable)."""
        return SourceError(
            f"{self._label} {what}: unexpected reply shape: {self._redact(detail)}",
            retryable=False,
        )

    def not_found(self, what: str) -> SourceError:
        """The error for a successful reply that holds no record (not retryable)."""
        return SourceError(f"{self._label} has no {what}", retryable=False)

    # -- internals ---------------------------------------------------------------------------

    def _url_for(self, path: str) -> httpx.URL:
        relative = path if path.startswith("/") else f"/{path}"
        segments = [unquote(segment) for segment in relative.split("/")]
        if any(s in (".", "..") or "\\" in s for s in segments) or any(c in path for c in "?#"):
            raise InvalidInputError(f"request path {path!r} would leave {self._label}'s base URL")
        url = httpx.URL(f"{str(self._base).rstrip('/')}{relative}")
        if not self._owns(url):  # pragma: no cover - the checks above already refuse
            raise InvalidInputError(f"request path {path!r} would leave {self._label}'s base URL")
        return url

    def _owns(self, url: httpx.URL) -> bool:
        same_origin = (url.scheme, url.host, url.port) == (
            self._base.scheme,
            self._base.host,
            self._base.port,
        )
        return same_origin and (
            url.path == self._base_path or url.path.startswith(f"{self._base_path}/")
        )

    def _pace(self) -> None:
        """Wait until ``1 / rate_per_s`` seconds have passed since the last request began."""
        with self._lock:
            now = self._clock()
            wait = self._next_start - now
            if wait > 0:
                self._sleep(wait)
                now += wait
            self._next_start = now + self._interval

    def _send(
        self, url: httpx.URL, query: dict[str, str], accept: str, where: str
    ) -> tuple[httpx.Response, bytes]:
        """One attempt: the final response (redirects under ``base_url`` followed) and its body.

        The body is read whole for a success and in part (for the message) otherwise.
        """
        params: dict[str, str] | None = query
        for _hop in range(_MAX_REDIRECTS + 1):
            self._pace()
            request = self._client.build_request("GET", url, params=params)
            request.headers["Accept"] = accept
            response = self._client.send(request, stream=True)
            try:
                location = response.headers.get("location")
                if response.status_code in _REDIRECT_STATUSES and location:
                    url, params = self._redirect_target(response.url, location, where), None
                    continue
                limit = self._max_bytes if response.is_success else _SNIPPET_BYTES
                return response, self._read(response, limit, where)
            finally:
                response.close()
        raise SourceError(f"{where}: more than {_MAX_REDIRECTS} redirects", retryable=False)

    def _redirect_target(self, current: httpx.URL, location: str, where: str) -> httpx.URL:
        try:
            target = current.join(location)
        except httpx.InvalidURL as exc:
            raise SourceError(f"{where}: a redirect to an invalid URL", retryable=False) from exc
        if not self._owns(target):
            raise SourceError(
                f"{where}: refused a redirect to {target.scheme}://{target.host}"
                f"{self._redact(target.path)}, outside {self._base}",
                retryable=False,
            )
        return target

    def _read(self, response: httpx.Response, limit: int, where: str) -> bytes:
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                if response.is_success:
                    raise SourceError(
                        f"{where}: the reply is larger than {limit} bytes", retryable=False
                    )
                break  # an error body only feeds the message
        return b"".join(chunks)[: max(limit, 0)]

    def _attempt(
        self, url: httpx.URL, query: dict[str, str], accept: str, where: str, n: int
    ) -> bytes:
        """Attempt ``n``: the body of a successful reply, else the failure for the policy."""
        try:
            response, body = self._send(url, query, accept, where)
        except httpx.TransportError as exc:  # timeouts, refused connections, broken replies
            raise SourceError(
                f"{where}: {type(exc).__name__} after {tries(n)}: {self._redact(str(exc))}",
                retryable=True,
            ) from exc
        except httpx.HTTPError as exc:  # e.g. a body that does not decode as its encoding says
            raise SourceError(
                f"{where}: {type(exc).__name__}: {self._redact(str(exc))}", retryable=False
            ) from exc
        if response.is_success:
            return body
        status = response.status_code
        failure = SourceError(
            f"{where}: HTTP {status} after {tries(n)}: {self._snippet(body)}",
            retryable=is_retryable_status(status),
        )
        retry_after = _retry_after(response.headers.get("retry-after"))
        if failure.retryable and retry_after is not None:
            raise RetryAfter(failure, retry_after)
        raise failure

    def _snippet(self, body: bytes) -> str:
        # Redact before cutting, so a key that straddles the cut cannot leak in part.
        text = " ".join(self._redact(body.decode("utf-8", "replace")).split())
        return text[:_SNIPPET_CHARS] or "(empty body)"


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date); None if absent."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    seconds: float = when.timestamp() - time.time()
    return max(0.0, seconds)


def _check_numbers(rate_per_s: float, timeout: float, max_bytes: int) -> None:
    if not rate_per_s > 0:
        raise ConfigurationError(f"rate_per_s must be positive, got {rate_per_s}")
    if not timeout > 0:
        raise ConfigurationError(f"timeout must be positive seconds, got {timeout}")
    if max_bytes < 1:
        raise ConfigurationError(f"max_bytes must be at least 1, got {max_bytes}")


def _base_url(base_url: str) -> httpx.URL:
    url = check_base_url(base_url.strip(), given=base_url, example="https://api.crossref.org")
    if url.query or url.fragment:
        raise ConfigurationError(f"base_url must not carry a query or fragment, got {base_url!r}")
    return url


def _fixed_params(
    mailto: str | None, mailto_param: str | None, api_key: str | None, api_key_param: str | None
) -> dict[str, str]:
    if mailto is not None and (
        "@" not in mailto or any(c.isspace() or c in "<>()" for c in mailto)
    ):
        raise ConfigurationError(
            f"mailto must be an e-mail address such as a@b.org, got {mailto!r}"
        )
    if api_key and not api_key_param:
        raise ConfigurationError("api_key needs api_key_param: the query parameter that carries it")
    params: dict[str, str] = {}
    if mailto and mailto_param:
        params[mailto_param] = mailto
    if api_key and api_key_param:
        params[api_key_param] = api_key
    return params


def _user_agent(mailto: str | None) -> str:
    """``spanproof/<version> (mailto:<address>)``, the form Crossref's polite pool reads."""
    agent = f"spanproof/{_package_version()}"
    return f"{agent} (mailto:{mailto})" if mailto else agent


class ConnectorClient(HttpClientOwner):
    """Base of the connector clients: owns a :class:`PoliteClient` and closes it."""

    _http: PoliteClient

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()
