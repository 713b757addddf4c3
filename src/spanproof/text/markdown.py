"""Markdown in a draft: the syntax around the words, found without a parser.

Chat models answer in Markdown. What is syntax there — ``**`` around a phrase, a link's address,
a footnote reference, a table's pipes, a fence around code — is not part of any claim. This
module finds it with a few line and inline rules (CommonMark's, simplified), in two forms that
agree by construction:

* :func:`blank_markdown` replaces the syntax with spaces and keeps every offset, so a claim's
  ``draft_span`` still indexes the draft;
* :func:`strip_markdown` deletes it, so a claim's text reads as the sentence a person sees.

:func:`markdown_lines` says what each line of a draft is (text, a list item, a heading, a table
row, code, …), for the decomposer's blocks.

Limits: no parser, so emphasis is matched within a line, nested lists are read as flat items,
a reference definition (``[1]: https://…``) is skipped as a whole line, HTML is recognised only
for a short list of inline tags, and a table is recognised only by its separator row
(``|---|---|``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from spanproof.text.ranges import merge_ranges

#: A rule's replacement: the group kept, nothing (None), or a space (a line break's tag).
_SPACE = -1
_Rule = tuple[re.Pattern[str], int | None]

#: Inline rules, applied in this order: (pattern, group kept or None for nothing kept).
_INLINE: tuple[_Rule, ...] = (
    # an image: nothing of it is a claim
    (re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)"), None),
    # [text](address "title") and [text][ref]: the text
    (re.compile(r"\[([^\[\]\n]+)\]\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+\"[^\"\n]*\")?\)"), 1),
    (re.compile(r"\[([^\[\]\n^][^\[\]\n]*)\]\[[^\[\]\n]*\]"), 1),
    # a footnote reference [^1]
    (re.compile(r"\[\^[^\[\]\s]+\]"), None),
    # an autolink <https://…>
    (re.compile(r"<(?:https?|ftp|mailto):[^<>\s]+>"), None),
    # `code`: its text
    (re.compile(r"`+([^`\n]+?)`+"), 1),
    # **strong**, __strong__, ~~struck~~ (their text holds no mark of their kind, so a line of
    # unmatched marks is read in one pass, not once per mark)
    (re.compile(r"\*\*(?=[^*\s])([^*\n]*?[^*\s])\*\*"), 1),
    (re.compile(r"(?<!\w)__(?=[^_\s])([^_\n]*?[^_\s])__(?!\w)"), 1),
    (re.compile(r"~~(?=[^~\s])([^~\n]*?[^~\s])~~"), 1),
    # *emphasis*, _emphasis_ (not inside a word: 2*3*4 and snake_case stay)
    (re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])"), 1),
    (re.compile(r"(?<![\w_])_(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?![\w_])"), 1),
    # a few HTML tags chat models write: a line break reads as a space, <sup>, <b>, … as nothing
    (re.compile(r"</?(?:br|p|div)(?:[ \t][^<>\n]*)?/?>", re.IGNORECASE), _SPACE),
    (
        re.compile(
            r"</?(?:sup|sub|b|i|em|strong|u|small|mark|span|code)(?:[ \t][^<>\n]*)?/?>",
            re.IGNORECASE,
        ),
        None,
    ),
    # a block quote's ">" at the start of a line
    (re.compile(r"(?m)^[ \t]{0,3}>[ \t]?"), None),
)

#: A table row's cell borders: the pipes and the space around them (``\|`` is a literal pipe).
_CELL_BORDER = re.compile(r"[ \t]*(?<!\\)\|[ \t]*")


def _apply(text: str, replace: Callable[[re.Match[str], int | None], str]) -> str:
    # Twice: emphasis inside strong ("**a *b* c**") is read on the first pass, the strong on
    # the second. Every rule is linear in the text: no rule's text holds its own opening mark.
    for _ in range(2):
        for pattern, keep in _INLINE:
            text = pattern.sub(lambda m, k=keep: replace(m, k), text)  # type: ignore[misc]
    return text


def _blank(match: re.Match[str], keep: int | None) -> str:
    whole = match.group()
    if keep is None or keep == _SPACE:
        return " " * len(whole)
    start, end = match.span(keep)
    offset = match.start()
    return " " * (start - offset) + whole[start - offset : end - offset] + " " * (match.end() - end)


def _delete(match: re.Match[str], keep: int | None) -> str:
    if keep is None:
        return ""
    return " " if keep == _SPACE else match.group(keep)


def blank_markdown(text: str) -> str:
    """``text`` with its inline Markdown syntax replaced by spaces (the same length).

    >>> blank_markdown("**Walking** lowered [blood pressure](https://x.org).")
    '  Walking   lowered  blood pressure                .'
    """
    return _apply(text, _blank)


def strip_markdown(text: str) -> str:
    """``text`` with its inline Markdown syntax deleted, and a table row's cells joined by ``; ``.

    >>> strip_markdown("**Walking** lowered [blood pressure](https://x.org).[^1]")
    'Walking lowered blood pressure.'
    >>> strip_markdown("| Systolic BP | -5 mmHg |")
    'Systolic BP; -5 mmHg'
    """
    text = _apply(text, _delete)
    if "|" in text:
        cells = _CELL_BORDER.split(text.strip())
        if cells and not cells[0]:
            cells = cells[1:]
        if cells and not cells[-1]:
            cells = cells[:-1]
        text = "; ".join(cells)
    return text


def table_cells(line: str) -> list[str]:
    """The cells of a table row, inline Markdown deleted, outer pipes dropped (empty cells
    kept, so cells line up with their header's).

    >>> table_cells("| **Daily walking** | -5 mmHg | |")
    ['Daily walking', '-5 mmHg', '']
    """
    cells = _CELL_BORDER.split(_apply(line, _delete).strip())
    if cells and not cells[0] and line.lstrip().startswith("|"):
        cells = cells[1:]
    if cells and not cells[-1] and line.rstrip().endswith("|"):
        cells = cells[:-1]
    return [cell.strip() for cell in cells]


def table_headers(text: str) -> dict[int, list[str]]:
    r"""The header cells of the table each data row belongs to, by the row's start offset.

    >>> table_headers("| A | B |\n|---|---|\n| 1 | 2 |\n")
    {20: ['A', 'B']}
    """
    lines = markdown_lines(text)
    headers: dict[int, list[str]] = {}
    current: list[str] | None = None
    for index, line in enumerate(lines):
        body = text[line.start : line.end]
        if line.kind == "row" and current is not None:
            headers[line.start] = current
        elif line.kind == "skip" and index > 0 and _TABLE_SEPARATOR.match(body):
            above = lines[index - 1]
            current = table_cells(text[above.start : above.end]) if above.kind == "skip" else None
        elif line.kind != "row":
            current = None
    return headers


# --------------------------------------------------------------------------- lines

_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]|$)")
_BREAK = re.compile(r"[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_SETEXT = re.compile(r"[ \t]{0,3}(?:=+|-+)[ \t]*$")
_TABLE_SEPARATOR = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$")
_FOOTNOTE = re.compile(r"[ \t]{0,3}\[\^[^\]\s]+\]:")
#: A footnote in superscript: "¹ Sodium restriction (demo)".
_SUPERSCRIPT_NOTE = re.compile(r"[ \t]{0,3}[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]*[ \t]")
#: A reference definition: "[1]: https://…", "[S2]: Smith et al. 2020", "[walking trial]:
#: <https://…>" (a label with spaces only before an address).
_REFERENCE = re.compile(
    r"[ \t]{0,3}\[(?:[^\]\s]{1,40}\]:(?:[ \t]|$)|[^\]\n]{1,100}\]:[ \t]*<?(?:https?|ftp)://)"
)
_QUOTE = re.compile(r"[ \t]{0,3}>[ \t]?")
#: A list item's markers: bullets or numbers, nested ones ("- 1. "), and a task box ("- [ ] ").
_BULLET = re.compile(
    r"[ \t]*(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+)*(?:[-*+•]|\d{1,3}[.)])[ \t](?:\[[ xX]\][ \t])?"
)
#: A line that is one strong phrase with no sentence end inside it: a heading in bold.
_BOLD_HEADING = re.compile(r"[ \t]*(\*\*|__)[^*_\n]*[^*_\n.!?][ \t]*:?\1[ \t]*:?[ \t]*$")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a draft: ``[start, end)`` without its line break, what it is, and where its
    words begin (after a list item's bullet or a quote's ``>``).

    ``kind`` is ``text``, ``item`` (a list item's first line), ``row`` (a table's data row),
    ``quote``, ``blank``, or ``skip`` (a heading, a table's header or separator row, a
    thematic break, a footnote or reference definition, code or a code fence).
    """

    start: int
    end: int
    kind: str
    content: int


def markdown_lines(text: str) -> list[Line]:
    """Each line of ``text`` with its kind (see :class:`Line`)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        spans.append((pos, pos + len(line.rstrip("\r\n"))))
        pos += len(line)
    lines = [text[a:b] for a, b in spans]
    state = _State()
    kinds = [
        state.read(line, lines[index + 1] if index + 1 < len(lines) else "")
        for index, line in enumerate(lines)
    ]
    for index in range(1, len(kinds)):
        underline = _SETEXT.match(lines[index]) is not None and lines[index].strip() != ""
        if underline and kinds[index - 1][0] == "skip" and kinds[index][0] != "row":
            kinds[index] = ("skip", 0)  # a setext heading's underline
    return [
        Line(a, b, kind, a + content) for (a, b), (kind, content) in zip(spans, kinds, strict=True)
    ]


class _State:
    """What :func:`markdown_lines` carries from line to line: an open code fence, a table."""

    def __init__(self) -> None:
        self.fence: str | None = None
        self.table = False

    def read(self, line: str, following: str) -> tuple[str, int]:
        """The line's kind and where its words begin, relative to the line."""
        fenced = _FENCE.match(line)
        if self.fence is not None:
            closing = fenced is not None and fenced.group(1)[0] == self.fence[0]
            if closing and fenced is not None and len(fenced.group(1)) >= len(self.fence):
                self.fence = None
            return "skip", 0
        if fenced:
            self.fence = fenced.group(1)
            return "skip", 0
        if not line.strip():
            self.table = False
            return "blank", 0
        if "|" in line:
            if _TABLE_SEPARATOR.match(line):
                return "skip", 0
            if self.table:
                return "row", 0
            if _TABLE_SEPARATOR.match(following):
                self.table = True
                return "skip", 0  # a table's header row
        kind, content = _block_kind(line)
        if kind in ("text", "quote") and following.strip() and _SETEXT.match(following):
            return "skip", 0  # a setext heading: the line above "===" or "---"
        return kind, content


def _block_kind(line: str) -> tuple[str, int]:
    """A line outside code and tables: a heading or the like, a list item, a quote, or text."""
    skipped = (_HEADING, _FOOTNOTE, _SUPERSCRIPT_NOTE, _REFERENCE, _BOLD_HEADING, _BREAK)
    if any(p.match(line) for p in skipped):
        return "skip", 0
    quote = _QUOTE.match(line)
    after = quote.end() if quote is not None else 0
    bullet = _BULLET.match(line, after)
    if bullet is not None:
        return "item", bullet.end()
    if quote is not None:
        return "quote", after
    return "text", 0


# --------------------------------------------------------------------------- display


@dataclass(frozen=True, slots=True)
class Syntax:
    """Where a draft's Markdown is syntax, for a display that keeps every character.

    Attributes:
        marks: ``[start, end)`` ranges of syntax characters, in order, not overlapping: inline
            marks (``**``, a link's address, backticks; :func:`blank_markdown`'s), a list
            item's bullet, a quote's ``>``, a heading's ``#``, a table's pipes and separator
            row, a code fence, a thematic break.
        headings: ``[start, end)`` ranges of heading lines (ATX ``#``, setext, a bold line of
            its own) and tables' header rows.
    """

    marks: tuple[tuple[int, int], ...]
    headings: tuple[tuple[int, int], ...]


def markdown_syntax(text: str) -> Syntax:
    """Where ``text``'s Markdown is syntax and which lines are headings (see :class:`Syntax`).

    >>> markdown_syntax("# Walking\\n\\n- **Yes** [1](https://x.org).").marks
    ((0, 1), (11, 12), (13, 15), (18, 20), (21, 22), (23, 39))
    """
    marks: list[tuple[int, int]] = []
    blanked = blank_markdown(text)
    run: int | None = None
    for i, (ch, seen) in enumerate(zip(text, blanked, strict=True)):
        syntax = seen == " " and not ch.isspace()
        if syntax and run is None:
            run = i
        elif not syntax and run is not None:
            marks.append((run, i))
            run = None
    if run is not None:
        marks.append((run, len(text)))
    headings: list[tuple[int, int]] = []
    lines = markdown_lines(text)
    code = _code_lines(text, lines)
    marks = [m for m in marks if not any(a <= m[0] < b for a, b in code)]
    for index, line in enumerate(lines):
        body = text[line.start : line.end]
        if (line.start, line.end) in code:
            continue
        if line.kind in ("item", "quote"):
            marks.extend(_visible(text, line.start, line.content))
        elif line.kind == "row":
            marks.extend(
                (line.start + m.start(), line.start + m.end()) for m in _PIPE.finditer(body)
            )
        elif line.kind == "skip":
            marks.extend(_line_marks(text, lines, index, headings))
    return Syntax(tuple(merge_ranges(marks)), tuple(headings))


#: A table's pipe (not a literal ``\|``).
_PIPE = re.compile(r"(?<!\\)\|")
#: A heading's opening and closing ``#`` runs.
_HASHES = re.compile(r"^[ \t]{0,3}(#{1,6})(?:[ \t]|$)|[ \t](#+)[ \t]*$")


def _code_lines(text: str, lines: list[Line]) -> list[tuple[int, int]]:
    """``[start, end)`` of the lines inside code fences (the fences' own lines not included):
    what looks like syntax there is code, shown as it is."""
    code: list[tuple[int, int]] = []
    fence: str | None = None
    for line in lines:
        opened = _FENCE.match(text, line.start, line.end) if line.kind == "skip" else None
        if fence is None:
            fence = opened.group(1) if opened else None
        elif opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
            fence = None
        else:
            code.append((line.start, line.end))
    return code


def _visible(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``[start, end)`` without its leading and trailing whitespace, as a list of 0 or 1."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return [(start, end)] if start < end else []


def _line_marks(
    text: str, lines: list[Line], index: int, headings: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The syntax of a ``skip`` line (see :class:`Line`); a heading line goes into
    ``headings``. Code and reference definitions are no syntax to dim: their text is shown as
    it is."""
    line = lines[index]
    body = text[line.start : line.end]
    following = (
        text[lines[index + 1].start : lines[index + 1].end] if index + 1 < len(lines) else ""
    )
    if _HEADING.match(body):
        headings.append((line.start, line.end))
        return [
            (line.start + m.start(g), line.start + m.end(g))
            for m in _HASHES.finditer(body)
            for g in (1, 2)
            if m.group(g)
        ]
    if _TABLE_SEPARATOR.match(body) or _BREAK.match(body) or _FENCE.match(body):
        return _visible(text, line.start, line.end)
    if _SETEXT.match(body) and index > 0 and lines[index - 1].kind == "skip":
        return _visible(text, line.start, line.end)  # a setext heading's underline
    if "|" in body and _TABLE_SEPARATOR.match(following):
        headings.append((line.start, line.end))  # a table's header row
        return [(line.start + m.start(), line.start + m.end()) for m in _PIPE.finditer(body)]
    if _BOLD_HEADING.match(body) or (following.strip() and _SETEXT.match(following)):
        headings.append((line.start, line.end))
    return []
