"""The judge in the verdict (score model v5): evidence windows, features and the combiner.

Every claim that has truth-class evidence is read by the judge (a trained entailment model)
against one evidence *window*: the claim's best-matching sentence, its neighbours in the same
span, and a second close sentence from elsewhere, joined in plan order (MiniCheck's lesson:
support is often spread over sentences). The verdict then comes from a small logistic combiner
over the judge's three probabilities and the deterministic signals (cosine, lexical coverage,
the gates, the edit check), fitted on the development splits only by
``scripts/fit_combiner.py`` and shipped as constants in :mod:`spanproof.verify.combiner_weights`.

Its output is a probability that the claim is supported, and the bands mean something:
``supported`` only at or above the threshold at which ``supported`` was right at least 95 % of
the time on every development split; ``unsupported`` below the threshold at which "not
supported" was right at least 90 % of the time; ``partial`` between — "the evidence may support
this; a person should look". ``contradicted`` when the combiner does not say supported and the
judge's most probable label is ``contradicted`` (or the polarity gate or edit check names a
contradiction the judge does not read as entailed).

Everything here is pure: the judge's probabilities arrive from the caller.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from spanproof.core.models import Verdict
from spanproof.verify.fusion import fuse
from spanproof.verify.lexical import WeightedClaim, coverage

__all__ = [
    "FEATURES",
    "Combiner",
    "JudgeWindow",
    "WindowCandidate",
    "choose_window",
    "combine",
    "feature_vector",
    "judged_verdict",
    "window_text",
]

#: The combiner's inputs, in this order.
FEATURES: tuple[str, ...] = (
    "p_entailed",
    "p_contradicted",
    "entailed_logit",
    "cosine",
    "lexical",
    "fused",
    "numeric_gated",
    "entity_gated",
    "polarity_gated",
    "edit_unsupported",
    "edit_contradicted",
)

#: Most sentences one window joins, and the longest window text (characters; the judge
#: reads at most 256 word pieces, claim included, and truncates the window beyond that).
WINDOW_SENTENCES = 3
WINDOW_CHARS = 1000
#: A second sentence from elsewhere joins the window when its fused score is this close to
#: the best sentence's.
SECOND_SENTENCE_MARGIN = 0.1


@dataclass(frozen=True, slots=True)
class WindowCandidate:
    """One embedded window (a sentence, or a piece of a long one) of a candidate span."""

    position: int  # order of the window in the span (consecutive windows are neighbours)
    span_index: int
    start: int
    end: int
    cosine: float


@dataclass(frozen=True, slots=True)
class JudgeWindow:
    """What the judge reads for one claim: parts of plan spans joined in plan order."""

    parts: tuple[tuple[int, int, int], ...]  # (span index, start, end)
    text: str


@dataclass(frozen=True, slots=True)
class Combiner:
    """Logistic regression over :data:`FEATURES` and the thresholds that give it bands.

    Attributes:
        weights: one weight per feature, in :data:`FEATURES` order.
        bias: the intercept.
        supported_min: probability at or above which a claim is ``supported``.
        unsupported_max: probability below which a claim is ``unsupported`` (``partial``
            between the two).
        contradicted_min: the judge's contradiction probability from which its
            ``contradicted`` label is believed.
        fitted_on: what the weights were fitted on (recorded, for the model card).
    """

    weights: tuple[float, ...]
    bias: float
    supported_min: float
    unsupported_max: float
    contradicted_min: float = 0.5
    fitted_on: str = ""

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"a combiner needs {len(FEATURES)} weights, got {len(self.weights)}")
        if not 0.0 <= self.unsupported_max <= self.supported_min <= 1.0:
            raise ValueError("combiner thresholds must satisfy 0 <= unsupported <= supported <= 1")


def _sentence_fused(
    claim: WeightedClaim, cosine: float, beta: float, tokens: Sequence[str]
) -> float:
    return fuse(cosine, coverage(claim, Counter(tokens)), beta)


def choose_window(
    claim: WeightedClaim,
    windows: Sequence[WindowCandidate],
    lexical_tokens: Sequence[Sequence[str]],
    span_texts: dict[int, str],
    beta: float,
) -> JudgeWindow | None:
    """The evidence window the judge reads for one claim.

    Args:
        claim: the claim's weighted terms (as lexical coverage reads them).
        windows: the embedded windows of the claim's candidate spans, in plan order.
        lexical_tokens: each window's tokens as lexical coverage counts them.
        span_texts: span index → span text.
        beta: the fusion weight of the score model.

    Returns:
        The best window by fused score with its neighbours in the same span (up to
        :data:`WINDOW_SENTENCES` windows), plus the runner-up from another place when it is
        within :data:`SECOND_SENTENCE_MARGIN`; parts in plan order, overlapping parts merged.
        None when there is no window.
    """
    if not windows:
        return None
    scored = [
        _sentence_fused(claim, w.cosine, beta, lexical_tokens[k]) for k, w in enumerate(windows)
    ]
    order = sorted(range(len(windows)), key=lambda k: (-scored[k], k))
    best = order[0]
    chosen = [best]
    for k in order[1:2]:
        near = windows[k].span_index == windows[best].span_index and (
            abs(windows[k].position - windows[best].position) <= 1
        )
        if scored[k] >= scored[best] - SECOND_SENTENCE_MARGIN and not near:
            chosen.append(k)
    # Neighbours of the best window in its span: the one before, then the one after.
    by_place = {(w.span_index, w.position): k for k, w in enumerate(windows)}
    top = windows[best]
    for offset in (-1, 1):
        neighbour = by_place.get((top.span_index, top.position + offset))
        if neighbour is not None and neighbour not in chosen and len(chosen) < WINDOW_SENTENCES:
            chosen.append(neighbour)
    chosen.sort(key=lambda k: (windows[k].span_index, windows[k].start))
    parts: list[tuple[int, int, int]] = []
    for k in chosen:
        w = windows[k]
        if parts and parts[-1][0] == w.span_index and w.start <= parts[-1][2]:
            parts[-1] = (w.span_index, parts[-1][1], max(parts[-1][2], w.end))
        else:
            parts.append((w.span_index, w.start, w.end))
    used = 0
    kept: list[tuple[int, int, int]] = []
    for span_index, start, end in parts:
        size = len(span_texts[span_index][start:end].strip())
        if kept and used + size > WINDOW_CHARS:
            continue
        kept.append((span_index, start, end))
        used += size + 1
    return JudgeWindow(tuple(kept), window_text(kept, span_texts))


def window_text(parts: Sequence[tuple[int, int, int]], span_texts: Mapping[int, str]) -> str:
    """The text the judge reads for a window: its parts, stripped, joined by one space."""
    return " ".join(span_texts[s][start:end].strip() for s, start, end in parts)


def feature_vector(
    probabilities: Sequence[float],
    cosine: float,
    lexical: float,
    fused: float,
    gates: tuple[bool, bool, bool],
    edit_outcome: str = "none",
) -> tuple[float, ...]:
    """The combiner's inputs (:data:`FEATURES` order) for one claim."""
    p_ent = float(probabilities[0])
    p_con = float(probabilities[1])
    eps = 1e-6
    logit = math.log(p_ent + eps) - math.log(1.0 - p_ent + eps)
    numeric, entity, polar = gates
    return (
        p_ent,
        p_con,
        logit,
        float(cosine),
        float(lexical),
        float(fused),
        float(numeric),
        float(entity),
        float(polar),
        float(edit_outcome == "unsupported"),
        float(edit_outcome == "contradicted"),
    )


def combine(features: Sequence[float], combiner: Combiner) -> float:
    """The combiner's probability that the claim is supported."""
    z = combiner.bias
    for weight, value in zip(combiner.weights, features, strict=True):
        z += weight * value
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def judged_verdict(
    probability: float,
    probabilities: Sequence[float],
    combiner: Combiner,
    *,
    capped: bool,
    contradiction_named: bool,
) -> Verdict:
    """The verdict from the combiner's probability and the judge's label.

    Args:
        probability: :func:`combine`'s output.
        probabilities: the judge's (entailed, contradicted, neutral).
        combiner: thresholds.
        capped: a gate or the edit check capped the claim: it cannot be ``supported``.
        contradiction_named: the polarity gate or the edit check names a contradiction.
    """
    p_ent, p_con, p_neu = (float(p) for p in probabilities[:3])
    if probability >= combiner.supported_min and not capped:
        return Verdict.SUPPORTED
    judge_contradicts = p_con >= combiner.contradicted_min and p_con > p_ent and p_con > p_neu
    if judge_contradicts or (contradiction_named and p_ent < 0.5):
        return Verdict.CONTRADICTED
    if probability >= combiner.unsupported_max:
        return Verdict.PARTIAL
    return Verdict.UNSUPPORTED
