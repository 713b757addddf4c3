"""Data models shared by the verifier, its adapters and its entry points.

All models are frozen dataclasses: plain, typed and hashable where useful. JSON shapes live in
``to_dict`` methods so the CLI, the API and traces serialise them one way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple


class Verdict(StrEnum):
    """Per-claim verdicts (SPEC §4.4, §4.5)."""

    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    EVIDENCE_REDACTED = "evidence_redacted"


class Policy(StrEnum):
    """Delivery policy (SPEC §4.6)."""

    FLAG = "flag"
    REDACT = "redact"


@dataclass(frozen=True, slots=True)
class ErasedRange:
    """A masked character range inside an evidence span's text (SPEC §7)."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    """One piece of evidence a claim may rest on.

    Attributes:
        id: the caller's id; draft markers like ``[S1]`` resolve to it.
        text: the span's canonical text.
        truth_class: False for derived summaries (cache-class), which never support a claim.
        source: optional source metadata (source id, version, section, offsets, title, ...).
        erased: masked ranges of ``text``; a best span overlapping one gives
            ``evidence_redacted``.
    """

    id: str
    text: str
    truth_class: bool = True
    source: dict[str, Any] = field(default_factory=dict)
    erased: tuple[ErasedRange, ...] = ()


@dataclass(frozen=True, slots=True)
class Claim:
    """An atomic claim, either given by the caller or cut from a draft by a decomposer.

    Attributes:
        id: stable id within one report (``c1``, ``c2``, ... or the caller's id).
        text: the claim text.
        draft_span: ``(start, end)`` code-point offsets into the draft, or None for stand-alone
            claims.
        cited_markers: markers cited by the claim, e.g. ``("S1",)``.
    """

    id: str
    text: str
    draft_span: tuple[int, int] | None = None
    cited_markers: tuple[str, ...] = ()


class PairScore(NamedTuple):
    """The score of one (claim, span) pair, with every gate recorded.

    A NamedTuple rather than a dataclass: millions are built in a verification sweep.
    """

    span_index: int
    cosine: float
    lexical: float
    fused: float
    score: float
    numeric_gated: bool
    entity_gated: bool = False
    polarity_gated: bool = False


@dataclass(frozen=True, slots=True)
class SpanRef:
    """Where a claim's best evidence is: the span id and the character range used."""

    id: str
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The verdict on one claim (the CLI contract's ``claims[]`` item)."""

    id: str
    text: str
    draft_span: tuple[int, int] | None
    verdict: Verdict
    score: float
    best_span: SpanRef | None
    candidates_considered: int
    cited_markers: tuple[str, ...]
    numeric_gated: bool
    entity_gated: bool = False
    polarity_gated: bool = False
    escalated: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "draft_span": list(self.draft_span) if self.draft_span is not None else None,
            "verdict": self.verdict.value,
            "score": self.score,
            "best_span": self.best_span.to_dict() if self.best_span is not None else None,
            "candidates_considered": self.candidates_considered,
            "cited_markers": list(self.cited_markers),
            "numeric_gated": self.numeric_gated,
            "entity_gated": self.entity_gated,
            "polarity_gated": self.polarity_gated,
            **({"escalated": True} if self.escalated else {}),
        }


@dataclass(frozen=True, slots=True)
class Report:
    """The result of one verification.

    Attributes:
        verification: ``"verified"`` or ``"unavailable: <reason>"``.
        delivered: the text to deliver (the draft under ``flag``, redacted under ``redact``);
            None for stand-alone claims.
        draft: the original draft, never redacted (None for stand-alone claims).
    """

    score_model: str
    embed_model: str
    verification: str
    claims: tuple[ClaimVerdict, ...]
    delivered: str | None
    draft: str | None = None
    policy: Policy = Policy.FLAG
    decompose_model: str = ""
    embed_model_hash: str = ""
    #: The entailment checker that decided escalated claims (score model v3), else "".
    checker_model: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {
            "score_model": self.score_model,
            "embed_model": self.embed_model,
            "embed_model_hash": self.embed_model_hash,
            "verification": self.verification,
            "claims": [c.to_dict() for c in self.claims],
            "delivered": self.delivered,
        }
        if self.checker_model:  # v1 and v2 output stays exactly as it was
            out["checker_model"] = self.checker_model
        return out
