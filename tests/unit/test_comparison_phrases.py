"""Score model v78: a comparison whose other side a phrase names ("compared with", "relative
to", "versus", after the comparative or opening the clause before it)
(:func:`spanproof.verify.comparisons.comparisons`, ``phrases``), read by the comparison gate,
the polarity gate's restatement and the edit check."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.comparisons import (
    comparison_kept,
    comparison_restated,
    comparison_reversed,
    comparison_traded,
    comparisons,
    restated_comparatives,
    side_words,
)
from spanproof.verify.scoring import SCORE_MODELS, V77, V78, ScoreModel

CHILDREN = (
    "Compared with children, adults over 65 years were more susceptible to infection (odds "
    "ratio 1.47)."
)
SMOKERS = "Smokers had a higher risk of stroke relative to never smokers."


def _read(sentence: str) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    return comparisons(sentence, figures=True, no_bounds=True, phrases=True)


@pytest.mark.parametrize(
    ("sentence", "left", "right"),
    [
        # a phrase opening the clause before the comparative's names the right side
        (CHILDREN, {"adult", "year", "65"}, {"children"}),
        ("Compared with women, mortality was higher in men.", {"men"}, {"women"}),
        # a phrase in the place of "than"
        (SMOKERS, {"smoker"}, {"smoker", "never"}),
        ("Mortality was higher in men as compared with women.", {"men"}, {"women"}),
        ("Mortality was higher in men in comparison to women.", {"men"}, {"women"}),
        ("Mortality was higher in men versus women.", {"men"}, {"women"}),
        # the right side stops at a bracket: its figures are no side
        ("TLR3 expression was higher in NSCLC compared to IPF (p=0.023) and controls.", {"nsclc"},
         {"ipf"}),
    ],
)  # fmt: skip
def test_a_phrase_names_the_right_side(sentence: str, left: set[str], right: set[str]) -> None:
    assert _read(sentence) == (("up", frozenset(left), frozenset(right)),)
    # before v78 none of these held a comparison
    assert comparisons(sentence, figures=True, no_bounds=True) == ()


@pytest.mark.parametrize(
    "sentence",
    [
        # figures paired by "vs" are no sides
        "Urban communities had lower rates of cardiovascular events (4.83 vs. 6.25 per 1000).",
        # nothing before the comparative in its clause: no left side (a clause mark stands
        # between "baseline" and "fewer")
        "Compared with baseline, fewer patients had pain.",
        # "compared with" that names no side of a comparative
        "Compared with placebo, drug X reduced all-cause mortality by 20%.",
        "Drug X was compared with placebo in 500 patients.",
    ],
)
def test_no_comparison_without_two_sides(sentence: str) -> None:
    assert _read(sentence) == ()


def test_a_place_after_a_noun_is_read_both_ways() -> None:
    # "a longer period in A than B" compares A and B, or (as "a greater reduction in HbA1c
    # than placebo") the subjects: both readings are kept
    period = _read(
        "Serum shock generated a longer period in differentiated cells relative to "
        "undifferentiated cells."
    )
    assert [left for _, left, _ in period] == [
        frozenset({"serum", "shock", "generat"}),
        frozenset({"differenti", "cell"}),
    ]
    hba1c = _read("Drug X caused a greater reduction in HbA1c than placebo.")
    assert {left for _, left, _ in hba1c} == {
        frozenset({"drug", "x", "caus"}),
        frozenset({"hba1c"}),
    }
    # a gerund after the preposition names what, not where: one reading
    masks = _read("The surgical mask was more effective in blocking transmission than cloth.")
    assert len(masks) == 1 and "surgic" in masks[0][1]
    # before v78: the subjects only
    assert len(comparisons("Drug X caused a greater reduction in HbA1c than placebo.")) == 1


def test_sides_traded_and_restated_through_a_phrase() -> None:
    traded = "Children were more susceptible to infection than adults over 65."
    restated = "Children were less susceptible to infection than adults over 65."
    assert comparison_reversed(traded, CHILDREN, True, True, True)
    assert not comparison_reversed(traded, CHILDREN, True, True)
    assert comparison_restated(restated, CHILDREN, True, True)
    assert not comparison_restated(restated, CHILDREN, True)
    kept = "Adults over 65 were more susceptible to infection than children."
    assert comparison_kept(kept, CHILDREN, True) == {"adult", "65", "children"}
    assert comparison_traded(kept, CHILDREN, True) == frozenset()
    assert comparison_traded(traded, CHILDREN, True) == {"adult", "65", "children"}


def test_sides_told_apart_by_a_word_of_one_side() -> None:
    # "never smokers" / "smokers": the sides share "smokers"; "never" changed sides
    traded = "Never smokers had a higher risk of stroke than smokers."
    assert comparison_reversed(traded, SMOKERS, True, True, True)
    assert comparison_restated(
        "Never smokers had a lower risk of stroke than smokers.", SMOKERS, True, True
    )
    assert not comparison_reversed(
        "Smokers had a higher risk of stroke than never smokers.", SMOKERS, True, True, True
    )
    than = "Smokers had a higher risk of stroke than never smokers."
    # without v78's reading of one-sided words, no trade is seen
    assert not comparison_reversed(traded, than, True, True)
    assert comparison_reversed(traded, than, True, True, True)


def _judged(model: ScoreModel, claim: str, evidence: str) -> tuple[Verdict, set[str]]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict, {e.judgement or "" for e in verdict.edits}


@pytest.mark.parametrize(
    ("claim", "evidence", "v77", "v78"),
    [
        # the sides traded: supported before v78
        ("Children were more susceptible to infection than adults over 65.", CHILDREN,
         Verdict.SUPPORTED, None),
        ("The incidence of diabetes was higher in men than in women.",
         "The incidence of diabetes was higher in women compared to men (12% vs 8%).",
         Verdict.SUPPORTED, None),
        # the same comparison with "than": refused before v78 as roles swapped
        ("Adults over 65 were more susceptible to infection than children.", CHILDREN,
         Verdict.UNSUPPORTED, Verdict.SUPPORTED),
        # with the phrase: refused before v78 as a phrase not in the evidence
        ("Compared with children, adults over 65 were more susceptible to infection.",
         "Adults over 65 years were more susceptible to infection than children.",
         Verdict.UNSUPPORTED, Verdict.SUPPORTED),
        # restated with the sides traded and the direction turned: contradicted before v78
        ("Never smokers had a lower risk of stroke than smokers.",
         "Smokers had a higher risk of stroke than never smokers.",
         Verdict.CONTRADICTED, Verdict.SUPPORTED),
    ],
)  # fmt: skip
def test_v78_verdicts(claim: str, evidence: str, v77: Verdict, v78: Verdict | None) -> None:
    assert _judged(V77, claim, evidence)[0] is v77
    verdict, _ = _judged(V78, claim, evidence)
    if v78 is None:
        assert verdict is not Verdict.SUPPORTED
    else:
        assert verdict is v78


def test_the_edit_check_reads_a_side_moved_to_than() -> None:
    claim = "Adults over 65 were more susceptible to infection than children."
    _, before = _judged(V77, claim, CHILDREN)
    _, after = _judged(V78, claim, CHILDREN)
    assert "unsupported: roles swapped" in before
    assert "allowed: comparison restated" in after and "unsupported: roles swapped" not in after


def test_the_edit_check_reads_a_word_moved_across_a_phrase() -> None:
    claim = "Never smokers had a higher risk of stroke than smokers."
    verdict, before = _judged(V77, claim, SMOKERS)
    assert verdict is Verdict.SUPPORTED and "allowed: words reordered" in before
    verdict, after = _judged(V78, claim, SMOKERS)
    assert verdict is Verdict.UNSUPPORTED and "unsupported: roles swapped" in after


def test_v78_keeps_what_v77_reads_right() -> None:
    evidence = (
        "In the randomized trial, drug X was compared with placebo in 500 patients with heart "
        "failure; mortality was lower in the drug X group."
    )
    true = "Mortality was lower with drug X than with placebo in patients with heart failure."
    false = "Mortality was higher with drug X than with placebo."
    for model in (V77, V78):
        assert _judged(model, true, evidence)[0] is Verdict.SUPPORTED
        assert _judged(model, false, evidence)[0] is Verdict.CONTRADICTED
    fronted = "Compared with placebo, drug X reduced all-cause mortality by 20% in heart failure."
    assert (
        _judged(V78, "Drug X reduced all-cause mortality compared with placebo.", fronted)[0]
        is Verdict.SUPPORTED
    )


def test_v78_is_v77_with_comparison_phrases() -> None:
    assert SCORE_MODELS["v78"] is V78
    assert DEFAULT_SCORE_MODEL != "v78"
    assert dataclasses.replace(V77, name="v78", comparison_phrases=True) == V78
    assert V78.comparison_phrases and not V77.comparison_phrases
    assert V78.clause_negations


BLOOD_PRESSURE = (
    "Compared with diastolic blood pressure, raised systolic blood pressure had a greater "
    "effect on angina and myocardial infarction, whereas raised diastolic blood pressure had a "
    "greater effect on abdominal aortic aneurysm than did raised systolic pressure."
)


def test_a_restatement_elsewhere_does_not_excuse_a_reversal() -> None:
    # the claim turns the first comparison round; the sentence's second comparison has the
    # sides traded and another direction, but the first states the claim's sides the other way
    claim = BLOOD_PRESSURE.replace(
        "had a greater effect on angina", "had a smaller effect on angina"
    )
    assert restated_comparatives(claim, BLOOD_PRESSURE, True) == frozenset()
    assert not comparison_restated(claim, BLOOD_PRESSURE, True, True)
    assert _judged(V77, claim, BLOOD_PRESSURE)[0] is Verdict.CONTRADICTED
    assert _judged(V78, claim, BLOOD_PRESSURE)[0] is Verdict.CONTRADICTED
    # a restatement of the comparison itself is read as one
    smokers = "Smokers had a higher risk of stroke than never smokers."
    restated = "Never smokers had a lower risk of stroke than smokers."
    assert restated_comparatives(restated, smokers, True) == {restated.index("lower")}


def test_a_kept_comparison_does_not_excuse_a_traded_one() -> None:
    # "more than ten times …" is kept whichever way the groups stand; "higher in A than in B"
    # is traded
    source = (
        "Self-harm rates were more than ten times higher in female prisoners than in male inmates."
    )
    claim = (
        "Self-harm rates were more than ten times higher in male inmates than in female prisoners."
    )
    assert comparison_kept(claim, source, True) and comparison_traded(claim, source, True)
    verdict, judgements = _judged(V78, claim, source)
    assert verdict is not Verdict.SUPPORTED and "unsupported: roles swapped" in judgements


def test_a_side_written_with_a_hyphen_is_one_word() -> None:
    # the edit check's tokens cut "N-cadherin-coated" at its hyphens; a side holds it whole
    source = "The response was higher for N-cadherin-coated surfaces compared with ECM surfaces."
    claim = "The response was higher for ECM surfaces than N-cadherin-coated surfaces."
    assert side_words(claim, [(claim.index("N-cadherin"), claim.index("N-cadherin") + 1)]) == {
        "n-cadherin-co"
    }
    verdict, judgements = _judged(V78, claim, source)
    assert verdict is Verdict.UNSUPPORTED and "unsupported: roles swapped" in judgements
    assert _judged(V77, claim, source)[0] is Verdict.SUPPORTED
