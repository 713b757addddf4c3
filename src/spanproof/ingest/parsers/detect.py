"""Choose a parser for raw bytes: by media type, else file extension, else by sniffing.

Sniffing reads the first 64 KiB: a ``%PDF`` or ZIP signature → ``unknown_format``; NUL bytes
without a UTF-16/32 byte-order mark → ``invalid_utf8``; markup whose root element is ``article``
or ``pmc-articleset`` → JATS, ``PubmedArticleSet``/``PubmedArticle`` → PubMed, ``html`` (or an
HTML doctype or body tags) → HTML, any other XML root → ``unknown_format``; a JSON object line
with ``doc_id`` and ``abstract`` → SciFact, other JSON → ``unknown_format``; Markdown headings,
setext underlines or code fences → Markdown; other text → plain text, unless over 1% of it is
control characters (binary) → ``unknown_format``. Text formats must be UTF-8 (a BOM may say
UTF-16/32); a ``charset`` parameter is ignored, XML alone honours its declared encoding. CSV
is never sniffed (any text could be one-column CSV): name it by media type or a ``.csv``/``.tsv``
extension.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers import crossref, csv, html, jats, markdown, pubmed, scifact, text
from spanproof.ingest.parsers._common import bom_encoding, check_size, decode

Parser = Callable[[bytes], ParsedDocument]

PARSERS: dict[str, Parser] = {
    "jats": jats.parse,
    "pubmed": pubmed.parse,
    "text": text.parse,
    "markdown": markdown.parse,
    "html": html.parse,
    "csv": csv.parse,
    "scifact": scifact.parse,
    "crossref": crossref.parse,
}
_XML = "xml"  # "an XML document: choose by its root element"
_MEDIA_TYPES = {
    "application/jats+xml": "jats",
    "application/vnd.jats+xml": "jats",
    "application/pubmed+xml": "pubmed",
    "text/plain": "text",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/csv": "csv",
    "text/tab-separated-values": "csv",
    "application/jsonl": "scifact",
    "application/x-ndjson": "scifact",
    "application/x-jsonlines": "scifact",
    "application/x-scifact+json": "scifact",
    "application/vnd.crossref+json": "crossref",
    "application/xml": _XML,
    "text/xml": _XML,
}
_UNTYPED = frozenset({"", "application/octet-stream", "binary/octet-stream"})
_EXTENSIONS = {
    ".xml": _XML,
    ".nxml": _XML,
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".csv": "csv",
    ".tsv": "csv",
    ".jsonl": "scifact",
    ".ndjson": "scifact",
}
_UNSUPPORTED_EXTENSIONS = frozenset({".pdf", ".doc", ".docx", ".odt", ".rtf", ".epub", ".zip"})
_SNIFF_BYTES = 64 * 1024
_PROLOG = re.compile(
    r"\A(?:\s+|<\?[^>]*\?>|<!--(?:[^-]|-(?!->))*-->|<!DOCTYPE[^>\[]*(?:\[[^\]]*\])?\s*>)*",
    re.IGNORECASE,
)
_ROOT = re.compile(r"<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)")
_HTML_HINT = re.compile(
    r"<!DOCTYPE\s+html|<(?:html|head|body|div|p|h[1-6]|table|ul|span|a)[\s>/]", re.I
)
_XML_ROOTS = {
    "article": "jats",
    "pmc-articleset": "jats",
    "PubmedArticleSet": "pubmed",
    "PubmedArticle": "pubmed",
    "html": "html",
}
_MARKDOWN = re.compile(r"^ {0,3}(?:#{1,6}[ \t]+\S|```|~~~)|^\S[^\n]*\n {0,3}(?:=+|-+)[ \t]*$", re.M)


def parse_bytes(
    raw: bytes, media_type: str | None = None, filename: str | None = None
) -> ParsedDocument:
    """Parse ``raw`` with the parser its media type, file name or content points to.

    Args:
        raw: the bytes exactly as fetched or read.
        media_type: e.g. ``application/jats+xml`` (parameters such as ``charset`` are ignored);
            ``None`` or ``application/octet-stream`` to decide by name or content.
        filename: a file name whose extension may decide the format.

    Raises:
        ParseFailure: ``unknown_format`` when no parser fits, else the chosen parser's failure.
    """
    check_size(raw)
    return PARSERS[detect_format(raw, media_type, filename)](raw)


def detect_format(raw: bytes, media_type: str | None = None, filename: str | None = None) -> str:
    """The format name (a key of :data:`PARSERS`) for ``raw``.

    Raises:
        ParseFailure: ``unknown_format`` or ``invalid_utf8`` when no parser fits.
    """
    kind = (media_type or "").split(";", 1)[0].strip().lower()
    if kind not in _UNTYPED:
        chosen = _MEDIA_TYPES.get(kind)
        if chosen is None:
            raise ParseFailure("unknown_format", f"no parser for media type {kind!r}")
        return _sniff_xml(raw) if chosen == _XML else chosen
    suffix = PurePosixPath((filename or "").replace("\\", "/")).suffix.lower()
    if suffix in _UNSUPPORTED_EXTENSIONS:
        raise ParseFailure("unknown_format", f"no parser for {suffix} files")
    if suffix in _EXTENSIONS:
        chosen = _EXTENSIONS[suffix]
        return _sniff_xml(raw) if chosen == _XML else chosen
    return _sniff(raw)


def _head(raw: bytes) -> str:
    """The first bytes as text, for sniffing only (the parser decodes strictly later)."""
    found = bom_encoding(raw)
    if found is not None and found[0] != "utf-8":
        head = raw[:_SNIFF_BYTES]
        return head.decode(found[0], errors="replace")
    head = raw[:_SNIFF_BYTES].removeprefix(b"\xef\xbb\xbf")
    if b"\x00" in head:
        raise ParseFailure(
            "invalid_utf8", "NUL bytes: binary data, or UTF-16/32 without a byte-order mark"
        )
    return head.decode("utf-8", errors="replace")


def _root(head: str) -> str | None:
    prolog = _PROLOG.match(head)
    match = _ROOT.match(head[prolog.end() :] if prolog else head)
    return match.group(2) if match else None


def _sniff_xml(raw: bytes) -> str:
    head = _head(raw)
    root = _root(head)
    if root in _XML_ROOTS:
        return _XML_ROOTS[root]
    if root is None and not head.lstrip().startswith("<"):
        raise ParseFailure("unknown_format", "not XML: no root element")
    if root is not None and root.lower() == "html":
        return "html"
    raise ParseFailure("unknown_format", f"no parser for XML with root element <{root}>")


def _sniff(raw: bytes) -> str:
    if raw.startswith(b"%PDF"):
        raise ParseFailure("unknown_format", "PDF is not supported")
    if raw.startswith(b"PK\x03\x04"):
        raise ParseFailure("unknown_format", "ZIP archives (DOCX, EPUB…) are not supported")
    head = _head(raw)
    stripped = head.lstrip()
    found = _sniff_markup(head) if stripped.startswith("<") else None
    if found is None and stripped.startswith("{"):
        found = _sniff_json(stripped.split("\n", 1)[0])
    if found is not None:
        return found
    if bom_encoding(raw) is None:  # without a BOM, text formats must be strict UTF-8
        decode(raw)
    if _MARKDOWN.search(head):
        return "markdown"
    controls = sum(1 for ch in head if (ch < " " and ch not in "\t\n\r\f\v") or ch == "\x7f")
    if controls > len(head) // 100:
        raise ParseFailure("unknown_format", "binary data: too many control characters")
    return "text"


def _sniff_markup(head: str) -> str | None:
    """JATS, PubMed or HTML by the root element; None when this is not markup after all."""
    root = _root(head)
    if root in _XML_ROOTS:
        return _XML_ROOTS[root]
    if (root is not None and root.lower() == "html") or _HTML_HINT.search(head):
        return "html"
    if root is not None:
        raise ParseFailure("unknown_format", f"no parser for XML with root element <{root}>")
    return None


def _sniff_json(line: str) -> str | None:
    """SciFact for a corpus line; other JSON has no parser; None when this is not JSON."""
    obj = _json_object(line)
    if obj is None:
        return None
    if "doc_id" in obj and "abstract" in obj:
        return "scifact"
    raise ParseFailure("unknown_format", "JSON that is not a SciFact corpus line")


def _json_object(line: str) -> dict[str, object] | None:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None
