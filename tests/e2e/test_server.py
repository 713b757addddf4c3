"""A real uvicorn server on loopback, called over TCP with httpx; and ``spanproof serve`` refusing
an open bind without an API key."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from click.testing import CliRunner

from spanproof.api.app import create_app
from spanproof.api.server import api_keys_from, check_bind, is_loopback
from spanproof.api.state import AppState
from spanproof.cli.main import cli
from spanproof.config import Settings
from spanproof.core.errors import ConfigurationError
from spanproof.services.answering import Engine
from spanproof.services.generation import ExtractiveGenerator
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verifier import Verifier
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import V2

KEY = "e2e-key-123"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    store = SqliteEvidenceStore(tmp_path / "srv.sqlite")
    embedder = FakeEmbedder()
    decomposer = RuleBasedDecomposer()
    state = AppState(
        settings=Settings(),
        store=store,
        traces=store,
        verifier=Verifier(embedder=embedder, decomposer=decomposer, score_model=V2),
        engine=Engine(
            store=store,
            traces=store,
            embedder=embedder,
            decomposer=decomposer,
            generator=ExtractiveGenerator(embedder),
            score_model=V2,
        ),
    )
    port = free_port()
    config = uvicorn.Config(
        create_app(state, api_keys=[KEY], max_body_bytes=50_000),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        ws="none",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    store.close()


def test_real_server_ingests_searches_generates_and_serves_the_trace(base_url: str) -> None:
    headers = {"Authorization": f"Bearer {KEY}"}
    with httpx.Client(base_url=base_url, timeout=30) as http:
        assert http.get("/healthz").json()["status"] == "ok"
        assert http.get("/v1/sources").status_code == 401
        text = "Daily walking\n\nDaily walking lowered systolic blood pressure by 5 mmHg."
        added = http.post("/v1/sources", json={"text": text, "title": "Walk"}, headers=headers)
        assert added.status_code == 201 and added.json()["status"] == "new"
        hits = http.get("/v1/search", params={"q": "walking"}, headers=headers).json()
        assert hits[0]["source"] == added.json()["source_id"]
        answer = http.post(
            "/v1/generate",
            json={"question": "What did daily walking do to blood pressure?"},
            headers={"X-API-Key": KEY},
        ).json()
        assert answer["verification"] == "verified" and answer["trace_id"]
        trace = http.get(f"/v1/traces/{answer['trace_id']}", headers=headers)
        assert trace.status_code == 200 and trace.json()["id"] == answer["trace_id"]
        verify = http.post(
            "/v1/verify",
            json={
                "claims": ["Walking lowered blood pressure."],
                "evidence": [{"id": 1, "text": text}],
            },
            headers=headers,
        )
        assert verify.status_code == 200 and verify.json()["verification"] == "verified"
        big = http.post(
            "/v1/verify",
            content=b"x" * 60_000,
            headers={**headers, "Content-Type": "application/json"},
        )
        assert big.status_code == 413 and big.json()["error"]["type"] == "payload_too_large"
        metrics = http.get("/metrics").text
        assert 'method="POST",route="/v1/generate",status="200"' in metrics


def test_serve_refuses_an_open_bind_without_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPANPROOF_API_KEYS", raising=False)

    def must_not_bind(*_: object, **__: object) -> None:
        raise AssertionError("serve must refuse before binding")

    monkeypatch.setattr("spanproof.api.server.serve", must_not_bind)
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 3
    assert "refusing to serve on '0.0.0.0' without an API key" in result.stderr


def test_serve_with_a_key_from_the_environment_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int, list[str]]] = []
    monkeypatch.setenv("SPANPROOF_API_KEYS", "k1, k2")
    monkeypatch.setattr(
        "spanproof.api.server.serve",
        lambda host, port, **kw: calls.append((host, port, list(kw["api_keys"]))),
    )
    port = free_port()  # serve checks that the port is free before it starts
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", str(port)])
    assert result.exit_code == 0, result.stderr
    assert calls == [("0.0.0.0", port, ["k1", "k2"])]
    assert "k1" not in result.stderr


def test_loopback_rule() -> None:
    for host in ("127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost", "LOCALHOST"):
        assert is_loopback(host), host
    for host in ("0.0.0.0", "::", "192.168.1.2", "example.org", ""):
        assert not is_loopback(host), host
    check_bind("127.0.0.1", [])
    check_bind("0.0.0.0", ["k"])
    with pytest.raises(ConfigurationError):
        check_bind("0.0.0.0", [])
    assert api_keys_from(("a", " "), "b,a,,c") == ["a", "b", "c"]


def test_serve_on_an_open_bind_starts_with_a_stored_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real serve(), up to the point where uvicorn would bind: a key stored with
    # `spanproof keys create` allows an open bind, as the README says (serve() used to check the
    # bind again without the stored keys and refuse).
    monkeypatch.delenv("SPANPROOF_API_KEYS", raising=False)
    db = str(tmp_path / "k.sqlite")
    created = CliRunner().invoke(cli, ["keys", "create", "w", "--scope", "write", "--db", db])
    assert created.exit_code == 0, created.stderr
    ran: list[str] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: ran.append(kw["host"]))
    port = free_port()
    result = CliRunner().invoke(
        cli, ["serve", "--db", db, "--host", "0.0.0.0", "--port", str(port)]
    )
    assert result.exit_code == 0, result.stderr
    assert ran == ["0.0.0.0"] and "API keys: on" in result.stdout + result.stderr
