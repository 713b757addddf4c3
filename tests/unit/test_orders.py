"""Score model v68: a bound on a figure turned round, "before" and "after" traded, and plain
words of change ("grew", "cutting") read by the polarity gate."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier
from spanproof.verify.gates import DOWN, UP, direction_class
from spanproof.verify.orders import bound_opposed, bound_sides, order_opposed
from spanproof.verify.scoring import SCORE_MODELS, V67, V68

SCHOLARSHIP = (
    "The Harlan Foundation Scholarship awards £6,000 a year to undergraduates from households "
    "earning under £30,000, renewable for up to three years."
)
GUIDELINE = (
    "Blood cultures should be drawn before the first antibiotic dose unless doing so would "
    "delay treatment by more than 45 minutes."
)
SURVEY = (
    "The 2024 Morrow Estuary bird survey counted 3,400 wintering dunlin, down 18% on 2023, "
    "while avocet numbers rose from 210 to 265."
)


def _verdict(model: str, claim: str, evidence: str) -> Verdict:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict


def test_bound_sides_read_words_before_and_after_a_figure() -> None:
    assert bound_sides("under £30,000 and over 65") == {"#30000.0": {"below"}, "#65.0": {"above"}}
    # "over" before a span of time is "during" unless "for", "aged" … comes first
    assert bound_sides("the dynamics over 8 months") == {"#8.0": {None}}
    assert bound_sides("it lasted for over 8 months") == {"#8.0": {"above"}}
    assert bound_sides("Python 3.9 or newer") == {"#3.9": {"above"}}
    assert bound_sides("up to and including 3.9") == {"#3.9": {"below"}}
    assert bound_sides("no more than three tablets") == {"#3.0": {"below"}}
    assert bound_sides("aged 65 and over") == {"#65.0": {"above"}}
    assert bound_sides("65 and 70 patients") == {"#65.0": {None}, "#70.0": {None}}


@pytest.mark.parametrize(
    ("claim", "span", "opposed"),
    [
        ("Households earning above £30,000 qualify.", SCHOLARSHIP, "#30000.0"),
        ("It runs on Python up to and including 3.9.", "It requires Python 3.9 or newer.", "#3.9"),
        ("Take at least three tablets a day.", "Take no more than three tablets a day.", "#3.0"),
        # the same side, in other words: no conflict
        ("Take up to three tablets a day.", "Take no more than three tablets a day.", None),
        ("Households earning less than £30,000 qualify.", SCHOLARSHIP, None),
        # a figure the span also writes without a bound may be stated both ways
        ("Over 30 patients were enrolled.", "30 patients were enrolled; under 30 finished.", None),
        # a bound the claim adds is not a bound turned round
        ("Over 30 patients were enrolled.", "30 patients were enrolled.", None),
    ],
)
def test_bound_opposed(claim: str, span: str, opposed: str | None) -> None:
    assert bound_opposed(claim, span) == opposed


@pytest.mark.parametrize(
    ("claim", "span", "opposed"),
    [
        ("Cultures should be collected after the first antibiotic dose.", GUIDELINE, "after"),
        (
            "Calloway painted her abstract canvases before relocating to Lisbon in 1988.",
            "She made the abstract canvases after moving to Lisbon in 1988.",
            "before",
        ),
        # the same word: no conflict
        ("Cultures are drawn before the first antibiotic dose.", GUIDELINE, None),
        # "before and after" states both sides
        (
            "Levels were measured after treatment.",
            "Levels were measured before and after treatment.",
            None,
        ),
        # another anchor: "before" something else
        ("Cultures are drawn after admission.", GUIDELINE, None),
    ],
)
def test_order_opposed(claim: str, span: str, opposed: str | None) -> None:
    assert order_opposed(claim, span) == opposed


def test_plain_words_of_change_are_read_at_the_v68_level_only() -> None:
    assert direction_class("grew", more=True, market=1) is None
    assert direction_class("grew", more=True, market=2) == UP
    assert direction_class("cutting", more=True, market=2) == DOWN
    assert direction_class("lighter", more=True, market=2) == DOWN
    assert direction_class("rose", more=True, market=2) == UP  # the older lists still read


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Harlan scholarships of £6,000 a year go to undergraduates whose households earn "
            "above £30,000.",
            SCHOLARSHIP,
        ),
        (
            "Under the guideline, blood cultures should be collected after the first "
            "antibiotic dose unless that would hold up treatment by over 45 minutes.",
            GUIDELINE,
        ),
        (
            "Wintering dunlin numbers on the Morrow Estuary grew by 18% in 2024 compared with "
            "2023, reaching 3,400.",
            SURVEY,
        ),
    ],
)
def test_v67_supports_what_v68_refuses(claim: str, evidence: str) -> None:
    assert _verdict("v67", claim, evidence) is Verdict.SUPPORTED
    assert _verdict("v68", claim, evidence) is not Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Undergraduates from households earning under £30,000 can get a Harlan scholarship "
            "of £6,000 a year.",
            SCHOLARSHIP,
        ),
        (
            "Blood cultures should be collected before the first antibiotic dose unless that "
            "would hold up treatment by over 45 minutes.",
            GUIDELINE,
        ),
        ("The 2024 survey counted 3,400 wintering dunlin, 18% fewer than in 2023.", SURVEY),
    ],
)
def test_v68_still_supports_the_faithful_claim(claim: str, evidence: str) -> None:
    assert _verdict("v68", claim, evidence) is Verdict.SUPPORTED


def test_v68_is_v67_with_the_three_readings() -> None:
    assert SCORE_MODELS["v68"] is V68
    assert not (V67.bound_sides or V67.order_words) and V67.market_cues == 1
    expected = dataclasses.replace(
        V67, name="v68", market_cues=2, bound_sides=True, order_words=True
    )
    assert expected == V68
