"""Crossref work metadata (``/works/{doi}`` JSON) → title and abstract sections.

A Crossref record is metadata, not full text: the document gets an ``abstract`` section when
Crossref holds one (a JATS fragment; block elements become spaces, inline markup adds nothing,
a leading "Abstract" heading is dropped), and otherwise a ``title`` section, so that a retraction
notice or a metadata-only source is stored and searchable rather than quarantined.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from spanproof.core.documents import ParsedDocument, ParsedSection, ParseFailure
from spanproof.ingest.parsers._common import decode_text
from spanproof.text.canonical import canonical_text

_BLOCK = re.compile(r"</?(?:jats:)?(?:title|p|sec|list|list-item|table|tr|td|th)\b[^>]*>", re.I)
_TAG = re.compile(r"<[^>]*>")
_LEADING_HEADING = re.compile(r"^\s*<(?:jats:)?title>\s*abstract\s*</(?:jats:)?title>", re.I)


def abstract_text(fragment: str) -> str:
    """Canonical text of a Crossref JATS abstract fragment."""
    fragment = _LEADING_HEADING.sub("", fragment)
    return canonical_text(html.unescape(_TAG.sub("", _BLOCK.sub(" ", fragment))))


def _first(value: Any) -> str:
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value[0]
    return value if isinstance(value, str) else ""


def parse(raw: bytes) -> ParsedDocument:
    """Parse one Crossref work response (``{"status": "ok", "message": {...}}`` or the message)."""
    try:
        data = json.loads(decode_text(raw))
    except json.JSONDecodeError as exc:
        raise ParseFailure("malformed", f"Crossref JSON does not parse: {exc.msg}") from None
    message = data.get("message", data) if isinstance(data, dict) else None
    if not isinstance(message, dict) or "DOI" not in message:
        raise ParseFailure("malformed", "not a Crossref work (no message.DOI)")
    title = canonical_text(html.unescape(_TAG.sub("", _first(message.get("title")))))
    abstract = abstract_text(message.get("abstract") or "")
    sections = []
    if abstract:
        sections.append(ParsedSection("abstract", "Abstract", abstract))
    elif title:
        sections.append(ParsedSection("title", "Title", title))
    if not sections:
        raise ParseFailure("no_text", "the Crossref record has neither title nor abstract")
    return ParsedDocument(
        title=title,
        sections=tuple(sections),
        format="crossref",
        external_ids={"doi": str(message["DOI"]).lower()},
        metadata={
            "type": message.get("type", ""),
            "journal": _first(message.get("container-title")),
            "publisher": message.get("publisher", ""),
        },
    )
