"""The answerability gate (issue 15): the claim a question asks about, how much of it one whole
source states, and the pinned logistic decision; pure."""

from __future__ import annotations

import pytest

from spanproof.text.tokens import token_texts
from spanproof.verify.relevance import (
    ANSWERABILITY_V1,
    RELEVANCE_V1,
    RELEVANCE_V1_LEXICAL,
    AnswerabilityModel,
    AnswerabilitySignals,
    answerability_model_for,
    asked_claim,
    source_coverage,
)


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("What is known about whether aspirin lowers fever?", "Aspirin lowers fever."),
        (
            "What do studies report on whether IL-6 drives sepsis in mice?",
            "IL-6 drives sepsis in mice.",
        ),
        ("What is the evidence that statins reduce stroke risk?", "Statins reduce stroke risk."),
        (
            "Is it true that daily walking raised blood pressure?",
            "Daily walking raised blood pressure.",
        ),
        ("Does aspirin lower fever?", "Aspirin lowers fever."),
    ],
)
def test_a_question_around_a_claim_gives_the_claim(question: str, claim: str) -> None:
    assert asked_claim(question) == claim


@pytest.mark.parametrize(
    "question",
    [
        "What lowers fever?",
        "What is the capital of France?",
        "Which genes that regulate apoptosis are mutated in lymphoma?",  # "that": a relative
        "What happens if the dose is doubled?",  # "if": a condition, not a claim
        "What is known about whether it works?",  # too short to be a claim
    ],
)
def test_a_question_asking_for_something_has_no_claim(question: str) -> None:
    assert asked_claim(question) is None


SPANS = [
    "Aspirin lowered fever in children within two hours.",
    "Fever is common in children.",
    "Ibuprofen lowered fever in adults.",
]


def _cover(claim: str, sources: list[str]) -> list[float]:
    return source_coverage(
        token_texts(claim), [token_texts(s) for s in SPANS], [token_texts(s) for s in sources]
    )


def test_the_source_stating_the_claims_specific_words_covers_it_fully() -> None:
    stating = "Aspirin reduced fever. In children, aspirin lowers fever within two hours."
    neighbour = "Fever is common in children. Ibuprofen lowers fever in adults."
    full, near = _cover("Aspirin lowers fever in children.", [stating, neighbour])
    assert full == pytest.approx(1.0)
    # The neighbour shares the topic (fever, children, lowers) but not the subject: less.
    assert near < 0.8
    assert near < full


def test_function_words_and_an_unrelated_source_cover_nothing() -> None:
    assert _cover("Aspirin lowers fever.", ["The capital of France is Paris."]) == [0.0]
    assert _cover("It is what it is.", ["Aspirin lowers fever."]) == [0.0]


def test_a_claim_specific_word_weighs_more_than_a_word_every_span_shares() -> None:
    # "children" is in two of the three spans, "aspirin" in one: a source holding "aspirin"
    # covers more of the claim than one holding "children" alone.
    with_aspirin, with_children = _cover("Aspirin helps children.", ["aspirin", "children"])
    assert with_aspirin > with_children


def _signals(relevance: float, coverage: float, score: float) -> AnswerabilitySignals:
    return AnswerabilitySignals("Aspirin lowers fever.", relevance, coverage, score)


def test_the_gate_is_monotone_in_each_signal_and_abstains_below_its_floor() -> None:
    gate = AnswerabilityModel("t", "r", "v2", 0.5, 3.0, 3.0, bias=-3.0)
    low, high = _signals(0.6, 0.2, 0.2), _signals(0.6, 0.9, 0.8)
    assert gate.score(low) < 0.5 <= gate.score(high)
    assert not gate.answers(low) and gate.answers(high)
    assert gate.score(_signals(0.9, 0.2, 0.2)) > gate.score(low)
    assert gate.score(_signals(0.6, 0.5, 0.2)) > gate.score(low)
    assert gate.score(_signals(0.6, 0.2, 0.5)) > gate.score(low)
    # Out-of-range signals are clamped, never overflow.
    assert 0.0 <= gate.score(_signals(1.0, 5.0, -3.0)) <= 1.0


def test_the_shipped_gate_reads_the_bundled_relevance_model_only() -> None:
    assert answerability_model_for(RELEVANCE_V1.name) is ANSWERABILITY_V1
    assert answerability_model_for(RELEVANCE_V1_LEXICAL.name) is None
    assert ANSWERABILITY_V1.relevance_model == RELEVANCE_V1.name
    # A source stating the claim, and a claim the plan supports, are answered; a plan that
    # holds neither is not.
    assert ANSWERABILITY_V1.answers(_signals(0.9, 1.0, 0.9))
    assert not ANSWERABILITY_V1.answers(_signals(0.6, 0.1, 0.1))
    record = _signals(0.9, 1.0, 0.9).to_dict()
    assert record == {
        "claim": "Aspirin lowers fever.",
        "relevance": 0.9,
        "source_coverage": 1.0,
        "claim_score": 0.9,
    }
