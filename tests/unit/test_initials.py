"""Score model v54: a claim's abbreviation of words its span writes out ("BP" for "blood
pressure") is no entity the span lacks."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.text.tokens import token_texts
from spanproof.verifier import Verifier
from spanproof.verify.gates import EntityView, entity_view, spelled_by_initials
from spanproof.verify.scoring import SCORE_MODELS, V53, V54

#: A span with another acronym in it, as the demo evidence's banner is.
SPAN = (
    "DEMO DATA, written for spanproof. In a randomised trial, daily walking for 30 minutes "
    "lowered systolic blood pressure by 5 mmHg."
)


def scored(model: str, claim: str, span: str = SPAN) -> tuple[Verdict, bool]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": span}])
    return verdict.verdict, verdict.entity_gated


def view(text: str) -> EntityView:
    return entity_view(text, token_texts(text))


def test_an_acronym_spells_the_initials_of_consecutive_words() -> None:
    assert spelled_by_initials("bp", view("It lowered blood pressure."))
    assert spelled_by_initials("sbp", view("It lowered systolic blood pressure."))
    assert spelled_by_initials("ckd", view("Patients with chronic kidney disease."))
    assert not spelled_by_initials("bp", view("Blood lipids and pressure ulcers."))
    assert not spelled_by_initials("hr", view("It lowered blood pressure."))
    assert not spelled_by_initials("b", view("blood"))  # one letter is no abbreviation


@pytest.mark.parametrize(
    "claim",
    [
        "Daily walking decreased systolic BP by 5 mmHg",
        "Daily walking for 30 minutes lowered SBP by 5 mmHg in a randomised trial.",
    ],
)
def test_v54_reads_an_abbreviation_of_what_the_span_writes_out(claim: str) -> None:
    assert scored("v53", claim) == (Verdict.UNSUPPORTED, True)  # "DEMO" stood in for "BP"
    assert scored("v54", claim) == (Verdict.SUPPORTED, False)


def test_v54_still_gates_an_acronym_the_span_does_not_spell() -> None:
    assert scored("v54", "Daily walking decreased systolic HR by 5 mmHg") == (
        Verdict.UNSUPPORTED,
        True,
    )


def test_v54_is_v53_with_initials_and_the_default() -> None:
    assert SCORE_MODELS["v54"] is V54 and V54.initials and not V53.initials
    assert dataclasses.replace(V53, name="v54", initials=True) == V54
    assert SCORE_MODELS[DEFAULT_SCORE_MODEL].initials
