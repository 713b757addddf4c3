"""A scripted chat server on loopback, for tests that must go through real HTTP.

:class:`ScriptedChatServer` speaks both OpenAI-compatible ``POST /v1/chat/completions`` and
Anthropic ``POST /v1/messages``. It answers requests in arrival order from a list of scripted
replies, whatever the path:

* a ``str`` is the assistant's text, wrapped in the shape of the path that was called (the
  request's ``model`` is echoed; usage is the server's fixed ``usage``);
* a ``(status, body)`` tuple is sent as is: ``body`` is a JSON value (sent as JSON) or a ``str``
  (sent verbatim).

A text reply to an OpenAI-compatible request with ``"stream": true`` is sent as server-sent
``chat.completion.chunk`` events, one per word (with the space before it), ``chunk_delay``
seconds apart, then a finish chunk, a usage chunk when ``stream_options.include_usage`` asks
for one, and ``data: [DONE]``. A :class:`CutStream` is the same stream cut off before its
finish chunk and ``[DONE]`` (the connection closes mid-answer).

Once the script runs out it answers 500. Every request is recorded (path, lower-cased headers,
JSON body) for assertions. Use it as a context manager so the socket and thread are closed::

    with ScriptedChatServer(['[]']) as server:
        model = OpenAICompatibleChatModel(server.base_url, "m")
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from spanproof.providers.closing import ClosesOnExit

__all__ = ["CutStream", "RecordedRequest", "ScriptedChatServer", "ScriptedReply"]


@dataclass(frozen=True, slots=True)
class CutStream:
    """A streamed reply of ``text`` whose connection closes before it finishes."""

    text: str


ScriptedReply = str | tuple[int, Any] | CutStream

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # decoded JSON, or the raw text when it was not JSON


class ScriptedChatServer(ClosesOnExit):
    """A real HTTP server on ``127.0.0.1`` (a free port) replying from a script.

    Args:
        replies: the scripted replies, used in order (see the module docstring).
        usage: ``(input_tokens, output_tokens)`` reported with every text reply.
        chunk_delay: seconds between the events of a streamed reply.
    """

    def __init__(
        self,
        replies: Sequence[ScriptedReply],
        *,
        usage: tuple[int, int] = (11, 7),
        chunk_delay: float = 0.0,
    ):
        self._replies = list(replies)
        self._usage = usage
        self.chunk_delay = chunk_delay
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (no ``/v1``); only while running."""
        if self._server is None:
            raise RuntimeError("ScriptedChatServer is not running; use it as a context manager")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> ScriptedChatServer:
        """Bind a free loopback port and serve in a background thread."""
        if self._server is not None:
            return self
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_class(self))
        server.daemon_threads = True
        self._server = server
        # A short poll interval keeps close() fast: shutdown() waits for the next poll.
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.02},
            name="scripted-chat-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and close the listening socket."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = self._thread = None

    def __enter__(self) -> Self:
        self.start()
        return self

    @property
    def remaining(self) -> int:
        """How many scripted replies are left."""
        with self._lock:
            return len(self._replies)

    def _respond(self, request: RecordedRequest) -> tuple[int, str | list[str]]:
        with self._lock:
            self.requests.append(request)
            reply = self._replies.pop(0) if self._replies else None
        if request.path not in (OPENAI_PATH, ANTHROPIC_PATH):
            return 404, json.dumps({"error": {"message": f"no route {request.path}"}})
        if reply is None:
            return 500, json.dumps({"error": {"message": "ScriptedChatServer: script exhausted"}})
        if isinstance(reply, tuple):
            status, body = reply
            return status, body if isinstance(body, str) else json.dumps(body)
        model = request.body.get("model", "scripted") if isinstance(request.body, dict) else ""
        if isinstance(reply, CutStream):
            return 200, self._events(str(model), reply.text, request.body, finished=False)
        if request.path == OPENAI_PATH and request.body.get("stream") is True:
            return 200, self._events(str(model), reply, request.body)
        return 200, json.dumps(self._text_reply(request.path, str(model), reply))

    def _events(
        self, model: str, text: str, body: dict[str, Any], *, finished: bool = True
    ) -> list[str]:
        """The server-sent events of a streamed OpenAI-compatible reply (module docstring);
        not ``finished``: only the opening chunk and the words."""
        base = {
            "id": f"chatcmpl-scripted-{len(self.requests)}",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        chunks = [chunk({"role": "assistant", "content": ""})]
        chunks += [chunk({"content": w}) for w in re.split(r"(?<=\s)(?=\S)", text) if w]
        if not finished:
            return [f"data: {json.dumps(c)}\n\n" for c in chunks]
        chunks.append(chunk({}, "stop"))
        options = body.get("stream_options")
        if isinstance(options, dict) and options.get("include_usage") is True:
            tokens_in, tokens_out = self._usage
            usage = {
                "prompt_tokens": tokens_in,
                "completion_tokens": tokens_out,
                "total_tokens": tokens_in + tokens_out,
            }
            chunks.append({**base, "choices": [], "usage": usage})
        return [f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]

    def _text_reply(self, path: str, model: str, text: str) -> dict[str, Any]:
        tokens_in, tokens_out = self._usage
        if path == ANTHROPIC_PATH:
            return {
                "id": f"msg_scripted_{len(self.requests)}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
            }
        return {
            "id": f"chatcmpl-scripted-{len(self.requests)}",
            "object": "chat.completion",
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": tokens_in,
                "completion_tokens": tokens_out,
                "total_tokens": tokens_in + tokens_out,
            },
        }


def _handler_class(owner: ScriptedChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", errors="replace")
            try:
                body: Any = json.loads(raw)
            except json.JSONDecodeError:
                body = raw
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, text = owner._respond(RecordedRequest("POST", self.path, headers, body))
            if isinstance(text, list):
                self._stream(status, text)
                return
            payload = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _stream(self, status: int, events: list[str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()  # HTTP/1.0: the body ends when the connection closes
            for n, event in enumerate(events):
                if n and owner.chunk_delay:
                    time.sleep(owner.chunk_delay)
                self.wfile.write(event.encode("utf-8"))
                self.wfile.flush()

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output quiet."""

    return Handler
