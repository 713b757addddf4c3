"""The LLM judge's prompt, parser, cache and retries (on a fake chat model), the fallback judge,
and the recorded judge that replays stored judgements (issue 14, item 5)."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

import numpy as np
import pytest

from spanproof.core.checker import CHECKER_LABELS, CheckerPair, EntailmentChecker
from spanproof.core.errors import ConfigurationError, InvalidInputError, ProviderError
from spanproof.core.judgement import FallbackJudge, RecordedJudge, judgement_records
from spanproof.core.ports import ChatMessage
from spanproof.core.trace import canonical_json
from spanproof.providers.checker.judge_cache import SqliteJudgementCache
from spanproof.providers.checker.llm_judge import (
    JUDGE_PROMPT_SHA256,
    JUDGE_SYSTEM_PROMPT,
    JUDGE_USER_TEMPLATE,
    LlmJudge,
    build_judge_messages,
    parse_judge_reply,
)
from spanproof.testing.fakes import FakeChatModel, FakeChecker

NONE = np.zeros(0, dtype=np.float32)
CLAIM = "Metformin reduced hepatic triglycerides in mice."
WINDOW = "Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice."
OTHER = "Treatment with metformin did not change body weight in mice."
SECRET = "sk-judge-CANARY-4f1c9e2b7a"


def pair(claim: str = CLAIM, window: str = WINDOW) -> CheckerPair:
    return (claim, window, NONE, NONE)


# ----------------------------------------------------------------------------- prompt


def test_prompt_hashes_pin_the_fixed_prompt_text() -> None:
    expected = hashlib.sha256(
        canonical_json({"system": JUDGE_SYSTEM_PROMPT, "user": JUDGE_USER_TEMPLATE}).encode()
    ).hexdigest()
    assert JUDGE_PROMPT_SHA256["json"] == expected
    assert JUDGE_PROMPT_SHA256["minicheck"] != expected
    assert set(JUDGE_PROMPT_SHA256) == {"json", "minicheck"}


def test_json_prompt_asks_for_a_json_label_with_minicheck_document_and_claim() -> None:
    messages = build_judge_messages("A  claim\nsplit.", "The\twindow  text.")
    assert messages == [
        ChatMessage("system", JUDGE_SYSTEM_PROMPT),
        ChatMessage("user", "Document: The window text.\nClaim: A claim split."),
    ]
    assert '{"label": "supported"}' in JUDGE_SYSTEM_PROMPT
    assert '{"label": "unsupported"}' in JUDGE_SYSTEM_PROMPT


def test_minicheck_prompt_is_the_bare_document_and_claim() -> None:
    assert build_judge_messages(CLAIM, WINDOW, "minicheck") == [
        ChatMessage("user", f"Document: {WINDOW}\nClaim: {CLAIM}")
    ]


# ----------------------------------------------------------------------------- parser


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ('{"label": "supported"}', "entailed"),
        ('{"label": "unsupported"}', "neutral"),
        ('{"label": "contradicted"}', "contradicted"),
        ('{"label": "refuted"}', "contradicted"),
        ('  {"label": "Supported"}\n', "entailed"),
        ('```json\n{"label": "unsupported"}\n```', "neutral"),
        ('```\n{"label": "supported"}\n```', "entailed"),
        ("Yes", "entailed"),
        ("yes.", "entailed"),
        ("No", "neutral"),
        (" NO \n", "neutral"),
    ],
)
def test_parser_maps_each_accepted_answer_to_a_checker_label(reply: str, label: str) -> None:
    assert parse_judge_reply(reply) == label


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("", "empty"),
        ("Yes, the document supports it.", "not valid JSON"),
        ('The answer: {"label": "supported"}', "not valid JSON"),
        ('{"label": "supported", "reason": "stated"}', "key label alone"),
        ('["supported"]', "key label alone"),
        ('{"label": "maybe"}', "must be supported or unsupported"),
        ('{"label": true}', "must be supported or unsupported"),
        ('```python\n{"label": "supported"}\n```', "fenced as 'python'"),
        ('```json\n{"label": "supported"}\n``` thanks', "outside its code fence"),
    ],
)
def test_parser_refuses_anything_else_and_says_why(reply: str, why: str) -> None:
    with pytest.raises(InvalidInputError, match=why):
        parse_judge_reply(reply)


# ----------------------------------------------------------------------------- the judge


def test_judge_answers_one_hot_rows_in_checker_label_order() -> None:
    chat = FakeChatModel(['{"label": "supported"}', "No", '{"label": "refuted"}'], "m")
    judge = LlmJudge(chat)
    assert isinstance(judge, EntailmentChecker)
    rows = judge.check([pair(), pair(window=OTHER), pair(claim="Mice grew wings.")])
    assert rows.dtype == np.float32
    assert rows.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert CHECKER_LABELS == ("entailed", "contradicted", "neutral")
    assert [call.temperature for call in chat.calls] == [0.0, 0.0, 0.0]
    assert chat.calls[1].messages[-1].content == f"Document: {OTHER}\nClaim: {CLAIM}"


def test_model_id_names_model_and_prompt_hash() -> None:
    judge = LlmJudge(FakeChatModel([], "bespoke-minicheck"), prompt="minicheck")
    assert judge.model_id == (
        f"llm-judge:bespoke-minicheck@prompt:{JUDGE_PROMPT_SHA256['minicheck'][:12]}"
    )


def test_no_pairs_make_no_call_and_an_empty_matrix() -> None:
    chat = FakeChatModel([])
    assert LlmJudge(chat).check([]).shape == (0, 3)
    assert chat.calls == []


def test_a_pair_asked_twice_in_one_call_is_asked_of_the_model_once() -> None:
    chat = FakeChatModel(["Yes"])
    judge = LlmJudge(chat)
    assert judge.check([pair(), pair()]).tolist() == [[1, 0, 0], [1, 0, 0]]
    assert len(chat.calls) == 1
    assert judge.last_stats.pairs == 1 and judge.last_stats.calls == 1


def test_a_refused_reply_is_asked_again_and_the_third_failure_raises() -> None:
    chat = FakeChatModel(["I think so", '{"label": "supported"}'])
    judge = LlmJudge(chat)
    assert judge.check([pair()]).tolist() == [[1, 0, 0]]
    assert judge.last_stats.calls == 2

    garbage = FakeChatModel(["maybe", "perhaps", "who knows", "Yes"])
    with pytest.raises(ProviderError, match=r"no valid reply in 3 attempt\(s\)") as caught:
        LlmJudge(garbage).check([pair()])
    assert len(garbage.calls) == 3
    assert not caught.value.retryable
    assert "who knows" in str(caught.value)


def test_a_provider_failure_is_raised_at_once() -> None:
    chat = FakeChatModel([ProviderError("HTTP 503", retryable=True), "Yes"])
    with pytest.raises(ProviderError, match="HTTP 503"):
        LlmJudge(chat).check([pair()])
    assert len(chat.calls) == 1


def test_bad_arguments_are_configuration_errors() -> None:
    with pytest.raises(ConfigurationError, match="unknown judge prompt"):
        LlmJudge(FakeChatModel([]), prompt="chatty")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="at least 1"):
        LlmJudge(FakeChatModel([]), attempts=0)


# ----------------------------------------------------------------------------- the cache


def test_cached_labels_need_no_model_call_across_judges(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "judgements.sqlite"
    first = FakeChatModel(['{"label": "supported"}', "No"], "m")
    with SqliteJudgementCache(path) as cache:
        rows = LlmJudge(first, cache).check([pair(), pair(window=OTHER)])
        assert len(cache) == 2
    with SqliteJudgementCache(path) as cache:
        again = FakeChatModel([], "m")
        judge = LlmJudge(again, cache)
        assert np.array_equal(judge.check([pair(window=OTHER), pair()]), rows[::-1])
        assert again.calls == []
        assert judge.last_stats.cache_hits == 2


def test_cache_is_keyed_by_model_and_prompt(tmp_path: Path) -> None:
    with SqliteJudgementCache(tmp_path / "j.sqlite") as cache:
        LlmJudge(FakeChatModel(["Yes"], "m"), cache).check([pair()])
        other_model = FakeChatModel(["No"], "m2")
        assert LlmJudge(other_model, cache).check([pair()]).tolist() == [[0, 0, 1]]
        other_prompt = FakeChatModel(["No"], "m")
        judge = LlmJudge(other_prompt, cache, prompt="minicheck")
        assert judge.check([pair()]).tolist() == [[0, 0, 1]]
        assert len(other_model.calls) == len(other_prompt.calls) == 1
        assert len(cache) == 3


def test_labels_answered_before_a_failure_stay_cached(tmp_path: Path) -> None:
    with SqliteJudgementCache(tmp_path / "j.sqlite") as cache:
        chat = FakeChatModel(["Yes", ProviderError("down", retryable=True)], "m")
        with pytest.raises(ProviderError):
            LlmJudge(chat, cache).check([pair(), pair(window=OTHER)])
        assert len(cache) == 1


def test_a_file_that_is_not_a_cache_is_a_configuration_error(tmp_path: Path) -> None:
    path = tmp_path / "not.sqlite"
    path.write_bytes(b"this is not a database at all, not even close" * 20)
    with pytest.raises(ConfigurationError, match="judgement cache"):
        SqliteJudgementCache(path)


# ----------------------------------------------------------------------------- fallback


def test_fallback_judge_uses_the_primary_when_it_answers() -> None:
    primary = LlmJudge(FakeChatModel(["Yes"], "m"))
    local = FakeChecker((0.2, 0.3, 0.5), "local-judge")
    judge = FallbackJudge(primary, local)
    assert judge.model_id == primary.model_id
    assert judge.check([pair()]).tolist() == [[1, 0, 0]]
    assert judge.fallback_reason is None and judge.fallback_note is None
    assert judge.model_id == primary.model_id
    assert local.calls == []


def test_fallback_judge_hands_every_pair_to_the_local_judge_on_failure() -> None:
    chat = FakeChatModel(["Yes", "garbage", "garbage", "garbage"], "m")
    local = FakeChecker((0.2, 0.3, 0.5), "local-judge")
    judge = FallbackJudge(LlmJudge(chat), local)
    rows = judge.check([pair(), pair(window=OTHER)])
    assert np.array_equal(rows, local.check([pair(), pair()]))
    local.calls.pop()
    assert local.calls == [[(CLAIM, WINDOW), (CLAIM, OTHER)]]
    assert judge.model_id == "local-judge"
    assert judge.fallback_reason is not None
    assert judge.fallback_reason.startswith("ProviderError: judge model 'm' gave no valid reply")
    assert judge.fallback_note == f"judge: llm failed ({judge.fallback_reason}), local judge used"


def test_fallback_reason_never_shows_a_secret_and_is_short() -> None:
    leaky = ProviderError(f"HTTP 401: bad key {SECRET} " + "x" * 500, retryable=False)
    judge = FallbackJudge(LlmJudge(FakeChatModel([leaky])), FakeChecker(), secrets=(SECRET, ""))
    judge.check([pair()])
    reason = judge.fallback_reason
    assert reason is not None and SECRET not in reason and "[redacted]" in reason
    assert len(reason) <= 300


def test_the_next_successful_call_clears_the_fallback() -> None:
    chat = FakeChatModel([ProviderError("down"), "Yes"], "m")
    judge = FallbackJudge(LlmJudge(chat), FakeChecker(model_id="local"))
    judge.check([pair()])
    assert judge.model_id == "local"
    judge.check([pair()])
    assert judge.fallback_reason is None and judge.model_id.startswith("llm-judge:m@")


def test_fallback_state_belongs_to_the_calling_thread() -> None:
    judge = FallbackJudge(LlmJudge(FakeChatModel([ProviderError("down")])), FakeChecker())
    judge.check([pair()])
    seen: list[str | None] = []
    thread = threading.Thread(target=lambda: seen.append(judge.fallback_reason))
    thread.start()
    thread.join()
    assert seen == [None] and judge.fallback_reason is not None


def test_other_errors_are_not_swallowed() -> None:
    class Broken:
        model_id = "broken"

        def check(self, pairs: object) -> np.ndarray:
            raise RuntimeError("bug")

    with pytest.raises(RuntimeError, match="bug"):
        FallbackJudge(Broken(), FakeChecker()).check([pair()])


# ----------------------------------------------------------------------------- replay


def test_recorded_judge_replays_stored_judgements_bit_for_bit_through_json() -> None:
    local = FakeChecker((0.1, 0.7, 0.2), "local-judge")
    pairs = [pair(), pair(window=OTHER), pair()]
    probabilities = local.check(pairs)
    records = judgement_records(local, pairs, probabilities)
    assert [r["window"] for r in records] == [WINDOW, OTHER]
    assert records[0] == {
        "claim": CLAIM,
        "window": WINDOW,
        "probabilities": [float(np.float32(p)) for p in (0.1, 0.7, 0.2)],
        "model": "local-judge",
    }
    stored = json.loads(canonical_json(records))
    replayed = RecordedJudge.from_records(stored)
    assert replayed.model_id == "local-judge" and len(replayed) == 2
    again = replayed.check(pairs)
    assert again.dtype == np.float32
    assert again.tobytes() == probabilities.tobytes()


def test_recorded_judge_refuses_an_unknown_pair() -> None:
    judge = RecordedJudge({(CLAIM, WINDOW): (1.0, 0.0, 0.0)}, "llm-judge:m@prompt:abc")
    assert judge.check([pair()]).tolist() == [[1, 0, 0]]
    with pytest.raises(ProviderError, match="no stored judgement for pair 1") as caught:
        judge.check([pair(), pair(window=OTHER)])
    assert not caught.value.retryable


def test_records_of_a_fallback_name_the_judge_that_answered() -> None:
    judge = FallbackJudge(LlmJudge(FakeChatModel([ProviderError("down")])), FakeChecker())
    probabilities = judge.check([pair()])
    [record] = judgement_records(judge, [pair()], probabilities)
    assert record["model"] == "fake-checker"


def test_mixed_models_are_named_together_unless_an_id_is_given() -> None:
    records = [
        {"claim": "a", "window": "w", "probabilities": [1, 0, 0], "model": "llm-judge:m"},
        {"claim": "b", "window": "w", "probabilities": [0, 0, 1], "model": "local"},
    ]
    assert RecordedJudge.from_records(records).model_id == "llm-judge:m+local"
    assert RecordedJudge.from_records(records, model_id="x").model_id == "x"
    assert RecordedJudge.from_records([]).model_id == ""


@pytest.mark.parametrize(
    ("records", "why"),
    [
        ([{"claim": "a", "probabilities": [1, 0, 0]}], "must be an object with claim"),
        (["not a dict"], "must be an object with claim"),
        ([{"claim": 1, "window": "w", "probabilities": [1, 0, 0]}], "must be text"),
        ([{"claim": "a", "window": "w", "probabilities": [1, 0]}], "3 finite numbers"),
        ([{"claim": "a", "window": "w", "probabilities": "100"}], "not text"),
        ([{"claim": "a", "window": "w", "probabilities": [1, -1, 1]}], "finite numbers >= 0"),
        (
            [
                {"claim": "a", "window": "w", "probabilities": [1, 0, 0]},
                {"claim": "a", "window": "w", "probabilities": [0, 0, 1]},
            ],
            "other probabilities",
        ),
    ],
)
def test_bad_records_are_refused_with_the_reason(records: list[object], why: str) -> None:
    with pytest.raises(InvalidInputError, match=why):
        RecordedJudge.from_records(records)  # type: ignore[arg-type]


def test_records_need_one_row_per_pair() -> None:
    with pytest.raises(InvalidInputError, match="shape"):
        judgement_records(FakeChecker(), [pair()], np.zeros((2, 3), dtype=np.float32))


def test_the_documentation_shows_the_prompt_and_its_hashes() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "llm-judge.md").read_text(encoding="utf-8")
    for digest in JUDGE_PROMPT_SHA256.values():
        assert f"`{digest}`" in doc
    assert JUDGE_SYSTEM_PROMPT.strip() in doc


def test_closing_the_fallback_judge_closes_both_judges() -> None:
    closed: list[str] = []

    class Closable(FakeChecker):
        def close(self) -> None:
            closed.append(self.model_id)

    FallbackJudge(Closable(model_id="llm"), Closable(model_id="local")).close()
    FallbackJudge(FakeChecker(), FakeChecker()).close()  # nothing to close: no error
    assert closed == ["llm", "local"]
