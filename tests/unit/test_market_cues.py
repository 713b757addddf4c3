"""Score model v63: the polarity gate reads the words of change of business and news text and
"up" or "down" before a figure."""

from __future__ import annotations

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier
from spanproof.verify.gates import DOWN, UP, cues, figure_changes, opposed_clauses

REPORT = [
    {
        "id": "S1",
        "text": "Acme Corp reported revenue of $4.2 billion for fiscal 2025, up 12% from the "
        "prior year. Shares climbed 3% after the report; Beta Inc shares slipped 2%.",
    }
]


def verdicts(model: str, claims: list[str]) -> list[Verdict]:
    return [c.verdict for c in Verifier(score_model=model).score_claims(claims, REPORT)]


def test_up_or_down_before_a_figure_is_a_change() -> None:
    words = ["revenue", "up", "12", "from", "down", "by", "3", "up", "to", "50"]
    read = figure_changes(words)
    assert read[1] != "up" and read[4] != "down"  # before a figure, or "by" and a figure
    assert read[7] == "up"  # "up to 50": a bound
    assert figure_changes(["at", "follow", "up", "12", "months"])[2] == "up"  # a noun
    assert figure_changes(["women", "made", "up", "12"])[2] == "up"  # a share, not a change
    directions = {cls for _, cls, _ in cues(words, market=True).directions}
    assert directions == {UP, DOWN}
    assert cues(words).directions == ()  # before v63 neither is read


def test_market_words_carry_a_direction_from_v63() -> None:
    assert {c for _, c, _ in cues(["shares", "climbed"], market=True).directions} == {UP}
    assert {c for _, c, _ in cues(["sales", "slipped"], market=True).directions} == {DOWN}
    assert cues(["shares", "climbed"]).directions == ()
    both = "Shares climbed 3%; Beta Inc shares slipped 2%."
    assert len(opposed_clauses(both, True, market=True)) == 2
    assert opposed_clauses(both, True) == [both]


def test_a_reversed_change_is_contradicted_under_v63() -> None:
    claims = [
        "Acme's revenue fell in fiscal 2025.",
        "Acme shares fell 3% after the report.",
        "Beta Inc shares rose 2%.",
    ]
    assert Verdict.SUPPORTED in verdicts("v62", claims)
    assert verdicts("v63", claims) == [Verdict.CONTRADICTED] * 3


def test_the_change_as_stated_stays_supported_under_v63() -> None:
    claims = ["Acme's revenue rose 12% in fiscal 2025.", "Acme shares rose 3% after the report."]
    assert verdicts("v63", claims) == [Verdict.SUPPORTED] * 2
