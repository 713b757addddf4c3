"""The decision (SPEC §5.4): what becomes of a record after one checked attempt.

In order: a failed critical check (negation, species, endpoint) or a ``contradicted`` label
rejects; a failed scope or treatment check retries by re-extracting from the source sections
while attempts remain, and goes to review once they are spent; ``entailed`` with every check
passed verifies; ``ambiguous`` and ``insufficiently_supported`` (thin support) go to review.
Any failed check forbids ``verified``, whatever the label says.
"""

from __future__ import annotations

from dataclasses import dataclass

from spanproof.core.errors import InvalidInputError
from spanproof.core.records import CRITICAL_CHECKS, Verdict

OUTCOMES = ("verified", "rejected", "retry", "review")


@dataclass(frozen=True, slots=True)
class Decision:
    """``outcome`` is one of :data:`OUTCOMES`; ``failed`` names the failed checks."""

    outcome: str
    reason: str
    failed: tuple[str, ...] = ()


def decide(verdict: Verdict, attempts_used: int, budget: int) -> Decision:
    """Decide one attempt.

    Args:
        verdict: the checker's verdict on the attempt.
        attempts_used: attempts made so far, this one included (1 for the first).
        budget: the most attempts a record may have.

    Raises:
        InvalidInputError: ``attempts_used`` or ``budget`` is below 1.
    """
    if attempts_used < 1 or budget < 1:
        raise InvalidInputError(
            f"attempts_used and budget must be at least 1; got {attempts_used} and {budget}"
        )
    failed = verdict.failed()
    critical = [name for name in failed if name in CRITICAL_CHECKS]
    if critical:
        return Decision("rejected", f"critical check failed: {', '.join(critical)}", failed)
    if verdict.label == "contradicted":
        return Decision("rejected", "the passage contradicts the record", failed)
    if failed:
        if attempts_used < budget:
            reason = f"{', '.join(failed)} failed; re-extract from the source sections"
            return Decision("retry", reason, failed)
        return Decision("review", f"{', '.join(failed)} failed and the budget is spent", failed)
    if verdict.label == "entailed":
        return Decision("verified", "entailed and every check passed")
    return Decision("review", f"label {verdict.label}: a reviewer decides beside the passage")
