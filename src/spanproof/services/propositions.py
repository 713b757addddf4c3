"""Propositions asked of the store: verify the question itself and lead with the verdict.

When a question is a proposition (a statement, "Is it true that …", "Does/Is/Can … ?";
:func:`spanproof.verify.proposition.proposition_of`), the answering service verifies the declarative
claim it asks about against the plan (the spans retrieved from the whole store), with the same
scoring as ``spanproof verify`` (:func:`~spanproof.services.verification.score_all`), and the answer
opens with the verdict:

* ``supported`` — "Supported by [S1]: “<the span's words>”";
* ``contradicted`` — "Contradicted by [S1]: “<the span's words>”";
* ``unsupported`` (also for ``partial`` and ``evidence_redacted``) — "Not established by the
  sources."

A supported or contradicted lead whose span states an aim, a design or a method rather than a
finding (:func:`~spanproof.verify.gates.states_no_finding`: "OBJECTIVE To determine whether …",
"We investigated whether …") says so after the quote (:data:`NO_FINDING_NOTE`): on SciFact's
open task (200 sampled claims) such leads were right 14 times in 27, the others 93 times in 125
(docs/quality.md, "Open SciFact").

The evidence (the generated, verified answer) follows. When the check cannot run (no embedder,
a failed model) there is no verdict and no lead; the reason is in ``verification``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spanproof.core.checker import EntailmentChecker
from spanproof.core.models import Claim, ClaimVerdict, Verdict
from spanproof.core.ports import Embedder
from spanproof.services.planning import Plan
from spanproof.services.verification import VERIFIED, score_all
from spanproof.verify.gates import states_no_finding
from spanproof.verify.proposition import proposition_of
from spanproof.verify.scoring import ScoreModel

#: The lead of an answer whose proposition the sources neither support nor contradict.
NOT_ESTABLISHED = "Not established by the sources."
_LEADS = {Verdict.SUPPORTED: "Supported by", Verdict.CONTRADICTED: "Contradicted by"}
#: After a lead whose quoted span states no finding (an aim, a design, a method).
NO_FINDING_NOTE = (
    "(this sentence says what the study set out to do or how, not what it found: "
    "read the source before relying on it)"
)


@dataclass(frozen=True, slots=True)
class PropositionCheck:
    """The verdict on the proposition a question asks about.

    Attributes:
        claim: the declarative claim verified (``Daily walking raised blood pressure.``).
        form: how it was asked: ``statement``, ``whether`` or ``yes_no``.
        verification: ``verified``, or ``unavailable: <reason>`` (then ``verdict`` is None).
        verdict: ``supported``, ``contradicted`` or ``unsupported``.
        result: the claim's full verdict (score, best span, gates, judge), as for ``verify``.
        evidence: the best span's words (the window scored), "" without one.
        source: the best span's source reference (``source_id``, ``version``, ``section_key``,
            ``start``, ``end``, ``title``), empty without one.

    :attr:`states_finding` is False when ``evidence`` states an aim, a design or a method
    rather than a finding; the lead then says so, and the JSON carries
    ``"evidence_states_finding": false``.
    """

    claim: str
    form: str
    verification: str
    verdict: Verdict | None
    result: ClaimVerdict | None = None
    evidence: str = ""
    source: dict[str, Any] | None = None

    @property
    def marker(self) -> str | None:
        """The plan marker of the best span (``S1``), or None."""
        return self.result.best_span.id if self.result and self.result.best_span else None

    @property
    def states_finding(self) -> bool:
        """False when the best span states an aim, a design or a method, not a finding."""
        return not (self.evidence and states_no_finding(self.evidence))

    @property
    def lead(self) -> str:
        """The answer's opening sentence: the verdict and its span (with
        :data:`NO_FINDING_NOTE` when the span states no finding), or "" without a verdict."""
        if self.verdict is None:
            return ""
        if self.verdict in _LEADS and self.marker is not None:
            quoted = f"{_LEADS[self.verdict]} [{self.marker}]: “{self.evidence}”"
            return quoted if self.states_finding else f"{quoted} {NO_FINDING_NOTE}"
        return NOT_ESTABLISHED

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape (``ask --json``, ``/v1/generate`` and traces)."""
        best = None
        if self.result is not None and self.result.best_span is not None:
            span = self.result.best_span
            best = {
                "marker": span.id,
                "start": span.start,
                "end": span.end,
                "text": self.evidence,
                "source": dict(self.source or {}),
            }
        return {
            "claim": self.claim,
            "form": self.form,
            "verification": self.verification,
            "verdict": self.verdict.value if self.verdict is not None else None,
            "lead": self.lead,
            "best_span": best,
            "result": self.result.to_dict() if self.result is not None else None,
            # only when it is so, so earlier records keep their shape
            **({"evidence_states_finding": False} if not self.states_finding else {}),
        }


def proposition_verdict(verdict: Verdict) -> Verdict:
    """A claim verdict as a proposition's: supported, contradicted, else unsupported."""
    if verdict in (Verdict.SUPPORTED, Verdict.CONTRADICTED):
        return verdict
    return Verdict.UNSUPPORTED


def check_proposition(
    question: str,
    plan: Plan,
    *,
    embedder: Embedder | None,
    model: ScoreModel,
    checker: EntailmentChecker | None = None,
) -> PropositionCheck | None:
    """Verify the proposition ``question`` asks about against ``plan``; None when it asks none.

    The claim is scored like a stand-alone claim of ``spanproof verify`` (no cited markers, so
    every plan span is a candidate), under ``model`` and, for the score models that read one,
    ``checker``.
    """
    proposition = proposition_of(question)
    if proposition is None:
        return None
    claim = Claim(id="p1", text=proposition.claim.rstrip("."))
    verdicts, status = score_all([claim], plan.evidence, embedder, model, checker)
    if status != VERIFIED or not verdicts:
        return PropositionCheck(proposition.claim, proposition.form, status, None)
    result = verdicts[0]
    evidence, source = "", None
    if result.best_span is not None:
        span = plan.span(result.best_span.id)
        if span is not None:
            evidence = span.text[result.best_span.start : result.best_span.end].strip()
            source = dict(span.source)
    return PropositionCheck(
        claim=proposition.claim,
        form=proposition.form,
        verification=status,
        verdict=proposition_verdict(result.verdict),
        result=result,
        evidence=evidence,
        source=source,
    )


def with_lead(check: PropositionCheck | None, delivered: str | None) -> str | None:
    """The delivered answer opened by the proposition's verdict (unchanged without one)."""
    if check is None or not check.lead or delivered is None:
        return delivered
    return f"{check.lead}\n\n{delivered}" if delivered else check.lead
