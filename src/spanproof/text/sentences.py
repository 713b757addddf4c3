"""Sentence splitting with code-point offsets.

A rule-based splitter tuned for scientific and news prose: it breaks after ``.``, ``!`` or ``?``
(optionally followed by closing quotes or brackets) when whitespace and an upper-case letter,
digit, quote or bracket follow, except after common abbreviations (``e.g.``, ``et al.``, ``Fig.``),
single initials, and inside decimals. Newline pairs (paragraph breaks) always end a sentence.
Offsets index the input string; each sentence is stripped of surrounding whitespace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ABBREVIATIONS = frozenset(
    {
        "e.g",
        "i.e",
        "etc",
        "et al",
        "al",
        "fig",
        "figs",
        "eq",
        "eqs",
        "ref",
        "refs",
        "vs",
        "approx",
        "ca",
        "cf",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "st",
        "no",
        "nos",
        "vol",
        "pp",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "inc",
        "ltd",
        "co",
        "corp",
        "u.s",
        "u.k",
        "resp",
        "min",
        "max",
        "sp",
        "spp",
        "var",
    }
)

_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s)|\n\s*\n")
_NEXT_START = re.compile(r"\s+[\"'“‘(\[]*[A-Z0-9\u00C0-\u024F\u0370-\u03FF]")


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    start: int
    end: int


def _word_before(text: str, end: int) -> str:
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "."):
        start -= 1
    word = text[start:end].rstrip(".").lower()
    if start >= 3 and text[start - 3 : start].lower() == "et ":
        return "et " + word
    return word


def _is_break(text: str, match: re.Match[str]) -> bool:
    token = match.group()
    if token.strip() == "":
        return True  # paragraph break
    if not _NEXT_START.match(text, match.end()):
        return False
    if token[0] != ".":
        return True
    word = _word_before(text, match.start())
    if word in ABBREVIATIONS:
        return False
    return not _is_initial(text, match.start(), word)


def _is_initial(text: str, dot: int, word: str) -> bool:
    """A single capital standing alone before the dot ("J. Doe"), not a unit ("37 °C.")."""
    if len(word) != 1 or not word.isalpha() or not text[dot - 1].isupper():
        return False
    return dot < 2 or text[dot - 2].isspace() or text[dot - 2] in ".("


def split_sentences(text: str) -> list[Sentence]:
    """Sentences of ``text`` with offsets such that ``text[s.start:s.end] == s.text``."""
    out: list[Sentence] = []
    pos = 0
    for match in _BOUNDARY.finditer(text):
        if not _is_break(text, match):
            continue
        _emit(text, pos, match.end(), out)
        pos = match.end()
    _emit(text, pos, len(text), out)
    return out


def _emit(text: str, start: int, end: int, out: list[Sentence]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        out.append(Sentence(text[start:end], start, end))
