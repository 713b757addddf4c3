"""The answer-set check's parsing, gate and summary, on hand-made reports (no model)."""

from __future__ import annotations

import pytest

from spanproof.core.errors import InvalidInputError
from spanproof.core.models import ClaimVerdict, EvidenceSpan, Report, SpanRef, Verdict
from spanproof.services.answer_check import (
    AnswerCase,
    AnswerResult,
    context_spans,
    parse_case,
    summarise,
    validate_min_supported,
)


def verdict(v: Verdict, n: int = 1, span: SpanRef | None = None) -> ClaimVerdict:
    return ClaimVerdict(f"c{n}", f"claim {n}", None, v, 0.5, span, 1, (), False)


def result(ident: str, *verdicts: Verdict, verification: str = "verified") -> AnswerResult:
    claims = tuple(verdict(v, n) for n, v in enumerate(verdicts, start=1))
    report = Report("v2", "m", verification, claims if verification == "verified" else (), None)
    return AnswerResult(AnswerCase(ident, "answer", (EvidenceSpan("S1", "text"),)), report)


S, U, C = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.CONTRADICTED


def test_contexts_are_named_by_position_unless_they_carry_an_id() -> None:
    spans = context_spans(["first", {"text": "second"}, {"id": 7, "text": "third"}])
    assert [(s.id, s.text) for s in spans] == [("S1", "first"), ("S2", "second"), ("7", "third")]
    with pytest.raises(InvalidInputError, match="context 2 repeats the id 'S1'"):
        context_spans(["a", {"id": "S1", "text": "b"}])


def test_parse_case_reads_ragas_names_and_defaults_the_id_to_the_line() -> None:
    case = parse_case({"user_input": "q?", "response": "A.", "retrieved_contexts": ["x"]}, "f:4", 4)
    assert (case.id, case.question, case.answer, case.line) == ("line 4", "q?", "A.", 4)
    assert [s.id for s in case.contexts] == ["S1"]


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"contexts": []}, "f:1: needs a string 'answer' or 'response' or 'actual_output'"),
        ({"answer": "a"}, "f:1: needs a list 'contexts'"),
        ({"answer": "a", "contexts": "x"}, "f:1: needs a list 'contexts'"),
        ({"answer": "a", "contexts": [], "id": [1]}, "'id' must be a string or an integer"),
        ({"answer": "a", "contexts": [], "question": 3}, "'question' must be a string"),
    ],
)
def test_parse_case_names_what_is_wrong(obj: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message.replace("(", r"\(")):
        parse_case(obj, "f:1", 1)


def test_failures_follow_fail_on_and_min_supported() -> None:
    mixed = result("m", S, S, U, S)
    assert mixed.supported_share == 0.75
    assert mixed.failures("never", None) == []
    assert mixed.failures("contradicted", None) == []
    assert mixed.failures("unsupported", None) == [
        "outcome not_all_supported reaches fail-on unsupported"
    ]
    assert mixed.failures("never", 0.75) == []  # the minimum itself passes
    assert mixed.failures("never", 0.8) == ["75% of claims supported, under the minimum 80%"]


def test_an_unchecked_answer_fails_any_gate_and_no_claims_pass() -> None:
    down = result("d", verification="unavailable: embedding failed: boom")
    assert down.supported_share is None
    assert down.failures("never", None) == []
    assert down.failures("contradicted", None) == [
        "not checked: unavailable: embedding failed: boom"
    ]
    empty = result("e")
    assert empty.supported_share is None
    assert empty.failures("unsupported", 1.0) == []


def test_summary_counts_claims_and_ranks_worst_offenders() -> None:
    results = [
        result("fine", S, S),
        result("half", S, U),
        result("half-contradicted", S, C),
        result("none", U, U, C),
        result("down", verification="unavailable: x"),
    ]
    summary = summarise(results, "contradicted", 0.6, worst=3)
    assert (summary.answers, summary.claims, summary.supported) == (5, 9, 4)
    assert summary.supported_share == pytest.approx(4 / 9)
    assert summary.contradicted_answers == 2
    assert summary.unavailable == 1
    # half (50 % < 60 %), half-contradicted, none, down (not checked under a gate)
    assert summary.failed == 4
    assert summary.worst == ("none", "half-contradicted", "half")
    assert summary.outcomes["unavailable"] == 1 and summary.outcomes["all_supported"] == 1
    assert summarise(results, worst=0).worst == ()


def test_closest_text_is_the_best_span_range_and_claims_are_listed_worst_first() -> None:
    case = AnswerCase("a", "x", (EvidenceSpan("S1", "Alpha beta gamma."),))
    claims = (
        verdict(S, 1),
        verdict(U, 2, SpanRef("S1", 6, 10)),
        verdict(C, 3, SpanRef("S9", 0, 3)),
    )
    r = AnswerResult(case, Report("v2", "m", "verified", claims, None))
    assert [c.id for c in r.not_supported()] == ["c3", "c2"]
    assert r.closest_text(claims[1]) == "beta"
    assert r.closest_text(claims[2]) == ""  # an id the contexts do not hold
    assert r.closest_text(claims[0]) == ""


@pytest.mark.parametrize("value", [-0.1, 1.01, float("nan")])
def test_min_supported_outside_zero_to_one_is_refused(value: float) -> None:
    with pytest.raises(InvalidInputError, match="between 0 and 1"):
        validate_min_supported(value)
