"""The relevance score of a span for a question (issue 15): content-word coverage, cosine, the
logistic model and its floor; pure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.text.tokens import token_texts
from spanproof.verify.relevance import (
    FUNCTION_WORDS,
    RELEVANCE_V1,
    RELEVANCE_V1_LEXICAL,
    RelevanceModel,
    content_terms,
    question_coverage,
    relevance_model_for,
)

SPANS = [
    "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg.",
    "Half of the schools taught in two languages from the first year.",
    "Caffeine shortened reaction time by 25 milliseconds.",
]


def coverages(question: str) -> list[float]:
    return question_coverage(token_texts(question), [token_texts(s) for s in SPANS])


def test_function_words_of_a_question_count_for_nothing() -> None:
    assert content_terms(token_texts("What is the capital of France?")) == ["capital", "france"]
    assert {"what", "is", "the", "of", "whether", "does"} <= FUNCTION_WORDS
    # "Half of the schools …" shares only function words with the question: no coverage.
    assert coverages("What is the capital of France?") == [0.0, 0.0, 0.0]
    assert coverages("What is it?") == [0.0, 0.0, 0.0]


def test_the_span_holding_the_questions_words_covers_it_best() -> None:
    walking, schools, caffeine = coverages("What did daily walking do to blood pressure?")
    assert walking == pytest.approx(1.0)
    assert schools == caffeine == 0.0
    partial = coverages("Did daily walking lower heart rate?")[0]
    assert 0.0 < partial < 1.0


def test_relevance_rises_with_coverage_and_cosine_and_the_floor_decides() -> None:
    model = RELEVANCE_V1
    low, mid, high = model.score(0.0, 0.1), model.score(0.5, 0.4), model.score(1.0, 0.8)
    assert 0.0 <= low < mid < high <= 1.0
    assert low < model.floor <= high  # unrelated text falls below the floor, a match above it
    assert model.score(2.0, 5.0) == model.score(1.0, 1.0)  # inputs are clamped to [0, 1]


def test_a_lexical_model_ignores_cosines() -> None:
    model = RELEVANCE_V1_LEXICAL
    assert model.score(0.6, 0.0) == model.score(0.6, 0.99) == model.score(0.6, None)
    assert model.score(0.0, None) < model.floor < model.score(1.0, None)


def test_the_cosine_model_serves_only_its_own_embedder() -> None:
    assert relevance_model_for(RELEVANCE_V1.embed_model) is RELEVANCE_V1
    assert relevance_model_for("fake-embedder") is RELEVANCE_V1_LEXICAL
    assert relevance_model_for(None) is RELEVANCE_V1_LEXICAL
    assert RELEVANCE_V1.uses(RELEVANCE_V1.embed_model) and not RELEVANCE_V1_LEXICAL.uses("x")


@given(
    st.floats(-1, 2, allow_nan=False),
    st.one_of(st.none(), st.floats(-1, 2, allow_nan=False)),
    st.floats(-20, 20, allow_nan=False),
)
def test_relevance_is_in_the_unit_interval(coverage: float, cosine: float | None, w: float) -> None:
    model = RelevanceModel("t", "m", w, w, -w, 0.5)
    assert 0.0 <= model.score(coverage, cosine) <= 1.0
