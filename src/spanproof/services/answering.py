"""The verified-answer loop (SPEC §4): plan → generate → decompose → verify → policy → trace.

:class:`Engine` receives every port as an argument (store, trace store, embedder, decomposer,
generator) and never builds one. Degradations are results, not exceptions, and each one is
recorded in the trace (SPEC §4.4, seed flow):

* an empty draft is ``verified`` with no claims;
* a plan with no truth-class span makes every claim ``unsupported`` (no embedding round-trip);
* a failed decomposition, a missing embedder, or an embedder that fails or answers
  inconsistently gives ``verification = "unavailable: <reason>"``; the draft is then delivered
  unchanged under ``flag`` and withheld under ``redact``.

A verified trace also stores the exact vectors scoring used (``Trace.embeddings``, recorded
through :class:`~spanproof.services.replay.RecordingEmbedder`), so ``spanproof trace verify``
can replay its verdicts from the trace alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from spanproof.core.checker import EntailmentChecker
from spanproof.core.errors import InvalidInputError
from spanproof.core.models import (
    Claim,
    ClaimVerdict,
    EvidenceSpan,
    Outcome,
    Policy,
    Report,
    outcome_of,
    verdict_counts,
)
from spanproof.core.ports import Decomposer, Embedder, Usage
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import Trace, TraceStore, scrub
from spanproof.services.generation import Generation, Generator
from spanproof.services.planning import Plan, Planner, PlannerSettings
from spanproof.services.propositions import (
    READ_SOURCES,
    PropositionCheck,
    check_proposition,
    with_lead,
)
from spanproof.services.replay import RecordingEmbedder, trace_embeddings
from spanproof.services.verification import VERIFIED, score_all, verify_draft
from spanproof.text.tokens import token_texts
from spanproof.verify.decompose import MARKER_RE
from spanproof.verify.prompt import PROMPT_MODEL, build_generation_messages, prompt_hash
from spanproof.verify.proposition import proposition_of
from spanproof.verify.relevance import (
    AnswerabilityModel,
    AnswerabilitySignals,
    RelevanceModel,
    answerability_model_for,
    asked_claim,
    source_coverage,
)
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

#: What an answer says when no span of the store bears on the question (issue 15).
ABSTENTION = "The sources do not answer this question."
#: How many distinct sources of a plan the answerability gate reads in whole (best first).
GATE_SOURCES = 8
#: How many of the closest spans an abstention of the answerability gate lists.
GATE_CLOSEST = 3


@dataclass(frozen=True, slots=True)
class Answer:
    """A verified answer.

    Attributes:
        question: the question asked.
        answer: the delivered text (under ``flag`` the draft with a ``⟦verdict⟧`` marker after
            each claim that is not supported, redacted under ``redact``; None when verification
            was unavailable under ``redact``).
        draft: the generator's draft, never redacted or marked.
        claims: the verdict of every claim of the draft.
        verification: ``verified`` or ``unavailable: <reason>``.
        citations: each marker the draft cites that names a plan span → that span's source
            reference (``source_id``, ``version``, ``section_key``, ``start``, ``end``, ``title``).
        plan: the evidence plan.
        trace_id: the stored trace's id, or None without a trace store.
        policy: the delivery policy applied.
        models: the models that took part (as recorded in the trace).
        usage: token usage of the model calls.
        abstained: the answer abstains (the sources do not answer the question); its outcome
            is then ``abstained``.
        answered: False when the answer abstains: no planned span reached the relevance floor,
            so no draft was written; ``answer`` is then :data:`ABSTENTION` and
            ``plan.closest`` holds the closest sources.
        relevance: the best relevance of a span to the question (None without a relevance
            model).
        proposition: when the question is a proposition (a statement, "Is it true that …",
            "Does …?"), its claim's verdict against the plan; ``answer`` then opens with it.
    """

    question: str
    answer: str | None
    draft: str
    claims: tuple[ClaimVerdict, ...]
    verification: str
    citations: dict[str, dict[str, Any]]
    plan: Plan
    trace_id: str | None
    policy: Policy = Policy.FLAG
    models: dict[str, str] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)
    abstained: bool = False
    proposition: PropositionCheck | None = None
    answered: bool = True
    relevance: float | None = None

    @property
    def outcome(self) -> Outcome:
        """What verification found, as one value (see :func:`~spanproof.core.models.outcome_of`)."""
        verdicts = (c.verdict for c in self.claims)
        return outcome_of(self.verification, verdicts, abstained=self.abstained)

    @property
    def counts(self) -> dict[str, int]:
        """How many claims got each verdict (every verdict a key)."""
        return verdict_counts(c.verdict for c in self.claims)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of an answer (CLI ``--json``; the API reuses it)."""
        return {
            "question": self.question,
            "answer": self.answer,
            "draft": self.draft,
            "verification": self.verification,
            "outcome": self.outcome.value,
            "counts": self.counts,
            "policy": self.policy.value,
            "claims": [c.to_dict() for c in self.claims],
            "citations": self.citations,
            "plan": {
                "plan_hash": self.plan.plan_hash,
                "plan_model": self.plan.plan_model,
                "budget_tokens": self.plan.budget_tokens,
                "tokens": self.plan.tokens,
                "notes": list(self.plan.notes),
                "spans": self.plan.to_trace(),
            },
            "models": self.models,
            "usage": self.usage,
            "trace_id": self.trace_id,
            "answered": self.answered,
            "relevance": self.relevance,
            "closest": [{"id": s.id, "text": s.text, **s.source} for s in self.plan.closest],
            "verdict": self.proposition.to_dict()["verdict"] if self.proposition else None,
            "proposition": self.proposition.to_dict() if self.proposition else None,
        }


def citations(
    draft: str, plan: Plan, proposition: PropositionCheck | None = None
) -> dict[str, dict[str, Any]]:
    """Markers cited in ``draft`` that name a plan span, or a stretch the proposition was read
    against (``R1``…), in first-cited order, → source refs."""
    out: dict[str, dict[str, Any]] = {}
    lead = proposition.marker if proposition is not None else None
    if proposition is not None and lead is not None and f"[{lead}]" in draft:
        for read in proposition.read:  # the lead comes first and cites one stretch at most
            if read["marker"] == lead:
                out[lead] = {k: v for k, v in read.items() if k != "marker"}
    for match in MARKER_RE.finditer(draft):
        for part in match.group()[1:-1].replace(";", ",").split(","):
            marker = part.strip()
            span = plan.span(marker)
            if span is not None and marker not in out:
                out[marker] = dict(span.source)
    return out


class Engine:
    """Answers questions from a store, verifies the answers, and records a trace of each.

    Args:
        store: the evidence store to plan from.
        traces: where traces go; None keeps none (``Answer.trace_id`` is then None).
        embedder: one model for recall and verification; None makes verification unavailable.
        decomposer: cuts drafts into claims.
        generator: writes drafts from plans.
        score_model: the scoring rules.
        policy: the default delivery policy.
        planner: planner settings (budget, diversity cap, recall depth).
        checker: the entailment checker of a score model with escalation (v3).
        relevance: the relevance model that keeps a plan to the spans bearing on the question
            (:mod:`spanproof.verify.relevance`); with none left the answer abstains. None keeps
            every planned span and never abstains.
        answerability: the gate that abstains from an open question asking about a claim the
            planned sources do not state ("What is known about whether …?";
            :class:`~spanproof.verify.relevance.AnswerabilityModel`). A proposition (a
            statement, "Is it true that …?", a yes/no question) is not gated: its own verdict
            leads the answer, and "Not established by the sources" is its abstention. By
            default the one fitted with ``relevance``
            (:func:`~spanproof.verify.relevance.answerability_model_for`), none without a
            relevance model. The attribute of that name may be set to None to turn it off.

    The attribute ``read_sources`` (default
    :data:`~spanproof.services.propositions.READ_SOURCES`) is how many of the plan's sources a
    proposition is also read against in full, for a reversal the plan's spans miss; 0 reads
    the plan's spans alone.
    """

    def __init__(
        self,
        *,
        store: EvidenceStore,
        traces: TraceStore | None,
        embedder: Embedder | None,
        decomposer: Decomposer,
        generator: Generator,
        score_model: ScoreModel,
        policy: Policy = Policy.FLAG,
        planner: PlannerSettings | None = None,
        checker: EntailmentChecker | None = None,
        relevance: RelevanceModel | None = None,
        answerability: AnswerabilityModel | None = None,
    ) -> None:
        self.store = store
        self.traces = traces
        self.embedder = embedder
        self.decomposer = decomposer
        self.generator = generator
        self.score_model = score_model
        self.policy = policy
        self.planner = Planner(store, embedder, planner, relevance=relevance)
        self.checker = checker
        self.answerability = answerability or (
            answerability_model_for(relevance.name) if relevance is not None else None
        )
        self.read_sources = READ_SOURCES

    def ask(
        self, question: str, *, policy: Policy | None = None, hints: Sequence[str] = ()
    ) -> Answer:
        """Plan, generate, verify and trace an answer to ``question``.

        Args:
            question: the question (non-blank).
            policy: overrides the engine's delivery policy for this answer.
            hints: cache-class summaries to carry in the plan; never evidence.

        Raises:
            InvalidInputError: the question is blank.
            ProviderError: the generator's model call failed (there is no draft to verify).
        """
        if not question.strip():
            raise InvalidInputError("the question is empty: ask something")
        policy = policy or self.policy
        plan = self.planner.plan(question, hints)
        gate = self._gate(question, plan)
        if gate is not None and not gate["answered"]:
            plan = _abstaining(plan)
        if plan.abstains:  # nothing relevant: no draft is written from unrelated sentences
            messages = build_generation_messages(question, plan.evidence)
            generation = Generation("", self.generator.model_id, prompt_hash(messages))
        else:
            generation = self.generator.generate(question, plan)
        # Scoring's own vectors go into the trace, so replay needs no second embedding call.
        recorder = RecordingEmbedder(self.embedder) if self.embedder is not None else None
        report = verify_draft(
            generation.text,
            plan.evidence,
            decomposer=self.decomposer,
            embedder=recorder,
            model=self.score_model,
            policy=policy,
            checker=self.checker,
        )
        if plan.abstains:
            report = replace(report, abstained=True, delivered=ABSTENTION)
        embeddings: dict[str, Any] = {}
        if recorder is not None and report.verification == VERIFIED:
            embeddings = trace_embeddings(report.claims, plan.evidence, recorder, self.score_model)
        # A proposition is itself verified, also against the plan's most relevant sources read
        # in full around their planned spans (propositions.reading_evidence); the answer
        # leads with its verdict.
        proposition = check_proposition(
            question,
            plan,
            embedder=self.embedder,
            model=self.score_model,
            checker=self.checker,
            sections=self.store.sections,
            read_sources=self.read_sources,
        )
        models = self._models(plan, generation, report)
        usage = self._usage(generation)
        trace = Trace(
            kind="generation",
            request=scrub(
                {
                    "question": question,
                    "policy": policy.value,
                    "hints": list(hints),
                    "budget_tokens": plan.budget_tokens,
                    "max_source_share": self.planner.settings.max_source_share,
                }
            ),
            plan=plan.to_trace(),
            plan_hash=plan.plan_hash,
            prompt_hash=generation.prompt_hash,
            models=models,
            draft=generation.text,
            claims=[c.to_dict() for c in report.claims],
            verification=report.verification,
            delivered=report.delivered,
            usage=usage,
            embeddings=embeddings,
            outcome=report.outcome.value,
            counts=report.counts,
            proposition=proposition.to_dict() if proposition else {},
            relevance={**plan.relevance_record(), **({"answerability": gate} if gate else {})},
        )
        stored = self.traces.append(trace) if self.traces is not None else None
        return Answer(
            question=question,
            answer=with_lead(proposition, report.delivered, report.abstained),
            draft=generation.text,
            claims=report.claims,
            verification=report.verification,
            citations=citations(with_lead(proposition, generation.text) or "", plan, proposition),
            plan=plan,
            trace_id=stored.id if stored is not None else None,
            policy=policy,
            models=models,
            usage=usage,
            abstained=report.abstained,
            proposition=proposition,
            answered=not plan.abstains,
            relevance=plan.best_relevance,
        )

    def answerability_signals(self, question: str, plan: Plan) -> AnswerabilitySignals | None:
        """What the answerability gate reads of ``plan``; None when it does not apply: no gate,
        a plan that already abstains or was made under another relevance model, a question
        that asks about no claim, a proposition (its verdict leads the answer instead: of 400
        SciFact propositions measured, the gate took one from a `contradicted` verdict and every
        other abstention from "Not established"; docs/quality.md), or a claim score that could
        not be computed."""
        gate = self.answerability
        if gate is None or plan.abstains or plan.relevance_model != gate.relevance_model:
            return None
        claim = asked_claim(question)
        if claim is None or proposition_of(question) is not None:
            return None
        verdicts, status = score_all(
            [Claim(id="q1", text=claim.rstrip("."))],
            plan.spans,
            self.embedder,
            SCORE_MODELS[gate.score_model],
        )
        if status != VERIFIED or not verdicts:
            return None
        texts = [
            [t for section in self.store.sections(sid, version) for t in token_texts(section.text)]
            for sid, version in plan.ranked_sources()[:GATE_SOURCES]
        ]
        covered = source_coverage(
            token_texts(claim), [token_texts(s.text) for s in plan.spans], texts
        )
        return AnswerabilitySignals(
            claim=claim,
            relevance=max(plan.relevance),
            source_coverage=max(covered, default=0.0),
            claim_score=verdicts[0].score,
        )

    def _gate(self, question: str, plan: Plan) -> dict[str, Any] | None:
        """The answerability gate's decision on ``plan`` as the trace records it, or None."""
        signals = self.answerability_signals(question, plan)
        if signals is None or self.answerability is None:
            return None
        score = self.answerability.score(signals)
        return {
            "model": self.answerability.name,
            "floor": self.answerability.floor,
            "score": round(score, 6),
            "answered": score >= self.answerability.floor,
            "signals": signals.to_dict(),
        }

    def _models(self, plan: Plan, generation: Generation, report: Report) -> dict[str, str]:
        embed, embed_hash = report.embed_model, report.embed_model_hash
        if report.verification != VERIFIED and self.embedder is not None:
            embed = self.embedder.model_id  # the model that was tried, for the record
        return {
            "gen": generation.model,
            "decompose": self.decomposer.model_id,
            "embed": embed,
            "embed_hash": embed_hash,
            "score_model": self.score_model.name,
            "plan_model": plan.plan_model,
            "prompt_model": PROMPT_MODEL,
            **({"checker_model": report.checker_model} if report.checker_model else {}),
            **({"checker_note": report.checker_note} if report.checker_note else {}),
        }

    def _usage(self, generation: Generation) -> dict[str, int]:
        usage = {
            "gen_input_tokens": generation.usage.input_tokens,
            "gen_output_tokens": generation.usage.output_tokens,
        }
        decompose = getattr(self.decomposer, "last_usage", None)
        if isinstance(decompose, Usage):
            usage["decompose_input_tokens"] = decompose.input_tokens
            usage["decompose_output_tokens"] = decompose.output_tokens
        return usage


def _by_relevance(pair: tuple[float, EvidenceSpan]) -> tuple[float, str]:
    return (-pair[0], pair[1].id)


def _abstaining(plan: Plan) -> Plan:
    """``plan`` emptied for an abstention: its best spans (one per source) become the closest."""
    ranked = sorted(zip(plan.relevance, plan.spans, strict=True), key=_by_relevance)
    closest: list[EvidenceSpan] = []
    seen: set[Any] = set()
    for score, span in ranked:
        if span.source.get("source_id") in seen:
            continue
        seen.add(span.source.get("source_id"))
        closest.append(
            replace(
                span,
                id=f"C{len(closest) + 1}",
                truth_class=False,
                source={**span.source, "relevance": score},
            )
        )
        if len(closest) == GATE_CLOSEST:
            break
    return replace(plan, spans=(), relevance=(), closest=tuple(closest))
