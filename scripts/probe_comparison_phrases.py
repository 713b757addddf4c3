"""A comparison whose other side a phrase names, restated or traded: told apart? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_comparison_phrases.py \\
        [--models v77 v78] [--n 200] [--seed 20261211] [--write docs/quality.md]

A generator the phrase reading of comparisons (score model v78) was not written from. Each case
is a sentence of a SciFact corpus abstract (60–300 characters), checked against the whole
abstract, whose comparison names its other side with a phrase: after the comparative ("S was
higher … compared with X", also "compared to", "relative to", "versus", "vs", "as compared
with", "in comparison with/to") or opening the sentence ("Compared with X, S was higher …").
S is the words before the sentence's first verb of :data:`VERBS` (at most eight, no clause
mark), X the words after the phrase up to a clause mark or a bracket (at most eight, none a
figure). Up to ``--n`` sentences, each written five ways:

* ``copied`` (true): the sentence as it stands;
* ``than`` (true): the phrase written as "than" ("S was higher … than X"), a fronted one moved
  to the end of its clause;
* ``restated`` (true): the sides traded and the comparative turned round ("X was lower … than
  S"; :data:`OPPOSITE_COMPARATIVES`);
* ``traded`` (false): the sides traded, the comparative kept ("X was higher … than S");
* ``traded, phrase kept`` (false): the same with the sentence's own phrase ("X was higher …
  compared with S").

The rewriting is mechanical: a side that is no noun phrase ("S" with a modifier the verb
list misses) gives an odd sentence, and the false claims `supported` are listed so that such
a case can be read. Reported per model and kind: how many are `supported` (true claims:
higher is better; false claims: lower), `unsupported` and `contradicted`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from _report import start_probe
from probe_word_swaps import corpus_abstracts, publish_verdicts

BEGIN, END = "<!-- comparison-phrases:begin -->", "<!-- comparison-phrases:end -->"
KINDS = ("copied", "than", "restated", "traded", "traded, phrase kept")
FALSE_KINDS = ("traded", "traded, phrase kept")
DEFAULT_SEED = 20261211
#: A comparative and the one that turns it round.
OPPOSITE_COMPARATIVES = {
    "more": "less", "less": "more", "fewer": "more", "greater": "smaller", "smaller": "greater",
    "higher": "lower", "lower": "higher", "larger": "smaller", "better": "worse",
    "worse": "better", "longer": "shorter", "shorter": "longer", "stronger": "weaker",
    "weaker": "stronger", "faster": "slower", "slower": "faster",
}  # fmt: skip
#: The verbs that end a sentence's subject.
VERBS = (
    "was", "were", "is", "are", "had", "has", "have", "showed", "show", "shows", "exhibited",
    "exhibit", "displayed", "display", "experienced", "produced", "contained", "demonstrated",
    "spent", "received", "achieved", "developed", "expressed", "required",
)  # fmt: skip
_PHRASE = (
    r"(?:as compared (?:with|to)|in comparison (?:with|to)|compared (?:with|to)|relative to"
    r"|versus|vs\.?)"
)
_COMPARATIVE = r"\b(" + "|".join(OPPOSITE_COMPARATIVES) + r")\b"
_SIDE = r"([A-Za-z][^,;:()\[\]]*?)"
_SUBJECT = re.compile(r"^" + _SIDE + r"\s+\b(" + "|".join(VERBS) + r")\b\s")
#: "S verb … comparative … phrase X" up to a clause mark, a bracket or the end.
_TRAILING = re.compile(
    _COMPARATIVE + r"([^,;:()]{0,60}?)\s+" + _PHRASE + r"\s+" + _SIDE + r"(?=\s*[,;:(\[]|\.?$)"
)
#: A preposition that opens the left side after the comparative ("lower in A compared to B").
_PLACE = re.compile(r"\b(?:in|among|for|from|at|during|after|with)\s+")
#: "Compared with X, S verb … comparative …".
_FRONTED = re.compile(r"^(" + _PHRASE + r")\s+" + _SIDE + r",\s+(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Case:
    kind: str
    claim: str
    evidence: str


#: Capitalised words kept inside a sentence (peoples and the like).
_NAMES = frozenset({"asian", "black", "white", "african", "caucasian", "european", "hispanic"})


def _short(side: str) -> bool:
    words = side.split()
    return 1 <= len(words) <= 8 and not any(ch.isdigit() for ch in side)


def _lead(side: str) -> str:
    """A side written to open a sentence: its first letter raised."""
    return side[0].upper() + side[1:]


def _inner(side: str) -> str:
    """A side written inside a sentence: its first letter lowered unless it is a name ("The
    patients" → "the patients", "CD4 cells" and "Asian patients" kept)."""
    first = side.split(maxsplit=1)[0]
    if len(first) > 1 and (first[1:].lower() != first[1:] or first.lower() in _NAMES):
        return side
    return side[0].lower() + side[1:]


def rewrite(sentence: str) -> dict[str, str] | None:
    """The sentence's five forms (:data:`KINDS`), or None when it has no comparison of the
    shapes the generator reads."""
    text = sentence.strip().rstrip(".")
    fronted = _FRONTED.match(text)
    if fronted:
        phrase, other, rest = fronted.groups()
        subject = _SUBJECT.match(rest)
        comparative = re.search(_COMPARATIVE, rest)
        if not (subject and comparative and _short(other) and _short(subject.group(1))):
            return None
        if "than" in rest.split():
            return None
        mine = subject.group(1)
        tail = rest[subject.end(1) :]
        clause_end = re.search(r"\s*[,;:(]", tail[comparative.end() - subject.end(1) :])
        cut = (
            len(tail)
            if clause_end is None
            else comparative.end() - subject.end(1) + clause_end.start()
        )
        body, after = tail[:cut], tail[cut:]
        turned = re.sub(_COMPARATIVE, lambda m: OPPOSITE_COMPARATIVES[m.group(1)], body, count=1)
        return {
            "copied": sentence.strip(),
            "than": f"{_lead(mine)}{body} than {_inner(other)}{after}.",
            "restated": f"{_lead(other)}{turned} than {_inner(mine)}{after}.",
            "traded": f"{_lead(other)}{body} than {_inner(mine)}{after}.",
            "traded, phrase kept": (
                f"{_lead(phrase.lower())} {_inner(mine)}, {_inner(other)}{tail}."
            ),
        }
    trailing = _TRAILING.search(text)
    if trailing is None or len(re.findall(_COMPARATIVE, text)) != 1 or "than" in text.split():
        return None
    comparative, between, other = trailing.group(1), trailing.group(2), trailing.group(3)
    phrase = re.search(_PHRASE, text[trailing.start() + len(comparative) + len(between) :])
    assert phrase is not None
    before, after = text[: trailing.start()], text[trailing.end() :]
    turned = OPPOSITE_COMPARATIVES[comparative.lower()]
    place = _PLACE.search(between)
    if place:  # "lower in A compared to B": the sides are A and B
        mine = between[place.end() :]
        if not (_short(mine) and _short(other)):
            return None
        head = between[: place.end()]
        return {
            "copied": sentence.strip(),
            "than": f"{before}{comparative}{between} than {other}{after}.",
            "restated": f"{before}{turned}{head}{other} than {mine}{after}.",
            "traded": f"{before}{comparative}{head}{other} than {mine}{after}.",
            "traded, phrase kept": f"{before}{comparative}{head}{other} {phrase.group(0)} {mine}"
            f"{after}.",
        }
    subject = _SUBJECT.match(text)
    if subject is None or subject.end() > trailing.start():
        return None
    mine = subject.group(1)
    if not (_short(mine) and _short(other)) or re.search(_PLACE, mine):
        return None
    verb_to_comparison = text[subject.end(1) : trailing.start()]
    middle = f"{verb_to_comparison}{comparative}{between}"
    return {
        "copied": sentence.strip(),
        "than": f"{_lead(mine)}{middle} than {_inner(other)}{after}.",
        "restated": f"{_lead(other)}{verb_to_comparison}{turned}{between} than {_inner(mine)}"
        f"{after}.",
        "traded": f"{_lead(other)}{middle} than {_inner(mine)}{after}.",
        "traded, phrase kept": f"{_lead(other)}{middle} {phrase.group(0)} {_inner(mine)}{after}.",
    }


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> dict[str, list[Case]]:
    """Up to ``n`` sentences, seeded: every sentence the generator can rewrite, in a seeded
    order, all five kinds from the same sentences."""
    found: list[tuple[dict[str, str], str]] = []
    for sentences in abstracts:
        evidence = " ".join(sentences)
        for sentence in sentences:
            if not 60 <= len(sentence) <= 300 or not sentence[0].isupper():
                continue
            forms = rewrite(sentence)
            if forms is not None:
                found.append((forms, evidence))
    random.Random(seed).shuffle(found)
    return {kind: [Case(kind, forms[kind], ev) for forms, ev in found[:n]] for kind in KINDS}


def main() -> int:
    run = start_probe(__doc__ or "", models=["v77", "v78"], n=200, seed=DEFAULT_SEED, examples=6)
    if run is None:
        return 2
    args = run.args
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    about = (
        "a SciFact abstract's sentence whose comparison names its other side with a phrase "
        '("compared with", "relative to", "versus", after the comparative or opening the '
        'sentence), copied, with the phrase written as "than", or with the sides traded and '
        "the comparative turned round (true); with the sides traded and the comparative kept, "
        'with "than" or the sentence\'s phrase (false); the whole abstract as evidence.'
    )
    publish_verdicts(
        run,
        (BEGIN, END),
        "probe_comparison_phrases.py",
        about,
        cases,
        lambda kind, case: (
            f"* {kind}: {' '.join(case.claim.split())}" if kind in FALSE_KINDS else None
        ),
        "False claims `supported` under {model}:",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
