"""The realistic adversarial generator (issue 13): a sentence copied from a source with one detail
changed, and the faithful restatements a fair check must keep.

Each case pairs a claim with an *evidence window*: one source sentence plus, by a seeded hash,
none, one or both of its neighbours (one to three adjacent sentences of the same abstract), so a
claim is always a near-copy of its window. Sources are the sentences of the SciFact abstracts
that claims cite and the HealthVer evidence passages (``../shared/data``; nothing is copied).

Negative kinds (the claim is not supported by the window):

* ``phrase_substitution``: a two- or three-word noun phrase (a corpus collocation) replaced by a
  collocation of the TF-IDF-nearest *other* abstracts that shares its head noun ("regulatory T
  cells" → "natural killer cells") or, failing that, its modifier; the new words are absent
  from the window.
* ``entity_substitution``: a gene, acronym, identifier or drug name replaced by one of the same
  shape from the nearest abstracts, absent from the window, whose corpus contexts resemble the
  original's (a gene for a gene, a virus for a virus).
* ``entity_mixup``: an entity replaced by another of the same shape that the window itself
  mentions (two genes or drugs of one passage mixed up): the new word is in the evidence, so a
  check that asks only whether the claim's entities occur there cannot see it.
* ``number_mixup``: a number replaced by another of the same shape (percentage, decimal, count)
  that the window states: two figures of one passage mixed up, which a check that asks only
  whether the claim's numbers occur in the evidence cannot see.
* ``cut_number_mixup``: a shortened copy (the sentence cut at the clause mark after a number)
  whose number is replaced by another of the same shape that the sentence states after the cut:
  the new figure is in the evidence *later, in order*, so an alignment can pair it with that
  later mention and read the words around it as moved.
* ``cut_entity_mixup``: the same with a gene, drug or acronym: a shortened copy whose name is
  replaced by another of the same shape that the sentence names after the cut.
* ``reattributed_number``: of two figures of one shape in one clause, each after its own noun
  ("lowered LDL by 30% and triglycerides by 15%"), the words from the first through the second's
  noun dropped, so the second figure is given to the first one's noun ("lowered LDL by 15%").
* ``carried_number``: of two figures of one shape in one clause, each *before* its own noun
  ("0.8 for men and 0.9 for women"), the words from the first figure's noun through the second
  figure dropped, so the first figure is carried on to the second one's noun ("0.8 for women").
* ``unit_swap``: a figure's unit replaced, its number kept: another unit of the same dimension
  ("after 12 weeks" → "after 12 months", "40 mg" → "40 g"), or a percentage for an absolute
  change and back ("fell by 5 mmHg" → "fell by 5%"), preferring a unit that another figure of
  the window carries.
* ``overstated``: the finding stated more strongly, by a deletion or a rewording a reader of
  copies takes for a compression: a species or in-vitro qualifier dropped ("in mice"), an
  association stated as an effect ("were associated with a lower risk of" → "lowered the risk
  of"), or a hedge dropped ("may be" → "is", "potentially reduces" → "reduces").
* ``quantifier_swap``: a quantity, frequency or degree word replaced by its opposite or a
  stronger one ("some patients" → "all patients", "rarely" → "often", "partially" →
  "completely", "a modest reduction" → "a substantial reduction", "at least" → "at most").
* ``dropped_inverter``: what inverts the finding dropped, so the claim quotes the sentence and
  says the opposite: the head of a nominal naming a thing's absence, blocking or removal ("Lack
  of exercise increased falls" → "Exercise increased falls", "Inhibition of mTOR prevented" →
  "mTOR prevented"), a leading gerund ("Blocking TNF reduced" → "TNF reduced"), a shortfall
  ("insufficient evidence that" → "evidence that"), or "neither A nor B" made "A and B".
* ``unasserted_frame``: what the sentence does not assert quoted as a finding: the complement
  of a head that denies, doubts, supposes or asks it ("There is no evidence that vitamin C
  prevents colds" → "Vitamin C prevents colds", "We investigated whether …").
* ``dropped_restriction``: what restricts the finding dropped: a co-intervention ("in
  combination with insulin"), a dose or an intensity ("High-dose"), the population of a
  lead-in ("Among smokers,") or a subgroup ("in a subgroup of patients" → "in patients").
* ``dropped_bound``: what bounds a figure dropped ("in over 50% of patients" → "in 50% of
  patients", "less than 5%" → "5%", "at least 3" → "3"; not "over 12 weeks", a span of time).
* ``decimal_shift``: a decimal written without its leading zero given one zero more or fewer in
  the same style ("P < .001" → "P < .01", ".04" → ".004"): a P value or a coefficient
  misreported tenfold, which word segmentation reads as the same whole number ("001", "01").
* ``sign_flip``: a figure copied without its minus sign ("−2.3 mmHg" → "2.3 mmHg", "r = −0.45"
  → "r = 0.45") or a name's sign flipped ("CD4+ T cells" → "CD4− T cells", "Apoe−/− mice" →
  "Apoe+/+ mice"): word segmentation drops both signs.
* ``dropped_bound_after``: a bound written after its figure dropped ("aged 65 years or older"
  → "aged 65 years", "5 or more tablets" → "5 tablets").
* ``role_swap``: the two entities on either side of a directed verb swapped, or the two sides of
  a comparison ("higher in men than in women"); every SciFact abstract is searched, as these are
  rare.
* ``scope_change``: a population, species, dose, setting or time qualifier replaced ("in mice"
  → "in rats") or, where the sentence names none, one added at its end.
* ``number_swap`` (not supported), ``negation_flip`` and ``direction_flip`` (contradicted): the
  seed's builders of :mod:`spanproof.evaluation.adversarial`.

No number kind changes, or takes from the window, a figure inside a citation marker ("[1]" →
"[3]", "(Conti et al., 2020)" → "2021"): the marker names a reference, not a figure of the
finding, and score models from v11 read no marker as part of the claim.
* ``two_details``: a phrase substitution and a second, separate change (an entity substitution,
  a scope change or another phrase substitution) in the same sentence — a claim that copies less
  of its source than a one-detail edit does, so a check that only looks at near copies of one
  changed run misses it.
* ``clause_substitution``: a phrase substitution in a shortened copy — the sentence's first main
  clause, or the sentence with a parenthetical, clause or lead-in dropped — so the claim copies
  only part of its source sentence, as a summary that swaps a detail does.
* ``reworded_substitution``: an expert paraphrase (a SciFact SUPPORT claim, as in
  ``paraphrase``) with an entity or, failing that, a phrase substituted the same way — a claim
  that rewords its source *and* changes a detail, so it is no near copy of its window, and a check
  that reads only copies cannot see it.

Positive kinds (supported): ``verbatim``, ``first_clause`` (the first main clause of a sentence
that has more), ``compression`` (a parenthetical, a relative clause or a lead-in dropped),
``reordered`` (a noun with an "of" phrase written as a compound: "expression of IL-6" → "IL-6
expression", the same roles in another word order), ``paraphrase`` (SciFact SUPPORT claims
against their rationale sentences) and ``number_format`` (one figure written in the common
format: "P < .001" → "P < 0.001", "2·9" → "2.9", "671 945" → "671,945") and ``contracted``
(one verb and "not" written as a contraction: "did not differ" → "didn't differ") and
``respelled`` (one British spelling written the American way, "haemorrhage" → "hemorrhage", or
a Greek letter as its name, "IL-1β" → "IL-1beta") and ``recompounded`` (one hyphened word
written as one word where the corpus writes it so too: "non-small" → "nonsmall") and
``bound_after`` (a figure's bound written after it: "aged ≥65 years" → "aged 65 years or
older") and ``fold_written`` (a fold change in words: "a 2-fold increase" → "a twofold
increase") and ``eponym_written`` (an eponym without its possessive: "Alzheimer's disease" →
"Alzheimer disease").

Every choice is made by a hash of the seed and the text, so the same data and seed always give
the same list. The split (calibration or held-out) is a hash of the source abstract's id alone.
The edits themselves are pure functions in :mod:`spanproof.evaluation.substitution` and
:mod:`spanproof.evaluation.rewrite`; this module reads the data, indexes the corpus (collocation
and word document frequencies, entity contexts, TF-IDF neighbours in numpy) and assembles cases.
Measured by ``scripts/calibrate.py`` (docs/quality.md, "Realistic adversarial generator").
"""

from __future__ import annotations

import csv
import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise
from pathlib import Path

import numpy as np
import numpy.typing as npt

from spanproof.evaluation.devdata import scifact_claims, scifact_corpus
from spanproof.evaluation.rewrite import (
    balanced,
    carry_number,
    change_scope,
    compress,
    contract,
    cut_entity_mixup,
    cut_number_mixup,
    drop_bound,
    drop_bound_after,
    drop_eponym_possessive,
    drop_inverter,
    drop_restriction,
    first_clause,
    flip_polarity,
    flip_sign,
    invert_modifier,
    lift_from_frame,
    mix_up_number,
    overstate,
    reattribute_number,
    recompound,
    respell,
    rewrite_number_format,
    shift_decimal,
    swap_number,
    swap_quantifier,
    swap_roles,
    swap_unit,
    write_bound_after,
    write_fold,
)
from spanproof.evaluation.substitution import (
    HEADINGS,
    STOPWORDS,
    Edit,
    EntityContexts,
    PhrasePool,
    PhraseVocabulary,
    mix_up_entity,
    noun_phrases,
    phrase_key,
    phrases,
    seeded_hash,
    substitute_entity,
    substitute_phrase,
    words,
)
from spanproof.text.sentences import split_sentences

KINDS = (
    "phrase_substitution",
    "entity_substitution",
    "role_swap",
    "scope_change",
    "number_swap",
    "negation_flip",
    "direction_flip",
    "two_details",
    "clause_substitution",
    "reworded_substitution",
    "entity_mixup",
    "number_mixup",
    "cut_number_mixup",
    "cut_entity_mixup",
    "reattributed_number",
    "carried_number",
    "unit_swap",
    "overstated",
    "quantifier_swap",
    "dropped_inverter",
    "unasserted_frame",
    "dropped_restriction",
    "dropped_bound",
    "decimal_shift",
    "sign_flip",
    "dropped_bound_after",
    "verbatim",
    "first_clause",
    "compression",
    "reordered",
    "paraphrase",
    "number_format",
    "contracted",
    "respelled",
    "recompounded",
    "bound_after",
    "fold_written",
    "eponym_written",
)
SUPPORTED, NOT_SUPPORTED, CONTRADICTED = "supported", "not_supported", "contradicted"
LABELS: dict[str, str] = {
    **dict.fromkeys(KINDS[:5], NOT_SUPPORTED),
    **dict.fromkeys(KINDS[5:7], CONTRADICTED),
    **dict.fromkeys(KINDS[7:26], NOT_SUPPORTED),
    **dict.fromkeys(KINDS[26:], SUPPORTED),
}
CALIBRATION, HELDOUT = "calibration", "heldout"


@dataclass(frozen=True, slots=True)
class EditCase:
    kind: str  # one of KINDS
    claim: str
    evidence: str  # the evidence window: 1-3 adjacent sentences of one abstract
    doc_id: str  # SciFact doc_id, or "healthver:<row id>"
    split: str  # "calibration" | "heldout", by a hash of doc_id
    label: str  # "supported" | "not_supported" | "contradicted"
    detail: str  # the edit, for people: "asthma -> eczema"


def split_of(doc_id: str) -> str:
    """Calibration or held-out half, by a hash of the source abstract's id (never the claim)."""
    return CALIBRATION if hashlib.sha256(doc_id.encode()).digest()[0] % 2 == 0 else HELDOUT


# --------------------------------------------------------------------------- data

_TITLE_HEADING = re.compile(
    r"^(?:Conclusions?(?: and Relevance)?|Background|Methods?|Results?|Objectives?|Importance|"
    r"Design(?:, Setting,? and Participants)?|Findings|Interpretation|Purpose|Aims?|"
    r"Introduction|Context|Main Outcomes? and Measures?|Exposures?|Setting|Participants|"
    r"Interventions?|Significance|Rationale|Summary)\s+(?=[A-Z])"
)


def clean_sentence(sentence: str) -> str:
    """Whitespace collapsed and a structured abstract's heading ("METHODS AND RESULTS") removed."""
    parts = sentence.split()
    k = 0
    while k < len(parts) and all(p in HEADINGS for p in parts[k].rstrip(":,").split("/")):
        k += 1
    return str(_TITLE_HEADING.sub("", " ".join(parts[k:])))


def usable(sentence: str) -> bool:
    """A sentence fit to copy: a whole statement of 8 to 60 words with balanced brackets."""
    n = len(sentence.split())
    return 8 <= n <= 60 and sentence[:1].isupper() and sentence.endswith(".") and balanced(sentence)


@dataclass(frozen=True, slots=True)
class _Doc:
    doc_id: str
    sentences: tuple[str, ...]
    source: bool  # its sentences become cases


def _scifact_docs(root: Path) -> list[_Doc]:
    corpus = scifact_corpus(root)
    cited = {d for c in scifact_claims(root) for d in (*c.cited_doc_ids, *c.evidence)}
    out = []
    for doc_id in sorted(corpus):
        # Empty sentences stay, so rationale indices still point at the right sentence.
        sentences = tuple(map(clean_sentence, corpus[doc_id]["abstract"]))
        out.append(_Doc(str(doc_id), sentences, doc_id in cited))
    return out


def _healthver_docs(root: Path) -> list[_Doc]:
    """One document per distinct evidence passage; passages that share a sentence share the id
    of the first (they come from one paper), so no sentence lands in both splits."""
    with (root / "healthver" / "healthver_dev.csv").open(encoding="utf-8", newline="") as fh:
        rows = [(r["id"], r["evidence"]) for r in csv.DictReader(fh) if r["evidence"].strip()]
    owner: dict[str, str] = {}  # sentence -> doc id
    out: list[_Doc] = []
    seen: set[str] = set()
    for row_id, passage in rows:
        if passage in seen:
            continue
        seen.add(passage)
        sentences = tuple(
            s for s in (clean_sentence(x.text) for x in split_sentences(passage)) if s
        )
        doc_id = next((owner[s] for s in sentences if s in owner), f"healthver:{row_id}")
        for s in sentences:
            owner.setdefault(s, doc_id)
        out.append(_Doc(doc_id, sentences, True))
    return out


def nearest_documents(
    term_counts: Sequence[Counter[str]], groups: Sequence[str], queries: Sequence[int], k: int
) -> dict[int, list[int]]:
    """The ``k`` TF-IDF-nearest documents of each query (cosine of log-tf x idf vectors), never
    one of the query's own group and never a near-duplicate (cosine >= 0.95); ties by index."""
    n = len(term_counts)
    df = Counter(t for counts in term_counts for t in counts)
    idf = {t: math.log(n / c) for t, c in df.items() if 1 < c <= n // 2}
    postings: dict[str, tuple[list[int], list[float]]] = {}
    vectors: list[dict[str, float]] = []
    for d, counts in enumerate(term_counts):
        weights = {t: (1.0 + math.log(c)) * idf[t] for t, c in sorted(counts.items()) if t in idf}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        vectors.append({t: w / norm for t, w in weights.items()})
        for t, w in vectors[-1].items():
            entry = postings.setdefault(t, ([], []))
            entry[0].append(d)
            entry[1].append(w)
    arrays = {t: (np.array(ds), np.array(ws)) for t, (ds, ws) in postings.items()}
    numbering: dict[str, int] = {}
    group_ids = np.array([numbering.setdefault(g, len(numbering)) for g in groups])
    ranks = np.arange(n)
    out: dict[int, list[int]] = {}
    for q in queries:
        scores: npt.NDArray[np.float64] = np.zeros(n)
        for t, w in vectors[q].items():
            idx, vals = arrays[t]
            scores[idx] += w * vals
        scores[(group_ids == group_ids[q]) | (scores >= 0.95)] = -np.inf
        order = np.lexsort((ranks, -scores))[:k]
        out[q] = [int(i) for i in order if np.isfinite(scores[i]) and scores[i] > 0]
    return out


@dataclass
class _Corpus:
    """Every document, its corpus statistics, and the phrases and entities each one offers."""

    docs: list[_Doc]
    vocab: PhraseVocabulary
    contexts: EntityContexts
    #: per document: (lowercase words, surface) of its noun phrases, in text order
    noun_phrases: list[list[tuple[tuple[str, ...], str]]]
    #: per document: (surface, shape) of its entity words, in text order
    entities: list[list[tuple[str, str]]]
    terms: list[Counter[str]]
    pool_min_df: int = 3

    def attested(self, word: str) -> bool:
        """Whether two documents or more use the lowercase ``word``."""
        return self.vocab.word_df.get(word, 0) >= 2

    def phrase_surfaces(self, d: int) -> Iterator[str]:
        """Collocations of document ``d`` (corpus document frequency >= 3), in text order."""
        for key, surface in self.noun_phrases[d]:
            if self.vocab.phrase_df.get(key, 0) >= self.pool_min_df:
                yield surface


_VERB_CUES = frozenset({"to", "not", "may", "can", "cannot", "will", "could", "would", "should",
                        "must", "might", "did", "does", "do"})  # fmt: skip


def _verbs(after_cue: Counter[str], totals: Counter[str]) -> frozenset[str]:
    """Words that a modal, "to" or "not" precedes in at least a quarter of their uses."""
    return frozenset(w for w, c in after_cue.items() if c >= 2 and c >= 0.25 * totals[w])


def _index(docs: list[_Doc]) -> _Corpus:
    """One pass over every sentence: collocation and word document frequencies, verb-like words,
    entity context profiles, each document's noun phrases, entities and TF-IDF terms."""
    phrase_df: Counter[tuple[str, ...]] = Counter()
    word_df: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    after_cue: Counter[str] = Counter()
    contexts = EntityContexts()
    nps: list[list[tuple[tuple[str, ...], str]]] = []
    ents: list[list[tuple[str, str]]] = []
    terms: list[Counter[str]] = []
    for doc in docs:
        keys: set[tuple[str, ...]] = set()
        counts: Counter[str] = Counter()
        nps.append([])
        ents.append([])
        for s in doc.sentences:
            ws = words(s)
            lows = [w.core.lower() for w in ws]
            counts.update(lows)
            after_cue.update(b for a, b in pairwise(lows) if a in _VERB_CUES)
            keys.update(phrase_key(ws, i, j) for i, j in phrases(s, ws))
            nps[-1].extend(
                (phrase_key(ws, i, j), s[ws[i].start : ws[j - 1].end])
                for i, j in noun_phrases(s, ws)
                if i > 0
            )
            ents[-1].extend((ws[k].core, shape) for k, shape in contexts.add(s, ws))
        phrase_df.update(keys)
        word_df.update(counts.keys())
        totals.update(counts)
        terms.append(
            Counter({t: c for t, c in counts.items() if t not in STOPWORDS and not t.isdigit()})
        )
    vocab = PhraseVocabulary.build(
        dict(phrase_df), dict(word_df), len(docs), _verbs(after_cue, totals)
    )
    return _Corpus(docs, vocab, contexts, nps, ents, terms)


# --------------------------------------------------------------------------- generation


def _window(sentences: Sequence[str], i: int, key: str) -> str:
    """Sentence ``i`` with none, the previous, the next or both neighbours (by ``key``)."""
    choice = seeded_hash(key, "window") % 4
    lo = i - 1 if choice in (1, 3) and i > 0 and sentences[i - 1] else i
    hi = i + 1 if choice in (2, 3) and i + 1 < len(sentences) and sentences[i + 1] else i
    return " ".join(sentences[lo : hi + 1])


@dataclass(frozen=True, slots=True)
class _Pools:
    phrases: PhrasePool
    entities: tuple[tuple[str, str], ...]


def _pools(corpus: _Corpus, neighbours: Sequence[int]) -> _Pools:
    phrase_pool = PhrasePool.of([p for n in neighbours for p in corpus.phrase_surfaces(n)])
    entities: dict[str, tuple[str, str]] = {}
    for n in neighbours:
        for surface, shape in corpus.entities[n]:
            entities.setdefault(surface.lower(), (surface, shape))
    return _Pools(phrase_pool, tuple(entities.values()))


#: How many TF-IDF-nearest other abstracts supply replacement phrases and entities.
NEIGHBOURS = 20
#: Context-profile cosine an entity's substitute must reach (a same-kind entity).
ENTITY_MIN_SIMILARITY = 0.3


def _edits(
    sentence: str, window: str, pools: _Pools, corpus: _Corpus, key: str
) -> list[tuple[str, Edit]]:
    """Every kind's edit of one sentence (a kind that does not apply is left out)."""
    polarity = flip_polarity(sentence)
    phrase = substitute_phrase(sentence, window, pools.phrases, corpus.vocab, key)
    entity = substitute_entity(
        sentence, window, pools.entities, key, corpus.contexts.similarity, ENTITY_MIN_SIMILARITY
    )
    found: list[tuple[str, Edit | None]] = [
        ("two_details", _second_detail(sentence, phrase, window, pools, corpus, key)),
        ("clause_substitution", _clause_substitution(sentence, window, pools, corpus, key)),
        ("phrase_substitution", phrase),
        ("entity_substitution", entity),
        ("entity_mixup", mix_up_entity(sentence, window, key)),
        ("role_swap", swap_roles(sentence)),
        ("scope_change", change_scope(sentence, window, key)),
        ("number_swap", swap_number(sentence, window)),
        ("number_mixup", mix_up_number(sentence, window, key)),
        ("cut_number_mixup", cut_number_mixup(sentence, key)),
        ("cut_entity_mixup", cut_entity_mixup(sentence, key)),
        ("reattributed_number", reattribute_number(sentence, key)),
        ("carried_number", carry_number(sentence, key)),
        ("unit_swap", swap_unit(sentence, window, key)),
        ("overstated", overstate(sentence, key)),
        ("quantifier_swap", swap_quantifier(sentence, key)),
        ("dropped_inverter", drop_inverter(sentence, key)),
        ("unasserted_frame", lift_from_frame(sentence, key)),
        ("dropped_restriction", drop_restriction(sentence, key)),
        ("dropped_bound", drop_bound(sentence, key)),
        ("decimal_shift", shift_decimal(sentence, key)),
        ("sign_flip", flip_sign(sentence, key)),
        ("dropped_bound_after", drop_bound_after(sentence, key)),
        polarity or ("negation_flip", None),
        ("verbatim", Edit(sentence, "verbatim")),
        ("first_clause", first_clause(sentence)),
        ("compression", compress(sentence, key)),
        ("reordered", invert_modifier(sentence, key)),
        ("number_format", rewrite_number_format(sentence, key)),
        ("contracted", contract(sentence, key)),
        ("respelled", respell(sentence, key)),
        ("recompounded", recompound(sentence, corpus.attested, key)),
        ("bound_after", write_bound_after(sentence, key)),
        ("fold_written", write_fold(sentence, key)),
        ("eponym_written", drop_eponym_possessive(sentence, key)),
    ]
    out = []
    for kind, edit in found:
        if edit is None:
            continue
        if kind != "verbatim" and edit.claim == sentence:
            continue
        if LABELS[kind] != SUPPORTED and edit.claim in window:
            continue
        out.append((kind, edit))
    return out


def _changed_runs(old: str, new: str) -> int:
    """How many separate runs of words differ between two sentences."""
    a, b = old.split(), new.split()
    matcher = SequenceMatcher(a=a, b=b, autojunk=False)
    return sum(1 for op, *_ in matcher.get_opcodes() if op != "equal")


def _second_detail(
    sentence: str, first: Edit | None, window: str, pools: _Pools, corpus: _Corpus, key: str
) -> Edit | None:
    """A phrase substitution with a second, separate change: an entity substitution, a scope
    change or another phrase substitution (the first that applies, in a seeded order)."""
    if first is None:
        return None
    builders = [
        lambda s: substitute_entity(
            s, window, pools.entities, key, corpus.contexts.similarity, ENTITY_MIN_SIMILARITY
        ),
        lambda s: change_scope(s, window, key),
        lambda s: substitute_phrase(s, window, pools.phrases, corpus.vocab, f"{key}:second"),
    ]
    start = seeded_hash(key, "second") % len(builders)
    for k in range(len(builders)):
        second = builders[(start + k) % len(builders)](first.claim)
        if second is None or _changed_runs(sentence, second.claim) < 2:
            continue
        return Edit(second.claim, f"{first.detail}; {second.detail}")
    return None


def _clause_substitution(
    sentence: str, window: str, pools: _Pools, corpus: _Corpus, key: str
) -> Edit | None:
    """A phrase substitution in the sentence's first main clause or, failing that, in its
    compression (a shortened copy that swaps a detail)."""
    short = first_clause(sentence) or compress(sentence, key)
    if short is None:
        return None
    swapped = substitute_phrase(short.claim, window, pools.phrases, corpus.vocab, f"{key}:clause")
    if swapped is None:
        return None
    return Edit(swapped.claim, f"{short.detail}; {swapped.detail}")


def _sentence_cases(
    corpus: _Corpus, d: int, neighbours: Sequence[int], seed: int, seen: set[str]
) -> Iterator[EditCase]:
    doc = corpus.docs[d]
    pools: _Pools | None = None
    for i, sentence in enumerate(doc.sentences):
        if sentence in seen or not usable(sentence):
            continue
        seen.add(sentence)
        pools = pools or _pools(corpus, neighbours)
        key = f"{seed}:{doc.doc_id}:{i}"
        window = _window(doc.sentences, i, key)
        split = split_of(doc.doc_id)
        for kind, edit in _edits(sentence, window, pools, corpus, key):
            yield EditCase(kind, edit.claim, window, doc.doc_id, split, LABELS[kind], edit.detail)


def _more_role_swaps(corpus: _Corpus, seed: int, seen: set[str]) -> Iterator[EditCase]:
    """Role swaps are rare, so every other SciFact abstract is searched for them too."""
    for doc in corpus.docs:
        if doc.source:
            continue
        for i, sentence in enumerate(doc.sentences):
            if sentence in seen or not usable(sentence):
                continue
            edit = swap_roles(sentence)
            if edit is None:
                continue
            seen.add(sentence)
            key = f"{seed}:{doc.doc_id}:{i}"
            window = _window(doc.sentences, i, key)
            split = split_of(doc.doc_id)
            yield EditCase(
                "role_swap", edit.claim, window, doc.doc_id, split, NOT_SUPPORTED, edit.detail
            )


def _rationales(root: Path, docs: Sequence[_Doc]) -> Iterator[tuple[int, str, str, int]]:
    """(claim id, claim, rationale window, document index) of every SciFact SUPPORT rationale of
    1-3 adjacent sentences, each (claim, window) once."""
    index = {doc.doc_id: d for d, doc in enumerate(docs)}
    seen: set[tuple[str, str]] = set()
    for claim in scifact_claims(root):
        for doc_id, sets in sorted(claim.evidence.items()):
            d = index.get(str(doc_id))
            for label, indices in sets:
                if label != "SUPPORT" or d is None or not indices:
                    continue
                lo, hi = min(indices), max(indices)
                if hi - lo > 2 or hi >= len(docs[d].sentences):
                    continue
                window = " ".join(s for s in docs[d].sentences[lo : hi + 1] if s)
                if not window or (claim.claim, window) in seen:
                    continue
                seen.add((claim.claim, window))
                yield claim.id, claim.claim, window, d


def _paraphrases(root: Path, docs: Sequence[_Doc]) -> Iterator[EditCase]:
    """SciFact SUPPORT claims against their rationale (1-3 adjacent sentences)."""
    for claim_id, claim, window, d in _rationales(root, docs):
        doc_id = docs[d].doc_id
        yield EditCase(
            "paraphrase", claim, window, doc_id, split_of(doc_id), SUPPORTED,
            f"SciFact claim {claim_id}",
        )  # fmt: skip


def _reworded_substitutions(
    root: Path, corpus: _Corpus, near: dict[int, list[int]], seed: int
) -> Iterator[EditCase]:
    """The paraphrases with an entity or, failing that, a phrase of the claim substituted from
    the TF-IDF-nearest other abstracts (new words absent from the window, as for sentences)."""
    for claim_id, claim, window, d in _rationales(root, corpus.docs):
        doc_id = corpus.docs[d].doc_id
        key = f"{seed}:reworded:{claim_id}:{doc_id}"
        pools = _pools(corpus, near.get(d, []))
        edit = substitute_entity(
            claim, window, pools.entities, key, corpus.contexts.similarity, ENTITY_MIN_SIMILARITY
        ) or substitute_phrase(claim, window, pools.phrases, corpus.vocab, key)
        if edit is None or edit.claim == claim or edit.claim in window:
            continue
        yield EditCase(
            "reworded_substitution", edit.claim, window, doc_id, split_of(doc_id), NOT_SUPPORTED,
            f"SciFact claim {claim_id}: {edit.detail}",
        )  # fmt: skip


def sample(cases: Sequence[EditCase], seed: int, limit: int | None) -> list[EditCase]:
    """Cases grouped by kind (in KINDS order); at most ``limit`` of each, a seeded sample."""
    out: list[EditCase] = []
    for kind in KINDS:
        mine = [(n, c) for n, c in enumerate(cases) if c.kind == kind]
        if limit is not None and len(mine) > limit:
            mine = sorted(
                mine, key=lambda nc: (seeded_hash(seed, kind, nc[1].doc_id, nc[1].claim), nc[0])
            )
            mine = sorted(mine[:limit], key=lambda nc: nc[0])
        out.extend(c for _, c in mine)
    return out


def generate(
    data_root: Path, *, seed: int = 0, limit_per_kind: int | None = None
) -> list[EditCase]:
    """Build every kind's cases from the data folder (see the module docstring).

    Deterministic: the same data, ``seed`` and ``limit_per_kind`` give the same list. Cases come
    grouped by kind in :data:`KINDS` order; ``limit_per_kind`` keeps a seeded sample of each.
    """
    docs = _scifact_docs(data_root) + _healthver_docs(data_root)
    corpus = _index(docs)
    sources = [d for d, doc in enumerate(docs) if doc.source]
    near = nearest_documents(corpus.terms, [doc.doc_id for doc in docs], sources, k=NEIGHBOURS)
    seen: set[str] = set()
    cases = [c for d in sources for c in _sentence_cases(corpus, d, near[d], seed, seen)]
    cases.extend(_more_role_swaps(corpus, seed, seen))
    cases.extend(_paraphrases(data_root, docs))
    cases.extend(_reworded_substitutions(data_root, corpus, near, seed))
    return sample(cases, seed, limit_per_kind)
