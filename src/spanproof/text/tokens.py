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


#: What may stand right before a decimal written without its leading zero (".001" in "P < .001",
#: "P=.04", "(.85"): a space, an opening bracket, a comparison or a list mark. Not a letter, a
#: digit or a closing bracket: "cells.5" and "(OMIM 608612).12" (a footnote) are no decimals.
_BEFORE_LEADING_DOT = frozenset(" \t\n\u00a0\u2009\u202f([=<>\u2264\u2265\u00b1~\u2248,;:")
#: Digit-group separators other than the comma: a space, a no-break space, a thin space
#: ("671 945", "10\u2009000": the Lancet's and the SI's way of writing thousands).
_GROUP_SPACES = frozenset(" \u00a0\u2009\u202f")
#: What may stand right before a figure grouped by spaces: not a digit, a dot, a hyphen or a
#: slash ("aged 60-64 100 patients" holds no 64,100).
_BEFORE_GROUPS = _BEFORE_LEADING_DOT - {","}


#: A minus sign: the hyphen-minus and the mathematical minus (U+2212), one sign (v19).
MINUS = frozenset("-\u2212")


def _digits(segment: str) -> bool:
    return segment.isascii() and segment.isdigit()


def _signed(text: str, lead: int) -> int:
    """Where a figure that begins at ``lead`` begins with its minus sign (v19): one character
    earlier when a minus stands there after what may stand before a figure, else ``lead``."""
    if (
        lead >= 1
        and text[lead - 1] in MINUS
        and (lead == 1 or text[lead - 2] in _BEFORE_LEADING_DOT)
    ):
        return lead - 1
    return lead


def number_segments(text: str, signs: bool = False) -> list[tuple[str, int, int]]:
    """:func:`segments`, with a figure that word segmentation splits kept as one segment
    (score models from v17): a decimal without its leading zero (".001"), a decimal point
    written as a middle dot ("2·9", the Lancet's style) and thousands grouped by spaces
    ("671 945", "10\u2009000"). :func:`spanproof.text.numerics.canonical_number` reads each as
    the number it writes, so "P < .001" and "P < 0.001", "2·9" and "2.9", "671 945" and
    "671,945" are one figure. ``signs`` (score models from v19): a figure keeps the minus sign
    before it ("−1.5", "(-0.3"), where what stands before the sign may stand before a figure
    (not a letter, a digit or a closing bracket: "IL-6" and "5-10" hold no negative figure).
    """
    plain = segments(text)
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(plain):
        seg, start, end = plain[i]
        if not _digits(seg):
            if signs and seg[:1].isdigit():  # "1.5", "1,000"
                start = _signed(text, start)
            out.append((text[start:end], start, end))
            i += 1
            continue
        lead = start
        if (
            start >= 1
            and text[start - 1] == "."
            and (start == 1 or text[start - 2] in _BEFORE_LEADING_DOT)
        ):
            start = lead = start - 1  # ".001"
        j = i + 1
        after = plain[j] if j < len(plain) else None
        if after and after[1] == end + 1 and text[end] == "\u00b7" and _digits(after[0]):
            end = plain[j][2]  # "2·9"
            j += 1
        elif (
            len(seg) <= 3
            and text[start] != "."
            and (start == 0 or text[start - 1] in _BEFORE_GROUPS)
        ):
            while (
                j < len(plain)
                and plain[j][1] == end + 1
                and text[end] in _GROUP_SPACES
                and len(plain[j][0]) == 3
                and _digits(plain[j][0])
            ):
                end = plain[j][2]  # "671 945"
                j += 1
        if signs:
            start = _signed(text, lead)
        out.append((text[start:end], start, end))
        i = j
    return out


def tokenize(text: str, number_formats: bool = False, signs: bool = False) -> list[Token]:
    """Tokens of ``text`` with offsets into ``nfc(text)``; ``number_formats``: figures as
    :func:`number_segments` keeps them (score models from v17), ``signs``: with their minus
    signs (v19)."""
    normal = nfc(text)
    found = number_segments(normal, signs) if number_formats else segments(normal)
    return [Token(_signed_text(seg), start, end) for seg, start, end in found]


def token_texts(text: str, number_formats: bool = False, signs: bool = False) -> list[str]:
    """Just the token strings of ``text`` (the lexical score's input); ``number_formats`` and
    ``signs`` as for :func:`tokenize`."""
    normal = nfc(text)
    found = number_segments(normal, signs) if number_formats else segments(normal)
    return [_signed_text(seg) for seg, _, _ in found]


def _signed_text(segment: str) -> str:
    """A segment's token text: lowercase, and a figure's math minus (U+2212) written "-", so
    "−1.5" and "-1.5" are one token (only :func:`number_segments` with ``signs`` keeps one)."""
    low = lower_chars(segment)
    return "-" + low[1:] if low[:1] == "\u2212" else low
