"""Schemathesis over the in-process app: the checks, and one runner for the test and the script.

The app serves a fresh ``SqliteEvidenceStore`` with the offline pieces (``app_state``). Every
operation of ``/openapi.json`` is called with schema-valid (positive) and schema-breaking
(negative) cases; each response must not be a 5xx, must match its documented schema, and every
4xx must be the one error shape ``{"error": {"type", "message", "status", "request_id"}}``.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, CheckContext, GenerationMode, Response
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from spanproof.api.app import create_app
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state

ERROR_KEYS = {"type", "message", "status", "request_id"}
#: Besides ``retryable``: the keys of OpenAI's error shape, which /v1/chat/completions answers in.
EXTRA_ERROR_KEYS = {"retryable", "param", "code"}


@schemathesis.check
def error_shape(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """Every 4xx answers ``{"error": {"type", "message", "status", "request_id"}}``."""
    if not 400 <= response.status_code < 500:
        return None
    try:
        body = json.loads(response.content)
    except ValueError as exc:
        raise AssertionError(
            f"{response.status_code} body is not JSON: {response.content[:200]!r}"
        ) from exc
    assert isinstance(body, dict) and set(body) == {"error"}, f"not the error shape: {body!r:.300}"
    error = body["error"]
    assert set(error) >= ERROR_KEYS, f"error lacks {ERROR_KEYS - set(error)}: {error!r:.300}"
    assert set(error) - ERROR_KEYS <= EXTRA_ERROR_KEYS, (
        f"extra error keys: {set(error) - ERROR_KEYS}"
    )
    assert error["status"] == response.status_code, error
    assert isinstance(error["type"], str) and error["type"], error
    assert isinstance(error["message"], str) and error["message"], error
    assert error["request_id"] == response.headers.get("x-request-id", [""])[0], error
    return None


@schemathesis.check
def no_server_error(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """No 5xx, but for the chat proxy's documented 503 while no upstream is configured."""
    if response.status_code == 503 and b'"upstream_not_configured"' in response.content:
        return None
    return not_a_server_error(ctx, response, case)


CHECKS = [no_server_error, response_schema_conformance, error_shape]


@contextmanager
def fuzz_app(folder: Path) -> Iterator[Any]:
    """The app over a fresh SQLite store in ``folder``."""
    store = SqliteEvidenceStore(folder / "api-fuzz.sqlite")
    try:
        yield create_app(app_state(store))
    finally:
        store.close()


@dataclass
class ApiTally:
    """Per operation and mode: cases sent, statuses seen, and the failures found."""

    cases: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    failures: dict[str, str] = field(default_factory=dict)
    unsatisfiable: list[str] = field(default_factory=list)


def fuzz_api(app: Any, examples: int, *, derandomize: bool = True) -> ApiTally:
    """Run every operation in both modes; failures are collected (one per operation and mode)."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    tally = ApiTally()
    logging.getLogger("spanproof.api").disabled = True  # the 500s it logs are what we count
    try:
        for result in schema.get_all_operations():
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                label = f"{operation.label} [{mode.value}]"
                _run_operation(operation, mode, label, examples, derandomize, tally)
    finally:
        logging.getLogger("spanproof.api").disabled = False
    return tally


def _run_operation(
    operation: Any, mode: GenerationMode, label: str, examples: int, derandomize: bool,
    tally: ApiTally,
) -> None:  # fmt: skip
    @settings(
        max_examples=examples,
        derandomize=derandomize,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Case) -> None:
        response = case.call()
        tally.cases[label] += 1
        tally.statuses[f"{label} {response.status_code}"] += 1
        case.validate_response(response, checks=CHECKS)

    try:
        run()
    except Unsatisfiable:  # nothing in this operation can be made schema-invalid
        tally.unsatisfiable.append(label)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # schemathesis raises its FailureGroup (an exception group)
        tally.failures[label] = f"{type(exc).__name__}: {str(exc)[:3000]}"
