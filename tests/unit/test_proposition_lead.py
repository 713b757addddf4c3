"""A proposition's lead says when the sentence it quotes states no finding (an aim, a design, a
method): the answer, the JSON, the trace record and the trace page carry it, and a lead that
quotes a finding reads as before."""

from __future__ import annotations

from typing import Any

import pytest

from spanproof.core.models import ClaimVerdict, SpanRef, Verdict
from spanproof.core.trace import Trace
from spanproof.services.propositions import NO_FINDING_NOTE, NOT_ESTABLISHED, PropositionCheck
from spanproof.testing.fakes import generation_trace
from spanproof.web.trace_view import PropositionView

AIM = "OBJECTIVE To determine whether daily stretching lowers resting heart rate in adults."
FINDING = "Daily stretching lowered resting heart rate by 4 beats per minute in adults."


def check(verdict: Verdict, evidence: str) -> PropositionCheck:
    result = ClaimVerdict(
        id="p1",
        text="Daily stretching lowers resting heart rate in adults",
        draft_span=None,
        verdict=verdict,
        score=0.8,
        best_span=SpanRef("S1", 0, len(evidence)),
        candidates_considered=1,
        cited_markers=(),
        numeric_gated=False,
    )
    return PropositionCheck(
        claim="Daily stretching lowers resting heart rate in adults.",
        form="yes_no",
        verification="verified",
        verdict=verdict,
        result=result,
        evidence=evidence,
        source={"source_id": "doc-1", "version": 1},
    )


@pytest.mark.parametrize("verdict", [Verdict.SUPPORTED, Verdict.CONTRADICTED])
def test_a_lead_quoting_an_aim_says_it_states_no_finding(verdict: Verdict) -> None:
    aim = check(verdict, AIM)
    assert not aim.states_finding
    assert aim.lead.endswith(f"“{AIM}” {NO_FINDING_NOTE}")
    record = aim.to_dict()
    assert record["evidence_states_finding"] is False and record["lead"] == aim.lead


def test_a_lead_quoting_a_procedure_says_it_states_no_finding_under_any_score_model() -> None:
    # "Did trees cool the city?" led with "Supported by [S1]: “We placed temperature loggers
    # …”" and no word that the sentence says how the study was done, not what it found.
    procedure = "We recorded resting heart rate in 120 adults twice a week for a year."
    lead = check(Verdict.SUPPORTED, procedure)
    assert not lead.states_finding
    assert lead.lead.endswith(f"“{procedure}” {NO_FINDING_NOTE}")


def test_a_lead_quoting_a_finding_reads_as_before() -> None:
    found = check(Verdict.SUPPORTED, FINDING)
    assert found.states_finding
    assert found.lead == f"Supported by [S1]: “{FINDING}”"
    assert "evidence_states_finding" not in found.to_dict()


def test_not_established_carries_no_note() -> None:
    unsupported = check(Verdict.UNSUPPORTED, AIM)
    assert unsupported.lead == NOT_ESTABLISHED


def trace_with(proposition: dict[str, Any]) -> Trace:
    return generation_trace(
        request={"question": "Does daily stretching lower resting heart rate in adults?"},
        proposition=proposition,
    )


def test_the_trace_page_reads_the_note_from_the_record_and_older_records_as_findings() -> None:
    aim = PropositionView.of(trace_with(check(Verdict.SUPPORTED, AIM).to_dict()))
    found = PropositionView.of(trace_with(check(Verdict.SUPPORTED, FINDING).to_dict()))
    assert aim is not None and not aim.states_finding
    assert found is not None and found.states_finding
