"""The answerability suite's questions (issue 15): claims turned into open questions
deterministically, seeded halves; the real-data checks skip when ``../shared/data`` is absent."""

from __future__ import annotations

from collections import Counter

import pytest

from spanproof.evaluation.answerability import (
    ANSWERABLE,
    CALIBRATION,
    OFF_TOPIC,
    REPORT,
    TEMPLATES,
    UNANSWERABLE,
    as_question,
    build_suite,
    question_text,
    split_of,
)
from spanproof.evaluation.devdata import data_dir

ROOT = data_dir()


@pytest.mark.parametrize(
    ("claim", "question"),
    [
        ("Rapamycin delays aging in fruit flies.", "rapamycin delays aging in fruit flies"),
        ("PrP positivity is rare in the UK.", "PrP positivity is rare in the UK"),
        ("Henri Kontinen won the 2011 Open.", "Henri Kontinen won the 2011 Open"),
        ("Increased LDL receptors lower Lp(a).", "Increased LDL receptors lower Lp(a)"),
        ('"The sun has gone into lockdown"', "the sun has gone into lockdown"),
    ],
)
def test_a_claim_becomes_an_open_question(claim: str, question: str) -> None:
    assert as_question(claim, TEMPLATES[0]) == f"What is known about whether {question}?"


def test_the_template_and_the_half_depend_only_on_seed_and_origin() -> None:
    texts = {question_text(7, f"scifact:{n}", "Aspirin lowers fever.") for n in range(30)}
    assert len(texts) == len(TEMPLATES)  # all templates get used
    assert question_text(7, "scifact:1", "A b.") == question_text(7, "scifact:1", "A b.")
    halves = Counter(split_of(7, f"scifact:{n}") for n in range(200))
    assert set(halves) == {CALIBRATION, REPORT} and min(halves.values()) > 70


@pytest.mark.skipif(ROOT is None, reason="../shared/data not found (SPANPROOF_DATA_DIR)")
def test_the_suite_pairs_each_claim_with_its_unanswerable_twin_and_adds_off_topic() -> None:
    assert ROOT is not None
    suite = build_suite(ROOT, seed=11, limit=10)
    assert suite == build_suite(ROOT, seed=11, limit=10)  # seeded: the same questions
    kinds = Counter(q.kind for q in suite)
    assert kinds == {ANSWERABLE: 10, UNANSWERABLE: 10, OFF_TOPIC: 10}
    answerable = {q.origin: q for q in suite if q.kind == ANSWERABLE}
    for q in suite:
        assert q.text.startswith("What ") and q.text.endswith("?")
        if q.kind == UNANSWERABLE:
            twin = answerable[q.origin]
            assert (q.text, q.cited, q.split) == (twin.text, twin.cited, twin.split)
        if q.kind == OFF_TOPIC:
            assert q.cited == () and not q.origin.startswith("scifact:")
        else:
            assert q.cited and set(q.rationale) <= set(q.cited)
    assert {q.origin for q in build_suite(ROOT, seed=12, limit=10)} != {q.origin for q in suite}
