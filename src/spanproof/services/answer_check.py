"""Checking a set of answers against the contexts each was given (``spanproof check``).

An answer set is what RAG test sets hold: per item an ``answer`` and the ``contexts`` it was
written from (RAGAS and DeepEval use this shape). Each answer is decomposed into claims and every
claim verified against that item's contexts only, exactly as :func:`verify_draft` verifies a
draft; the result adds what a CI gate needs: the share of claims supported, whether the answer
fails a ``--fail-on`` level or a minimum share, and a summary of the whole set.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spanproof.core.checker import EntailmentChecker
from spanproof.core.errors import InvalidInputError, check_text
from spanproof.core.models import ClaimVerdict, EvidenceSpan, Outcome, Policy, Report, Verdict
from spanproof.core.outcome import FailOn, fails, headline
from spanproof.core.ports import Decomposer, Embedder
from spanproof.services.verification import VERIFIED, verify_draft
from spanproof.verify.scoring import ScoreModel

#: Field names accepted for each part of an item, the first being spanproof's own
#: (RAGAS ≥ 0.2 says user_input/response/retrieved_contexts, DeepEval input/actual_output/
#: retrieval_context).
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "question": ("question", "user_input", "input"),
    "answer": ("answer", "response", "actual_output"),
    "contexts": ("contexts", "retrieved_contexts", "retrieval_context"),
}
#: Worst offenders listed in a summary by default.
WORST_DEFAULT = 5


@dataclass(frozen=True, slots=True)
class AnswerCase:
    """One answer to check: its id, the answer text and its contexts as evidence spans."""

    id: str
    answer: str
    contexts: tuple[EvidenceSpan, ...]
    question: str = ""
    line: int = 0


def context_spans(contexts: Iterable[object], where: str = "contexts") -> tuple[EvidenceSpan, ...]:
    """Evidence spans from contexts given as strings or ``{"text", "id"?}`` objects.

    A context without an id is ``S<k>`` (its 1-based position), so an answer that cites
    ``[S2]`` cites the second context, as answers from ``spanproof ask`` do.

    Raises:
        InvalidInputError: ``contexts`` is one string, a mapping or anything else rather than a
            list, a context is neither a string nor an object with a string ``text``, its
            ``id`` is neither a string nor an integer (null is no id), or two contexts share
            an id.
    """
    if isinstance(contexts, str | bytes | bytearray):
        raise InvalidInputError(f"{where}: give a list of contexts, not one string: wrap it in [ ]")
    if isinstance(contexts, Mapping) or not isinstance(contexts, Iterable):
        raise InvalidInputError(f"{where}: give a list of contexts, got {type(contexts).__name__}")
    spans: list[EvidenceSpan] = []
    seen: set[str] = set()
    for k, item in enumerate(contexts, start=1):
        if isinstance(item, str):
            ident, text = f"S{k}", item
        elif isinstance(item, Mapping) and isinstance(item.get("text"), str):
            raw = item.get("id")
            if raw is not None and (not isinstance(raw, str | int) or isinstance(raw, bool)):
                raise InvalidInputError(
                    f"{where}: context {k}: 'id' must be a string or an integer"
                )
            ident, text = (f"S{k}" if raw is None else str(raw)), str(item["text"])
        else:
            raise InvalidInputError(
                f"{where}: context {k} must be a string or an object with a string 'text'"
            )
        check_text(text, f"{where}: context {k}")
        if ident in seen:
            raise InvalidInputError(f"{where}: context {k} repeats the id {ident!r}")
        seen.add(ident)
        spans.append(EvidenceSpan(id=ident, text=text))
    return tuple(spans)


def _field(obj: Mapping[str, Any], name: str) -> Any:
    for key in FIELD_ALIASES[name]:
        if key in obj:
            return obj[key]
    return None


def parse_case(obj: Mapping[str, Any], where: str, line: int = 0) -> AnswerCase:
    """One :class:`AnswerCase` from a JSON object ``{id, question, answer, contexts}``.

    ``id`` defaults to ``line <n>`` and ``question`` to ``""``; the RAGAS and DeepEval field
    names (:data:`FIELD_ALIASES`) are read too. ``where`` (``file:line``) prefixes each error.

    Raises:
        InvalidInputError: the answer is missing or not a string, the contexts are missing or
            not a list, or a context is malformed.
    """
    answer = _field(obj, "answer")
    if not isinstance(answer, str):
        names = "' or '".join(FIELD_ALIASES["answer"])
        raise InvalidInputError(f"{where}: needs a string '{names}'")
    contexts = _field(obj, "contexts")
    if not isinstance(contexts, list):
        names = "' or '".join(FIELD_ALIASES["contexts"])
        raise InvalidInputError(f"{where}: needs a list '{names}' (the texts the answer rests on)")
    check_text(answer, f"{where}: the answer")
    question = _field(obj, "question")
    if question is not None and not isinstance(question, str):
        raise InvalidInputError(f"{where}: 'question' must be a string")
    ident = obj.get("id", f"line {line}")
    if not isinstance(ident, str | int) or isinstance(ident, bool):
        raise InvalidInputError(f"{where}: 'id' must be a string or an integer")
    return AnswerCase(
        id=str(ident),
        answer=answer,
        contexts=context_spans(contexts, where),
        question=question or "",
        line=line,
    )


@dataclass(frozen=True, slots=True)
class AnswerResult:
    """One checked answer: its case and the verification report of its claims."""

    case: AnswerCase
    report: Report

    @property
    def outcome(self) -> Outcome:
        return self.report.outcome

    @property
    def checked(self) -> bool:
        """Whether verification ran (``report.verification == "verified"``)."""
        return self.report.verification == VERIFIED

    @property
    def supported_share(self) -> float | None:
        """Supported claims / claims; None when there is no claim or nothing was checked."""
        if not self.checked or not self.report.claims:
            return None
        supported = sum(c.verdict is Verdict.SUPPORTED for c in self.report.claims)
        return supported / len(self.report.claims)

    def failures(self, fail_on: FailOn | str, min_supported: float | None) -> list[str]:
        """Why this answer fails the gate, in words; ``[]`` when it passes.

        It fails when its outcome reaches ``fail_on``, when its supported share is under
        ``min_supported``, and, under any gate, when it could not be checked.
        """
        gated = FailOn(fail_on) is not FailOn.NEVER or min_supported is not None
        if not self.checked:
            return [f"not checked: {self.report.verification}"] if gated else []
        out: list[str] = []
        if fails(self.outcome, fail_on):
            out.append(f"outcome {self.outcome.value} reaches fail-on {FailOn(fail_on).value}")
        share = self.supported_share
        if min_supported is not None and share is not None and share < min_supported:
            out.append(f"{share:.0%} of claims supported, under the minimum {min_supported:.0%}")
        return out

    def headline(self) -> str:
        """The outcome with its icon and words (``✖ 1 claim contradicted, 4 supported``)."""
        return headline(self.outcome, self.report.counts, self.report.verification)

    def not_supported(self) -> list[ClaimVerdict]:
        """The claims that are not supported, worst verdict first, then in answer order."""
        rank = {v: i for i, v in enumerate(_WORST_FIRST)}
        bad = [c for c in self.report.claims if c.verdict is not Verdict.SUPPORTED]
        return sorted(bad, key=lambda c: rank[c.verdict])

    def closest_text(self, claim: ClaimVerdict) -> str:
        """The text of the claim's best span in this answer's contexts ("" when none)."""
        ref = claim.best_span
        if ref is None:
            return ""
        for span in self.case.contexts:
            if span.id == ref.id:
                return span.text[ref.start : ref.end]
        return ""

    def to_dict(self, fail_on: FailOn | str, min_supported: float | None) -> dict[str, Any]:
        """The ``check --json`` shape of one answer; each claim carries its ``closest_text``."""
        report = self.report.to_dict()
        claims = [{**c.to_dict(), "closest_text": self.closest_text(c)} for c in self.report.claims]
        reasons = self.failures(fail_on, min_supported)
        return {
            "id": self.case.id,
            "line": self.case.line,
            "question": self.case.question,
            "verification": report["verification"],
            "outcome": report["outcome"],
            "counts": report["counts"],
            "supported_share": _rounded(self.supported_share),
            "failed": bool(reasons),
            "reasons": reasons,
            "claims": claims,
        }


_WORST_FIRST = (
    Verdict.CONTRADICTED,
    Verdict.UNSUPPORTED,
    Verdict.PARTIAL,
    Verdict.EVIDENCE_REDACTED,
    Verdict.SUPPORTED,
)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def check_answer(
    case: AnswerCase,
    *,
    decomposer: Decomposer,
    embedder: Embedder | None,
    model: ScoreModel,
    checker: EntailmentChecker | None = None,
) -> AnswerResult:
    """Decompose one answer and verify its claims against its own contexts; a bare "Yes."/"No."
    to the case's question is checked as what it answers (:mod:`spanproof.verify.yes_no`)."""
    report = verify_draft(
        case.answer,
        case.contexts,
        decomposer=decomposer,
        embedder=embedder,
        model=model,
        policy=Policy.FLAG,
        checker=checker,
        question=case.question,
    )
    return AnswerResult(case, report)


def check_answers(
    cases: Iterable[AnswerCase],
    *,
    decomposer: Decomposer,
    embedder: Embedder | None,
    model: ScoreModel,
    checker: EntailmentChecker | None = None,
    on_done: Callable[[AnswerResult], None] | None = None,
) -> Iterator[AnswerResult]:
    """Check every answer in order; ``on_done`` is called after each (for a progress bar)."""
    for case in cases:
        result = check_answer(
            case, decomposer=decomposer, embedder=embedder, model=model, checker=checker
        )
        if on_done is not None:
            on_done(result)
        yield result


@dataclass(frozen=True, slots=True)
class CheckSummary:
    """What a whole answer set came to.

    Attributes:
        answers: answers checked; ``failed``: those failing the gate; ``unavailable``: those
            whose verification did not run.
        claims, supported: claims over all answers, and how many are supported;
            ``supported_share`` is their ratio (None without claims).
        contradicted_answers: answers with at least one contradicted claim.
        outcomes: answers per outcome (every outcome a key).
        worst: the worst offenders' ids, worst first: lowest supported share, then most
            contradicted claims, then input order; answers whose claims are all supported are
            never listed.
    """

    answers: int
    failed: int
    unavailable: int
    claims: int
    supported: int
    supported_share: float | None
    contradicted_answers: int
    outcomes: dict[str, int]
    worst: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "answers": self.answers,
            "failed": self.failed,
            "unavailable": self.unavailable,
            "claims": self.claims,
            "supported": self.supported,
            "supported_share": _rounded(self.supported_share),
            "contradicted_answers": self.contradicted_answers,
            "outcomes": self.outcomes,
            "worst": list(self.worst),
        }


def summarise(
    results: Sequence[AnswerResult],
    fail_on: FailOn | str = FailOn.NEVER,
    min_supported: float | None = None,
    worst: int = WORST_DEFAULT,
) -> CheckSummary:
    """The summary of ``results`` under the gate ``fail_on`` / ``min_supported``."""
    checked = [r for r in results if r.checked]
    claims = sum(len(r.report.claims) for r in checked)
    supported = sum(r.report.counts[Verdict.SUPPORTED.value] for r in checked)
    outcomes = {o.value: 0 for o in Outcome}
    for r in results:
        outcomes[r.outcome.value] += 1

    def badness(pair: tuple[int, AnswerResult]) -> tuple[float, int, int]:
        index, r = pair
        share = r.supported_share
        contradicted = r.report.counts[Verdict.CONTRADICTED.value]
        return (1.0 if share is None else share, -contradicted, index)

    offenders = [
        (i, r)
        for i, r in enumerate(results)
        if r.checked and r.supported_share is not None and r.supported_share < 1.0
    ]
    ranked = sorted(offenders, key=badness)[: max(worst, 0)]
    return CheckSummary(
        answers=len(results),
        failed=sum(bool(r.failures(fail_on, min_supported)) for r in results),
        unavailable=len(results) - len(checked),
        claims=claims,
        supported=supported,
        supported_share=supported / claims if claims else None,
        contradicted_answers=sum(r.outcome is Outcome.CONTRADICTED for r in results),
        outcomes=outcomes,
        worst=tuple(r.case.id for _, r in ranked),
    )


def validate_min_supported(value: float | None) -> float | None:
    """``value`` when it is a share in [0, 1] (or None); else a caller error saying so."""
    if value is not None and (math.isnan(value) or not 0.0 <= value <= 1.0):
        raise InvalidInputError(f"min_supported must be a share between 0 and 1, got {value}")
    return value
