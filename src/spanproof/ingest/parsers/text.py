"""Plain text → one section per paragraph.

Paragraphs are runs of non-blank lines separated by blank (or whitespace-only) lines; keys are
``p1``, ``p2``… in order. The title is the first non-blank line when it is at most
:data:`MAX_TITLE_CHARS` characters, and stays in ``p1`` too (the text is not altered). Input is
UTF-8 (a BOM is dropped; UTF-16/32 with a BOM is accepted).
"""

from __future__ import annotations

import re
from itertools import chain

from spanproof.core.documents import ParsedDocument
from spanproof.ingest.parsers._common import Sections, decode_text

FORMAT = "text"
# A line break, then one or more lines holding only whitespace: a paragraph boundary.
_BLANK_LINES = re.compile(r"\n[^\S\n]*\n(?:[^\S\n]*\n)*")
_FIRST_LINE = re.compile(r"\S[^\n]*")
#: A first line longer than this is a sentence, not a title.
MAX_TITLE_CHARS = 200


def parse(raw: bytes) -> ParsedDocument:
    """Parse plain text.

    Raises:
        ParseFailure: ``too_large``, ``invalid_utf8`` or ``no_text``.
    """
    text = decode_text(raw).replace("\r\n", "\n").replace("\r", "\n")
    sections = Sections(keep_empty=False)
    start = 0
    for blank in chain(_BLANK_LINES.finditer(text), [None]):
        stop = blank.start() if blank else len(text)
        sections.add(f"p{len(sections) + 1}", "", text[start:stop])
        start = blank.end() if blank else stop
    first_line = _FIRST_LINE.search(text)
    first = first_line.group().strip() if first_line else ""
    title = first if len(first) <= MAX_TITLE_CHARS else ""
    return sections.document(title=title, format=FORMAT)
