"""The extractive generator quotes one source by default: the one that bears on the question
most, counting its second-best sentence too (issue 15)."""

from __future__ import annotations

import pytest

from spanproof.core.errors import ConfigurationError
from spanproof.core.models import EvidenceSpan
from spanproof.services.generation import ExtractiveGenerator
from spanproof.services.planning import Plan

QUESTION = "Did daily walking lower blood pressure?"


def _span(marker: str, text: str, source: str | None) -> EvidenceSpan:
    return EvidenceSpan(id=marker, text=text, source={"source_id": source} if source else {})


def _plan(
    spans: tuple[EvidenceSpan, ...], relevance: tuple[float, ...], floor: float = 0.5
) -> Plan:
    return Plan(
        question=QUESTION, spans=spans, relevance=relevance, relevance_model="test", floor=floor
    )


PLAN = _plan(
    (
        _span("S1", "Daily walking lowered systolic blood pressure by 5 mmHg.", "walking"),
        _span("S2", "Walking trials elsewhere lowered blood pressure too.", "review"),
        _span("S3", "Daily walking also lowered diastolic blood pressure.", "walking"),
        _span("S4", "Blood pressure fell most in the oldest walkers.", "walking"),
    ),
    (0.90, 0.89, 0.88, 0.87),
)


def test_one_source_by_default_even_when_another_is_as_relevant() -> None:
    draft = ExtractiveGenerator().generate(QUESTION, PLAN).text
    assert "[S1]" in draft and "[S3]" in draft and "[S4]" in draft
    assert "[S2]" not in draft


def test_more_sources_when_asked_in_relevance_order() -> None:
    draft = ExtractiveGenerator(max_sources=2).generate(QUESTION, PLAN).text
    assert draft.index("[S1]") < draft.index("[S2]") < draft.index("[S3]")
    assert "[S4]" not in draft  # three sentences at most


def test_spans_without_a_source_each_count_as_their_own() -> None:
    plan = _plan(tuple(_span(s.id, s.text, None) for s in PLAN.spans), PLAN.relevance)
    assert ExtractiveGenerator().generate(QUESTION, plan).text.count("[S") == 1


def test_the_model_id_names_the_behaviour() -> None:
    assert ExtractiveGenerator().model_id == "extractive-v3"
    assert ExtractiveGenerator().generate(QUESTION, PLAN).model == "extractive-v3"
    # The source of the single best span: the generator before second sentences counted.
    assert ExtractiveGenerator(second_weight=0.0).model_id == "extractive-v2"
    # Another weight ranks sources otherwise: its drafts are named apart.
    assert ExtractiveGenerator(second_weight=0.25).model_id == "extractive-v3:second=0.25"
    # As many sources as sentences: the drafts of the generator before the one-source rule.
    assert ExtractiveGenerator(max_sources=3).model_id == "extractive-v1"


def test_at_least_one_source() -> None:
    with pytest.raises(ConfigurationError, match="max_sources"):
        ExtractiveGenerator(max_sources=0)


@pytest.mark.parametrize("weight", [-0.1, 1.5])
def test_second_weight_is_a_share(weight: float) -> None:
    with pytest.raises(ConfigurationError, match="second_weight"):
        ExtractiveGenerator(second_weight=weight)


# A neighbour with one sentence that matches the question's words a little better than the
# best sentence of the source the question is about, which has a second relevant sentence.
STRAY = _plan(
    (
        _span("S1", "Walking programmes were compared in an earlier review.", "review"),
        _span("S2", "Daily walking lowered systolic blood pressure by 5 mmHg.", "walking"),
        _span("S3", "Daily walking also lowered diastolic blood pressure.", "walking"),
        _span("S4", "The trial enrolled 120 adults.", "walking"),
    ),
    (0.86, 0.84, 0.80, 0.55),
)


def test_a_source_with_two_relevant_sentences_beats_one_stray_match() -> None:
    draft = ExtractiveGenerator().generate(QUESTION, STRAY).text
    assert draft == (
        "Daily walking lowered systolic blood pressure by 5 mmHg [S2]. "
        "Daily walking also lowered diastolic blood pressure [S3]."
    )  # S4 is more than MAX_BEHIND below the chosen source's best sentence
    # Without the second sentence counted, the single best sentence's source is quoted.
    assert ExtractiveGenerator(second_weight=0.0).generate(QUESTION, STRAY).text == (
        "Walking programmes were compared in an earlier review [S1]."
    )


def test_a_clearly_better_single_sentence_still_wins() -> None:
    plan = _plan(STRAY.spans, (0.99, 0.60, 0.40, 0.30), floor=0.2)
    assert ExtractiveGenerator().generate(QUESTION, plan).text == (
        "Walking programmes were compared in an earlier review [S1]."
    )  # 0.99 against 0.60 + 0.5 x 0.40


def test_as_many_sources_as_sentences_keeps_relevance_order() -> None:
    draft = ExtractiveGenerator(max_sources=3).generate(QUESTION, STRAY).text
    assert draft == (
        "Walking programmes were compared in an earlier review [S1]. "
        "Daily walking lowered systolic blood pressure by 5 mmHg [S2]."
    )  # S3 is more than MAX_BEHIND below the best sentence
