"""Score model v52: more of a chat answer's words read as the source's.

"Metformin is contraindicated when eGFR is below 30" against "Metformin should not be used in
patients with an eGFR below 30" was `contradicted` under v51 (the polarity gate counted the
evidence's "not" and no denial in the claim), "versus" against "compared with" and "cut"
against "reduced" were phrases of another meaning.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from spanproof import Verifier
from spanproof.core.models import Verdict
from spanproof.verify.gates import cues
from spanproof.verify.scoring import SCORE_MODELS, V51, V52

MORTALITY = (
    "In the UKPDS trial, metformin reduced all-cause mortality by 36% compared with "
    "conventional therapy in overweight patients."
)
RENAL = "Metformin should not be used in patients with an eGFR below 30 mL/min/1.73 m2."


def verdicts(model: str, claims: list[str], evidence: str) -> list[Verdict]:
    report = Verifier(score_model=model).check_claims(claims, [{"id": "S1", "text": evidence}])
    return [c.verdict for c in report.claims]


def test_a_contraindication_denies_a_use() -> None:
    denials = frozenset({"contraindicated"})
    assert cues(["metformin", "is", "contraindicated"], denials=denials).negation_parity == 1
    assert cues(["metformin", "is", "contraindicated"]).negation_parity == 0
    # described, not predicated: "categorized as contraindicated medications" denies nothing
    described = ["categorized", "as", "contraindicated", "medications"]
    assert cues(described, denials=denials).negation_parity == 0
    assert cues(["is", "generally", "contraindicated"], denials=denials).negation_parity == 1
    claims = [
        "It is contraindicated when eGFR is below 30 mL/min/1.73 m2.",
        "Metformin is contraindicated in patients with an eGFR below 30 mL/min/1.73 m2.",
        "Metformin is not contraindicated in patients with an eGFR below 30 mL/min/1.73 m2.",
        "Metformin can be used in patients with an eGFR below 30 mL/min/1.73 m2.",
    ]
    assert verdicts("v51", claims, RENAL) == [Verdict.CONTRADICTED] * 2 + [
        Verdict.UNSUPPORTED,
        Verdict.CONTRADICTED,
    ]
    assert verdicts("v52", claims, RENAL) == [Verdict.SUPPORTED] * 2 + [Verdict.CONTRADICTED] * 2


@pytest.mark.parametrize(
    ("claim", "before"),
    [
        (
            "In the UKPDS trial, metformin reduced all-cause mortality by 36% versus "
            "conventional therapy in overweight patients.",
            Verdict.SUPPORTED,  # the encoder reads "versus" as "compared with" already
        ),
        (
            "In the UKPDS trial, metformin reduced all-cause mortality by 36% relative to "
            "conventional therapy in overweight patients.",
            Verdict.UNSUPPORTED,
        ),
        (
            "In the UKPDS trial, metformin cut all-cause mortality by 36% compared with "
            "conventional therapy in overweight patients.",
            Verdict.UNSUPPORTED,
        ),
    ],
    ids=["versus", "relative to", "cut"],
)
def test_v52_reads_an_answers_words_for_the_sources(claim: str, before: Verdict) -> None:
    assert verdicts("v51", [claim], MORTALITY) == [before]
    assert verdicts("v52", [claim], MORTALITY) == [Verdict.SUPPORTED]


def test_v52_still_refuses_what_changes_the_finding() -> None:
    claims = [
        "In the UKPDS trial, metformin increased all-cause mortality by 36% versus "
        "conventional therapy in overweight patients.",
        "In the UKPDS trial, metformin cut all-cause mortality by 63% versus conventional "
        "therapy in overweight patients.",
    ]
    assert verdicts("v52", claims, MORTALITY) == [Verdict.CONTRADICTED, Verdict.UNSUPPORTED]


def test_v52_is_v51_with_an_answers_words() -> None:
    assert SCORE_MODELS["v52"] is V52 and V52.contraindications and V52.edit_answer_words
    plain = replace(V52, name="v51", contraindications=False, edit_answer_words=False)
    assert plain == V51 and V51.denials == frozenset()
