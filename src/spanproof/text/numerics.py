"""Numeric atoms per SPEC §4.4, for the numeric gate.

Month names map to month numbers (an explicit table); any token with a digit is split on
``-``, ``/`` and ``:``; digit-group commas are stripped; each part that parses as a float is
canonicalised through ``float`` so ``500``, ``500.0`` and ``0500`` are the same atom.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


#: Score model v56: words that say a figure is approximate ("nearly 70 drugs", "an estimated 40
#: percent"); "close to" too (:func:`roundings`).
APPROXIMATORS = frozenset(
    {"about", "around", "approximately", "approx", "nearly", "almost", "roughly", "estimated",
     "circa", "ca", "some"}
)  # fmt: skip
#: How far an approximate figure may stand from the figure it rounds: a share of that figure.
APPROXIMATE_TOLERANCE = 0.05


_PLAIN_FIGURE = re.compile(r"[0-9]+(?:\.[0-9]+)?")


@dataclass(frozen=True, slots=True)
class Rounding:
    """How a figure is written: the unit of its last digit (10 for "70", 1,000 for "122,000",
    0.1 for "40.5") and whether an approximator comes before it."""

    unit: float
    approximate: bool


def roundings(tokens: Sequence[str]) -> dict[str, Rounding]:
    """Score model v56: each figure of ``tokens`` (its canonical atom, as :func:`numerics`
    writes it) with the unit of its last digit and whether an approximator
    (:data:`APPROXIMATORS`) comes before it; a four-digit whole number from 1800 to 2100 (a year)
    is left out, and so is a figure written twice in two ways.

    >>> r = roundings(["nearly", "70", "drugs", "and", "122,000", "deaths", "in", "2020"])
    >>> r["70.0"], r["122000.0"], "2020.0" in r
    (Rounding(unit=10.0, approximate=True), Rounding(unit=1000.0, approximate=False), False)
    """
    out: dict[str, Rounding] = {}
    seen: set[str] = set()
    for i, token in enumerate(tokens):
        atom = canonical_number(token)
        if atom is None:
            continue
        digits = _DIGIT_GROUP_SPACE.sub("", _DIGIT_GROUP_COMMA.sub("", token)).lstrip("+-")
        if not _PLAIN_FIGURE.fullmatch(digits):
            continue  # "1e-5", "10e8": written otherwise
        whole, _, fraction = digits.partition(".")
        if fraction:
            unit = 10.0 ** -len(fraction)
        else:
            if len(whole) == 4 and 1800 <= int(whole) <= 2100:
                continue
            zeros = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
            unit = 10.0**zeros
        before = tokens[i - 1] if i else ""
        close_to = i >= 2 and tokens[i - 2] == "close" and before == "to"
        rounding = Rounding(unit, before in APPROXIMATORS or close_to)
        if atom in seen and out.get(atom) != rounding:
            out.pop(atom, None)
            continue
        seen.add(atom)
        out[atom] = rounding
    return out


def rounds_to(figure: float, rounded: float, rounding: Rounding) -> bool:
    """Score model v56: whether ``rounded``, written as ``rounding`` says, is an approximate
    figure (an approximator before it) that is ``figure`` rounded to its last digit (halves
    away from zero) and within 5 % of it: "nearly 70" for 69, "an estimated 40 percent" for
    40.7 %, "about 5 mmHg" for 5.2 mmHg; not "about 40" for 44 (10 % off), not "40.8" for 40.7
    (no approximator; another figure of the same precision), not "about 0.2" for -0.2 (a sign
    flipped). A figure written without an approximator is exact: "122,000" for 122,300 is
    another figure.

    >>> rounds_to(69.0, 70.0, Rounding(10.0, True)), rounds_to(69.0, 70.0, Rounding(10.0, False))
    (True, False)
    """
    if not rounding.approximate:
        return False
    if figure in (rounded, 0.0) or (figure < 0) != (rounded < 0):
        return False  # the same figure, or a sign flipped ("0.2" for "-0.2")
    scaled = abs(figure) / rounding.unit
    nearest = math.copysign(math.floor(scaled + 0.5) * rounding.unit, figure)
    if not math.isclose(nearest, rounded, rel_tol=1e-9, abs_tol=rounding.unit * 1e-9):
        return False
    return abs(rounded - figure) <= APPROXIMATE_TOLERANCE * abs(figure)
