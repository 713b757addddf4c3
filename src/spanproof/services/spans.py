"""Spans (SPEC §2): resolving a stored span and finding a quotation in a section.

A span ``(source, version, section, start, end, quotation)`` *resolves* when the section's
canonical text between the offsets equals the quotation, ignoring whitespace differences, and no
part of the range is erased. Old versions are never changed, so a span on v1 keeps resolving after
v2 arrives.
"""

from __future__ import annotations

from dataclasses import dataclass

from spanproof.core.store import MASK, EvidenceStore
from spanproof.text.quotes import QuotationMatch, find_quotation, squash

__all__ = ["QuotationMatch", "Resolution", "SpanAddress", "find_quotation", "resolve"]


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
    if squash(text) != squash(span.quotation):
        return Resolution(False, "the text at these offsets differs from the quotation", text)
    return Resolution(True, text=text)
