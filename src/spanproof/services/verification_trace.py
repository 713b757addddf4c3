"""The trace of a stand-alone verification (SPEC §4.7): ``kind = "verification"``.

A verification has no planner and no generator: its "plan" is the caller's evidence, in the
order given, each span under its own id as marker. The trace stores the vectors scoring used
(through :class:`~spanproof.services.replay.RecordingEmbedder`), so
:func:`~spanproof.services.replay.replay` re-scores it from the trace alone, exactly as it does a
generation trace.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spanproof.core.models import Claim, ClaimVerdict, EvidenceSpan, Report
from spanproof.core.trace import Trace, plan_hash, scrub
from spanproof.services.replay import RecordingEmbedder, trace_embeddings
from spanproof.services.verification import VERIFIED
from spanproof.verify.scoring import ScoreModel


def evidence_plan(evidence: Sequence[EvidenceSpan]) -> list[dict[str, Any]]:
    """The evidence as a trace's ``plan``: one entry per span, in the order given.

    Source metadata comes first so that ``marker``, ``id``, ``text``, ``truth_class`` and
    ``erased`` always describe the span itself.
    """
    plan: list[dict[str, Any]] = []
    for span in evidence:
        entry: dict[str, Any] = {
            **span.source,
            "marker": span.id,
            "id": span.id,
            "text": span.text,
            "truth_class": span.truth_class,
        }
        if span.erased:
            entry["erased"] = [[r.start, r.end] for r in span.erased]
        else:
            entry.pop("erased", None)
        plan.append(entry)
    return plan


def verification_trace(
    report: Report,
    evidence: Sequence[EvidenceSpan],
    claims: Sequence[Claim | ClaimVerdict],
    embedder_recording: RecordingEmbedder | None,
    model: ScoreModel,
    request: Mapping[str, Any],
) -> Trace:
    """The (unsealed) trace of one stand-alone verification.

    Args:
        report: the verification's result.
        evidence: the evidence exactly as scoring received it, in order.
        claims: the claims scored, in order (``report.claims`` will do: only the text is read).
        embedder_recording: the recording embedder that scored; its last call supplies the
            vectors (None when no embedder took part: the trace then holds no vectors).
        model: the score model used.
        request: the caller's request; secret-looking keys are removed.

    Returns:
        A trace of kind ``verification``; append it to a trace store to seal it.
    """
    plan = evidence_plan(evidence)
    embeddings: dict[str, Any] = {}
    if embedder_recording is not None and report.verification == VERIFIED:
        embeddings = trace_embeddings(claims, evidence, embedder_recording, model)
    embed = report.embed_model
    if not embed and embedder_recording is not None:
        embed = embedder_recording.model_id  # the model that was tried, for the record
    return Trace(
        kind="verification",
        request=scrub(dict(request)),
        plan=plan,
        plan_hash=plan_hash(plan),
        prompt_hash="",
        models={
            "decompose": report.decompose_model,
            "embed": embed,
            "embed_hash": report.embed_model_hash,
            "score_model": model.name,
            **({"checker_model": report.checker_model} if report.checker_model else {}),
            **({"checker_note": report.checker_note} if report.checker_note else {}),
        },
        draft=report.draft or "",
        claims=[c.to_dict() for c in report.claims],
        verification=report.verification,
        delivered=report.delivered,
        embeddings=embeddings,
        outcome=report.outcome.value,
        counts=report.counts,
    )
