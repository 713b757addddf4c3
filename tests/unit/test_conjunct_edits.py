"""Score model v51: a thing joined to a copied one must be stated of it, not otherwise.

"Daily walking lowered systolic and diastolic blood pressure" against "… daily walking lowered
systolic blood pressure by 5 mmHg … Diastolic blood pressure did not change" was `supported`
under v50: "diastolic" is in the span, so its insertion read as stated in the evidence.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from spanproof import Verifier
from spanproof.core.models import Verdict
from spanproof.verify.edits import align_edits, judge_edits
from spanproof.verify.scoring import SCORE_MODELS, V50, V51

TRIAL = (
    "In a 12-week trial of 240 adults with hypertension, daily walking lowered systolic blood "
    "pressure by 5 mmHg. Diastolic blood pressure did not change. Adverse events were rare."
)
MERGED = (
    "Daily walking lowered systolic blood pressure by 5 mmHg. It also lowered diastolic blood "
    "pressure by 5 mmHg."
)
RAISED = (
    "Daily walking lowered systolic blood pressure by 5 mmHg. Diastolic blood pressure rose by "
    "2 mmHg."
)


def judgements(claim: str, evidence: str, conjuncts: bool) -> list[str]:
    alignment = align_edits(
        claim, evidence, changed_runs=2, run_share_min=0.65, mixups=True, conjuncts=conjuncts
    )
    assert alignment.near_copy
    checked = judge_edits(alignment, [0.0] * len(alignment.questions), 0.86)
    return [e.judgement for e in checked.edits]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Daily walking lowered systolic and diastolic blood pressure by 5 mmHg.", TRIAL),
        ("Daily walking lowered diastolic and systolic blood pressure by 5 mmHg.", TRIAL),
        ("Daily walking lowered systolic and diastolic blood pressure by 5 mmHg.", RAISED),
    ],
    ids=["not changed", "joined before", "the other direction"],
)
def test_v51_refuses_a_thing_joined_that_the_evidence_states_otherwise(
    claim: str, evidence: str
) -> None:
    assert "allowed: stated in the evidence" in judgements(claim, evidence, conjuncts=False)
    after = judgements(claim, evidence, conjuncts=True)
    assert "unsupported: stated otherwise in the evidence" in after, after


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # a merge: another sentence states the same of it
        ("Daily walking lowered systolic and diastolic blood pressure by 5 mmHg.", MERGED),
        # the copy's own sentence states it
        (
            "Walking lowered systolic and diastolic blood pressure.",
            "Walking lowered systolic and, to a lesser degree, diastolic blood pressure.",
        ),
    ],
    ids=["merge", "same sentence"],
)
def test_v51_allows_a_thing_joined_that_the_evidence_states_alike(
    claim: str, evidence: str
) -> None:
    assert all(j.startswith("allowed") for j in judgements(claim, evidence, conjuncts=True))


def test_v51_is_v50_with_joined_things_read() -> None:
    assert SCORE_MODELS["v51"] is V51 and V51.edit_conjuncts and not V50.edit_conjuncts
    assert replace(V51, name="v50", edit_conjuncts=False) == V50


def test_the_bundled_model_refuses_the_conflated_finding_under_v51_only() -> None:
    evidence = [{"id": "S1", "text": TRIAL}]
    claims = [
        "In adults with hypertension, daily walking lowered systolic and diastolic blood "
        "pressure by 5 mmHg.",
        "In adults with hypertension, daily walking lowered systolic blood pressure by 5 mmHg.",
    ]
    before = Verifier(score_model="v50").check_claims(claims, evidence).claims
    after = Verifier(score_model="v51").check_claims(claims, evidence).claims
    assert [c.verdict for c in before] == [Verdict.SUPPORTED, Verdict.SUPPORTED]
    assert [c.verdict for c in after] == [Verdict.UNSUPPORTED, Verdict.SUPPORTED]
