"""Bad input the schema cannot describe: lone surrogates, hostile text, slow and vanishing clients.

Malformed JSON, invalid UTF-8, wrong content types, oversized bodies and unknown ids are pinned in
``tests/unit/test_error_shape.py``, ``tests/integration/test_api.py`` and the impact and review
API tests; this file adds what they lack.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from fuzz_kit import hostile_text
from fuzz_run import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from spanproof.api.app import create_app
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = SqliteEvidenceStore(tmp_path_factory.mktemp("robust") / "r.sqlite")
    with TestClient(create_app(app_state(store)), raise_server_exceptions=False) as c:
        yield c
    store.close()


def assert_error(response: httpx.Response, status: int, kind: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert (error["status"], error["type"]) == (status, kind)
    assert error["request_id"] == response.headers["x-request-id"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/sources", rb'{"text": "\ud800 walking"}'),
        (
            "/v1/verify",
            rb'{"draft": "Walking helps.", "evidence": [{"id": "a", "text": "x\udfff"}]}',
        ),
        (
            "/v1/verify",
            rb'{"claims": ["\ud83d"], "evidence": [{"id": "a", "text": "x", "m": "\udc00"}]}',
        ),
        ("/v1/generate", rb'{"question": "why \ud800?"}'),
    ],
)
def test_a_lone_surrogate_escape_is_400_not_500(client: TestClient, path: str, body: bytes) -> None:
    assert_error(client.post(path, content=body, headers=JSON), 400, "invalid_utf8")


def test_escaped_backslashes_and_surrogate_pairs_are_still_text(client: TestClient) -> None:
    body = rb'{"text": "C:\\ud800 and \ud83d\ude00 are fine", "title": "t"}'
    response = client.post("/v1/sources", content=body, headers=JSON)
    assert response.status_code == 201, response.text


@fuzz_settings(60)
@given(draft=hostile_text, evidence=st.lists(hostile_text, min_size=1, max_size=3))
def test_hostile_text_never_makes_verify_fail_on_the_server(
    client: TestClient, draft: str, evidence: list[str]
) -> None:
    payload = {
        "draft": draft,
        "evidence": [{"id": f"e{i}", "text": t} for i, t in enumerate(evidence)],
    }
    body = json.dumps(payload).encode()  # ensure_ascii: surrogates travel as \\ud800 escapes
    response = client.post("/v1/verify", content=body, headers=JSON)
    assert response.status_code < 500, response.text
    assert response.status_code in (200, 400, 422), response.text


@fuzz_settings(40)
@given(
    text=hostile_text,
    media=st.sampled_from(
        ["text/plain", "text/markdown", "text/html", "text/csv", "application/octet-stream"]
    ),
)
def test_hostile_text_uploads_are_stored_quarantined_or_refused(
    client: TestClient, text: str, media: str
) -> None:
    body = json.dumps({"text": text, "media_type": media}).encode()
    response = client.post("/v1/sources", content=body, headers=JSON)
    assert response.status_code in (200, 201, 400, 422), response.text
    if response.status_code == 201:
        assert response.json()["status"] in ("new", "quarantined")
    if response.status_code == 200:  # these bytes were stored before: nothing created
        assert response.json()["status"] == "duplicate"


# --- a real server: slow and vanishing clients ----------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    store = SqliteEvidenceStore(tmp_path / "srv.sqlite")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    config = uvicorn.Config(
        create_app(app_state(store), max_body_bytes=50_000),
        host="127.0.0.1",
        port=port,
        log_level="critical",
        lifespan="off",
        ws="none",
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    yield "127.0.0.1", port
    srv.should_exit = True
    thread.join(timeout=10)
    store.close()


def _headers(path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def _healthy(host: str, port: int) -> None:
    response = httpx.get(f"http://{host}:{port}/healthz", timeout=5)
    assert response.status_code == 200


def test_a_partial_body_then_disconnect_neither_5xx_nor_hangs_the_server(
    server: tuple[str, int], caplog: pytest.LogCaptureFixture
) -> None:
    host, port = server
    for path in ("/v1/verify", "/v1/sources", "/v1/generate"):
        with socket.create_connection((host, port), timeout=5) as sock:
            sock.sendall(_headers(path, 5000) + b'{"draft": "Walking lo')
            time.sleep(0.1)
        _healthy(host, port)
    with caplog.at_level(logging.ERROR, logger="spanproof.api"):
        _healthy(host, port)
    assert not [r for r in caplog.records if r.name == "spanproof.api"], caplog.text


def test_a_body_sent_slowly_in_pieces_is_answered_normally(server: tuple[str, int]) -> None:
    host, port = server
    body = json.dumps(
        {
            "claims": ["Walking lowered blood pressure."],
            "evidence": [{"id": "S1", "text": "Walking lowered blood pressure."}],
        }
    ).encode()
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(_headers("/v1/verify", len(body)))
        for i in range(0, len(body), 16):
            sock.sendall(body[i : i + 16])
            time.sleep(0.02)
        reply = sock.recv(65536)
    assert reply.startswith(b"HTTP/1.1 200"), reply[:200]
    _healthy(host, port)


def test_a_client_that_stops_sending_does_not_block_other_requests(
    server: tuple[str, int],
) -> None:
    host, port = server
    stalled = socket.create_connection((host, port), timeout=5)
    try:
        stalled.sendall(_headers("/v1/verify", 1000) + b'{"dra')
        started = time.monotonic()
        _healthy(host, port)
        response = httpx.post(
            f"http://{host}:{port}/v1/verify", content=b"{", headers=JSON, timeout=5
        )
        assert_error(response, 400, "malformed_json")
        assert time.monotonic() - started < 5
    finally:
        stalled.close()
