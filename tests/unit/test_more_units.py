"""Score models v69 and v70: the numeric gate reads a percentage against money, electric units,
and a rate written as a span of time (v69), and a figure the span states in another unit as
stated (v70)."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.figure_units import converted, measures, units_differ
from spanproof.verify.scoring import SCORE_MODELS, V68, V69, V70

DOSE = (
    "Adults and children over 12 should take one Relvoxin 200 mg tablet every 8 hours, with no "
    "more than three tablets in any 24-hour period."
)
PHONE = (
    "The Orvane P9 lasted 14 hours in our video playback test, and its 65 W charger refilled "
    "the battery to 50% in 18 minutes."
)


def _verdict(model: str, claim: str, evidence: str) -> Verdict:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict


def test_measures_read_percentages_electric_units_and_periods_only_when_asked() -> None:
    text = "a 2% fee, a 65 Wh battery, three tablets in any 24-hour period"
    assert measures(text) == (
        ("2", frozenset()),
        ("65", frozenset()),
        ("3", frozenset()),
        ("24", frozenset({"hour"})),
    )
    assert measures(text, more=True) == (
        ("2", frozenset({"percent"})),
        ("65", frozenset({"wh"})),
        ("3", frozenset({"per day"})),
        ("24", frozenset({"hour"})),
    )
    assert measures("two doses in a week", more=True) == (("2", frozenset({"per week"})),)
    # a span of time that is no whole unit is no rate
    assert measures("two doses in any 36-hour period", more=True)[0] == ("2", frozenset())


@pytest.mark.parametrize(
    ("claim", "span", "figure"),
    [
        ("It costs a 2% surcharge.", "It costs a £2 supplement.", "2"),
        ("A 65 Wh battery.", "A 65 W charger.", "65"),
        ("Take at most three tablets per week.", DOSE, "3"),
        # alike, or measured so once: not changed
        ("Take at most three tablets a day.", DOSE, None),
        ("Take at most three tablets per day.", DOSE, None),
        ("It costs a 2% surcharge.", "It costs 2%, or £2 at most.", None),
        ("It rose 12%.", "It rose 12 percentage points.", None),
    ],
)
def test_units_differ_reads_more_under_v69(claim: str, span: str, figure: str | None) -> None:
    assert units_differ(claim, span, more=True) == figure
    assert units_differ(claim, span) is None  # v65's reading leaves them alone


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Adults may take one 200 mg Relvoxin tablet every 8 hours, up to a maximum of three "
            "tablets per week.",
            DOSE,
        ),
        ("The Orvane P9's 65 Wh battery can be charged to 50% in just 18 minutes.", PHONE),
    ],
)
def test_v68_supports_what_v69_refuses(claim: str, evidence: str) -> None:
    assert _verdict("v68", claim, evidence) is Verdict.SUPPORTED
    assert _verdict("v69", claim, evidence) is Verdict.UNSUPPORTED


def test_v69_still_supports_the_faithful_claim() -> None:
    claim = "Anyone over 12 may take one 200 mg Relvoxin tablet every 8 hours, three a day at most."
    assert _verdict("v69", claim, DOSE) is Verdict.SUPPORTED


def test_v69_is_v68_reading_more_units() -> None:
    assert SCORE_MODELS["v69"] is V69 and V68.figure_units == 1
    assert dataclasses.replace(V68, name="v69", figure_units=2) == V69


@pytest.mark.parametrize(
    ("claim", "span", "stated"),
    [
        ("It was off for two days.", "It was disabled for 48 hours.", {2.0}),
        ("It follows her over three decades.", "It spans 30 years.", {3.0}),
        ("The trail is 1.5 km long.", "The trail is 1,500 metres long.", {1.5}),
        # not the same quantity, or no exact conversion (a month is no whole number of days)
        ("It was off for two days.", "It was off for two weeks.", set()),
        ("It took one month.", "It took 30 days.", set()),
        ("It costs 2 pounds.", "It weighs 2 kg.", set()),
    ],
)
def test_converted_reads_the_same_quantity_in_another_unit(
    claim: str, span: str, stated: set[float]
) -> None:
    assert converted(claim, span) == stated


def test_a_figure_in_another_unit_is_stated_from_v70() -> None:
    claim = "Ranked matchmaking will be switched off for two days after patch 4.2."
    span = "Ranked matchmaking will be disabled for 48 hours after patch 4.2 goes live."
    assert _verdict("v69", claim, span) is Verdict.UNSUPPORTED
    assert _verdict("v70", claim, span) is Verdict.SUPPORTED
    # another quantity is still missing
    assert _verdict("v70", claim.replace("two days", "three days"), span) is not Verdict.SUPPORTED


def test_v70_is_v69_reading_converted_figures() -> None:
    assert SCORE_MODELS["v70"] is V70
    assert dataclasses.replace(V69, name="v70", figure_units=3) == V70
    assert DEFAULT_SCORE_MODEL != "v70"  # v71 since
