"""The chat adapters against ScriptedChatServer on loopback: shapes, retries and errors."""

from __future__ import annotations

import pytest

from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.core.ports import ChatMessage, ChatModel, ChatResult, Usage
from spanproof.providers.llm.anthropic import AnthropicChatModel
from spanproof.providers.llm.openai_compat import OpenAICompatibleChatModel
from spanproof.testing.scripted_server import ScriptedChatServer, ScriptedReply

API_KEY = "sk-test-0123456789-do-not-leak"
MESSAGES = [ChatMessage("system", "Be terse."), ChatMessage("user", "Say hi.")]


def openai(
    server: ScriptedChatServer,
    *,
    backoff: float = 0.5,
    waits: list[float] | None = None,
) -> OpenAICompatibleChatModel:
    sleeps = [] if waits is None else waits
    return OpenAICompatibleChatModel(
        server.base_url, "gpt-test", api_key=API_KEY, backoff=backoff, sleep=sleeps.append
    )


def anthropic(
    server: ScriptedChatServer, *, max_attempts: int = 3, backoff: float = 0.5
) -> AnthropicChatModel:
    return AnthropicChatModel(
        "claude-test",
        API_KEY,
        base_url=server.base_url,
        max_attempts=max_attempts,
        backoff=backoff,
        sleep=lambda _: None,
    )


# --------------------------------------------------------------------- OpenAI-compatible


def test_openai_happy_path_sends_the_request_and_reads_text_model_and_usage() -> None:
    with ScriptedChatServer(["hi"], usage=(12, 3)) as server, openai(server) as chat:
        assert isinstance(chat, ChatModel)
        result = chat.complete(MESSAGES, temperature=0.0, max_tokens=50)
        assert result == ChatResult("hi", "gpt-test", Usage(12, 3))
        [request] = server.requests
        assert request.path == "/v1/chat/completions"
        assert request.headers["authorization"] == f"Bearer {API_KEY}"
        assert request.body == {
            "model": "gpt-test",
            "messages": [
                {"role": "system", "content": "Be terse."},
                {"role": "user", "content": "Say hi."},
            ],
            "temperature": 0.0,
            "max_tokens": 50,
        }


def test_openai_base_url_may_end_with_v1_and_key_is_optional() -> None:
    with (
        ScriptedChatServer(["hi"]) as server,
        OpenAICompatibleChatModel(server.base_url + "/v1/", "local") as chat,
    ):
        assert chat.complete(MESSAGES).text == "hi"
        [request] = server.requests
        assert request.path == "/v1/chat/completions"
        assert "authorization" not in request.headers


def test_openai_retries_429_then_succeeds() -> None:
    replies: list[ScriptedReply] = [(429, {"error": {"message": "slow down"}}), "hi"]
    waits: list[float] = []
    with ScriptedChatServer(replies) as server, openai(server, backoff=0.25, waits=waits) as chat:
        assert chat.complete(MESSAGES).text == "hi"
        assert len(server.requests) == 2
        assert waits == [0.25]


def test_openai_500_until_attempts_run_out_is_a_retryable_provider_error() -> None:
    replies = [(500, {"error": "boom"})] * 3
    waits: list[float] = []
    with ScriptedChatServer(replies) as server, openai(server, backoff=0.25, waits=waits) as chat:
        with pytest.raises(ProviderError, match="HTTP 500 after 3 attempts") as caught:
            chat.complete(MESSAGES)
        assert caught.value.retryable is True
        assert len(server.requests) == 3
        assert waits == [0.25, 0.5]


def test_openai_401_is_not_retryable_and_never_shows_the_key() -> None:
    body = {"error": {"message": f"Incorrect API key provided: {API_KEY}"}}
    with ScriptedChatServer([(401, body), "hi"]) as server, openai(server) as chat:
        with pytest.raises(ProviderError) as caught:
            chat.complete(MESSAGES)
        assert caught.value.retryable is False
        assert "HTTP 401" in str(caught.value)
        assert API_KEY not in str(caught.value)
        assert "[redacted]" in str(caught.value)
        assert len(server.requests) == 1


def test_openai_reply_without_text_is_a_provider_error() -> None:
    replies = [(200, {"choices": [{"message": {"content": None}}]})]
    with ScriptedChatServer(replies) as server, openai(server) as chat:
        with pytest.raises(ProviderError, match="content is not text") as caught:
            chat.complete(MESSAGES)
        assert caught.value.retryable is False


def test_openai_unreachable_server_is_a_retryable_provider_error_without_the_key() -> None:
    with ScriptedChatServer([]) as server:
        url = server.base_url
    with OpenAICompatibleChatModel(url, "m", api_key=API_KEY, backoff=0, timeout=5) as chat:
        with pytest.raises(ProviderError, match="after 3 attempts") as caught:
            chat.complete(MESSAGES)
        assert caught.value.retryable is True
        assert API_KEY not in str(caught.value)


def test_bad_arguments_are_configuration_errors() -> None:
    with pytest.raises(ConfigurationError, match="http"):
        OpenAICompatibleChatModel("localhost:8000", "m")
    with pytest.raises(ConfigurationError, match="max_attempts"):
        OpenAICompatibleChatModel("http://localhost", "m", max_attempts=0)
    with pytest.raises(ConfigurationError, match="api_key"):
        AnthropicChatModel("claude-test", "")


# --------------------------------------------------------------------- Anthropic


def test_anthropic_happy_path_puts_system_on_top_and_sends_its_headers() -> None:
    with ScriptedChatServer(["hello"], usage=(9, 2)) as server, anthropic(server) as chat:
        assert isinstance(chat, ChatModel)
        result = chat.complete(MESSAGES, temperature=0.0, max_tokens=64)
        assert result == ChatResult("hello", "claude-test", Usage(9, 2))
        [request] = server.requests
        assert request.path == "/v1/messages"
        assert request.headers["x-api-key"] == API_KEY
        assert request.headers["anthropic-version"] == "2023-06-01"
        assert "authorization" not in request.headers
        assert request.body == {
            "model": "claude-test",
            "max_tokens": 64,
            "temperature": 0.0,
            "system": "Be terse.",
            "messages": [{"role": "user", "content": "Say hi."}],
        }


def test_anthropic_text_joins_text_blocks_only() -> None:
    body = {
        "model": "claude-test-2025",
        "content": [
            {"type": "text", "text": "[1,"},
            {"type": "tool_use", "id": "t", "name": "x", "input": {}},
            {"type": "text", "text": " 2]"},
        ],
        "usage": {"input_tokens": 4, "output_tokens": 5},
    }
    with ScriptedChatServer([(200, body)]) as server, anthropic(server) as chat:
        assert chat.complete(MESSAGES) == ChatResult("[1, 2]", "claude-test-2025", Usage(4, 5))


def test_anthropic_retries_429_then_succeeds() -> None:
    replies: list[ScriptedReply] = [(429, {"type": "error"}), (529, {"type": "overloaded"}), "ok"]
    with ScriptedChatServer(replies) as server, anthropic(server, backoff=0) as chat:
        assert chat.complete(MESSAGES).text == "ok"
        assert len(server.requests) == 3


def test_anthropic_500_until_attempts_run_out_is_a_retryable_provider_error() -> None:
    replies = [(500, {"type": "error"})] * 2
    with ScriptedChatServer(replies) as server, anthropic(server, max_attempts=2) as chat:
        with pytest.raises(ProviderError, match="HTTP 500 after 2 attempts") as caught:
            chat.complete(MESSAGES)
        assert caught.value.retryable is True
        assert len(server.requests) == 2


def test_anthropic_401_is_not_retryable_and_never_shows_the_key() -> None:
    body = {"type": "error", "error": {"type": "authentication_error", "message": API_KEY}}
    with ScriptedChatServer([(401, body)]) as server, anthropic(server) as chat:
        with pytest.raises(ProviderError) as caught:
            chat.complete(MESSAGES)
        assert caught.value.retryable is False
        assert API_KEY not in str(caught.value)
        assert API_KEY not in repr(caught.value)
        assert len(server.requests) == 1


def test_scripted_server_answers_500_when_its_script_runs_out() -> None:
    with (
        ScriptedChatServer([]) as server,
        anthropic(server, max_attempts=1) as chat,
        pytest.raises(ProviderError, match="script exhausted"),
    ):
        chat.complete(MESSAGES)
