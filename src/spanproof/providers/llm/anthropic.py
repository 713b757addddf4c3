"""A :class:`~spanproof.core.ports.ChatModel` for the Anthropic Messages API.

Posts to ``{base_url}/v1/messages`` with the ``x-api-key`` and ``anthropic-version: 2023-06-01``
headers. System messages are joined (blank line between) into the top-level ``system`` field;
the others go to ``messages`` in order. The reply text is the concatenated ``text`` of the
``content`` blocks of type ``text``; usage comes from ``usage.input_tokens`` /
``usage.output_tokens``. Retries and error translation are in
:mod:`spanproof.providers.llm._http`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

import httpx

from spanproof.core.errors import ConfigurationError
from spanproof.core.ports import ChatMessage, ChatResult, Usage
from spanproof.providers.llm._http import (
    Redactor,
    check_arguments,
    endpoint,
    malformed,
    post_json,
    token_count,
)

__all__ = ["ANTHROPIC_VERSION", "AnthropicChatModel"]

ANTHROPIC_VERSION = "2023-06-01"


class AnthropicChatModel:
    """Chat completions from Anthropic's Messages API.

    Args:
        model: the model name (e.g. ``claude-sonnet-4-5``); also this adapter's ``model_id``.
        api_key: sent as ``x-api-key``; never in a message.
        base_url: the API root, with or without a trailing ``/v1``.
        timeout: seconds for each HTTP request.
        max_attempts: attempts per call, the first included (408, 429, 5xx including 529
            "overloaded", and transport errors are retried).
        backoff: seconds before the first retry; each next retry waits twice as long.
        transport: an ``httpx`` transport (tests); default: real HTTP.
        sleep: how to wait between attempts (tests may pass a no-op).

    Raises:
        ConfigurationError: no api key, a bad ``base_url``, or an argument out of range.
    """

    def __init__(
        self,
        model: str,
        api_key: str,
        base_url: str = "https://api.anthropic.com",
        timeout: float = 60,
        max_attempts: int = 3,
        backoff: float = 0.5,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        check_arguments(model, timeout, max_attempts, backoff)
        if not api_key:
            raise ConfigurationError("AnthropicChatModel needs an api_key; pass a non-empty key")
        self._url = endpoint(base_url, "messages")
        self._model = model
        self._max_attempts = max_attempts
        self._backoff = backoff
        self._sleep = sleep
        self._redact = Redactor(api_key)
        headers = {
            "Accept": "application/json",
            "x-api-key": api_key,
            "anthropic-version": ANTHROPIC_VERSION,
        }
        self._client = httpx.Client(transport=transport, timeout=timeout, headers=headers)

    @property
    def model_id(self) -> str:
        return self._model

    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, max_tokens: int = 2048
    ) -> ChatResult:
        """The model's reply to ``messages``.

        Raises:
            ProviderError: the call failed or the reply has no text content; ``retryable`` says
                whether a later call may succeed.
        """
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        payload: dict[str, Any] = {
            "model": self._model,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "messages": [
                {"role": m.role, "content": m.content} for m in messages if m.role != "system"
            ],
        }
        if system:
            payload["system"] = system
        where = f"Anthropic endpoint {self._url} (model {self._model!r})"
        body = post_json(
            self._client,
            self._url,
            payload,
            where=where,
            redact=self._redact,
            max_attempts=self._max_attempts,
            backoff=self._backoff,
            sleep=self._sleep,
        )
        return ChatResult(
            text=_text(body, where),
            model=body["model"] if isinstance(body.get("model"), str) else self._model,
            usage=Usage(
                token_count(body.get("usage"), "input_tokens"),
                token_count(body.get("usage"), "output_tokens"),
            ),
        )

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> AnthropicChatModel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _text(body: dict[str, Any], where: str) -> str:
    content = body.get("content")
    if not isinstance(content, list):
        raise malformed(where, "no content list")
    texts = [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]
    if not texts:
        raise malformed(where, "no content block of type text")
    return "".join(texts)
