"""Score model v7's finding gate: a window that states an aim or a method supports no finding."""

from __future__ import annotations

import numpy as np
import pytest

from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.verify.gates import states_no_finding
from spanproof.verify.scoring import V2, V7, ScoreModel, prepare_plan, score_claim, score_model

AIM = "OBJECTIVE To evaluate whether aspirin lowers fever in adults."
FINDING = "Aspirin lowered fever in adults."
CLAIM = "Aspirin lowers fever in adults."


@pytest.mark.parametrize(
    "text",
    [
        AIM,
        "We aimed to assess the effects of walking on blood pressure.",
        "The aim of this study was to assess whether HPV testing detects more lesions.",
        "In this study we investigated whether Notch signaling is involved in myeloma.",
        "However, whether pharmacist participation reduces adverse events has not been studied.",
        "MAIN OUTCOME MEASURES Prevalence of HCV antibody and its association with HIV.",
        "Main Outcomes and Measures Sepsis incidence and trends were calculated.",
        "DESIGN Retrospective cohort study of mortality and immunosuppressive drugs.",
        "Objectives: to determine the prevalence of depression after surgery.",
        "The study objective was to investigate the impact of CYP2D6 polymorphisms.",
    ],
)
def test_aims_methods_and_open_questions_state_no_finding(text: str) -> None:
    assert states_no_finding(text)


@pytest.mark.parametrize(
    "text",
    [
        FINDING,
        "Here we show that DUSP4 overexpression increased apoptosis.",
        "CONCLUSIONS HAND2 methylation is a common alteration in endometrial cancer.",
        "Patients with diabetes had a higher risk of bleeding.",
        "Methods that rely on imaging were less sensitive.",
        "We investigated the role of Mical and found that it alters F-actin dynamics.",
        "To our knowledge, this is the first trial of its kind.",
    ],
)
def test_findings_are_not_taken_for_aims(text: str) -> None:
    assert not states_no_finding(text)


def score(claim: str, texts: list[str], cosines: list[float], model: ScoreModel):  # type: ignore[no-untyped-def]
    evidence = [EvidenceSpan(id=f"e{i}", text=t) for i, t in enumerate(texts)]
    plan = prepare_plan(evidence, model)
    return score_claim(Claim(id="c1", text=claim), np.array(cosines, dtype=np.float64), plan)


def test_v7_is_v2_with_the_finding_gate() -> None:
    assert score_model("v7") is V7
    assert V7.finding_gate and not V2.finding_gate
    assert V7.supported_min == V2.supported_min and V7.sentence_windows


def test_an_aim_sentence_supports_under_v2_and_is_capped_under_v7() -> None:
    v2, _ = score(CLAIM, [AIM], [0.95], V2)
    v7, pairs = score(CLAIM, [AIM], [0.95], V7)
    assert v2.verdict is Verdict.SUPPORTED and not v2.finding_gated
    assert pairs[0].finding_gated and pairs[0].score == V7.gate_cap
    assert v7.verdict is Verdict.UNSUPPORTED and v7.finding_gated
    assert v7.to_dict()["finding_gated"] is True
    assert "finding_gated" not in v2.to_dict()


def test_v7_rests_the_verdict_on_the_span_that_states_the_finding() -> None:
    v7, _ = score(CLAIM, [AIM, FINDING], [0.95, 0.85], V7)
    assert v7.verdict is Verdict.SUPPORTED
    assert v7.best_span is not None and v7.best_span.id == "e1"
    assert not v7.finding_gated


def test_a_claim_that_states_an_aim_is_not_gated() -> None:
    v7, pairs = score(AIM, [AIM], [1.0], V7)
    assert not pairs[0].finding_gated
    assert v7.verdict is Verdict.SUPPORTED


def test_an_aim_is_never_the_contradicting_span() -> None:
    aim = "OBJECTIVE To evaluate whether aspirin failed to lower fever in adults."
    v7, pairs = score(CLAIM, [aim], [0.95], V7)
    assert pairs[0].finding_gated
    assert v7.verdict is not Verdict.CONTRADICTED


def test_v7_reads_polarity_in_the_finding_not_in_the_aim() -> None:
    abstract = (
        "OBJECTIVE To determine whether aspirin increases fever in adults. "
        "Aspirin decreased fever in adults."
    )
    claim = "Aspirin increases fever in adults."
    v2, _ = score(claim, [abstract], [0.95], V2)
    v7, pairs = score(claim, [abstract], [0.95], V7)
    assert v2.verdict is Verdict.SUPPORTED  # v2 reads the aim's "increases"
    assert not pairs[0].finding_gated  # the span states a finding too
    assert pairs[0].polarity_gated and v7.verdict is Verdict.CONTRADICTED


def test_without_windows_a_span_is_gated_only_when_no_sentence_states_a_finding() -> None:
    _, pairs = score(CLAIM, [f"{AIM} {FINDING}"], [0.95], V7)
    assert not pairs[0].finding_gated
    _, pairs = score(CLAIM, [f"{AIM} We aimed to assess aspirin in adults."], [0.95], V7)
    assert pairs[0].finding_gated


def test_a_claim_that_copies_an_aim_reads_polarity_in_every_sentence() -> None:
    aim = "OBJECTIVE To determine whether aspirin increases fever in adults."
    v7, pairs = score(aim, [f"{aim} Aspirin did not change fever in adults."], [1.0], V7)
    assert not pairs[0].polarity_gated and not pairs[0].finding_gated
    assert v7.verdict is Verdict.SUPPORTED
