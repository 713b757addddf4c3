"""What every parser shares: size limit, strict decoding, section lists and outline keys.

Section titles and texts are collected raw and pass through ``canonical_text`` exactly once, in
:meth:`Sections.add` (and the document title in :meth:`Sections.document`).
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from spanproof.core.documents import ParsedDocument, ParsedSection, ParseFailure
from spanproof.text.canonical import canonical_text

#: Raw input over this many bytes is refused (``too_large``) before any decoding or parsing.
MAX_BYTES = 50 * 1024 * 1024
#: A document with more sections than this is refused (``too_large``), bounding memory.
MAX_SECTIONS = 250_000

_UTF32_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def check_size(raw: bytes, limit: int = MAX_BYTES) -> None:
    """Raise ``too_large`` when ``raw`` is over ``limit`` bytes."""
    if len(raw) > limit:
        raise ParseFailure("too_large", f"{len(raw):,} bytes is over the {limit:,}-byte limit")


def bom_encoding(raw: bytes) -> tuple[str, int] | None:
    """The encoding a byte-order mark announces and the mark's length, or None."""
    if raw.startswith(codecs.BOM_UTF8):
        return "utf-8", len(codecs.BOM_UTF8)
    for bom in _UTF32_BOMS:  # before UTF-16: the UTF-32 LE mark starts with the UTF-16 LE one
        if raw.startswith(bom):
            return "utf-32", 0
    for bom in _UTF16_BOMS:
        if raw.startswith(bom):
            return "utf-16", 0
    return None


def decode(raw: bytes, encoding: str = "utf-8") -> str:
    """Decode strictly; NUL characters mean binary data or UTF-16/32 without a byte-order mark.

    Raises:
        ParseFailure: ``invalid_utf8`` when the bytes do not decode or hold NUL characters.
    """
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise ParseFailure(
            "invalid_utf8", f"not valid {encoding} at byte {exc.start}: {exc.reason}"
        ) from exc
    except LookupError as exc:
        raise ParseFailure("invalid_utf8", f"unknown text encoding {encoding!r}") from exc
    if "\x00" in text:
        raise ParseFailure(
            "invalid_utf8",
            f"NUL characters in {encoding} text (binary data, or UTF-16 without a byte-order mark)",
        )
    return text


def decode_text(raw: bytes) -> str:
    """Decode a text file: UTF-8 (a BOM is dropped), or UTF-16/32 when a BOM says so."""
    check_size(raw)
    found = bom_encoding(raw)
    if found is None:
        return decode(raw)
    encoding, skip = found
    return decode(raw[skip:], encoding)


_SURROGATE = re.compile("[\ud800-\udfff]")


def refuse_surrogates(text: str) -> str:
    """``text``, unless it holds a lone surrogate: then ``ParseFailure("invalid_utf8")``."""
    found = _SURROGATE.search(text)
    if found is not None:
        raise ParseFailure(
            "invalid_utf8",
            f"text holds a lone surrogate U+{ord(found.group()):04X} (from an escape)",
        )
    return text


class Sections:
    """Sections in document order, with unique keys and canonical text.

    Args:
        keep_empty: keep sections whose text is empty but whose title is not (an outline heading).
    """

    def __init__(self, *, keep_empty: bool = True) -> None:
        self._sections: list[ParsedSection] = []
        self._keys: set[str] = set()
        self._keep_empty = keep_empty

    def __len__(self) -> int:
        return len(self._sections)

    def add(self, key: str, title: str, text: str) -> str | None:
        """Canonicalise and append a section; return its (deduplicated) key, or None if dropped.

        Raises:
            ParseFailure: ``invalid_utf8`` when the text holds a lone surrogate (JSON can
                carry one as a ``\\ud800`` escape; no store can keep it).
        """
        title = canonical_text(refuse_surrogates(title))
        text = canonical_text(refuse_surrogates(text))
        if not text and not (title and self._keep_empty):
            return None
        if len(self._sections) >= MAX_SECTIONS:
            raise ParseFailure("too_large", f"more than {MAX_SECTIONS:,} sections")
        unique, n = key, 1
        while unique in self._keys:
            n += 1
            unique = f"{key}-{n}"
        self._keys.add(unique)
        self._sections.append(ParsedSection(key=unique, title=title, text=text))
        return unique

    def document(
        self,
        *,
        title: str,
        format: str,
        external_ids: dict[str, str] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> ParsedDocument:
        """The finished document.

        Raises:
            ParseFailure: ``no_text`` when no section has any text.
        """
        if not any(s.text for s in self._sections):
            raise ParseFailure("no_text", f"the {format} document has no section with text")
        return ParsedDocument(
            title=canonical_text(refuse_surrogates(title)),
            sections=tuple(self._sections),
            format=format,
            external_ids=dict(external_ids or {}),
            metadata=dict(metadata or {}),
        )


class Outline:
    """Section keys from a heading hierarchy: ``s1``, ``s1.1``, ``s1.2``, ``s2``…

    A skipped level does not leave a gap: ``#`` then ``###`` gives ``s1`` then ``s1.1``.
    """

    def __init__(self) -> None:
        # [level, number, children so far]; the root has level 0.
        self._stack: list[list[int]] = [[0, 0, 0]]
        self._count = 0

    def key(self, level: int) -> str:
        """The key of the next heading at ``level`` (1 = top).

        Raises:
            ParseFailure: ``too_large`` past :data:`MAX_SECTIONS` headings (empty ones count).
        """
        self._count += 1
        if self._count > MAX_SECTIONS:
            raise ParseFailure("too_large", f"more than {MAX_SECTIONS:,} headings")
        while len(self._stack) > 1 and self._stack[-1][0] >= level:
            self._stack.pop()
        parent = self._stack[-1]
        parent[2] += 1
        self._stack.append([level, parent[2], 0])
        return "s" + ".".join(str(entry[1]) for entry in self._stack[1:])


def labelled(label: str, text: str) -> str:
    """``label: text`` for structured-abstract parts (no colon when the label ends in one)."""
    label, text = label.strip(), text.strip()
    if not label:
        return text
    if not text:
        return label
    sep = " " if label[-1] in ".:?!" else ": "
    return f"{label}{sep}{text}"
