"""Data models shared by the verifier, its adapters and its entry points.

All models are frozen dataclasses: plain, typed and hashable where useful. JSON shapes live in
``to_dict`` methods so the CLI, the API and traces serialise them one way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, NamedTuple, get_args

#: The shipped score models' names (spanproof.verify.scoring.SCORE_MODELS), one list for the
#: configuration, the API schema and the CLI's choices.
ScoreModelName = Literal[
    "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15",
    "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28",
    "v29", "v30", "v31", "v32", "v33", "v34", "v35", "v36", "v37", "v38", "v39",
    "v40", "v41", "v42", "v43", "v44", "v45", "v46", "v47", "v48", "v49", "v50", "v51", "v52",
    "v53", "v54", "v55", "v56", "v57", "v58", "v59", "v60", "v61", "v62", "v63", "v64",
    "v65", "v66", "v67", "v68", "v69", "v70", "v71", "v72", "v73", "v74", "v75", "v76", "v77",
    "v78", "v79",
]  # fmt: skip
SCORE_MODEL_NAMES: tuple[str, ...] = get_args(ScoreModelName)
#: The score model a verification uses when none is named (the configuration's
#: ``verify.score_model``, ``Verifier()``); v2 until v25, v25 until v27, v27 until v29, v29
#: until v33, v33 until v34, v34 until v35, v35 until v36, v36 until v37, v37 until v38, v38
#: until v39, v39 until v40, v40 until v41, v41 until v42, v42 until v45, v45 until v47, v47
#: until v50, v50 until v51, v51 until v52, v52 until v53, v53 until v54, v54 until v55, v55
#: until v56, v56 until v57, v57 until v58, v58 until v59, v59 until v60, v60 until v61,
#: v61 until v62, v62 until v63, v63 until v64, v64 until v65, v65 until v66, v66 until v67,
#: v67 until v69 (v68 was never the default), v69 until v70, v70 until v71, v71 until v72,
#: v72 until v73, v73 until v74, v74 until v75, v75 until v76, v76 until v77, v77 until v78,
#: v78 until v79
#: (docs/quality.md,
#: "Why v25 replaced v2 as the default", "Why v27 replaced v25 as the default", "Why v29
#: replaced v27 as the default", "Why v33 replaced v29 as the default", "Why v34 replaced v33 as
#: the default", "Why v35 replaced v34 as the default", "Why v36 replaced v35 as the default",
#: "Why v37 replaced v36 as the default", "Why v38 replaced v37 as the default", "Why v39
#: replaced v38 as the default", "Why v40 replaced v39 as the default", "Why v41 replaced v40 as
#: the default", "Why v42 replaced v41 as the default", "Why v45 replaced v42 as the default",
#: "Why v47 is the default", "Why v50 is the default", "Why v51 is the default", "Why v52 is
#: the default", "Why v53 was the default", "Why v54 was the default", "Why v55 was the
#: default", "Why v56 was the default", "Why v57 was the default", "Why v58 was the
#: default", "Why v59 was the default", "Why v60 was the default", "Why v61 was the
#: default", "Why v62 was the default", "Why v63 was the default", "Why v64 was the default",
#: "Why v65 was the default", "Why v66 was the default", "Why v67 was the default", "Why v69
#: was the default", "Why v70 was the default", "Why v71 was the default", "Why v72 was
#: the default", "Why v73 was the default", "Why v74 was the default", "Why v75 was the
#: default", "Why v76 was the default", "Why v77 was the default", "Why v78 was the default"
#: and "Why v79 is the default", says why each changed).
DEFAULT_SCORE_MODEL: ScoreModelName = "v79"


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


class Outcome(StrEnum):
    """What a report says about its text as a whole, in one word nobody can misread.

    ``verification`` only says whether the check ran; the outcome says what it found. See
    :func:`outcome_of`.
    """

    ALL_SUPPORTED = "all_supported"
    NOT_ALL_SUPPORTED = "not_all_supported"
    CONTRADICTED = "contradicted"
    NO_CLAIMS = "no_claims"
    ABSTAINED = "abstained"
    UNAVAILABLE = "unavailable"


def verdict_counts(verdicts: Iterable[str]) -> dict[str, int]:
    """How many claims got each verdict: every verdict a key, in :class:`Verdict` order."""
    counts = dict.fromkeys((v.value for v in Verdict), 0)
    for verdict in verdicts:
        counts[Verdict(verdict).value] += 1
    return counts


def outcome_of(verification: str, verdicts: Iterable[str], *, abstained: bool = False) -> Outcome:
    """The outcome of a report: a pure function of its verification status and claim verdicts.

    In order: ``abstained`` when the answer abstained (nothing was claimed, so nothing can fail);
    ``unavailable`` when the check did not run (``verification`` is not ``verified``);
    ``no_claims`` when there was nothing to check; ``contradicted`` when any claim is
    contradicted; ``all_supported`` when every claim is supported; else ``not_all_supported``.
    """
    if abstained:
        return Outcome.ABSTAINED
    if verification != "verified":
        return Outcome.UNAVAILABLE
    found = [Verdict(v) for v in verdicts]
    if not found:
        return Outcome.NO_CLAIMS
    if Verdict.CONTRADICTED in found:
        return Outcome.CONTRADICTED
    if all(v is Verdict.SUPPORTED for v in found):
        return Outcome.ALL_SUPPORTED
    return Outcome.NOT_ALL_SUPPORTED


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
        negates: for a bare "No." to a yes/no question (:mod:`spanproof.verify.yes_no`), the
            proposition it denies: scoring reads ``negates`` and turns its verdict round
            (:func:`spanproof.verify.yes_no.turned_verdict`); ``text`` is the denial as a
            reader says it. Empty otherwise.
    """

    id: str
    text: str
    draft_span: tuple[int, int] | None = None
    cited_markers: tuple[str, ...] = ()
    negates: str = ""

    @property
    def scored_text(self) -> str:
        """What scoring reads: the proposition a denial negates, else the claim's text."""
        return self.negates or self.text


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
    #: score model v4: the edit check found an unsupported edit (a contradiction sets
    #: ``polarity_gated`` instead, like the polarity gate).
    edit_gated: bool = False
    #: score model v7: the span window states no finding (an aim, a method heading).
    finding_gated: bool = False
    #: score model v21: an unsupported edit names a detail the claim put in place of the span's
    #: (another entity, number, unit, sign or bound, an opposite term, roles swapped), not a
    #: phrase of low similarity, words the span does not state or a qualifier left out.
    edit_named: bool = False
    #: score model v24: the span sentence the polarity gate reads states the claim's direction
    #: or negation (:func:`spanproof.verify.gates.states_polarity`; True when the claim states
    #: neither, and under every earlier model).
    states_polarity: bool = True


@dataclass(frozen=True, slots=True)
class SpanRef:
    """Where a claim's best evidence is: the span id and the character range used."""

    id: str
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class JudgeRecord:
    """What the judge read for one claim and what it said (score models v5 and v57).

    Attributes:
        window: the evidence window, as ``(span id, start, end)`` parts in plan order.
        probabilities: the judge's (entailed, contradicted, neutral).
        probability: the combiner's probability that the claim is supported (v5); under the
            judge's veto (v57), the judge's probability of ``entailed`` that the veto reads.
        features: the combiner's inputs by name (v5; empty under the veto).
        veto: the veto's floor (v57): a ``supported`` claim whose ``probability`` is below it
            is ``partial``; None under the combiner. In JSON only when set.
        doubts: what the veto read (v58): ``"supported"`` (the floor above) or
            ``"contradicted"``: a ``contradicted`` claim whose ``probability`` is at least
            ``veto`` is ``partial``. In JSON only when it is ``"contradicted"``, so v57's
            records keep their shape.
    """

    window: tuple[SpanRef, ...]
    probabilities: tuple[float, float, float]
    probability: float
    features: tuple[tuple[str, float], ...] = ()
    veto: float | None = None
    doubts: str = "supported"

    @property
    def vetoed(self) -> bool:
        """Whether the judge's veto turned the claim ``partial``: a ``supported`` one it reads
        as entailed below the floor (v57), a ``contradicted`` one it reads as entailed at or
        above it (v58)."""
        if self.veto is None:
            return False
        if self.doubts == "contradicted":
            return self.probability >= self.veto
        return self.probability < self.veto

    def to_dict(self) -> dict[str, Any]:
        return {
            "window": [part.to_dict() for part in self.window],
            "probabilities": dict(
                zip(("entailed", "contradicted", "neutral"), self.probabilities, strict=True)
            ),
            "probability": self.probability,
            "features": dict(self.features),
            **({"veto": self.veto, "vetoed": self.vetoed} if self.veto is not None else {}),
            **({"doubts": self.doubts} if self.doubts != "supported" else {}),
        }


@dataclass(frozen=True, slots=True)
class Edit:
    """One difference between a claim and the evidence it nearly copies (score model v4).

    Attributes:
        op: ``deletion`` | ``insertion`` | ``substitution`` | ``transposition``.
        claim_start, claim_end, claim_text: the claim's words involved (code-point offsets into
            the claim text; an empty range where the claim has no words, as for a deletion).
        evidence_id, evidence_start, evidence_end, evidence_text: the evidence words involved
            (offsets into the evidence span's text; empty for an insertion).
        judgement: ``allowed: <why>``, ``unsupported: <why>`` or ``contradicted: <why>``.
    """

    op: str
    claim_start: int
    claim_end: int
    claim_text: str
    evidence_id: str
    evidence_start: int
    evidence_end: int
    evidence_text: str
    judgement: str

    @property
    def status(self) -> str:
        """``allowed``, ``unsupported`` or ``contradicted``."""
        return self.judgement.partition(":")[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "claim": {"start": self.claim_start, "end": self.claim_end, "text": self.claim_text},
            "evidence": {
                "id": self.evidence_id,
                "start": self.evidence_start,
                "end": self.evidence_end,
                "text": self.evidence_text,
            },
            "judgement": self.judgement,
        }


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
    judge: JudgeRecord | None = None
    #: score model v4: the edits of the claim against the evidence it nearly copies.
    edits: tuple[Edit, ...] = ()
    #: score model v7: the best span window states no finding (an aim, a method heading), so it
    #: was capped like a gate; in JSON only when set.
    finding_gated: bool = False
    #: a denial's proposition (:attr:`Claim.negates`): the verdict, score, span and gates are
    #: its reading turned round (``verify.yes_no.turned_verdict``); in JSON only when set.
    negates: str = ""

    @property
    def scored_text(self) -> str:
        """What scoring read: the proposition a denial negates, else the claim's text."""
        return self.negates or self.text

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
            **({"judge": self.judge.to_dict()} if self.judge is not None else {}),
            **({"edits": [e.to_dict() for e in self.edits]} if self.edits else {}),
            **({"finding_gated": True} if self.finding_gated else {}),
            **({"negates": self.negates} if self.negates else {}),
        }


@dataclass(frozen=True, slots=True)
class Report:
    """The result of one verification.

    Attributes:
        verification: ``"verified"`` or ``"unavailable: <reason>"``: whether the check ran, not
            what it found (that is :attr:`outcome`).
        delivered: the text to deliver (under ``flag`` the draft with a ``⟦verdict⟧`` marker
            after each claim that is not supported, see ``verify.policy``; redacted under
            ``redact``); None for stand-alone claims.
        draft: the original draft, never redacted or marked (None for stand-alone claims).
        abstained: set by the answering service when the answer abstains (the sources do not
            answer the question); the outcome is then ``abstained``.
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
    #: Set when the configured judge failed and another judged instead (``judge: llm failed
    #: (<reason>), local judge used``).
    checker_note: str = ""
    abstained: bool = False

    @property
    def outcome(self) -> Outcome:
        """What the report found, as one value (see :func:`outcome_of`)."""
        verdicts = (c.verdict for c in self.claims)
        return outcome_of(self.verification, verdicts, abstained=self.abstained)

    @property
    def counts(self) -> dict[str, int]:
        """How many claims got each verdict (every verdict a key)."""
        return verdict_counts(c.verdict for c in self.claims)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "score_model": self.score_model,
            "embed_model": self.embed_model,
            "embed_model_hash": self.embed_model_hash,
            "verification": self.verification,
            "outcome": self.outcome.value,
            "counts": self.counts,
            "claims": [c.to_dict() for c in self.claims],
            "delivered": self.delivered,
        }
        if self.checker_model:  # v1 and v2 output stays exactly as it was
            out["checker_model"] = self.checker_model
        if self.checker_note:
            out["checker_note"] = self.checker_note
        return out
