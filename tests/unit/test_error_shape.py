"""Every HTTP error answers in one pinned JSON shape (the datasette habit), and no secret leaks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from spanproof.api.app import create_app
from spanproof.api.errors import error_body, spanproof_status
from spanproof.api.state import AppState
from spanproof.core.errors import (
    ConfigurationError,
    InvalidInputError,
    ProviderError,
    StoreError,
)
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

KEY = "sk-very-secret-api-key-0123"
EVIDENCE = [{"id": "S1", "text": "Walking lowered blood pressure."}]


@pytest.fixture
def state(tmp_path: Path) -> Iterator[AppState]:
    store = SqliteEvidenceStore(tmp_path / "e.sqlite")
    yield app_state(store)
    store.close()


@pytest.fixture
def client(state: AppState) -> Iterator[TestClient]:
    with TestClient(create_app(state, max_body_bytes=1000)) as c:
        yield c


def assert_shape(response: Response, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert {"type", "message", "status", "request_id"} <= set(error)
    assert set(error) - {"type", "message", "status", "request_id"} <= {"retryable"}
    assert error["type"] == kind and error["status"] == status
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["request_id"], str) and error["request_id"]
    assert error["request_id"] == response.headers["x-request-id"]
    assert KEY not in response.text
    return dict(error)


def test_malformed_json_is_400(client: TestClient) -> None:
    response = client.post(
        "/v1/verify", content=b'{"claims": [', headers={"Content-Type": "application/json"}
    )
    assert_shape(response, 400, "malformed_json")


def test_invalid_utf8_is_400(client: TestClient) -> None:
    response = client.post(
        "/v1/verify", content=b'{"draft": "\xff\xfe"}', headers={"Content-Type": "application/json"}
    )
    assert_shape(response, 400, "invalid_utf8")


def test_caller_mistake_in_data_is_422(client: TestClient) -> None:
    response = client.post("/v1/generate", json={"question": " "})
    assert_shape(response, 422, "invalid_input")


def test_missing_api_key_is_401_and_never_echoes_keys(state: AppState) -> None:
    with TestClient(create_app(state, api_keys=[KEY])) as client:
        response = client.get("/v1/sources", headers={"Authorization": "Bearer nope"})
        assert_shape(response, 401, "unauthorized")
        assert response.headers["www-authenticate"] == "Bearer"


def test_unknown_route_and_object_are_404(client: TestClient) -> None:
    assert_shape(client.get("/v1/nowhere"), 404, "not_found")
    assert_shape(client.get("/v1/sources/none:1"), 404, "not_found")


def test_wrong_method_is_405(client: TestClient) -> None:
    assert_shape(client.get("/v1/verify"), 405, "method_not_allowed")


def test_declared_oversized_body_is_413_before_parsing(client: TestClient) -> None:
    body = b'{"draft": "' + b"x" * 2000 + b'"}'
    response = client.post("/v1/verify", content=body, headers={"Content-Type": "application/json"})
    assert_shape(response, 413, "payload_too_large")


def test_streamed_oversized_body_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"draft": "'
        for _ in range(20):
            yield b"x" * 100
        yield b'"}'

    response = client.post(
        "/v1/verify", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert "content-length" not in {k.lower() for k in response.request.headers}
    assert_shape(response, 413, "payload_too_large")


def test_wrong_content_type_is_415(client: TestClient) -> None:
    response = client.post("/v1/verify", content=b"draft=x", headers={"Content-Type": "text/plain"})
    assert_shape(response, 415, "unsupported_media_type")


def test_schema_violation_is_422_without_echoing_input(client: TestClient) -> None:
    response = client.post(
        "/v1/verify", json={"claims": ["x"], "evidence": EVIDENCE, "api_key": KEY}
    )
    error = assert_shape(response, 422, "validation_error")
    assert "api_key" in error["message"]


def test_unexpected_failure_is_500_with_nothing_leaked(state: AppState) -> None:
    class Exploding:
        def list_traces(self, **_: Any) -> Any:
            raise RuntimeError(f"db password is {KEY}")

    state.traces = Exploding()  # type: ignore[assignment]
    with TestClient(create_app(state)) as client:
        error = assert_shape(client.get("/v1/traces"), 500, "internal_error")
    assert "password" not in error["message"]


def test_runtime_failures_map_to_502_or_503_with_retryable() -> None:
    assert spanproof_status(ProviderError(f"key {KEY}", retryable=True))[:2] == (
        503,
        "provider_error",
    )
    status, kind, _message, extra = spanproof_status(StoreError("disk", retryable=False))
    assert (status, kind, extra) == (502, "store_error", {"retryable": False})
    assert KEY not in spanproof_status(ProviderError(f"key {KEY}"))[2]
    assert spanproof_status(InvalidInputError("bad line 3"))[:3] == (
        422,
        "invalid_input",
        "bad line 3",
    )
    config = spanproof_status(ConfigurationError(f"SPANPROOF_LLM__API_KEY={KEY} is wrong"))
    assert config[0] == 500 and KEY not in config[2]


def test_store_failure_in_a_route_answers_503_retryable(state: AppState) -> None:
    class Failing:
        def list_sources(self, **_: Any) -> Any:
            raise StoreError("connection refused", retryable=True)

    state.store = Failing()  # type: ignore[assignment]
    with TestClient(create_app(state)) as client:
        error = assert_shape(client.get("/v1/sources"), 503, "store_error")
    assert error["retryable"] is True


def test_error_body_is_the_pinned_shape() -> None:
    assert error_body(404, "no such route", request_id="r1") == {
        "error": {
            "type": "not_found",
            "message": "no such route",
            "status": 404,
            "request_id": "r1",
        }
    }
