"""LlmRecordChecker: retries on a fake chat model, verify_record on real SQLite, and the whole
path over HTTP to the scripted OpenAI-compatible server (SPEC §5.3–§5.4)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from spanproof.bootstrap import build_parser, build_record_checker
from spanproof.cli.main import cli
from spanproof.config import LlmSettings, Settings
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.core.ports import ChatMessage
from spanproof.core.records import CHECK_NAMES, Record
from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.evidence.check_prompt import build_check_messages, prompt_hash
from spanproof.evidence.checker import check
from spanproof.providers.llm.openai_compat import OpenAICompatibleChatModel
from spanproof.services.ingestion import ingest
from spanproof.services.record_checking import LlmRecordChecker
from spanproof.services.records import extract_records, verify_record
from spanproof.services.review import review_queue
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.fakes import FakeChatModel
from spanproof.testing.scripted_server import ScriptedChatServer

TEXT = b"""Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Treatment with metformin did not change body weight in mice (p = 0.4).
"""
SOURCE = "paper-1"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "store.sqlite"
    with SqliteEvidenceStore(path) as store:
        fetched = FetchedDocument("text", {}, "text/plain", TEXT, title="Metformin")
        assert ingest(store, fetched, SOURCE, build_parser()).status == "new"
    return path


@pytest.fixture
def store(db: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(db) as s:
        yield s


@pytest.fixture
def record(store: SqliteEvidenceStore) -> Record:
    return extract_records(store, SOURCE)[0]


def _passages(record: Record) -> list[str]:
    return [q.text for q in record.quotations]


def _reply(record: Record, label: str = "entailed", failed: Sequence[str] = ()) -> str:
    quote = record.quotations[0].text
    checks = [
        {"name": n, "passed": n not in failed, "note": f"{n} checked", "quote": quote}
        for n in CHECK_NAMES
    ]
    return json.dumps({"label": label, "checks": checks})


# --------------------------------------------------------------------------- the checker alone


def test_bad_then_good_output_is_retried_at_temperature_zero(record: Record) -> None:
    chat = FakeChatModel(["I think it is fine.", _reply(record)], model_id="checker-x")
    checker = LlmRecordChecker(chat)
    verdict = checker(record, _passages(record))
    assert verdict.label == "entailed" and verdict.failed() == ()
    assert verdict.model_id == checker.model_id == "checker-x"
    assert len(chat.calls) == 2 and checker.last_attempts == 2
    assert all(call.temperature == 0.0 for call in chat.calls)
    assert chat.calls[0].messages == chat.calls[1].messages
    assert tuple(build_check_messages(record, _passages(record))) == chat.calls[0].messages
    assert checker.last_prompt_hash == checker.prompt_hash_for(record, _passages(record))


def test_retries_stop_at_the_attempt_budget(record: Record) -> None:
    chat = FakeChatModel(["{}", "[]", "nope", _reply(record)])
    verdict = LlmRecordChecker(chat, attempts=3)(record, _passages(record))
    assert len(chat.calls) == 3
    assert verdict.label == "ambiguous" and verdict.failed() == CHECK_NAMES
    assert all("model output was unusable" in c.note for c in verdict.checks)
    assert "nope" not in verdict.checks[0].note and "not valid JSON" in verdict.checks[0].note


def test_an_entailed_reply_with_a_failed_check_is_retried(record: Record) -> None:
    chat = FakeChatModel([_reply(record, "entailed", ["scope"]), _reply(record, "ambiguous")])
    verdict = LlmRecordChecker(chat)(record, _passages(record))
    assert len(chat.calls) == 2 and verdict.label == "ambiguous"


def test_retryable_provider_failures_cost_attempts(record: Record) -> None:
    chat = FakeChatModel([ProviderError("503", retryable=True), _reply(record)])
    assert LlmRecordChecker(chat)(record, _passages(record)).label == "entailed"
    assert len(chat.calls) == 2


def test_a_non_retryable_provider_failure_is_raised_at_once(record: Record) -> None:
    chat = FakeChatModel([ProviderError("401 bad key"), _reply(record)])
    with pytest.raises(ProviderError, match="401"):
        LlmRecordChecker(chat)(record, _passages(record))
    assert len(chat.calls) == 1


def test_attempts_below_one_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="attempts"):
        LlmRecordChecker(FakeChatModel([]), attempts=0)


# --------------------------------------------------------------------------- through verify_record


def test_all_attempts_unusable_send_the_record_to_review(
    store: SqliteEvidenceStore, record: Record
) -> None:
    chat = FakeChatModel(["not json"] * 3, model_id="checker-x")
    checker = LlmRecordChecker(chat)
    decision = verify_record(store, record, checker=checker)
    assert decision.outcome == "review" and "unusable" in decision.reason
    assert len(chat.calls) == 3  # the checker's attempts, no re-extraction retries
    stored = store.get_record(record.id)
    assert stored is not None and stored.status == "in_review"
    (attempt,) = store.attempts(record.id)
    assert attempt.outcome == "review" and attempt.model_id == "checker-x"
    assert attempt.verdict is not None and attempt.verdict.label == "ambiguous"
    assert attempt.verdict.failed() == CHECK_NAMES
    assert attempt.prompt_hash == checker.prompt_hash_for(record, _passages(record))
    assert [item.record.id for item in review_queue(store)] == [record.id]


def test_a_model_that_never_replies_leaves_the_record_proposed(
    store: SqliteEvidenceStore, record: Record
) -> None:
    chat = FakeChatModel([ProviderError("timeout", retryable=True)] * 3)
    with pytest.raises(ProviderError, match="timeout"):
        verify_record(store, record, checker=LlmRecordChecker(chat))
    assert len(chat.calls) == 3
    stored = store.get_record(record.id)
    assert stored is not None and stored.status == "proposed"
    assert store.attempts(record.id) == []


def test_a_valid_verdict_is_decided_as_usual(store: SqliteEvidenceStore, record: Record) -> None:
    chat = FakeChatModel([_reply(record, "contradicted", ["negation"])])
    decision = verify_record(store, record, checker=LlmRecordChecker(chat))
    assert decision.outcome == "rejected" and decision.failed == ("negation",)


def test_gate_failure_makes_no_model_call(store: SqliteEvidenceStore, record: Record) -> None:
    first = record.quotations[0]
    broken = dataclasses.replace(
        record, quotations=(dataclasses.replace(first, start=first.start + 1, end=first.end + 1),)
    )
    chat = FakeChatModel([_reply(record)])
    decision = verify_record(store, broken, checker=LlmRecordChecker(chat))
    assert decision.outcome == "quarantined"
    assert chat.calls == []
    (attempt,) = store.attempts(record.id)
    assert attempt.stage == "gate" and attempt.model_id == "gate"


def test_the_deterministic_checker_still_records_the_hash_of_what_it_was_shown(
    store: SqliteEvidenceStore, record: Record
) -> None:
    verify_record(store, record, checker=check)
    (attempt,) = store.attempts(record.id)
    shown = {"record": record.to_dict(), "passages": _passages(record)}
    assert attempt.prompt_hash == sha256_hex(canonical_json(shown))
    assert attempt.model_id == "rules-checker-v1"


def test_model_id_and_prompt_hash_reach_the_stored_attempt_over_http(
    store: SqliteEvidenceStore, record: Record
) -> None:
    with (
        ScriptedChatServer(["```json\nnope\n```", _reply(record)]) as server,
        OpenAICompatibleChatModel(server.base_url, "checker-model", backoff=0) as chat,
    ):
        decision = verify_record(store, record, checker=LlmRecordChecker(chat))
    assert decision.outcome == "verified"
    assert len(server.requests) == 2
    body = server.requests[0].body
    assert body["temperature"] == 0 and body["model"] == "checker-model"
    sent = [ChatMessage(m["role"], m["content"]) for m in body["messages"]]
    assert server.requests[1].body["messages"] == body["messages"]
    (attempt,) = store.attempts(record.id)
    assert attempt.model_id == "checker-model"
    assert attempt.verdict is not None and attempt.verdict.model_id == "checker-model"
    assert attempt.prompt_hash == prompt_hash(sent)
    assert attempt.prompt_hash == prompt_hash(build_check_messages(record, _passages(record)))


# --------------------------------------------------------------------------- wiring


def test_build_record_checker_picks_the_llm_only_when_one_is_configured() -> None:
    rules_only = Settings(verify={"record_model_check": False})  # type: ignore[arg-type]
    assert build_record_checker(rules_only) is check
    settings = Settings(llm=LlmSettings(kind="openai", base_url="http://127.0.0.1:9", model="m"))
    checker = build_record_checker(settings)
    assert isinstance(checker, LlmRecordChecker) and checker.model_id == "m"


def test_records_verify_uses_the_configured_llm(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    base = ["--db", str(db)]
    out = runner.invoke(cli, ["records", "extract", SOURCE, *base, "--json"])
    assert out.exit_code == 0, out.output
    records = json.loads(out.output)["records"]
    neutral = json.dumps(
        {
            "label": "ambiguous",
            "checks": [{"name": n, "passed": True, "note": "", "quote": ""} for n in CHECK_NAMES],
        }
    )
    with ScriptedChatServer([neutral] * len(records)) as server:
        monkeypatch.setenv("SPANPROOF_LLM__KIND", "openai")
        monkeypatch.setenv("SPANPROOF_LLM__BASE_URL", server.base_url)
        monkeypatch.setenv("SPANPROOF_LLM__MODEL", "cli-checker")
        out = runner.invoke(cli, ["records", "verify", "--all", *base, "--json"])
        assert out.exit_code == 0, out.output
        assert len(server.requests) == len(records)
    items = json.loads(out.output)["items"]
    assert [(r["outcome"], r["status"]) for r in items] == [("review", "in_review")] * len(records)
    out = runner.invoke(cli, ["records", "show", records[0]["id"], *base, "--json"])
    assert out.exit_code == 0, out.output
    (attempt,) = json.loads(out.output)["attempts"]
    assert attempt["model_id"] == "cli-checker" and len(attempt["prompt_hash"]) == 64
