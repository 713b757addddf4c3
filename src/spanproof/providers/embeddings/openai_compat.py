"""An :class:`~spanproof.core.ports.Embedder` for any endpoint that speaks OpenAI's embeddings API.

One adapter serves OpenAI, vLLM, llama.cpp, Ollama, LiteLLM and the like: it posts
``{"model": ..., "input": [...]}`` to ``{base_url}/v1/embeddings`` and reads ``data[i].embedding``
in ``index`` order. All network I/O goes through an ``httpx`` transport, so tests can pass
``httpx.MockTransport`` or point it at a local server.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

import httpx
import numpy as np

from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.core.ports import FloatMatrix

__all__ = ["WINDOW_OVERLAP_WORDS", "WINDOW_WORDS", "OpenAICompatibleEmbedder"]

#: Whitespace-separated words per window: a conservative fit for 512-token remote models.
WINDOW_WORDS = 200
#: Words that consecutive windows share.
WINDOW_OVERLAP_WORDS = 50

_WORD = re.compile(r"\S+")
_SNIPPET_CHARS = 200


class OpenAICompatibleEmbedder:
    """Embeds texts with a remote model behind an OpenAI-compatible ``/v1/embeddings`` endpoint.

    ``model_id`` is ``openai-compat:{model}``. A remote model has no weights file to hash, so
    ``model_hash`` is the SHA-256 of ``"{base_url}|{model}"`` (``base_url`` without a trailing
    ``/`` or ``/v1``): it changes when either the server or the model name changes, but cannot
    see the server swapping weights under the same name.

    Status 408, 429 and 5xx and transport errors are retried with exponential backoff
    (``backoff_s``, then twice that, ...) up to ``max_attempts`` attempts in all. The api key is
    sent only in the ``Authorization`` header and never appears in an error message.

    Args:
        base_url: the server root, with or without a trailing ``/v1``.
        model: the model name the server expects.
        api_key: sent as ``Authorization: Bearer ...`` when given.
        timeout: seconds for each HTTP request.
        batch_size: texts per request.
        transport: an ``httpx`` transport (``httpx.MockTransport`` in tests); default: real HTTP.
        max_attempts: attempts per request, the first included.
        backoff_s: delay before the first retry; each next retry waits twice as long.
        sleep: how to wait between attempts (tests may pass a no-op).

    Raises:
        ConfigurationError: ``base_url`` is not an http(s) URL, or an argument is out of range.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30,
        batch_size: int = 64,
        transport: httpx.BaseTransport | None = None,
        *,
        max_attempts: int = 3,
        backoff_s: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        _check_arguments(model, timeout, batch_size, max_attempts, backoff_s)
        self._base_url = _normalise_base_url(base_url)
        self._model = model
        self._api_key = api_key or None
        self._batch_size = batch_size
        self._max_attempts = max_attempts
        self._backoff_s = backoff_s
        self._sleep = sleep
        headers = {"Accept": "application/json"}
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key}"
        self._client = httpx.Client(transport=transport, timeout=timeout, headers=headers)
        self._url = f"{self._base_url}/v1/embeddings"
        self._hash = hashlib.sha256(f"{self._base_url}|{model}".encode()).hexdigest()

    @property
    def model_id(self) -> str:
        """``openai-compat:{model}``."""
        return f"openai-compat:{self._model}"

    @property
    def model_hash(self) -> str:
        """SHA-256 (hex) of ``"{base_url}|{model}"``; see the class docstring for why."""
        return self._hash

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed ``texts`` in requests of ``batch_size``; returns L2-normalised float32 rows.

        Raises:
            ProviderError: the server failed or answered something unreadable; ``retryable``
                says whether a later call may succeed.
        """
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        batches = [
            self._embed_batch(list(texts[start : start + self._batch_size]))
            for start in range(0, len(texts), self._batch_size)
        ]
        if len({b.shape[1] for b in batches}) != 1:
            raise ProviderError(
                f"{self._where()} returned vectors of different lengths across requests",
                retryable=False,
            )
        return np.concatenate(batches).astype(np.float32, copy=False)

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        """Character ranges of windows of at most 200 whitespace-separated words.

        Consecutive windows share 50 words; the first starts at 0 and the last ends at
        ``len(text)``, so together they cover ``text``. A text of at most 200 words gives
        ``[(0, len(text))]``.
        """
        words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
        if len(words) <= WINDOW_WORDS:
            return [(0, len(text))]
        step = WINDOW_WORDS - WINDOW_OVERLAP_WORDS
        ranges: list[tuple[int, int]] = []
        for first in range(0, len(words), step):
            last = min(first + WINDOW_WORDS, len(words)) - 1
            start = 0 if first == 0 else words[first][0]
            end = len(text) if last == len(words) - 1 else words[last][1]
            ranges.append((start, end))
            if last == len(words) - 1:
                break
        return ranges

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> OpenAICompatibleEmbedder:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _embed_batch(self, texts: list[str]) -> FloatMatrix:
        response = self._post_with_retries({"model": self._model, "input": texts})
        vectors = _parse_embeddings(response, len(texts), self._where())
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit: FloatMatrix = (vectors / np.maximum(norms, np.float32(1e-12))).astype(np.float32)
        return unit

    def _post_with_retries(self, payload: dict[str, Any]) -> httpx.Response:
        for attempt in range(1, self._max_attempts + 1):
            last_try = attempt == self._max_attempts
            try:
                response = self._client.post(self._url, json=payload)
            except httpx.TransportError as exc:
                if last_try:
                    raise ProviderError(
                        f"{self._where()}: {type(exc).__name__} after {attempt} attempts: "
                        f"{self._redact(str(exc))}",
                        retryable=True,
                    ) from exc
            else:
                if response.is_success:
                    return response
                retryable = _is_retryable_status(response.status_code)
                if last_try or not retryable:
                    raise ProviderError(
                        f"{self._where()} answered HTTP {response.status_code} after {attempt} "
                        f"attempt{'s' if attempt > 1 else ''}: {self._snippet(response)}",
                        retryable=retryable,
                    )
            self._sleep(self._backoff_s * 2 ** (attempt - 1))
        raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover

    def _where(self) -> str:
        return f"embeddings endpoint {self._url} (model {self._model!r})"

    def _snippet(self, response: httpx.Response) -> str:
        text = " ".join(response.text.split())[:_SNIPPET_CHARS]
        return self._redact(text) or "(empty body)"

    def _redact(self, text: str) -> str:
        # Some servers echo the key they rejected; it must never reach a message or a log.
        return text.replace(self._api_key, "[redacted]") if self._api_key else text


def _parse_embeddings(response: httpx.Response, count: int, where: str) -> FloatMatrix:
    """``data[i].embedding`` ordered by ``data[i].index``, checked to be ``count`` equal rows."""
    try:
        body = response.json()
        items = body["data"]
        by_index = {int(item["index"]): item["embedding"] for item in items}
        if sorted(by_index) != list(range(count)) or len(items) != count:
            raise ValueError(f"expected indices 0..{count - 1}, got {sorted(by_index)[:10]}")
        vectors = np.array([by_index[i] for i in range(count)], dtype=np.float32)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ProviderError(
            f"{where} returned a malformed embeddings response: {type(exc).__name__}: {exc}",
            retryable=False,
        ) from exc
    if vectors.ndim != 2 or vectors.shape[1] == 0 or not np.isfinite(vectors).all():
        raise ProviderError(
            f"{where} returned embeddings of shape {vectors.shape} or with non-finite values",
            retryable=False,
        )
    return vectors


def _is_retryable_status(status: int) -> bool:
    return status in (408, 429) or status >= 500


def _normalise_base_url(base_url: str) -> str:
    url = base_url.strip().rstrip("/")
    url = url.removesuffix("/v1")
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise ConfigurationError(f"base_url {base_url!r} is not a URL: {exc}") from exc
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigurationError(
            f"base_url must be an http(s) URL such as http://localhost:8000, got {base_url!r}"
        )
    if parsed.userinfo:
        raise ConfigurationError("base_url must not carry credentials; pass api_key instead")
    return url


def _check_arguments(
    model: str, timeout: float, batch_size: int, max_attempts: int, backoff_s: float
) -> None:
    if not model:
        raise ConfigurationError("model must name the remote embedding model, got ''")
    if timeout <= 0:
        raise ConfigurationError(f"timeout must be positive seconds, got {timeout}")
    if batch_size < 1:
        raise ConfigurationError(f"batch_size must be at least 1, got {batch_size}")
    if max_attempts < 1:
        raise ConfigurationError(f"max_attempts must be at least 1, got {max_attempts}")
    if backoff_s < 0:
        raise ConfigurationError(f"backoff_s must be zero or more seconds, got {backoff_s}")
