"""Word tokens per SPEC §4.4: NFC → UAX-29 word segmentation → per-character lowercase →
drop tokens without an alphanumeric character.

Offsets are code-point offsets into the NFC form of the input (``nfc(text)``); for text that is
already NFC (all canonical text is) they are offsets into the input itself. ``token.text`` equals
the per-character lowercase of ``nfc_text[start:end]``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

# (?w): Unicode default word boundaries (UAX #29); V1 allows splitting on zero-width matches.
_WORD_BOUNDARY = regex.compile(r"(?wV1)\b")


@dataclass(frozen=True, slots=True)
class Token:
    """A lowercase word token and its code-point range in the NFC text."""

    text: str
    start: int
    end: int


def nfc(text: str) -> str:
    """Unicode NFC normal form."""
    return unicodedata.normalize("NFC", text)


def lower_chars(text: str) -> str:
    """Per-character Unicode lowercase (a deliberate approximation of case folding)."""
    if text.isascii():  # the same result, at C speed: ASCII lowercases one char to one char
        return text.lower()
    return "".join(ch.lower() for ch in text)


def _has_alnum(segment: str) -> bool:
    if segment.isalnum():  # a whole word: the common case, at C speed
        return True
    return len(segment) > 1 and any(ch.isalnum() for ch in segment)


def segments(text: str) -> list[tuple[str, int, int]]:
    """UAX-29 word segments of NFC ``text`` with offsets; only segments with an alphanumeric."""
    out: list[tuple[str, int, int]] = []
    pos = 0
    for piece in _WORD_BOUNDARY.split(text):
        end = pos + len(piece)
        if piece and _has_alnum(piece):
            out.append((piece, pos, end))
        pos = end
    return out


def tokenize(text: str) -> list[Token]:
    """Tokens of ``text`` with offsets into ``nfc(text)``."""
    normal = nfc(text)
    return [Token(lower_chars(seg), start, end) for seg, start, end in segments(normal)]


def token_texts(text: str) -> list[str]:
    """Just the token strings of ``text`` (the lexical score's input)."""
    normal = nfc(text)
    return [lower_chars(seg) for seg, _, _ in segments(normal)]
