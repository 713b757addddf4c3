"""The upstream of the verifying chat proxy (``POST /v1/chat/completions``): a port and its error.

A :class:`ChatUpstream` takes an OpenAI Chat Completions request body as it is and answers in
that API's shapes: a ``chat.completion`` object, or an iterator of ``chat.completion.chunk``
objects. Adapters (an OpenAI-compatible endpoint, Anthropic Messages) live in
``spanproof.providers.llm.upstream``; the proxy service only speaks this port.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol, runtime_checkable

from spanproof.core.errors import ProviderError

__all__ = ["ChatUpstream", "UpstreamError", "message_text", "openai_error"]


def openai_error(
    message: str, type: str, *, param: str | None = None, code: str | None = None
) -> dict[str, Any]:
    """OpenAI's error object: ``{"message", "type", "param", "code"}`` (wrap it in ``error``)."""
    return {"message": message, "type": type, "param": param, "code": code}


def message_text(message: Mapping[str, Any]) -> str:
    """A Chat Completions message's text: its string content, or its text parts joined by a
    blank line (images and other parts carry no text)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            str(p["text"])
            for p in content
            if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
        ]
        return "\n\n".join(parts)
    return ""


class UpstreamError(ProviderError):
    """The upstream answered an error, or could not be reached.

    Attributes:
        status: the HTTP status to answer the proxy's caller with (the upstream's own status
            when it answered one; 502 when it could not be reached or answered nonsense, 504
            when it timed out).
        error: the OpenAI error object to answer with (``message``, ``type``, ``param``,
            ``code``), secrets already removed.
    """

    def __init__(self, status: int, error: Mapping[str, Any], *, retryable: bool) -> None:
        super().__init__(str(error.get("message", "")), retryable=retryable)
        self.status = status
        self.error = {
            "message": str(error.get("message", "")),
            "type": str(error.get("type") or "upstream_error"),
            "param": error.get("param"),
            "code": error.get("code"),
        }


@runtime_checkable
class ChatUpstream(Protocol):
    """A chat model behind OpenAI's Chat Completions request and response shapes."""

    @property
    def name(self) -> str:
        """What the upstream is, for traces and messages (never a secret)."""
        ...

    def complete(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The ``chat.completion`` object answering ``body`` (sent non-streaming).

        Raises:
            UpstreamError: the upstream answered an error or could not be reached.
        """
        ...

    def stream(self, body: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        """The ``chat.completion.chunk`` objects answering ``body`` (sent streaming).

        The request is made before this returns, so an upstream that refuses it raises here,
        before the caller has answered anything; a failure mid-stream raises from the iterator.

        Raises:
            UpstreamError: as for :meth:`complete`.
        """
        ...

    def close(self) -> None:
        """Release connections."""
        ...
