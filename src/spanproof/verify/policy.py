"""Delivery policy (SPEC §4.6): ``flag`` keeps the draft and marks each claim that is not
supported inline; ``redact`` replaces unsupported and contradicted claims' draft ranges, sorted and
merged where they overlap or touch, with a notice.

The ``flag`` marker is `` ⟦<verdict>⟧`` (a space, then the verdict between the white square
brackets U+27E6 and U+27E7) right after the claim's draft range, e.g.
``… blood pressure [S2]. ⟦contradicted⟧``.
:data:`FLAG_MARK_RE` matches exactly the markers, and :func:`strip_flags` removes them: for a draft
without ``⟦``, ``strip_flags(deliver(draft, claims, Policy.FLAG)) == draft``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spanproof.core.models import ClaimVerdict, Policy, Verdict
from spanproof.text.ranges import merge_ranges

REDACTION_NOTICE = "[unsupported claim removed]"
_REDACTED = frozenset({Verdict.UNSUPPORTED, Verdict.CONTRADICTED})
_FLAGGED = tuple(v for v in Verdict if v is not Verdict.SUPPORTED)
#: One inline ``flag`` marker (with the space before it); group 1 is the verdict.
FLAG_MARK_RE = re.compile(" ⟦(" + "|".join(v.value for v in _FLAGGED) + ")⟧")


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


def flag(draft: str, claims: Sequence[ClaimVerdict]) -> str:
    """The draft with `` ⟦<verdict>⟧`` after each claim that is not supported.

    Markers go at the end of the claim's draft range, in claim order where ranges end together;
    one marker per verdict at a place (two unsupported claims ending there get one). Claims
    without a draft range are not marked.
    """
    at: dict[int, list[str]] = {}
    for claim in claims:
        if claim.verdict in _FLAGGED and claim.draft_span is not None:
            marks = at.setdefault(claim.draft_span[1], [])
            if claim.verdict.value not in marks:
                marks.append(claim.verdict.value)
    out: list[str] = []
    pos = 0
    for end in sorted(at):
        out.append(draft[pos:end])
        out.extend(f" ⟦{verdict}⟧" for verdict in at[end])
        pos = end
    out.append(draft[pos:])
    return "".join(out)


def strip_flags(text: str) -> str:
    """``text`` without its ``flag`` markers (the draft again, when the draft held none)."""
    return FLAG_MARK_RE.sub("", text)


def deliver(draft: str, claims: Sequence[ClaimVerdict], policy: Policy) -> str:
    """The text to deliver under ``policy``: redacted, or the draft with flag markers."""
    return redact(draft, claims) if policy is Policy.REDACT else flag(draft, claims)
