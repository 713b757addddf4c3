"""What parsers produce and connectors fetch (SPEC §2–§3), before anything is stored.

A parser turns raw bytes into a :class:`ParsedDocument` whose sections carry **canonical text**
(whitespace normalised once, at parse time, never again), or raises :class:`ParseFailure` with a
reason code; the version is then quarantined with that reason and its raw bytes are kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spanproof.core.errors import InvalidInputError

#: Quarantine reason codes (``ParseFailure.reason``).
QUARANTINE_REASONS = (
    "corrupt_xml",  # not well-formed, truncated
    "forbidden_xml",  # DTD entities, external entities, entity expansion (billion laughs)
    "invalid_utf8",  # bytes that do not decode in the declared/expected encoding
    "unknown_format",  # no parser for these bytes
    "no_text",  # parsed, but no section has any text
    "too_large",  # over the configured size limits (document, attribute, depth)
    "malformed",  # well-formed but not the expected shape (e.g. JSONL without 'abstract')
)


class ParseFailure(InvalidInputError):
    """Bytes that cannot become a document; ``reason`` is one of :data:`QUARANTINE_REASONS`."""

    def __init__(self, reason: str, detail: str) -> None:
        if reason not in QUARANTINE_REASONS:
            raise ValueError(f"unknown quarantine reason {reason!r}")
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, slots=True)
class ParsedSection:
    """One section with a stable short key (``title``, ``abstract``, ``s2.1``, ``row-17``)."""

    key: str
    title: str
    text: str  # canonical text


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A parsed version of a source.

    Attributes:
        title: the document title (canonical text), "" if none.
        external_ids: ``doi``, ``pmid``, ``pmcid``… as found in the document (lowercase keys).
        sections: in document order; keys unique within the document.
        metadata: other facts (journal, year, authors, article type) for display.
        format: the parser's format name (``jats``, ``pubmed``, ``text``, ``markdown``, ``html``,
            ``csv``, ``scifact``).
    """

    title: str
    sections: tuple[ParsedSection, ...]
    format: str
    external_ids: dict[str, str] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FetchedDocument:
    """What a connector returns: raw bytes plus what the service said about them.

    Attributes:
        connector: ``europepmc``, ``pubmed``, ``crossref``, ``file``, ``csv``, ``text``.
        external_ids: ids known at fetch time (lowercase keys ``doi``, ``pmid``, ``pmcid``).
        media_type: the format hint for the parser (``application/jats+xml``,
            ``application/pubmed+xml``, ``application/vnd.crossref+json``, ``text/plain``...).
        raw: the bytes exactly as received (their SHA-256 identifies the version).
        status: ``active``, ``retracted``, ``withdrawn`` or ``corrected`` when the service says.
        notices: update notices (Crossref ``update-to``/``updated-by``), as plain dicts with
            ``type`` (retraction, correction, expression_of_concern, ...), ``doi``, ``date``.
    """

    connector: str
    external_ids: dict[str, str]
    media_type: str
    raw: bytes
    title: str = ""
    status: str = "active"
    notices: tuple[dict[str, str], ...] = ()
