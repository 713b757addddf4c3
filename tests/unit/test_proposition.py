"""Which questions are propositions, and the declarative claim each one asks about."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.verify.proposition import (
    Proposition,
    past_tense,
    proposition_of,
    subject_of,
    third_person,
)


@pytest.mark.parametrize(
    ("question", "claim", "form"),
    [
        (
            "Is it true that daily walking raised systolic blood pressure?",
            "Daily walking raised systolic blood pressure.",
            "whether",
        ),
        ("is it the case that coffee disrupts sleep", "Coffee disrupts sleep.", "whether"),
        ("True or false: trees cool cities", "Trees cool cities.", "whether"),
        ("Is the claim that coffee disrupts sleep true?", "Coffee disrupts sleep.", "whether"),
        (
            "Does daily walking lower blood pressure?",
            "Daily walking lowers blood pressure.",
            "yes_no",
        ),
        (
            "Did sodium restriction lower blood pressure?",
            "Sodium restriction lowered blood pressure.",
            "yes_no",
        ),
        ("Did the trial stop early?", "The trial stopped early.", "yes_no"),
        ("Do statins reduce mortality?", "Statins reduce mortality.", "yes_no"),
        ("Does the lower dose reduce bleeding?", "The lower dose reduces bleeding.", "yes_no"),
        ("Does p53 regulate apoptosis?", "p53 regulates apoptosis.", "yes_no"),
        (
            "Does walking not raise blood pressure?",
            "Walking does not raise blood pressure.",
            "yes_no",
        ),
        ("Is aspirin effective for fever?", "Aspirin is effective for fever.", "yes_no"),
        (
            "Is the risk of stroke higher in smokers?",
            "The risk of stroke is higher in smokers.",
            "yes_no",
        ),
        (
            "Are older adults more affected by heat?",
            "Older adults are more affected by heat.",
            "yes_no",
        ),
        (
            "Was the effect larger in adults over 65?",
            "The effect was larger in adults over 65.",
            "yes_no",
        ),
        (
            "Were city blocks with more tree canopy cooler?",
            "City blocks with more tree canopy were cooler.",
            "yes_no",
        ),
        (
            "Is vitamin D a risk factor for falls?",
            "Vitamin D is a risk factor for falls.",
            "yes_no",
        ),
        (
            "Is there an association between coffee and sleep?",
            "There is an association between coffee and sleep.",
            "yes_no",
        ),
        ("Can exercise reduce depression?", "Exercise can reduce depression.", "yes_no"),
        (
            "Has vitamin D been shown to prevent fractures?",
            "Vitamin D has been shown to prevent fractures.",
            "yes_no",
        ),
        ("Is walking harmful or not?", "Walking is harmful.", "yes_no"),
        (
            "Daily walking lowers blood pressure.",
            "Daily walking lowers blood pressure.",
            "statement",
        ),
        ("coffee improves sleep", "Coffee improves sleep.", "statement"),
        (  # a verb the lists do not know: the full stop makes it a statement
            "Adult tissue-resident macrophages  possess a self-renewing capacity.",
            "Adult tissue-resident macrophages possess a self-renewing capacity.",
            "statement",
        ),
        ("Walking lowers blood pressure?", "Walking lowers blood pressure.", "statement"),
        # a contracted negative auxiliary asks about the positive proposition
        ("Doesn't coffee disrupt sleep?", "Coffee disrupts sleep.", "yes_no"),
        ("Didn’t walking lower blood pressure?", "Walking lowered blood pressure.", "yes_no"),
        ("Isn't aspirin effective?", "Aspirin is effective.", "yes_no"),
        ("Can't exercise reduce depression?", "Exercise can reduce depression.", "yes_no"),
        ("Won't masks reduce transmission?", "Masks will reduce transmission.", "yes_no"),
        (
            "Isn't it true that walking lowered blood pressure?",
            "Walking lowered blood pressure.",
            "whether",
        ),
        # a request that names a claim asks about that claim
        (
            "Can you tell me whether walking lowers blood pressure?",
            "Walking lowers blood pressure.",
            "whether",
        ),
        (
            "Could you please confirm that aspirin lowers fever?",
            "Aspirin lowers fever.",
            "whether",
        ),
        ("Can you catch COVID-19 twice?", "You can catch COVID-19 twice.", "yes_no"),
        # "not" after the subject is read as written
        ("Does coffee not disrupt sleep?", "Coffee does not disrupt sleep.", "yes_no"),
    ],
)
def test_a_proposition_becomes_the_declarative_claim_it_asks_about(
    question: str, claim: str, form: str
) -> None:
    assert proposition_of(question) == Proposition(claim, form)


@pytest.mark.parametrize(
    "question",
    [
        "What is the capital of France?",
        "What did daily walking do to blood pressure?",
        "How much cooler were city blocks with more tree canopy?",
        "Why does coffee disrupt sleep?",
        "Which schools taught in two languages?",
        "Tell me about walking and blood pressure.",
        "walking blood pressure",
        "effects of coffee on sleep",
        "Is coffee good or bad for sleep?",
        "Is it?",
        "Can you summarise the context?",  # a request naming no claim
        "Could you list the trials?",
        "   ",
        "",
    ],
)
def test_questions_that_ask_for_something_are_not_propositions(question: str) -> None:
    assert proposition_of(question) is None


def test_without_a_visible_predicate_the_auxiliary_is_dropped_and_the_words_kept() -> None:
    found = proposition_of("Does coffee drinking sleep quality?")
    assert found == Proposition("Coffee drinking sleep quality.", "yes_no")


def test_verbs_inflect_for_does_and_did() -> None:
    assert [third_person(v) for v in ("lower", "have", "reduce", "vary", "mix")] == [
        "lowers", "has", "reduces", "varies", "mixes"
    ]  # fmt: skip
    assert [past_tense(v) for v in ("raise", "lower", "lead", "vary", "stop", "occur")] == [
        "raised", "lowered", "led", "varied", "stopped", "occurred"
    ]  # fmt: skip


@given(st.text(max_size=80))
def test_detection_never_fails_and_a_claim_is_one_sentence_with_a_full_stop(text: str) -> None:
    found = proposition_of(text)
    if found is not None:
        assert found.claim.endswith(".") and found.claim.strip() == found.claim
        assert found.form in {"statement", "whether", "yes_no"}
        assert proposition_of(text) == found  # deterministic


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Did daily walking raise systolic blood pressure?", "daily walking"),
        ("Doesn't aspirin lower fever?", "aspirin"),
        ("Do masks reduce transmission or not?", "masks"),
        ("Is it true that masks reduce transmission?", "Masks"),
        ("Vitamin D supplements prevent falls in older adults.", "Vitamin D supplements"),
        ("Did it raise blood pressure?", None),  # a pronoun names nothing
        ("What lowers blood pressure?", None),  # no proposition
        ("Does coffee drinking sleep quality?", None),  # no predicate seen
    ],
)
def test_the_subject_of_a_proposition_ends_where_its_predicate_starts(
    question: str, subject: str | None
) -> None:
    assert subject_of(question) == subject
