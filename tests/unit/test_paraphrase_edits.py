"""Score model v50: the edit check allows the rewordings a faithful answer makes.

Under v47 "Daily walking reduced systolic blood pressure by 5 mmHg" against "… daily walking
lowered systolic blood pressure by 5 mmHg" was `unsupported` ("reduced" / "lowered": a phrase of
another meaning by the encoder's cosine, 0.63), and so were "approximately 5 mmHg", "was found
to lower" and "systolic BP".
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from spanproof import Verifier
from spanproof.core.models import Verdict
from spanproof.verify.edits import _PLAIN_CHANGE, _initials_of, align_edits, judge_edits
from spanproof.verify.scoring import SCORE_MODELS, V47, V50

EVIDENCE = "In a 12-week trial, daily walking lowered systolic blood pressure by 5 mmHg."


def judgements(claim: str, evidence: str = EVIDENCE, paraphrases: bool = True) -> list[str]:
    alignment = align_edits(
        claim,
        evidence,
        changed_runs=2,
        run_share_min=0.65,
        mixups=True,
        overstatement=True,
        units=True,
        paraphrases=paraphrases,
    )
    assert alignment.near_copy
    # every question about meaning answered "different": only the rules can allow an edit
    checked = judge_edits(alignment, [0.0] * len(alignment.questions), 0.86)
    return [e.judgement for e in checked.edits]


@pytest.mark.parametrize(
    ("claim", "allowed"),
    [
        ("Daily walking reduced systolic blood pressure by 5 mmHg.", "allowed: same direction"),
        ("Daily walking decreased systolic blood pressure by 5 mmHg.", "allowed: same direction"),
        (
            "Daily walking lowered systolic blood pressure by approximately 5 mmHg.",
            "allowed: approximation",
        ),
        (
            "Daily walking was found to lower systolic blood pressure by 5 mmHg.",
            "allowed: stated as found",
        ),
        ("Daily walking lowered systolic BP by 5 mmHg.", "allowed: abbreviation (initials)"),
    ],
)
def test_v50_allows_a_faithful_rewording(claim: str, allowed: str) -> None:
    assert allowed in judgements(claim)
    assert all(j.startswith("allowed") for j in judgements(claim)), judgements(claim)
    assert not all(j.startswith("allowed") for j in judgements(claim, paraphrases=False))


@pytest.mark.parametrize(
    ("claim", "refused"),
    [
        # the other direction, a stronger word, another figure, another abbreviation
        ("Daily walking raised systolic blood pressure by 5 mmHg.", "contradicted"),
        ("Daily walking abolished systolic blood pressure.", "unsupported"),
        ("Daily walking lowered systolic blood pressure by approximately 7 mmHg.", "unsupported"),
        ("Daily walking lowered systolic DBP by 5 mmHg.", "unsupported"),
        # an approximation that is not before a figure, a hedge that is not "found"
        ("Daily walking roughly lowered systolic blood pressure by 5 mmHg.", "unsupported"),
        ("Daily walking was thought to lower systolic blood pressure by 5 mmHg.", "unsupported"),
    ],
)
def test_v50_still_refuses_what_changes_the_finding(claim: str, refused: str) -> None:
    assert any(j.startswith(refused) for j in judgements(claim)), judgements(claim)


def test_plain_words_of_change_and_initials() -> None:
    assert _PLAIN_CHANGE["reduced"] == _PLAIN_CHANGE["lower"] == _PLAIN_CHANGE["fell"] == "down"
    assert _PLAIN_CHANGE["raised"] == _PLAIN_CHANGE["higher"] == "up"
    for strong in ("abolished", "prevented", "doubled", "inhibited", "suppressed", "activated"):
        assert strong not in _PLAIN_CHANGE
    assert _initials_of(["CKD"], ["chronic", "kidney", "disease"])
    assert _initials_of(["BP"], ["blood", "pressure"])
    assert not _initials_of(["bp"], ["blood", "pressure"])  # not written as an abbreviation
    assert not _initials_of(["BP"], ["blood"])
    assert not _initials_of(["DBP"], ["blood", "pressure"])


def test_v50_is_v47_with_the_rewordings_allowed() -> None:
    assert SCORE_MODELS["v50"] is V50 and V50.edit_paraphrases and not V47.edit_paraphrases
    assert replace(V50, name="v47", edit_paraphrases=False) == V47


def test_the_bundled_model_supports_the_rewordings_under_v50_only() -> None:
    evidence = [{"id": "S1", "text": EVIDENCE}]
    claims = [
        "Daily walking reduced systolic blood pressure by 5 mmHg.",
        "Daily walking lowered systolic BP by approximately 5 mmHg.",
        "Daily walking raised systolic blood pressure by 5 mmHg.",
    ]
    before = Verifier(score_model="v47").check_claims(claims, evidence).claims
    after = Verifier(score_model="v50").check_claims(claims, evidence).claims
    unsupported, supported = Verdict.UNSUPPORTED, Verdict.SUPPORTED
    assert [c.verdict for c in before] == [unsupported, unsupported, Verdict.CONTRADICTED]
    assert [c.verdict for c in after] == [supported, supported, Verdict.CONTRADICTED]


def test_v50_allows_found_or_approximately_only_where_the_window_has_no_words() -> None:
    # put for a hedge, "was found to" states as found what the window only supposes
    hedged = (
        "HAND2 methylation is a common alteration in endometrial cancer that could potentially "
        "be employed as a biomarker for early detection."
    )
    claim = hedged.replace("could", "was found to")
    assert "allowed: stated as found" not in judgements(claim, hedged)
    assert any(j.startswith("unsupported") for j in judgements(claim, hedged))
