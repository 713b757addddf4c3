"""Secrets never appear in logs, traces, error bodies or CLI output (SPEC §9, SECURITY.md).

Every secret gets a distinctive canary value. The providers and connectors are pointed at a
loopback server that **echoes** each request (URL, headers, body) back in a 401/403 error, the
worst case for a leak, or at a closed port; the API is driven through bad requests and failing
provider calls; the CLI is run with ``--json``. Then the captured logs (every level), response
bodies, stored traces and CLI output are searched for every canary.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from pydantic import SecretStr

from spanproof.api.app import create_app
from spanproof.api.state import AppState
from spanproof.cli.main import cli
from spanproof.config import ConnectorSettings, EmbedderSettings, LlmSettings, Settings
from spanproof.core.errors import ProviderError, SourceError
from spanproof.core.keys import hash_key, new_api_key
from spanproof.providers.embeddings.openai_compat import OpenAICompatibleEmbedder
from spanproof.providers.llm.anthropic import AnthropicChatModel
from spanproof.providers.llm.openai_compat import OpenAICompatibleChatModel
from spanproof.services.decomposition import LlmDecomposer
from spanproof.services.generation import LlmGenerator
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

LLM_KEY = "sk-llm-CANARY-7f3a91c2e4"
EMBED_KEY = "sk-emb-CANARY-29bd0e5a71"
NCBI_KEY = "ncbi-CANARY-5c1e44b8d0"
API_KEY = "api-CANARY-d4e8a2f693"
EVIDENCE = [{"id": "S1", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."}]


class _Echo(BaseHTTPRequestHandler):
    """Answers every request with an error that repeats the request: path, headers and body."""

    status = 401

    def _echo(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        # The credentials first, so a message that keeps only the start of the body still has them.
        creds = [self.headers.get(h, "") for h in ("Authorization", "X-Api-Key")]
        text = f"rejected {' '.join(creds)} {self.command} {self.path} {dict(self.headers)} {body}"
        payload = json.dumps({"error": {"message": text}}).encode()
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _echo

    def log_message(self, *args: object) -> None:  # keep the test output quiet
        pass


@pytest.fixture
def echo_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def closed_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def assert_clean(*texts: object, extra: tuple[str, ...] = ()) -> None:
    for text in texts:
        for secret in (LLM_KEY, EMBED_KEY, NCBI_KEY, API_KEY, *extra):
            assert secret not in str(text), f"a secret leaked into: {str(text)[:300]}"


def log_texts(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every captured log line, except httpx's request line for NCBI (the known leak pinned by
    :func:`test_httpx_request_logs_carry_no_ncbi_key`)."""
    return [
        caplog.handler.format(r)
        for r in caplog.records
        if not (r.name == "httpx" and NCBI_KEY in r.getMessage())
    ]


def _settings(url: str) -> Settings:
    return Settings(
        llm=LlmSettings(kind="openai", base_url=url, model="m", api_key=SecretStr(LLM_KEY)),
        embedder=EmbedderSettings(api_key=SecretStr(EMBED_KEY)),
        connectors=ConnectorSettings(ncbi_api_key=SecretStr(NCBI_KEY), pubmed_url=url),
    )


def test_settings_never_show_their_secrets(echo_url: str) -> None:
    settings = _settings(echo_url)
    assert_clean(repr(settings), str(settings), settings.model_dump(), settings.model_dump_json())
    assert settings.llm.api_key is not None and settings.llm.api_key.get_secret_value() == LLM_KEY


def test_adapters_redact_secrets_a_provider_echoes_back(
    echo_url: str, closed_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from spanproof.ingest.clients.pubmed import PubMedClient

    caplog.set_level(logging.DEBUG)
    errors: list[BaseException] = []
    for url in (echo_url, closed_url):
        chats = (
            OpenAICompatibleChatModel(url, "m", api_key=LLM_KEY, sleep=lambda _: None),
            AnthropicChatModel("m", LLM_KEY, base_url=url, sleep=lambda _: None),
        )
        for chat in chats:
            with chat, pytest.raises(ProviderError) as caught:
                chat.complete([], temperature=0.0, max_tokens=5)
            errors.append(caught.value)
        embedder = OpenAICompatibleEmbedder(url, "m", api_key=EMBED_KEY, sleep=lambda _: None)
        with embedder, pytest.raises(ProviderError) as caught_embed:
            embedder.embed(["walking"])
        errors.append(caught_embed.value)
        client = PubMedClient(base_url=url, api_key=NCBI_KEY, sleep=lambda _: None)
        with client, pytest.raises(SourceError) as caught_fetch:
            client.fetch("12345")
        errors.append(caught_fetch.value)
    assert any("rejected" in str(e) for e in errors)  # the echo reached the messages, redacted
    assert_clean(*(str(e) for e in errors), *(repr(e) for e in errors))
    assert_clean(*(repr(e.__cause__) for e in errors if e.__cause__ is not None))
    assert_clean(*log_texts(caplog))


def test_httpx_request_logs_carry_no_ncbi_key(
    echo_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from spanproof.ingest.clients.pubmed import PubMedClient

    caplog.set_level(logging.INFO)
    client = PubMedClient(base_url=echo_url, api_key=NCBI_KEY, sleep=lambda _: None)
    with client, pytest.raises(SourceError):
        client.fetch("12345")
    assert_clean(caplog.text)


def _state(store: SqliteEvidenceStore, url: str) -> AppState:
    chat = OpenAICompatibleChatModel(url, "m", api_key=LLM_KEY, sleep=lambda _: None)
    return app_state(
        store, decomposer=LlmDecomposer(chat), generator=LlmGenerator(chat), settings=_settings(url)
    )


def test_the_api_leaks_no_secret_in_bodies_logs_or_traces(
    tmp_path: Path, echo_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    store = SqliteEvidenceStore(tmp_path / "leak.sqlite")
    stored, stored_plain = new_api_key("reader", "read", "2026-12-01T00:00:00+00:00")
    store.add_api_key(stored, hash_key(stored_plain))
    secrets = (stored_plain, hash_key(stored_plain))
    auth = {"Authorization": f"Bearer {API_KEY}"}
    bodies: list[str] = []
    try:
        app = create_app(_state(store, echo_url), api_keys=[API_KEY], max_body_bytes=5_000)
        with TestClient(app, raise_server_exceptions=False) as client:
            requests = [
                ("POST", "/v1/sources", {"text": EVIDENCE[0]["text"], "title": "walking"}, auth),
                ("POST", "/v1/verify", {"claims": ["Walking helps."], "evidence": EVIDENCE}, auth),
                ("POST", "/v1/verify", {"draft": "Walking helps.", "evidence": EVIDENCE}, auth),
                ("POST", "/v1/generate", {"question": "What did walking do?"}, auth),
                ("POST", "/v1/verify", {"nonsense": True}, auth),
                ("POST", "/v1/verify", "x" * 6_000, auth),
                ("GET", "/v1/sources/upload:nope", None, auth),
                ("GET", "/v1/sources", None, {"X-API-Key": "wrong-" + API_KEY[:-1]}),
                ("POST", "/v1/sources", {"text": "x"}, {"X-API-Key": stored_plain}),
                ("GET", "/v1/traces", None, {"X-API-Key": stored_plain}),
                ("GET", "/healthz", None, {}),
                ("GET", "/metrics", None, {}),
                ("GET", "/openapi.json", None, {}),
            ]
            statuses = []
            for method, path, body, headers in requests:
                response = client.request(method, path, json=body, headers=headers)
                statuses.append(response.status_code)
                bodies.append(response.text)
                bodies.append(repr(dict(response.headers)))
            malformed = client.post(
                "/v1/verify",
                content=b"{not json",
                headers={**auth, "Content-Type": "application/json"},
            )
            bodies.append(malformed.text)
            traces = client.get("/v1/traces?limit=500", headers=auth).json()
            for summary in traces:
                bodies.append(client.get(f"/v1/traces/{summary['id']}", headers=auth).text)
        assert statuses[0] == 201 and statuses[1] == 200  # the happy paths ran
        assert "rejected" in caplog.text  # the echoing provider was reached (and redacted)
        assert statuses[7] == 401 and statuses[8] == 403 and statuses[9] == 200
        assert traces, "no trace was written"
        stored_traces = [t.to_json() for t in store.list_traces(limit=500)]
    finally:
        store.close()
    assert_clean(*bodies, *stored_traces, extra=secrets)
    assert_clean(*log_texts(caplog), extra=secrets)


def test_cli_errors_with_json_leak_no_secret(
    tmp_path: Path, echo_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {
        "SPANPROOF_LLM__KIND": "openai",
        "SPANPROOF_LLM__BASE_URL": echo_url,
        "SPANPROOF_LLM__MODEL": "m",
        "SPANPROOF_LLM__API_KEY": LLM_KEY,
        "SPANPROOF_EMBEDDER__API_KEY": EMBED_KEY,
        "SPANPROOF_CONNECTORS__NCBI_API_KEY": NCBI_KEY,
        "SPANPROOF_CONNECTORS__PUBMED_URL": echo_url,
        "SPANPROOF_API_KEYS": API_KEY,
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    db = str(tmp_path / "cli.sqlite")
    draft = tmp_path / "draft.txt"
    draft.write_text("Walking lowered blood pressure.", encoding="utf-8")
    evidence = tmp_path / "evidence.jsonl"
    evidence.write_text(json.dumps(EVIDENCE[0]) + "\n", encoding="utf-8")
    runner = CliRunner()
    made = runner.invoke(cli, ["keys", "create", "ops", "--scope", "write", "--json", "--db", db])
    plain = json.loads(made.stdout)["key"]
    runs = [
        ["verify", "--draft", str(draft), "--evidence", str(evidence), "--json"],
        ["ingest", "pmid:12345", "--json", "--no-embed", "--db", db],
        ["keys", "list", "--json", "--db", db],
        ["keys", "revoke", "nope", "--json", "--db", db],
        ["serve", "--host", "0.0.0.0", "--port", "1", "--db", str(tmp_path / "none.sqlite")],
    ]
    monkeypatch.setattr("spanproof.api.server.serve", lambda *a, **k: None)
    outputs = []
    for args in runs:
        result = runner.invoke(cli, args)
        outputs += [result.stdout, result.stderr, repr(result.exception)]
    assert any("rejected" in text or "error" in text for text in outputs)
    assert_clean(*outputs, extra=(plain, hash_key(plain)))
