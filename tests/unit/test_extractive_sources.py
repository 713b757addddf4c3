"""The extractive generator quotes one source by default: the best span's (issue 15)."""

from __future__ import annotations

import pytest

from spanproof.core.errors import ConfigurationError
from spanproof.core.models import EvidenceSpan
from spanproof.services.generation import ExtractiveGenerator
from spanproof.services.planning import Plan

QUESTION = "Did daily walking lower blood pressure?"


def _span(marker: str, text: str, source: str | None) -> EvidenceSpan:
    return EvidenceSpan(id=marker, text=text, source={"source_id": source} if source else {})


PLAN = Plan(
    question=QUESTION,
    spans=(
        _span("S1", "Daily walking lowered systolic blood pressure by 5 mmHg.", "walking"),
        _span("S2", "Walking trials elsewhere lowered blood pressure too.", "review"),
        _span("S3", "Daily walking also lowered diastolic blood pressure.", "walking"),
        _span("S4", "Blood pressure fell most in the oldest walkers.", "walking"),
    ),
    relevance=(0.90, 0.89, 0.88, 0.87),
    relevance_model="test",
    floor=0.5,
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
    plan = Plan(
        question=QUESTION,
        spans=tuple(_span(s.id, s.text, None) for s in PLAN.spans),
        relevance=PLAN.relevance,
        relevance_model="test",
        floor=0.5,
    )
    assert ExtractiveGenerator().generate(QUESTION, plan).text.count("[S") == 1


def test_the_model_id_names_the_behaviour() -> None:
    assert ExtractiveGenerator().model_id == "extractive-v2"
    assert ExtractiveGenerator().generate(QUESTION, PLAN).model == "extractive-v2"
    # As many sources as sentences: the drafts of the generator before the one-source rule.
    assert ExtractiveGenerator(max_sources=3).model_id == "extractive-v1"


def test_at_least_one_source() -> None:
    with pytest.raises(ConfigurationError, match="max_sources"):
        ExtractiveGenerator(max_sources=0)
