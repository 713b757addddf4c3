"""The verification use case: embed under one model, score, band, apply policy (SPEC §4.4–4.6).

Degradations are results, not exceptions: a missing embedder, a failing or inconsistent embedding
model, or a failed decomposition gives ``verification = "unavailable: <reason>"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CheckerPair, EntailmentChecker
from spanproof.core.errors import DecomposeError, ProviderError
from spanproof.core.models import Claim, ClaimVerdict, EvidenceSpan, Policy, Report
from spanproof.core.ports import Decomposer, Embedder
from spanproof.text.sentences import Sentence, split_sentences
from spanproof.verify.escalation import escalated, needs_escalation
from spanproof.verify.policy import deliver
from spanproof.verify.scoring import (
    Plan,
    ScoreModel,
    prepare_plan,
    score_claim,
    unsupported_verdict,
)

VERIFIED = "verified"


class EmbeddingUnavailable(Exception):
    """Internal signal: the embedder cannot serve this verification (reason in args[0])."""


@dataclass(frozen=True, slots=True)
class SpanCosines:
    """Cosines of claims to plan spans (max over each span's windows) and the best windows."""

    cosines: npt.NDArray[np.float64]  # (claims, spans)
    windows: list[list[tuple[int, int]]]  # per claim, per span: best window range
    claim_vectors: npt.NDArray[np.float32]  # (claims, dim)
    window_vectors: list[list[npt.NDArray[np.float32] | None]]  # per claim, per span: best window


def _check_vectors(vectors: npt.NDArray[np.float32], expected_rows: int) -> None:
    if vectors.ndim != 2 or vectors.shape[0] != expected_rows:
        raise EmbeddingUnavailable(
            f"inconsistent embedding model: expected {expected_rows} vectors, got shape "
            f"{tuple(vectors.shape)}"
        )
    if not np.all(np.isfinite(vectors)):
        raise EmbeddingUnavailable("inconsistent embedding model: non-finite vector values")


def window_ranges(text: str, embedder: Embedder, by_sentence: bool) -> list[tuple[int, int]]:
    """Character ranges to embed for one span.

    Every range fits the model's input window, so nothing is truncated. With ``by_sentence``
    (score model v2) each sentence is its own window, so one supporting sentence inside a long
    passage is not diluted by the rest; otherwise the span is one window unless it is longer
    than the model's input (the seed's embedding of the whole span).
    """
    if not by_sentence:
        return embedder.window_ranges(text)
    ranges: list[tuple[int, int]] = []
    for sentence in split_sentences(text) or [Sentence(text, 0, len(text))]:
        for start, end in embedder.window_ranges(sentence.text):
            ranges.append((sentence.start + start, sentence.start + end))
    return ranges or [(0, len(text))]


def span_cosines(claims: Sequence[Claim], plan: Plan, embedder: Embedder) -> SpanCosines:
    """Embed claims and every truth-class span window in one call; reduce to per-span maxima.

    Long spans are embedded as overlapping windows so nothing is truncated; the best window
    counts. Cache-class spans are not embedded (they can never be candidates).
    """
    owners: list[int] = []
    ranges: list[tuple[int, int]] = []
    texts: list[str] = [c.text for c in claims]
    for prepared in plan.spans:
        if not prepared.span.truth_class:
            continue
        text = prepared.span.text
        for start, end in window_ranges(text, embedder, plan.model.sentence_windows):
            owners.append(prepared.index)
            ranges.append((start, end))
            texts.append(text[start:end])
    try:
        vectors = embedder.embed(texts)
    except ProviderError as exc:
        raise EmbeddingUnavailable(f"embedding failed: {exc}") from exc
    _check_vectors(vectors, len(texts))
    as64 = vectors.astype(np.float64)
    claim_vecs, window_vecs = as64[: len(claims)], as64[len(claims) :]
    window_cos = claim_vecs @ window_vecs.T if ranges else np.zeros((len(claims), 0))
    n_spans = len(plan.spans)
    cosines = np.full((len(claims), n_spans), -1.0, dtype=np.float64)
    best: list[list[tuple[int, int]]] = [
        [(0, len(p.span.text)) for p in plan.spans] for _ in claims
    ]
    best_vec: list[list[npt.NDArray[np.float32] | None]] = [[None] * n_spans for _ in claims]
    for w, (owner, rng) in enumerate(zip(owners, ranges, strict=True)):
        column = window_cos[:, w]
        for c in range(len(claims)):
            if column[c] > cosines[c, owner]:  # strictly greater: first window wins ties
                cosines[c, owner] = column[c]
                best[c][owner] = rng
                best_vec[c][owner] = vectors[len(claims) + w]
    return SpanCosines(cosines, best, vectors[: len(claims)], best_vec)


def score_all(
    claims: Sequence[Claim],
    evidence: Sequence[EvidenceSpan],
    embedder: Embedder | None,
    model: ScoreModel,
    checker: EntailmentChecker | None = None,
) -> tuple[list[ClaimVerdict], str]:
    """Verdicts for atomic claims, and the ``verification`` status string. ``checker`` decides
    the borderline claims of a score model with escalation (v3)."""
    if not claims:
        return [], VERIFIED
    plan = prepare_plan(evidence, model)
    if not plan.truth_indices:
        # No truth-class span: every claim is unsupported by construction, no embedding.
        return [unsupported_verdict(c) for c in claims], VERIFIED
    if embedder is None:
        return [], "unavailable: no embedder configured"
    try:
        sims = span_cosines(claims, plan, embedder)
    except EmbeddingUnavailable as exc:
        return [], f"unavailable: {exc.args[0]}"
    verdicts = [
        score_claim(claim, sims.cosines[i], plan, sims.windows[i])[0]
        for i, claim in enumerate(claims)
    ]
    if model.escalation_band is not None:
        if checker is None:
            return [], f"unavailable: score model {model.name} needs an entailment checker"
        try:
            verdicts = _escalate(claims, verdicts, plan, sims, checker, model)
        except ProviderError as exc:
            return [], f"unavailable: entailment checker failed: {exc}"
    return verdicts, VERIFIED


def _escalate(
    claims: Sequence[Claim],
    verdicts: list[ClaimVerdict],
    plan: Plan,
    sims: SpanCosines,
    checker: EntailmentChecker,
    model: ScoreModel,
) -> list[ClaimVerdict]:
    """Borderline verdicts decided by the checker on (claim, best span window) (score model v3)."""
    index = {p.span.id: p.index for p in plan.spans}
    rows: list[int] = []
    pairs: list[CheckerPair] = []
    for i, verdict in enumerate(verdicts):
        if not needs_escalation(verdict, model):
            continue
        assert verdict.best_span is not None
        s = index[verdict.best_span.id]
        window_vec = sims.window_vectors[i][s]
        if window_vec is None:
            continue
        text = plan.spans[s].span.text[verdict.best_span.start : verdict.best_span.end]
        rows.append(i)
        pairs.append((claims[i].text, text, sims.claim_vectors[i], window_vec))
    if not pairs:
        return verdicts
    probabilities = checker.check(pairs)
    out = list(verdicts)
    for row, probs in zip(rows, probabilities, strict=True):
        out[row] = escalated(out[row], [float(p) for p in probs])
    return out


def checker_model(model: ScoreModel, checker: EntailmentChecker | None, status: str) -> str:
    """The checker's model id for the report: set when it could decide claims (v3), else ""."""
    if model.escalation_band is None or checker is None or status != VERIFIED:
        return ""
    return checker.model_id


def verify_draft(
    draft: str,
    evidence: Sequence[EvidenceSpan],
    *,
    decomposer: Decomposer,
    embedder: Embedder | None,
    model: ScoreModel,
    policy: Policy = Policy.FLAG,
    checker: EntailmentChecker | None = None,
) -> Report:
    """Decompose ``draft``, score every claim, and apply ``policy``.

    When verification is unavailable the draft is delivered unchanged under ``flag`` and withheld
    (``delivered = None``) under ``redact``: unverified text is never passed off as redacted.
    """

    def report(status: str, verdicts: Sequence[ClaimVerdict], delivered: str | None) -> Report:
        return Report(
            score_model=model.name,
            embed_model=embedder.model_id if embedder is not None and status == VERIFIED else "",
            verification=status,
            claims=tuple(verdicts),
            delivered=delivered,
            draft=draft,
            policy=policy,
            decompose_model=decomposer.model_id,
            embed_model_hash=(
                embedder.model_hash if embedder is not None and status == VERIFIED else ""
            ),
            checker_model=checker_model(model, checker, status),
        )

    withheld = draft if policy is Policy.FLAG else None
    if not draft.strip():
        return report(VERIFIED, (), draft)
    try:
        claims = decomposer.decompose(draft)
    except DecomposeError as exc:
        return report(f"unavailable: decomposition failed: {exc}", (), withheld)
    verdicts, status = score_all(claims, evidence, embedder, model, checker)
    if status != VERIFIED:
        return report(status, (), withheld)
    return report(status, verdicts, deliver(draft, verdicts, policy))
