"""Delivery policy (SPEC §4.6): ``flag`` keeps the draft; ``redact`` replaces unsupported and
contradicted claims' draft ranges, sorted and merged where they overlap or touch, with a notice."""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.core.models import ClaimVerdict, Policy, Verdict

REDACTION_NOTICE = "[unsupported claim removed]"
_REDACTED = frozenset({Verdict.UNSUPPORTED, Verdict.CONTRADICTED})


def merge_ranges(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort ranges and merge those that overlap (touching ranges merge too)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def redact(draft: str, claims: Sequence[ClaimVerdict]) -> str:
    """The draft with each merged unsupported range replaced by :data:`REDACTION_NOTICE`."""
    ranges = [c.draft_span for c in claims if c.verdict in _REDACTED and c.draft_span is not None]
    out: list[str] = []
    pos = 0
    for start, end in merge_ranges(ranges):
        out.append(draft[pos:start])
        out.append(REDACTION_NOTICE)
        pos = end
    out.append(draft[pos:])
    return "".join(out)


def deliver(draft: str, claims: Sequence[ClaimVerdict], policy: Policy) -> str:
    """The text to deliver under ``policy``."""
    return redact(draft, claims) if policy is Policy.REDACT else draft
