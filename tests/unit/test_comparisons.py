"""The comparison gate of score model v32: a comparison whose sides the claim trades."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.services.verification import score_all
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.comparisons import comparison_reversed, comparisons
from spanproof.verify.scoring import SCORE_MODELS, V31, V32

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
