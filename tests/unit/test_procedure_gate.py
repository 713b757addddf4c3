"""Score model v49: a sentence that states only a procedure supports no finding.

"We placed temperature loggers in 48 city blocks … and measured tree canopy cover" shares
"tree" and "city" with "Trees cooled the city" and supported it under v47; it says what was
done, not what was found.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from spanproof import Verifier
from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.services.verification import score_all
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.gates import states_a_procedure, states_no_finding
from spanproof.verify.scoring import (
    SCORE_MODELS,
    V7,
    V47,
    V49,
    ScoreModel,
    no_finding,
    prepare_plan,
    score_claim,
)

METHOD = (
    "We placed temperature loggers in 48 city blocks over two summers and measured tree "
    "canopy cover from aerial photographs."
)
RESULT = (
    "At 3 pm, blocks with more than 30% tree canopy were 2.1 °C cooler than blocks with less "
    "than 10% canopy."
)


@pytest.mark.parametrize(
    "text",
    [
        METHOD,
        "We used a full-length cDNA clone of ONNV to construct a series of mutants.",
        "Here, we analyzed the binding of infectious prion protein to plants.",
        "In this study, we retrospectively reviewed 625 consecutive patients.",
        "METHODS 50 patients with symptomatic peripheral arterial disease were recruited.",
        "Blood samples were collected at 9 pm on the following evening.",
        "CIMT was measured using ultrasound while rest and exercise ABPI were performed.",
        "Participants were randomly assigned to walking or usual care.",
    ],
)
def test_sentences_that_state_only_a_procedure(text: str) -> None:
    assert states_a_procedure(text)
    assert states_no_finding(text, procedures=True)
    assert not states_no_finding(text)  # v7's cues do not read them


@pytest.mark.parametrize(
    "text",
    [
        RESULT,
        "We measured cortisol and found that it was higher after short sleep.",
        "We first performed sequencing of cfDNA and detected an acquired EGFR mutation.",
        "We used mice lacking Gli1 to show that it is required for bone repair.",
        "Patients were treated with aspirin, and fever fell in 80% of them.",
        "Hormone replacement was followed by gestational failure.",
        "Survival was determined by tumour size (p < 0.01).",
        "We describe a new function for PD-1 in T cell expansion.",
        "Aspirin lowered fever in adults.",
        "Blocks were compared, and shaded blocks were cooler than open ones.",
    ],
)
def test_findings_are_not_taken_for_procedures(text: str) -> None:
    assert not states_a_procedure(text)
    assert not states_no_finding(text, procedures=True)


def test_a_window_states_no_finding_only_when_each_sentence_is_a_procedure() -> None:
    assert states_no_finding(f"{METHOD} Blood samples were collected at 9 pm.", procedures=True)
    assert not states_no_finding(f"{METHOD} {RESULT}", procedures=True)
    assert not states_no_finding("", procedures=True)


def test_v49_reads_procedures_and_not_v7s_aims() -> None:
    assert SCORE_MODELS["v49"] is V49 and V49.procedure_statements
    assert not V47.procedure_statements and not V49.finding_gate
    assert replace(V49, name="v47", procedure_statements=False) == V47
    aim = "OBJECTIVE To evaluate whether aspirin lowers fever in adults."
    assert no_finding(METHOD, V49) and not no_finding(METHOD, V7)
    assert no_finding(aim, V7) and not no_finding(aim, V49)
    assert V49.reads_findings and V7.reads_findings and not V47.reads_findings


def score(claim: str, texts: list[str], cosines: list[float], model: ScoreModel):  # type: ignore[no-untyped-def]
    evidence = [EvidenceSpan(id=f"e{i}", text=t) for i, t in enumerate(texts)]
    plan = prepare_plan(evidence, model)
    return score_claim(Claim(id="c1", text=claim), np.array(cosines, dtype=np.float64), plan)


def test_a_procedure_supports_under_v47_and_is_capped_under_v49() -> None:
    claim = "Tree canopy cover cooled 48 city blocks."
    v47, _ = score(claim, [METHOD], [0.9], V47)
    v49, pairs = score(claim, [METHOD], [0.9], V49)
    assert v47.verdict is Verdict.SUPPORTED and not v47.finding_gated
    assert pairs[0].finding_gated and pairs[0].score == V49.gate_cap
    assert v49.verdict is Verdict.UNSUPPORTED and v49.to_dict()["finding_gated"] is True


def test_v49_rests_the_verdict_on_the_span_that_states_the_finding() -> None:
    claim = "City blocks with more tree canopy were cooler."
    v49, _ = score(claim, [METHOD, RESULT], [0.95, 0.85], V49)
    assert v49.verdict is Verdict.SUPPORTED
    assert v49.best_span is not None and v49.best_span.id == "e1" and not v49.finding_gated


def test_a_claim_that_states_a_procedure_is_read_as_before() -> None:
    claim = "Temperature loggers were placed in 48 city blocks."
    for model in (V47, V49):
        verdicts, _ = score_all(
            [Claim("c1", claim)], [EvidenceSpan("S1", METHOD)], FakeEmbedder(), model
        )
        assert verdicts[0].verdict is Verdict.SUPPORTED and not verdicts[0].finding_gated


def test_the_bundled_model_no_longer_supports_a_finding_from_a_procedure() -> None:
    evidence = [{"id": "R", "text": RESULT}, {"id": "M", "text": METHOD}]
    claims = ["Trees cooled the city.", "Blocks with more tree canopy were cooler."]
    before = Verifier(score_model="v47").check_claims(claims, evidence).claims
    after = Verifier(score_model="v49").check_claims(claims, evidence).claims
    assert [c.verdict for c in before] == [Verdict.SUPPORTED, Verdict.SUPPORTED]
    assert before[0].best_span is not None and before[0].best_span.id == "M"
    assert [c.verdict for c in after] == [Verdict.UNSUPPORTED, Verdict.SUPPORTED]
