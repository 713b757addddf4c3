"""Score model v63: an answer may name what its source calls "the company" or "the drug" when
the source opens by naming it; a name the source gives to something else stays refused."""

from __future__ import annotations

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier

REPORT = {
    "id": "S1",
    "text": "Acme Corp reported revenue of $4.2 billion for fiscal 2025. Beta Inc, a competitor, "
    "reported revenue of $3.1 billion. The company expects revenue growth of 5-7% in fiscal 2026.",
}
TRIAL = {
    "id": "S2",
    "text": "In a phase 3 trial, Zolvimab reduced migraine days by 2.1 per month. The drug was "
    "well tolerated.",
}


def judged(model: str, claims: list[str]) -> list[tuple[Verdict, list[str]]]:
    verdicts = Verifier(score_model=model).score_claims(claims, [REPORT, TRIAL])
    return [(v.verdict, [e.judgement or "" for e in v.edits]) for v in verdicts]


def test_the_name_the_source_opens_with_may_stand_for_its_description() -> None:
    claims = [
        "Acme expects revenue growth of 5-7% in fiscal 2026.",
        "Acme Corp expects revenue growth of 5-7% in fiscal 2026.",
        "Zolvimab was well tolerated.",
    ]
    assert all(v is not Verdict.SUPPORTED for v, _ in judged("v62", claims))
    for verdict, edits in judged("v63", claims):
        assert verdict is Verdict.SUPPORTED
        assert "allowed: named in the evidence before" in edits


def test_another_name_for_the_description_stays_refused() -> None:
    claims = [
        "Beta Inc expects revenue growth of 5-7% in fiscal 2026.",  # named, but later
        "Gamma expects revenue growth of 5-7% in fiscal 2026.",  # never named
        "Aspirin was well tolerated.",
    ]
    assert all(v is Verdict.UNSUPPORTED for v, _ in judged("v63", claims))
