"""Numeric atoms per SPEC §4.4, for the numeric gate.

Month names map to month numbers (an explicit table); any token with a digit is split on
``-``, ``/`` and ``:``; digit-group commas are stripped; each part that parses as a float is
canonicalised through ``float`` so ``500``, ``500.0`` and ``0500`` are the same atom.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

MONTHS: dict[str, int] = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
}

_SPLIT = re.compile(r"[-/:]")
_MINUS = frozenset("-\u2212")
_DIGIT_OR_DOT = frozenset("0123456789.")
#: "twofold" … "tenfold", and the figure each writes (v18's edit check and v19's gate).
FOLD_WORDS = {
    f"{word}fold": n
    for n, word in enumerate("two three four five six seven eight nine ten".split(), start=2)  # noqa: SIM905
}
_FOLD_ATOMS = {word: repr(float(n)) for word, n in FOLD_WORDS.items()}
#: Cardinal number words a figure may be written as (score model v47's ``number_words``).
#: "one" is not among them: it is as often a pronoun or an article ("one of the", "no one",
#: "one study") as a count.
_UNITS = "two three four five six seven eight nine".split()  # noqa: SIM905
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()  # noqa: SIM905
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()  # noqa: SIM905
NUMBER_WORDS = {
    **{w: n for n, w in enumerate(_UNITS, start=2)},
    **{w: n for n, w in enumerate(_TEENS, start=10)},
    **{w: 10 * n for n, w in enumerate(_TENS, start=2)},
}
_WORD_ATOMS = {word: repr(float(n)) for word, n in NUMBER_WORDS.items()}
#: What makes a number word part of a larger or a fractional figure ("twenty five", "two
#: hundred", "two thirds", "one and a half"): such a figure is left out, not misread.
_FIGURE_PARTS = frozenset(
    {"one", "hundred", "hundreds", "thousand", "thousands", "million", "millions", "billion",
     "billions", "half", "halves", "third", "thirds", "quarter", "quarters", "fourth",
     "fourths", "fifth", "fifths", "sixth", "sixths", "seventh", "sevenths", "eighth",
     "eighths", "ninth", "ninths", "tenth", "tenths", "point", "and", *_UNITS, *_TEENS, *_TENS}
)  # fmt: skip
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NUMBER_UNIT = re.compile(r"([0-9]+(?:\.[0-9]+)?)[^\W\d_]+")
_DIGIT_GROUP_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
#: A space, no-break space or thin space between digit groups ("671 945"), and a middle dot
#: as a decimal point ("2·9"): only :func:`spanproof.text.tokens.number_segments` (score models
#: from v17) keeps such a figure in one token; word segmentation splits it.
_DIGIT_GROUP_SPACE = re.compile(r"(?<=\d)[ \u00a0\u2009\u202f](?=\d{3}(?!\d))")
_MIDDLE_DOT_DECIMAL = re.compile(r"(?<=\d)\u00b7(?=\d)")


def canonical_number(text: str) -> str | None:
    """Canonical string of a numeric part, or None when it does not parse as a finite float."""
    cleaned = _DIGIT_GROUP_SPACE.sub("", _DIGIT_GROUP_COMMA.sub("", text))
    cleaned = _MIDDLE_DOT_DECIMAL.sub(".", cleaned)
    # ASCII digits only, no underscores: what a strict float parser (Rust's f64) accepts.
    if not _FLOAT.fullmatch(cleaned):
        return None
    try:
        value = float(cleaned)
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    if value == 0.0:
        value = 0.0  # -0.0 and 0.0 are one atom
    return repr(value)


def numerics(
    tokens: Iterable[str],
    *,
    months_need_digits: bool = False,
    number_parts: bool = False,
    fold_words: bool = False,
    number_words: bool = False,
) -> list[str]:
    """Numeric atoms of lowercase tokens, in order (duplicates kept).

    Args:
        tokens: lowercase word tokens.
        months_need_digits: score model v2 only. The seed's table maps every month name, so the
            modal verb "may" reads as month 5 and trips the gate; with this flag a month name
            counts only next to a number ("5 March", "March 2020"), and "may" only before one
            ("May 2020"), so "group 2 may benefit" has no month.
        number_parts: score model v2 only. The seed drops a digit-bearing part that does not
            parse as a number, so "10mg" has no numeric; with this flag a number followed by
            letters counts ("10mg" → 10, "5x" → 5). Identifiers that start with letters
            ("nr5a2", "h1n1") stay out: their digits are names, not quantities.
        fold_words: score models from v19. A number word joined to "fold" ("twofold",
            "tenfold") is its figure, as "2-fold" is, so "2-fold" against "twofold" keeps the
            gate shut and "threefold" against "2-fold" trips it.
        number_words: score models from v47. A cardinal number word from "two" to "ninety"
            (:data:`NUMBER_WORDS`) is its figure, so "four hours" against "one hour" trips the
            gate and "4 hours" against "four hours" keeps it shut. A number word next to
            another part of a figure ("twenty five", "two hundred", "two thirds", "two and a
            half") is left out: the figure is not read rather than misread.
    """
    seq = list(tokens)
    out: list[str] = []
    for i, token in enumerate(seq):
        month = MONTHS.get(token)
        if month is not None:
            if not months_need_digits or _month_in_date(seq, i):
                out.append(repr(float(month)))
            continue
        if fold_words and (fold := _FOLD_ATOMS.get(token)) is not None:
            out.append(fold)
            continue
        if number_words and (word := _WORD_ATOMS.get(token)) is not None:
            if not _in_larger_figure(seq, i):
                out.append(word)
            continue
        if not any(ch.isdigit() for ch in token):
            continue
        # A figure with its minus sign ("−1.5"): one token only where the segmentation keeps
        # the sign (score models from v19); word segmentation never starts a token with one.
        sign = "-" if token[:1] in _MINUS and token[1:2] in _DIGIT_OR_DOT else ""
        for n, part in enumerate(_SPLIT.split(token[len(sign) :])):
            atom = canonical_number(sign + part if n == 0 else part)
            if atom is not None:
                out.append(atom)
            elif number_parts and (unit := _NUMBER_UNIT.fullmatch(part)):
                lead = canonical_number(unit.group(1))
                if lead is not None:
                    out.append(lead)
    return out


def _in_larger_figure(seq: list[str], i: int) -> bool:
    """The number word ``seq[i]`` is a part of a larger or fractional figure."""
    before = seq[i - 1] if i > 0 else ""
    after = seq[i + 1] if i + 1 < len(seq) else ""
    return after in _FIGURE_PARTS or before in _FIGURE_PARTS - {"and"}


def _has_digit(seq: list[str], j: int) -> bool:
    return 0 <= j < len(seq) and any(ch.isdigit() for ch in seq[j])


def _month_in_date(seq: list[str], i: int) -> bool:
    if seq[i] == "may":
        return _has_digit(seq, i + 1)
    return _has_digit(seq, i - 1) or _has_digit(seq, i + 1)


def with_magnitudes(atoms: Iterable[str]) -> set[str]:
    """``atoms`` and the magnitude of each negative one: what a span's figures cover under score
    models from v19, where a figure keeps its minus sign. A claim's "fell by 2.3 mmHg" states
    the span's "−2.3 mmHg" in words; its "−2.3" is still no "2.3" (a sign the span lacks)."""
    found = set(atoms)
    return found | {a[1:] for a in found if a.startswith("-")}


def numeric_gate_trips(claim_numerics: Iterable[str], span_numerics: Iterable[str]) -> bool:
    """True when any claim numeric is absent from the span's numerics (∀-coverage)."""
    span_set = set(span_numerics)
    return any(n not in span_set for n in claim_numerics)
