"""``assert_grounded``: a test assertion that an answer rests on the contexts it was given.

    from spanproof.testing.grounding import assert_grounded

    def test_refund_answer_is_grounded():
        answer, contexts = my_rag_app("How long do refunds take?")
        assert_grounded(answer, contexts, min_supported=0.8)

The answer is decomposed and each claim verified against ``contexts`` exactly as
``spanproof check`` does (bundled model, offline). On failure the ``AssertionError`` lists every
claim that is not supported, worst first, with the closest text the contexts hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from spanproof.core.errors import InvalidInputError, check_text
from spanproof.core.models import Report
from spanproof.core.outcome import FailOn
from spanproof.services.answer_check import (
    AnswerCase,
    AnswerResult,
    check_answer,
    context_spans,
    validate_min_supported,
)

if TYPE_CHECKING:
    from spanproof.verifier import Verifier

__all__ = ["assert_grounded", "grounding_message"]

#: Longest stretch of closest text quoted per claim.
_QUOTE = 200


@lru_cache(maxsize=8)
def _default_verifier(score_model: str | None) -> Verifier:
    # One model load per score model for the whole test session.
    from spanproof.bootstrap import build_score_model
    from spanproof.config import load_settings
    from spanproof.verifier import Verifier

    return Verifier(score_model=build_score_model(load_settings(), score_model))


def assert_grounded(
    answer: str,
    contexts: Sequence[str | dict[str, str]],
    *,
    min_supported: float = 1.0,
    fail_on: FailOn | str = FailOn.CONTRADICTED,
    score_model: str | None = None,
    verifier: Verifier | None = None,
) -> Report:
    """Fail the test unless ``answer``'s claims are supported by ``contexts``.

    Args:
        answer: the answer text; it is decomposed into claims.
        contexts: the texts the answer was written from: strings, or ``{"text", "id"}``
            objects (a string's id is ``S<k>``, its 1-based position).
        min_supported: the least share of claims that must be supported (default 1.0: all).
        fail_on: also fail when the outcome reaches this level (default ``contradicted``; a
            contradicted claim fails even under a lower ``min_supported``); ``never`` leaves
            only ``min_supported``.
        score_model: a score model name, ``v1`` … (default: the configured one).
        verifier: a configured :class:`~spanproof.Verifier` to use instead of the default one.

    Returns:
        The verification report, for further assertions.

    Raises:
        AssertionError: the answer fails; the message lists each claim not supported with its
            verdict and the closest text in ``contexts``. An answer that could not be checked
            fails too. An answer with no claims passes.
        InvalidInputError: a malformed context (or one string instead of a list),
            ``min_supported`` outside [0, 1], or an unknown ``fail_on``.
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this one
    try:
        level = FailOn(fail_on)
    except ValueError:
        choices = ", ".join(repr(f.value) for f in FailOn)
        raise InvalidInputError(f"unknown fail_on {fail_on!r}; choose {choices}") from None
    validate_min_supported(min_supported)
    if not isinstance(answer, str):
        raise InvalidInputError(f"answer must be a string, got {type(answer).__name__}")
    check_text(answer, "answer")
    case = AnswerCase(id="answer", answer=answer, contexts=context_spans(contexts))
    v = verifier if verifier is not None else _default_verifier(score_model)
    result = check_answer(
        case, decomposer=v.decomposer, embedder=v.embedder, model=v.model, checker=v.checker
    )
    reasons = result.failures(level, min_supported)
    if reasons:
        raise AssertionError(grounding_message(result, reasons))
    return result.report


def grounding_message(result: AnswerResult, reasons: Sequence[str]) -> str:
    """The failure message: the headline and reasons, then each claim not supported.

    ::

        answer not grounded: ✖ 1 claim contradicted, 1 unsupported, 2 supported
          (50% of claims supported, under the minimum 100%; outcome contradicted reaches …)
          contradicted: "Sodium restriction changed diastolic blood pressure"
            closest (S2): "Sodium restriction to 1,500 mg per day did not change …"
          unsupported: "Walking cured diabetes"
            closest: none in the contexts
    """
    lines = [f"answer not grounded: {result.headline()}", f"  ({'; '.join(reasons)})"]
    for claim in result.not_supported():
        lines.append(f'  {claim.verdict.value}: "{claim.text}"')
        closest = " ".join(result.closest_text(claim).split())
        if closest and claim.best_span is not None:
            if len(closest) > _QUOTE:
                closest = closest[: _QUOTE - 1] + "…"
            lines.append(f'    closest ({claim.best_span.id}): "{closest}"')
        else:
            lines.append("    closest: none in the contexts")
    return "\n".join(lines)
