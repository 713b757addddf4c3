"""Spans (SPEC §2): resolving a stored span and finding a quotation in a section.

A span ``(source, version, section, start, end, quotation)`` *resolves* when the section's
canonical text between the offsets equals the quotation, ignoring whitespace differences, and no
part of the range is erased. Old versions are never changed, so a span on v1 keeps resolving after
v2 arrives.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from spanproof.core.store import MASK, EvidenceStore

_WS = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class SpanAddress:
    source_id: str
    version: int
    section_key: str
    start: int
    end: int
    quotation: str


@dataclass(frozen=True, slots=True)
class Resolution:
    """Whether a span resolves, and why not when it does not."""

    ok: bool
    reason: str = ""
    text: str = ""


def _squash(text: str) -> str:
    return _WS.sub("", text)


def resolve(store: EvidenceStore, span: SpanAddress) -> Resolution:
    """Check a span against the stored section text (SPEC §2)."""
    section = store.section(span.source_id, span.version, span.section_key)
    if section is None:
        return Resolution(
            False, f"no section {span.section_key!r} in {span.source_id} v{span.version}"
        )
    if not 0 <= span.start < span.end <= len(section.text):
        return Resolution(
            False, f"offsets [{span.start}, {span.end}) outside 0..{len(section.text)}"
        )
    text = section.text[span.start : span.end]
    if MASK in text:
        return Resolution(False, "the range overlaps an erasure")
    if _squash(text) != _squash(span.quotation):
        return Resolution(False, "the text at these offsets differs from the quotation", text)
    return Resolution(True, text=text)


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
    needle = _squash(quotation)
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
