"""Markdown → one section per heading, keyed by the heading hierarchy.

Headings (ATX ``#``… and setext ``===``/``---`` underlines) open sections keyed ``s1``, ``s1.1``,
``s1.2``, ``s2``… (see ``_common.Outline``); text before the first heading is ``s0``. The title is
the first level-1 heading, else a ``title:`` in YAML front matter (which is otherwise dropped).

What is kept of the text: fenced and indented code verbatim (fences and info strings dropped);
link and image text (``[text](url)`` → ``text``, ``![alt](src)`` → ``alt``); emphasis and code-span
content without their markers; list items without ``-``/``*``/``+`` bullets (ordered numbers are
kept); quotes without ``>``; table rows without outer pipes (separator rows dropped). This is a
line-based reader, not a full CommonMark implementation; every rule is linear in the input.
"""

from __future__ import annotations

import re

from spanproof.core.documents import ParsedDocument
from spanproof.ingest.parsers._common import Outline, Sections, decode_text

FORMAT = "markdown"

# A line that may be structure: up to three spaces, then a heading, fence, underline, rule or
# table mark. Every other line is paragraph text, read in bulk between structural lines.
_CANDIDATE = re.compile(r"^ {0,3}[#`~=\-|*_]", re.MULTILINE)
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_BULLET = re.compile(r"^([ \t]*)[-*+][ \t]+", re.MULTILINE)
_QUOTE = re.compile(r"^ {0,3}(?:>[ \t]?)+", re.MULTILINE)
_MAYBE_MARKUP = re.compile(r"[>*_+`!\[<\\-]")
_RULE_CHARS = frozenset("|:- \t")
_BREAK_CHARS = frozenset("*_ \t")

# Inline rules: each scans only up to the next marker character, so all are linear.
_CODE_SPAN = re.compile(r"(?<!`)(`+)([^`]+)\1(?!`)")
_IMAGE = re.compile(r"!\[([^\[\]]*)\]\([^()]*\)")
_LINK = re.compile(r"\[([^\[\]]*)\](?:\([^()]*\)|\[[^\[\]]*\])")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]*)>")
_STRONG = re.compile(r"(\*\*|__)([^*_\s](?:[^*_]*[^*_\s])?)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*([^*\s](?:[^*]*[^*\s])?)\*(?![\w*])")
_EM_UNDER = re.compile(r"(?<![\w_])_([^_\s](?:[^_]*[^_\s])?)_(?![\w_])")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~<])")


def parse(raw: bytes) -> ParsedDocument:
    """Parse Markdown.

    Raises:
        ParseFailure: ``too_large``, ``invalid_utf8`` or ``no_text``.
    """
    text = decode_text(raw).replace("\r\n", "\n").replace("\r", "\n")
    front_title, start = _front_matter(text)
    reader = _Reader(text)
    reader.run(start)
    return reader.sections.document(title=reader.title or front_title, format=FORMAT)


def _front_matter(text: str) -> tuple[str, int]:
    """The ``title:`` of a leading YAML block and where the body starts (0 without one)."""
    if not text.startswith("---\n"):
        return "", 0
    end = text.find("\n---\n", 3)
    if end < 0 or end > 64 * 1024:
        return "", 0
    titles = [
        ln[6:].strip().strip("\"'") for ln in text[4:end].split("\n") if ln.startswith("title:")
    ]
    return (titles[0] if titles else ""), end + 5


class _Reader:
    """Walks structural lines; the paragraph text between them is converted in bulk."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sections = Sections()
        self.title = ""
        self._outline = Outline()
        self._key, self._heading = "s0", ""
        self._parts: list[str] = []
        self._row_end = -1  # where the previous table row line ended
        self._last_row: int | None = None  # its index in _parts

    def run(self, pos: int) -> None:
        text, chunk = self.text, pos
        while (match := _CANDIDATE.search(text, pos)) is not None:
            start = match.start()
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            resume = self._structure(text[start:end], chunk, start, end)
            if resume is None:  # paragraph text after all
                pos = end + 1
            else:
                chunk = pos = resume
        self._plain(text[chunk:])
        self._flush()

    def _structure(self, line: str, chunk: int, start: int, end: int) -> int | None:
        """Handle a structural line; return where reading resumes, or None for a plain line."""
        mark = line.lstrip(" ")[:1]
        if mark in "`~" and (fence := _FENCE.match(line)):
            self._plain(self.text[chunk:start])
            return self._code(fence.group(1), end)
        if mark == "#" and (atx := _ATX.match(line)):
            self._plain(self.text[chunk:start])
            self._open(len(atx.group(1)), _atx_text(line[atx.end() :]))
            return end + 1
        if mark in "=-" and start > chunk and (setext := _SETEXT.match(line)):
            previous = self.text.rfind("\n", chunk, start - 1) + 1
            if self.text[previous : start - 1].strip():
                self._plain(self.text[chunk:previous])
                level = 1 if setext.group(1)[0] == "=" else 2
                self._open(level, _inline(self.text[previous : start - 1]))
                return end + 1
        chars = set(line)
        rule = "-" in chars and chars <= _RULE_CHARS
        rule = rule or (chars <= _BREAK_CHARS and (line.count("*") >= 3 or line.count("_") >= 3))
        stripped = line.strip()
        row = len(stripped) > 1 and stripped[0] == "|" and stripped[-1] == "|"
        if not (rule or row):
            return None
        self._plain(self.text[chunk:start])
        if row:
            self._row(stripped[1:-1], start, end, rule)
        return end + 1

    def _row(self, cells: str, start: int, end: int, separator: bool) -> None:
        """A table row; consecutive rows are joined with ``;`` (separator rows dropped)."""
        continues = start == self._row_end + 1 and self._last_row is not None
        self._row_end = end
        if separator:
            return
        if continues and self._last_row is not None:
            self._parts[self._last_row] = self._parts[self._last_row].rstrip() + ";"
        self._last_row = len(self._parts)
        self._parts.append(_inline(cells))

    def _code(self, fence: str, end: int) -> int:
        """Keep a fenced block verbatim; return where reading resumes after its closing fence."""
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.M)
        match = closing.search(self.text, end + 1)
        stop = match.start() if match else len(self.text)
        self._parts.append(self.text[end + 1 : stop])
        if match is None:
            return len(self.text)
        return match.end() + 1

    def _plain(self, chunk: str) -> None:
        if chunk.strip():
            self._parts.append(_inline(chunk))
            self._last_row = None

    def _open(self, level: int, heading: str) -> None:
        """Start a section; ``heading`` is already plain text."""
        self._flush()
        if level == 1 and not self.title:
            self.title = heading
        self._key, self._heading = self._outline.key(level), heading

    def _flush(self) -> None:
        self.sections.add(self._key, self._heading, "\n".join(self._parts))
        self._parts, self._last_row = [], None


def _atx_text(rest: str) -> str:
    """The text of an ATX heading after its ``#`` marks, without an optional closing run."""
    rest = rest.strip()
    unclosed = rest.rstrip("#")
    if unclosed != rest and (not unclosed or unclosed[-1] in " \t"):
        rest = unclosed
    return _inline(rest)


def _inline(block: str) -> str:
    """Markdown lines as plain text (quote and bullet markers, inline markup removed)."""
    if not _MAYBE_MARKUP.search(block):
        return block
    block = _QUOTE.sub("", block)
    block = _BULLET.sub(r"\1", block)
    pieces = _CODE_SPAN.split(block)
    # split() yields: text, fence, code, text, fence, code, ...; code is kept as is.
    out: list[str] = []
    for i, piece in enumerate(pieces):
        kind = i % 3
        if kind == 0:
            out.append(_markup(piece))
        elif kind == 2:
            out.append(piece)
    return "".join(out)


def _markup(text: str) -> str:
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EM_STAR.sub(r"\1", text)
    text = _EM_UNDER.sub(r"\1", text)
    return _ESCAPE.sub(r"\1", text)
