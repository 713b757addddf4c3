"""A :class:`~spanproof.core.ports.ChatModel` for any OpenAI-compatible Chat Completions endpoint.

One adapter serves OpenAI, vLLM, llama.cpp server, Ollama, LiteLLM and the like: it posts
``{"model", "messages", "temperature", "max_tokens"}`` to ``{base_url}/v1/chat/completions`` and
reads ``choices[0].message.content`` and ``usage.prompt_tokens`` / ``usage.completion_tokens``.
Retries and error translation are in :mod:`spanproof.providers.llm._http`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

import httpx

from spanproof.core.ports import ChatMessage, ChatResult, Usage
from spanproof.providers.llm._http import (
    Redactor,
    check_arguments,
    endpoint,
    malformed,
    post_json,
    token_count,
)

__all__ = ["OpenAICompatibleChatModel"]


class OpenAICompatibleChatModel:
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
        check_arguments(model, timeout, max_attempts, backoff)
        self._url = endpoint(base_url, "chat/completions")
        self._model = model
        self._max_attempts = max_attempts
        self._backoff = backoff
        self._sleep = sleep
        self._redact = Redactor(api_key)
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(transport=transport, timeout=timeout, headers=headers)

    @property
    def model_id(self) -> str:
        return self._model

    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, max_tokens: int = 2048
    ) -> ChatResult:
        """The model's reply to ``messages``.

        Raises:
            ProviderError: the call failed or the reply has no text; ``retryable`` says whether
                a later call may succeed.
        """
        payload = {
            "model": self._model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        where = f"chat endpoint {self._url} (model {self._model!r})"
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
            text=_content(body, where),
            model=body["model"] if isinstance(body.get("model"), str) else self._model,
            usage=Usage(
                token_count(body.get("usage"), "prompt_tokens"),
                token_count(body.get("usage"), "completion_tokens"),
            ),
        )

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> OpenAICompatibleChatModel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _content(body: dict[str, Any], where: str) -> str:
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise malformed(where, "no choices[0]")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        raise malformed(where, "choices[0].message.content is not text")
    return content
