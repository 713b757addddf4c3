"""OpenAICompatibleEmbedder against a real HTTP server on 127.0.0.1 that plays scripted replies."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from spanproof.core.errors import ProviderError
from spanproof.providers.embeddings import OpenAICompatibleEmbedder

API_KEY = "sk-test-0123456789-do-not-leak"


@dataclass
class Reply:
    status: int = 200
    body: bytes | dict[str, Any] = b""


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class ScriptedServer:
    """Answers POSTs with ``replies`` in turn (the last one repeats) and records each request."""

    url: str = ""
    replies: list[Reply] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_reply(self, seen: Seen) -> Reply:
        with self.lock:
            self.seen.append(seen)
            return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]


def echo_embeddings(texts: list[str], *, reverse: bool = True) -> dict[str, Any]:
    """A success body whose row i is (i + 1, 2, 2): not unit length, so normalisation shows."""
    data = [
        {"object": "embedding", "index": i, "embedding": [float(i + 1), 2.0, 2.0]}
        for i in range(len(texts))
    ]
    return {"object": "list", "data": data[::-1] if reverse else data, "model": "m"}


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    script = ScriptedServer()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length))
            seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, request)
            reply = script.next_reply(seen)
            body = reply.body
            if isinstance(body, dict):
                body = json.dumps(body).encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep the test output clean

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    script.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield script
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def make(base_url: str, **kwargs: Any) -> OpenAICompatibleEmbedder:
    options: dict[str, Any] = {"api_key": API_KEY, "timeout": 5, "backoff_s": 0.0} | kwargs
    return OpenAICompatibleEmbedder(base_url, "test-embedder", **options)


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_rows_follow_the_index_field_and_come_back_unit_length(
    server: ScriptedServer, suffix: str
) -> None:
    texts = ["first", "second", "third"]
    server.replies = [Reply(body=echo_embeddings(texts, reverse=True))]
    with make(server.url + suffix) as embedder:
        vectors = embedder.embed(texts)
    raw = np.array([[1, 2, 2], [2, 2, 2], [3, 2, 2]], dtype=np.float32)
    np.testing.assert_allclose(vectors, raw / np.linalg.norm(raw, axis=1, keepdims=True), 1e-6)
    assert vectors.dtype == np.float32
    (request,) = server.seen
    assert request.path == "/v1/embeddings"
    assert request.body == {"model": "test-embedder", "input": texts}
    assert request.headers["authorization"] == f"Bearer {API_KEY}"


def test_no_api_key_sends_no_authorization_header(server: ScriptedServer) -> None:
    server.replies = [Reply(body=echo_embeddings(["x"]))]
    with OpenAICompatibleEmbedder(server.url, "test-embedder") as embedder:
        embedder.embed(["x"])
    assert "authorization" not in server.seen[0].headers


def test_texts_are_sent_in_batches_and_returned_in_order(server: ScriptedServer) -> None:
    texts = [f"text {i}" for i in range(5)]
    server.replies = [
        Reply(body=echo_embeddings(texts[0:2])),
        Reply(body=echo_embeddings(texts[2:4])),
        Reply(body=echo_embeddings(texts[4:5])),
    ]
    with make(server.url, batch_size=2) as embedder:
        vectors = embedder.embed(texts)
    assert [s.body["input"] for s in server.seen] == [texts[0:2], texts[2:4], texts[4:5]]
    assert vectors.shape == (5, 3)
    np.testing.assert_allclose(vectors[3], vectors[1])


def test_a_429_is_retried_after_a_backoff_and_then_succeeds(server: ScriptedServer) -> None:
    server.replies = [
        Reply(429, {"error": {"message": "rate limited"}}),
        Reply(body=echo_embeddings(["a"])),
    ]
    waits: list[float] = []
    with make(server.url, backoff_s=0.25, sleep=waits.append) as embedder:
        vectors = embedder.embed(["a"])
    assert vectors.shape == (1, 3)
    assert len(server.seen) == 2
    assert waits == [0.25]


def test_a_persistent_500_gives_a_retryable_provider_error_after_three_attempts(
    server: ScriptedServer,
) -> None:
    server.replies = [Reply(500, {"error": {"message": "model crashed"}})]
    waits: list[float] = []
    embedder = make(server.url, backoff_s=0.1, sleep=waits.append)
    with embedder, pytest.raises(ProviderError, match="HTTP 500") as caught:
        embedder.embed(["a"])
    assert caught.value.retryable is True
    assert "model crashed" in str(caught.value)
    assert len(server.seen) == 3
    assert waits == [0.1, 0.2]


def test_a_401_is_not_retried_and_its_message_never_shows_the_api_key(
    server: ScriptedServer,
) -> None:
    # Some servers echo the rejected key back; the error must still not carry it.
    server.replies = [Reply(401, {"error": {"message": f"Incorrect API key provided: {API_KEY}"}})]
    with make(server.url) as embedder, pytest.raises(ProviderError, match="HTTP 401") as caught:
        embedder.embed(["a"])
    assert caught.value.retryable is False
    assert len(server.seen) == 1
    assert API_KEY not in str(caught.value)
    assert API_KEY not in repr(caught.value.args)
    assert "[redacted]" in str(caught.value)


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"",
        {"data": "nope"},
        {"object": "list"},
        {"data": [{"index": 0, "embedding": [1.0, 0.0]}]},  # one row for two texts
        {"data": [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}]},
        {"data": [{"index": 0, "embedding": [1.0, 0.0]}, {"index": 1, "embedding": [1.0]}]},
        {"data": [{"index": 0, "embedding": []}, {"index": 1, "embedding": []}]},
    ],
)
def test_a_malformed_success_body_gives_a_non_retryable_provider_error(
    server: ScriptedServer, body: bytes | dict[str, Any]
) -> None:
    server.replies = [Reply(200, body)]
    with make(server.url) as embedder, pytest.raises(ProviderError, match="endpoint") as caught:
        embedder.embed(["a", "b"])
    assert caught.value.retryable is False
    assert len(server.seen) == 1


def test_a_refused_connection_is_retried_then_reported_as_retryable() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    waits: list[float] = []
    embedder = make(f"http://127.0.0.1:{port}", sleep=waits.append)
    with embedder, pytest.raises(ProviderError, match="ConnectError") as caught:
        embedder.embed(["a"])
    assert caught.value.retryable is True
    assert len(waits) == 2
    assert API_KEY not in str(caught.value)


def test_empty_input_makes_no_request(server: ScriptedServer) -> None:
    with make(server.url) as embedder:
        assert embedder.embed([]).shape[0] == 0
    assert server.seen == []
