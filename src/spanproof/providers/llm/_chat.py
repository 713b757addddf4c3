"""The base the HTTP chat adapters share: one ``complete`` over a provider's payload and reply.

A subclass builds the request body (:meth:`HttpChatModel._payload`) and finds the reply text
(:meth:`HttpChatModel._text`); this base posts it, takes the model name the reply gives (the
configured one when absent) and reads the token counts under ``usage`` by the subclass's key
names. HTTP itself (retries, errors, redaction) is in :mod:`spanproof.providers._http`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from spanproof.core.ports import ChatMessage, ChatResult, Usage
from spanproof.providers._http import JsonHttpAdapter


class HttpChatModel(JsonHttpAdapter, ABC):
    """A :class:`~spanproof.core.ports.ChatModel` behind one JSON HTTP endpoint."""

    #: The ``usage`` keys of the prompt and the completion token counts.
    _usage_keys: ClassVar[tuple[str, str]]

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
        body = self._post(self._payload(messages, temperature, max_tokens))
        usage = body.get("usage")
        prompt_key, completion_key = self._usage_keys
        return ChatResult(
            text=self._text(body),
            model=body["model"] if isinstance(body.get("model"), str) else self._model,
            usage=Usage(_token_count(usage, prompt_key), _token_count(usage, completion_key)),
        )

    @abstractmethod
    def _payload(
        self, messages: Sequence[ChatMessage], temperature: float, max_tokens: int
    ) -> dict[str, Any]:
        """The request body for ``messages``."""

    @abstractmethod
    def _text(self, body: dict[str, Any]) -> str:
        """The reply text. Raises ``ProviderError`` (see ``malformed``) when there is none."""


def _token_count(usage: Any, key: str) -> int:
    """A non-negative integer token count from a usage object, 0 when absent or malformed."""
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0
