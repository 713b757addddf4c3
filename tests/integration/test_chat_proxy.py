"""The verifying proxy through real HTTP on both sides: the real ``openai`` client calls a real
spanproof server (uvicorn on loopback), whose upstream is the scripted loopback chat server."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from openai import OpenAI

from spanproof.api.app import create_app
from spanproof.config import LlmSettings, ProxySettings, Settings
from spanproof.core.ports import Embedder
from spanproof.core.trace import Trace
from spanproof.services.replay import replay
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.fakes import FakeEmbedder
from spanproof.testing.live_server import free_port, serving
from spanproof.testing.scripted_server import CutStream, ScriptedChatServer
from spanproof.verify.policy import REDACTION_NOTICE

SUPPORTED = "Daily walking lowered systolic blood pressure by 5 mmHg in older adults."
UNSUPPORTED = "Green tea cured migraine in every child."
ANSWER = f"{SUPPORTED} {UNSUPPORTED}"
MESSAGES: list[Any] = [
    {"role": "system", "content": "Answer only from the context."},
    {
        "role": "user",
        "content": f"Context: {SUPPORTED} Sodium restriction lowered diastolic blood pressure.\n\n"
        "Question: what lowers blood pressure?",
    },
]
CLIENT_KEY = "sk-spanproof-client-key-1234"
UPSTREAM_KEY = "sk-upstream-secret-5678"


@contextmanager
def spanproof_server(
    tmp_path: Path,
    upstream: LlmSettings | None,
    api_keys: tuple[str, ...] = (),
    embedder: Embedder | None = None,
) -> Iterator[tuple[str, SqliteEvidenceStore]]:
    """A real spanproof server on loopback proxying to ``upstream``; (base URL, store)."""
    store = SqliteEvidenceStore(tmp_path / "proxy.sqlite")
    settings = Settings(proxy=ProxySettings(upstream=upstream or LlmSettings()))
    app = create_app(app_state(store, settings=settings, embedder=embedder), api_keys=api_keys)
    try:
        with serving(app) as base_url:
            yield base_url, store
    finally:
        if app.state.chat_proxy is not None:
            app.state.chat_proxy.upstream.close()
        store.close()


def openai_upstream(server: ScriptedChatServer, api_key: str | None = None) -> LlmSettings:
    return LlmSettings(kind="openai", base_url=server.base_url, api_key=api_key)


def create(base_url: str, api_key: str = "unused", **request: Any) -> Any:
    """``chat.completions.create(**request)`` with the real ``openai`` client (a stream is
    read to its end), the client closed after."""
    with OpenAI(base_url=f"{base_url}/v1", api_key=api_key, max_retries=0) as client:
        result = client.chat.completions.create(**request)
        return list(result) if request.get("stream") else result


def stored_trace(store: SqliteEvidenceStore, trace_id: str) -> Trace:
    trace = store.get_trace(trace_id)
    assert trace is not None
    return trace


def test_a_completion_comes_back_flagged_with_its_verdicts_and_trace(tmp_path: Path) -> None:
    with (
        ScriptedChatServer([ANSWER], usage=(40, 20)) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, store),
    ):
        completion = create(url, model="gpt-test", messages=MESSAGES, temperature=0.2)
        sent = upstream.requests[0]
        trace = stored_trace(store, (completion.model_extra or {})["spanproof"]["trace_id"])
    # The request went upstream as the client sent it.
    assert sent.path == "/v1/chat/completions"
    assert sent.body == {"model": "gpt-test", "messages": MESSAGES, "temperature": 0.2}
    assert completion.object == "chat.completion" and completion.model == "gpt-test"
    content = completion.choices[0].message.content
    assert content == f"{SUPPORTED} {UNSUPPORTED} ⟦unsupported⟧"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None and completion.usage.prompt_tokens == 40
    found = (completion.model_extra or {})["spanproof"]
    assert found["outcome"] == "not_all_supported" and found["evidence"] == "messages"
    assert found["counts"]["supported"] == 1 and found["counts"]["unsupported"] == 1
    first, second = found["claims"]
    assert first["verdict"] == "supported" and second["verdict"] == "unsupported"
    assert first["best_span"]["source"]["role"] == "user"
    assert first["best_span"]["quote"] in MESSAGES[1]["content"]
    assert trace.kind == "generation" and trace.draft == ANSWER
    assert trace.delivered == content and trace.usage == {
        "gen_input_tokens": 40,
        "gen_output_tokens": 20,
    }
    assert trace.request["endpoint"] == "/v1/chat/completions"
    assert replay(trace).ok


def test_redact_removes_the_unsupported_claim_and_spanproof_options_stay_home(
    tmp_path: Path,
) -> None:
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, _),
    ):
        completion = create(
            url, model="m", messages=MESSAGES, extra_body={"spanproof": {"policy": "redact"}}
        )
        sent = upstream.requests[0].body
    assert "spanproof" not in sent
    assert completion.choices[0].message.content == f"{SUPPORTED} {REDACTION_NOTICE}"
    assert (completion.model_extra or {})["spanproof"]["policy"] == "redact"


def test_a_stream_sends_each_sentence_once_verified_then_the_spanproof_object(
    tmp_path: Path,
) -> None:
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, store),
    ):
        chunks = create(
            url,
            model="m",
            messages=MESSAGES,
            stream=True,
            stream_options={"include_usage": True},
            extra_body={"spanproof": {"policy": "redact"}},
        )
        sent = upstream.requests[0].body
        trace = stored_trace(store, (chunks[-1].model_extra or {})["spanproof"]["trace_id"])
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}
    pieces = [
        c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content
    ]
    # The upstream sent one chunk per word; the proxy sends one per verified sentence.
    assert pieces == [SUPPORTED, f" {REDACTION_NOTICE}"]
    assert all(c.object == "chat.completion.chunk" for c in chunks)
    last = chunks[-1]
    assert last.choices[0].finish_reason == "stop"
    assert last.usage is not None and last.usage.completion_tokens == 7
    found = (last.model_extra or {})["spanproof"]
    assert [c["verdict"] for c in found["claims"]] == ["supported", "unsupported"]
    assert [c["id"] for c in found["claims"]] == ["c1", "c2"]
    start, end = found["claims"][1]["draft_span"]
    assert ANSWER[start:end].startswith("Green tea")
    assert not any((c.model_extra or {}).get("spanproof") for c in chunks[:-1])
    assert trace.draft == ANSWER and trace.delivered == "".join(pieces)
    assert trace.request["stream"] is True
    assert replay(trace).ok


@pytest.mark.model
def test_a_streamed_answer_scored_by_the_real_model_replays_exactly(tmp_path: Path) -> None:
    # Streaming scores each sentence as it arrives, alone; scored together, a claim's score may
    # differ in its last bits (one matrix product against another), and replay scores the way
    # the trace records (request.pieces). With the bundled model, as users run it.
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder

    embedder = OnnxMiniLMEmbedder()
    answer = "Daily walking lowered systolic blood pressure by 5 mmHg. Green tea cured migraine in "
    answer += "every child."
    messages: list[Any] = [
        {"role": "system", "content": "Answer from the context only."},
        {
            "role": "user",
            "content": "Context: Daily walking lowered systolic blood pressure by 5 mmHg.\n\n"
            "Question: what does walking do?",
        },
    ]
    with (
        ScriptedChatServer([answer, answer]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream), embedder=embedder) as (url, store),
    ):
        streamed = create(url, model="m", messages=messages, stream=True)
        whole = create(url, model="m", messages=messages)
        traces = [
            stored_trace(store, (streamed[-1].model_extra or {})["spanproof"]["trace_id"]),
            stored_trace(store, (whole.model_extra or {})["spanproof"]["trace_id"]),
        ]
    assert traces[0].request["pieces"] == [1, 1] and "pieces" not in traces[1].request
    for trace in traces:
        assert replay(trace).ok, replay(trace).differences
    # and a streamed trace written before pieces were recorded replays too
    older = dataclasses.replace(traces[0], request={**traces[0].request})
    del older.request["pieces"]
    assert replay(older).ok


def test_the_raw_stream_is_openai_server_sent_events_ending_with_done(tmp_path: Path) -> None:
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, _),
    ):
        body = {"model": "m", "messages": MESSAGES, "stream": True}
        response = httpx.post(f"{url}/v1/chat/completions", json=body, timeout=30)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [e for e in response.text.split("\n\n") if e]
    assert events[-1] == "data: [DONE]"
    assert all(e.startswith("data: ") for e in events)
    last = json.loads(events[-2][6:])
    assert "spanproof" in last and last["choices"][0]["finish_reason"] == "stop"


def test_a_stream_cut_off_upstream_ends_in_an_error_and_writes_no_trace(tmp_path: Path) -> None:
    # The upstream closes the connection mid-answer: no finish_reason, no [DONE]. Its fragment
    # ("Daily walking lowered systolic") must not be verified and delivered as a whole answer.
    with (
        ScriptedChatServer([CutStream(ANSWER)]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, store),
    ):
        body = {"model": "m", "messages": MESSAGES, "stream": True}
        response = httpx.post(f"{url}/v1/chat/completions", json=body, timeout=30)
        traces = store.list_traces(limit=10)
    events = [e for e in response.text.split("\n\n") if e]
    assert "data: [DONE]" not in events
    error = json.loads(events[-1][6:])["error"]
    assert "ended before it finished" in error["message"]
    assert not any('"spanproof"' in e for e in events)
    assert traces == []


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("stream", [False, True])
def test_a_lone_surrogate_escape_in_the_upstreams_answer_is_delivered_as_a_replacement_character(
    tmp_path: Path, stream: bool, kind: str
) -> None:
    # "\ud800" is valid JSON but no character: it failed the verification (500) or cut the
    # stream off after its first chunk with no error and no [DONE].
    answer = f"{SUPPORTED} Green tea \ud800 cured migraine in every child."
    with ScriptedChatServer([answer]) as upstream:
        settings = LlmSettings(kind=kind, base_url=upstream.base_url, api_key=UPSTREAM_KEY)
        with spanproof_server(tmp_path, settings) as (url, store):
            body = {"model": "m", "messages": MESSAGES, "stream": stream}
            response = httpx.post(f"{url}/v1/chat/completions", json=body, timeout=30)
            traces = store.list_traces(limit=10)
    assert response.status_code == 200, response.text
    if stream:
        events = [e for e in response.text.split("\n\n") if e]
        assert events[-1] == "data: [DONE]"
        chunks = [json.loads(e[6:]) for e in events[:-1]]
        content = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
        found = chunks[-1]["spanproof"]
    else:
        reply = response.json()
        content, found = reply["choices"][0]["message"]["content"], reply["spanproof"]
    assert content == f"{SUPPORTED} Green tea \ufffd cured migraine in every child. ⟦unsupported⟧"
    assert found["verification"] == "verified" and len(traces) == 1


def test_without_an_upstream_the_route_answers_503_saying_what_to_set(tmp_path: Path) -> None:
    with spanproof_server(tmp_path, None) as (url, _):
        with pytest.raises(openai.InternalServerError) as caught:
            create(url, model="m", messages=MESSAGES)
        schema = httpx.get(f"{url}/openapi.json").json()
    assert caught.value.status_code == 503
    error = caught.value.body
    assert isinstance(error, dict)
    assert {"message", "type", "param", "code"} <= set(error)
    assert error["code"] == "upstream_not_configured"
    assert "SPANPROOF_PROXY__UPSTREAM__KIND" in error["message"]
    assert "/v1/chat/completions" in schema["paths"]


@pytest.mark.parametrize("stream", [False, True])
def test_an_upstream_error_keeps_its_status_and_openai_shape(tmp_path: Path, stream: bool) -> None:
    refusal = {
        "error": {
            "message": f"Rate limit reached for key {UPSTREAM_KEY}",
            "type": "requests",
            "param": None,
            "code": "rate_limit_exceeded",
        }
    }
    with (
        ScriptedChatServer([(429, refusal)]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream, UPSTREAM_KEY)) as (url, store),
    ):
        with pytest.raises(openai.RateLimitError) as caught:
            create(url, model="m", messages=MESSAGES, stream=stream)
        traces = store.list_traces(limit=10)
    assert caught.value.status_code == 429
    assert caught.value.code == "rate_limit_exceeded" and caught.value.type == "requests"
    assert "Rate limit reached" in caught.value.message
    assert UPSTREAM_KEY not in caught.value.response.text
    assert traces == []  # nothing was answered, so nothing was judged


def test_an_unreachable_upstream_is_a_502_in_openai_shape(tmp_path: Path) -> None:
    dead = LlmSettings(kind="openai", base_url=f"http://127.0.0.1:{free_port()}")
    with (
        spanproof_server(tmp_path, dead) as (url, _),
        pytest.raises(openai.APIStatusError) as caught,
    ):
        create(url, model="m", messages=MESSAGES)
    assert caught.value.status_code == 502
    assert caught.value.code == "upstream_unreachable"


def test_api_keys_guard_the_route_and_the_upstream_key_goes_only_upstream(tmp_path: Path) -> None:
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(
            tmp_path, openai_upstream(upstream, UPSTREAM_KEY), api_keys=(CLIENT_KEY,)
        ) as (url, store),
    ):
        with pytest.raises(openai.AuthenticationError):
            create(url, "sk-wrong", model="m", messages=MESSAGES)
        completion = create(url, CLIENT_KEY, model="m", messages=MESSAGES)
        headers = upstream.requests[0].headers
        trace = stored_trace(store, (completion.model_extra or {})["spanproof"]["trace_id"])
    assert len(upstream.requests) == 1  # the refused call never went upstream
    assert headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert UPSTREAM_KEY not in trace.to_json() and CLIENT_KEY not in trace.to_json()


def test_n_above_one_is_refused_before_the_upstream(tmp_path: Path) -> None:
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, _),
    ):
        with pytest.raises(openai.BadRequestError) as caught:
            create(url, model="m", messages=MESSAGES, n=2)
        assert upstream.requests == []
    assert caught.value.status_code == 400 and caught.value.param == "n"


def test_retrieve_injects_a_plan_from_the_store_and_verifies_against_it(tmp_path: Path) -> None:
    doc = (
        "Walking trial\n\nIn the trial, daily walking lowered systolic blood pressure by 5 mmHg "
        "in older adults. Sodium restriction lowered diastolic blood pressure."
    )
    with (
        ScriptedChatServer([f"{SUPPORTED} [S1]"]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, _),
    ):
        added = httpx.post(f"{url}/v1/sources", json={"text": doc, "title": "Walking"}, timeout=30)
        assert added.status_code == 201, added.text
        question = [{"role": "user", "content": "What does daily walking do to blood pressure?"}]
        completion = create(
            url, model="m", messages=question, extra_body={"spanproof": {"retrieve": True}}
        )
        sent = upstream.requests[0].body["messages"]
    assert len(sent) == 2 and sent[0]["role"] == "system" and sent[1] == question[0]
    assert "[S1]" in sent[0]["content"] and "5 mmHg" in sent[0]["content"]
    found = (completion.model_extra or {})["spanproof"]
    assert found["evidence"] == "retrieve"
    assert [c["verdict"] for c in found["claims"]] == ["supported"]
    assert found["models"]["plan_model"] != "messages-v1"


def test_an_anthropic_upstream_answers_in_the_chat_completions_shape(tmp_path: Path) -> None:
    with ScriptedChatServer([ANSWER]) as upstream:
        settings = LlmSettings(kind="anthropic", base_url=upstream.base_url, api_key=UPSTREAM_KEY)
        with spanproof_server(tmp_path, settings) as (url, _):
            completion = create(url, model="claude-test", messages=MESSAGES, max_tokens=300)
        sent = upstream.requests[0]
    assert sent.path == "/v1/messages" and sent.headers["x-api-key"] == UPSTREAM_KEY
    assert sent.body["model"] == "claude-test" and sent.body["max_tokens"] == 300
    assert sent.body["system"] == MESSAGES[0]["content"]
    assert completion.choices[0].message.content == f"{ANSWER} ⟦unsupported⟧"
    found = (completion.model_extra or {})["spanproof"]
    assert found["outcome"] == "not_all_supported"


def test_the_upstream_connection_pool_closes_when_the_app_shuts_down(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    with ScriptedChatServer([ANSWER]) as server:
        store = SqliteEvidenceStore(tmp_path / "proxy.sqlite")
        settings = Settings(proxy=ProxySettings(upstream=openai_upstream(server)))
        app = create_app(app_state(store, settings=settings))
        pool = app.state.chat_proxy.upstream._client
        with TestClient(app) as client:
            assert client.get("/healthz").status_code == 200
            assert not pool.is_closed
        assert pool.is_closed  # the app's shutdown closed it
        store.close()


class _BreaksOnSecondCall(FakeEmbedder):
    """An embedder that fails unexpectedly (not a provider error) from its second call on."""

    def embed(self, texts: Any) -> Any:
        if self.calls >= 1:
            raise RuntimeError("boom")
        return super().embed(texts)


def test_a_failure_mid_stream_ends_the_stream_with_an_error_event(tmp_path: Path) -> None:
    # The first sentence goes out verified; the second's verification fails. The stream used to
    # stop there with neither an error nor [DONE]: the openai client read a truncated answer
    # as a whole one.
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream), embedder=_BreaksOnSecondCall()) as (
            url,
            store,
        ),
    ):
        body = {"model": "m", "messages": MESSAGES, "stream": True}
        response = httpx.post(f"{url}/v1/chat/completions", json=body, timeout=30)
        traces = store.list_traces(limit=10)
    events = [e for e in response.text.split("\n\n") if e]
    assert "data: [DONE]" not in events
    error = json.loads(events[-1][6:])["error"]
    assert error["type"] == "internal_error" and error["status"] == 500
    assert "boom" not in error["message"] and error["request_id"]
    assert traces == []
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream), embedder=_BreaksOnSecondCall()) as (
            url,
            _,
        ),
        pytest.raises(openai.APIError),
    ):
        create(url, model="m", messages=MESSAGES, stream=True)


@pytest.mark.parametrize(
    ("extra", "param"),
    [
        ({"stream": "yes"}, "stream"),
        ({"stream": 1}, "stream"),
        ({"spanproof": {"retrieve": "yes"}}, "spanproof.retrieve"),
        ({"spanproof": {"retrieve": 0}}, "spanproof.retrieve"),
    ],
)
def test_a_flag_that_is_no_boolean_is_a_400_naming_it_before_the_upstream(
    tmp_path: Path, extra: dict[str, Any], param: str
) -> None:
    # "stream": "yes" was read as true and went upstream as "yes"; "retrieve": "yes" was
    # refused without the param the error table promises.
    with (
        ScriptedChatServer([ANSWER]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, _),
    ):
        body = {"model": "m", "messages": MESSAGES, **extra}
        response = httpx.post(f"{url}/v1/chat/completions", json=body, timeout=30)
        assert upstream.requests == []
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error" and error["param"] == param


#: A RAG prompt whose question is a yes/no question its context answers "no".
SODIUM_QUESTION: list[Any] = [
    {
        "role": "user",
        "content": "Context: Sodium restriction did not change diastolic blood pressure.\n\n"
        "Question: Did sodium restriction change diastolic blood pressure?",
    },
]


@pytest.mark.parametrize("stream", [False, True])
def test_a_bare_yes_is_checked_as_the_users_question_states_it(
    tmp_path: Path, stream: bool
) -> None:
    with (
        ScriptedChatServer(["Yes. It is well documented."]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, store),
    ):
        result = create(url, model="m", messages=SODIUM_QUESTION, stream=stream)
        extra = ((result[-1] if stream else result).model_extra or {})["spanproof"]
        trace = stored_trace(store, extra["trace_id"])
    content = (
        "".join(c.choices[0].delta.content or "" for c in result if c.choices)
        if stream
        else result.choices[0].message.content
    )
    assert content.startswith("Yes. ⟦contradicted⟧")
    assert extra["claims"][0]["text"] == "Sodium restriction changed diastolic blood pressure."
    assert extra["claims"][0]["draft_span"] == [0, 4]
    assert extra["outcome"] == "contradicted"
    assert replay(trace).ok, replay(trace).differences


def test_a_streamed_bare_no_is_its_proposition_turned_round_and_replays(tmp_path: Path) -> None:
    with (
        ScriptedChatServer(["No. Sodium restriction did not change it."]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, store),
    ):
        chunks = create(url, model="m", messages=SODIUM_QUESTION, stream=True)
        extra = (chunks[-1].model_extra or {})["spanproof"]
        trace = stored_trace(store, extra["trace_id"])
    first = extra["claims"][0]
    assert first["text"] == "Sodium restriction did not change diastolic blood pressure."
    assert first["negates"] == "Sodium restriction changed diastolic blood pressure."
    assert first["verdict"] == "partial" and first["draft_span"] == [0, 3]
    assert sum(trace.request["pieces"]) == 2  # verified as it streamed
    assert replay(trace).ok, replay(trace).differences


def test_a_yes_is_read_against_a_question_a_trailer_follows(tmp_path: Path) -> None:
    # LangChain's RAG template: the question is not the message's last sentence
    messages = [
        {
            "role": "user",
            "content": "Use the following pieces of context to answer the question at the end.\n\n"
            "Sodium restriction did not change diastolic blood pressure.\n\n"
            "Question: Did sodium restriction change diastolic blood pressure?\n"
            "Helpful Answer:",
        },
    ]
    with (
        ScriptedChatServer(["Yes, it did."]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, _store),
    ):
        result = create(url, model="m", messages=messages, stream=False)
    extra = (result.model_extra or {})["spanproof"]
    assert [c["text"] for c in extra["claims"]] == [
        "Sodium restriction changed diastolic blood pressure."
    ]
    assert result.choices[0].message.content.startswith("Yes, it did. ⟦contradicted⟧")
    assert extra["outcome"] == "contradicted"


@pytest.mark.parametrize("stream", [False, True])
def test_a_no_and_a_clause_are_the_denial_and_the_clause_with_the_subject_named(
    tmp_path: Path, stream: bool
) -> None:
    with (
        ScriptedChatServer(["No, it did not change it in the 12-week follow-up."]) as upstream,
        spanproof_server(tmp_path, openai_upstream(upstream)) as (url, store),
    ):
        result = create(url, model="m", messages=SODIUM_QUESTION, stream=stream)
        extra = ((result[-1] if stream else result).model_extra or {})["spanproof"]
        trace = stored_trace(store, extra["trace_id"])
    texts = [c["text"] for c in extra["claims"]]
    assert texts[0] == "Sodium restriction did not change diastolic blood pressure."
    assert extra["claims"][0]["negates"] == "Sodium restriction changed diastolic blood pressure."
    assert extra["claims"][0]["draft_span"] == [0, 2]
    assert texts[1:] == ["Sodium restriction did not change it in the 12-week follow-up"]
    assert replay(trace).ok, replay(trace).differences
