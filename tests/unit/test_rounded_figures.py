"""Score model v56: a figure a claim says is approximate and writes rounded from the one its
evidence states ("nearly 70 drugs" for 69, "about 5 mmHg" for 5.2 mmHg) is the evidence's
figure, to its last digit and within 5 %; another figure, or one without an approximator, is
not."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.text.numerics import Rounding, roundings, rounds_to
from spanproof.verifier import Verifier
from spanproof.verify.scoring import SCORE_MODELS, V55, V56

WALKING = "In the trial, daily walking lowered systolic blood pressure by 5.2 mmHg."
DEATHS = (
    "There were approximately 781 000 total deaths in the United States from March 1 to May "
    "30, 2020, representing 122 300 more deaths than would typically be expected."
)


def scored(model: str, claim: str, span: str) -> tuple[Verdict, bool]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": span}])
    return verdict.verdict, verdict.numeric_gated


def test_how_a_figure_is_written() -> None:
    found = roundings(["nearly", "70", "drugs", "122,000", "about", "5.2", "in", "2020"])
    assert found == {
        "70.0": Rounding(10.0, True),
        "122000.0": Rounding(1000.0, False),
        "5.2": Rounding(0.1, True),
    }  # a year is no rounded figure
    assert roundings(["5", "mmhg"]) == {"5.0": Rounding(1.0, False)}
    assert roundings(["close", "to", "70"]) == {"70.0": Rounding(10.0, True)}
    assert roundings(["to", "70"]) == {"70.0": Rounding(10.0, False)}
    assert roundings(["10e8", "1e-5", "0x10", ".5"]) == {}  # figures written otherwise


@pytest.mark.parametrize(
    ("figure", "rounded", "rounding", "expected"),
    [
        (69.0, 70.0, Rounding(10.0, True), True),  # "nearly 70" for 69
        (40.7, 40.0, Rounding(10.0, True), True),  # "an estimated 40 percent" for 40.7 %
        (122300.0, 122000.0, Rounding(1000.0, True), True),  # "approximately 122,000"
        (5.2, 5.0, Rounding(1.0, True), True),  # "about 5" for 5.2: 3.8 %
        (5.2, 5.0, Rounding(1.0, False), False),  # "5" for 5.2 without "about": exact
        (122300.0, 122000.0, Rounding(1000.0, False), False),  # "122,000" without one
        (44.0, 40.0, Rounding(10.0, True), False),  # 40 for 44 rounds, but 9 % off
        (40.7, 40.8, Rounding(0.1, True), False),  # another figure of the same precision
        (75.0, 70.0, Rounding(10.0, True), False),  # 75 rounds to 80
        (70.0, 70.0, Rounding(10.0, True), False),  # the same figure is no rounding
        (-0.2, 0.2, Rounding(0.1, True), False),  # a sign flipped
        (-0.21, -0.2, Rounding(0.1, True), True),  # a negative figure rounded
    ],
)
def test_a_rounded_figure(
    figure: float, rounded: float, rounding: Rounding, expected: bool
) -> None:
    assert rounds_to(figure, rounded, rounding) is expected


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        ("Daily walking lowered systolic blood pressure by about 5 mmHg.", WALKING),
        ("Daily walking lowered systolic blood pressure by close to 5 mmHg.", WALKING),
        (
            "From March through May 2020, the number of deaths in the US was approximately "
            "122,000 higher than expected.",
            DEATHS,
        ),
    ],
)
def test_v56_reads_a_rounded_figure_as_the_one_it_rounds(claim: str, span: str) -> None:
    assert scored("v55", claim, span) == (Verdict.UNSUPPORTED, True)
    assert scored("v56", claim, span) == (Verdict.SUPPORTED, False)


@pytest.mark.parametrize(
    "claim",
    [
        "Daily walking lowered systolic blood pressure by 5.3 mmHg.",  # a number swap
        "Daily walking lowered systolic blood pressure by 5 mmHg.",  # no "about": exact
        "Daily walking lowered systolic blood pressure by about 6 mmHg.",
        "Daily walking lowered systolic blood pressure by about 5.3 mmHg.",  # no rounding
    ],
)
def test_v56_still_refuses_another_figure(claim: str) -> None:
    assert scored("v56", claim, WALKING)[0] is Verdict.UNSUPPORTED


def test_v56_takes_no_rounding_for_a_figure_the_evidence_states_elsewhere() -> None:
    # "about 2.5" could round 2.48, but the evidence states 2.5 too: a mix-up, not a rounding
    span = "Scores rose by 2.48 points with exercise and by 2.5 points with diet alone."
    claim = "Scores rose by about 2.5 points with exercise."
    assert scored("v56", claim, span)[0] is Verdict.UNSUPPORTED
    assert scored("v56", "Scores rose by about 2.5 points with diet alone.", span) == (
        Verdict.SUPPORTED,
        False,
    )


def test_v56_is_v55_with_rounded_figures() -> None:
    assert SCORE_MODELS["v56"] is V56 and V56.rounded_figures and not V55.rounded_figures
    assert dataclasses.replace(V55, name="v56", rounded_figures=True) == V56
    assert DEFAULT_SCORE_MODEL == "v79"
