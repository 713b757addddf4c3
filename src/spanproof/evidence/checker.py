"""The deterministic checker (SPEC §5.3): a record beside its passages → label + five checks.

Each check is passed or failed with a note and the passage sentence it relied on (the sentence
that covers the record's subject and endpoint best):

* **negation** — the direction the record states against the passage's negation and direction
  cues (:mod:`spanproof.verify.gates` lists: "not", "no significant", "did not", "failed to"...;
  when a sentence has words of both directions, its first direction word leads).
  An increase or decrease fails against a negated sentence, or one whose direction words are
  only of the opposite class; ``no_effect`` fails against a sentence without negation;
  ``association`` fails against a negated sentence or one without an association or direction cue.
* **species** — species and model-system lexicon (human, patients, mice, rat, zebrafish, in vitro,
  cell lines...). Fails when the record's species names nothing known, names a species the
  passages lack, or drops an in-vitro qualifier the passages carry.
* **treatment** — every dose number in the record's treatment is among the passages' numerics and
  at least half of its other words (stemmed) are in the passages.
* **endpoint** — every content word of the endpoint, stemmed, is in the passages.
* **scope** — the passage sentence hedges ("may", "suggests"), narrows ("some", "a subgroup") or
  names a population ("older", "women", "obese") that the record's statement, scope and
  species leave out.

Label: ``insufficiently_supported`` when the passages cover less than half of the subject's or
the endpoint's content words (a passage that does not cover a record cannot contradict it);
else ``contradicted`` when negation fails; ``ambiguous`` when the sentence
relied on hedges; otherwise ``entailed``. The label does not look at the other checks: the
decision (:mod:`spanproof.evidence.decision`) forbids ``entailed`` with any failed check.

Limits: closed word lists and no parser. Negation scope is not modelled ("increased A but did not
change B" reads as negated for both), a species named only in a sentence that is not quoted is
invisible, paraphrased endpoints ("mortality" for "death") fail unless they share a stem, doses
are compared as numbers without units, and "heart failure" or "patients without diabetes" are
read as nouns, not negations (so "without" never negates here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spanproof.core.records import CheckResult, Record, Verdict
from spanproof.text.numerics import numerics
from spanproof.text.sentences import split_sentences
from spanproof.text.stems import stem
from spanproof.text.tokens import token_texts
from spanproof.verify.gates import BETTER, DOWN, UP, WORSE, direction_of, is_negation

MODEL_ID = "rules-checker-v1"

SPECIES_LEXICON: dict[str, str] = {
    **dict.fromkeys(
        ("human", "humans", "patient", "patients", "participant", "participants", "adult",
         "adults", "child", "children", "women", "men", "woman", "infants", "infant",
         "volunteers", "individuals", "people", "persons", "adolescents", "newborns",
         "neonates", "girls", "boys"), "human"),
    **dict.fromkeys(("mouse", "mice", "murine"), "mouse"),
    **dict.fromkeys(("rat", "rats"), "rat"),
    **dict.fromkeys(("zebrafish",), "zebrafish"),
    **dict.fromkeys(("drosophila", "flies"), "fly"),
    **dict.fromkeys(("yeast",), "yeast"),
    **dict.fromkeys(("pig", "pigs", "porcine", "piglets"), "pig"),
    **dict.fromkeys(("dog", "dogs", "canine"), "dog"),
    **dict.fromkeys(("monkey", "monkeys", "macaque", "macaques", "primates"), "primate"),
    **dict.fromkeys(("rabbit", "rabbits"), "rabbit"),
    **dict.fromkeys(("hamster", "hamsters"), "hamster"),
    **dict.fromkeys(("elegans", "nematode", "nematodes"), "nematode"),
    **dict.fromkeys(("animal", "animals", "mammals", "mammalian"), "animal"),
}  # fmt: skip
IN_VITRO = "in_vitro"
IN_VITRO_RE = re.compile(
    r"\b(?:in vitro|cell lines?|cultured|cell cultures?|organoids?|explants?|"
    r"in (?:[a-z]+ ){0,2}cells)\b",
    re.IGNORECASE,
)
HEDGES = frozenset(
    {"may", "might", "could", "possibly", "perhaps", "suggest", "suggests", "suggested",
     "suggesting", "appear", "appears", "appeared", "likely", "potentially", "putative",
     "preliminary", "trend", "tended"}
)  # fmt: skip
QUANTIFIERS = frozenset({"some", "subgroup", "subgroups", "subset", "certain", "partially"})
POPULATION = frozenset(
    {"older", "elderly", "younger", "young", "aged", "male", "female", "women", "men", "obese",
     "overweight", "diabetic", "pregnant", "postmenopausal", "premenopausal", "adolescents",
     "children", "infants", "neonates", "smokers", "healthy", "hypertensive", "lean"}
)  # fmt: skip
ASSOCIATION_PREFIXES = ("associat", "correlat", "link", "predict", "relat", "risk")
STOPWORDS = frozenset(
    {"a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "with", "by", "from",
     "as", "its", "their", "this", "that", "these", "those", "was", "were", "is", "are", "be",
     "been", "had", "has", "have", "level", "levels", "significantly", "significant", "than"}
)  # fmt: skip
UNITS = frozenset(
    {"mg", "g", "kg", "µg", "μg", "ug", "ng", "ml", "l", "mmol", "µmol", "μmol", "mm", "µm",
     "μm", "nm", "iu", "units", "unit", "gy", "h", "hr", "hours", "day", "days", "d", "week",
     "weeks", "wk", "daily", "per", "dose", "doses", "m2", "twice", "once"}
)  # fmt: skip
_NOMINAL_NEGATIONS = frozenset({"failure", "failures", "without"})
_SUPPORT_THRESHOLD = 0.5


def species_modifier(tokens: Sequence[str], i: int) -> bool:
    """``adult`` in "adult (male) mice": a human word qualifying a following non-human species."""
    following = {SPECIES_LEXICON.get(t) for t in tokens[i + 1 : i + 3]} - {None, "human"}
    return SPECIES_LEXICON[tokens[i]] == "human" and bool(following)


def species_classes(text: str) -> set[str]:
    """Species and model-system classes named in ``text`` (``in_vitro`` for cells, cultures)."""
    tokens = token_texts(text)
    found = {
        SPECIES_LEXICON[t]
        for i, t in enumerate(tokens)
        if t in SPECIES_LEXICON and not species_modifier(tokens, i)
    }
    if IN_VITRO_RE.search(text):
        found.add(IN_VITRO)
    return found


def content_stems(text: str) -> list[str]:
    """Stems of ``text``'s words that carry content (no stopwords, no pure numbers)."""
    return [
        stem(t) for t in token_texts(text) if t not in STOPWORDS and any(ch.isalpha() for ch in t)
    ]


def coverage(words: Sequence[str], pool: Iterable[str]) -> float:
    """Share of ``words`` found in ``pool`` (1.0 for no words)."""
    if not words:
        return 1.0
    have = set(pool)
    return sum(1 for w in words if w in have) / len(words)


@dataclass(frozen=True, slots=True)
class Polarity:
    """What one sentence says about direction: negated, direction classes, association cue."""

    negated: bool
    directions: frozenset[str]
    association: bool
    hedged: bool


def polarity(sentence: str) -> Polarity:
    tokens = token_texts(sentence)
    negated = any(
        is_negation(t)
        and t not in _NOMINAL_NEGATIONS
        and not (t == "not" and i > 0 and tokens[i - 1] == "but")
        for i, t in enumerate(tokens)
    )
    classes = {direction_of(t) for t in tokens}
    named = [
        name
        for name, members in (("increase", {UP, BETTER}), ("decrease", {DOWN, WORSE}))
        if classes & members
    ]
    if len(named) > 1:  # both classes: the first direction word leads ("lower ..., but higher")
        first = next(c for t in tokens if (c := direction_of(t)) is not None)
        named = ["increase" if first in (UP, BETTER) else "decrease"]
    directions = frozenset(named)
    association = any(t.startswith(ASSOCIATION_PREFIXES) for t in tokens)
    return Polarity(negated, directions, association, any(t in HEDGES for t in tokens))


def _sentences(passages: Sequence[str]) -> list[str]:
    out = [s.text for p in passages for s in split_sentences(p)]
    return out or [p for p in passages if p.strip()]


def focus_sentence(record: Record, passages: Sequence[str]) -> str:
    """The passage sentence covering the record's endpoint and subject best (first on ties)."""
    wanted = content_stems(record.fields.endpoint) + content_stems(record.fields.subject)
    best, best_score = "", -1.0
    for sentence in _sentences(passages):
        score = coverage(wanted, content_stems(sentence))
        if score > best_score:
            best, best_score = sentence, score
    return best


def check_negation(record: Record, sentence: str) -> CheckResult:
    direction = record.fields.direction
    pol = polarity(sentence)
    ok, note = True, f"passage agrees with {direction}"
    if direction in ("increase", "decrease"):
        opposite = "decrease" if direction == "increase" else "increase"
        if pol.negated:
            ok, note = False, f"record states an {direction}; the passage negates it"
        elif direction not in pol.directions:
            reverse = opposite in pol.directions
            ok = False
            note = (
                f"record states an {direction}; the passage states a {opposite}"
                if reverse
                else f"record states an {direction}; the passage states no such direction"
            )
    elif direction == "no_effect" and not pol.negated:
        ok, note = False, "record states no effect; the passage states an effect"
    elif direction == "association" and (pol.negated or not (pol.association or pol.directions)):
        ok, note = False, "record states an association; the passage negates or lacks it"
    elif direction == "none":
        note = "record states no direction"
    return CheckResult("negation", ok, note, sentence)


def _species_quote(sentences: Sequence[str], fallback: str) -> str:
    return next((s for s in sentences if species_classes(s)), fallback)


def check_species(record: Record, passages: Sequence[str], sentence: str) -> CheckResult:
    wanted = species_classes(record.fields.species)
    sentences = _sentences(passages)
    have: set[str] = set()
    for s in sentences:
        have |= species_classes(s)
    quote = _species_quote(sentences, sentence)
    if not wanted:
        note = f"record species {record.fields.species!r} names no known species or system"
        return CheckResult("species", False, note, quote)
    missing = sorted(wanted - have)
    if missing:
        named = ", ".join(sorted(have)) or "none"
        note = f"record species {', '.join(missing)} not in the passage (passage: {named})"
        return CheckResult("species", False, note, quote)
    if IN_VITRO in have and IN_VITRO not in wanted:
        return CheckResult("species", False, "the passage is in vitro; the record drops it", quote)
    return CheckResult("species", True, f"passage names {', '.join(sorted(wanted))}", quote)


def check_treatment(record: Record, passages: Sequence[str], sentence: str) -> CheckResult:
    treatment = record.fields.treatment
    if not treatment.strip():
        return CheckResult("treatment", True, "no treatment recorded", sentence)
    pool_tokens = [t for p in passages for t in token_texts(p)]
    doses = numerics(token_texts(treatment), number_parts=True)
    have = set(numerics(pool_tokens, number_parts=True))
    missing = [d for d in doses if d not in have]
    if missing:
        note = f"dose {', '.join(missing)} not in the passage"
        return CheckResult("treatment", False, note, sentence)
    words = [s for s in content_stems(treatment) if s not in UNITS]
    share = coverage(words, (stem(t) for t in pool_tokens))
    if share < _SUPPORT_THRESHOLD:
        return CheckResult("treatment", False, "treatment terms not in the passage", sentence)
    return CheckResult("treatment", True, "doses and treatment terms in the passage", sentence)


def check_endpoint(record: Record, passages: Sequence[str], sentence: str) -> CheckResult:
    words = content_stems(record.fields.endpoint)
    if not words:
        return CheckResult("endpoint", False, "record has no endpoint words", sentence)
    pool = {s for p in passages for s in content_stems(p)}
    missing = [w for w in words if w not in pool]
    if missing:
        note = f"endpoint words not in the passage: {', '.join(missing)}"
        return CheckResult("endpoint", False, note, sentence)
    return CheckResult("endpoint", True, "endpoint covered by the passage", sentence)


def check_scope(record: Record, sentence: str) -> CheckResult:
    fields = record.fields
    mine = set(token_texts(" ".join((record.statement, fields.scope, fields.species))))
    theirs = token_texts(sentence)
    dropped = sorted(
        {t for t in theirs if t in HEDGES or t in QUANTIFIERS or t in POPULATION} - mine
    )
    if dropped:
        note = f"record states more broadly; passage qualifies with: {', '.join(dropped)}"
        return CheckResult("scope", False, note, sentence)
    return CheckResult("scope", True, "record keeps the passage's qualifiers", sentence)


def supported(record: Record, passages: Sequence[str]) -> bool:
    """Whether the passages cover at least half of the subject's and the endpoint's words."""
    pool = {s for p in passages for s in content_stems(p)}
    return all(
        coverage(content_stems(text), pool) >= _SUPPORT_THRESHOLD
        for text in (record.fields.subject, record.fields.endpoint)
    )


def check(record: Record, passages: Sequence[str]) -> Verdict:
    """Label and five checks for ``record`` against the passages its spans resolve to."""
    sentence = focus_sentence(record, passages)
    results = (
        check_negation(record, sentence),
        check_scope(record, sentence),
        check_species(record, passages, sentence),
        check_treatment(record, passages, sentence),
        check_endpoint(record, passages, sentence),
    )
    if not supported(record, passages):
        label = "insufficiently_supported"
    elif not results[0].passed:
        label = "contradicted"
    elif polarity(sentence).hedged:
        label = "ambiguous"
    else:
        label = "entailed"
    return Verdict(label, results, MODEL_ID)
