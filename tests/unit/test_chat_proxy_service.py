"""The chat proxy service with an in-memory upstream: evidence from messages, streaming that
holds each sentence back until verified, and a stream that verifies exactly as a completion."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.core.errors import InvalidInputError
from spanproof.core.models import Policy
from spanproof.core.upstream import UpstreamError, openai_error
from spanproof.services.chat_proxy import ChatProxy, list_labels, message_evidence
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import V2

CONTEXT = (
    "Daily walking lowered systolic blood pressure by 5 mmHg in older adults. "
    "Sodium restriction lowered diastolic blood pressure."
)
ANSWER = (
    "Daily walking lowered systolic blood pressure by 5 mmHg in older adults. "
    "Green tea cured migraine in every child. Sodium restriction lowered diastolic blood pressure."
)
MESSAGES = [
    {"role": "system", "content": "Answer from the context."},
    {"role": "user", "content": [{"type": "text", "text": CONTEXT}, {"type": "image_url"}]},
    {"role": "assistant", "content": "Coffee prevents strokes."},
    {"role": "tool", "content": "The trial enrolled 120 adults.", "tool_call_id": "t1"},
    {"role": "user", "content": "What lowers blood pressure?"},
]


class ListUpstream:
    """Answers ``text`` as one completion, or as chunks cut at ``cuts``; logs what it sent."""

    name = "in-memory"

    def __init__(self, text: str, cuts: list[int] | None = None, fail_after: int | None = None):
        self.text = text
        self.cuts = cuts or []
        self.fail_after = fail_after
        self.bodies: list[dict[str, Any]] = []
        self.sent: list[str] = []

    def complete(self, body: Mapping[str, Any]) -> dict[str, Any]:
        self.bodies.append(dict(body))
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": self.text},
                    "finish_reason": "stop",
                }
            ],
        }

    def stream(self, body: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        self.bodies.append(dict(body))
        return self._chunks()

    def _chunks(self) -> Iterator[dict[str, Any]]:
        bounds = [0, *sorted(set(self.cuts)), len(self.text)]
        for n, (start, end) in enumerate(itertools.pairwise(bounds)):
            if self.fail_after is not None and n == self.fail_after:
                raise UpstreamError(502, openai_error("lost", "upstream_error"), retryable=True)
            self.sent.append(self.text[start:end])
            delta = {"content": self.text[start:end]}
            yield {"id": "c", "model": "m", "choices": [{"index": 0, "delta": delta}]}
        yield {
            "id": "c",
            "model": "m",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        }

    def close(self) -> None:
        pass


def proxy(upstream: ListUpstream, policy: Policy = Policy.FLAG) -> ChatProxy:
    return ChatProxy(
        upstream=upstream,
        traces=None,
        embedder=FakeEmbedder(),
        decomposer=RuleBasedDecomposer(),
        score_model=V2,
        policy=policy,
    )


def events(stream: Iterator[str]) -> list[Any]:
    out: list[Any] = []
    for event in stream:
        assert event.startswith("data: ") and event.endswith("\n\n")
        data = event[6:-2]
        out.append(data if data == "[DONE]" else json.loads(data))
    return out


def contents(parsed: list[Any]) -> list[str]:
    return [
        e["choices"][0]["delta"]["content"]
        for e in parsed
        if isinstance(e, dict) and e.get("choices") and e["choices"][0]["delta"].get("content")
    ]


def test_evidence_is_the_sentences_of_system_user_and_tool_messages_never_the_assistant() -> None:
    spans = message_evidence(MESSAGES)
    # the last user message is a question: it asserts nothing, so it is no evidence
    assert [s.id for s in spans] == ["m0.s1", "m1.s1", "m1.s2", "m3.s1"]
    assert {s.source["role"] for s in spans} == {"system", "user", "tool"}
    second = spans[2]
    assert second.text == "Sodium restriction lowered diastolic blood pressure."
    assert CONTEXT[second.source["start"] : second.source["end"]] == second.text
    assert not any("Coffee" in s.text for s in spans)


def test_a_question_in_a_message_is_no_evidence_and_the_other_sentences_keep_their_ids() -> None:
    content = 'Walking lowered it. Did sodium lower it? (Is it "safe?") Sodium did not.'
    spans = message_evidence([{"role": "user", "content": content}])
    assert [(s.id, s.text) for s in spans] == [
        ("m0.s1", "Walking lowered it."),
        ("m0.s4", "Sodium did not."),
    ]


NUMBERED = (
    "Answer from the documents below, citing them as [n].\n\n"
    "[1] Daily walking lowered systolic blood pressure by 5 mmHg. It was a 12-week trial.\n"
    "[2] Sodium restriction lowered diastolic blood pressure.\n"
    "Document 3: Short sleep was linked to higher evening cortisol."
)


def test_sentences_after_a_documents_label_belong_to_that_document() -> None:
    spans = message_evidence([{"role": "user", "content": NUMBERED}])
    assert [(s.id, s.source.get("document")) for s in spans] == [
        ("m0.s1", None),  # the instruction before any label
        ("m0.s2", "1"),
        ("m0.s3", "1"),
        ("m0.s4", "2"),
        ("m0.s5", "3"),
    ]
    plain = message_evidence([{"role": "user", "content": CONTEXT}])
    assert all("document" not in s.source for s in plain)


def test_an_answer_citing_a_numbered_document_cites_its_sentences() -> None:
    answer = "Walking lowered systolic blood pressure by 5 mmHg [1]. Sodium lowered it [2]."
    reply = proxy(ListUpstream(answer)).complete(
        {"model": "m", "messages": [{"role": "user", "content": NUMBERED}]}
    )
    claims = reply["spanproof"]["claims"]
    # "[1]" is the first document (two sentences), not the first sentence (the instruction)
    assert [c["cited_markers"] for c in claims] == [["m0.s2", "m0.s3"], ["m0.s4"]]


LISTED = (
    "Answer from the documents below, citing them as [n].\n\n"
    "1. Daily walking lowered systolic blood pressure by 5 mmHg. It was a 12-week trial.\n"
    "2. Sodium restriction lowered diastolic blood pressure.\n"
    "3. Short sleep was linked to higher evening cortisol."
)


def test_a_numbered_list_numbers_its_documents_when_no_label_does() -> None:
    assert list_labels(LISTED) == [(54, "1"), (138, "2"), (194, "3")]
    assert LISTED[54:56] == "1." and LISTED[138:140] == "2." and LISTED[194:196] == "3."
    assert list_labels("1. One thing.\n3. Another.") == []  # not 1, 2, 3 in order
    assert list_labels("Rules:\n1. Be brief.") == []  # one item is no list of documents
    assert list_labels("In 2019. Walking helped.") == []
    spans = message_evidence([{"role": "user", "content": LISTED}])
    documents = [s.source.get("document") for s in spans if s.text[:1].isalpha()]
    assert documents == [None, "1", "1", "2", "3"]
    # a labelled message keeps its labels, and a list inside it is no second numbering
    labelled = NUMBERED + "\n1. First note.\n2. Second note."
    spans = message_evidence([{"role": "user", "content": labelled}])
    assert {s.source.get("document") for s in spans} == {None, "1", "2", "3"}


def test_an_answer_citing_an_item_of_a_numbered_list_cites_its_sentences() -> None:
    answer = "Walking lowered systolic blood pressure by 5 mmHg [1]. Sodium lowered it [2]."
    reply = proxy(ListUpstream(answer)).complete(
        {"model": "m", "messages": [{"role": "user", "content": LISTED}]}
    )
    cited = [c["cited_markers"] for c in reply["spanproof"]["claims"]]
    spans = {s.id: s for s in message_evidence([{"role": "user", "content": LISTED}])}
    assert [{spans[i].source["document"] for i in ids} for ids in cited] == [{"1"}, {"2"}]


def test_a_completion_is_forwarded_without_the_spanproof_options() -> None:
    upstream = ListUpstream(ANSWER)
    body = {"model": "m", "messages": MESSAGES, "spanproof": {"policy": "redact"}}
    reply = proxy(upstream).complete(body)
    assert upstream.bodies == [{"model": "m", "messages": MESSAGES}]
    assert reply["spanproof"]["policy"] == "redact"
    assert "Green tea" not in reply["choices"][0]["message"]["content"]
    assert reply["spanproof"]["trace_id"] is None


@pytest.mark.parametrize(
    "options",
    [{"retrieve": "yes"}, {"policy": "hide"}, {"unknown": 1}, "redact"],
)
def test_bad_spanproof_options_are_refused(options: Any) -> None:
    with pytest.raises(InvalidInputError):
        proxy(ListUpstream(ANSWER)).prepare(
            {"model": "m", "messages": MESSAGES, "spanproof": options}
        )


def test_retrieve_without_a_planner_is_refused() -> None:
    body = {"model": "m", "messages": MESSAGES, "spanproof": {"retrieve": True}}
    with pytest.raises(InvalidInputError, match="store"):
        proxy(ListUpstream(ANSWER)).prepare(body)


def test_a_sentence_is_held_back_until_the_next_one_has_begun() -> None:
    # One character per chunk: the first sentence may only be sent once "G" has arrived.
    upstream = ListUpstream(ANSWER, cuts=list(range(1, len(ANSWER))))
    stream = proxy(upstream).stream({"model": "m", "messages": MESSAGES, "stream": True})
    for event in stream:
        if '"content":"Daily' in event:
            break
    first_end = ANSWER.index(" Green")
    assert "".join(upstream.sent) == ANSWER[: first_end + 2]  # up to and including "G"


@settings(max_examples=30, deadline=None)
@given(
    cuts=st.lists(st.integers(1, len(ANSWER) - 1), max_size=12),
    policy=st.sampled_from([Policy.FLAG, Policy.REDACT]),
)
def test_a_stream_verifies_and_delivers_exactly_as_a_completion(
    cuts: list[int], policy: Policy
) -> None:
    body = {"model": "m", "messages": MESSAGES}
    whole = proxy(ListUpstream(ANSWER), policy).complete(body)
    parsed = events(proxy(ListUpstream(ANSWER, cuts), policy).stream({**body, "stream": True}))
    assert parsed[-1] == "[DONE]"
    found = parsed[-2]["spanproof"]
    assert "".join(contents(parsed)) == whole["choices"][0]["message"]["content"]
    assert found["claims"] == whole["spanproof"]["claims"]
    assert found["outcome"] == whole["spanproof"]["outcome"] == "not_all_supported"
    assert len(contents(parsed)) == 3  # one event per sentence, whatever the upstream's chunks


def test_an_upstream_failure_mid_stream_ends_with_an_openai_error_event() -> None:
    upstream = ListUpstream(ANSWER, cuts=[10, 80, 100], fail_after=2)
    parsed = events(proxy(upstream).stream({"model": "m", "messages": MESSAGES, "stream": True}))
    assert parsed[-1] == {"error": openai_error("lost", "upstream_error")}
    assert "[DONE]" not in parsed
    assert contents(parsed) == [ANSWER[: ANSWER.index(" Green")]]


def test_the_upstream_settings_say_what_is_missing_and_fall_back_to_the_llm_group() -> None:
    from spanproof.bootstrap import build_chat_upstream
    from spanproof.config import LlmSettings, ProxySettings, Settings
    from spanproof.core.errors import ConfigurationError

    assert build_chat_upstream(Settings()) is None
    half = Settings(proxy=ProxySettings(upstream=LlmSettings(kind="openai")))
    with pytest.raises(ConfigurationError, match="SPANPROOF_PROXY__UPSTREAM__BASE_URL"):
        build_chat_upstream(half)
    llm = LlmSettings(kind="openai", base_url="http://127.0.0.1:9", model="m")
    upstream = build_chat_upstream(Settings(llm=llm))
    assert (
        upstream is not None
        and upstream.name == "openai-compatible http://127.0.0.1:9/v1/chat/completions"
    )
    upstream.close()
