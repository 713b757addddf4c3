"""Providers that time out or answer garbage, over real HTTP on loopback: a reply slower than the
timeout, invalid JSON, the wrong shape, a 200 carrying an HTML page. The OpenAI-compatible
embedder and chat model raise ProviderError (never another exception), ``/v1/verify`` answers in
the one error shape, and nothing is stored half-way: no trace of a failed verification, no vector
of a failed embedding.

(Retries, 4xx/5xx statuses, refused connections and most malformed embedding bodies are covered
in tests/integration/test_embeddings_openai_compat.py and test_chat_adapters.py.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import ProviderError
from spanproof.core.ports import ChatMessage
from spanproof.core.trace import check_chain
from spanproof.providers.embeddings import OpenAICompatibleEmbedder
from spanproof.providers.embeddings.cache import CachedEmbedder
from spanproof.providers.llm.openai_compat import OpenAICompatibleChatModel
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.apps import app_state

HTML = b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@dataclass(frozen=True)
class Fault:
    body: bytes
    content_type: str = "application/json"
    delay_s: float = 0.0
    retryable: bool = False


FAULTS = {
    "slow": Fault(b'{"data": []}', delay_s=1.0, retryable=True),
    "invalid-json": Fault(b'{"data": [{"index": 0, "embedding": [0.1,'),
    "wrong-shape": Fault(b'{"data": {"embedding": "nope"}, "choices": "nope"}'),
    "html-200": Fault(HTML, content_type="text/html"),
}


@contextmanager
def faulty_server(fault: Fault) -> Iterator[str]:
    """A loopback server answering every POST with ``fault`` (status 200); yields its URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            time.sleep(fault.delay_s)
            try:
                self.send_response(200)
                self.send_header("Content-Type", fault.content_type)
                self.send_header("Content-Length", str(len(fault.body)))
                self.end_headers()
                self.wfile.write(fault.body)
            except OSError:
                pass  # the client gave up waiting (the slow case)

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output quiet."""

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _embedder(url: str) -> OpenAICompatibleEmbedder:
    return OpenAICompatibleEmbedder(url, "e", timeout=0.2, max_attempts=2, backoff_s=0.0)


@pytest.mark.parametrize("name", list(FAULTS))
def test_the_embedder_raises_provider_error_for_a_slow_or_garbage_reply(name: str) -> None:
    fault = FAULTS[name]
    with (
        faulty_server(fault) as url,
        _embedder(url) as embedder,
        pytest.raises(ProviderError) as caught,
    ):
        embedder.embed(["walking", "blood pressure"])
    assert caught.value.retryable is fault.retryable


@pytest.mark.parametrize("name", list(FAULTS))
def test_the_chat_model_raises_provider_error_for_a_slow_or_garbage_reply(name: str) -> None:
    fault = FAULTS[name]
    with faulty_server(fault) as url:
        chat = OpenAICompatibleChatModel(url, "m", timeout=0.2, max_attempts=2, backoff=0)
        with chat, pytest.raises(ProviderError) as caught:
            chat.complete([ChatMessage("user", "Say hi.")])
    assert caught.value.retryable is fault.retryable


@pytest.mark.parametrize("name", list(FAULTS))
def test_verify_with_a_failing_embedder_degrades_to_unavailable_and_traces_it_whole(
    tmp_path: Path, name: str
) -> None:
    """The documented behaviour (HOUSE_STYLE "Errors"; SPEC §4.7): a failed embedding is a
    deliberate degradation, answered 200 with ``verification: "unavailable: …"`` and no claim
    verdict, and recorded in one whole trace, never a 5xx with half-scored claims."""
    with faulty_server(FAULTS[name]) as url, SqliteEvidenceStore(tmp_path / "s.sqlite") as store:
        app = create_app(app_state(store, embedder=_embedder(url)))
        body = {
            "claims": ["Daily walking lowered blood pressure by 5 mmHg."],
            "evidence": [{"id": "S1", "text": "Daily walking lowered blood pressure by 5 mmHg."}],
        }
        with TestClient(app, raise_server_exceptions=False) as client:
            response = client.post("/v1/verify", json=body)
        assert response.status_code == 200
        answer = response.json()
        assert answer["verification"].startswith("unavailable: embedding failed")
        assert answer["claims"] == []
        (trace,) = store.chain()
        assert trace.id == answer["trace_id"]
        assert trace.verification == answer["verification"]
        assert check_chain([trace]) == []


@pytest.mark.parametrize("name", list(FAULTS))
def test_a_failed_embedding_stores_no_vector_in_the_cache_or_the_store(
    tmp_path: Path, name: str
) -> None:
    doc = FetchedDocument(
        connector="upload",
        external_ids={},
        media_type="text/plain",
        raw=b"Walking study\n\nDaily walking lowered systolic blood pressure by 5 mmHg.\n",
    )
    with faulty_server(FAULTS[name]) as url, SqliteEvidenceStore(tmp_path / "s.sqlite") as store:
        ingest(store, doc, "upload:walk", build_parser())
        with CachedEmbedder(_embedder(url), tmp_path / "cache.sqlite") as cache:
            pending = store.chunks_missing_embedding(cache.model_id, 100)
            assert pending
            with pytest.raises(ProviderError):
                embed_pending(store, cache)
            assert len(cache) == 0
        assert store.chunks_missing_embedding("e", 100) == pending
        assert [v.state for v in store.versions("upload:walk")] == ["parsed"]
