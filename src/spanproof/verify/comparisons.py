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

Score model v78 (``phrases``) reads the other ways a comparison names its right side: a phrase
in the place of "than" ("higher mortality compared with controls", "relative to", "versus",
"in comparison with": :data:`COMPARED`), and one that opens the clause before the comparative's
("Compared with children, adults over 65 years were more susceptible to infection": the right
side is "children", the left "adults over 65 years"). Before v78 such a sentence held no
comparison, so a claim trading its sides ("Children were more susceptible … than adults over
65") passed the gate and one restating it ("Children were less susceptible …") tripped the
polarity gate on "less" against "more".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
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
_OPENING = frozenset("([")
#: Words that, right after a comparative, open the left side of the comparison ("higher in
#: men than in women", "more common among smokers than among non-smokers").
_PLACES = frozenset(["in", "among", "for", "with", "at", "during", "after", "before"])
_STOP = STOP_WORDS | {"times", "fold", "significantly", "much", "far", "slightly", "even"}
#: Score model v78: phrases that name a comparison's right side as "than" does, after the
#: comparative ("higher mortality compared with controls") or opening the clause before it
#: ("Compared with controls, patients had higher mortality").
COMPARED = (
    ("in", "comparison", "with"), ("in", "comparison", "to"), ("as", "compared", "with"),
    ("as", "compared", "to"), ("compared", "with"), ("compared", "to"), ("relative", "to"),
    ("versus",), ("vs",),
)  # fmt: skip

_FIGURE_PAIRING = frozenset({"versus", "vs"})
#: The words of :data:`COMPARED`'s phrases that are not function words.
PHRASE_WORDS = frozenset({"compared", "comparison", "relative", "versus", "vs"})

Side = frozenset[str]
#: (direction, left side, right side): one comparison of :func:`comparisons`.
Comparison = tuple[str, Side, Side]


def comparisons(
    sentence: str, figures: bool = False, no_bounds: bool = False, phrases: bool = False
) -> tuple[Comparison, ...]:
    """(direction, left side, right side) of each comparison in ``sentence``; direction "up"
    or "down". Sides are singular-folded lower-case content words (with ``figures``, score
    model v41, also the figures: "slept 8 hours" and "slept under 6 hours" differ by them); a
    side without any is no comparison. With ``no_bounds`` (v45) a comparative whose "than" a
    figure follows bounds that figure ("fewer than 6 hours", "more than 50%") and compares no
    two sides. With ``phrases`` (v78) a phrase of :data:`COMPARED` after the comparative, or
    one opening the clause before it, names the right side as "than" does."""
    return tuple(found[1:] for found in placed_comparisons(sentence, figures, no_bounds, phrases))


def placed_comparisons(
    sentence: str, figures: bool = False, no_bounds: bool = False, phrases: bool = False
) -> tuple[tuple[int, str, Side, Side], ...]:
    """:func:`comparisons`, each with the offset of its comparative in NFC ``sentence``
    first."""
    text = nfc(sentence)
    words = _hyphen_joined(text, segments(text))
    lowered = [lower_chars(word) for word, _, _ in words]
    out = []
    for k, low in enumerate(lowered):
        direction = "up" if low in UP else "down" if low in DOWN else None
        if direction is None:
            continue
        reach = min(len(words), k + 2 + MAX_GAP)
        than = next(
            (
                (t, t + size - 1)
                for t in range(k + 1, reach)
                for size in ([1] if lowered[t] == "than" else _phrase_at(lowered, t, phrases))
            ),
            None,
        )
        if than is None:
            right = _opened_by_a_phrase(text, words, lowered, k, figures) if phrases else None
            if right:
                left = (
                    _side(text, words, range(k + 1, len(words)), figures, brackets=True)
                    if k + 1 < len(words) and lowered[k + 1] in _PLACES
                    else _left_of(text, words, k, figures)
                )
                if left:
                    out.append((words[k][1], direction, left, right))
            continue
        first, last = than
        if no_bounds and last + 1 < len(words) and any(ch.isdigit() for ch in words[last + 1][0]):
            continue
        after = lowered[k + 1] if k + 1 < first else ""
        # "higher in men than in women": the sides are the places compared
        left = (
            _side(text, words, range(k + 1, first), figures)
            if after in _PLACES
            else _left_of(text, words, k, figures)
            if phrases
            else _side(text, words, range(k - 1, -1, -1), figures)
        )
        right = _side(text, words, range(last + 1, len(words)), figures, brackets=phrases)
        if left and right:
            out.append((words[k][1], direction, left, right))
        place = _later_place(lowered, k, first) if phrases and after not in _PLACES else None
        if place is not None and right:  # v78: "a longer period in A than B", read both ways
            placed = _side(text, words, range(place + 1, first), figures)
            if placed and placed != left:
                out.append((words[k][1], direction, placed, right))
    return tuple(out)


def _later_place(lowered: list[str], k: int, first: int) -> int | None:
    """A word of :data:`_PLACES` one or two words after comparative ``k`` and before its
    "than" at ``first``, not followed by a word ending in "-ing" ("more effective in blocking
    transmission than" compares no places): "a longer period in adipocytes relative to
    undifferentiated cells" may compare the places, or ("a greater reduction in HbA1c than
    placebo") the subjects; score model v78 reads both."""
    for p in range(k + 2, min(first - 1, k + 4)):
        if lowered[p] in _PLACES and not lowered[p + 1].endswith("ing"):
            return p
    return None


def _left_of(text: str, words: list[tuple[str, int, int]], k: int, figures: bool) -> Side:
    """The left side before comparative ``k``, none when a clause mark stands right before it
    ("Compared with baseline, fewer patients …": "baseline" is no left side). Score model v78;
    before it the word before the mark was read as one."""
    if k and any(ch in _BREAKS for ch in text[words[k - 1][2] : words[k][1]]):
        return frozenset()
    return _side(text, words, range(k - 1, -1, -1), figures)


def _phrase_at(lowered: list[str], t: int, phrases: bool) -> list[int]:
    """The length of the :data:`COMPARED` phrase that starts at word ``t`` (as a one-item
    list), else an empty list; always empty without ``phrases``. "versus" and "vs" right after
    a figure pair figures ("lower rates (4.83 vs. 6.25 events)"), not sides: no phrase."""
    if not phrases:
        return []
    if t and lowered[t] in _FIGURE_PAIRING and any(ch.isdigit() for ch in lowered[t - 1]):
        return []
    return next(
        ([len(p)] for p in COMPARED if tuple(lowered[t : t + len(p)]) == p),
        [],
    )


def _opened_by_a_phrase(
    text: str, words: list[tuple[str, int, int]], lowered: list[str], k: int, figures: bool
) -> Side | None:
    """The right side named by a :data:`COMPARED` phrase that opens the clause just before the
    comparative ``k``'s own ("Compared with children, adults … were more susceptible"): the
    content words from the phrase to its clause mark; None when no such phrase stands there."""
    clause = [0] * len(words)
    for i in range(1, len(words)):
        between = text[words[i - 1][2] : words[i][1]]
        clause[i] = clause[i - 1] + (1 if any(ch in _BREAKS for ch in between) else 0)
    for t in range(k):
        if clause[t] != clause[k] - 1 or (t and clause[t - 1] == clause[t]):
            continue  # the phrase opens the clause right before the comparative's
        size = _phrase_at(lowered, t, True)
        if size:
            side = _side(text, words, range(t + size[0], len(words)), figures, brackets=True)
            return side or None
    return None


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
    text: str,
    words: list[tuple[str, int, int]],
    order: range,
    figures: bool = False,
    brackets: bool = False,
) -> Side:
    """Content words (and with ``figures`` the figures) from the comparison outwards in
    ``order`` up to a clause mark; with ``brackets`` (score model v78, read forwards) also up
    to an opening bracket: "higher in NSCLC compared to IPF (p=0.023) and controls" has
    "IPF" on its right side, not the bracket's figures and what follows it."""
    breaks = _BREAKS | _OPENING if brackets else _BREAKS
    found: set[str] = set()
    previous: int | None = None
    for i in order:
        word, start, end = words[i]
        if previous is not None:
            between = text[end:previous] if order.step < 0 else text[previous:start]
            if any(ch in breaks for ch in between):
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
    claim: Comparison,
    span: Comparison,
    figure_sides: bool = False,
    marked: bool = False,
) -> bool:
    """Whether the claim's left side is the span's right one and its right side the span's
    left one, on their distinctive words; with ``figure_sides`` (score model v45), on their
    figures alone when each of the four sides holds one: "Participants who slept 8 hours" and
    "those who slept fewer than 6 hours" are told apart by 8 and 6, whatever word the sides
    share ("participants", which the other side writes "those"). (Under v45 a bound such as
    "fewer than 6" is no comparison of its own: :func:`comparisons`, ``no_bounds``.) With
    ``marked`` (v78), also where each comparison's sides differ by words of one side only
    ("never smokers" against "smokers") and those words changed sides."""
    if figure_sides:
        figures = [_figures_of(side) for side in (claim[1], claim[2], span[1], span[2])]
        if all(figures):
            claim = (claim[0], figures[0], figures[1])
            span = (span[0], figures[2], figures[3])
    cl, cr = claim[1] - claim[2], claim[2] - claim[1]
    sl, sr = span[1] - span[2], span[2] - span[1]
    if bool(cl & sr) and bool(cr & sl) and not (cl & sl) and not (cr & sr):
        return True
    if not marked:
        return False
    # v78: sides told apart by a word only one of them holds ("never smokers" / "smokers",
    # "patients without diabetes" / "patients with diabetes"): that word changed sides, and
    # the unmarked sides share a word.
    return (not cr and not sl and bool(cl & sr) and bool(claim[2] & span[1])) or (
        not cl and not sr and bool(cr & sl) and bool(claim[1] & span[2])
    )


def traded(
    claim: Comparison,
    span: Comparison,
    figure_sides: bool = False,
    marked: bool = False,
) -> bool:
    """Whether the two comparisons state one relation with the sides traded, in the same
    direction (so with the opposite meaning)."""
    return claim[0] == span[0] and _sides_traded(claim, span, figure_sides, marked)


def kept(
    claim: Comparison,
    span: Comparison,
    figure_sides: bool = False,
    marked: bool = False,
) -> bool:
    """Whether the two comparisons state one relation, in the same direction with the same
    sides (on their distinctive words, as :func:`traded` reads them): the claim keeps it."""
    return claim[0] == span[0] and _sides_traded(
        claim, (span[0], span[2], span[1]), figure_sides, marked
    )


def restated(
    claim: Comparison,
    span: Comparison,
    figure_sides: bool = False,
    marked: bool = False,
) -> bool:
    """Whether the two comparisons state one relation with the sides traded *and* the
    direction turned round — the same statement: "those who slept 8 hours had lower cortisol
    than those who slept under 6" is "those who slept under 6 hours had higher cortisol than
    those who slept 8" (score model v41)."""
    return claim[0] != span[0] and _sides_traded(claim, span, figure_sides, marked)


@lru_cache(maxsize=1 << 14)
def comparison_reversed(
    claim: str, span: str, figures: bool = False, figure_sides: bool = False, phrases: bool = False
) -> bool:
    """Whether a sentence of ``span`` states one of ``claim``'s comparisons with its sides
    traded (:func:`traded`); ``figures`` (score model v41): sides told apart by their figures
    too; ``figure_sides`` (v45): by their figures alone where every side has one; ``phrases``
    (v78): comparisons named by a :data:`COMPARED` phrase too."""
    return _any_pair(claim, span, figures, traded, figure_sides, phrases)


@lru_cache(maxsize=1 << 14)
def comparison_restated(
    claim: str, span: str, figure_sides: bool = False, phrases: bool = False
) -> bool:
    """Whether a sentence of ``span`` states one of ``claim``'s comparisons with its sides
    traded and its direction turned round (:func:`restated`), sides told apart by their
    figures too: the claim restates it, so its comparative ("lower") against the span's
    ("higher") is no reversal (score model v41); ``figure_sides`` (v45): sides told apart by
    their figures alone where every side has one; ``phrases`` (v78): comparisons named by a
    :data:`COMPARED` phrase too."""
    return _any_pair(claim, span, True, restated, figure_sides, phrases, unopposed=phrases)


def comparison_kept(claim: str, window: str, figure_sides: bool = False) -> frozenset[str]:
    """The sides' words of each of ``claim``'s comparisons that a sentence of ``window`` states
    as the same relation (:func:`kept`) or restates (:func:`restated`), ``phrases`` read (score
    model v78): the words a claim may move from "Compared with children, adults …" to
    "… than children" without trading roles. Empty when no comparison is kept."""
    return _sides_related(claim, window, figure_sides, (kept, restated))


def comparison_traded(claim: str, window: str, figure_sides: bool = False) -> frozenset[str]:
    """The sides' words of each of ``claim``'s comparisons that a sentence of ``window`` states
    with its sides traded (:func:`traded`), ``phrases`` read (score model v78): "Never smokers
    had a higher risk … than smokers" moves "never" across "Smokers had a higher risk …
    relative to never smokers". Empty when none is traded."""
    return _sides_related(claim, window, figure_sides, (traded,))


def restated_comparatives(claim: str, window: str, figure_sides: bool = False) -> frozenset[int]:
    """The offsets (in NFC ``claim``) of the claim's comparatives whose comparison a sentence of
    ``window`` restates with its sides traded and its direction turned round (:func:`restated`,
    ``phrases`` read; score model v78): "lower" in "Never smokers had a lower risk … than
    smokers" against "Smokers had a higher risk … than never smokers"."""
    theirs = _stated(window, True, figure_sides, True)
    return frozenset(
        at
        for at, direction, left, right in placed_comparisons(claim, True, figure_sides, True)
        if any(restated((direction, left, right), s, figure_sides, True) for s in theirs)
        and not _opposed((direction, left, right), theirs, figure_sides)
    )


def side_words(text: str, spans: Iterable[tuple[int, int]]) -> frozenset[str]:
    """The words of NFC ``text`` covering character ``spans`` as a side holds them (score model
    v78): hyphen-joined ("protein-coated", "YANA-C"), lower-case, a figure as written and any
    other word stemmed — what the edit check's tokens, cut at hyphens, are to be compared on."""
    words = _hyphen_joined(text, segments(text))
    found: set[str] = set()
    for start, end in spans:
        for word, first, last in words:
            if first < end and start < last:
                low = lower_chars(word)
                found.add(low if any(ch.isdigit() for ch in low) else stem(low))
    return frozenset(found)


def _sides_related(
    claim: str,
    window: str,
    figure_sides: bool,
    relations: tuple[Callable[[Comparison, Comparison, bool, bool], bool], ...],
) -> frozenset[str]:
    mine = comparisons(claim, True, figure_sides, True)
    theirs = _stated(window, True, figure_sides, True)
    return frozenset(
        word
        for c in mine
        if any(relation(c, s, figure_sides, True) for s in theirs for relation in relations)
        for word in c[1] | c[2]
    )


def _any_pair(
    claim: str,
    span: str,
    figures: bool,
    relation: Callable[[Comparison, Comparison, bool, bool], bool],
    figure_sides: bool = False,
    phrases: bool = False,
    unopposed: bool = False,
) -> bool:
    """Whether ``relation`` holds between a comparison of ``claim`` and one of a sentence of
    ``span``; with ``unopposed`` (v78's restatements), only for a claim comparison that no
    comparison of ``span`` states with the same sides the other way (:func:`_opposed`)."""
    mine = comparisons(claim, figures, figure_sides, phrases)
    if not mine:
        return False
    theirs = _stated(span, figures, figure_sides, phrases)
    return any(
        relation(c, s, figure_sides, phrases)
        and not (unopposed and _opposed(c, theirs, figure_sides))
        for s in theirs
        for c in mine
    )


def _stated(text: str, figures: bool, figure_sides: bool, phrases: bool) -> list[Comparison]:
    """The comparisons of every sentence of ``text``."""
    return [
        s
        for sentence in split_sentences(nfc(text))
        for s in comparisons(sentence.text, figures, figure_sides, phrases)
    ]


def _opposed(claim: Comparison, theirs: Sequence[Comparison], figure_sides: bool) -> bool:
    """Whether one of ``theirs`` states ``claim``'s comparison with the same sides and the
    other direction (score model v78): then a restatement found elsewhere ("…, whereas B had a
    greater effect on C than did A") does not make up for it ("A had a greater effect on D
    than B" against "A had a smaller effect on D than B")."""
    return any(
        s[0] != claim[0] and _sides_traded(claim, (s[0], s[2], s[1]), figure_sides, True)
        for s in theirs
    )


def without_comparatives(
    directions: tuple[tuple[str, str, int], ...],
) -> tuple[tuple[str, str, int], ...]:
    """Direction cues ``(token, class, count)`` less the comparatives (:data:`UP`,
    :data:`DOWN`)."""
    return tuple(d for d in directions if d[0] not in UP and d[0] not in DOWN)
