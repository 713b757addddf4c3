"""The comparison gate of score model v32: a comparison whose sides the claim trades."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.services.verification import score_all
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.comparisons import (
    comparison_restated,
    comparison_reversed,
    comparisons,
    without_comparatives,
)
from spanproof.verify.scoring import SCORE_MODELS, V31, V32, V40, V41, V44, V45, ScoreModel

MASKS = (
    "Both masks significantly reduced the number of microorganisms expelled by volunteers, "
    "although the surgical mask was 3 times more effective in blocking transmission than the "
    "homemade mask."
)


def test_a_comparison_has_a_direction_and_two_sides() -> None:
    assert comparisons("Mortality was higher in men than in women.") == (
        ("up", frozenset({"men"}), frozenset({"women"})),
    )
    (found,) = comparisons(MASKS)
    assert found[0] == "up" and "surgic" in found[1] and "homemad" in found[2]
    # no "than" within reach, or a side with no content word: no comparison
    assert comparisons("Mortality was higher in men.") == ()
    assert comparisons("It was more than that.") == ()


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Homemade cloth masks are more effective than proper surgical ones.", MASKS),
        (
            "Mortality was higher in men than in women.",
            "Mortality was higher in women than in men.",
        ),
        ("Women had higher mortality than men.", "Mortality was higher in men than in women."),
        (
            "Smokers had lower survival than non-smokers in the cohort.",
            "In the cohort, non-smokers had lower survival than smokers; the gap widened.",
        ),
    ],
)
def test_the_same_comparison_with_its_sides_traded_is_reversed(claim: str, evidence: str) -> None:
    assert comparison_reversed(claim, evidence)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the span's own order
        ("Surgical masks are more effective than homemade cloth masks.", MASKS),
        # sides traded in the opposite direction: the same statement
        ("Homemade masks are less effective than surgical masks.", MASKS),
        ("Mortality was higher in men than in women.", "Women had lower mortality than men."),
        # no comparison in the span, or sides that share nothing with the claim's
        ("Mortality was higher in men than in women.", "Mortality was high in both groups."),
        ("Mortality was higher in men than in women.", "Costs were higher in 2019 than in 2018."),
    ],
)
def test_a_comparison_read_the_same_way_is_not_reversed(claim: str, evidence: str) -> None:
    assert not comparison_reversed(claim, evidence)


@given(st.text(alphabet="abcdefgh moreless than,.;", max_size=80))
def test_a_sentence_never_reverses_itself(text: str) -> None:
    assert not comparison_reversed(text, text)


def test_v32_is_v31_with_the_comparison_gate() -> None:
    assert SCORE_MODELS["v32"] is V32 and V32.comparisons and not V31.comparisons
    assert replace(V32, name="v31", comparisons=False) == V31
    claims = [Claim("c1", "Homemade cloth masks are more effective than proper surgical ones.")]
    spans = [EvidenceSpan("S1", MASKS)]
    old = score_all(claims, spans, FakeEmbedder(), V31)[0][0]
    new = score_all(claims, spans, FakeEmbedder(), V32)[0][0]
    assert not old.polarity_gated
    assert new.polarity_gated and new.verdict is not Verdict.SUPPORTED


# --- v41: a comparison restated with its sides traded and its direction turned round ----------
SLEEP = "Those who slept fewer than 6 hours had higher cortisol than those who slept 8 hours."


def test_figures_tell_sides_apart_only_when_asked() -> None:
    ((_, left, right),) = [c for c in comparisons(SLEEP) if c[0] == "up"]
    assert "8" not in right  # v32 reads content words only
    ((_, left, right),) = [c for c in comparisons(SLEEP, figures=True) if c[0] == "up"]
    assert "6" in left and "8" in right


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Women had lower mortality than men.", "Mortality was higher in men than in women."),
        ("Homemade masks are less effective than surgical masks.", MASKS),
        (
            "Those who slept 8 hours had lower cortisol than those who slept fewer than 6 hours.",
            SLEEP,
        ),
    ],
)
def test_a_comparison_with_sides_traded_and_direction_turned_is_restated(
    claim: str, evidence: str
) -> None:
    assert comparison_restated(claim, evidence)
    assert not comparison_reversed(claim, evidence, figures=True)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # sides traded in the same direction: reversed, not restated
        (
            "Mortality was higher in women than in men.",
            "Mortality was higher in men than in women.",
        ),
        # the same order in the opposite direction: reversed by the polarity gate, not restated
        ("Mortality was lower in men than in women.", "Mortality was higher in men than in women."),
        # no comparison, or sides that share nothing
        ("Mortality was lower in women than in men.", "Mortality was high in both groups."),
        ("Mortality was lower in women than in men.", "Costs were higher in 2019 than in 2018."),
    ],
)
def test_other_comparisons_are_not_restated(claim: str, evidence: str) -> None:
    assert not comparison_restated(claim, evidence)


def test_figures_catch_sides_traded_that_differ_only_by_them() -> None:
    claim = "Those who slept 8 hours had higher cortisol than those who slept fewer than 6 hours."
    assert not comparison_reversed(claim, SLEEP)  # v32: the sides' words are the same
    assert comparison_reversed(claim, SLEEP, figures=True)


@given(st.text(alphabet="abcdefgh0123 moreless than,.;", max_size=80))
def test_a_sentence_never_restates_itself_turned_round(text: str) -> None:
    # a sentence's own comparisons are never both traded and turned against themselves
    assert not comparison_restated(text, text)


def test_without_comparatives_keeps_every_other_direction() -> None:
    cues = (("higher", "up", 1), ("increas", "up", 2), ("less", "down", 1), ("reduc", "down", 1))
    assert without_comparatives(cues) == (("increas", "up", 2), ("reduc", "down", 1))


def _verdict(model: object, claim: str, evidence: str) -> Verdict:
    spans = [EvidenceSpan("S1", evidence)]
    return score_all([Claim("c1", claim)], spans, FakeEmbedder(), model)[0][0].verdict  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("claim", "evidence", "v40", "v41"),
    [
        # restated: v40's polarity gate read "lower" against "higher" as a reversal
        (
            "Mortality was higher in men than in women.",
            "Women had lower mortality than men.",
            Verdict.CONTRADICTED,
            Verdict.SUPPORTED,
        ),
        (
            "Those who slept 8 hours had lower cortisol than those who slept fewer than 6 hours.",
            SLEEP,
            Verdict.CONTRADICTED,
            Verdict.SUPPORTED,
        ),
        # restated but negated: still a reversal
        (
            "Those who slept 8 hours did not have lower cortisol than those who slept fewer than "
            "6 hours.",
            SLEEP,
            Verdict.CONTRADICTED,
            Verdict.CONTRADICTED,
        ),
    ],
    ids=["restated", "restated-by-figures", "restated-negated"],
)
def test_v41_reads_a_restated_comparison_as_agreeing(
    claim: str, evidence: str, v40: Verdict, v41: Verdict
) -> None:
    assert _verdict(V40, claim, evidence) is v40
    assert _verdict(V41, claim, evidence) is v41


@pytest.mark.parametrize(
    ("new", "old", "field"),
    [(V41, V40, "comparison_restated"), (V45, V44, "comparison_figure_sides")],
    ids=["v41", "v45"],
)
def test_a_comparison_model_is_its_predecessor_with_one_field(
    new: ScoreModel, old: ScoreModel, field: str
) -> None:
    assert SCORE_MODELS[new.name] is new and getattr(new, field)
    assert not getattr(old, field)
    assert replace(new, name=old.name, **{field: False}) == old


# --- v45: a comparison's sides told apart by their figures alone -------------------------------
#: Both left sides name the group ("participants"); the right sides call it "those".
PARTICIPANTS = (
    "Participants who slept fewer than 6 hours had higher evening cortisol than those who slept "
    "8 hours."
)
RESTATED = (
    "Participants who slept 8 hours had lower evening cortisol than those who slept fewer than 6 "
    "hours."
)
TRADED = (
    "Participants who slept 8 hours had higher evening cortisol than those who slept fewer than "
    "6 hours."
)


def test_figure_sides_read_sides_that_share_a_word_by_their_figures() -> None:
    # v41 reads the shared "participants" as the left sides agreeing: neither traded nor restated
    assert not comparison_restated(RESTATED, PARTICIPANTS)
    assert not comparison_reversed(TRADED, PARTICIPANTS, figures=True)
    assert comparison_restated(RESTATED, PARTICIPANTS, figure_sides=True)
    assert not comparison_reversed(RESTATED, PARTICIPANTS, figures=True, figure_sides=True)
    assert comparison_reversed(TRADED, PARTICIPANTS, figures=True, figure_sides=True)
    assert not comparison_restated(TRADED, PARTICIPANTS, figure_sides=True)


def test_under_figure_sides_a_bound_is_no_comparison() -> None:
    assert len(comparisons(PARTICIPANTS, figures=True)) == 2  # "fewer than 6" and "higher … than"
    ((direction, left, right),) = comparisons(PARTICIPANTS, figures=True, no_bounds=True)
    assert direction == "up" and "6" in left and "8" in right


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # a side without a figure: the sides' words decide, as before
        (
            "Mortality was higher in women than in men.",
            "Mortality was higher in men than in women.",
        ),
        ("Women had lower mortality than men.", "Mortality was higher in men than in women."),
        # the same figures on the same sides: neither traded nor restated
        (PARTICIPANTS, PARTICIPANTS),
        (
            "Doses of 10 mg gave higher responses than doses of 5 mg.",
            "Doses of 10 mg gave higher responses than doses of 5 mg in the trial.",
        ),
    ],
)
def test_figure_sides_change_nothing_where_a_side_has_no_figure_or_none_trade(
    claim: str, evidence: str
) -> None:
    for relation in (comparison_restated, comparison_reversed):
        assert relation(claim, evidence, figure_sides=True) == relation(claim, evidence)


@given(st.text(alphabet="abcdefgh0123 moreless than,.;", max_size=80))
def test_with_figure_sides_a_sentence_never_reverses_or_restates_itself(text: str) -> None:
    # (a bound, "fewer than 6", is no comparison of its own then)
    assert not comparison_restated(text, text, figure_sides=True)
    assert not comparison_reversed(text, text, figures=True, figure_sides=True)


@pytest.mark.parametrize(
    ("claim", "v44", "v45"),
    [
        (RESTATED, Verdict.CONTRADICTED, Verdict.SUPPORTED),
        # sides traded in a near copy: the edit check's swapped figures refuse it under both
        (TRADED, Verdict.UNSUPPORTED, Verdict.UNSUPPORTED),
    ],
    ids=["restated", "traded"],
)
def test_v45_reads_a_comparison_by_its_figures(claim: str, v44: Verdict, v45: Verdict) -> None:
    assert _verdict(V44, claim, PARTICIPANTS) is v44
    assert _verdict(V45, claim, PARTICIPANTS) is v45
