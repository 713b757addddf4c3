"""Reading an outcome: its icon and words, the ``--fail-on`` rule, the outcome of a trace, and
what the edit check refused and what the judge's veto doubted, in the words the CLI and the web
pages show.

Pure: the CLI, the API and the web pages all say an outcome the same way, with an icon and
words, never colour alone. The outcome itself is defined by
:func:`spanproof.core.models.outcome_of`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from spanproof.core.models import Outcome, Verdict, outcome_of, verdict_counts

if TYPE_CHECKING:
    from spanproof.core.trace import Trace

#: One icon per outcome; always shown beside the words of :func:`headline`.
ICONS: dict[Outcome, str] = {
    Outcome.ALL_SUPPORTED: "✔",
    Outcome.NOT_ALL_SUPPORTED: "◐",
    Outcome.CONTRADICTED: "✖",
    Outcome.NO_CLAIMS: "○",
    Outcome.ABSTAINED: "∅",
    Outcome.UNAVAILABLE: "⚠",
}
#: The not-supported verdicts, worst first, as a headline lists them.
_NOT_SUPPORTED = (
    Verdict.CONTRADICTED,
    Verdict.UNSUPPORTED,
    Verdict.PARTIAL,
    Verdict.EVIDENCE_REDACTED,
)


class FailOn(StrEnum):
    """The ``--fail-on`` levels: which outcomes make ``verify`` and ``ask`` exit 1."""

    NEVER = "never"
    CONTRADICTED = "contradicted"
    UNSUPPORTED = "unsupported"


def fails(outcome: Outcome, fail_on: FailOn | str) -> bool:
    """Whether ``outcome`` reaches ``fail_on``.

    ``contradicted``: a claim is contradicted. ``unsupported``: a claim is not supported (partial,
    unsupported, contradicted or evidence redacted), or the check did not run. ``never``: never.
    ``all_supported``, ``no_claims`` and ``abstained`` reach no level.
    """
    level = FailOn(fail_on)
    if level is FailOn.CONTRADICTED:
        return outcome is Outcome.CONTRADICTED
    if level is FailOn.UNSUPPORTED:
        return outcome in (Outcome.CONTRADICTED, Outcome.NOT_ALL_SUPPORTED, Outcome.UNAVAILABLE)
    return False


def _claims(n: int) -> str:
    return f"{n} claim" if n == 1 else f"{n} claims"


def _details(counts: Mapping[str, int], verdicts: tuple[Verdict, ...]) -> list[str]:
    return [
        f"{counts[v.value]} {v.value.replace('_', ' ')}" for v in verdicts if counts.get(v.value)
    ]


def words(outcome: Outcome, counts: Mapping[str, int], verification: str = "verified") -> str:
    """The outcome in words, with the counts that make it (no icon).

    >>> words(Outcome.CONTRADICTED, {"supported": 2, "contradicted": 1, "unsupported": 1})
    '1 claim contradicted, 1 unsupported, 2 supported'
    """
    total = sum(counts.values())
    if outcome is Outcome.ALL_SUPPORTED:
        return "the claim is supported" if total == 1 else f"all {total} claims supported"
    if outcome is Outcome.CONTRADICTED:
        first = f"{_claims(counts.get(Verdict.CONTRADICTED.value, 0))} contradicted"
        rest = _details(counts, (*_NOT_SUPPORTED[1:], Verdict.SUPPORTED))
        return ", ".join([first, *rest])
    if outcome is Outcome.NOT_ALL_SUPPORTED:
        short = total - counts.get(Verdict.SUPPORTED.value, 0)
        return f"{short} of {_claims(total)} not supported: " + ", ".join(
            _details(counts, _NOT_SUPPORTED)
        )
    if outcome is Outcome.NO_CLAIMS:
        return "no claims to check"
    if outcome is Outcome.ABSTAINED:
        return "abstained: the sources do not answer the question"
    return f"not checked: {verification}"


def headline(outcome: Outcome, counts: Mapping[str, int], verification: str = "verified") -> str:
    """Icon and words: ``✖ 1 claim contradicted, 1 unsupported, 2 supported``."""
    return f"{ICONS[outcome]} {words(outcome, counts, verification)}"


def trace_outcome(trace: Trace) -> tuple[Outcome | None, dict[str, int]]:
    """A trace's outcome and counts: as stored, or derived the same way for a trace written
    before they were stored. ``(None, {})`` when a stored value is not one spanproof writes."""
    try:
        if trace.outcome:
            return Outcome(trace.outcome), dict(trace.counts)
        verdicts = [str(c.get("verdict", "")) for c in trace.claims]
        return outcome_of(trace.verification, verdicts), verdict_counts(verdicts)
    except ValueError:
        return None, {}


def judge_doubt(judge: Mapping[str, Any] | None) -> str:
    """What the judge's veto said of a claim it turned ``partial``, in words: a ``supported``
    one (score model v57) ``"judge: entailed 0.04 < 0.1"``, a ``contradicted`` one (v58)
    ``"judge: entailed 0.72 ≥ 0.5"``; "" when the claim was not vetoed (or not read)."""
    if not isinstance(judge, Mapping) or judge.get("vetoed") is not True:
        return ""
    probability, floor = judge.get("probability"), judge.get("veto")
    if not isinstance(probability, int | float) or not isinstance(floor, int | float):
        return "judge: doubts it"
    relation = "≥" if judge.get("doubts") == "contradicted" else "<"
    return f"judge: entailed {probability:.2f} {relation} {floor:g}"


def edit_reasons(judgements: Iterable[str]) -> list[str]:
    """What the edit check (score models v4 and later) refused, in its own words, once each:
    ``"unsupported: population dropped"`` → ``"edit: population dropped"``."""
    out: list[str] = []
    for judgement in judgements:
        status, _, why = judgement.partition(": ")
        reason = f"edit: {why or status}"
        if status != "allowed" and reason not in out:
            out.append(reason)
    return out
