"""A :class:`~spanproof.core.ports.ChatModel` for the Anthropic Messages API.

Posts to ``{base_url}/v1/messages`` with the ``x-api-key`` and ``anthropic-version: 2023-06-01``
headers. System messages are joined (blank line between) into the top-level ``system`` field;
the others go to ``messages`` in order. The reply text is the concatenated ``text`` of the
``content`` blocks of type ``text``; usage comes from ``usage.input_tokens`` /
``usage.output_tokens``. Retries and error translation are in :mod:`spanproof.providers._http`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from spanproof.core.errors import ConfigurationError
from spanproof.core.ports import ChatMessage
from spanproof.providers._http import malformed
from spanproof.providers.llm._chat import HttpChatModel

__all__ = ["ANTHROPIC_VERSION", "AnthropicChatModel"]

ANTHROPIC_VERSION = "2023-06-01"


class AnthropicChatModel(HttpChatModel):
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

    _usage_keys = ("input_tokens", "output_tokens")

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
        if not api_key:
            raise ConfigurationError("AnthropicChatModel needs an api_key; pass a non-empty key")
        super().__init__(
            base_url,
            "messages",
            model,
            label="Anthropic",
            api_key=api_key,
            headers={"x-api-key": api_key, "anthropic-version": ANTHROPIC_VERSION},
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff,
            transport=transport,
            sleep=sleep,
        )

    def _payload(
        self, messages: Sequence[ChatMessage], temperature: float, max_tokens: int
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self._model,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "messages": [
                {"role": m.role, "content": m.content} for m in messages if m.role != "system"
            ],
        }
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        if system:
            payload["system"] = system
        return payload

    def _text(self, body: dict[str, Any]) -> str:
        content = body.get("content")
        if not isinstance(content, list):
            raise malformed(self._where, "no content list")
        texts = [
            block["text"]
            for block in content
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        ]
        if not texts:
            raise malformed(self._where, "no content block of type text")
        return "".join(texts)
