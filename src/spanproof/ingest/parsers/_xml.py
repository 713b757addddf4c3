"""Safe XML parsing and inline-text extraction shared by the JATS and PubMed parsers.

Safety: ``defusedxml`` with entity declarations and external references forbidden, so
billion-laughs, quadratic-blowup and external-entity (XXE) documents fail with ``forbidden_xml``
before anything expands or is fetched. A ``<!DOCTYPE … "x.dtd">`` line alone is allowed, because
real PubMed and PMC responses carry one; it is never fetched. Limits: input over
:data:`~spanproof.ingest.parsers._common.MAX_BYTES`, an attribute value over
:data:`MAX_ATTRIBUTE_CHARS`, nesting deeper than :data:`MAX_DEPTH` or more than
:data:`MAX_ELEMENTS` elements → ``too_large``. Encodings: a byte-order mark or the XML
declaration's ``encoding`` decides; undecodable bytes or NUL characters → ``invalid_utf8``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from spanproof.core.documents import ParseFailure
from spanproof.ingest.parsers._common import bom_encoding, check_size, decode

MAX_ATTRIBUTE_CHARS = 1024 * 1024
MAX_DEPTH = 200
MAX_ELEMENTS = 1_000_000

_DECLARED = re.compile(rb"\A<\?xml[^>]{0,200}?encoding\s*=\s*[\"']([A-Za-z][A-Za-z0-9._-]{0,39})")
_WIDE = ("utf-16", "utf16", "utf-32", "utf32", "ucs-2", "ucs2", "ucs-4", "ucs4")


class _LimitExceeded(Exception):
    pass


class _LimitedTreeBuilder(ET.TreeBuilder):
    """A tree builder that stops at the depth, element-count and attribute-size limits."""

    def __init__(self) -> None:
        super().__init__()
        self._depth = 0
        self._count = 0

    def start(self, tag: str, attrs: dict[str, str], /) -> ET.Element:
        self._depth += 1
        self._count += 1
        if self._depth > MAX_DEPTH:
            raise _LimitExceeded(f"elements nested deeper than {MAX_DEPTH}")
        if self._count > MAX_ELEMENTS:
            raise _LimitExceeded(f"more than {MAX_ELEMENTS:,} elements")
        for name, value in attrs.items():
            if len(value) > MAX_ATTRIBUTE_CHARS:
                raise _LimitExceeded(
                    f"attribute {local(name)!r} is {len(value):,} characters "
                    f"(limit {MAX_ATTRIBUTE_CHARS:,})"
                )
        return super().start(tag, attrs)

    def end(self, tag: str, /) -> ET.Element:
        self._depth -= 1
        return super().end(tag)


def decode_xml(raw: bytes) -> str:
    """Decode XML bytes by their byte-order mark, else their declared encoding, else UTF-8."""
    check_size(raw)
    found = bom_encoding(raw)
    if found is not None:
        encoding, skip = found
        return decode(raw[skip:], encoding)
    match = _DECLARED.match(raw)
    encoding = match.group(1).decode("ascii").lower() if match else "utf-8"
    if encoding.startswith(_WIDE):
        raise ParseFailure(
            "invalid_utf8", f"declared {encoding} but the declaration itself is single-byte text"
        )
    return decode(raw, encoding)


def parse_xml(raw: bytes) -> ET.Element:
    """Parse ``raw`` into an element tree under the safety rules above.

    Raises:
        ParseFailure: ``too_large``, ``invalid_utf8``, ``forbidden_xml`` or ``corrupt_xml``.
    """
    text = decode_xml(raw)
    parser = DefusedXMLParser(
        target=_LimitedTreeBuilder(), forbid_dtd=False, forbid_entities=True, forbid_external=True
    )
    try:
        parser.feed(text)
        root: ET.Element = parser.close()
    except _LimitExceeded as exc:
        raise ParseFailure("too_large", str(exc)) from exc
    except DefusedXmlException as exc:
        raise ParseFailure("forbidden_xml", f"{type(exc).__name__}: {exc}") from exc
    except ET.ParseError as exc:
        raise ParseFailure("corrupt_xml", str(exc)) from exc
    return root


def local(tag: object) -> str:
    """The local name of an element tag (``{ns}math`` → ``math``); "" for comments and PIs."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def children(el: ET.Element | None, name: str) -> list[ET.Element]:
    """Direct children with local name ``name`` (none when ``el`` is None)."""
    return [] if el is None else [c for c in el if local(c.tag) == name]


def child(el: ET.Element | None, *path: str) -> ET.Element | None:
    """The first element down ``path`` of local names, or None."""
    node = el
    for name in path:
        if node is None:
            return None
        node = next((c for c in node if local(c.tag) == name), None)
    return node


def plain(el: ET.Element | None) -> str:
    """All text under ``el`` (for ids and metadata, not section text)."""
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


# Elements whose text is set apart from its neighbours by a space.
_BLOCK = frozenset(
    {
        "p",
        "list",
        "list-item",
        "def-list",
        "def-item",
        "term",
        "def",
        "disp-quote",
        "boxed-text",
        "statement",
        "disp-formula",
        "disp-formula-group",
        "preformat",
        "code",
        "speech",
        "verse-group",
        "verse-line",
        "caption",
        "title",
        "label",
        "fn",
        "table-wrap-foot",
        "attrib",
        "address",
        "supplementary-material",
        "array",
        "glossary",
        "chem-struct-wrap",
        "AbstractText",
    }
)
# Elements with no text worth keeping (graphics, machine metadata, licences).
_SKIP = frozenset(
    {
        "graphic",
        "inline-graphic",
        "media",
        "object-id",
        "sec-meta",
        "processing-meta",
        "permissions",
        "alt-text",
        "long-desc",
        "private-char",
    }
)
_EXPONENT_START = frozenset("0123456789-+−")
#: Floating objects that become their own sections (``fig-<n>``, ``table-<n>``).
FLOATS = frozenset({"fig", "fig-group", "table-wrap", "table-wrap-group"})


def _first_char(el: ET.Element) -> str:
    for piece in el.itertext():
        stripped = piece.lstrip()
        if stripped:
            return stripped[0]
    return ""


def _is_citation(el: ET.Element) -> bool:
    name = local(el.tag)
    if name == "xref":
        return el.get("ref-type") in ("bibr", "fn", "table-fn")
    if name == "sup":
        kids = list(el)
        return bool(kids) and not (el.text or "").strip() and all(map(_is_citation, kids))
    return False


class InlineText:
    """Collects the text of mixed-content elements without losing or repeating any of it.

    MathML contributes its text content once (or its ``alttext`` when it has none); of an
    ``<alternatives>`` group only one representation is read (MathML, else a table, else TeX,
    else the first with text). Floats (``fig``, ``table-wrap``…) met inside a paragraph are
    handed to ``on_float`` instead of being read inline, so they become their own sections.
    """

    def __init__(self, on_float: Callable[[ET.Element], None] | None = None) -> None:
        self._parts: list[str] = []
        self._on_float = on_float

    def text(self) -> str:
        """The raw (not yet canonical) text collected so far."""
        return "".join(self._parts)

    def _last(self) -> str:
        for part in reversed(self._parts):
            if part:
                return part[-1]
        return ""

    def add(self, text: str | None) -> None:
        """Append raw text."""
        if text:
            self._parts.append(text)

    def content(self, el: ET.Element) -> None:
        """Append the text inside ``el`` (not its tail)."""
        self.add(el.text)
        for kid in el:
            self.element(kid)
            self.add(kid.tail)

    def element(self, el: ET.Element) -> None:
        """Append the text of ``el`` itself (not its tail), by the rules above."""
        name = local(el.tag)
        if not name or name in _SKIP:
            return
        if name in FLOATS and self._on_float is not None:
            self._on_float(el)
            self.add(" ")
            return
        if name == "math":
            self.add("".join(el.itertext()).strip() or el.get("alttext", ""))
            return
        if name == "alternatives":
            chosen = pick_alternative(el)
            if chosen is not None:
                self.element(chosen)
            return
        if name == "table":
            self.add(f" {flatten_table(el, self._on_float)} ")
            return
        self._spacing(el, name)
        block = name in _BLOCK or name in FLOATS
        if block:
            self.add(" ")
        self.content(el)
        if block or name == "break":
            self.add(" ")

    def _spacing(self, el: ET.Element, name: str) -> None:
        last = self._last()
        if name == "sup" and last.isdigit() and _first_char(el) in _EXPONENT_START:
            self.add("^")
        elif _is_citation(el) and last.isalnum() and _first_char(el).isalnum():
            self.add(" ")


def pick_alternative(el: ET.Element) -> ET.Element | None:
    """The one representation of an ``<alternatives>`` group to read."""
    kids = [k for k in el if local(k.tag)]
    for preferred in ("math", "table", "tex-math"):
        for kid in kids:
            if local(kid.tag) == preferred:
                return kid
    return next((k for k in kids if "".join(k.itertext()).strip()), None)


def inline(el: ET.Element | None, on_float: Callable[[ET.Element], None] | None = None) -> str:
    """The raw text inside ``el`` by :class:`InlineText` rules."""
    if el is None:
        return ""
    out = InlineText(on_float)
    out.content(el)
    return out.text()


def flatten_table(table: ET.Element, on_float: Callable[[ET.Element], None] | None = None) -> str:
    """``cell | cell`` per row, rows joined with ``"; "`` (raw text)."""
    rows: list[str] = []
    for row in _rows(table):
        cells = [inline(c, on_float).strip() for c in row if local(c.tag) in ("td", "th")]
        rows.append(" | ".join(cells))
    return "; ".join(r for r in rows if r.strip(" |"))


def _rows(table: ET.Element) -> list[ET.Element]:
    rows: list[ET.Element] = []
    for kid in table:
        name = local(kid.tag)
        if name == "tr":
            rows.append(kid)
        elif name in ("thead", "tbody", "tfoot"):
            rows.extend(k for k in kid if local(k.tag) == "tr")
    return rows
