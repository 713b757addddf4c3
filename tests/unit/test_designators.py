"""Score model v53: a name that a letter tells from its kin ("vitamin C", "hepatitis B") is an
entity of its own for the entity gate."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.gates import designated
from spanproof.verify.scoring import SCORE_MODELS, V52, V53

VITAMIN_D = "Vitamin D supplementation reduced the severity of COVID-19 in hospitalised patients."


def verdicts(model: str, claims: list[str], evidence: str) -> list[Verdict]:
    scored = Verifier(score_model=model).score_claims(claims, [{"id": "S1", "text": evidence}])
    return [c.verdict for c in scored]


def test_names_a_letter_tells_apart_are_read_with_their_head_word() -> None:
    text = "Vitamin C and vitamins D; hepatitis B-related; Group A; vitamin B12; factor V"
    assert designated(text) == {
        "vitamin c": 1, "vitamin d": 1, "hepatitis b": 1, "group a": 1, "vitamin b12": 1,
        "vitamin b": 1, "factor v": 1,
    }  # fmt: skip
    # a lowercase letter, a word, a figure alone or a letter run into a word is no designator
    assert not designated("vitamin content; group a; group 2; type B; vitamin Ca; factor Va")


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Vitamin C reduces COVID-19 severity.", VITAMIN_D),
        ("Vitamin C can protect you from COVID-19.", VITAMIN_D),
        (
            "Hepatitis B infection doubled the risk of liver cancer.",
            "Hepatitis C infection doubled the risk of liver cancer in the cohort.",
        ),
        (
            "Vitamin B12 deficiency was common in older adults.",
            "Vitamin B6 deficiency was common in older adults taking metformin.",
        ),
    ],
)
def test_v53_refuses_a_claim_about_the_named_things_kin(claim: str, evidence: str) -> None:
    assert verdicts("v53", [claim], evidence) == [Verdict.UNSUPPORTED]
    scored = Verifier(score_model="v53").score_claims([claim], [{"id": "S1", "text": evidence}])
    assert scored[0].entity_gated


def test_v52_supported_such_a_claim_where_the_rest_is_close() -> None:
    assert verdicts("v52", ["Vitamin C reduces COVID-19 severity."], VITAMIN_D) == [
        Verdict.SUPPORTED
    ]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Vitamin D reduced the severity of COVID-19 in hospitalised patients.",
            VITAMIN_D,
        ),
        (
            "Vitamin C reduced the severity of COVID-19 in hospitalised patients.",
            "Vitamins C and D reduced the severity of COVID-19 in hospitalised patients.",
        ),
        (
            "Vitamin B12 deficiency was common in older adults taking metformin.",
            "Vitamin B12 deficiency was common in older adults taking metformin.",
        ),
    ],
)
def test_v53_supports_the_named_thing_itself(claim: str, evidence: str) -> None:
    assert verdicts("v53", [claim], evidence) == [Verdict.SUPPORTED]


def test_v53_is_v52_with_designators_and_the_default_reads_them() -> None:
    assert SCORE_MODELS["v53"] is V53 and V53.designators and not V52.designators
    assert dataclasses.replace(V52, name="v53", designators=True) == V53
    assert SCORE_MODELS[DEFAULT_SCORE_MODEL].designators


def test_a_letter_with_figures_names_one_of_the_letters_kind() -> None:
    # a vitamin D3 is a vitamin D: the gate does not refuse the one for the other
    evidence = [{"id": "S1", "text": "Vitamin D3 supplementation reduced COVID-19 severity."}]
    scored = Verifier(score_model="v53").score_claims(["Vitamin D reduced severity."], evidence)
    assert not scored[0].entity_gated
    evidence = [{"id": "S1", "text": "Vitamin B6 deficiency was common in older adults."}]
    scored = Verifier(score_model="v53").score_claims(
        ["Vitamin B12 deficiency was common in older adults."], evidence
    )
    assert scored[0].entity_gated  # B12 and B6 are two vitamins
