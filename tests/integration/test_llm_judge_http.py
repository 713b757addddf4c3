"""The LLM judge over real HTTP to the scripted loopback server: OpenAI-compatible and Anthropic
request shapes, answers, retries, the cache, the fallback to the local judge, replay from stored
judgements, and how bootstrap builds it from settings (issue 14, item 5)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from spanproof.bootstrap import build_judge_for
from spanproof.config import Settings
from spanproof.core.checker import CheckerPair, EntailmentChecker
from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.core.judgement import FallbackJudge, RecordedJudge, judgement_records
from spanproof.core.trace import canonical_json
from spanproof.providers.checker.judge_cache import SqliteJudgementCache
from spanproof.providers.checker.llm_judge import (
    JUDGE_PROMPT_SHA256,
    JUDGE_SYSTEM_PROMPT,
    LlmJudge,
)
from spanproof.providers.llm.anthropic import AnthropicChatModel
from spanproof.providers.llm.openai_compat import OpenAICompatibleChatModel
from spanproof.testing.fakes import FakeChecker
from spanproof.testing.scripted_server import ScriptedChatServer

API_KEY = "sk-judge-CANARY-0b7d3e91f2"
NONE = np.zeros(0, dtype=np.float32)
CLAIM = "Metformin reduced hepatic triglycerides in mice."
WINDOW = "Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice."
OTHER = "Treatment with metformin did not change body weight in mice."
PAIRS: list[CheckerPair] = [(CLAIM, WINDOW, NONE, NONE), (CLAIM, OTHER, NONE, NONE)]


def openai_judge(
    server: ScriptedChatServer, cache: SqliteJudgementCache | None = None, **kwargs: object
) -> LlmJudge:
    chat = OpenAICompatibleChatModel(
        server.base_url + "/v1", "judge-model", api_key=API_KEY, sleep=lambda _: None
    )
    return LlmJudge(chat, cache, **kwargs)  # type: ignore[arg-type]


def test_openai_compatible_request_is_minicheck_shaped_at_temperature_zero() -> None:
    replies = ['```json\n{"label": "supported"}\n```', '{"label": "unsupported"}']
    with ScriptedChatServer(replies) as server:
        rows = openai_judge(server).check(PAIRS)
    assert rows.tolist() == [[1, 0, 0], [0, 0, 1]]
    first, second = server.requests
    assert first.path == "/v1/chat/completions"
    assert first.headers["authorization"] == f"Bearer {API_KEY}"
    assert first.body == {
        "model": "judge-model",
        "messages": [
            {"role": "system", "content": JUDGE_SYSTEM_PROMPT},
            {"role": "user", "content": f"Document: {WINDOW}\nClaim: {CLAIM}"},
        ],
        "temperature": 0.0,
        "max_tokens": 64,
    }
    assert second.body["messages"][1]["content"] == f"Document: {OTHER}\nClaim: {CLAIM}"


def test_anthropic_request_carries_the_prompt_as_system_and_reads_yes_no() -> None:
    with ScriptedChatServer(["Yes", "No."]) as server:
        chat = AnthropicChatModel("claude-test", API_KEY, base_url=server.base_url)
        judge = LlmJudge(chat)
        rows = judge.check(PAIRS)
    assert rows.tolist() == [[1, 0, 0], [0, 0, 1]]
    request = server.requests[0]
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == API_KEY
    assert request.body["temperature"] == 0.0
    assert request.body["system"] == JUDGE_SYSTEM_PROMPT
    assert request.body["messages"] == [
        {"role": "user", "content": f"Document: {WINDOW}\nClaim: {CLAIM}"}
    ]
    assert judge.model_id == f"llm-judge:claude-test@prompt:{JUDGE_PROMPT_SHA256['json'][:12]}"
    assert judge.last_stats.calls == 2
    assert judge.last_stats.usage.input_tokens == 22  # the server reports 11 per call


def test_minicheck_prompt_sends_only_document_and_claim() -> None:
    with ScriptedChatServer(["Yes"]) as server:
        assert openai_judge(server, prompt="minicheck").check(PAIRS[:1]).tolist() == [[1, 0, 0]]
    assert server.requests[0].body["messages"] == [
        {"role": "user", "content": f"Document: {WINDOW}\nClaim: {CLAIM}"}
    ]


def test_a_three_way_answer_is_read_as_contradicted() -> None:
    with ScriptedChatServer(['{"label": "contradicted"}']) as server:
        assert openai_judge(server).check(PAIRS[1:]).tolist() == [[0, 1, 0]]


def test_garbage_is_asked_three_times_then_the_call_fails() -> None:
    with ScriptedChatServer(["Sure!", "I believe so.", "It depends."]) as server:
        with pytest.raises(ProviderError, match=r"no valid reply in 3 attempt\(s\)"):
            openai_judge(server).check(PAIRS[:1])
        assert len(server.requests) == 3 and server.remaining == 0


def test_a_cached_judgement_makes_no_second_request(tmp_path: Path) -> None:
    path = tmp_path / "judgements.sqlite"
    with ScriptedChatServer(["Yes", "No"]) as server:
        with SqliteJudgementCache(path) as cache:
            first = openai_judge(server, cache).check(PAIRS)
        with SqliteJudgementCache(path) as cache:
            judge = openai_judge(server, cache)
            again = judge.check(PAIRS)
            assert judge.last_stats.cache_hits == 2 and judge.last_stats.calls == 0
        assert len(server.requests) == 2
    assert again.tobytes() == first.tobytes()


def test_failure_falls_back_to_the_local_judge_without_leaking_the_key() -> None:
    echo = {"error": {"message": f"invalid x-api-key {API_KEY}"}}
    local = FakeChecker((0.25, 0.25, 0.5), "local-judge")
    with ScriptedChatServer([(401, echo)]) as server:
        judge = FallbackJudge(openai_judge(server), local, secrets=(API_KEY,))
        rows = judge.check(PAIRS)
    assert np.array_equal(rows, np.tile(np.float32([0.25, 0.25, 0.5]), (2, 1)))
    assert judge.model_id == "local-judge"
    note = judge.fallback_note
    assert note is not None and note.startswith("judge: llm failed (ProviderError: ")
    assert "HTTP 401" in note and note.endswith("local judge used")
    assert API_KEY not in note


def test_an_unreachable_endpoint_falls_back_too() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens on it
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    chat = OpenAICompatibleChatModel(f"http://127.0.0.1:{port}", "m", sleep=lambda _: None)
    judge = FallbackJudge(LlmJudge(chat), FakeChecker(model_id="local-judge"))
    judge.check(PAIRS[:1])
    assert judge.model_id == "local-judge"
    assert judge.fallback_reason is not None and "ConnectError" in judge.fallback_reason


def test_stored_judgements_replay_without_calling_the_model() -> None:
    with ScriptedChatServer(["Yes", '{"label": "refuted"}']) as server:
        judge = openai_judge(server)
        probabilities = judge.check(PAIRS)
        stored = canonical_json(judgement_records(judge, PAIRS, probabilities))
    replayed = RecordedJudge.from_records(json.loads(stored))  # the server is gone
    assert replayed.model_id == judge.model_id
    assert replayed.check(PAIRS).tobytes() == probabilities.tobytes()
    with pytest.raises(ProviderError, match="no stored judgement"):
        replayed.check([("Another claim.", WINDOW, NONE, NONE)])


# ----------------------------------------------------------------------------- bootstrap


def _settings(tmp_path: Path, **groups: object) -> Settings:
    embedder = {"cache_dir": tmp_path, **groups.pop("embedder", {})}  # type: ignore[dict-item]
    return Settings(embedder=embedder, **groups)  # type: ignore[arg-type]


def test_local_is_the_default_judge(tmp_path: Path) -> None:
    judge = build_judge_for(_settings(tmp_path))
    assert Settings().verify.judge == "local"
    assert isinstance(judge, EntailmentChecker) and not isinstance(judge, FallbackJudge)


def test_bootstrap_builds_the_cached_llm_judge_with_the_local_fallback(tmp_path: Path) -> None:
    with ScriptedChatServer(["Yes", "No", "garbage", "garbage", "garbage"]) as server:
        endpoint = {"kind": "openai", "base_url": server.base_url + "/v1"}
        settings = _settings(
            tmp_path,
            verify={"judge": "llm", "judge_prompt": "minicheck"},
            judge_llm={**endpoint, "model": "bespoke-minicheck", "api_key": API_KEY},
            llm={**endpoint, "model": "generator"},
        )
        judge = build_judge_for(settings)
        assert isinstance(judge, FallbackJudge) and isinstance(judge.primary, LlmJudge)
        assert judge.model_id.startswith("llm-judge:bespoke-minicheck@prompt:")
        assert judge.check(PAIRS).tolist() == [[1, 0, 0], [0, 0, 1]]
        assert judge.fallback_reason is None
        assert build_judge_for(settings).check(PAIRS).tolist() == [[1, 0, 0], [0, 0, 1]]
        assert len(server.requests) == 2  # the second judge read the cache
        assert (tmp_path / "judgements.sqlite").is_file()
        rows = judge.check([("A new claim.", WINDOW, NONE, NONE)])
        judge.close()
    assert rows.shape == (1, 3) and judge.fallback_reason is not None
    assert judge.model_id == judge.fallback.model_id
    assert np.isclose(rows.sum(), 1.0, atol=1e-4)
    assert API_KEY not in judge.fallback_reason


def test_the_llm_group_serves_when_the_judge_has_no_endpoint_of_its_own(tmp_path: Path) -> None:
    with ScriptedChatServer(['{"label": "supported"}']) as server:
        settings = _settings(
            tmp_path,
            verify={"judge": "llm"},
            llm={"kind": "openai", "base_url": server.base_url, "model": "generator"},
            embedder={"cache": False},
        )
        judge = build_judge_for(settings)
        assert judge.check(PAIRS[:1]).tolist() == [[1, 0, 0]]
    assert judge.model_id.startswith("llm-judge:generator@prompt:")
    assert server.requests[0].body["messages"][0]["content"] == JUDGE_SYSTEM_PROMPT
    assert not (tmp_path / "judgements.sqlite").exists()


def test_an_llm_judge_without_an_endpoint_says_how_to_configure_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="SPANPROOF_JUDGE_LLM__KIND"):
        build_judge_for(_settings(tmp_path, verify={"judge": "llm"}))
    with pytest.raises(ConfigurationError, match="SPANPROOF_JUDGE_LLM__BASE_URL"):
        build_judge_for(_settings(tmp_path, verify={"judge": "llm"}, judge_llm={"kind": "openai"}))


def test_unknown_judge_settings_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPANPROOF_VERIFY__JUDGE", "gpt")
    with pytest.raises(ValidationError, match=r"verify\.judge[\s\S]*'local' or 'llm'"):
        Settings()
    monkeypatch.setenv("SPANPROOF_VERIFY__JUDGE", "llm")
    monkeypatch.setenv("SPANPROOF_VERIFY__JUDGE_PROMPT", "chatty")
    with pytest.raises(ValidationError, match="'json' or 'minicheck'"):
        Settings()
    monkeypatch.setenv("SPANPROOF_VERIFY__JUDGE_PROMPT", "minicheck")
    monkeypatch.setenv("SPANPROOF_JUDGE_LLM__KIND", "openai")
    settings = Settings()
    assert settings.verify.judge == "llm" and settings.verify.judge_prompt == "minicheck"
    assert settings.judge_llm.kind == "openai"
