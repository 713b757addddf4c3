"""The comparison gate (score model v32): a comparison whose two sides the claim swaps.

"Homemade cloth masks are more effective than proper surgical ones" against "… the surgical
mask was 3 times more effective in blocking transmission than the homemade mask" states the
same comparison ("more effective than") with its sides traded: the claim says the opposite of
the span. A near copy is the edit check's to read (its role swap); this gate reads a claim in
other words, which the polarity gate cannot: both sides say "more".

A comparison is a comparative word (:data:`UP` or :data:`DOWN`) followed within
:data:`MAX_GAP` words by "than". Its left side is the content words of the clause before the
comparative (back to the last comma, semicolon or colon) — or, when a preposition follows the
comparative ("higher in men than in women"), those between it and "than" — and its right side
those after "than" up to the next such mark. Sides are compared on their *distinctive* words
(those a side holds and the other does not, stemmed: "mask" in both sides of the span says
nothing of which is which). The gate trips when, for a claim comparison and a span comparison
in the same direction, the claim's left side shares a distinctive word with the span's right
side and its right side one with the span's left side, and neither shares one with the span's
side on its own side. In opposite directions a traded pair of sides is the same statement ("A
more than B" is "B less than A"), so it does not trip.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from spanproof.text.sentences import split_sentences
from spanproof.text.stems import stem
from spanproof.text.tokens import lower_chars, nfc, segments
from spanproof.verify.features import STOP_WORDS

#: Comparatives that put the left side above the right one.
UP = frozenset(
    {
        "more", "greater", "higher", "larger", "bigger", "better", "faster", "longer",
        "stronger", "older", "heavier", "wider", "later",
    }
)  # fmt: skip
#: Comparatives that put the left side below the right one.
DOWN = frozenset(
    {
        "less", "fewer", "lower", "smaller", "worse", "slower", "shorter", "weaker",
        "younger", "lighter", "narrower", "earlier",
    }
)  # fmt: skip
#: The most words between a comparative and its "than" ("more effective in blocking
#: transmission than").
MAX_GAP = 6
_BREAKS = frozenset(",;:")
#: Words that, right after a comparative, open the left side of the comparison ("higher in
#: men than in women", "more common among smokers than among non-smokers").
_PLACES = frozenset(["in", "among", "for", "with", "at", "during", "after", "before"])
_STOP = STOP_WORDS | {"times", "fold", "significantly", "much", "far", "slightly", "even"}

Side = frozenset[str]


def comparisons(
    sentence: str, figures: bool = False, no_bounds: bool = False
) -> tuple[tuple[str, Side, Side], ...]:
    """(direction, left side, right side) of each comparison in ``sentence``; direction "up"
    or "down". Sides are singular-folded lower-case content words (with ``figures``, score
    model v41, also the figures: "slept 8 hours" and "slept under 6 hours" differ by them); a
    side without any is no comparison. With ``no_bounds`` (v45) a comparative whose "than" a
    figure follows bounds that figure ("fewer than 6 hours", "more than 50%") and compares no
    two sides."""
    text = nfc(sentence)
    words = _hyphen_joined(text, segments(text))
    out = []
    for k, (word, _start, _end) in enumerate(words):
        low = lower_chars(word)
        direction = "up" if low in UP else "down" if low in DOWN else None
        if direction is None:
            continue
        than = next(
            (
                t
                for t in range(k + 1, min(len(words), k + 2 + MAX_GAP))
                if lower_chars(words[t][0]) == "than"
            ),
            None,
        )
        if than is None:
            continue
        if no_bounds and than + 1 < len(words) and any(ch.isdigit() for ch in words[than + 1][0]):
            continue
        after = lower_chars(words[k + 1][0]) if k + 1 < than else ""
        # "higher in men than in women": the sides are the places compared
        left = (
            _side(text, words, range(k + 1, than), figures)
            if after in _PLACES
            else _side(text, words, range(k - 1, -1, -1), figures)
        )
        right = _side(text, words, range(than + 1, len(words)), figures)
        if left and right:
            out.append((direction, left, right))
    return tuple(out)


def _hyphen_joined(text: str, words: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Words written with a hyphen as one word: "non-smokers" is not "smokers"."""
    out: list[tuple[str, int, int]] = []
    for word, start, end in words:
        if out and text[out[-1][2] : start] == "-":
            _, first, _ = out.pop()
            out.append((text[first:end], first, end))
        else:
            out.append((word, start, end))
    return out


def _side(
    text: str, words: list[tuple[str, int, int]], order: range, figures: bool = False
) -> Side:
    """Content words (and with ``figures`` the figures) from the comparison outwards in
    ``order`` up to a clause mark."""
    found: set[str] = set()
    previous: int | None = None
    for i in order:
        word, start, end = words[i]
        if previous is not None:
            between = text[end:previous] if order.step < 0 else text[previous:start]
            if any(ch in _BREAKS for ch in between):
                break
        previous = start if order.step < 0 else end
        low = lower_chars(word)
        if figures and any(ch.isdigit() for ch in low):
            found.add(low)
            continue
        if low in _STOP or not any(ch.isalpha() for ch in low):
            continue
        found.add(stem(low))
    return frozenset(found)


def _figures_of(side: Side) -> Side:
    return frozenset(w for w in side if any(ch.isdigit() for ch in w))


def _sides_traded(
    claim: tuple[str, Side, Side], span: tuple[str, Side, Side], figure_sides: bool = False
) -> bool:
    """Whether the claim's left side is the span's right one and its right side the span's
    left one, on their distinctive words; with ``figure_sides`` (score model v45), on their
    figures alone when each of the four sides holds one: "Participants who slept 8 hours" and
    "those who slept fewer than 6 hours" are told apart by 8 and 6, whatever word the sides
    share ("participants", which the other side writes "those"). (Under v45 a bound such as
    "fewer than 6" is no comparison of its own: :func:`comparisons`, ``no_bounds``.)"""
    if figure_sides:
        figures = [_figures_of(side) for side in (claim[1], claim[2], span[1], span[2])]
        if all(figures):
            claim = (claim[0], figures[0], figures[1])
            span = (span[0], figures[2], figures[3])
    cl, cr = claim[1] - claim[2], claim[2] - claim[1]
    sl, sr = span[1] - span[2], span[2] - span[1]
    return bool(cl & sr) and bool(cr & sl) and not (cl & sl) and not (cr & sr)


def traded(
    claim: tuple[str, Side, Side], span: tuple[str, Side, Side], figure_sides: bool = False
) -> bool:
    """Whether the two comparisons state one relation with the sides traded, in the same
    direction (so with the opposite meaning)."""
    return claim[0] == span[0] and _sides_traded(claim, span, figure_sides)


def restated(
    claim: tuple[str, Side, Side], span: tuple[str, Side, Side], figure_sides: bool = False
) -> bool:
    """Whether the two comparisons state one relation with the sides traded *and* the
    direction turned round — the same statement: "those who slept 8 hours had lower cortisol
    than those who slept under 6" is "those who slept under 6 hours had higher cortisol than
    those who slept 8" (score model v41)."""
    return claim[0] != span[0] and _sides_traded(claim, span, figure_sides)


@lru_cache(maxsize=1 << 14)
def comparison_reversed(
    claim: str, span: str, figures: bool = False, figure_sides: bool = False
) -> bool:
    """Whether a sentence of ``span`` states one of ``claim``'s comparisons with its sides
    traded (:func:`traded`); ``figures`` (score model v41): sides told apart by their figures
    too; ``figure_sides`` (v45): by their figures alone where every side has one."""
    return _any_pair(claim, span, figures, traded, figure_sides)


@lru_cache(maxsize=1 << 14)
def comparison_restated(claim: str, span: str, figure_sides: bool = False) -> bool:
    """Whether a sentence of ``span`` states one of ``claim``'s comparisons with its sides
    traded and its direction turned round (:func:`restated`), sides told apart by their
    figures too: the claim restates it, so its comparative ("lower") against the span's
    ("higher") is no reversal (score model v41); ``figure_sides`` (v45): sides told apart by
    their figures alone where every side has one."""
    return _any_pair(claim, span, True, restated, figure_sides)


def _any_pair(
    claim: str,
    span: str,
    figures: bool,
    relation: Callable[[tuple[str, Side, Side], tuple[str, Side, Side], bool], bool],
    figure_sides: bool = False,
) -> bool:
    mine = comparisons(claim, figures, figure_sides)
    if not mine:
        return False
    return any(
        relation(c, s, figure_sides)
        for sentence in split_sentences(nfc(span))
        for s in comparisons(sentence.text, figures, figure_sides)
        for c in mine
    )


def without_comparatives(
    directions: tuple[tuple[str, str, int], ...],
) -> tuple[tuple[str, str, int], ...]:
    """Direction cues ``(token, class, count)`` less the comparatives (:data:`UP`,
    :data:`DOWN`)."""
    return tuple(d for d in directions if d[0] not in UP and d[0] not in DOWN)
