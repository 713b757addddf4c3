"""HTML → one section per heading, keyed by the heading hierarchy.

``<h1>``…``<h6>`` open sections keyed ``s1``, ``s1.1``… (see ``_common.Outline``); text before the
first heading is ``s0``. The title is ``<title>``, else the first ``<h1>``. Block elements
(paragraphs, list items, quotes, ``<br>``…) are separated by a space; inline elements add nothing,
except ``<sup>`` right after a digit, written ``^``. Tables flatten to ``cell | cell`` rows joined
with ``"; "``. Dropped: ``script``, ``style``, ``noscript``, ``template``, ``svg``, ``iframe``,
``object``, ``canvas``, comments, and image alt text. Navigation and footer text is kept (no
boilerplate guessing). Character references are decoded.

The tokenizer is this module's own, linear in the input: it follows the HTML5 rules for the
parts it needs (tags, comments and bogus comments, raw-text ``script``/``style``, EOF inside a
tag or comment drops the rest). The standard library's ``html.parser`` is not used because on
Python 3.11 unterminated ``<!`` runs make it quadratic (2 MB took minutes).
"""

from __future__ import annotations

import re
from html import unescape

from spanproof.core.documents import ParsedDocument
from spanproof.ingest.parsers._common import Outline, Sections, decode_text

FORMAT = "html"

_SKIPPED = frozenset(
    {"script", "style", "noscript", "template", "svg", "iframe", "object", "canvas"}
)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "br",
        "caption",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "ul",
    }
)


def parse(raw: bytes) -> ParsedDocument:
    """Parse an HTML page.

    Raises:
        ParseFailure: ``too_large``, ``invalid_utf8`` or ``no_text``.
    """
    reader = _Reader()
    _tokenize(decode_text(raw), reader)
    reader.finish()
    title = "".join(reader.title_parts) or reader.first_h1
    return reader.sections.document(title=title, format=FORMAT)


_MARKUP = re.compile(r"<[A-Za-z!?/]")
_SIMPLE_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)>")
_TAG_NAME = re.compile(r"</?([A-Za-z][^\s/>]*)")
_TAG_SCAN = re.compile(r"[>\"']")
_RAW_TEXT = frozenset({"script", "style"})
_RAW_END = {name: re.compile(rf"</{name}[\s/>]", re.IGNORECASE) for name in _RAW_TEXT}


def _tokenize(text: str, reader: _Reader) -> None:
    """Drive ``reader`` with data, start-tag and end-tag events; every character is read once."""
    i, n = 0, len(text)
    while i < n:
        match = _MARKUP.search(text, i)
        start = match.start() if match else n
        if start > i:
            reader.handle_data(unescape(text[i:start]))
        if match is None:
            return
        i = _markup(text, start, reader)


def _markup(text: str, i: int, reader: _Reader) -> int:
    """Consume the markup at ``i`` (which starts ``<`` + letter, ``!``, ``?`` or ``/``)."""
    n = len(text)
    simple = _SIMPLE_TAG.match(text, i)
    if simple is not None and simple.group(2).lower() not in _RAW_TEXT:
        name = simple.group(2).lower()
        if simple.group(1):
            reader.handle_endtag(name)
        else:
            reader.handle_starttag(name)
        return simple.end()
    if text.startswith("<!--", i):
        end = text.find("-->", i + 4)
        return n if end < 0 else end + 3
    tag = _TAG_NAME.match(text, i)
    if tag is None:  # <!doctype>, <?pi?>, </ 3>: bogus comments up to the next '>'
        end = text.find(">", i + 2)
        return n if end < 0 else end + 1
    end = _tag_end(text, tag.end())
    if end < 0:
        return n  # EOF inside a tag: HTML5 drops it
    name = tag.group(1).lower()
    if text.startswith("</", i):
        reader.handle_endtag(name)
        return end
    reader.handle_starttag(name)
    if text[end - 2] == "/":
        reader.handle_endtag(name)
    if name in _RAW_TEXT:
        close = _RAW_END[name].search(text, end)
        if close is None:
            return n
        reader.handle_endtag(name)
        closing = text.find(">", close.end() - 1)
        return n if closing < 0 else closing + 1
    return end


def _tag_end(text: str, i: int) -> int:
    """The index after the ``>`` that ends a tag begun before ``i`` (quoted values skipped)."""
    while True:
        hit = _TAG_SCAN.search(text, i)
        if hit is None:
            return -1
        if hit.group() == ">":
            return hit.end()
        before = hit.start() - 1
        while before >= i and text[before] in " \t\n\r\f":
            before -= 1
        if before >= i and text[before] == "=":  # a quoted attribute value
            close = text.find(hit.group(), hit.end())
            if close < 0:
                return -1
            i = close + 1
        else:
            i = hit.end()


class _Reader:
    """Turns tag and text events into sections."""

    def __init__(self) -> None:
        self.sections = Sections()
        self.title_parts: list[str] = []
        self.first_h1 = ""
        self._outline = Outline()
        self._skip: list[str] = []
        self._in_title = False
        self._key, self._heading = "s0", ""
        self._text: list[str] = []
        self._heading_level = 0  # > 0 while inside <hN>
        self._heading_parts: list[str] = []
        self._tables: list[list[int]] = []  # per open table: [rows, cells in current row]

    # -- events ---------------------------------------------------------------------------
    def handle_starttag(self, tag: str) -> None:
        if self._skip:
            if tag == self._skip[-1]:
                self._skip.append(tag)  # same element nested: track its depth
            return
        if tag == "title":
            self._in_title = True
        elif tag in _SKIPPED:
            self._skip.append(tag)
        elif tag in _HEADINGS:
            self._start_heading(_HEADINGS[tag])
        else:
            self._start_other(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._skip:
            if tag == self._skip[-1]:
                self._skip.pop()
            return
        if tag == "title":
            self._in_title = False
        elif tag in _HEADINGS and self._heading_level:
            self._end_heading()
        elif tag == "table" and self._tables:
            self._tables.pop()
            self._emit(" ")
        elif tag in _BLOCKS or tag in ("td", "th", "tr"):
            self._emit(" ")

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title_parts.append(data)
        else:
            self._emit(data)

    # -- helpers --------------------------------------------------------------------------
    def _emit(self, text: str) -> None:
        (self._heading_parts if self._heading_level else self._text).append(text)

    def _separate(self, separator: str) -> None:
        """Emit a table separator right after the last text (no space before ``;``)."""
        parts = self._heading_parts if self._heading_level else self._text
        while parts and not parts[-1].strip():
            parts.pop()
        if parts:
            parts[-1] = parts[-1].rstrip()
        parts.append(separator)

    def _last_char(self) -> str:
        parts = self._heading_parts if self._heading_level else self._text
        for part in reversed(parts):
            if part:
                return part[-1]
        return ""

    def _start_other(self, tag: str) -> None:
        if tag == "table":
            self._tables.append([0, 0])
            self._emit(" ")
        elif tag == "tr" and self._tables:
            table = self._tables[-1]
            self._separate("; " if table[0] else " ")
            table[0], table[1] = table[0] + 1, 0
        elif tag in ("td", "th") and self._tables:
            table = self._tables[-1]
            self._separate(" | " if table[1] else " ")
            table[1] += 1
        elif tag == "sup" and self._last_char().isdigit():
            self._emit("^")
        elif tag in _BLOCKS or tag in ("td", "th", "tr"):
            self._emit(" ")

    def _start_heading(self, level: int) -> None:
        if self._heading_level:
            self._end_heading()
        self._flush()
        self._heading_level = level

    def _end_heading(self) -> None:
        heading = "".join(self._heading_parts)
        level, self._heading_level, self._heading_parts = self._heading_level, 0, []
        if level == 1 and not self.first_h1:
            self.first_h1 = heading
        self._key, self._heading = self._outline.key(level), heading

    def _flush(self) -> None:
        self.sections.add(self._key, self._heading, "".join(self._text))
        self._text = []

    def finish(self) -> None:
        """Close an unterminated heading and write the last section."""
        if self._heading_level:
            self._end_heading()
        self._flush()
