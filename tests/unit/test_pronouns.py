"""What a claim's opening pronoun stands for (spanproof.verify.pronouns, decomposer rules-v6)."""

from __future__ import annotations

import pytest

from spanproof.core.models import Claim
from spanproof.verify.pronouns import (
    name_pronoun,
    name_pronouns,
    plural_subject,
    statement_subject,
)


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Daily walking lowered systolic blood pressure.", "Daily walking"),
        ("However, daily walking also lowered it.", "daily walking"),  # opener and adverb cut
        ("In the trial, aspirin had no effect on stroke.", "aspirin"),
        ("Aspirin, a common drug, reduced stroke risk.", "Aspirin"),  # an apposition
        ("Aspirin significantly reduced stroke.", "Aspirin"),
        (
            "Participants who walked daily had lower blood pressure.",
            "Participants who walked daily",
        ),
        ("It lowered systolic blood pressure.", None),  # a pronoun names nothing new
        ("These data suggest that small-gauge, atraumatic needles may help.", None),  # misread
        ("CONCLUSIONS These data may help.", None),  # a heading before the subject
        ("What a day.", None),  # no predicate the rules find
    ],
)
def test_the_subject_another_claim_may_name(text: str, subject: str | None) -> None:
    assert statement_subject(text) == subject


@pytest.mark.parametrize(
    ("subject", "plural"),
    [
        ("Aspirin", False),
        ("Masks", True),
        ("Vitamin D and calcium", True),
        ("Participants who walked daily", True),  # the head noun, before the relative clause
        ("Treatment of patients with masks", False),
        ("SARS", False),  # a name in capitals
        ("COVID-19", False),
        ("Diabetes mellitus", None),  # "-us": no telling
        ("Genetics", None),  # "-ics": no telling
        ("Sinus", None),
    ],
)
def test_the_number_of_a_subject(subject: str, plural: bool | None) -> None:
    assert plural_subject(subject) is plural


def test_a_pronoun_is_replaced_by_a_subject_of_its_number_only() -> None:
    it = Claim("c2", "it also raised bleeding", (40, 63))
    assert name_pronoun(it, "aspirin", False).text == "Aspirin also raised bleeding"
    assert name_pronoun(it, "aspirin", False).draft_span == (40, 63)  # the draft's words
    assert name_pronoun(it, "masks", True) == it  # "it" for several: not named
    assert name_pronoun(it, "genetics", None) == it  # a number the rules cannot tell
    they = Claim("c2", "and they reduce deaths")
    assert name_pronoun(they, "Masks", True).text == "Masks reduce deaths"
    for text in ("it is likely that masks help", "they found that masks help", "it seems to help"):
        assert name_pronoun(Claim("c2", text), "Masks", True).text == text  # names nothing


def test_names_carry_on_and_stop_where_no_subject_is_found() -> None:
    claims = [
        Claim("c1", "Aspirin lowered the risk of stroke"),
        Claim("c2", "It also raised bleeding"),
        Claim("c3", "It was stopped early"),
        Claim("c4", "What a day"),
        Claim("c5", "It rained"),
    ]
    assert [c.text for c in name_pronouns(claims)] == [
        "Aspirin lowered the risk of stroke",
        "Aspirin also raised bleeding",
        "Aspirin was stopped early",
        "What a day",
        "It rained",
    ]
    assert name_pronouns([]) == []
