"""A table row's claim read with its table's header.

A chat answer that compares things puts them in a Markdown table::

    | Intervention       | Change in systolic BP | Source |
    |--------------------|-----------------------|--------|
    | Daily walking      | -5 mmHg               | [1]    |

The rule-based decomposer makes each data row one claim, its cells joined ("Daily walking;
-5 mmHg"), which says nothing a source can be read against: what the "-5 mmHg" is a change *of*
is in the header, and the sign is the direction. :func:`with_table_context` gives such a claim
the text the verifier reads. A signed figure under a header that names a change ("Change in
X", "Effect on X", "Difference in X", "Δ X", "X change vs placebo", "X, change from baseline")
is the sentence it states, the row's first cell (what the row is about) its subject and the
sign its direction: "Daily walking decreased systolic BP by 5 mmHg", "+3 %" → "increased … by
3%", a unit in brackets at the header's end taken when the cell has none ("Change in LDL (%)").
So a row that gives the opposite direction of its source is read as the opposite, not as a
figure that matches. Every other cell that holds more than citation markers follows as
"<header>: <cell>" ("— Dose: 10 mg"); a row with no such change reads "<first cell> — <header>:
<cell>; …". Measured by ``scripts/probe_table_rows.py`` (docs/quality.md).

Only a claim whose text is its row's own (the rule-based reading) is given the header; a claim
an LLM decomposer wrote in its own words keeps them. The claim's span stays on the row, so
``flag`` marks and ``redact`` removes the row; only the text the verifier reads changes, as
for a pronoun named after a yes/no answer (:mod:`spanproof.verify.yes_no`). Deterministic: the
same draft and claims give the same texts.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import replace

from spanproof.core.models import Claim
from spanproof.text.markdown import markdown_lines, table_cells, table_headers
from spanproof.verify.decompose import CITATION_MARKER_RE, clean_claim_text

#: A column header that names a change, so a sign in its cells is a direction; what is left
#: once these words are cut from it is the thing that changed ("Change in systolic BP" →
#: "systolic BP").
_CHANGE_WORDS = re.compile(
    r"\b(?:(?:mean\s+)?(?:change[sd]?|difference|effect|shift)(?:\s+(?:in|of|on))?|"
    r"(?:vs\.?|versus)\s+\w+|from\s+baseline)\b|[Δ∆]",
    re.IGNORECASE,
)
#: A unit in brackets at a header's end: "Change in systolic BP (mmHg)".
_HEADER_UNIT = re.compile(r"\s*[(\[]\s*([^()\[\]]{1,12}?)\s*[)\]]\s*$")
#: A cell that is a signed figure: "-5 mmHg", "−0.3 (95% CI −0.5 to −0.1)", "+12 %".
_SIGNED = re.compile(r"([+\-−–＋])\s?(\d[\d.,]*)\s?(.*)")


def with_table_context(draft: str, claims: Sequence[Claim]) -> list[Claim]:
    """``claims`` with each table row's claim read with its header (see the module's
    docstring); the others as they are. Linear in the draft and the claims."""
    headers = table_headers(draft)
    if not headers:
        return list(claims)
    rows = sorted((line.start, line.end) for line in markdown_lines(draft) if line.start in headers)
    starts = [start for start, _ in rows]
    out: list[Claim] = []
    for claim in claims:
        span = claim.draft_span
        at = bisect.bisect_right(starts, span[0]) - 1 if span is not None else -1
        if span is None or at < 0 or span[1] > rows[at][1]:
            out.append(claim)
            continue
        start, end = rows[at]
        row = draft[start:end]
        text = row_reading(headers[start], table_cells(row))
        if clean_claim_text(row) != claim.text or not text:
            out.append(claim)  # a claim in words of its own
        else:
            out.append(replace(claim, text=text))
    return out


def row_reading(header: Sequence[str], cells: Sequence[str]) -> str:
    """What a table row states, read with its header: its first cell, then each other cell
    after its column's header; a signed figure under a header that names a change is a
    sentence of its own ("Walking decreased systolic BP by 5 mmHg").

    >>> row_reading(["Intervention", "Change in SBP", "Source"], ["Walking", "-5 mmHg", "[1]"])
    'Walking decreased SBP by 5 mmHg'
    >>> row_reading(["Drug", "Dose", "Effect on LDL (%)"], ["Statin", "10 mg", "−30"])
    'Statin decreased LDL by 30% — Dose: 10 mg'
    """
    values = [clean_claim_text(CITATION_MARKER_RE.sub(" ", cell)) for cell in cells]
    subject = values[0] if values else ""
    changes: list[str] = []
    others: list[str] = []
    for index, value in enumerate(values[1:], start=1):
        if not value:
            continue
        name = header[index].strip() if index < len(header) else ""
        change = _change(subject, name, value)
        if change:
            changes.append(change)
        else:
            others.append(f"{name}: {value}" if name else value)
    said = "; ".join(changes) or subject
    if not others:
        return said
    return f"{said} — {'; '.join(others)}" if said else "; ".join(others)


def _change(subject: str, name: str, value: str) -> str:
    """The sentence a signed figure under a header that names a change states, or ""."""
    signed = _SIGNED.fullmatch(value)
    if signed is None or not _CHANGE_WORDS.search(name):
        return ""
    unit = _HEADER_UNIT.search(name)
    thing = _CHANGE_WORDS.sub(" ", name[: unit.start()] if unit else name)
    thing = " ".join(thing.strip(" ,;:-–—").split())
    if not thing:
        return ""
    rest = signed.group(3).strip() or (unit.group(1) if unit else "")
    word = "increased" if signed.group(1) in "+＋" else "decreased"
    figure = signed.group(2) + (rest if rest.startswith(("%", "-")) or not rest else f" {rest}")
    return " ".join(part for part in (subject, word, thing, "by", figure) if part)
