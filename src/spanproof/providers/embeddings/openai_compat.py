"""An :class:`~spanproof.core.ports.Embedder` for any endpoint that speaks OpenAI's embeddings API.

One adapter serves OpenAI, vLLM, llama.cpp, Ollama, LiteLLM and the like: it posts
``{"model": ..., "input": [...]}`` to ``{base_url}/v1/embeddings`` and reads ``data[i].embedding``
in ``index`` order. All network I/O goes through an ``httpx`` transport, so tests can pass
``httpx.MockTransport`` or point it at a local server.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import numpy as np

from spanproof.core.errors import ConfigurationError
from spanproof.core.ports import FloatMatrix
from spanproof.providers._http import JsonHttpAdapter, bearer, malformed

__all__ = ["WINDOW_OVERLAP_WORDS", "WINDOW_WORDS", "OpenAICompatibleEmbedder"]

#: Whitespace-separated words per window: a conservative fit for 512-token remote models.
WINDOW_WORDS = 200
#: Words that consecutive windows share.
WINDOW_OVERLAP_WORDS = 50

_WORD = re.compile(r"\S+")


class OpenAICompatibleEmbedder(JsonHttpAdapter):
    """Embeds texts with a remote model behind an OpenAI-compatible ``/v1/embeddings`` endpoint.

    ``model_id`` is ``openai-compat:{model}``. A remote model has no weights file to hash, so
    ``model_hash`` is the SHA-256 of ``"{base_url}|{model}"`` (``base_url`` without a trailing
    ``/`` or ``/v1``): it changes when either the server or the model name changes, but cannot
    see the server swapping weights under the same name.

    Retries and error translation are those of :mod:`spanproof.providers._http`: status 408,
    409, 425, 429 and 5xx and transport errors are retried with exponential backoff
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
        if batch_size < 1:
            raise ConfigurationError(f"batch_size must be at least 1, got {batch_size}")
        super().__init__(
            base_url,
            "embeddings",
            model,
            label="embeddings",
            api_key=api_key,
            headers=bearer(api_key),
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff_s,
            backoff_name="backoff_s",
            transport=transport,
            sleep=sleep,
        )
        self._batch_size = batch_size
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
            raise malformed(self._where, "vectors of different lengths across requests")
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

    def _embed_batch(self, texts: list[str]) -> FloatMatrix:
        body = self._post({"model": self._model, "input": texts})
        try:
            vectors = _embeddings(body, len(texts))
        except (KeyError, TypeError, ValueError) as exc:
            what = f"malformed embeddings: {type(exc).__name__}: {exc}"
            raise malformed(self._where, self._redact(what)) from exc
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit: FloatMatrix = (vectors / np.maximum(norms, np.float32(1e-12))).astype(np.float32)
        return unit


def _embeddings(body: dict[str, Any], count: int) -> FloatMatrix:
    """``data[i].embedding`` ordered by ``data[i].index``, checked to be ``count`` equal rows.

    Raises:
        KeyError, TypeError, ValueError: the body does not hold ``count`` finite, equal rows.
    """
    items = body["data"]
    by_index = {int(item["index"]): item["embedding"] for item in items}
    if sorted(by_index) != list(range(count)) or len(items) != count:
        raise ValueError(f"expected indices 0..{count - 1}, got {sorted(by_index)[:10]}")
    vectors = np.array([by_index[i] for i in range(count)], dtype=np.float32)
    if vectors.ndim != 2 or vectors.shape[1] == 0 or not np.isfinite(vectors).all():
        raise ValueError(f"embeddings of shape {vectors.shape} or with non-finite values")
    return vectors
