"""Score model v64: a claim's "both … and" and "as well as" are read as "and", so a finding
extended to a thing the evidence states otherwise is refused as v51 refuses "A and B"."""

from __future__ import annotations

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier
from spanproof.verify.edits import correlatives_joined, prepare_text

TRIAL = [
    {
        "id": "S1",
        "text": "In a randomized trial of 200 adults with hypertension, daily walking for 30 "
        "minutes lowered systolic blood pressure by 5 mmHg after 12 weeks compared with usual "
        "care. Diastolic pressure did not change.",
    }
]


def test_both_and_as_well_as_are_read_as_and() -> None:
    plain = prepare_text("Walking lowered systolic and diastolic pressure.")
    for written in (
        "Walking lowered both systolic and diastolic pressure.",
        "Walking lowered systolic as well as diastolic pressure.",
    ):
        read = correlatives_joined(prepare_text(written))
        assert read.keys == plain.keys
        assert read.content == plain.content
        for token in read.tokens:  # offsets stay the written text's
            assert read.text[token.start : token.end].lower().replace(" ", "") in (
                token.text,
                "aswellas",
            )
    alone = prepare_text("Both groups improved.")  # no "and" to pair with: left as written
    assert correlatives_joined(alone) is alone


def test_a_finding_extended_with_both_or_as_well_as_is_refused_from_v64() -> None:
    claims = [
        "In adults with hypertension, daily walking lowered both systolic and diastolic blood "
        "pressure.",
        "In adults with hypertension, daily walking lowered systolic as well as diastolic blood "
        "pressure.",
    ]
    before = Verifier(score_model="v63").score_claims(claims, TRIAL)
    assert [v.verdict for v in before] == [Verdict.SUPPORTED] * 2
    for verdict in Verifier(score_model="v64").score_claims(claims, TRIAL):
        assert verdict.verdict is Verdict.UNSUPPORTED
        assert "unsupported: stated otherwise in the evidence" in [
            e.judgement for e in verdict.edits
        ]
