"""Score model v73: a contrast spliced, read with the bundled parser."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.bootstrap import build_sentence_parser
from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.scoring import SCORE_MODELS, V72, V73, ScoreModel
from spanproof.verify.splices import contrast_splice, contrasts

ACCOUNTS = (
    "Two-factor authentication is optional for personal accounts but mandatory for all "
    "organisation administrators, who must use an authenticator app rather than SMS codes."
)
FESTIVAL = (
    "Heavy rain forced organisers to cancel the second day of the Lindqvist Folk Festival in "
    "Orrefors on Saturday, though Sunday's programme went ahead as planned."
)
DRUGS = "The old drug lowered blood pressure, whereas the new drug raised heart rate."
MOOD = "Exercise improved mood in older adults. However, sleep quality declined over the year."
MOOD_JOINED = MOOD.replace(". However", "; however")
EXERCISE = (
    "Heart rate was increased during moderate exercise while mean arterial pressure was "
    "maintained or reduced, suggesting a reset of the baroreflex."
)


def _splice(claim: str, span: str) -> tuple[str, str, str] | None:
    parsed_claim, parsed_span = build_sentence_parser().parse([claim, span])
    found = contrast_splice(parsed_claim, parsed_span)
    if found is None:
        return None
    (cs, ce), (ss, se) = found.claim_range, found.span_range
    return found.slot, claim[cs:ce], span[ss:se]


@pytest.mark.parametrize(
    ("claim", "span", "slot", "moved", "there"),
    [
        (
            "Two-factor authentication is optional for organisation administrators.",
            ACCOUNTS,
            "for",
            "organisation administrators",
            "administrators",
        ),
        (
            "Heavy rain forced organisers to cancel Sunday's programme at the festival.",
            FESTIVAL,
            "core",
            "Sunday's programme",
            "programme",
        ),
        (
            "Heart rate was reduced during moderate exercise.",
            EXERCISE,
            "core",
            "Heart rate",
            "rate",
        ),
        ("The new drug lowered heart rate.", DRUGS, "core", "heart rate", "rate"),
        ("Exercise improved sleep quality.", MOOD, "core", "sleep quality", "quality"),
        ("Exercise improved sleep quality.", MOOD_JOINED, "core", "sleep quality", "quality"),
    ],
)
def test_a_claim_joining_one_sides_act_to_the_others_thing_is_a_splice(
    claim: str, span: str, slot: str, moved: str, there: str
) -> None:
    assert _splice(claim, span) == (slot, moved, there)


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        # each side as it is
        ("Sleep quality declined over the year.", MOOD),
        ("The new drug raised heart rate.", DRUGS),
        ("Exercise improved mood.", MOOD_JOINED),
        ("Two-factor authentication is mandatory for organisation administrators.", ACCOUNTS),
        ("Two-factor authentication is optional for personal accounts.", ACCOUNTS),
        ("Sunday's programme at the Lindqvist Folk Festival went ahead as planned.", FESTIVAL),
        ("Heavy rain forced organisers to cancel the festival's second day.", FESTIVAL),
        ("Heart rate was increased during moderate exercise.", EXERCISE),
        ("Mean arterial pressure was reduced during moderate exercise.", EXERCISE),
        # a claim with a contrast of its own, both sides in one argument
        ("Heart rate rose while mean arterial pressure was reduced.", EXERCISE),
        ("Masks protect the wearer and others.", "Masking protects others, while it also "
         "reduces the dose of virus that reaches the wearer."),
        # no two acts: "a small, but consistent, increased risk"
        ("Job strain is associated with an increased risk of heart disease.",
         "Job strain is associated with a small, but consistent, increased risk of heart "
         "disease."),
        # the act's word is a noun on its side ("mutations"), not an act
        ("The virus has mutated into several variants.",
         "We find limited diversity across the virus genomes; yet two mutations have already "
         "become consensus."),
    ],
)  # fmt: skip
def test_what_is_no_splice(claim: str, span: str) -> None:
    assert _splice(claim, span) is None


def _verdict(model: ScoreModel, claim: str, evidence: str) -> tuple[Verdict, list[str]]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict, [e.judgement for e in verdict.edits]


def test_v72_supports_what_v73_reads_as_a_splice() -> None:
    claim = "Two-factor authentication is optional for organisation administrators."
    assert _verdict(V72, claim, ACCOUNTS)[0] is Verdict.SUPPORTED
    verdict, edits = _verdict(V73, claim, ACCOUNTS)
    assert verdict is Verdict.UNSUPPORTED
    assert edits == ["unsupported: contrast spliced"]


def test_v73_still_supports_each_side() -> None:
    claim = "Two-factor authentication is mandatory for organisation administrators."
    assert _verdict(V73, claim, ACCOUNTS)[0] is Verdict.SUPPORTED


def test_v73_is_v72_reading_contrasts() -> None:
    assert SCORE_MODELS["v73"] is V73
    assert DEFAULT_SCORE_MODEL != "v72"  # v73 until v74
    assert dataclasses.replace(V72, name="v73", contrast_splices=True) == V73
    assert not V72.contrast_splices


def test_a_cut_is_read_when_it_drops_a_word_that_joins_a_contrast() -> None:
    assert contrasts("personal accounts but mandatory for all")
    assert contrasts("Whereas the old drug")
    assert not contrasts("a buttress of the yetis")  # whole words only
    assert not contrasts("personal accounts and")
