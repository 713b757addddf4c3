"""A :class:`~spanproof.core.ports.ChatModel` for any OpenAI-compatible Chat Completions endpoint.

One adapter serves OpenAI, vLLM, llama.cpp server, Ollama, LiteLLM and the like: it posts
``{"model", "messages", "temperature", "max_tokens"}`` to ``{base_url}/v1/chat/completions`` and
reads ``choices[0].message.content`` and ``usage.prompt_tokens`` / ``usage.completion_tokens``.
Retries and error translation are in :mod:`spanproof.providers._http`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from spanproof.core.ports import ChatMessage
from spanproof.providers._http import bearer, malformed
from spanproof.providers.llm._chat import HttpChatModel

__all__ = ["OpenAICompatibleChatModel"]


class OpenAICompatibleChatModel(HttpChatModel):
    """Chat completions from an OpenAI-compatible server.

    Args:
        base_url: the server root, with or without a trailing ``/v1``.
        model: the model name the server expects; also this adapter's ``model_id``.
        api_key: sent as ``Authorization: Bearer ...`` when given; never in a message.
        timeout: seconds for each HTTP request.
        max_attempts: attempts per call, the first included (408, 429, 5xx and transport
            errors are retried).
        backoff: seconds before the first retry; each next retry waits twice as long.
        transport: an ``httpx`` transport (tests); default: real HTTP.
        sleep: how to wait between attempts (tests may pass a no-op).

    Raises:
        ConfigurationError: ``base_url`` is not an http(s) URL, or an argument is out of range.
    """

    _usage_keys = ("prompt_tokens", "completion_tokens")

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 60,
        max_attempts: int = 3,
        backoff: float = 0.5,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(
            base_url,
            "chat/completions",
            model,
            label="chat",
            api_key=api_key,
            headers=bearer(api_key),
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff,
            transport=transport,
            sleep=sleep,
        )

    def _payload(
        self, messages: Sequence[ChatMessage], temperature: float, max_tokens: int
    ) -> dict[str, Any]:
        return {
            "model": self._model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": temperature,
            "max_tokens": max_tokens,
        }

    def _text(self, body: dict[str, Any]) -> str:
        choices = body.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise malformed(self._where, "no choices[0]")
        message = choices[0].get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise malformed(self._where, "choices[0].message.content is not text")
        return content
