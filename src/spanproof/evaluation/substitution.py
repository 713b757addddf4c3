"""Substitution edits for the realistic adversarial generator (issue 13): a noun phrase or an
entity of a source sentence replaced by one that nearby abstracts use.

The pure pieces the generator (:mod:`spanproof.evaluation.realistic`) and the other edits
(:mod:`spanproof.evaluation.rewrite`) share also live here: whitespace words with offsets,
content words and noun phrases (no parser: function words, common verbs and punctuation bound a
phrase), entity words (the entity gate's shapes plus lowercase drug names) and the seeded hash
every choice is made by.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from spanproof.text.abbreviations import definitions
from spanproof.text.stems import stem
from spanproof.verify.gates import DRUG_SUFFIXES, direction_of, entity_shape, is_negation


@dataclass(frozen=True, slots=True)
class Edit:
    """An edited sentence and a note of what changed."""

    claim: str
    detail: str


def seeded_hash(*parts: object) -> int:
    """A stable 64-bit hash of the parts (every choice between applicable edits uses it)."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "little")


HEADINGS = frozenset(
    {
        "BACKGROUND", "OBJECTIVE", "OBJECTIVES", "METHODS", "METHOD", "RESULTS", "RESULT",
        "CONCLUSION", "CONCLUSIONS", "INTRODUCTION", "PURPOSE", "AIM", "AIMS", "DESIGN", "SETTING",
        "SETTINGS", "PARTICIPANTS", "INTERVENTION", "INTERVENTIONS", "MEASUREMENTS", "MEASUREMENT",
        "MAIN", "OUTCOME", "OUTCOMES", "MEASURES", "FINDINGS", "INTERPRETATION", "CONTEXT",
        "IMPORTANCE", "EXPOSURE", "EXPOSURES", "PATIENTS", "SUBJECTS", "MATERIALS", "AND", "OF",
        "STUDY", "DATA", "SOURCES", "SOURCE", "SIGNIFICANCE", "RATIONALE", "FUNDING", "METHODOLOGY",
        "PRINCIPAL", "SELECTION", "EXTRACTION", "SYNTHESIS", "REVIEW", "LIMITATIONS", "RELEVANCE",
        "SUMMARY", "OBSERVATIONS", "CLINICAL", "TRIAL", "TRIALS", "REGISTRATION", "ANALYSIS",
        "POPULATION", "PRIMARY", "SECONDARY", "KEY", "HYPOTHESIS", "EVIDENCE", "QUESTION",
        "STATISTICAL", "ABSTRACT", "MEASURE", "SAMPLE", "SAMPLES", "SUBJECT", "INDEX", "TESTS",
        "TEST", "&"
    }
)  # fmt: skip
# --------------------------------------------------------------------------- words

STOPWORDS = frozenset(
    {
        "a", "about", "above", "after", "again", "against", "all", "also", "although", "am",
        "among", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being",
        "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing",
        "down", "during", "each", "either", "et", "al", "etc", "few", "for", "from", "further",
        "had", "has", "have", "having", "here", "how", "however", "i", "if", "in", "into", "is",
        "it", "its", "itself", "less", "many", "may", "might", "more", "most", "much", "must",
        "neither", "no", "nor", "not", "of", "off", "on", "once", "one", "only", "or", "other",
        "our", "out", "over", "own", "per", "same", "several", "should", "since", "so", "some",
        "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
        "those", "though", "through", "thus", "to", "too", "two", "under", "until", "up", "upon",
        "us", "very", "via", "was", "we", "were", "what", "when", "where", "whereas", "which",
        "while", "who", "whom", "whose", "why", "will", "with", "within", "without", "would", "yet",
        "vs", "versus", "million", "billion", "thousand", "hundred", "three", "four", "five", "six",
        "seven", "eight", "nine", "ten", "twice", "half", "percent"
    }
)  # fmt: skip
#: Words that are never a phrase's head or modifier (verbs and function-like words).
VERB_WORDS = frozenset(
    {
        "show", "shows", "showed", "shown", "suggest", "suggests", "suggested", "indicate",
        "indicates", "indicated", "demonstrate", "demonstrates", "demonstrated", "reveal",
        "reveals", "revealed", "remain", "remains", "remained", "appear", "appears", "appeared",
        "occur", "occurs", "occurred", "exist", "exists", "become", "becomes", "became", "seem",
        "seems", "provide", "provides", "provided", "require", "requires", "include", "includes",
        "including", "contain", "contains", "involve", "involves", "represent", "represents",
        "play", "plays", "lead", "leads", "result", "results", "affect", "affects", "cause",
        "causes", "exhibit", "exhibits", "display", "displays", "undergo", "undergoes", "express",
        "expresses", "lack", "lacks", "use", "uses", "used", "using", "compared", "observed",
        "found", "find", "finds", "report", "reports", "reported", "respectively", "whether",
        "both", "either", "significant", "significantly"
    }
)  # fmt: skip
_LY_NOUNS = frozenset({"family", "assembly", "supply", "anomaly", "early", "daily", "weekly",
                       "monthly", "yearly", "elderly", "italy", "july", "poly"})  # fmt: skip
_WORD = re.compile(r"(?<!\S)[(\[{\"'“‘]*(\S*?)[.,;:)\]}\"'”’!?]*(?!\S)")


class Word(NamedTuple):
    """A whitespace word with its punctuation stripped: ``core`` = ``text[start:end]``."""

    start: int
    end: int
    core: str


def words(text: str) -> list[Word]:
    """Whitespace words of ``text`` without leading brackets/quotes and trailing punctuation."""
    return [Word(m.start(1), m.end(1), m.group(1)) for m in _WORD.finditer(text) if m.group(1)]


@lru_cache(maxsize=1 << 18)
def direction_class(low: str) -> str | None:
    return direction_of(low)


@lru_cache(maxsize=1 << 18)
def _content(core: str) -> bool:
    """A word that may be part of a noun phrase: letters only, not a function or verb word."""
    low = core.lower()
    if not core.isalpha() or low in STOPWORDS or low in VERB_WORDS:
        return False
    if len(core) == 1:
        return core.isupper()  # "T cells", "B cells"
    if low.endswith("ly") and low not in _LY_NOUNS:
        return False
    return not (is_negation(low) or direction_class(low) is not None)


def phrases(text: str, ws: Sequence[Word] | None = None) -> Iterator[tuple[int, int]]:
    """Word index ranges ``[i, j)`` of runs of two or three content words joined by single
    spaces (no punctuation between them)."""
    ws = words(text) if ws is None else ws
    for i in range(len(ws)):
        if not _content(ws[i].core):
            continue
        for j in range(i + 1, min(i + 3, len(ws))):
            if text[ws[j - 1].end : ws[j].start] != " " or not _content(ws[j].core):
                break
            yield i, j + 1


def participle(core: str) -> bool:
    return len(core) > 4 and core.lower().endswith(("ed", "ing"))


def _stop_like(core: str) -> bool:
    """A function word or common verb: it bounds a noun phrase (a direction noun such as "loss"
    or an adverb does not: the phrase may go on through it)."""
    low = core.lower()
    return low in STOPWORDS or low in VERB_WORDS


def noun_phrases(text: str, ws: Sequence[Word] | None = None) -> list[tuple[int, int]]:
    """Word ranges ``[i, j)`` of whole noun phrases of two or three content words: maximal runs
    (bounded by punctuation or ordinary words), trailing participles dropped ("patients
    treated" → "patients")."""
    ws = words(text) if ws is None else ws
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(ws):
        if not _content(ws[i].core):
            i += 1
            continue
        j = i + 1
        while j < len(ws) and text[ws[j - 1].end : ws[j].start] == " " and _content(ws[j].core):
            j += 1
        k = j
        while k > i and participle(ws[k - 1].core):
            k -= 1
        before = i == 0 or text[ws[i - 1].end : ws[i].start] != " " or _stop_like(ws[i - 1].core)
        after = (
            k < j
            or j == len(ws)
            or text[ws[j - 1].end : ws[j].start] != " "
            or _stop_like(ws[j].core)
        )
        if 2 <= k - i <= 3 and before and after:
            out.append((i, k))
        i = j
    return out


def phrase_key(ws: Sequence[Word], i: int, j: int) -> tuple[str, ...]:
    return tuple(w.core.lower() for w in ws[i:j])


def _variant(a: str, b: str) -> bool:
    """Same word up to inflection or British/American spelling ("tumour"/"tumors")."""

    def norm(w: str) -> str:
        return stem(
            w.replace("our", "or").replace("ae", "e").replace("oe", "e").replace("ise", "ize")
        )

    if min(len(a), len(b)) == 1 and a[0] == b[0]:
        return True  # "H pylori" and "Helicobacter pylori": an initial
    common = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return norm(a) == norm(b) or (common >= 5 and common >= 0.7 * min(len(a), len(b)))


def with_article(text: str, start: int, replacement: str) -> str:
    """``text[:start]`` with a trailing "a"/"an" agreeing with ``replacement``."""
    head = text[:start]
    match = re.search(r"\b([Aa])(n?) $", head)
    if not match:
        return head
    an = replacement[:1].lower() in "aeiou"
    return head[: match.start()] + match.group(1) + ("n" if an else "") + " "


# --------------------------------------------------------------------------- phrase substitution


#: Modifiers too vague or too scalar to make a substitution ("lowest risk" is a direction).
_GENERIC = frozenset(
    {
        "new", "novel", "first", "second", "third", "last", "same", "different", "similar",
        "several", "various", "many", "multiple", "total", "overall", "major", "minor", "main",
        "high", "low", "higher", "lower", "highest", "lowest", "greater", "greatest", "larger",
        "largest", "smaller", "smallest", "least", "fewer", "better", "worse", "best", "worst",
        "early", "earlier", "later", "latest", "younger", "older", "youngest", "oldest", "recent",
        "current", "previous", "prior", "further", "additional", "other", "certain", "specific",
        "general", "common", "rare", "important", "potential", "possible", "significant",
        "relative", "absolute", "positive", "negative", "normal", "abnormal", "whole", "entire",
        "large", "small", "long", "short", "full", "partial"
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PhraseVocabulary:
    """Corpus statistics the phrase edit consults: collocation and word document frequencies,
    and for each head noun the modifiers seen before it in two-word collocations."""

    phrase_df: dict[tuple[str, ...], int]
    word_df: dict[str, int]
    n_docs: int
    modifiers: dict[str, frozenset[str]]
    verbs: frozenset[str] = frozenset()
    min_phrase_df: int = 2

    @classmethod
    def build(
        cls,
        phrase_df: dict[tuple[str, ...], int],
        word_df: dict[str, int],
        n_docs: int,
        verbs: frozenset[str] = frozenset(),
    ) -> PhraseVocabulary:
        mods: dict[str, set[str]] = {}
        for key, df in phrase_df.items():
            if len(key) == 2 and df >= 2:
                mods.setdefault(key[1], set()).add(key[0])
        frozen = {head: frozenset(m) for head, m in mods.items()}
        return cls(phrase_df, word_df, n_docs, frozen, verbs)

    def is_phrase(self, key: tuple[str, ...]) -> bool:
        """A collocation of nouns and modifiers (no word of it is mostly a verb in the corpus)."""
        if any(w in self.verbs for w in key):
            return False
        return self.phrase_df.get(key, 0) >= self.min_phrase_df

    def specific(self, word: str, share: float = 0.03) -> bool:
        """A word rare enough to carry content (in at most ``share`` of the documents)."""
        return word not in _GENERIC and self.word_df.get(word, 0) <= share * self.n_docs

    def same_kind(self, head: str, other: str, shared: int = 3) -> bool:
        """Two head nouns that at least ``shared`` modifiers precede alike ("homocysteine" and
        "folate" after "plasma", "serum", "total"): words of one kind."""
        return (
            len(self.modifiers.get(head, frozenset()) & self.modifiers.get(other, frozenset()))
            >= shared
        )


def _window_vocab(window: str) -> tuple[set[str], set[str]]:
    lows = {w.core.lower() for w in words(window)}
    return lows, {stem(w) for w in lows}


def _rule(p: tuple[str, ...], r: tuple[str, ...], vocab: PhraseVocabulary) -> int | None:
    """0: same head noun, other modifiers; 1: same modifier, another head of the same kind
    (two words each, same grammatical number)."""
    if p == r or len(r) not in (2, 3):
        return None
    if r[-1] == p[-1]:
        return 0
    if len(p) == len(r) == 2 and r[0] == p[0] and r[1].endswith("s") == p[1].endswith("s"):
        return 1 if vocab.same_kind(p[1], r[1]) else None
    return None


def _fair_swap(
    p: tuple[str, ...],
    r: tuple[str, ...],
    window: tuple[set[str], set[str]],
    vocab: PhraseVocabulary,
) -> bool:
    """The new words are specific, absent from the window and not a variant of a dropped word."""
    new = [w for w in r if w not in p]
    dropped = [w for w in p if w not in r]
    if not new or not dropped or not any(vocab.specific(w, 0.01) for w in new):
        return False
    if any(w in vocab.verbs for w in r):
        return False
    if not any(vocab.specific(w) for w in dropped):
        return False
    lows, stems_ = window
    for w in new:
        if not vocab.specific(w) or w in lows or stem(w) in stems_:
            return False
        if any(_variant(w, d) for d in dropped):
            return False
    return True


_Candidate = tuple[int, tuple[str, ...], str]  # (rank, lowercase words, surface)


@dataclass(frozen=True, slots=True)
class PhrasePool:
    """Replacement collocations (surface forms, best first), indexed by head and first word."""

    by_head: dict[str, tuple[_Candidate, ...]]
    by_first: dict[str, tuple[_Candidate, ...]]

    @classmethod
    def of(cls, surfaces: Sequence[str]) -> PhrasePool:
        head: dict[str, list[_Candidate]] = {}
        first: dict[str, list[_Candidate]] = {}
        seen: set[tuple[str, ...]] = set()
        for rank, surface in enumerate(surfaces):
            key = tuple(surface.lower().split())
            if key in seen or len(key) not in (2, 3):
                continue
            seen.add(key)
            head.setdefault(key[-1], []).append((rank, key, surface))
            first.setdefault(key[0], []).append((rank, key, surface))
        return cls({k: tuple(v) for k, v in head.items()}, {k: tuple(v) for k, v in first.items()})

    def candidates(self, p: tuple[str, ...]) -> list[_Candidate]:
        """Collocations that share the head or the first word of ``p``, best first."""
        found = {c[0]: c for c in (*self.by_head.get(p[-1], ()), *self.by_first.get(p[0], ()))}
        return [found[rank] for rank in sorted(found)]


def substitute_phrase(
    sentence: str, window: str, pool: PhrasePool, vocab: PhraseVocabulary, key: str = ""
) -> Edit | None:
    """Replace a noun phrase of ``sentence`` with a collocation from ``pool`` (the nearest other
    abstracts' phrases) that shares its head noun ("regulatory T cells" → "natural killer
    cells") or, failing any, its modifier ("insulin resistance" → "insulin secretion").

    The phrase must be a whole noun phrase and a corpus collocation, and every new word must be
    specific and absent from ``window`` (its stems too). None when nothing fits.
    """
    ws = words(sentence)
    win = _window_vocab(window)
    best: list[tuple[int, int, int, int, str]] = []  # (rule, pool rank, i, j, replacement)
    for i, j in noun_phrases(sentence, ws):
        p = phrase_key(ws, i, j)
        if not vocab.is_phrase(p):
            continue
        for rank, r, surface in pool.candidates(p):
            rule = _rule(p, r, vocab)
            if rule is not None and _fair_swap(p, r, win, vocab):
                best.append((rule, rank, i, j, surface))
                break
    if not best:
        return None
    top = min(b[0] for b in best)
    options = sorted(b for b in best if b[0] == top)
    _, _, i, j, surface = options[seeded_hash(key, sentence, "phrase") % len(options)]
    start, end = ws[i].start, ws[j - 1].end
    if start == 0:
        surface = surface[0].upper() + surface[1:]
    claim = with_article(sentence, start, surface) + surface + sentence[end:]
    return Edit(claim, f"{sentence[start:end]} -> {surface}")


# --------------------------------------------------------------------------- entities

#: Lowercase drug-name endings unambiguous enough to name a drug ("metformin", "rituximab").
_DRUG_ENDINGS = (
    *(s for s in DRUG_SUFFIXES if s not in {"tide", "amine", "done", "irin"}),
    "quine", "glutide", "aspirin",
)  # fmt: skip


#: Statistical abbreviations: names of measures, not of things a claim is about.
_STATISTICS = frozenset(
    {
        "CI", "CIs", "SD", "SE", "SEM", "OR", "ORs", "HR", "HRs", "RR", "RRs", "IQR", "ANOVA",
        "ARR", "RRR", "NNT", "ICC", "ROC", "AUC", "NS", "P",
    }
)  # fmt: skip
_ENTITY_CHARS = re.compile(r"[\w+\-′']+")


@lru_cache(maxsize=1 << 18)
def entity_kind(surface: str, first: bool) -> str | None:
    """The shape of an entity word (the entity gate's shapes, plus lowercase ``drug`` names), or
    None for compounds such as "TNF-induced" and for ordinary words."""
    parts = surface.split("-")
    if len(parts) > 1 and any(p.isalpha() and p.islower() and len(p) >= 3 for p in parts):
        return None  # "TNF-induced", "anti-PD-1": a compound, not a name
    if not _ENTITY_CHARS.fullmatch(surface):
        return None
    if surface.isalpha() and surface.islower():
        return "drug" if len(surface) >= 7 and surface.endswith(_DRUG_ENDINGS) else None
    shape = entity_shape(surface, first)
    if shape == "name" and not surface.lower().endswith(_DRUG_ENDINGS):
        return None  # capitalised words are mostly places, methods and headings
    return shape


def entity_words(sentence: str, ws: Sequence[Word] | None = None) -> list[tuple[int, str]]:
    """Indices (into ``words(sentence)``) and shapes of the entity words of ``sentence``; aliases
    defined in place ("(TNF)") and heading words are skipped."""
    ws = words(sentence) if ws is None else ws
    out = []
    for index, w in enumerate(ws):
        shape = entity_kind(w.core, index == 0)
        if shape is None or w.core in HEADINGS or w.core in _STATISTICS:
            continue
        if sentence[w.start - 1 : w.start] == "(" and sentence[w.end : w.end + 1] == ")":
            continue
        out.append((index, shape))
    return out


def _context(ws: Sequence[Word], k: int, step: int) -> str | None:
    """The nearest ordinary content word from word ``k`` in direction ``step`` (within 3)."""
    for n in range(k + step, k + 4 * step, step):
        if not 0 <= n < len(ws):
            return None
        low = ws[n].core.lower()
        if low.isalpha() and low not in STOPWORDS:
            return low
    return None


@dataclass
class EntityContexts:
    """For each entity (lowercase), the content words nearest to its mentions on either side.

    Entities of one kind share contexts ("levels of IL-6", "IL-8 levels"; "patients with
    COVID-19"), so the cosine of two profiles tells a same-kind substitute from an arbitrary one.
    """

    profiles: dict[str, Counter[str]] = field(default_factory=dict)
    _norms: dict[str, float] = field(default_factory=dict)

    def add(self, sentence: str, ws: Sequence[Word]) -> list[tuple[int, str]]:
        """Count the contexts of the sentence's entities; return them (``entity_words``)."""
        found = entity_words(sentence, ws)
        for k, _ in found:
            profile = self.profiles.setdefault(ws[k].core.lower(), Counter())
            for tag, step in (("L", -1), ("R", 1)):
                word = _context(ws, k, step)
                if word is not None:
                    profile[tag + word] += 1
        return found

    def _norm(self, entity: str) -> float:
        if entity not in self._norms:
            profile = self.profiles.get(entity, Counter())
            self._norms[entity] = math.sqrt(sum(c * c for c in profile.values()))
        return self._norms[entity]

    def similarity(self, a: str, b: str) -> float:
        """Cosine of the two entities' context profiles (0 when either is unknown)."""
        pa, pb = self.profiles.get(a.lower()), self.profiles.get(b.lower())
        if not pa or not pb:
            return 0.0
        if len(pb) < len(pa):
            pa, pb = pb, pa
        dot = sum(c * pb[f] for f, c in pa.items() if f in pb)
        return dot / (self._norm(a.lower()) * self._norm(b.lower()))


_GREEK = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "κ": "kappa", "ε": "epsilon"}


def mix_up_entity(sentence: str, window: str, key: str = "") -> Edit | None:
    """Replace one entity of ``sentence`` (every mention of it) with another entity of the same
    shape that the *window* also mentions and the sentence does not: two genes, drugs or
    acronyms of one passage mixed up, so the new word is in the evidence, only not here.

    Candidates with the same letter prefix ("IL-6" → "IL-10") come first, then in window order.
    """
    ws, win = words(sentence), words(window)
    mine = entity_words(sentence, ws)
    present = [ws[k].core for k, _ in mine]
    aliases = _aliases(window)
    pool: dict[str, tuple[str, str]] = {}
    for k, shape in entity_words(window, win):
        surface = win[k].core
        if not any(_same_entity(surface, e) for e in present):
            pool.setdefault(_compact(surface), (surface, shape))
    options: list[tuple[int, int, str, str]] = []  # (tier, rank, old, new)
    for k, shape in mine:
        old = ws[k].core
        for rank, (surface, pool_shape) in enumerate(pool.values()):
            if pool_shape != shape or _aliased(old, surface, aliases):
                continue
            tier = 0 if _prefix(surface) == _prefix(old) and _prefix(surface) else 1
            options.append((tier, rank, old, surface))
    if not options:
        return None
    old, new = _choose(options, key, sentence, ("mix-up",), ("mix-up",))
    return Edit(_replace_words(sentence, old, new), f"{old} -> {new} (both in the window)")


def entity_mentions(sentence: str) -> list[tuple[int, int, str, str, str]]:
    """(start, end, surface, key, shape) of each entity word of ``sentence``
    (:func:`entity_words`); the key is the same for spellings of one entity ("IL6", "IL-6")."""
    ws = words(sentence)
    return [
        (ws[k].start, ws[k].end, ws[k].core, _compact(ws[k].core), shape)
        for k, shape in entity_words(sentence, ws)
    ]


def one_entity(text: str, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` name one thing: spellings of one entity, or names ``text`` gives
    as one ("interleukin-18 (IL18)")."""
    return _same_entity(a, b) or _aliased(a, b, _aliases(text))


def _choose(
    options: Sequence[tuple[Any, ...]],
    key: str,
    sentence: str,
    first: tuple[str, ...],
    second: tuple[str, ...],
) -> tuple[str, str]:
    """(old, new) from ``options`` — tuples that start with a tier and end with the entity
    replaced and its replacement: the entity to replace by a seeded hash, then one of the (at
    most three) first-sorted options of its best tier."""
    olds = sorted({o[-2] for o in options})
    old = olds[seeded_hash(key, sentence, *first) % len(olds)]
    mine = sorted(o for o in options if o[-2] == old)
    mine = [o for o in mine if o[0] == mine[0][0]][:3]
    new: str = mine[seeded_hash(key, sentence, old, *second) % len(mine)][-1]
    return old, new


_ALIAS_PAIR = re.compile(r"([^\s()]+)\s+\(([^\s()]+)\)")


def _aliases(window: str) -> list[tuple[str, str]]:
    """Names the window gives as one thing: "X (Y)" side by side, and the abbreviations it
    defines ("interleukin-18 (IL18)")."""
    pairs = [(m.group(1), m.group(2)) for m in _ALIAS_PAIR.finditer(window)]
    pairs += [(" ".join(d.long), d.short) for d in definitions(window)]
    return pairs


def _aliased(a: str, b: str, aliases: Sequence[tuple[str, str]]) -> bool:
    """Whether the window names ``a`` and ``b`` as one thing (either way round)."""
    for x, y in aliases:
        if (_same_entity(a, x) and _same_entity(b, y)) or (
            _same_entity(a, y) and _same_entity(b, x)
        ):
            return True
        if _compact(x).endswith(_compact(a)) and _same_entity(b, y):  # "human Interleukin-18"
            return True
        if _compact(x).endswith(_compact(b)) and _same_entity(a, y):
            return True
    return False


@lru_cache(maxsize=1 << 16)
def _compact(text: str) -> str:
    """Letters and digits only, Greek letters spelled out ("IL-1β" and "IL1beta" agree)."""
    return "".join(_GREEK.get(ch, ch) for ch in text.lower() if ch.isalnum())


def _prefix(surface: str) -> str:
    match = re.match(r"[A-Za-z]+", surface)
    return match.group().lower() if match else ""


def _replace_words(sentence: str, old: str, new: str) -> str:
    pattern = re.compile(r"(?<![\w-])" + re.escape(old) + r"(?![\w-])")
    return pattern.sub(lambda _: new, sentence)


#: Names of one thing in everyday use: swapping them is no hallucination.
_ALIASES = ({"covid19", "covid", "sarscov2", "2019ncov", "ncov", "sarscov", "hcov19"},)


def _same_entity(a: str, b: str) -> bool:
    """Spellings of one entity ("HCV" and "HCV-RNA", "IL6" and "IL-6", "COVID-19" and
    "SARS-CoV-2")."""
    ca, cb = _compact(a), _compact(b)
    if any(ca in group and cb in group for group in _ALIASES):
        return True
    return ca == cb or (min(len(ca), len(cb)) >= 2 and (ca in cb or cb in ca))


def substitute_entity(
    sentence: str,
    window: str,
    pool: Sequence[tuple[str, str]],
    key: str = "",
    similarity: Callable[[str, str], float] | None = None,
    min_similarity: float = 0.0,
) -> Edit | None:
    """Replace one entity of ``sentence`` (every mention of it) with a same-shaped entity from
    ``pool`` ((surface, shape) from the nearest other abstracts, best first) that the window
    lacks.

    Candidates with the same letter prefix ("IL-6" → "IL-10") come first, then the most similar
    by ``similarity`` (context profiles), which must reach ``min_similarity``.
    """
    ws, win = words(sentence), words(window)
    window_words = {_compact(w.core) for w in win}
    window_entities = [win[k].core for k, _ in entity_words(window, win)]
    options: list[tuple[int, float, int, str, str]] = []  # (tier, -similarity, rank, old, new)
    for k, shape in entity_words(sentence, ws):
        old = ws[k].core
        for rank, (surface, pool_shape) in enumerate(pool):
            if pool_shape != shape or _compact(surface) in window_words:
                continue
            if any(_same_entity(surface, e) for e in window_entities):
                continue
            sim = similarity(old, surface) if similarity else 1.0
            if sim < min_similarity or _same_entity(surface, old):
                continue
            tier = 0 if _prefix(surface) == _prefix(old) and _prefix(surface) else 1
            options.append((tier, -round(sim, 6), rank, old, surface))
    if not options:
        return None
    old, new = _choose(options, key, sentence, ("entity",), ())  # best tier, most similar first
    return Edit(_replace_words(sentence, old, new), f"{old} -> {new}")
