"""Upstreams of the verifying chat proxy (:class:`~spanproof.core.upstream.ChatUpstream`).

* :class:`OpenAICompatibleUpstream` sends the request body as it is to
  ``{base_url}/v1/chat/completions`` (OpenAI, vLLM, llama.cpp server, Ollama, LiteLLM, ...) and
  hands back the reply as it is: no retries (the caller's client retries, and an upstream's
  status must reach it unchanged), errors in OpenAI's error shape with the upstream's status.
* :class:`AnthropicUpstream` translates the request's text messages for the Anthropic Messages
  API through :class:`~spanproof.providers.llm.anthropic.AnthropicChatModel` (one per model
  name) and answers in the Chat Completions shapes; a stream is the whole reply in one chunk.

The api key is sent only to the upstream and removed from every error message.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import httpx

from spanproof.core.errors import LONE_SURROGATE, ProviderError
from spanproof.core.ports import ChatMessage
from spanproof.core.upstream import UpstreamError, message_text, openai_error
from spanproof.providers._http import Redactor, api_root, bearer
from spanproof.providers.llm.anthropic import AnthropicChatModel
from spanproof.providers.retry import is_retryable_status

__all__ = ["AnthropicUpstream", "OpenAICompatibleUpstream"]

_SNIPPET_CHARS = 200


class OpenAICompatibleUpstream:
    """An OpenAI-compatible Chat Completions endpoint, called with the caller's body as it is.

    Args:
        base_url: the server root, with or without a trailing ``/v1``.
        api_key: sent as ``Authorization: Bearer ...`` when given; never in a message.
        timeout: seconds for each HTTP request (a stream's reads included).
        transport: an ``httpx`` transport (tests); default: real HTTP.

    Raises:
        ConfigurationError: ``base_url`` is not an http(s) URL.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        timeout: float = 60.0,
        *,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._url = f"{api_root(base_url)}/v1/chat/completions"
        self._redact = Redactor(api_key)
        self._client = httpx.Client(transport=transport, timeout=timeout, headers=bearer(api_key))

    @property
    def name(self) -> str:
        return f"openai-compatible {self._url}"

    def complete(self, body: Mapping[str, Any]) -> dict[str, Any]:
        try:
            response = self._client.post(self._url, json=dict(body))
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from exc
        if not response.is_success:
            raise self._refused(response)
        reply = _json(response.text)
        if not isinstance(reply, dict):
            raise self._nonsense("a body that is not a JSON object")
        return reply

    def stream(self, body: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        request = self._client.build_request("POST", self._url, json=dict(body))
        try:
            response = self._client.send(request, stream=True)
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from exc
        if not response.is_success:
            try:
                response.read()
            finally:
                response.close()
            raise self._refused(response)
        if "text/event-stream" not in response.headers.get("content-type", ""):
            # An upstream that ignores "stream": its whole completion is one chunk.
            try:
                reply = _json(response.read().decode("utf-8", errors="replace"))
            finally:
                response.close()
            if not isinstance(reply, dict):
                raise self._nonsense("a body that is neither an event stream nor a JSON object")
            return iter(completion_chunks(reply))
        return self._events(response)

    def _events(self, response: httpx.Response) -> Iterator[dict[str, Any]]:
        """The stream's chunks; a stream that ends before it says it is finished (no
        ``finish_reason``, no ``[DONE]``: a dropped connection, a killed upstream) raises, so
        its fragment is never verified and delivered as a whole answer."""
        finished = False
        try:
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue  # comments, event names, keep-alives
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                chunk = _json(data)
                if not isinstance(chunk, dict):
                    raise self._nonsense("an event that is not a JSON object")
                if isinstance(chunk.get("error"), dict | str):
                    raise UpstreamError(502, self._error_object(chunk, 502), retryable=False)
                finished = finished or _finishes(chunk)
                yield chunk
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from exc
        finally:
            response.close()
        if not finished:
            raise self._nonsense(
                "a stream that ended before it finished (no finish_reason, no [DONE])"
            )

    def close(self) -> None:
        self._client.close()

    def _refused(self, response: httpx.Response) -> UpstreamError:
        status = response.status_code
        return UpstreamError(
            status,
            self._error_object(_json(response.text), status, response.text),
            retryable=is_retryable_status(status),
        )

    def _error_object(self, body: Any, status: int, raw: str = "") -> dict[str, Any]:
        """The upstream's own error object when it sent one (redacted), else one saying so."""
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, str):
            error = {"message": error}
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return {
                "message": self._redact(error["message"]),
                "type": error.get("type") if isinstance(error.get("type"), str) else None,
                "param": error.get("param") if isinstance(error.get("param"), str) else None,
                "code": _code(error.get("code")),
            }
        snippet = " ".join(self._redact(raw).split())[:_SNIPPET_CHARS] or "(empty body)"
        return openai_error(f"the upstream answered HTTP {status}: {snippet}", "upstream_error")

    def _unreachable(self, exc: httpx.TransportError) -> UpstreamError:
        timed_out = isinstance(exc, httpx.TimeoutException)
        what = "timed out" if timed_out else "could not be reached"
        message = f"the upstream {self._url} {what}: {type(exc).__name__}: {self._redact(str(exc))}"
        return UpstreamError(
            504 if timed_out else 502,
            openai_error(message, "upstream_error", code="upstream_unreachable"),
            retryable=True,
        )

    def _nonsense(self, what: str) -> UpstreamError:
        message = f"the upstream {self._url} answered {what}"
        return UpstreamError(502, openai_error(message, "upstream_error"), retryable=False)


class AnthropicUpstream:
    """Anthropic's Messages API behind the Chat Completions shapes.

    Text content only: each message's text parts are joined; ``tool`` results go as user
    messages; ``temperature`` and ``max_completion_tokens`` (or ``max_tokens``, default 1024)
    are passed on, other options are not.

    Args:
        api_key: Anthropic's key.
        base_url: the API root (default Anthropic's).
        default_model: the model when a request names none.
        timeout: seconds for each HTTP request.
        transport: an ``httpx`` transport (tests); default: real HTTP.
    """

    def __init__(
        self,
        api_key: str,
        base_url: str | None = None,
        default_model: str | None = None,
        timeout: float = 60.0,
        *,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._api_key = api_key
        self._base_url = base_url or "https://api.anthropic.com"
        self._default_model = default_model
        self._timeout = timeout
        self._transport = transport
        self._models: dict[str, AnthropicChatModel] = {}
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"anthropic {api_root(self._base_url)}"

    def _model(self, name: str) -> AnthropicChatModel:
        with self._lock:
            if name not in self._models:
                self._models[name] = AnthropicChatModel(
                    name,
                    self._api_key,
                    base_url=self._base_url,
                    timeout=self._timeout,
                    transport=self._transport,
                )
            return self._models[name]

    def complete(self, body: Mapping[str, Any]) -> dict[str, Any]:
        model = str(body.get("model") or self._default_model or "")
        if not model:
            error = openai_error("name a model", "invalid_request_error", param="model")
            raise UpstreamError(400, error, retryable=False)
        messages = [
            ChatMessage("user" if m.get("role") == "tool" else str(m.get("role")), message_text(m))
            for m in body.get("messages", [])
            if isinstance(m, dict)
        ]
        temperature = body.get("temperature")
        limit = body.get("max_completion_tokens") or body.get("max_tokens") or 1024
        try:
            result = self._model(model).complete(
                messages,
                temperature=float(temperature) if isinstance(temperature, int | float) else 1.0,
                max_tokens=int(limit),
            )
        except ProviderError as exc:
            error = openai_error(str(exc), "upstream_error")
            raise UpstreamError(502, error, retryable=exc.retryable) from exc
        # A lone surrogate escape in the reply is read as U+FFFD, as for an OpenAI upstream.
        text, name = _replace_surrogates(result.text), _replace_surrogates(result.model)
        digest = hashlib.sha256(f"{name}\n{text}".encode()).hexdigest()
        usage = result.usage
        return {
            "id": f"chatcmpl-{digest[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": name,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": usage.input_tokens,
                "completion_tokens": usage.output_tokens,
                "total_tokens": usage.input_tokens + usage.output_tokens,
            },
        }

    def stream(self, body: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        return iter(completion_chunks(self.complete(body)))

    def close(self) -> None:
        with self._lock:
            for model in self._models.values():
                model.close()
            self._models.clear()


def _finishes(chunk: Mapping[str, Any]) -> bool:
    """Whether a chunk carries its choice's ``finish_reason`` (the answer is complete)."""
    choices = chunk.get("choices")
    return (
        isinstance(choices, list)
        and bool(choices)
        and isinstance(choices[0], dict)
        and bool(choices[0].get("finish_reason"))
    )


def completion_chunks(completion: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A whole ``chat.completion`` as the chunks a stream of it would send: the content in one
    chunk, then one with the finish reason and the usage."""
    choices = completion.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else {}
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    base = {
        "id": completion.get("id", ""),
        "object": "chat.completion.chunk",
        "created": completion.get("created", 0),
        "model": completion.get("model", ""),
    }
    delta = {"role": "assistant", "content": content if isinstance(content, str) else ""}
    finish = first.get("finish_reason", "stop") if isinstance(first, dict) else "stop"
    last: dict[str, Any] = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
    if isinstance(completion.get("usage"), dict):
        last["usage"] = completion["usage"]
    return [{**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}, last]


def _json(text: str) -> Any:
    """The JSON value of ``text``, or None; a lone surrogate escape (``"\\ud800"``: valid JSON,
    but no character) becomes U+FFFD, as a byte that is not UTF-8 does when the body is
    decoded: left in, it could be neither verified nor sent back as UTF-8."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return _replace_surrogates(value) if "\\u" in text else value


def _replace_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_replace_surrogates(k): _replace_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_surrogates(v) for v in value]
    return value


def _code(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else None
