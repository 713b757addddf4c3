"""Which side of a figure or an event a claim puts what it states (score model v68).

Two readings of order that closeness misses when a claim is worded otherwise than its span:

* **A bound turned round** (:func:`bound_opposed`): the claim bounds a figure from one side and
  the span, wherever it writes the same figure, bounds it from the other — "households that
  earn above £30,000" against "households earning under £30,000", "Python versions up to and
  including 3.9" against "Python 3.9 or newer", "no more than three tablets" against "at least
  three tablets". A bound is a phrase right before the figure (:data:`BELOW_BEFORE`,
  :data:`ABOVE_BEFORE`; a currency sign may stand between) or "or"/"and" and a word right after
  it, past at most :data:`UNIT_REACH` words of its unit ("3.9 or newer", "65 years and over").
  A figure the span writes once without a bound, or with a bound of the claim's side, is not
  read as turned round: the span may state both. "Over" before a span of time is read as a
  bound only after "for", "aged", "of", "after" or "lasting" ("the dynamics over 8 months" is
  "during"). The claim is read as the polarity gate reads a reversal (`contradicted` where
  the gate's rules make it so), as the edit check reads "less" put for "more" in a near copy.
* **Before and after traded** (:func:`order_opposed`): the claim puts something "before" (or
  "after") what follows the word, and the span writes the other word before the same thing —
  "collected after the first antibiotic dose" against "drawn before the first antibiotic
  dose", "before relocating to Lisbon in 1988" against "after moving to Lisbon in 1988". What
  follows is the next :data:`ANCHOR_WORDS` content words, up to a comma or a sentence's end;
  two of them must be shared (one, when the claim has only one). A claim or a span that writes
  both words at the same place ("before and after treatment") is not read.
"""

from __future__ import annotations

import re
from functools import lru_cache

from spanproof.verify.edits import Text, prepare_text

#: Phrases right before a figure that put the true value below it ("under 30", "up to 24").
BELOW_BEFORE = frozenset(
    {("less", "than"), ("fewer", "than"), ("lower", "than"), ("at", "most"), ("up", "to"),
     ("under",), ("below",), ("no", "more", "than"), ("not", "more", "than"),
     ("up", "to", "and", "including")}
)  # fmt: skip
#: Phrases right before a figure that put the true value above it ("over 30", "at least 24").
ABOVE_BEFORE = frozenset(
    {("more", "than"), ("greater", "than"), ("higher", "than"), ("at", "least"), ("over",),
     ("above",), ("exceeding",), ("no", "less", "than"), ("no", "fewer", "than"),
     ("not", "less", "than")}
)  # fmt: skip
#: The word after "or" (or "and") written after a figure, and the side it puts the value on.
AFTER_SIDES = {
    **dict.fromkeys(
        ("newer", "later", "older", "more", "above", "over", "higher", "greater", "longer"),
        "above"),
    **dict.fromkeys(
        ("earlier", "younger", "less", "fewer", "below", "under", "lower", "shorter"), "below"),
}  # fmt: skip
#: Words after "and" that bound the figure before ("65 and over"); after "or", any of
#: :data:`AFTER_SIDES` does ("3.9 or newer").
_AND_SIDES = frozenset({"over", "above", "under", "below", "older", "younger"})
#: The most words of a unit between a figure and a bound written after it ("65 years or older").
UNIT_REACH = 3
#: What may stand between a bound's words and its figure besides spaces: a currency sign.
_GAP = re.compile(r"\s*[£$€¥]?\s*")
#: The words of order, each with the other.
_ORDER = {"before": "after", "after": "before"}
#: How many content words after "before" or "after" name what it is before or after.
ANCHOR_WORDS = 4
_CLAUSE_ENDS = frozenset({",", ";", ":", ".", "!", "?"})


@lru_cache(maxsize=1 << 12)
def _prepared(text: str) -> Text:
    return prepare_text(text, number_formats=True, spellings=True, signs=True, forms=True)


def _words(text: Text) -> list[str]:
    return [t.text for t in text.tokens]


#: Units of time: "over" before a span of time is as often "during" ("the dynamics over 8
#: months") as "more than", and is read as a bound only after one of :data:`_OVER_LEADS`.
_TIMES = frozenset(
    {"second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks",
     "month", "months", "year", "years", "decade", "decades"}
)  # fmt: skip
#: Words after which "over" and a span of time is "more than" ("for over 8 months").
_OVER_LEADS = frozenset({"for", "aged", "of", "after", "lasting", "lasted", "last"})


def _side_before(text: Text, words: list[str], k: int) -> str | None:
    if (
        k >= 1
        and words[k - 1] == "over"
        and k + 1 < len(words)
        and words[k + 1] in _TIMES
        and (k < 2 or words[k - 2] not in _OVER_LEADS)
    ):
        return None  # "over 8 months": a span of time, not a bound
    for n in (4, 3, 2, 1):
        if k - n < 0:
            continue
        gaps = (text.text[text.tokens[m].end : text.tokens[m + 1].start] for m in range(k - n, k))
        if not all(_GAP.fullmatch(g) for g in gaps):
            continue
        phrase = tuple(words[k - n : k])
        if phrase in BELOW_BEFORE:
            return "below"
        if phrase in ABOVE_BEFORE:
            return "above"
    return None


def _side_after(text: Text, words: list[str], k: int) -> str | None:
    for m in range(k + 1, min(k + 2 + UNIT_REACH, len(words) - 1)):
        word = words[m]
        if word in ("or", "and"):
            follows = words[m + 1]
            if word == "and" and follows not in _AND_SIDES:
                return None
            return AFTER_SIDES.get(follows)
        if text.keys[m].startswith("#") or word in _CLAUSE_ENDS:
            return None
    return None


def bound_sides(text: str) -> dict[str, set[str | None]]:
    """Each figure's key (as the edit check keys it) and the sides its bounds put it on, None
    for a mention without a bound."""
    prepared = _prepared(text)
    words = _words(prepared)
    out: dict[str, set[str | None]] = {}
    for k, key in enumerate(prepared.keys):
        if key.startswith("#"):
            side = _side_before(prepared, words, k) or _side_after(prepared, words, k)
            out.setdefault(key, set()).add(side)
    return out


def bound_opposed(claim: str, span: str) -> str | None:
    """The figure (its key) that the claim bounds from one side and the span, at each mention,
    from the other; None when there is none."""
    theirs = bound_sides(span)
    for key, ours in bound_sides(claim).items():
        sides = ours - {None}
        stated = theirs.get(key, set())
        if len(sides) == 1 and stated and None not in stated and not sides & stated:
            return key
    return None


def _anchor(text: Text, words: list[str], k: int) -> list[str]:
    keys: list[str] = []
    for m in range(k + 1, len(words)):
        if words[m] in _CLAUSE_ENDS or words[m] in _ORDER:
            break
        if text.content[m]:
            keys.append(text.keys[m])
            if len(keys) == ANCHOR_WORDS:
                break
    return keys


def _orders(text: str) -> list[tuple[str, frozenset[str]]]:
    prepared = _prepared(text)
    words = _words(prepared)
    out = []
    for k, word in enumerate(words):
        if word in _ORDER:
            if k + 2 < len(words) and words[k + 1] in ("and", "or") and words[k + 2] in _ORDER:
                continue  # "before and after treatment": both
            if k >= 2 and words[k - 1] in ("and", "or") and words[k - 2] in _ORDER:
                continue
            out.append((word, frozenset(_anchor(prepared, words, k))))
    return out


def order_opposed(claim: str, span: str) -> str | None:
    """The claim's "before" or "after" whose anchor the span puts on the other side (and never
    on the claim's), or None."""
    theirs = _orders(span)
    for word, anchor in _orders(claim):
        need = min(2, len(anchor))
        if not need:
            continue
        same = any(w == word and len(anchor & a) >= need for w, a in theirs)
        other = any(w == _ORDER[word] and len(anchor & a) >= need for w, a in theirs)
        if other and not same:
            return word
    return None
