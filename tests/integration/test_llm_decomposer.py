"""LlmDecomposer over OpenAICompatibleChatModel against ScriptedChatServer on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest

from spanproof.core.errors import DecomposeError, ProviderError
from spanproof.core.models import Claim
from spanproof.core.ports import Decomposer, Usage
from spanproof.providers.llm.openai_compat import OpenAICompatibleChatModel
from spanproof.services.decomposition import LlmDecomposer
from spanproof.testing.fakes import FakeChatModel
from spanproof.testing.scripted_server import ScriptedChatServer, ScriptedReply
from spanproof.verify.decompose import (
    DECOMPOSE_SYSTEM_PROMPT,
    build_decompose_messages,
    prompt_hash,
)

DRAFT = "Aspirin reduced pain [S1], and ibuprofen lowered fever [S2]."
VALID = json.dumps(
    [
        {"claimText": "Aspirin reduced pain", "draftSpan": [0, 25], "citedMarkers": ["S1"]},
        {"claimText": "ibuprofen lowered fever", "draftSpan": [31, 59], "citedMarkers": ["S2"]},
    ]
)
EXPECTED = [
    Claim("c1", "Aspirin reduced pain", (0, 25), ("S1",)),
    Claim("c2", "ibuprofen lowered fever", (31, 59), ("S2",)),
]
OUT_OF_BOUNDS = json.dumps([{"claimText": "x", "draftSpan": [0, 500], "citedMarkers": []}])


@contextmanager
def decomposer_over(
    replies: Sequence[ScriptedReply], attempts: int = 3
) -> Iterator[tuple[LlmDecomposer, ScriptedChatServer]]:
    with (
        ScriptedChatServer(replies, usage=(100, 20)) as server,
        OpenAICompatibleChatModel(server.base_url, "decomposer-model", backoff=0) as chat,
    ):
        yield LlmDecomposer(chat, attempts=attempts), server


def test_valid_reply_on_the_first_attempt_gives_claims() -> None:
    with decomposer_over([VALID]) as (decomposer, server):
        assert isinstance(decomposer, Decomposer)
        assert decomposer.decompose(DRAFT) == EXPECTED
        assert len(server.requests) == 1
        assert decomposer.last_attempts == 1
        assert decomposer.model_id == "decomposer-model"
        assert decomposer.last_model == "decomposer-model"


def test_request_is_temperature_zero_with_the_fixed_system_prompt() -> None:
    with decomposer_over([VALID]) as (decomposer, server):
        decomposer.decompose(DRAFT)
        [request] = server.requests
        assert request.path == "/v1/chat/completions"
        assert request.body["temperature"] == 0.0
        assert request.body["model"] == "decomposer-model"
        messages = request.body["messages"]
        assert messages[0] == {"role": "system", "content": DECOMPOSE_SYSTEM_PROMPT}
        assert messages[1]["role"] == "user"
        assert DRAFT in messages[1]["content"]
        assert decomposer.last_prompt_hash == prompt_hash(build_decompose_messages(DRAFT))


def test_fenced_json_reply_is_accepted() -> None:
    with decomposer_over([f"```json\n{VALID}\n```"]) as (decomposer, _):
        assert decomposer.decompose(DRAFT) == EXPECTED


def test_malformed_then_valid_succeeds_on_the_second_attempt_with_usage_summed() -> None:
    with decomposer_over(["Sure! Here are the claims: [", VALID]) as (decomposer, server):
        assert decomposer.decompose(DRAFT) == EXPECTED
        assert len(server.requests) == 2
        assert decomposer.last_attempts == 2
        assert decomposer.last_usage == Usage(200, 40)
        assert server.requests[0].body == server.requests[1].body


def test_out_of_bounds_spans_then_valid_succeeds() -> None:
    with decomposer_over([OUT_OF_BOUNDS, VALID]) as (decomposer, server):
        assert decomposer.decompose(DRAFT) == EXPECTED
        assert len(server.requests) == 2


def test_three_failures_raise_decompose_error_after_exactly_three_requests() -> None:
    replies = ["not json", OUT_OF_BOUNDS, f"Claims:\n```json\n{VALID}\n```", VALID]
    with decomposer_over(replies) as (decomposer, server):
        with pytest.raises(DecomposeError) as caught:
            decomposer.decompose(DRAFT)
        assert caught.value.attempts == 3
        assert str(caught.value).startswith("no valid claims after 3 attempts: invalid reply:")
        assert "code fence" in str(caught.value)
        assert len(server.requests) == 3
        assert server.remaining == 1
        assert decomposer.last_usage == Usage(300, 60)


def test_retryable_provider_failures_count_as_attempts() -> None:
    # The adapter makes up to 3 HTTP attempts per call; two 500s exhaust it once.
    with ScriptedChatServer([(500, {"error": "boom"})] * 2 + [VALID]) as server:
        chat = OpenAICompatibleChatModel(server.base_url, "m", max_attempts=2, backoff=0)
        with chat:
            decomposer = LlmDecomposer(chat)
            assert decomposer.decompose(DRAFT) == EXPECTED
            assert decomposer.last_attempts == 2
            assert len(server.requests) == 3


def test_blank_draft_gives_no_claims_without_calling_the_model() -> None:
    with decomposer_over([VALID]) as (decomposer, server):
        assert decomposer.decompose("  \n ") == []
        assert server.requests == []


def test_non_retryable_provider_error_stops_at_once() -> None:
    fake = FakeChatModel([ProviderError("HTTP 401", retryable=False), VALID])
    decomposer = LlmDecomposer(fake)
    with pytest.raises(DecomposeError, match="not retryable: model call failed: HTTP 401") as err:
        decomposer.decompose(DRAFT)
    assert err.value.attempts == 1
    assert len(fake.calls) == 1


def test_fake_chat_model_drives_the_same_contract() -> None:
    fake = FakeChatModel(["[]", VALID])
    decomposer = LlmDecomposer(fake, attempts=1)
    assert decomposer.decompose(DRAFT) == []
    assert decomposer.decompose(DRAFT) == EXPECTED
    assert [call.temperature for call in fake.calls] == [0.0, 0.0]
    assert decomposer.model_id == "fake-chat"
