"""Abbreviations a text defines in place: ``tumour necrosis factor (TNF)``.

The long form is found as Schwartz and Hearst (PSB 2003) describe: the characters of the short
form, read right to left, are matched in order inside the words before the bracket, and the first
character of the short form must begin a word. Only definitions the text itself states count;
nothing here knows what an acronym usually means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spanproof.text.tokens import Token, lower_chars, tokenize

_BRACKETED = re.compile(r"\(\s*([^\s()]{2,10})\s*\)")


@dataclass(frozen=True, slots=True)
class Definition:
    """One in-place definition: the short form and the tokens of its long form."""

    short: str  # lowercase, as tokenised (``tnf``)
    long: tuple[str, ...]  # lowercase tokens of the long form (``tumour``, ``necrosis``, ...)


def _plain(short: str) -> str:
    """Letters and digits of a short form, lowercase, a plural ``s`` dropped (``ESCs``)."""
    core = short[:-1] if len(short) > 2 and short.endswith("s") and short[:-1].isupper() else short
    return "".join(ch for ch in lower_chars(core) if ch.isalnum())


def _long_form_start(short: str, words: list[Token]) -> int | None:
    """Index into ``words`` where the long form of ``short`` begins, or None."""
    text = " ".join(w.text for w in words)
    s, t = len(short) - 1, len(text) - 1
    while s >= 0:
        ch = short[s]
        while t >= 0 and (text[t] != ch or (s == 0 and t > 0 and text[t - 1].isalnum())):
            t -= 1
        if t < 0:
            return None
        s, t = s - 1, t - 1
    first_char = t + 1
    pos = 0
    for index, word in enumerate(words):
        if pos <= first_char < pos + len(word.text) + 1:
            return index
        pos += len(word.text) + 1
    return None


def definitions(text: str, tokens: list[Token] | None = None) -> tuple[Definition, ...]:
    """The abbreviations ``text`` (NFC) defines, in order of appearance.

    ``tokens`` are ``tokenize(text)`` when the caller has them already.
    """
    if "(" not in text:
        return ()
    tokens = tokenize(text) if tokens is None else tokens
    out: list[Definition] = []
    for match in _BRACKETED.finditer(text):
        short = _plain(match.group(1))
        if len(short) < 2 or not any(ch.isalpha() for ch in short):
            continue
        before = [t for t in tokens if t.end <= match.start()]
        window = before[-min(len(short) + 5, 2 * len(short)) :]
        start = _long_form_start(short, window)
        if start is None or start == len(window):
            continue
        inside = tokenize(match.group(1))
        if not inside:
            continue
        out.append(Definition(inside[0].text, tuple(w.text for w in window[start:])))
    return tuple(out)
