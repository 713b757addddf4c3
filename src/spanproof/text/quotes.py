"""Finding a quotation in canonical text, comparing without whitespace (SPEC §2, §5.1).

Pure: span resolution (``services.spans``) and the record gate and extractor (``evidence``) share
this one rule.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


def squash(text: str) -> str:
    """``text`` without whitespace: the form spans and quotations are compared in."""
    return "".join(ch for ch in text if not ch.isspace())


@dataclass(frozen=True, slots=True)
class QuotationMatch:
    """Where a quotation is in a section; ``found`` False carries the closest passage."""

    found: bool
    start: int = -1
    end: int = -1
    closest: str = ""
    similarity: float = 0.0


def _squashed_index(text: str) -> tuple[str, list[int]]:
    """``text`` without whitespace, and for each kept character its offset in ``text``."""
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        if not ch.isspace():
            chars.append(ch)
            offsets.append(i)
    return "".join(chars), offsets


def find_quotation(section_text: str, quotation: str) -> QuotationMatch:
    """Offsets of ``quotation`` in ``section_text``, comparing without whitespace.

    The first occurrence wins. When there is none, the closest passage of the quotation's
    length is returned with its similarity (0..1) so the caller can show what was meant.
    """
    needle = squash(quotation)
    if not needle:
        return QuotationMatch(False, closest="", similarity=0.0)
    hay, offsets = _squashed_index(section_text)
    at = hay.find(needle)
    if at != -1:
        return QuotationMatch(True, offsets[at], offsets[at + len(needle) - 1] + 1)
    return _closest(section_text, hay, offsets, needle)


def _closest(text: str, hay: str, offsets: list[int], needle: str) -> QuotationMatch:
    if not hay:
        return QuotationMatch(False)
    width = min(len(needle), len(hay))
    step = max(1, width // 4)
    best_ratio, best_at = -1.0, 0
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(needle)
    for at in range(0, max(1, len(hay) - width + 1), step):
        matcher.set_seq1(hay[at : at + width])
        ratio = matcher.ratio()
        if ratio > best_ratio:
            best_ratio, best_at = ratio, at
    start = offsets[best_at]
    end = offsets[min(best_at + width, len(offsets)) - 1] + 1
    return QuotationMatch(False, closest=text[start:end], similarity=round(best_ratio, 3))
