"""Escalation of borderline claims to an entailment checker (SPEC §4.5; score model v3).

A claim is escalated when its score lies within ``escalation_band`` of ``supported_min`` and no
gate capped its best pair (a numeric, entity or polarity gate stays authoritative: a capped
score is far below the band anyway). The checker reads the claim beside the text of its best
span window, and its most probable label decides: ``entailed`` → supported, ``contradicted``
→ contradicted; ``neutral`` (it cannot tell) leaves the scores' verdict. Everything else about
the verdict (score, span, gates) is kept, and ``escalated`` is set so the report says which
claims went to the checker.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from spanproof.core.checker import CHECKER_LABELS
from spanproof.core.models import ClaimVerdict, Verdict
from spanproof.verify.scoring import ScoreModel

_DECIDES = {"entailed": Verdict.SUPPORTED, "contradicted": Verdict.CONTRADICTED}
_OPEN = frozenset({Verdict.SUPPORTED, Verdict.PARTIAL, Verdict.UNSUPPORTED})


def needs_escalation(verdict: ClaimVerdict, model: ScoreModel) -> bool:
    """Whether the checker decides ``verdict`` under ``model``."""
    band = model.escalation_band
    return (
        band is not None
        and verdict.best_span is not None
        and verdict.verdict in _OPEN
        and not (verdict.numeric_gated or verdict.entity_gated or verdict.polarity_gated)
        and abs(verdict.score - model.supported_min) <= band
    )


def escalated(verdict: ClaimVerdict, probabilities: Sequence[float]) -> ClaimVerdict:
    """``verdict`` as the checker's most probable label decides it (first label wins ties);
    ``neutral`` (the checker cannot tell) leaves the verdict as the scores gave it."""
    best = CHECKER_LABELS[max(range(len(CHECKER_LABELS)), key=lambda k: (probabilities[k], -k))]
    decided = verdict.verdict if best == "neutral" else _DECIDES[best]
    return dataclasses.replace(verdict, verdict=decided, escalated=True)
