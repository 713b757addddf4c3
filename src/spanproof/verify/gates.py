"""Score model v2 gates (SPEC §4.5): entity and polarity, each a hard cap like the numeric gate.

Entity gate: named entities, acronyms and gene/drug-style identifiers of the claim must appear in
the span. An *entity* is a claim token whose surface form is an acronym (two or more capitals),
mixes letters and digits (``BRCA1``, ``H1N1``), has a capital after its first letter (``mRNA``,
``iPSC``), is a Greek letter, or is capitalised away from the claim's first word. A claim entity is
found when the span has the same lowercase token or, for entities of three or more characters, when
it occurs in the span's letters-and-digits-only form (so ``IL6`` finds ``IL-6``).

Polarity gate: the claim and the span's best-aligned sentence disagree on negation (one negates,
the other does not) or on direction (the claim says increase where the sentence says only
decrease, or the reverse). The cues are small closed word lists, documented below.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spanproof.text.tokens import lower_chars, segments

NEGATION_WORDS = frozenset(
    {
        "not",
        "no",
        "never",
        "none",
        "neither",
        "nor",
        "without",
        "cannot",
        "nothing",
        "fail",
        "fails",
        "failed",
        "failing",
        "failure",
        "lack",
        "lacks",
        "lacked",
        "lacking",
        "absence",
        "absent",
        "unable",
        "nonsignificant",
        "insignificant",
        "unaffected",
        "unchanged",
        "unrelated",
        "independent",
    }
)
_NEGATION_SUFFIXES = ("n't", "n’t")

INCREASE_STEMS = (
    "increas",
    "higher",
    "elevat",
    "rais",
    "enhanc",
    "upregulat",
    "up-regulat",
    "greater",
    "promot",
    "augment",
    "boost",
    "rise",
    "rises",
    "rose",
    "exacerbat",
    "worsen",
    "accelerat",
    "stimulat",
    "activat",
)
DECREASE_STEMS = (
    "decreas",
    "reduc",
    "lower",
    "declin",
    "downregulat",
    "down-regulat",
    "less",
    "fewer",
    "inhibit",
    "suppress",
    "diminish",
    "attenuat",
    "impair",
    "prevent",
    "protect",
    "block",
    "slow",
    "drop",
    "fell",
    "fall",
    "loss",
    "lose",
    "alleviat",
    "ameliorat",
    "abolish",
    "deplet",
    "shorten",
)


DRUG_SUFFIXES = (
    "mab",
    "nib",
    "tinib",
    "pril",
    "sartan",
    "statin",
    "olol",
    "azole",
    "cillin",
    "mycin",
    "cycline",
    "vir",
    "floxacin",
    "parin",
    "oxetine",
    "dronate",
    "profen",
    "done",
    "pam",
    "lam",
    "zide",
    "semide",
    "formin",
    "gliptin",
    "glitazone",
    "tide",
    "platin",
    "taxel",
    "rubicin",
    "amine",
    "caine",
    "sone",
    "olone",
    "triptan",
    "setron",
    "prazole",
    "tidine",
    "vastatin",
    "irin",
)


@dataclass(frozen=True, slots=True)
class Polarity:
    negated: bool
    increase: bool
    decrease: bool


def _is_negation(token: str) -> bool:
    return token in NEGATION_WORDS or token.endswith(_NEGATION_SUFFIXES)


def polarity(tokens: Sequence[str]) -> Polarity:
    """Negation and direction cues of lowercase tokens."""
    negated = any(_is_negation(t) for t in tokens)
    increase = any(t.startswith(INCREASE_STEMS) for t in tokens)
    decrease = any(t.startswith(DECREASE_STEMS) for t in tokens)
    return Polarity(negated, increase, decrease)


def polarity_gate_trips(claim: Polarity, span: Polarity) -> bool:
    """True when negation disagrees, or the directions are opposite and not shared."""
    if claim.negated != span.negated:
        return True
    if claim.increase and not claim.decrease and span.decrease and not span.increase:
        return True
    return claim.decrease and not claim.increase and span.increase and not span.decrease


def _is_greek(ch: str) -> bool:
    return "\u0370" <= ch <= "\u03ff"


def _is_entity_surface(surface: str, first: bool) -> bool:
    letters = [ch for ch in surface if ch.isalpha()]
    if not letters:
        return False  # pure numbers belong to the numeric gate
    if any(ch.isdigit() for ch in surface):
        return True
    if len(surface) == 1 and _is_greek(surface):
        return True
    upper = sum(1 for ch in letters if ch.isupper())
    if upper >= 2 or (upper >= 1 and not surface[0].isupper()):
        return True
    if not surface[0].isupper() or len(letters) < 2:
        return False
    if not first:
        return True
    # A capitalised first word is usually just the sentence start; count it only when it has a
    # drug- or chemical-name ending.
    return len(surface) >= 6 and surface.lower().endswith(DRUG_SUFFIXES)


def entities(text: str) -> tuple[str, ...]:
    """Lowercase entity tokens of ``text`` (NFC), in order, without duplicates."""
    seen: dict[str, None] = {}
    for index, (surface, _, _) in enumerate(segments(text)):
        if _is_entity_surface(surface, index == 0):
            seen.setdefault(lower_chars(surface), None)
    return tuple(seen)


def _alnum(token: str) -> str:
    return "".join(ch for ch in token if ch.isalnum())


@dataclass(frozen=True, slots=True)
class Compact:
    """A span's letters and digits joined without separators, with its token boundaries.

    ``IL6`` is found in ``IL-6`` (a run of whole tokens), but ``CD4`` is not found in ``CD45``:
    a match must start and end on token boundaries.
    """

    text: str
    boundaries: frozenset[int]

    @classmethod
    def of(cls, tokens: Sequence[str]) -> Compact:
        parts = [_alnum(t) for t in tokens]
        bounds = {0}
        pos = 0
        for part in parts:
            pos += len(part)
            bounds.add(pos)
        return cls("".join(parts), frozenset(bounds))

    def contains_run(self, key: str) -> bool:
        start = self.text.find(key)
        while start != -1:
            if start in self.boundaries and start + len(key) in self.boundaries:
                return True
            start = self.text.find(key, start + 1)
        return False


def entity_gate_trips(
    claim_entities: Sequence[str], span_token_set: frozenset[str], span_compact: Compact
) -> bool:
    """True when some claim entity is absent from the span."""
    for entity in claim_entities:
        if entity in span_token_set:
            continue
        key = _alnum(entity)
        if len(key) >= 3 and span_compact.contains_run(key):
            continue
        return True
    return False
