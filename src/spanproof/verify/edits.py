"""The edit check (score model v4): a claim that nearly copies the evidence, and what it changed.

The claim's tokens are aligned to an evidence window (one sentence of a span, or two or three
adjacent ones for a claim of several sentences or one that merges them) with
``difflib.SequenceMatcher`` on normalised keys (Snowball stems, canonical numbers, number words,
lowercase), so order matters. The claim is a *near copy* when it copies (aligned in order, or
moved: present on both sides in another order) at least :data:`NEAR_COPY_MIN` of its content
words, or all but one run of at most :data:`MAX_CHANGED_RUN` (one phrase changed in a short
claim). Only near copies are checked; every difference is then classified:

* **deletion** (evidence words the claim leaves out) is compression, allowed, unless it drops a
  negation outside a bracketed or comma-delimited clause (contradicted), or splices two
  sentences by dropping the second one's own words (unsupported). Words before the first or
  after the last copied word are not edits: the claim quotes less of the window (a first clause).
* **insertion** (claim words the window lacks) is allowed for function words and for content
  words the span states elsewhere, side by side in the same order; an inserted negation
  contradicts; any other insertion is unsupported.
* **substitution** is allowed for morphology (same stem), an abbreviation the span defines
  (``tumour necrosis factor (TNF)``), a number in another format (same canonical number), or a
  phrase of the same meaning. Meaning is decided by the caller, so this module stays pure:
  :func:`align_edits` lists each substitution no rule decides as a :class:`Question` of two
  phrases; the caller embeds them and passes their cosines to :func:`judge_edits`, which allows
  the substitution when the cosine reaches the calibrated threshold. A negation or direction flip
  (the cue lists of :mod:`spanproof.verify.gates`) contradicts; another number, another named
  entity or an opposite term (``older``/``younger``, ``diabetic``/``nondiabetic``) is unsupported
  without asking. A substitution longer than :data:`MAX_SUBSTITUTION_WORDS` that no rule allows
  means the claim rewrites the window rather than copying it: the check does not apply.
* **transposition**: content words both sides hold but not in the same order. Two of them
  swapping places, or one block trading places across a relation word (``higher in A than in
  B``), swaps the roles (unsupported) unless exactly one side is passive (``X induces Y`` / ``Y
  is induced by X``); a voice change with the word order kept swaps the roles too. A block moved
  otherwise (``In mice, X rose`` / ``X rose in mice``) is reordered, allowed.

:func:`judge_edits` returns an :class:`EditCheck` whose ``outcome`` caps the pair score like a
gate. Every constant and word list here is part of score model v4: changing one changes its
verdicts, so it needs a new score model version (stored v4 traces must replay).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from itertools import pairwise
from typing import Literal

import numpy as np
import numpy.typing as npt

from spanproof.core.models import Edit
from spanproof.text.abbreviations import definitions
from spanproof.text.numerics import (
    APPROXIMATORS,
    FOLD_WORDS,
    canonical_number,
    roundings,
    rounds_to,
)
from spanproof.text.sentences import split_sentences
from spanproof.text.spelling import american
from spanproof.text.stems import singular, stem
from spanproof.text.tokens import MINUS, Token, nfc, tokenize
from spanproof.verify.comparisons import (
    DOWN,
    PHRASE_WORDS,
    UP,
    comparison_kept,
    comparison_traded,
    restated_comparatives,
    side_words,
)
from spanproof.verify.features import STOP_WORDS
from spanproof.verify.gates import (
    CONTRAINDICATIONS,
    OPPOSITE,
    SIGNS,
    base_form,
    denied_alike,
    direction_of,
    entity_shape,
    is_negation,
    opposed_clauses,
    signed_associations,
)

#: v56: the words a rounded figure may stand with where the evidence states the figure.
_ROUNDING_WORDS = APPROXIMATORS | {"close", "to"}
#: Share of the claim's content words that must be copied (aligned in order, or moved) for
#: the check to apply; a claim that changes one phrase of at most :data:`MAX_CHANGED_RUN`
#: content words and copies at least two is a near copy however short it is.
NEAR_COPY_MIN = 0.8
MAX_CHANGED_RUN = 2
#: Score model v59: the pronouns a claim may name (:meth:`_Builder._names_the_pronoun`).
_PRONOUN_SUBJECTS = frozenset({"it", "they"})
#: Score model v65: pronouns through which a clause after a semicolon goes on about the subject
#: a claim names (:meth:`_Builder._clause_spliced`).
_CLAUSE_SUBJECTS = _PRONOUN_SUBJECTS | {"he", "she"}
#: Score model v60: the words a long changed run may stand for without making the claim a near
#: copy (:meth:`_Builder._substitution`): a name written for what the window only calls "it"
#: is left to the rest of the reading, as before v60.
_PRONOUNS = _PRONOUN_SUBJECTS | {
    "its", "their", "them", "he", "his", "him", "she", "her", "this", "these"
}  # fmt: skip
#: Score model v6: a claim may change two separate runs (each of at most
#: :data:`MAX_CHANGED_RUN` content words) when it copies at least this share of its content
#: words ("lowered systolic pressure in adults with hypertension" → "lowered diastolic pressure
#: in adults with asthma").
TWO_RUNS_KEPT_SHARE = 0.5
#: ... and when it copies the window densely: of the window's words from the first aligned word
#: to the last, at most 30 % left out (a copy with details changed, not a selection of words).
TWO_RUNS_DENSITY = 0.7
#: Score model v60: one changed run longer than :data:`MAX_CHANGED_RUN` (up to the model's
#: ``edit_long_run`` content words: a subject of three words put in for another's one) makes a
#: near copy when the claim copies at least this many content words, and this share of them
#: ("Magnetic resonance imaging is a novel, CD4+ T cell-restricted cytokine" against "IL-17 is
#: a novel, CD4+ T cell-restricted cytokine.").
LONG_RUN_KEPT_MIN = 4
LONG_RUN_KEPT_SHARE = 0.6
#: Aligned words on each side of a substituted phrase sent with it to the embedder.
CONTEXT_WORDS = 0
MAX_WINDOW_SENTENCES = 3
#: A substitution longer than this (words on either side) that no rule allows is a rewrite: the
#: claim paraphrases the window rather than copying it, and the check does not apply.
MAX_SUBSTITUTION_WORDS = 5
#: Content words a moved block may pass and still count as trading places with them.
SWAP_MAX_CONTENT = 6
#: An aligned run of at least this many words is a copied stretch (:func:`run_share`).
COPIED_RUN_MIN = 2
#: Words that relate two arguments: a block that trades places across one swaps the roles.
_RELATIONS = frozenset(
    {"than", "by", "versus", "vs", "and", "or", "with", "to", "from", "over", "into", "of"}
)
#: v15: more words that relate two arguments, "the effect of A on B", "A protects against B".
_RELATIONS_V15 = _RELATIONS | {"on", "against"}
#: Comparison words: a block that passes one (``non-smokers than smokers``) swaps the roles.
_COMPARISONS = frozenset({"than", "versus", "vs", "by"})

Outcome = Literal["none", "unsupported", "contradicted"]

FUNCTION_WORDS = frozenset(
    {
        "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "has", "have",
        "had", "having", "do", "does", "did", "can", "could", "may", "might", "must", "shall",
        "should", "will", "would", "of", "in", "on", "at", "to", "for", "with", "by", "from",
        "into", "onto", "upon", "about", "as", "via", "within", "among", "amongst", "between",
        "through", "throughout", "during", "per", "and", "or", "nor", "but", "so", "than",
        "that", "which", "who", "whom", "whose", "whereas", "while", "although", "though",
        "because", "whether", "it", "its", "this", "these", "those", "they", "their", "them",
        "there", "here", "we", "our", "us", "he", "she", "his", "her", "i", "also", "then",
        "thus", "hence", "however", "furthermore", "moreover", "respectively", "s",
        "percent", "percentage", "vs", "versus", "et", "al", "such",
    }
)  # fmt: skip
_NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "  # noqa: SIM905
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_CLAUSE_OPENERS = frozenset(
    {"but", "whereas", "while", "although", "though", "which", "who", "unlike", "except"}
)
_OPEN_MARKS = "(,;:[—–"
_CLOSE_MARKS = "),;:]—–"
_IRREGULAR_PARTICIPLES = frozenset({"made", "found", "shown", "seen", "given", "taken", "held"})
#: Opposite terms whose embeddings lie close (a phrase cosine cannot tell them apart).
_ANTONYM_WORDS = (
    "young/old younger/older youngest/oldest male/female males/females men/women man/woman "
    "boys/girls early/late earlier/later acute/chronic benign/malignant positive/negative "
    "maximum/minimum maximal/minimal before/after inside/outside first/last upper/lower "
    "systolic/diastolic vitro/vivo presence/absence present/absent private/public "
    "primary/secondary inner/outer left/right morning/evening day/night agonist/antagonist "
    "sensitive/resistant susceptible/resistant dominant/recessive anterior/posterior "
    "proximal/distal central/peripheral internal/external mild/severe short/long "
    "input/output influx/efflux uptake/release gain/loss"
)
_ANTONYMS = frozenset(
    pair
    for words in _ANTONYM_WORDS.split()
    for a, b in [tuple(stem(w) for w in words.split("/"))]
    for pair in ((a, b), (b, a))
)
#: Units of measure a figure may carry (v11), by surface form → one name per unit: a figure's
#: unit is part of the figure, so "5 mmHg" is not "5%" and "12 weeks" is not "12 months".
_UNIT_FORMS = (
    "%:percent,pct,per_cent pp:percentage_point,percentage_points "
    "second:sec,secs,seconds minute:min,mins,minutes hour:h,hr,hrs,hours day:d,days "
    "week:wk,wks,weeks month:mo,mos,months year:y,yr,yrs,years "
    "ng:nanogram,nanograms µg:μg,ug,mcg,microgram,micrograms mg:milligram,milligrams "
    "g:gram,grams kg:kilogram,kilograms ml:millilitre,milliliter,millilitres,milliliters "
    "l:litre,liter,litres,liters dl µl:μl,ul mmhg:mm_hg cm mm km kcal iu mmol µmol:μmol,umol "
    "nmol pmol mol bpm fold:times"
)
UNITS: dict[str, str] = {
    form.replace("_", " "): name
    for entry in _UNIT_FORMS.split()
    for name, _, rest in [entry.partition(":")]
    for form in (name, *filter(None, rest.split(",")))
}
#: A percent sign or word right after a figure (the tokenizer keeps no "%").
_PERCENT_AFTER = re.compile(r"\s?(?:[%％]|per\s?cent\b)", re.IGNORECASE)
#: The unit of a figure followed by a content word that is no unit: a count ("12 participants").
COUNT = "count"

#: What a deletion may not drop, or it states the finding more strongly than the window (v12):
#: a species or in-vitro qualifier, a hedge, an association (the claim then states an effect).
_SCOPE_WORDS = frozenset(
    {"mice", "mouse", "murine", "rat", "rats", "rodent", "rodents", "animal", "animals", "vitro",
     "zebrafish", "drosophila", "yeast", "monkeys", "primates", "pigs", "piglets", "rabbits",
     "hamsters"}
)  # fmt: skip
_HEDGE_WORDS = frozenset(
    {"may", "might", "could", "possibly", "potentially", "probably", "likely", "perhaps",
     "putative", "putatively", "presumably", "presumed"}
)  # fmt: skip
_ASSOCIATION_WORDS = frozenset(
    {"associated", "association", "associations", "correlated", "correlation", "correlations",
     "correlates", "linked", "link", "links"}
)  # fmt: skip
#: v35: what says a finding holds only in part ("mediated partly by", "partially rescued",
#: "largely unknown"), is significant only at the margin ("marginally significant"), is a trend
#: ("a trend towards", "tended to be") or is not significant ("nonsignificant"): dropped, the
#: claim states it whole. Words of size alone ("slightly", "modestly") are not among them: "slightly
#: increased" → "increased" still says what the window says, less exactly.
_EXTENT_WORDS = frozenset(
    {"partially", "partly", "partial", "incompletely", "incomplete", "marginally", "nominally",
     "borderline", "trend", "trends", "tend", "tends", "tended", "tendency", "nonsignificant",
     "insignificant", "largely", "mostly", "mainly", "predominantly"}
)  # fmt: skip
#: v35: the content words of a dropped phrase that says the finding was not significant ("a
#: non-significant reduction", "not statistically significantly").
_NOT_SIGNIFICANT_WORDS = frozenset({"not", "non", "no", "statistically"})
#: v35: what says a finding is of only part of what it speaks of ("in some patients", "a
#: minority of cells", "few studies"), or holds only some of the time ("seldom offered",
#: "occasionally fatal"): dropped, the claim speaks of all of it.
_PART_WORDS = frozenset(
    {"some", "few", "minority", "fraction", "proportion", "certain", "rarely", "seldom",
     "occasionally", "sometimes", "infrequently", "sporadically"}
)  # fmt: skip
#: v16: which scope a species or in-vitro word names. A dropped scope is kept only by a word of
#: its own kind ("in mice" by "mouse", not by "in vitro"); a broad one ("animals", "rodents")
#: is kept by any species and keeps any.
_SCOPE_KINDS = {
    "mice": "mouse", "mouse": "mouse", "murine": "mouse", "rat": "rat", "rats": "rat",
    "rodent": "broad", "rodents": "broad", "animal": "broad", "animals": "broad",
    "vitro": "vitro", "zebrafish": "zebrafish", "drosophila": "drosophila", "yeast": "yeast",
    "monkeys": "primate", "primates": "primate", "pigs": "pig", "piglets": "pig",
    "rabbits": "rabbit", "hamsters": "hamster",
}  # fmt: skip
#: v16: what bounds the stretch of a claim a hedge or an association qualifies: a clause mark
#: or a word that sets two clauses against each other ("may be useful …, but is dangerous");
#: after the edit, "and" and "or" too: a hedge reaches over the conjuncts after it ("may reduce
#: falls and also reduce fractures"), not over those before it.
_QUALIFIER_BOUND = re.compile(
    r"[,;:()\[\]]|\b(?:but|whereas|while|although|though|yet)\b", re.IGNORECASE
)
_QUALIFIER_BOUND_AFTER = re.compile(_QUALIFIER_BOUND.pattern + r"|\b(?:and|or)\b", re.IGNORECASE)

#: What makes the words after it a thing's absence, blocking or removal (v13): dropped right
#: before a word the claim keeps ("Lack of exercise increased falls" → "Exercise increased
#: falls"), the claim states the finding of the thing itself.
_INVERTERS = frozenset(
    {"lack", "lacking", "absence", "loss", "deletion", "depletion", "inhibition", "inhibiting",
     "blockade", "blocking", "knockdown", "knockout", "knocking", "deficiency", "silencing",
     "suppression", "inactivation", "disruption", "ablation", "removal", "withdrawal",
     "antagonism", "downregulation", "insufficient", "inadequate", "neither", "without",
     "failure"}
)  # fmt: skip
#: Words that may stand between an inverting word and what it inverts: "loss of the", "knocking
#: down".
_INVERTER_LINKS = frozenset({"of", "the", "a", "an", "down", "out"})

#: Words under which what follows "that" is not asserted but denied, doubted, supposed or asked
#: (v14), besides the negations: "no evidence that", "unclear whether", "the hypothesis that".
_FRAME_WORDS = frozenset(
    {"unlikely", "unclear", "unknown", "uncertain", "controversial", "debated", "hypothesis",
     "hypotheses", "hypothesized", "hypothesised", "hypothesize", "hypothesise", "speculated",
     "speculate", "postulated", "postulate", "believed", "assumed", "presumed", "myth",
     "belief", "contrary", "refuted", "disproved", "questioned", "test", "tested", "failed",
     "fail", "fails", "unable", "investigate", "investigated", "examine", "examined", "asked",
     "aimed", "claim", "claims", "notion", "idea", "theory", "possibility", "speculation",
     "assumption"}
)  # fmt: skip
#: Words that make a frame assert what follows after all: "data supporting the hypothesis that".
_BACKING_WORDS = frozenset(
    {"support", "supports", "supported", "supporting", "confirm", "confirms", "confirmed",
     "consistent"}
)  # fmt: skip
#: v36: more words under which what follows "that" is supposed, expected or put forward, not
#: found ("It has been proposed that", "We predicted that", "challenge the concept that"),
#: read with :data:`_FRAME_WORDS`.
_SUPPOSITION_WORDS = frozenset(
    {"proposed", "propose", "proposes", "thought", "expected", "predicted", "predict",
     "predicts", "claimed", "alleged", "purported", "supposed", "theorized", "theorised",
     "conjectured", "anticipated", "feared", "concept", "dogma", "misconception", "expectation",
     "prediction", "proposal", "conjecture", "suspicion", "perception", "contention",
     "presumption", "supposition", "premise", "doubtful", "improbable"}
)  # fmt: skip
#: v36: words that put forward what follows "that" only in the passive ("It has been suggested
#: that", "it was argued that"): "Our results suggest that" asserts what follows.
_PASSIVE_SUPPOSITION_WORDS = frozenset({"suggested", "argued"})
#: v36: the forms of "be" before a passive participle ("has been suggested", "is thought to").
_BE_FORMS = frozenset({"is", "are", "was", "were", "be", "been", "being"})
#: v36: words that may stand between a form of "be" and its participle besides those in "-ly"
#: ("is also thought to", "are often assumed to").
_PASSIVE_ADVERBS = frozenset({"also", "often", "still", "now", "thus", "therefore", "long"})
#: v36: more words that make a frame assert what follows after all ("validated the prediction
#: that", "in agreement with the concept that"), read with :data:`_BACKING_WORDS`.
_MORE_BACKING_WORDS = frozenset(
    {"validate", "validates", "validated", "corroborate", "corroborates", "corroborated",
     "agreement", "accordance"}
)  # fmt: skip
#: v36: participles that, between a form of "be" and "to", say their subject is only supposed to
#: do what follows ("is thought to play", "were expected to reduce", "has been proposed to
#: act"): dropped, the claim states it as a finding. "is known to", "was shown to" and "was
#: found to" assert it and are not among them.
_RAISING_WORDS = frozenset(
    {"thought", "believed", "assumed", "presumed", "proposed", "hypothesized", "hypothesised",
     "postulated", "expected", "predicted", "suggested", "speculated", "supposed", "alleged",
     "purported", "claimed", "theorized", "theorised", "conjectured", "rumored", "rumoured",
     "reputed", "anticipated", "hoped", "designed", "intended", "meant", "unlikely",
     "improbable", "insufficient", "inadequate"}
)  # fmt: skip
#: v36: the words of :data:`_RAISING_WORDS` that doubt or deny rather than suppose: one of them
#: elsewhere in a claim ("the reasons for inadequate prophylaxis") keeps no supposition.
_DOUBTING_WORDS = frozenset({"unlikely", "improbable", "insufficient", "inadequate"})
#: v36: words that, right before "to", say what follows is aimed at, tried or hoped for, not
#: done ("The programme aims to reduce obesity", "we sought to determine"): dropped, the claim
#: states the aim as its result.
_AIM_WORDS = frozenset(
    {"aim", "aims", "aimed", "seek", "seeks", "sought", "attempt", "attempts", "attempted",
     "try", "tries", "tried", "strive", "strives", "strived", "hope", "hopes", "intend",
     "intends", "plan", "plans", "planned", "want", "wants", "wanted"}
)  # fmt: skip
#: v36: hedges besides :data:`_HEDGE_WORDS`: a capacity ("has the potential to reduce", "a
#: potential biomarker"), what would or should be ("would reduce", "should lower"), and what
#: holds in theory or by supposition ("theoretically", "supposedly"; "in theory" is read as a
#: phrase, :func:`_in_theory`).
_MORE_HEDGE_WORDS = frozenset(
    {"potential", "would", "should", "theoretically", "hypothetically", "conceivably",
     "supposedly", "allegedly", "purportedly"}
)  # fmt: skip

#: What restricts a finding to part of what it speaks of (v15): a deletion that drops one, or a
#: quote that leaves one off at its edge, states the finding of more than the window does.
#: A population a lead-in or a trailing phrase names ("Among smokers, …", "… in women"):
_POPULATION_WORDS = frozenset(
    {"patients", "participants", "subjects", "women", "men", "children", "adults", "smokers",
     "nonsmokers", "individuals", "users", "survivors", "infants", "adolescents", "girls",
     "boys", "people", "persons", "mothers", "neonates", "newborns", "veterans", "workers",
     "residents", "students", "volunteers", "recipients", "carriers", "drinkers", "elderly",
     "pregnancies", "cohort", "youth", "athletes", "employees", "outpatients", "inpatients",
     "donors", "population", "populations"}
)  # fmt: skip
#: Words that open a phrase naming a population ("among smokers", "in women aged 50 or more").
_POPULATION_OPENERS = frozenset({"among", "amongst", "in", "within", "for"})
#: Words right after a population noun that narrow it ("patients with diabetes", "adults aged").
_POPULATION_QUALIFIERS = frozenset(
    {"with", "without", "who", "whose", "aged", "receiving", "undergoing", "treated", "taking",
     "having", "at", "on", "lacking", "deficient", "expressing", "overexpressing", "carrying",
     "harbouring", "harboring", "bearing", "fed", "infected"}
)  # fmt: skip
#: Words after an opener that name the whole population, which restricts nothing ("In all
#: patients,").
_WHOLE_WORDS = frozenset({"all", "both", "each", "every", "any"})
#: A co-intervention: the finding is of the combination ("Metformin in combination with insulin").
_CO_INTERVENTIONS = (
    ("in", "combination", "with"), ("combined", "with"), ("plus",), ("together", "with"),
    ("co", "administered", "with"), ("coadministered", "with"), ("in", "conjunction", "with"),
    ("added", "to"),
)  # fmt: skip
#: A dose or an intensity, when a level word stands right before it ("high-dose", "low
#: intensity").
_DOSE_WORDS = frozenset({"dose", "doses", "dosage", "dosages", "dosing", "intensity"})
_DOSE_LEVELS = frozenset(
    {"high", "low", "higher", "lower", "highest", "lowest", "moderate", "very"}
)
_SUBGROUP_WORDS = frozenset(
    {"subgroup", "subgroups", "subset", "subsets", "subpopulation", "subpopulations"}
)
#: Words that open a clause conceding something about the finding before it (v15).
_CONCESSIONS = frozenset({"although", "though", "but", "however", "yet"})
#: What a concession may speak of and still be about the finding: "although the difference was
#: not significant", "but this did not reach statistical significance".
_FINDING_NOUNS = frozenset(
    {"difference", "differences", "effect", "effects", "association", "associations", "trend",
     "trends", "reduction", "reductions", "increase", "increases", "decrease", "decreases",
     "change", "changes", "result", "results", "finding", "findings", "benefit", "benefits",
     "improvement", "improvements", "comparison", "comparisons", "statistical", "statistically",
     "reach", "reached", "achieve", "achieved"}
)  # fmt: skip
_SIGNIFICANCE = frozenset({"significant", "significantly", "significance"})
#: Words that may link a noun to its modifier written after it (v15): "patients with COVID-19"
#: for "COVID-19 patients", "isoform of ACE2" for "ACE2 isoform".
_MODIFIER_LINKS = frozenset({"of", "with", "in", "for", "from", "among", "on"})

#: Words that join two phrases: a noun before one belongs to the figure before it (v10).
COORDINATORS = frozenset({"and", "or", "but", "vs", "versus", "than", "whereas", "while"})
_NEGATING_PREFIXES = ("non", "un", "in", "im", "ir", "dis", "anti")


def near_copy(copied: Sequence[bool], changed_runs: int = 1, long_run: int = 0) -> bool:
    """Whether a claim whose content words are ``copied`` (in claim order) nearly copies its
    window: at least :data:`NEAR_COPY_MIN` of them, or all but ``changed_runs`` runs of at most
    :data:`MAX_CHANGED_RUN` words each (one phrase changed; two under score model v6) when at
    least :func:`_kept_min` of them are copied, or (``long_run``, score model v60) all but one
    run of at most ``long_run`` words when at least :data:`LONG_RUN_KEPT_MIN` and
    :data:`LONG_RUN_KEPT_SHARE` of them are copied."""
    n, kept = len(copied), sum(copied)
    if n == 0:
        return False
    if kept >= NEAR_COPY_MIN * n:
        return True
    lengths: list[int] = []
    for i, c in enumerate(copied):
        if not c:
            if i == 0 or copied[i - 1]:
                lengths.append(0)
            lengths[-1] += 1
    if long_run and len(lengths) == 1 and lengths[0] <= long_run and _long_kept(kept, n):
        return True
    return (
        kept >= _kept_min(len(lengths))
        and 1 <= len(lengths) <= changed_runs
        and max(lengths) <= MAX_CHANGED_RUN
        and (len(lengths) == 1 or kept >= TWO_RUNS_KEPT_SHARE * n)
    )


def _long_kept(kept: int, n: int) -> bool:
    """Whether ``kept`` of ``n`` content words copied are enough beside one long changed run."""
    return kept >= LONG_RUN_KEPT_MIN and kept >= LONG_RUN_KEPT_SHARE * n


def _kept_min(runs: int) -> int:
    """Copied content words a claim needs beside ``runs`` changed runs: two beside one, three
    beside two."""
    return runs + 1


def _may_copy(present: int, n: int, changed_runs: int = 1, long_run: int = 0) -> bool:
    """A loose bound on :func:`near_copy` from how many content words the span holds at all."""
    return n > 0 and (
        present >= NEAR_COPY_MIN * n
        or (
            present >= 2
            and n - present <= changed_runs * MAX_CHANGED_RUN
            and (changed_runs == 1 or present >= TWO_RUNS_KEPT_SHARE * n)
        )
        or (bool(long_run) and n - present <= long_run and _long_kept(present, n))
    )


def _key(token: str) -> str:
    """The alignment key of a lowercase token: ``#<number>`` for numbers, else its stem."""
    number = canonical_number(token)
    if number is None and token in _NUMBER_WORDS:
        number = repr(float(_NUMBER_WORDS[token]))
    return f"#{number}" if number is not None else stem(token)


@dataclass(frozen=True, slots=True)
class Text:
    """A tokenised text: NFC form, tokens with offsets, alignment keys, content-word flags."""

    text: str
    tokens: tuple[Token, ...]
    keys: tuple[str, ...]
    content: tuple[bool, ...]
    joined: str  # the token texts joined by a separator (for the verbatim test)
    sentences: int = 1
    #: Per token: a number's unit (a name of :data:`UNITS`, :data:`COUNT`, or None), else None.
    units: tuple[str | None, ...] = ()
    #: Per token (v19): the sign written right after a name ("+" of "CD4+", "-/-" of
    #: "Apoe−/−"), else "" (:func:`marker_of`); empty when the text was read without signs.
    markers: tuple[str, ...] = ()

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Character range from token ``first`` to token ``last`` (inclusive)."""
        return self.tokens[first].start, self.tokens[last].end

    def surface(self, index: int) -> str:
        token = self.tokens[index]
        return self.text[token.start : token.end]


def _is_content(token: Token, text: str, first: bool) -> bool:
    """Not a function word, unless written as a name or acronym (``WHO``, ``IT``)."""
    if token.text not in FUNCTION_WORDS:
        return True
    return entity_shape(text[token.start : token.end], first) is not None


def prepare_text(
    text: str,
    number_formats: bool = False,
    spellings: bool = False,
    signs: bool = False,
    forms: bool = False,
) -> Text:
    """``text`` tokenised for the alignment; ``number_formats``: a figure in another format is
    one token (score models from v17, :func:`spanproof.text.tokens.number_segments`);
    ``spellings``: a word's key is its American spelling, a Greek letter its name (v17,
    :func:`spanproof.text.spelling.american`); ``signs``: a figure keeps its minus sign and a
    name the sign written after it (v19, :func:`marker_of`); ``forms``: a plural abbreviation's
    or an irregular plural's key is its singular's ("HSPCs" is "HSPC", "mice" is "mouse", v20,
    :func:`~spanproof.verify.gates.base_form`, :func:`~spanproof.text.stems.singular`)."""
    normal = nfc(text)
    tokens = tuple(tokenize(normal, number_formats, signs))
    starts = {s.start for s in split_sentences(normal)}
    words = [
        (base_form(normal[t.start : t.end]) or singular(t.text)) if forms else t.text
        for t in tokens
    ]
    keys = tuple(_key(american(w) if spellings else w) for w in words)
    content = tuple(_is_content(t, normal, t.start in starts) for t in tokens)
    return Text(
        normal,
        tokens,
        keys,
        content,
        "\x1f" + "\x1f".join(t.text for t in tokens) + "\x1f",
        max(1, len(starts)),
        tuple(
            unit_of(normal, tokens, content, k) if key.startswith("#") else None
            for k, key in enumerate(keys)
        ),
        tuple(marker_of(normal, t) for t in tokens) if signs else (),
    )


#: v64: how far after "both" the "and" of its pair may come ("both systolic and diastolic").
_BOTH_REACH = 6


def correlatives_joined(text: Text) -> Text:
    """``text`` (a claim) read with "both" before a pair that "and" joins left out and "as well
    as" read as "and" (score model v64): "lowered both systolic and diastolic blood pressure" and
    "lowered systolic as well as diastolic blood pressure" are the claim "lowered systolic and
    diastolic blood pressure", which a near copy of "lowered systolic blood pressure" reads as
    joining a thing to a copied one (v51). Read only for a claim the check does not read as
    written. Offsets stay the text's; the "and" read for "as well as" spans its three words."""
    words = [t.text for t in text.tokens]
    dropped: set[int] = set()
    joined: dict[int, int] = {}  # the first "as" of "as well as" -> its last
    for i, w in enumerate(words):
        if w == "both" and "and" in words[i + 2 : i + 2 + _BOTH_REACH]:
            dropped.add(i)
        elif w == "as" and words[i + 1 : i + 3] == ["well", "as"] and i not in dropped:
            joined[i] = i + 2
            dropped.update((i + 1, i + 2))
    if not dropped:
        return text
    kept = [i for i in range(len(words)) if i not in dropped]
    tokens = tuple(
        Token("and", text.tokens[i].start, text.tokens[joined[i]].end)
        if i in joined
        else text.tokens[i]
        for i in kept
    )
    return replace(
        text,
        tokens=tokens,
        keys=tuple(_key("and") if i in joined else text.keys[i] for i in kept),
        content=tuple(False if i in joined else text.content[i] for i in kept),
        joined="\x1f" + "\x1f".join(t.text for t in tokens) + "\x1f",
        units=tuple(text.units[i] for i in kept) if text.units else (),
        markers=tuple(text.markers[i] for i in kept) if text.markers else (),
    )


#: v19: a sign written right after a name: a genotype's "+/+", "−/−" or "+/−", a "+" or "−"
#: not before a digit ("CD4+", "CD4−CD8−"), a hyphen-minus only before a space, a mark or the
#: end ("CD4- T cells", "ER-)"): before a letter or a digit it joins a compound ("CD4-positive",
#: "IL-6").
_MARKER = re.compile(r"[+\-\u2212]/[+\-\u2212]|[+\u2212](?!\d)|-(?![^\W_])")


def marker_of(text: str, token: Token) -> str:
    """The sign written right after ``token`` in ``text`` ("+", "-", "+/+", "-/-", "+/-"; the
    minus U+2212 read as "-"), or "" — none after a figure, whose "+" is a bound ("10+
    years") (v19)."""
    if token.text[:1].isdigit() or token.text[:1] in MINUS or token.text[:1] == ".":
        return ""
    found = _MARKER.match(text, token.end)
    return found.group().replace("\u2212", "-") if found else ""


def _markers_differ(c: Text, w: Text, quoted: range) -> bool:
    """Whether a claim whose tokens quote ``w``'s at ``quoted`` writes another sign after a
    name that has one on both sides ("CD4−" against "CD4+"; v19)."""
    return any(
        c.markers[i] and w.markers[j] and c.markers[i] != w.markers[j] for i, j in enumerate(quoted)
    )


def _units_differ(c: Text, w: Text, quoted: range) -> bool:
    """Whether a claim whose tokens quote ``w``'s at ``quoted`` gives a figure another unit (the
    tokens carry no "%", so "30%" quotes "30 mg" word for word; v11)."""
    return any(c.units[i] and w.units[j] and c.units[i] != w.units[j] for i, j in enumerate(quoted))


def _inverting(w: Text, wj: Sequence[int], claim: Text, at: int) -> bool:
    """Whether window words ``wj`` end (past linking words: "of", "the", "down") in a word that
    inverts what follows them ("lack of", "inhibition of the", "Blocking", "neither"), and the
    claim does not say it within two words of ``at``, its word for what follows ("Weight loss"
    for "Loss of weight" keeps it) (v13)."""
    words = [w.tokens[j].text.lower() for j in wj]
    while words and words[-1] in _INVERTER_LINKS:
        words.pop()
    near = {t.text.lower() for t in claim.tokens[max(0, at - 2) : at + 3]}
    return bool(words) and words[-1] in _INVERTERS and words[-1] not in near


def _ends_sentence(w: Text, j: int) -> bool:
    """Whether a full stop, "!" or "?" and a space stand between window word ``j`` and the next
    word: a sentence may end there whatever the next word's case ("… after knockdown. p53
    levels rose"), though the sentence splitter reads no break before a lowercase word (v15).
    An abbreviation ("vs.", "et al.") ends a quote's edge too: the edge reads less, never
    more."""
    end = w.tokens[j + 1].start if j + 1 < len(w.tokens) else len(w.text)
    return re.search(r"[.!?]\s", w.text[w.tokens[j].end : end]) is not None


def _head_of(ev: EvidenceText, first_w: int, stops: bool = False) -> list[int]:
    """The window words of ``first_w``'s sentence before it: what a claim quoting from
    ``first_w`` leaves unquoted at its start; with ``stops`` (v15), only those after the last
    word that :func:`_ends_sentence`."""
    head = next((list(range(a, first_w)) for a, b in ev.sentences if a <= first_w < b), [])
    if stops:
        for k in range(len(head) - 1, -1, -1):
            if _ends_sentence(ev.body, head[k]):
                return head[k + 1 :]
    return head


def _clause_head(ev: EvidenceText, first_w: int, stops: bool = False) -> list[int]:
    """The words of :func:`_head_of` from its last clause mark on: the clause a quote from
    ``first_w`` starts in, or the sentence's start."""
    text, tokens = ev.body.text, ev.body.tokens
    head = _head_of(ev, first_w, stops)
    for k in range(len(head) - 1, 0, -1):
        if re.search(r"[,;:]", text[tokens[head[k - 1]].end : tokens[head[k]].start]):
            return head[k:]
    return head


def _holds(words: Sequence[str], phrase: Sequence[str]) -> bool:
    """Whether ``phrase`` stands in ``words``, word for word."""
    n = len(phrase)
    return any(tuple(words[k : k + n]) == tuple(phrase) for k in range(len(words) - n + 1))


def _restriction(w: Text, wj: Sequence[int], claim: Text) -> str | None:
    """What window words ``wj`` restrict the finding with, when the claim says nothing of the
    kind: a co-intervention with a named thing beside it in ``wj`` ("in combination with
    insulin", "insulin plus", not "plus or minus"), a dose or an intensity level the claim does
    not state ("high-dose", "at low doses"), a subgroup ("a subgroup of"); else None (v15)."""
    words = [w.tokens[j].text for j in wj]
    named = [w.content[j] and not w.keys[j].startswith("#") for j in wj]
    kept = [t.text for t in claim.tokens]
    for marker in _CO_INTERVENTIONS:
        n = len(marker)
        for k in range(len(words) - n + 1):
            if tuple(words[k : k + n]) != marker or words[k + n : k + n + 1] == ["or"]:
                continue
            if (any(named[:k]) or any(named[k + n :])) and not _holds(kept, marker):
                return "co-intervention dropped"
    if any(
        a in _DOSE_LEVELS and b in _DOSE_WORDS and not _holds(kept, (a, b))
        for a, b in pairwise(words)
    ):
        return "dose dropped"
    if set(words) & _SUBGROUP_WORDS and not set(kept) & _SUBGROUP_WORDS:
        return "subgroup dropped"
    return None


def _population_phrase(
    w: Text, wj: Sequence[int], claim: Text, kept: Collection[str] | None = None
) -> bool:
    """Whether window words ``wj`` are a phrase naming a population the claim leaves out: an
    opener ("among", "in") and a population noun the claim does not hold ("Among smokers",
    "in women aged 50 or more"), not the whole population ("In all patients") (v15).

    ``kept`` (score model v44) are the claim words that may keep the population: those it does
    not copy from elsewhere in the window. A claim that holds "women" only where it copies
    another clause's "women" ("Men and women presented equally …; … were more frequent |
    among women") keeps no population of the phrase it drops. None: every claim word."""
    words = [w.tokens[j].text for j in wj]
    if not words or words[0] not in _POPULATION_OPENERS or set(words[1:2]) & _WHOLE_WORDS:
        return False
    held = {t.text for t in claim.tokens} if kept is None else set(kept)
    return bool(set(words) & _POPULATION_WORDS - held)


def _narrowing(w: Text, wj: Sequence[int], noun: int) -> bool:
    """Whether window words ``wj`` narrow the population or species noun at ``noun`` right
    before them: "patients | with diabetes", "adults | aged 65 or more", "mice | lacking IL-6"
    (v15)."""
    return (
        noun >= 0
        and w.tokens[noun].text in _POPULATION_WORDS | _SCOPE_WORDS
        and w.tokens[wj[0]].text in _POPULATION_QUALIFIERS
        and any(w.content[j] for j in wj)
    )


def _tail_of(ev: EvidenceText, last_w: int, stops: bool = False) -> list[int]:
    """The window words after ``last_w`` up to its sentence's end or next clause mark: what a
    claim quoting up to ``last_w`` leaves unquoted at its end; with ``stops`` (v15), up to a
    word that :func:`_ends_sentence` too."""
    text, tokens = ev.body.text, ev.body.tokens
    tail: list[int] = []
    for a, b in ev.sentences:
        if a <= last_w < b:
            for j in range(last_w + 1, b):
                if re.search(r"[,;:(\[]|\s[-–—]\s", text[tokens[j - 1].end : tokens[j].start]):
                    break
                if stops and _ends_sentence(ev.body, j - 1):
                    break
                tail.append(j)
    return tail


#: v16: words that bound or place a figure rather than name what it counts ("over 50%", "a pH
#: below 2.0", "before 2002"): the edit check reads past them to the figure's noun.
_FIGURE_MODIFIERS = frozenset(
    {"over", "under", "below", "above", "about", "approximately", "around", "nearly", "almost",
     "roughly", "least", "most", "up", "than", "more", "less", "fewer", "greater", "before",
     "after", "since", "until", "exceeding", "beyond", "within"}
)  # fmt: skip

#: v16: what bounds a figure from one side: dropped right before a figure the claim keeps
#: ("over 50% of patients" → "50% of patients", "less than 5%" → "5%"), the claim states a
#: figure the source does not. Approximations ("about", "approximately") are left alone.
_BOUNDS = (
    ("less", "than"), ("more", "than"), ("fewer", "than"), ("greater", "than"),
    ("higher", "than"), ("lower", "than"), ("at", "least"), ("at", "most"), ("up", "to"),
    ("over",), ("under",), ("below",), ("above",), ("exceeding",), ("nearly",), ("almost",),
)  # fmt: skip
#: Which side each bound, written in words or as a sign, puts the true value on: ``lt`` (below
#: the figure: "less than", "up to", "nearly", "<", "≤") or ``gt`` ("more than", "over", "at
#: least", ">", "≥"). Two bounds of one side say the same for the check ("under 5%" / "<5%").
_BOUND_SIDES: dict[tuple[str, ...], str] = {
    **dict.fromkeys(
        [("less", "than"), ("fewer", "than"), ("lower", "than"), ("at", "most"), ("up", "to"),
         ("under",), ("below",), ("nearly",), ("almost",)], "lt"),
    **dict.fromkeys(
        [("more", "than"), ("greater", "than"), ("higher", "than"), ("at", "least"), ("over",),
         ("above",), ("exceeding",)], "gt"),
}  # fmt: skip
_SIGN_SIDES = {"<": "lt", "≤": "lt", "⩽": "lt", ">": "gt", "≥": "gt", "⩾": "gt"}


def _bound_before(w: Text, j: int) -> list[int]:
    """The words of a bound (:data:`_BOUNDS`) right before window word ``j`` when ``j`` is a
    number ("over" in "over 50%", "less than" in "less than 5%"), with nothing but spaces
    between; else none (v16)."""
    if not 0 <= j < len(w.tokens) or _detail_kind(w, j) != "number":
        return []
    for phrase in _BOUNDS:
        first = j - len(phrase)
        words = range(first, j)
        if first < 0 or tuple(w.tokens[k].text for k in words) != phrase:
            continue
        if all(not w.text[w.tokens[k].end : w.tokens[k + 1].start].strip() for k in words):
            return list(words)
    return []


def _sign_before(text: Text, k: int) -> str | None:
    """The side (``lt``/``gt``) of a comparison sign written right before number token ``k``
    ("<5%", "p < 0.05", "≥65 years"): the sign is no token, so a reader of words misses it
    (v16); else None."""
    if not 0 <= k < len(text.tokens) or _detail_kind(text, k) != "number":
        return None
    start = text.tokens[k - 1].end if k > 0 else 0
    gap = text.text[start : text.tokens[k].start]
    gap = gap.removesuffix(".").strip()  # "P<.001": the token is "001"
    return _SIGN_SIDES.get(gap[-1:]) if gap else None


def _bound_side(text: Text, k: int, after: bool = False) -> str | None:
    """The side of the bound on number token ``k``, in words (:func:`_bound_before`) or as a
    sign (:func:`_sign_before`); None when it has none (v16). ``after``: or written after the
    figure ("65 years or older", :func:`_bound_after`; v19)."""
    words = _bound_before(text, k)
    if words:
        return _BOUND_SIDES[tuple(text.tokens[j].text for j in words)]
    sign = _sign_before(text, k)
    if sign is None and after and (written := _bound_after(text, k)):
        return _after_side(text, written)
    return sign


#: v19: the last word of a bound written after its figure ("65 years or older", "5 or more",
#: "10 mg or less") and its side.
_AFTER_SIDES = {
    **dict.fromkeys(
        ("older", "more", "greater", "above", "over", "higher", "longer", "later"), "gt"),
    **dict.fromkeys(
        ("younger", "less", "fewer", "below", "under", "lower", "shorter", "earlier"), "lt"),
}  # fmt: skip
#: v19: the most words of a unit between a figure and a bound written after it ("65 years or
#: older", "5 mg per day or more").
AFTER_UNIT_MAX = 3


def _bound_after(text: Text, k: int) -> list[int]:
    """The two words ("or older", "or more", "and over") of a bound written right after number
    token ``k``, past at most :data:`AFTER_UNIT_MAX` words of its unit, with nothing but
    spaces (or a "%") between; else none (v19)."""
    if not 0 <= k < len(text.tokens) or _detail_kind(text, k) != "number":
        return []
    for link in range(k + 1, min(k + 2 + AFTER_UNIT_MAX, len(text.tokens) - 1)):
        word = text.tokens[link].text
        if word in ("or", "and"):
            if text.tokens[link + 1].text not in _AFTER_SIDES:
                return []
            gaps = (
                text.text[text.tokens[m].end : text.tokens[m + 1].start] for m in range(k, link + 1)
            )
            return [link, link + 1] if all(g.strip() in ("", "%") for g in gaps) else []
        if _detail_kind(text, link) == "number":
            return []
    return []


def _bracketed(text: Text, j: int) -> bool:
    """Whether token ``j`` stands inside round or square brackets (v33)."""
    before = text.text[: text.tokens[j].start]
    return before.count("(") + before.count("[") > before.count(")") + before.count("]")


#: v33: what introduces the other side of a comparison; a deletion that opens with one drops
#: that side.
_COMPARATORS = frozenset({"versus", "vs", "compared", "than", "relative"})
#: v33: words that state a comparison's outcome, which needs both sides.
_SAMENESS_WORDS = frozenset(
    {"different", "differ", "differed", "differs", "difference", "differences", "similar",
     "comparable", "equal", "equivalent", "identical"}
)  # fmt: skip
#: v33: words by which a claim states both sides of its comparison itself.
_BOTH_SIDES = frozenset({"between", "both"})
#: v33: heads under which a clause is supposed, not asserted ("was seen if X").
_CONDITIONAL_HEADS = frozenset({"if", "unless"})


def _signs_differ(c: Text, w: Text, quoted: range) -> bool:
    """Whether a claim whose tokens quote ``w``'s at ``quoted`` writes a figure's comparison
    sign otherwise ("5%" against "<5%"; the signs are no tokens; v16)."""
    return any(_sign_before(c, i) != _sign_before(w, j) for i, j in enumerate(quoted))


#: v16: the most words a phrase set off by a comma at a sentence's end may have to be read as
#: that sentence's scope (", in mice.").
CLOSING_PHRASE_MAX = 3


def _closing_phrase(ev: EvidenceText, last_w: int, stops: bool = False) -> list[int]:
    """The rest of ``last_w``'s sentence when a comma or a semicolon sets it off and it has at
    most :data:`CLOSING_PHRASE_MAX` words: a closing phrase such as ", in mice." qualifies the
    whole sentence, not the clause before it (v16); else none."""
    text, tokens = ev.body.text, ev.body.tokens
    for a, b in ev.sentences:
        if a <= last_w < b:
            rest = list(range(last_w + 1, b))
            if not rest:
                return []
            gap = text[tokens[last_w].end : tokens[rest[0]].start]
            if len(rest) > CLOSING_PHRASE_MAX or not re.fullmatch(r"\s*[,;]\s*", gap):
                return []
            if stops and any(_ends_sentence(ev.body, j) for j in [last_w, *rest[:-1]]):
                return []
            return rest
    return []


#: v37: what opens a clause conceding a finding that the main clause after it takes back
#: ("Although X was lower, | the difference was not significant").
_CONCEDING_HEADS = frozenset({"although", "though", "while", "whilst"})
#: v37: what may open a clause that speaks of the finding just stated without a concession
#: word ("…; this difference was not significant", "…, which did not reach significance").
_FINDING_REFERENCES = frozenset({"the", "this", "these", "that", "which", "such", "a"})
#: v37: words by which a clause about the finding takes it back ("…, although the effect was
#: attenuated after adjustment", "…, but this effect disappeared at 12 months").
_TAKEN_BACK = frozenset(
    {"attenuated", "disappeared", "vanished", "abolished", "lost", "diminished", "weakened",
     "reversed", "nullified"}
)  # fmt: skip
#: v37: words by which a clause about the finding takes it back when negated ("…, but the
#: effect was not robust to adjustment", "this association was not replicated").
_UPHELD = frozenset(
    {"robust", "replicated", "confirmed", "reproduced", "survive", "survived"}
)  # fmt: skip
#: v37: words of time: a clause that takes the finding back at another time ("this effect
#: disappeared by 12 months") leaves a claim that keeps its own time right, so it is not read.
_TIME_WORDS = frozenset(
    {"second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks",
     "month", "months", "year", "years", "follow", "later", "long", "term", "longer"}
)  # fmt: skip
#: v37: the judgement on a claim that states as significant what its window says was not.
SIGNIFICANCE_REVERSED = "significance reversed"


#: v37: what denies a significance word a few words after it ("failed to reach statistical
#: significance", "without significant change").
_SIGNIFICANCE_DENIERS = frozenset({"not", "no", "non", "failed", "fail", "fails", "without"})


def _significance_negated(words: Sequence[str], k: int, wide: bool = False) -> bool:
    """Whether ``words[k]`` says a finding was not significant: "nonsignificant",
    "insignificant", or a significance word with "not", "no" or "non" among the three words
    before it ("did not reach statistical significance", "non-significant"). ``wide`` (v37):
    also "failed", "fail(s)" or "without", among the four words before it ("failed to reach
    statistical significance")."""
    word = words[k]
    if word in {"nonsignificant", "insignificant"}:
        return True
    if word not in _SIGNIFICANCE:
        return False
    if wide:
        return bool(_SIGNIFICANCE_DENIERS & set(words[max(0, k - 4) : k]))
    return bool({"not", "no", "non"} & set(words[max(0, k - 3) : k]))


def _affirms_significance(t: Text) -> bool:
    """Whether a text says its finding was significant: a significance word not negated
    ("significantly lower"; not "not significantly lower", not "non-significant") (v37)."""
    words = [tok.text for tok in t.tokens]
    return any(
        word in _SIGNIFICANCE and not _significance_negated(words, k, wide=True)
        for k, word in enumerate(words)
    )


def _caveat_judgement(why: str) -> str:
    """The edit judgement for what :func:`_caveat` found: a significance the claim reverses
    contradicts the window (v37); anything else it drops leaves the claim unsupported."""
    return f"contradicted: {why}" if why == SIGNIFICANCE_REVERSED else f"unsupported: {why}"


def _caveat(
    w: Text,
    clause: Sequence[int],
    claim: Text,
    caveats: bool = False,
    conceded: bool = False,
) -> str | None:
    """What the clause right after a quote's last word (past a comma or a semicolon) takes back
    from the finding, when the claim says nothing of it (v15): "but only in women under 50"
    (``restriction dropped``), "although the difference was not significant" (``caveat
    dropped``: a concession of non-significance about the finding itself, not "whereas B did
    not change significantly", whose subject is another thing); else None.

    ``caveats`` (score model v37): the clause may also open with a word that refers to the
    finding ("; this difference was not significant", ", which did not reach significance"),
    or with anything when the quote's own clause concedes (``conceded``: "Although X, | the
    difference was not significant"); and a claim that says its finding was significant
    ("significantly lower") where the clause says it was not reverses it
    (:data:`SIGNIFICANCE_REVERSED`). The clause may also take the finding back otherwise: "the
    effect was attenuated after adjustment", "this effect disappeared", "was not robust to
    adjustment" (:data:`_TAKEN_BACK`, :data:`_UPHELD` negated), unless it speaks of another
    time (:data:`_TIME_WORDS`: "this effect disappeared by 12 months")."""
    words = [w.tokens[j].text for j in clause]
    kept = {t.text for t in claim.tokens}
    if (words[:1] == ["only"] or words[:2] == ["but", "only"]) and "only" not in kept:
        return "restriction dropped"
    opens = bool(words) and (
        words[0] in _CONCESSIONS or (caveats and (conceded or words[0] in _FINDING_REFERENCES))
    )
    affirmed = caveats and _affirms_significance(claim)
    if not opens or (kept & _SIGNIFICANCE and not affirmed):
        return None
    for k in range(len(words)):
        if _significance_negated(words, k, wide=caveats):
            if not _of_the_finding(w, clause[1:k]):
                return None
            return SIGNIFICANCE_REVERSED if affirmed else "caveat dropped"
    if caveats and not set(words) & _TIME_WORDS:
        for k, word in enumerate(words):
            if word in _TAKEN_BACK or (
                word in _UPHELD and {"not", "no", "never"} & set(words[max(0, k - 3) : k])
            ):
                return "caveat dropped" if _of_the_finding(w, clause[1:k]) else None
    return None


def _of_the_finding(w: Text, subject: Sequence[int]) -> bool:
    """Whether the words of a caveat before what it says (``subject``) speak of the finding
    itself: no content word but a finding noun ("the difference", "this effect") or a
    negation; "whereas B did not change significantly" speaks of B."""
    return not any(
        w.content[j]
        and w.tokens[j].text not in _FINDING_NOUNS
        and not is_negation(w.tokens[j].text)
        for j in subject
    )


def _conceded(w: Text, head: Sequence[int]) -> bool:
    """Whether the words before a quote in its clause (``head``) open a concession: "Although",
    "Though", "While" or "Even though", then no content word ("Although the | X …") (v37)."""
    words = [w.tokens[j].text for j in head]
    if words[:2] == ["even", "though"]:
        k = 2
    elif words[:1] and words[0] in _CONCEDING_HEADS:
        k = 1
    else:
        return False
    return not any(w.content[j] for j in head[k:])


def _past_aside(ev: EvidenceText, last_w: int) -> int:
    """The last word of a bracketed aside right after ``last_w`` in its sentence ("… treatment
    group | (12% vs 15%)"), or ``last_w`` when no aside follows it (v37)."""
    w = ev.body
    if last_w + 1 >= len(w.tokens) or not re.fullmatch(
        r"\s*[(\[]\s*", w.text[w.tokens[last_w].end : w.tokens[last_w + 1].start]
    ):
        return last_w
    end = next((b for a, b in ev.sentences if a <= last_w < b), last_w + 1)
    for j in range(last_w + 1, min(end, len(w.tokens) - 1)):
        if re.search(r"[)\]]", w.text[w.tokens[j].end : w.tokens[j + 1].start]):
            return j
    return last_w


def _next_clause(ev: EvidenceText, last_w: int, aside: bool = False) -> list[int]:
    """The clause after a comma or a semicolon right after ``last_w``, in its sentence, up to
    the next clause mark or the sentence's end (:func:`_tail_of` past the mark); past a lone
    concession word's own comma ("; however, the difference …"). With ``aside`` (v37), also
    past a bracketed aside between ``last_w`` and the comma (:func:`_past_aside`: "… group
    (12% vs 15%), although …"), or past the end of one that ``last_w`` stands in."""
    w = ev.body
    gap = r"\s*[,;]\s*"
    if aside:  # past an aside, or out of one the quote ends in
        last_w, gap = _past_aside(ev, last_w), r"(?:[^\w\s]{0,3}\s*[)\]])?\s*[,;]\s*"
    if last_w + 1 >= len(w.tokens) or not re.fullmatch(
        gap, w.text[w.tokens[last_w].end : w.tokens[last_w + 1].start]
    ):
        return []
    if not any(a <= last_w + 1 < b for a, b in ev.sentences):
        return []
    return _clause_from(ev, last_w + 1)


def _clause_from(ev: EvidenceText, first: int) -> list[int]:
    """The clause that opens at word ``first``, up to the next clause mark or its sentence's end
    (:func:`_tail_of`), past a lone concession word's own comma ("; however, the …"), when a
    word of the sentence follows it."""
    clause = [first, *_tail_of(ev, first, stops=True)]
    lone = clause == [first] and ev.body.tokens[first].text in _CONCESSIONS
    if lone and any(a <= first + 1 < b for a, b in ev.sentences):
        clause += [first + 1, *_tail_of(ev, first + 1, stops=True)]
    return clause


def _next_sentence_clause(ev: EvidenceText, last_w: int) -> list[int]:
    """The first clause of the sentence after the one ``last_w`` ends (past a bracketed aside
    it ends with), when it opens with a word that refers to the finding or concedes it ("X was
    lower (12% vs 15%). | This difference was not significant."; "However, the difference …")
    (v37); else none."""
    w = ev.body
    end = _past_aside(ev, last_w)
    here = next((k for k, (a, b) in enumerate(ev.sentences) if a <= end < b), None)
    if here is None or end + 1 != ev.sentences[here][1] or here + 1 >= len(ev.sentences):
        return []
    first = ev.sentences[here + 1][0]
    if w.tokens[first].text not in _FINDING_REFERENCES | _CONCESSIONS:
        return []
    return _clause_from(ev, first)  # past "However," to "the difference …"


#: v37: prepositions that open a qualifier of a finding, which a "but not" may contrast ("in
#: the per-protocol analysis but not in the intention-to-treat analysis", "at 6 months but not
#: at 12 months").
_QUALIFIER_PREPOSITIONS = frozenset(
    {"in", "at", "among", "during", "after", "before", "for", "with", "within", "on", "under",
     "from", "by", "over", "compared", "relative", "versus", "vs"}
)  # fmt: skip


def _contrasted(words: Sequence[str], claim: Text) -> bool:
    """Whether the words a quote leaves off at its end open with a qualifier that a "but not"
    contrasts ("… reduced relapse | in the per-protocol analysis but not in the
    intention-to-treat analysis", "| at 6 months, but not at 12 months"): the finding holds
    under the qualifier only, and the claim, which says no "but not" itself, states it
    whole (v37)."""
    if not words or words[0] not in _QUALIFIER_PREPOSITIONS:
        return False
    if {"but", "not"} <= {t.text for t in claim.tokens}:
        return False
    return any(
        a == "but" and b == "not" and c in _QUALIFIER_PREPOSITIONS
        for a, b, c in zip(words[1:], words[2:], words[3:], strict=False)
    )


def _only_under(words: Sequence[str], claim: Text) -> bool:
    """Whether the words a quote leaves off at its end say the finding holds only under a
    qualifier ("… reduced relapse | only in patients with a high viral load", "| only when
    given early") and the claim says no "only" itself (v37)."""
    return (
        len(words) > 1
        and words[0] == "only"
        and words[1] in _QUALIFIER_PREPOSITIONS | {"when", "if", "where", "while"}
        and "only" not in {t.text for t in claim.tokens}
    )


def _edge_restrictions(
    c: Text,
    ev: EvidenceText,
    first_w: int,
    last_w: int,
    quoted_head: bool,
    caveats: bool = False,
    population_kept: Collection[str] | None = None,
) -> list[tuple[list[int], str]]:
    """What restricts the finding at the quote's edges that the claim leaves off (v15): after
    its last quoted word ``last_w``, a co-intervention, a dose, a subgroup, a population ("…
    reduced falls | in women") or what narrows a quoted population noun ("… in patients | with
    diabetes"), or, past a comma or a semicolon, a clause that takes the finding back in part
    (:func:`_caveat`); before its first ``first_w``, unless the claim puts words of its own there
    (``quoted_head`` False), the same in the clause before it, a population only as a lead-in
    closed by a comma ("Among smokers, | the intervention reduced …"). With ``caveats``
    (v37) the clause after the quote may follow a bracketed aside, and is read as a caveat
    when the quote's own clause concedes ("Although | X, the difference was not significant")
    or when it refers to the finding ("; this difference was not significant"). Given
    ``population_kept`` (v44), only those claim words keep a population
    (:func:`_population_phrase`)."""
    w = ev.body
    out: list[tuple[list[int], str]] = []
    tail = _tail_of(ev, last_w, stops=True)
    if tail:
        why = _restriction(w, tail, c)
        if why is None and (
            _population_phrase(w, tail, c, population_kept) or _narrowing(w, tail, last_w)
        ):
            why = "population dropped"
        if why is None and caveats:
            after = _next_clause(ev, tail[-1])
            words = [w.tokens[j].text for j in [*tail, *after]]
            if _contrasted(words, c) or _only_under(words, c):
                why = "restriction dropped"
        if why is not None:
            out.append((tail, f"unsupported: {why}"))
    elif clause := (
        _next_clause(ev, last_w, aside=caveats)
        or (_next_sentence_clause(ev, last_w) if caveats else [])
    ):
        conceded = caveats and _conceded(w, _clause_head(ev, first_w, stops=True))
        if (why := _caveat(w, clause, c, caveats, conceded)) is not None:
            out.append((clause, _caveat_judgement(why)))
    head = _clause_head(ev, first_w, stops=True)
    if quoted_head and head:
        why = _restriction(w, head, c)
        lead_in = "," in w.text[w.tokens[head[-1]].end : w.tokens[first_w].start]
        if why is None and lead_in and _population_phrase(w, head, c, population_kept):
            why = "population dropped"
        if why is not None:
            out.append((head, f"unsupported: {why}"))
    return out


def _extent_head(ev: EvidenceText, first_w: int, stops: bool = False) -> list[int]:
    """The words right before a quote from ``first_w``, in its clause, that are no content
    words or are words of extent (v35): what qualifies the quote's first words ("We found that
    some | patients …"), not a word of another phrase ("was partially effective and | patients
    …" stops at "effective")."""
    w = ev.body
    head = _clause_head(ev, first_w, stops)
    out: list[int] = []
    for j in reversed(head):
        if w.content[j] and w.tokens[j].text not in _EXTENT_WORDS | _PART_WORDS:
            break
        out.insert(0, j)
    return out


#: v37: words saying a difference was seen in the figures only, not shown significant
#: ("numerically lower"): read as words of extent.
_NUMERIC_ONLY_WORDS = frozenset({"numerically", "numeric", "numerical"})
#: v37: words saying a finding held for a while only ("transiently increased", "a temporary
#: reduction"): dropped, the claim states it as lasting.
_DURATION_WORDS = frozenset(
    {"transiently", "transient", "temporarily", "temporary", "briefly", "short-lived"}
)


def _extent_dropped(
    w: Text, wj: Sequence[int], kept: Iterable[str], caveats: bool = False
) -> str | None:
    """What the deleted window words ``wj`` limited the finding's extent with, when ``kept``
    (the claim's words there) holds nothing of the kind (v35): a word saying it holds in part,
    largely or at the margin of significance, or is a trend (:data:`_EXTENT_WORDS`: "partly",
    "largely", "marginally", "tended"), or one saying it is of part of what it speaks of or
    holds only some of the time (:data:`_PART_WORDS`: "some", "a minority of", "seldom"; not
    "some" before a figure, an approximation: "some 30 patients"); else None. With ``caveats``
    (v37), "numerically" ("numerically lower": not shown significant) is a word of extent, and
    a word saying the finding held for a while only ("transiently", "temporary";
    :data:`_DURATION_WORDS`) gives ``duration dropped``."""
    words = [w.tokens[j].text for j in wj]
    extent = _EXTENT_WORDS | _NUMERIC_ONLY_WORDS if caveats else _EXTENT_WORDS
    if set(words) & extent and not set(kept) & extent:
        return "extent dropped"
    if caveats and set(words) & _DURATION_WORDS and not set(kept) & _DURATION_WORDS:
        return "duration dropped"
    parts = {
        w.tokens[j].text
        for j in wj
        if w.tokens[j].text in _PART_WORDS
        and not (w.tokens[j].text == "some" and j + 1 < len(w.keys) and w.keys[j + 1][:1] == "#")
    }
    if parts and not set(kept) & _PART_WORDS:
        return "part stated as the whole"
    return None


def _edge_edits(
    c: Text,
    ev: EvidenceText,
    quote: tuple[int, int, int],
    overstatement: bool,
    inversions: bool,
    frames: bool,
    restrictions: bool = False,
    local_qualifiers: bool = False,
    bounds: bool = False,
    conditionals: bool = False,
    extent: bool = False,
    suppositions: bool = False,
    caveats: bool = False,
    population_kept: Collection[str] | None = None,
) -> list[tuple[list[int], str]]:
    """The unquoted window words around a quote that change what it says, each with its
    judgement: a scope at either edge (v12), a restriction (v15), and, when the claim puts no
    content word of its own in front of the quote, an inverting word (v13) or a frame (v14)
    right before it. ``quote`` is the first and last quoted window words and the claim word at
    the first. Under v15 (``restrictions``) every edge ends where a sentence does, whatever the
    next word's case (:func:`_ends_sentence`). Under v16 (``local_qualifiers``) a scope is
    kept only by one of its kind (:func:`_scopes_kept`), and (``bounds``) a quote that starts
    at a figure may not leave off its bound ("Over | 50% of patients", :func:`_bound_before`).
    Under v33 (``conditionals``) a conditional head ("… was seen if | X") frames what follows.
    Under v35 (``extent``), when the claim puts no content word of its own in front of the
    quote, a word of extent right before it ("Partially | effective vaccines", "Some | patients
    responded"; :func:`_extent_head`). Under v36 (``suppositions``) the frame may also be one
    that puts forward what follows ("It has been proposed that | X"; :func:`_framing`). Under
    v37 (``caveats``) a caveat of non-significance is read past an aside, after a
    conceding clause and when it refers to the finding, and a claim that calls the finding
    significant against it reverses it (:func:`_edge_restrictions`, :func:`_caveat`)."""
    first_w, last_w, first_c = quote
    stops = restrictions
    scopes = _edge_scope(c, ev, first_w, last_w, stops, local_qualifiers) if overstatement else []
    out = [(wj, "unsupported: scope dropped") for wj in scopes]
    own_head = any(c.content[i] for i in range(first_c))
    bound = _bound_before(ev.body, first_w) if bounds and first_c == 0 else []
    if bound and bound[0] >= next((a for a, b in ev.sentences if a <= first_w < b), 0):
        out.append((bound, "unsupported: bound dropped"))
    if restrictions:
        out += _edge_restrictions(c, ev, first_w, last_w, not own_head, caveats, population_kept)
    if extent and not own_head:
        head = _extent_head(ev, first_w, stops)
        if head and (why := _extent_dropped(ev.body, head, [t.text for t in c.tokens], caveats)):
            out.append((head, f"unsupported: {why}"))
    if own_head:
        return out
    head = _edge_inverter(c, ev, first_w, first_c, stops) if inversions else []
    if head:
        out.append((head, "unsupported: inverting word dropped"))
    frame = _edge_frame(ev, first_w, stops, conditionals, suppositions, caveats) if frames else []
    if frame:
        out.append((frame, "unsupported: not asserted by the window"))
    return out


def _figure_bounded_after(text: Text, before: int) -> tuple[int, list[int]] | None:
    """The nearest figure at token ``before`` or up to :data:`AFTER_UNIT_MAX` tokens before it
    that has a bound written after it, with that bound's words (v19); None when there is none."""
    for k in range(before, max(-1, before - 1 - AFTER_UNIT_MAX), -1):
        if bound := _bound_after(text, k):
            return k, bound
    return None


def _after_side(text: Text, bound: Sequence[int]) -> str:
    """The side (``lt``/``gt``) of a bound written after its figure (v19)."""
    return _AFTER_SIDES[text.tokens[bound[-1]].text]


def _end_bound_dropped(
    c: Text, w: Text, last_w: int, claim_at: Callable[[int], int | None]
) -> list[tuple[list[int], str]]:
    """The bound written after a figure that a quote ending at window word ``last_w`` leaves
    off ("… ejection fraction of 35%" quoted from "… of 35% or less"), unless the claim's
    figure (``claim_at`` gives the claim word at a window word) states a bound of the same side
    another way ("≤35%") (v19)."""
    found = _figure_bounded_after(w, last_w)
    if found is None or found[1][0] <= last_w:
        return []
    k, after = found
    at = claim_at(k)
    if at is None or _bound_side(c, at, True) != _after_side(w, after):
        return [(after, "unsupported: bound dropped")]
    return []


def _edge_inverter(
    c: Text, ev: EvidenceText, first_w: int, first_c: int, stops: bool = False
) -> list[int]:
    """The window words before the claim's first quoted word ``first_w`` (the claim's
    ``first_c``), in its sentence, when they end in an inverting word the claim drops by
    starting after it ("Lack of exercise increased falls" quoted from "exercise"), from that
    word on; else none (v13)."""
    head = _head_of(ev, first_w, stops)
    while head and ev.body.tokens[head[-1]].text.lower() in _INVERTER_LINKS:
        head.pop()
    if head and _inverting(ev.body, head, c, first_c):
        return list(range(head[-1], first_w))
    return []


#: v37: what says the evidence for what follows "that" is weak ("Low-certainty evidence
#: suggests that", "There is limited evidence that", "Preliminary evidence indicates that").
_WEAK_EVIDENCE_WORDS = frozenset(
    {"limited", "weak", "preliminary", "insufficient", "inconclusive", "sparse", "scant",
     "scarce", "tentative", "anecdotal", "low", "emerging", "conflicting", "inconsistent"}
)  # fmt: skip


def _framing(w: Text, wj: Sequence[int], suppositions: bool = False, caveats: bool = False) -> bool:
    """Whether window words ``wj`` end in a head under which what follows is not asserted:
    "whether" (not "regardless of whether"), or "that" after a negation or a word of
    :data:`_FRAME_WORDS` among its five words before, with no backing word unless negated
    ("There is no evidence that", "We tested the hypothesis that", "It is unclear whether";
    not "We found that", "Our results suggest that") (v14). Under v36 (``suppositions``) a
    word of :data:`_SUPPOSITION_WORDS` frames too, and one of
    :data:`_PASSIVE_SUPPOSITION_WORDS` right after a form of "be" ("It has been proposed
    that", "It was suggested that"); :data:`_MORE_BACKING_WORDS` back it. Under v37
    (``caveats``) weak evidence frames what it is evidence for, whatever verb follows it
    ("Low-certainty evidence suggests that", "There is limited evidence that";
    :data:`_WEAK_EVIDENCE_WORDS`)."""
    words = [w.tokens[j].text.lower() for j in wj]
    if not words or words[-1] not in {"that", "whether"}:
        return False
    near = words[-6:-1]
    if words[-1] == "whether":
        return near[-2:] not in (["regardless", "of"], ["irrespective", "of"])
    denied = any(is_negation(t) for t in near)
    if caveats and "evidence" in near:
        before = {part for t in near[: near.index("evidence")] for part in t.split("-")}
        if before & _WEAK_EVIDENCE_WORDS:
            return True
    backing = _BACKING_WORDS | _MORE_BACKING_WORDS if suppositions else _BACKING_WORDS
    if set(near) & backing and not denied:
        return False
    if suppositions and (
        set(near) & _SUPPOSITION_WORDS
        or any(t in _PASSIVE_SUPPOSITION_WORDS and _passive(near, k) for k, t in enumerate(near))
    ):
        return True
    return denied or bool(set(near) & _FRAME_WORDS)


def _passive(words: Sequence[str], k: int) -> bool:
    """Whether the participle ``words[k]`` follows a form of "be", right before it or past one
    adverb ("is thought", "are often assumed", "has been widely suggested") (v36)."""
    if k > 0 and words[k - 1] in _BE_FORMS:
        return True
    return (
        k > 1
        and (words[k - 1].endswith("ly") or words[k - 1] in _PASSIVE_ADVERBS)
        and words[k - 2] in _BE_FORMS
    )


def _in_theory(w: Text, wj: Sequence[int]) -> bool:
    """Whether the deleted window words ``wj`` hold "in theory" (v36: a hedge)."""
    words = [w.tokens[j].text.lower() for j in wj]
    return any(a == "in" and b == "theory" for a, b in pairwise(words))


#: v37: participles that, between a form of "be" and "to", say what follows is a projection of
#: a model, not a finding ("is projected to reduce", "was forecast to rise").
_PROJECTING_WORDS = frozenset(
    {"projected", "forecast", "forecasted", "modelled", "modeled", "simulated"}
)


def _raised(w: Text, wj: Sequence[int], caveats: bool = False) -> bool:
    """Whether the deleted window words ``wj`` hold a supposing, intending or doubting word
    between a form of "be" (:func:`_passive`) and "to" ("is thought to", "are often assumed
    to", "was designed to", "is unlikely to"; :data:`_RAISING_WORDS`), or a word of aim right
    before "to" ("aims to", "sought to"; :data:`_AIM_WORDS`), so what the window's subject does
    after it is supposed, aimed at or doubted, not found (v36). With ``caveats`` (v37) a word of
    projection too ("is projected to", "was forecast to"; :data:`_PROJECTING_WORDS`)."""
    raising = _RAISING_WORDS | _PROJECTING_WORDS if caveats else _RAISING_WORDS
    words = [t.text.lower() for t in w.tokens]
    return any(
        j + 1 < len(words)
        and words[j + 1] == "to"
        and (words[j] in _AIM_WORDS or (words[j] in raising and _passive(words, j)))
        for j in wj
    )


def _edge_frame(
    ev: EvidenceText,
    first_w: int,
    stops: bool = False,
    conditionals: bool = False,
    suppositions: bool = False,
    caveats: bool = False,
) -> list[int]:
    """The head of the clause the claim quotes from its start, when the claim starts right
    after a framing "that" or "whether" (:func:`_framing`, with v36's ``suppositions`` and
    v37's ``caveats``), or
    under v33 (``conditionals``) "if" or "unless": the head from its clause mark or the
    sentence's start; else none (v14)."""
    head = _clause_head(ev, first_w, stops)
    if head and conditionals and ev.body.tokens[head[-1]].text.lower() in _CONDITIONAL_HEADS:
        return head
    return head if head and _framing(ev.body, head, suppositions, caveats) else []


def _scopes_kept(dropped: Iterable[str], kept: Iterable[str]) -> bool:
    """Whether the claim words ``kept`` keep every species or in-vitro scope the window words
    ``dropped`` name, kind by kind (:data:`_SCOPE_KINDS`; v16)."""
    ours = {_SCOPE_KINDS[t] for t in map(str.lower, kept) if t in _SCOPE_KINDS}
    species = ours - {"vitro"}
    for word in dropped:
        kind = _SCOPE_KINDS.get(word.lower())
        if kind is None or kind in ours:
            continue
        if (kind == "broad" and species) or (kind != "vitro" and "broad" in ours):
            continue
        return False
    return True


def _reach(c: Text, start: int, end: int) -> set[str]:
    """The claim's words in the stretch around characters ``start``..``end`` that no clause
    mark or joining word cuts (:data:`_QUALIFIER_BOUND` before it,
    :data:`_QUALIFIER_BOUND_AFTER` after it): where a hedge or an association would qualify
    what stands there (v16)."""
    text = c.text
    left = max((m.end() for m in _QUALIFIER_BOUND.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in _QUALIFIER_BOUND_AFTER.finditer(text, end)), len(text))
    return {t.text for t in c.tokens if t.start >= left and t.end <= right}


def _edge_scope(
    c: Text, ev: EvidenceText, first_w: int, last_w: int, stops: bool = False, by_kind: bool = False
) -> list[list[int]]:
    """A species or in-vitro qualifier the claim leaves off by quoting less of the sentence
    (v12): the window tokens after its last quoted word ``last_w`` up to the sentence's end or
    next clause mark ("… was corrected" against "… was corrected in mice."), and those before
    its first quoted word ``first_w`` in the same sentence ("In mice, …"), each when it holds
    such a word and the claim holds none (under v16, ``by_kind``: none of its kind,
    :func:`_scopes_kept`). Neither is an edit of a copy otherwise."""
    kept = [t.text for t in c.tokens]
    if not by_kind and set(kept) & _SCOPE_WORDS:
        return []
    tokens = ev.body.tokens
    out = []
    tail = _tail_of(ev, last_w, stops)
    if by_kind and not tail:
        tail = _closing_phrase(ev, last_w, stops)
    for edge in (_head_of(ev, first_w, stops), tail):
        dropped = [tokens[j].text for j in edge]
        if set(dropped) & _SCOPE_WORDS and not (by_kind and _scopes_kept(dropped, kept)):
            out.append(edge)
    return out


def _unit_name(text: Text, indices: Sequence[int]) -> str | None:
    """The unit these words write ("mm Hg" → ``mmhg``), or None."""
    return UNITS.get(" ".join(text.tokens[k].text for k in indices))


def _figure_range(text: Text, k: int) -> tuple[int, int]:
    """Characters of the figure at token ``k`` with its unit: "5%", "12 weeks", "5 mm Hg"."""
    start, end = text.tokens[k].start, text.tokens[k].end
    unit = text.units[k]
    if unit == "%":
        found = _PERCENT_AFTER.match(text.text, end)
        return start, found.end() if found else end
    words = (
        2
        if k + 2 < len(text.tokens)
        and unit == UNITS.get(f"{text.tokens[k + 1].text} {text.tokens[k + 2].text}")
        else 1
    )
    return start, text.tokens[min(k + words, len(text.tokens) - 1)].end


def unit_of(text: str, tokens: Sequence[Token], content: Sequence[bool], k: int) -> str | None:
    """The unit of the figure at token ``k``: ``%`` for a percent sign or word right after it,
    a name of :data:`UNITS` for a unit word joined to it by a space or a hyphen ("5 mmHg",
    "12-week", "5 mm Hg", "3 percentage points"), :data:`COUNT` for another content word of
    letters after a space ("12 participants"), else None ("by 30 in", "5 after", "(n = 12)",
    "19-related")."""
    end = tokens[k].end
    if _PERCENT_AFTER.match(text, end):
        return "%"
    if k + 1 >= len(tokens):
        return None
    joint = text[end : tokens[k + 1].start]
    if joint not in (" ", "-", "\u00a0"):
        return None
    word = tokens[k + 1].text
    if k + 2 < len(tokens) and text[tokens[k + 1].end : tokens[k + 2].start] == " ":
        pair = UNITS.get(f"{word} {tokens[k + 2].text}")
        if pair is not None:
            return pair
    if word in UNITS:
        return UNITS[word]
    if joint != "-" and content[k + 1] and word not in STOP_WORDS and word.isalpha():
        return COUNT  # not "96-covid" (a slug) or "19-related" (a compound)
    return None


def _run(keys: Sequence[str]) -> str:
    return "\x1f" + "\x1f".join(keys) + "\x1f"


@dataclass(frozen=True, slots=True)
class EvidenceText:
    """An evidence span prepared once per plan: tokens, sentences, keys, definitions."""

    id: str
    body: Text
    sentences: tuple[tuple[int, int], ...]  # token index ranges [start, end)
    sentence_keys: tuple[frozenset[str], ...]
    keys: frozenset[str]
    abbreviations: tuple[Abbreviation, ...]  # (short key, long-form keys)
    content_run: str = ""  # the content-word keys in order, joined (``_run``)

    def states(self, keys: Sequence[str]) -> bool:
        """Whether the span states these content words, in this order, side by side."""
        return _run(keys) in self.content_run


#: An abbreviation as the check reads it: its short form's key and its long form's keys.
Abbreviation = tuple[str, tuple[str, ...]]


def abbreviation_keys(
    text: str, tokens: Sequence[Token] | None = None, spellings: bool = False
) -> tuple[Abbreviation, ...]:
    """The abbreviations ``text`` defines ("pyridostatin (PDS)"), as keys."""
    spelt = american if spellings else str
    return tuple(
        (_key(spelt(d.short)), tuple(_key(spelt(w)) for w in d.long))
        for d in definitions(nfc(text), None if tokens is None else list(tokens))
    )


def prepare_evidence(
    span_id: str,
    text: str,
    number_formats: bool = False,
    spellings: bool = False,
    shared: Sequence[Abbreviation] = (),
    signs: bool = False,
    forms: bool = False,
) -> EvidenceText:
    """``text`` prepared for the edit check; ``shared``: abbreviations other spans of its source
    define (score model v17), read as if the span defined them too; ``signs`` and ``forms`` as
    for :func:`prepare_text` (v19, v20)."""
    body = prepare_text(text, number_formats, spellings, signs, forms)
    own = abbreviation_keys(body.text, body.tokens, spellings)
    ranges: list[tuple[int, int]] = []
    index = 0
    for sentence in split_sentences(body.text):
        start = index
        while index < len(body.tokens) and body.tokens[index].start < sentence.end:
            index += 1
        if index > start:
            ranges.append((start, index))
    if index < len(body.tokens) or not ranges:
        ranges.append((index if ranges else 0, len(body.tokens)))
    return EvidenceText(
        span_id,
        body,
        tuple(ranges),
        tuple(frozenset(body.keys[a:b]) for a, b in ranges),
        frozenset(body.keys),
        own + tuple(d for d in dict.fromkeys(shared) if d not in own),
        _run([k for k, f in zip(body.keys, body.content, strict=True) if f]),
    )


@dataclass(frozen=True, slots=True)
class Question:
    """Two phrases whose meaning decides a substitution: the caller embeds both."""

    claim_phrase: str
    evidence_phrase: str


@dataclass(frozen=True, slots=True)
class Pending:
    """An edit before judgement; ``judgement`` is None while its question is open."""

    op: str
    claim: tuple[int, int]
    evidence: tuple[int, int]
    judgement: str | None
    question: int = -1


@dataclass(frozen=True, slots=True)
class Alignment:
    """Phase one of the check: the classified differences and the questions still open."""

    claim: str
    evidence_id: str
    evidence_text: str
    near_copy: bool
    pending: tuple[Pending, ...] = ()
    questions: tuple[Question, ...] = ()


@dataclass(frozen=True, slots=True)
class EditCheck:
    """Phase two: every edit judged, and the outcome that caps the pair."""

    edits: tuple[Edit, ...]
    outcome: Outcome
    near_copy: bool = True


NOT_NEAR_COPY = EditCheck((), "none", near_copy=False)


def judge_edits(alignment: Alignment, similarities: Sequence[float], threshold: float) -> EditCheck:
    """Judge the open questions by their phrase cosines and summarise the check.

    Args:
        alignment: from :func:`align_edits`.
        similarities: the cosine of each of ``alignment.questions``' phrase pairs, in order.
        threshold: the calibrated cosine at or above which two phrases mean the same.
    """
    if not alignment.near_copy:
        return NOT_NEAR_COPY
    if len(similarities) != len(alignment.questions):
        raise ValueError(
            f"{len(similarities)} similarities for {len(alignment.questions)} questions"
        )
    edits = []
    for p in alignment.pending:
        judgement = p.judgement
        if judgement is None:
            sim = float(similarities[p.question])
            judgement = (
                f"allowed: same meaning (similarity {sim:.2f})"
                if sim >= threshold
                else f"unsupported: different meaning (similarity {sim:.2f} < {threshold:g})"
            )
        edits.append(
            Edit(
                p.op,
                p.claim[0],
                p.claim[1],
                alignment.claim[p.claim[0] : p.claim[1]],
                alignment.evidence_id,
                p.evidence[0],
                p.evidence[1],
                alignment.evidence_text[p.evidence[0] : p.evidence[1]],
                judgement,
            )
        )
    statuses = {e.status for e in edits}
    outcome: Outcome = (
        "contradicted"
        if "contradicted" in statuses
        else "unsupported"
        if "unsupported" in statuses
        else "none"
    )
    return EditCheck(tuple(edits), outcome)


def align_edits(
    claim: Text | str,
    evidence: EvidenceText | str,
    around: tuple[int, int] | None = None,
    changed_runs: int = 1,
    run_share_min: float = 0.0,
    mixups: bool = False,
    moved_figures: bool = False,
    units: bool = False,
    overstatement: bool = False,
    inversions: bool = False,
    frames: bool = False,
    restrictions: bool = False,
    reorders: bool = False,
    local_qualifiers: bool = False,
    figure_nouns: bool = False,
    bounds: bool = False,
    contractions: bool = False,
    abbreviated: bool = False,
    compounds: bool = False,
    signs: bool = False,
    postposed: bool = False,
    clause_mixups: bool = False,
    carried_details: bool = False,
    extent: bool = False,
    suppositions: bool = False,
    caveats: bool = False,
    negation_scope: bool = False,
    local_population: bool = False,
    paraphrases: bool = False,
    conjuncts: bool = False,
    answer_words: bool = False,
    rounded: bool = False,
    antecedent: EvidenceText | None = None,
    long_run: int = 0,
    descriptions: bool = False,
    clause_splices: bool = False,
    named_within: bool = False,
    stated_frames: bool = False,
    context: frozenset[str] = frozenset(),
    associations: bool = False,
    privatives: bool = False,
    comparisons: bool = False,
) -> Alignment:
    """Phase one: align ``claim`` to its best window of ``evidence`` and classify the edits.

    Args:
        claim: the claim (text, or prepared once with :func:`prepare_text`).
        evidence: the evidence span (text, or prepared once with :func:`prepare_evidence`).
        around: the character range of the span's window most similar to the claim; it breaks
            ties between sentences that align equally well.
        changed_runs: how many separate changed runs a near copy may have (1 under score model
            v4, 2 under v6; see :func:`near_copy`).
        run_share_min: the share of the claim's words a near copy must copy in stretches of
            :data:`COPIED_RUN_MIN` or more words (:func:`run_share`; 0 under v4 and v6). A
            claim whose shared words are scattered singles rewords the window; it is not a
            copy with a detail changed, and the check does not apply.
        mixups: a number or a name of the claim that the window states elsewhere is not read
            as a word moved when, at its own place, the window holds another number or name
            the claim lacks: the claim mixed two of the window's figures or names up, a
            substitution (score model v9; False under v4, v6 and v8).
        moved_figures: a deletion that drops a number or a name is no compression when the
            claim fills its place with one of the same kind that the window states later, past
            a clause mark or taken from another noun, or carries an earlier figure on to a later
            figure's noun (score model v10; False before it).
        units: a figure's unit is part of the figure: a copied number whose unit differs from
            the window's ("fell by 5%" against "fell by 5 mmHg", "30 mg" against "30%", "12
            participants" against "12 weeks") is ``unsupported: different unit`` (score model
            v11; False before it). The tokens carry no "%", so under this reading a claim whose
            tokens quote the span word for word is aligned when a quoted figure's unit differs.
        overstatement: a deletion may not drop a species or in-vitro qualifier ("in mice"), nor,
            outside a bracketed or comma-delimited clause, a hedge ("may", "potentially") or an
            association ("were associated with a"), unless the claim keeps one of its own: the
            claim states the finding more strongly than the window (score model v12).
        inversions: a deletion may not drop, right before a word the claim keeps, what inverts
            it ("lack of", "inhibition of", a leading "Blocking", "insufficient", "neither"),
            nor may a claim quote a sentence from just after such a word (score model v13).
        frames: a claim may not quote, as a finding, what its sentence denies, doubts,
            supposes or asks: the complement of "no evidence that", "unclear whether", "the
            hypothesis that" (score model v14).
        restrictions: a deletion may not drop, nor a quote leave off at its edges, what
            restricts the finding: a co-intervention ("in combination with insulin"), a dose
            ("High-dose"), a subgroup, a population ("Among smokers,", "in patients | with
            diabetes") (score model v15).
        reorders: a noun and its modifier written the other way round ("COVID-19 patients" /
            "patients with COVID-19") and two conjuncts of two content words or more traded
            ("protect workers and reduce infection") reorder the words; they swap no roles
            (score model v15).
        local_qualifiers: what keeps a dropped qualifier is read where it was dropped: a
            species or in-vitro scope only by one of its kind ("in vitro" keeps no "in mice"),
            a hedge or an association only by one in the same stretch of the claim, between
            clause marks and joining words ("may be useful …, but is dangerous" drops the
            second "may") (score model v16).
        figure_nouns: in reading whose noun a figure has (``moved_figures``), a word that bounds
            or places a figure ("over", "below", "before") is none, and a noun right before the
            later figure is its own ("in period 2 and 26.3% in period 3"): "a pH of 2.0"
            against "a pH of 6.1 even in gastric juice at a pH below 2.0" gives the later figure
            to the earlier noun (score model v16).
        bounds: a deletion, or a quote's start, may not leave off what bounds a figure the
            claim keeps ("over 50% of patients" → "50% of patients", "less than 5%" → "5%";
            not an approximation, "about 30%"), nor drop or change a comparison sign, which is
            no token ("5%" against "<5%", "P = .001" against "P<.001", ">5%" against "<5%"; a
            bound in words and a sign of the same side say the same: "less than 5%" / "<5%");
            and "by" before an amount behind such words ("reduced by about 30%") names no
            agent: dropping "about" changes no voice (score model v16).
        contractions: a contraction and the words it stands for are the same words ("doesn't"
            / "does not", "can't" / "cannot", "we're" / "we are") (score model v17).
        abbreviated: an inserted long form whose abbreviation the window states, or an inserted
            abbreviation whose long form it states, is stated in the evidence ("Pyridostatin"
            against a window that writes "PDS", defined as "pyridostatin (PDS)" in the span or,
            under v17, in another span of its source) (score model v17).
        compounds: words written together, with a hyphen or apart are the same words
            ("nonsmall" / "non-small", "overexpression" / "over-expression", "health care" /
            "healthcare"; :func:`written_together`) (score model v18).
        signs: a name written with another sign after it than the window's ("CD4−" against
            "CD4+", "Apoe+/+" against "Apoe−/−") is ``unsupported: different sign``; read on
            texts prepared with ``signs`` (score model v19; a figure's minus sign is part of
            the figure there: "1.5" against "−1.5" is another number).
        postposed: with ``bounds``, a bound written after its figure is the figure's bound
            ("65 years or older" is "≥65 years" and "at least 65 years"; dropping "or older"
            drops a bound) (score model v19).
        clause_mixups: a moved block whose words stand in another clause of a window whose
            clauses oppose is ``unsupported: words from another clause`` (score model v31).
        carried_details: a deletion may not carry a bound written after a later figure on to
            an earlier one, drop a comparison's other side from a claim that states its
            outcome ("not different"), or drop a main clause up to "if"/"unless"; and a
            figure moved in past a repeated frame ("systolic [blood pressure of 90 mm Hg and
            diastolic] blood pressure of 60 mm Hg") or next to a bracketed figure of the same
            value is a different figure (score model v33; :meth:`_Builder._carried`).
        extent: with ``overstatement``, a deletion (or a substitution) may not drop, unless the
            claim keeps one of its own, a word saying the finding holds in part or at the margin
            of significance ("mediated partly by", "marginally significant"), nor one saying it
            is of part of what it speaks of ("in some patients", "a minority of cells"), nor
            may a quote leave one off right before it ("Some | patients responded") (score
            model v35; :func:`_extent_dropped`, :func:`_extent_head`).
        suppositions: with ``frames``, a claim may not quote what the window only puts forward
            ("It has been proposed that | X", "We predicted that | X", "the concept that | X"),
            and with ``overstatement`` a deletion may not drop a supposing, intending or
            doubting word between "be" and "to" ("X is thought to play" → "X plays", "is
            unlikely to"), a word of aim before "to" ("aims to"), nor "potential", "would" or
            "should" as a hedge (score model v36; :func:`_framing`, :func:`_raised`).
        caveats: with ``restrictions``, a quote may not leave off a clause saying the
            finding was not significant when a bracketed aside stands before it ("… group
            (12% vs 15%), although this was not significant"), when the quote's own clause
            concedes ("Although | X, the difference did not reach significance") or when the
            clause refers to the finding ("…; this difference was not significant"); and a
            claim that calls its finding significant where the window says it was not
            ("significantly lower" against "lower …, but the difference was not statistically
            significant", read at the quote's edge or as a word moved from a negated
            significance) is ``contradicted: significance reversed`` (score model v37).
        negation_scope: a deletion holding a negation is a negation dropped, even when it
            opens after a clause mark, if nothing marks a clause's end between its negation
            and the words the claim keeps right after it: "…, compared with nonuse, was not
            associated with | an increased risk" → "increase the risk" (score model v42;
            :meth:`_Builder._negation_runs_on`).
        local_population: with ``restrictions``, a dropped population is kept only by a claim
            word the claim does not copy from elsewhere in the window ("Men and women
            presented equally with chest pain; however, jaw pain was more frequent | among
            women" → "…; however, jaw pain was more frequent" drops it), and a population
            phrase dropped before a clause mark, with none before it, is no clause dropped
            whole ("… appear common | in children, but …") (score model v44).
        paraphrases: three rewordings a faithful answer makes are allowed (score model v50;
            False before it): one plain verb or comparative of change for another of the same
            direction ("reduced" / "lowered", "increased" / "raised", "lower" / "reduced"),
            an approximation put before a figure ("approximately 5 mmHg" / "5 mmHg"), a
            finding stated as found ("was found to lower" / "lowered"), and an abbreviation
            made of the initials of the words it stands against ("BP" / "blood pressure").
        conjuncts: a thing joined by "and" or "or" to a copied one ("systolic and diastolic
            blood pressure") is allowed as stated in the evidence only when the sentence the
            copy comes from states it, or another sentence states it without a negation or the
            opposite direction (a merge: "X lowered A. It also lowered B."); one the evidence
            states otherwise ("Diastolic blood pressure did not change") extends the finding to
            it: ``unsupported: stated otherwise in the evidence`` (score model v51; False before
            it).
        answer_words: with ``paraphrases``, more of an answer's words are allowed: "versus",
            "vs", "relative to", "compared to" for "compared with" and the other way round, and
            "cut" as a plain word of change down (score model v52; False before it).
        rounded: a figure the claim says is approximate and writes rounded from the one the
            evidence states there ("about 5 mmHg" for "5.2 mmHg", "nearly 70" for "69"; to its
            last digit and within 5 %: :func:`spanproof.text.numerics.rounds_to`) is ``allowed:
            rounded figure`` (score model v56; False before it).
        antecedent: the evidence item before ``evidence`` (score model v59; None before it):
            where the window's sentence opens with "it" or "they" and the claim names the thing
            instead ("Aspirin also raised bleeding" against "It also raised bleeding."), the
            name is ``allowed: named in the evidence before`` when that item states it.
        long_run: a near copy may also change one run of up to this many content words when it
            copies enough of the rest (:func:`near_copy`; 0 before score model v60): a subject
            of several words put in for another is then read as a substitution.
        descriptions: a name put where the window writes "the company", "the drug" or another
            description of :data:`REFERRING_NOUNS` is ``allowed: named in the evidence
            before`` when the evidence item opens by naming it (:meth:`_Builder._names_the_
            description`; score model v63, False before it).
        clause_splices: a deletion that crosses a clause break within a sentence (a
            semicolon outside brackets) and drops the next clause's own content words is
            ``unsupported: joins two clauses' parts``, as one across a sentence boundary is
            ``unsupported: joins two sentences' parts`` ("approved for
            children" quoted from "approved for adults; its safety in children has not been
            established"; score model v65, False before it: a compression).
        named_within: a name put where the window writes "it", "they", "he", "she" or "the
            (same) <noun>" is ``allowed: named in the evidence before`` when the sentence before
            the window's, in the same evidence item, opens by naming it
            (:meth:`_Builder._names_the_referent`; score model v65, False before it).
        stated_frames: a claim that opens with a frame of its own ("At Pellham, …", "In the
            Lumen Maps API, …": a preposition of :data:`FRAME_OPENERS`, words, a comma) before
            the words it copies, whose content words the evidence states, is ``allowed:
            context stated in the evidence`` unless the window's words before the copy name
            something else (:meth:`_Builder._stated_frame`; score model v65, False before it:
            the frame stood against those words as a substitution).
        context: more keys an opening frame may name: those of the other evidence items of the
            span's source (score model v67; empty before it).
        comparisons: words the claim moves between a comparison's sides, where the window
            names a side with a phrase ("Compared with children, adults …") and the claim with
            "than" (or the other way round) and both state one comparison, are ``allowed:
            comparison restated``, and words moved so that the claim states such a comparison
            with its sides traded are ``unsupported: roles swapped``
            (:meth:`_Builder._comparison_moved`; score model v78, False before it: the first
            were roles swapped, the second words reordered).
    """
    c = claim if isinstance(claim, Text) else prepare_text(claim)
    ev = evidence if isinstance(evidence, EvidenceText) else prepare_evidence("", evidence)
    not_near = Alignment(c.text, ev.id, ev.body.text, near_copy=False)
    content = [k for k, f in zip(c.keys, c.content, strict=True) if f]
    if not content:
        return not_near
    if c.joined in ev.body.joined:  # the claim quotes the span word for word
        first = ev.body.joined[: ev.body.joined.index(c.joined)].count("\x1f")
        quoted = range(first, first + len(c.tokens))
        if (
            not (units and _units_differ(c, ev.body, quoted))
            and not (bounds and _signs_differ(c, ev.body, quoted))
            and not (signs and _markers_differ(c, ev.body, quoted))
        ):
            edges = _edge_edits(
                c, ev, (quoted[0], quoted[-1], 0), overstatement, inversions, frames, restrictions,
                local_qualifiers, bounds, carried_details, extent, suppositions, caveats,
                () if local_population else None,  # every claim word is a copy
            )  # fmt: skip
            if bounds and postposed:
                edges += _end_bound_dropped(c, ev.body, quoted[-1], lambda k: k - first)
            pending = tuple(
                Pending("deletion", (0, 0) if j[0] < first else (len(c.text), len(c.text)),
                        ev.body.span(j[0], j[-1]), why)
                for j, why in edges
            )  # fmt: skip
            return Alignment(c.text, ev.id, ev.body.text, near_copy=True, pending=pending)
    present = sum(1 for k in content if k in ev.keys)
    if not _may_copy(present, len(content), changed_runs, long_run):
        return not_near
    lo, hi, blocks = _best_window(c, ev, around, changed_runs, long_run)
    if not blocks:
        return not_near
    builder = _Builder(
        c, ev, lo, hi, blocks, mixups, moved_figures, units, overstatement, inversions, frames,
        restrictions, reorders, local_qualifiers, figure_nouns, bounds, contractions, abbreviated,
        compounds, signs, postposed, clause_mixups, carried_details, extent, suppositions,
        caveats, negation_scope, local_population, paraphrases, conjuncts, answer_words, rounded,
        antecedent, long_run, descriptions, clause_splices, named_within, stated_frames,
        context, associations, privatives, comparisons,
    )  # fmt: skip
    # Copied: content words aligned in order, and those both sides hold in another order.
    kept = builder.aligned_c | builder.moved_c
    copied = [i in kept for i, f in enumerate(c.content) if f]
    if not near_copy(copied, changed_runs, long_run):
        return not_near
    if not near_copy(copied, 1, long_run) and _density(blocks) < TWO_RUNS_DENSITY:
        return not_near  # two changed runs in a claim picked from scattered words: a rewrite
    if run_share_min and run_share(c, blocks) < run_share_min:
        return not_near  # its shared words are scattered singles: a rewording, not a copy
    builder.run()
    if builder.rewritten:
        return not_near
    return Alignment(
        c.text, ev.id, ev.body.text, True, tuple(builder.pending), tuple(builder.questions)
    )


Block = tuple[int, int, int]  # (claim index, window index, size), window index absolute


def _match(c: Text, ev: EvidenceText, lo: int, hi: int) -> tuple[list[Block], list[bool]]:
    """The alignment of the claim to window ``[lo, hi)`` and which of the claim's content words
    it copies: aligned in order, or held by both sides in another order (moved)."""
    matcher = SequenceMatcher(None, c.keys, ev.body.keys[lo:hi], autojunk=False)
    blocks = [(a, lo + b, size) for a, b, size in matcher.get_matching_blocks() if size]
    in_claim = {a + n for a, _, size in blocks for n in range(size)}
    in_window = {b + n for _, b, size in blocks for n in range(size)}
    w = ev.body
    free = Counter(w.keys[j] for j in range(lo, hi) if w.content[j] and j not in in_window)
    copied = []
    for i, (key, content) in enumerate(zip(c.keys, c.content, strict=True)):
        if not content:
            continue
        moved = i not in in_claim and free[key] > 0
        if moved:
            free[key] -= 1
        copied.append(i in in_claim or moved)
    return blocks, copied


def _best_window(
    c: Text,
    ev: EvidenceText,
    around: tuple[int, int] | None,
    changed_runs: int = 1,
    long_run: int = 0,
) -> tuple[int, int, list[Block]]:
    """The window (token range) of one to three adjacent sentences the claim aligns to best."""
    content = {k for k, f in zip(c.keys, c.content, strict=True) if f}
    overlap = [len(content & keys) for keys in ev.sentence_keys]
    top = max(overlap)
    tied = [k for k, n in enumerate(overlap) if n == top]
    if len(tied) > 1 and around is not None:
        inside = [k for k in tied if _contains(ev, k, around[0])]
        tied = inside + [k for k in tied if k not in inside]
    best: tuple[int, int, list[Block]] | None = None
    best_copied: list[bool] = []
    best_count = -1
    for k in tied[:4]:
        a, b = ev.sentences[k]
        blocks, copied = _match(c, ev, a, b)
        if sum(copied) > best_count:
            best, best_copied, best_count = (a, b, blocks), copied, sum(copied)
    assert best is not None
    k = next(k for k in tied if ev.sentences[k][0] == best[0])
    # Neighbouring sentences join the window for a claim of several sentences, or when one
    # sentence is not a near copy on its own (a claim that merges sentences); otherwise a word
    # swapped in could hide as a deletion across the sentence boundary.
    if c.sentences == 1 and near_copy(best_copied, changed_runs, long_run):
        return best
    n = len(ev.sentences)
    for first, last in ((k - 1, k), (k, k + 1), (k - 1, k + 1)):
        if first < 0 or last >= n or last - first + 1 > MAX_WINDOW_SENTENCES:
            continue
        a, b = ev.sentences[first][0], ev.sentences[last][1]
        blocks, copied = _match(c, ev, a, b)
        if sum(copied) > best_count:
            best, best_count = (a, b, blocks), sum(copied)
    return best


def run_share(claim: Text, blocks: Sequence[Block]) -> float:
    """The share of the claim's words that sit in aligned stretches of at least
    :data:`COPIED_RUN_MIN` words (in order on both sides). A copy with one detail changed keeps
    long stretches of its sentence around the change; a rewording that shares a few scattered
    words with a long sentence keeps none. 0.0 for a claim without words."""
    if not claim.tokens:
        return 0.0
    return sum(size for _, _, size in blocks if size >= COPIED_RUN_MIN) / len(claim.tokens)


def _density(blocks: Sequence[Block]) -> float:
    """The share of the window's words, from the first aligned word to the last, that the claim
    keeps or replaces (aligned, or facing claim words in a gap) rather than leaves out."""
    ordered = sorted(blocks, key=lambda block: block[1])
    first, last = ordered[0][1], ordered[-1][1] + ordered[-1][2]
    left_out = 0
    for (a1, b1, n1), (a2, b2, _) in pairwise(ordered):
        left_out += max(0, (b2 - b1 - n1) - max(0, a2 - a1 - n1))
    return 1.0 - left_out / (last - first)


def _contains(ev: EvidenceText, k: int, char: int) -> bool:
    a, b = ev.sentences[k]
    return ev.body.tokens[a].start <= char < ev.body.tokens[b - 1].end


#: v17: contractions and the words they stand for. "'s" and "'d" are left out: "it's" may be "it
#: is" or "it has", "Smith's" a possessive, "we'd" "we would" or "we had".
_CONTRACTED = {"n't": "not", "'re": "are", "'ve": "have", "'ll": "will", "'m": "am"}
_CONTRACTED_WHOLE = {
    "can't": ("can", "not"), "cannot": ("can", "not"), "won't": ("will", "not"),
    "shan't": ("shall", "not"), "ain't": ("is", "not"),
}  # fmt: skip


def _expanded(text: Text, indices: Sequence[int]) -> list[str]:
    """The stems of tokens ``indices`` with each contraction written out ("doesn't" → does,
    not; "we're" → we, are; "cannot" → can, not) (v17)."""
    out: list[str] = []
    for i in indices:
        word = text.tokens[i].text.replace("\u2019", "'")
        suffix = next((s for s in _CONTRACTED if word.endswith(s) and len(word) > len(s)), None)
        words = (
            _CONTRACTED_WHOLE.get(word)
            or (suffix and (word[: -len(suffix)], _CONTRACTED[suffix]))
            or (word,)
        )
        out.extend(stem(w) for w in words)
    return out


#: v18: a hyphen or a space between two letters, or a letter and a digit: "non-small",
#: "health care", "IL-6". Between two digits it stays ("5-10" is a range, "5 10" two figures).
_JOINER = re.compile(r"(?<=[^\W_])[\s\-\u2010\u2011]+(?=[^\W_])")
_HYPHENS = frozenset("-\u2010\u2011")
#: v18: prefixes that negate the word they are hyphened to ("in-hospital" is no negation).
_HYPHENED_NEGATIONS = frozenset({"non", "anti"})
#: v18: a number word before "fold" ("twofold", "three-fold" once joined), written as its figure.
_FOLD_WORD = re.compile(r"(?<![a-z])(" + "|".join(FOLD_WORDS) + ")")
#: Marks around a word that are not part of it; "+" and "-" after "CD4" are.
_AROUND_WORD = "\"'()[]{}.,;:!?\u201c\u201d\u2018\u2019"


def written_together(text: Text, indices: Sequence[int]) -> str:
    """The whole words (between spaces) that hold tokens ``indices``, lowercased, with the
    hyphens and spaces between letters left out: "Non-small", "nonsmall" and "non small" give
    "nonsmall"; "IL-6" and "IL6" give "il6"; "5-10" keeps its hyphen and "CD4+" its sign, so
    "CD4-" stays another word; a number word before "fold" is its figure: "twofold",
    "two-fold" and "2-fold" give "2fold" (score model v18)."""
    s = text.text
    start, end = text.span(min(indices), max(indices))
    while start > 0 and not s[start - 1].isspace():
        start -= 1
    while end < len(s) and not s[end].isspace():
        end += 1
    joined = _JOINER.sub(_join, s[start:end].strip(_AROUND_WORD).lower())
    return _FOLD_WORD.sub(lambda m: f"{FOLD_WORDS[m.group(1)]}fold", joined)


def _join(m: re.Match[str]) -> str:
    s, a, b = m.string, m.start(), m.end()
    return m.group() if s[a - 1].isdigit() and s[b].isdigit() else ""


def _lowered(text: Text, indices: Sequence[int]) -> list[str]:
    return [text.tokens[i].text.lower() for i in indices]


def _negations(text: Text, indices: Sequence[int]) -> int:
    return sum(1 for i in indices if is_negation(text.tokens[i].text))


def _directions(text: Text, indices: Sequence[int]) -> set[str]:
    return {d for i in indices if (d := direction_of(text.tokens[i].text)) is not None}


def _opposite(ours: Sequence[str], theirs: Sequence[str]) -> bool:
    """An antonym of a word on the other side, or the same word with a negating prefix
    (``diabetic`` / ``nondiabetic``, ``treated`` / ``untreated``, ``non-smokers``)."""
    if ("non" in ours) != ("non" in theirs):
        return True
    for a in ours:
        for b in theirs:
            if (stem(a), stem(b)) in _ANTONYMS:
                return True
            longer, shorter = (a, b) if len(a) > len(b) else (b, a)
            head = longer[: len(longer) - len(shorter)]
            if len(shorter) >= 4 and longer.endswith(shorter) and head in _NEGATING_PREFIXES:
                return True
    return False


#: v16: words that may stand between "by" and an amount: "by about 30%", "by up to 5 mmHg",
#: "by a mean of 2 kg".
_AMOUNT_LEAD = frozenset(
    {"about", "approximately", "around", "roughly", "nearly", "almost", "up", "to", "over",
     "under", "more", "less", "than", "at", "least", "most", "a", "an", "mean", "average",
     "median", "of", "only", "just", "some", "another", "further", "additional", "estimated"}
)  # fmt: skip
#: The most such words read past.
AMOUNT_LEAD_MAX = 3


def passive(text: Text, indices: Sequence[int], amounts: bool = False) -> bool:
    """Whether the tokens read as a passive with an agent: ``... induced by X``. With
    ``amounts`` (v16), "by" before an amount behind up to :data:`AMOUNT_LEAD_MAX` words of
    :data:`_AMOUNT_LEAD` ("reduced by about 30%") is no agent either."""
    words = [text.tokens[i].text for i in indices]
    for n, word in enumerate(words):
        if word != "by" or n == 0 or n + 1 >= len(words):
            continue
        if _key(words[n + 1]).startswith("#"):
            continue  # "increased by 20%": an amount, not an agent
        lead = n + 1
        while amounts and lead < len(words) - 1 and words[lead] in _AMOUNT_LEAD:
            lead += 1
        if amounts and lead - n - 1 <= AMOUNT_LEAD_MAX and _key(words[lead]).startswith("#"):
            continue  # "reduced by about 30%"
        before = words[max(0, n - 2) : n]
        if any(w.endswith(("ed", "en")) or w in _IRREGULAR_PARTICIPLES for w in before):
            return True
    return False


#: Function words that, written as a capital letter inside a sentence, are names (v9).
_LETTER_NAMES = frozenset({"A", "I"})


def _letter_names(text: Text) -> frozenset[int]:
    """Tokens of ``text`` that are "A" or "I" written as a capital letter and not the first word
    of a sentence: "influenza A", "HLA-A", "type I", "phase I" (v9)."""
    out = set()
    for k, token in enumerate(text.tokens):
        if text.surface(k) not in _LETTER_NAMES:
            continue
        before = text.text[: token.start].rstrip()
        if before and before[-1] not in ".!?:;":
            out.add(k)
    return frozenset(out)


#: How a judgement names each kind of :func:`_detail_kind` ("different number", "different
#: entity").
_JUDGED_KIND = {"number": "number", "name": "entity"}


def _detail_kind(text: Text, k: int) -> str | None:
    """``number`` or ``name`` (an entity-shaped word) for token ``k`` of ``text``, else None."""
    if text.keys[k].startswith("#"):
        return "number"
    first = text.tokens[k].start == text.tokens[0].start
    if text.content[k] and entity_shape(text.surface(k), first) is not None:
        return "name"
    return None


#: v52: a comparison's words, one put for another ("versus" / "compared with").
_VERSUS = frozenset({"versus", "vs", "relative to", "compared with", "compared to", "against"})
#: v52: a use denied in words ("should not be used", "must not be given") and by one word.
_NOT_USED = re.compile(
    r"(?:should|must|can|may|is|are)\s+(?:not|never)\s+(?:be\s+)?"
    r"(?:used|given|prescribed|administered|taken|use|give|prescribe|administer|take)"
)
_CONTRAINDICATED = re.compile(r"(?:is|are|was|were|be)?\s*contraindicated|contraindications?")


def _contraindication(said: str, written: str) -> bool:
    """v52: whether one phrase denies a use in words ("should not be used") and the other by
    one word ("is contraindicated")."""
    a, b = said.lower(), written.lower()
    return bool(
        (_NOT_USED.fullmatch(a) and _CONTRAINDICATED.fullmatch(b))
        or (_NOT_USED.fullmatch(b) and _CONTRAINDICATED.fullmatch(a))
    )


#: v52: more plain words of change ("cut" is past and present alike).
_ANSWER_CHANGE = {"cut": "down", "cuts": "down", "cutting": "down"}
#: v51: words that join a thing to another ("systolic and diastolic").
_JOINERS = frozenset({"and", "or"})
#: v63: the words that open a description an answer may replace by the name it stands for.
_DESCRIBING = frozenset({"the", "this"})
#: v65: prepositions that open a claim's frame of context ("At Pellham, …", "In the API, …",
#: "For entry to Colmar, …"; :meth:`_Builder._stated_frame`).
FRAME_OPENERS = frozenset({"at", "in", "for", "on", "under", "within", "across", "among"})
#: v65: how many content words of the sentence before may name what the window refers back to
#: (:meth:`_Builder._names_the_referent`).
REFERENT_REACH = 6
#: v63: nouns a text uses to refer again to what it has named ("the company", "the drug").
REFERRING_NOUNS = frozenset(
    {"company", "firm", "corporation", "business", "bank", "lender", "insurer",
     "retailer", "manufacturer", "maker", "carrier", "airline", "agency", "regulator",
     "government", "ministry", "university", "hospital", "institute", "organization",
     "organisation", "charity", "startup", "brand", "club", "team", "drug", "medicine",
     "compound", "vaccine", "product", "device", "platform", "app"}
)  # fmt: skip
#: v50: words that only approximate the figure after them.
_APPROXIMATIONS = frozenset(
    {"approximately", "approx", "about", "around", "roughly", "circa", "some"}
)
#: v50: a finding stated as found: "was found to", "has been shown to", "were reported to".
_FOUND_TO = re.compile(
    r"(?:(?:was|were|is|are|has been|have been|had been|been)\s+)?"
    r"(?:found|shown|reported|observed|demonstrated|confirmed)\s+to"
)


#: Score model v75: words by which a text states an association, read as one another in a copy
#: ("linked to" for "associated with"), with the words that may follow them there.
_ASSOCIATING = frozenset({"associated", "linked", "correlated", "related", "tied", "connected"})
_ASSOCIATING_AFTER = frozenset({"with", "to", "a", "an", "the"})
#: Score model v75: adverbs that state an association's sign ("positively correlated").
_SIGN_ADVERBS = {"positively": 1, "negatively": -1, "inversely": -1}


def _association_sign(text: Text, indices: Sequence[int]) -> int | None:
    """v75: the sign ``indices`` of ``text`` state an association with — 1 or -1 by a sign
    adverb ("positively associated with") or by a word of change after it ("linked to a
    higher"), 0 by neither ("correlated with") — or None when the words are not one word of
    association (:data:`_ASSOCIATING`) with at most those."""
    words = _lowered(text, indices)
    adverb = _SIGN_ADVERBS.get(words[0]) if words else None
    if adverb is not None:
        words = words[1:]
    if not words or words[0] not in _ASSOCIATING:
        return None
    rest = [w for w in words[1:] if w not in _ASSOCIATING_AFTER]
    if not rest:
        return adverb or 0
    change = SIGNS.get(direction_of(rest[0], True) or "")
    if len(rest) > 1 or change is None or adverb is not None:
        return None
    return change


def _plain_change() -> dict[str, str]:
    """v50: the plain words of change and their direction: a verb in its usual forms or a
    comparative. Left out: words that say more than a change ("abolished", "prevented",
    "doubled") or say how ("inhibited", "suppressed", "activated")."""
    verbs = {
        "up": ("increase", "elevate", "raise", "boost", "augment"),
        "down": ("decrease", "reduce", "lower", "diminish", "decline", "lessen", "attenuate"),
        "better": ("improve",),
        "worse": ("worsen",),
    }
    out: dict[str, str] = {}
    for direction, words in verbs.items():
        for word in words:
            if word.endswith("e"):
                forms = (word, word + "s", word + "d", word[:-1] + "ing")
            else:
                third = word + ("es" if word.endswith("sh") else "s")
                forms = (word, third, word + "ed", word + "ing")
            out.update(dict.fromkeys(forms, direction))
    words_up = ("rose", "rise", "rises", "risen", "rising", "higher", "greater")
    words_down = ("fell", "fall", "falls", "fallen", "dropped", "lower", "less", "fewer")
    out.update(dict.fromkeys(words_up, "up"))
    out.update(dict.fromkeys(words_down, "down"))
    out.update({"better": "better", "worse": "worse"})
    return out


_PLAIN_CHANGE = _plain_change()
#: v52: v50's plain words of change and the answer's ones.
_ANSWER_CHANGES = {**_PLAIN_CHANGE, **_ANSWER_CHANGE}


def _initials_of(short: Sequence[str], long: Sequence[str]) -> bool:
    """v50: whether ``short`` is one upper-case abbreviation made of the first letters of the
    two to six words ``long`` (``BP`` / ``blood pressure``, ``CKD`` / ``chronic kidney
    disease``)."""
    if len(short) != 1 or not 2 <= len(long) <= 6:
        return False
    word = short[0]
    letters = "".join(w[0] for w in long if w[:1].isalpha())
    return word.isupper() and word.isalpha() and word.lower() == letters.lower()


def clause_starts(text: Text) -> frozenset[int]:
    """Token indices of ``text`` that open a clause after a semicolon outside brackets
    ("approved for adults; its safety in children …", not "(RHR = 1.71; 95% CI …)"): score
    model v65 reads a deletion across one as it reads one across a sentence boundary."""
    breaks = []
    depth = 0
    for k, ch in enumerate(text.text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
        elif ch == ";" and depth == 0:
            breaks.append(k)
    tokens = text.tokens
    return frozenset(
        j
        for j in range(1, len(tokens))
        if any(tokens[j - 1].end <= k < tokens[j].start for k in breaks)
    )


class _Builder:
    """Walks one alignment and collects the classified edits (see the module docstring)."""

    def __init__(
        self,
        c: Text,
        ev: EvidenceText,
        lo: int,
        hi: int,
        blocks: list[Block],
        mixups: bool = False,
        moved_figures: bool = False,
        units: bool = False,
        overstatement: bool = False,
        inversions: bool = False,
        frames: bool = False,
        restrictions: bool = False,
        reorders: bool = False,
        local_qualifiers: bool = False,
        figure_nouns: bool = False,
        bounds: bool = False,
        contractions: bool = False,
        abbreviated: bool = False,
        compounds: bool = False,
        signs: bool = False,
        postposed: bool = False,
        clause_mixups: bool = False,
        carried_details: bool = False,
        extent: bool = False,
        suppositions: bool = False,
        caveats: bool = False,
        negation_scope: bool = False,
        local_population: bool = False,
        paraphrases: bool = False,
        conjuncts: bool = False,
        answer_words: bool = False,
        rounded: bool = False,
        antecedent: EvidenceText | None = None,
        long_run: int = 0,
        descriptions: bool = False,
        clause_splices: bool = False,
        named_within: bool = False,
        stated_frames: bool = False,
        context: frozenset[str] = frozenset(),
        associations: bool = False,
        privatives: bool = False,
        comparisons: bool = False,
    ) -> None:
        self.c, self.ev, self.w = c, ev, ev.body
        self.context = context
        # v75, v76, v78
        self.associations, self.privatives, self.comparisons = associations, privatives, comparisons
        self.clause_splices = clause_splices
        self.named_within = named_within
        self.stated_frames = stated_frames
        self.antecedent = antecedent
        self.descriptions = descriptions
        self.long_run = long_run
        self.lo, self.hi = lo, hi
        self.blocks = blocks
        self.mixups = mixups
        self.moved_figures = moved_figures
        self.units = units
        self.overstatement = overstatement
        self.inversions = inversions
        self.frames = frames
        self.restrictions = restrictions
        self.reorders = reorders
        self.local_qualifiers = local_qualifiers
        self.figure_nouns = figure_nouns
        self.bounds = bounds
        self.contractions = contractions
        self.abbreviated = abbreviated
        self.compounds = compounds
        self.signs = signs
        self.postposed = postposed
        self.clause_mixups = clause_mixups
        self.carried_details = carried_details
        self.extent = extent
        self.suppositions = suppositions
        self.caveats = caveats
        self.negation_scope = negation_scope
        self.local_population = local_population
        self.paraphrases = paraphrases
        self.conjuncts = conjuncts
        self.answer_words = answer_words
        self.rounded = rounded
        # v9: "A" and "I" written as letters inside a sentence ("influenza A", "type I") name a
        # thing; up to v8 they read as the article and the pronoun.
        self.c_letters = _letter_names(c) if mixups else frozenset()
        self.pending: list[Pending] = []
        self.questions: list[Question] = []
        self.rewritten = False
        pairs = [(a + n, b + n) for a, b, size in blocks for n in range(size)]
        self.aligned_c = {a for a, _ in pairs}
        self.aligned_w = {b for _, b in pairs}
        self.moved = self._moved()
        self.moved_c = {a for a, _ in self.moved}
        self.moved_w = {b for _, b in self.moved}
        anchors = self.aligned_w | self.moved_w
        self.first_w, self.last_w = min(anchors), max(anchors)

    def _moved(self) -> list[tuple[int, int]]:
        """Content words both sides hold but the alignment left unmatched: (claim, window)."""
        free: dict[str, list[int]] = {}
        for j in range(self.lo, self.hi):
            if j not in self.aligned_w and self.w.content[j]:
                free.setdefault(self.w.keys[j], []).append(j)
        out = []
        for i, key in enumerate(self.c.keys):
            if i in self.aligned_c or not self.c.content[i] or not free.get(key):
                continue
            if self.mixups and self._mixed_up(i):
                continue  # left in its gap: a substitution, judged by the rules
            out.append((i, free[key].pop(0)))
        return out

    def _mixed_up(self, i: int) -> bool:
        """Whether claim word ``i``, a number or a name, stands where the window holds another
        number or name, unaligned: two of the window's figures or names mixed up (v9)."""
        kind = _detail_kind(self.c, i)
        if kind is None:
            return False
        pairs = self._pairs()
        before = [b for a, b in pairs if a < i]
        after = [b for a, b in pairs if a > i]
        lo = max(before) + 1 if before else self.lo
        hi = min(after) if after else self.hi
        return any(
            j not in self.aligned_w
            and self.w.keys[j] != self.c.keys[i]
            and _detail_kind(self.w, j) == kind
            for j in range(lo, hi)
        )

    def run(self) -> None:
        self._transposition()
        cursor_c, cursor_w = 0, self.lo
        for a, b, size in self.blocks:
            self._gap(range(cursor_c, a), range(cursor_w, b))
            for n in range(size):
                self._equal(a + n, b + n)
            cursor_c, cursor_w = a + size, b + size
        self._gap(range(cursor_c, len(self.c.tokens)), range(cursor_w, self.hi))
        first_c = min((a for a, _ in self._pairs()), default=0)
        quote = (self.first_w, self.last_w, first_c)
        for wj, why in _edge_edits(
            self.c, self.ev, quote, self.overstatement, self.inversions, self.frames,
            self.restrictions, self.local_qualifiers, self.bounds, self.carried_details,
            self.extent, self.suppositions, self.caveats, self._population_kept(),
        ):  # fmt: skip
            self._add("deletion", [], wj, why)
        if self.bounds and self.postposed:
            for wj, why in _end_bound_dropped(self.c, self.w, self.last_w, self._claim_at):
                self._add("deletion", [], wj, why)

    # edits ------------------------------------------------------------------------------------
    def _add(self, op: str, ci: Sequence[int], wj: Sequence[int], judgement: str | None) -> None:
        self.pending.append(
            Pending(op, self._claim_range(ci, wj), self._window_range(wj, ci), judgement,
                    len(self.questions) - 1 if judgement is None else -1)
        )  # fmt: skip

    def _claim_range(self, ci: Sequence[int], wj: Sequence[int]) -> tuple[int, int]:
        if ci:
            return self.c.span(min(ci), max(ci))
        # No claim words (a deletion): the point after the claim word aligned before it.
        before = [a for a, b in self._pairs() if b < min(wj)]
        pos = self.c.tokens[max(before)].end if before else 0
        return pos, pos

    def _window_range(self, wj: Sequence[int], ci: Sequence[int]) -> tuple[int, int]:
        if wj:
            return self.w.span(min(wj), max(wj))
        before = [b for a, b in self._pairs() if a < min(ci)]
        pos = self.w.tokens[max(before)].end if before else self.w.tokens[self.first_w].start
        return pos, pos

    def _claim_at(self, j: int) -> int | None:
        """The claim word aligned to window word ``j``, if any."""
        return next((a for a, b in self._pairs() if b == j), None)

    def _window_at(self, i: int) -> int | None:
        """The window word aligned to claim word ``i``, if any."""
        return next((b for a, b in self._pairs() if a == i), None)

    def _pairs(self) -> list[tuple[int, int]]:
        return [(a + n, b + n) for a, b, size in self.blocks for n in range(size)]

    def _transposition(self) -> None:
        if self.moved:
            ordered = [b for _, b in sorted(self.moved)]
            swapped = any(x > y for x, y in pairwise(ordered)) or self._swapped_past()
            if self.caveats and self._significance_moved():
                judgement = f"contradicted: {SIGNIFICANCE_REVERSED}"
            elif not swapped and not (self.comparisons and self._comparison_moved(traded=True)):
                judgement = "allowed: words reordered"
                if self.clause_mixups and self._from_an_opposed_clause():
                    judgement = "unsupported: words from another clause"
            elif self._voice_differs():
                judgement = "allowed: voice changed, same roles"
            elif self.comparisons and self._comparison_moved(traded=False):
                judgement = "allowed: comparison restated"
            else:
                judgement = "unsupported: roles swapped"
            self._add("transposition", sorted(self.moved_c), sorted(self.moved_w), judgement)
        elif self._voice_differs():
            self._add(
                "transposition",
                sorted(self.aligned_c),
                sorted(self.aligned_w),
                "unsupported: roles swapped (voice changed, word order kept)",
            )

    def _comparison_moved(self, traded: bool) -> bool:
        """The moved words are sides' words of a comparison the window states (score model
        v78, where a phrase may name a side: :func:`~spanproof.verify.comparisons.comparisons`,
        ``phrases``) and the claim keeps or restates, or with ``traded`` states with its sides
        traded (:func:`~spanproof.verify.comparisons.comparison_kept`,
        :func:`~spanproof.verify.comparisons.comparison_traded`). "Compared with children,
        adults over 65 were more susceptible" → "Adults over 65 were more susceptible … than
        children" moves "children" without trading roles; "Smokers had a higher risk …
        relative to never smokers" → "Never smokers had a higher risk … than smokers" moves
        "never" across the comparison."""
        window = self._window_sentences()
        trades = comparison_traded(self.c.text, window, figure_sides=True)
        sides = trades if traded else comparison_kept(self.c.text, window, figure_sides=True)
        tokens = [self.c.tokens[i] for i in self.moved_c if self.c.content[i]]
        moved = side_words(self.c.text, [(t.start, t.end) for t in tokens])
        # kept: and no comparison of the claim traded ("ten times higher in A than in B",
        # whose "more than ten times …" is kept whichever way A and B stand)
        return bool(moved) and moved <= sides and (traded or not trades)

    def _significance_moved(self) -> bool:
        """Whether a significance word the claim affirms was moved from where the window negates
        it: "significantly lower" against "lower …, but the difference was not statistically
        significant" (v37)."""
        c_words = [t.text for t in self.c.tokens]
        w_words = [t.text for t in self.w.tokens]
        return any(
            c_words[i] in _SIGNIFICANCE
            and not _significance_negated(c_words, i, wide=True)
            and _significance_negated(w_words, j, wide=True)
            for i, j in self.moved
        )

    def _from_an_opposed_clause(self) -> bool:
        """The moved words stand in another clause of the window than every other content word
        the claim copies, and the window's clauses state opposite directions (score model v31):
        "Sitagliptin increased insulin sensitivity" against "metformin increased insulin
        sensitivity; sitagliptin decreased insulin sensitivity" takes its subject from one
        finding and its predicate from the other. Clauses are those of
        :func:`~spanproof.verify.gates.opposed_clauses` (cut at ", whereas", ", while", ", but"
        and ";") of the window's text."""
        text = self.w.text
        pieces = opposed_clauses(text, more=True)
        if len(pieces) < 2:
            return False
        starts, at = [], 0
        for piece in pieces:
            at = text.find(piece, at)
            starts.append(at)
            at += len(piece)

        def clause(j: int) -> int:
            return sum(1 for s in starts[1:] if s <= self.w.tokens[j].start)

        moved = {clause(j) for j in self.moved_w if self.w.content[j]}
        kept = {clause(j) for j in self.aligned_w - self.moved_w if self.w.content[j]}
        return bool(moved) and bool(kept) and not moved & kept

    def _swapped_past(self) -> bool:
        """The moved words (one block, in order) traded places with a stretch of aligned words
        (at most :data:`SWAP_MAX_CONTENT` content words) across a relation word:
        ``higher in A than in B`` / ``higher in B than in A``, ``X of A by B`` / ``X of B by A``.
        A block fronted with a comma (``In mice, X rose``), or one moved past a clause, is
        reordered, not swapped."""
        if self._fronted(self.c, self.moved_c) or self._fronted(self.w, self.moved_w):
            return False
        first_c, first_w = min(self.moved_c), min(self.moved_w)
        crossed = [(a, b) for a, b in self._pairs() if (a < first_c) != (b < first_w)]
        if not crossed or sum(self.c.content[a] for a, _ in crossed) > SWAP_MAX_CONTENT:
            return False
        # Trading places: nothing but function words between the block and the words it passed
        # (``A than in B``), on both sides; content words in between mean a restructured
        # sentence, not a swap.
        gap_c = self._gap_words(self.c, self.moved_c, {a for a, _ in crossed}, self.aligned_c)
        gap_w = self._gap_words(self.w, self.moved_w, {b for _, b in crossed}, self.aligned_w)
        if gap_c is None or gap_w is None:
            return False
        passed = {self.c.tokens[a].text for a, _ in crossed}
        relations = _RELATIONS_V15 if self.reorders else _RELATIONS
        swapped = bool(passed & _COMPARISONS) or any(w in relations for w in (*gap_c, *gap_w))
        return swapped and not (self.reorders and self._rephrased(crossed, (gap_c, gap_w)))

    def _rephrased(self, crossed: list[tuple[int, int]], gaps: tuple[list[str], list[str]]) -> bool:
        """Whether the moved block and the words it passed are one phrase written another way,
        not two roles traded (v15): a noun and its modifier, side by side on one side and across
        one linking word on the other, whichever of the two moved ("COVID-19 patients" /
        "patients with COVID-19", "ACE2 isoform" / "isoform of ACE2"; at most two words each as
        written), or two conjuncts of two content words or more each traded across
        "and" ("protect workers and reduce infection" / "reduce infection and protect
        workers"), with no "respectively" in either text."""
        moved = sum(self.c.content[a] for a in self.moved_c)
        passed = sum(self.c.content[a] for a, _ in crossed)
        compound, linked = sorted(gaps, key=len)
        if not compound and len(linked) == 1 and linked[0] in _MODIFIER_LINKS:
            crossed_c = [a for a, _ in crossed]
            return self._words(self.moved_c) <= 2 and self._words(crossed_c) <= 2
        respectively = any(t.text == "respectively" for t in (*self.c.tokens, *self.w.tokens))
        return gaps == (["and"], ["and"]) and moved >= 2 and passed >= 2 and not respectively

    def _words(self, tokens: Iterable[int]) -> int:
        """How many words, as written ("COVID-19" is one), claim tokens ``tokens`` span."""
        first, last = min(tokens), max(tokens)
        return len(self.c.text[self.c.tokens[first].start : self.c.tokens[last].end].split())

    @staticmethod
    def _gap_words(
        text: Text, moved: set[int], crossed: set[int], aligned: set[int]
    ) -> list[str] | None:
        """The words between the block and the words it passed; None when an unaligned
        content word stands there."""
        if min(moved) > max(crossed):
            gap = range(max(crossed) + 1, min(moved))
        else:
            gap = range(max(moved) + 1, min(crossed))
        if any(text.content[i] and i not in aligned for i in gap):
            return None
        return [text.tokens[i].text for i in gap]

    @staticmethod
    def _fronted(text: Text, moved: set[int]) -> bool:
        first, last = min(moved), max(moved)
        before = text.text[: text.tokens[first].start].rstrip()
        after = text.text[text.tokens[last].end :].lstrip()
        at_start = not any(text.content[i] for i in range(first))
        at_end = not any(text.content[i] for i in range(last + 1, len(text.tokens)))
        return (at_start and after.startswith(",")) or (at_end and before.endswith(","))

    def _voice_differs(self) -> bool:
        claim = range(len(self.c.tokens))
        if self.compounds:
            # v18: the claim up to its last aligned word, as the window is read up to its own:
            # an allowed substitution past it ("by coimmunoprecipitation" for "by co-
            # immunoprecipitation") would otherwise leave the window's "by" without an agent.
            claim = range(max(self.aligned_c | self.moved_c, default=len(claim) - 1) + 1)
        window = [j for j in range(self.first_w, self.last_w + 1) if not self._in_clause(j)]
        return passive(self.c, claim, self.bounds) != passive(self.w, window, self.bounds)

    def _in_clause(self, j: int) -> bool:
        """Window token ``j`` lies in a dropped bracketed or comma-delimited clause."""
        if j in self.aligned_w or j in self.moved_w:
            return False
        run = [j]
        while run[0] - 1 >= self.lo and self._free_w(run[0] - 1):
            run.insert(0, run[0] - 1)
        while run[-1] + 1 < self.hi and self._free_w(run[-1] + 1):
            run.append(run[-1] + 1)
        return self._is_clause(run)

    def _free_w(self, j: int) -> bool:
        return j not in self.aligned_w and j not in self.moved_w

    def _negation_runs_on(self, wj: Sequence[int]) -> bool:
        """Whether the last negation of the deleted words ``wj`` runs on into the words the
        claim keeps right after them: no clause mark stands between it and the deletion's end,
        nor right after the deletion, and the window goes on (score model v42). "…, compared
        with nonuse or remote use, was not associated with | an increased risk" drops the
        negation of the finding the claim keeps; "…, not placebo, | reduced pain" does not."""
        text = self.w.text
        negations = [j for j in wj if is_negation(self.w.tokens[j].text)]
        if not negations:
            return False
        tail = text[self.w.tokens[negations[-1]].end : self.w.tokens[wj[-1]].end]
        after = text[self.w.tokens[wj[-1]].end :].lstrip()[:1]
        if any(ch in _CLOSE_MARKS for ch in tail):
            return False
        return after != "" and after not in _CLOSE_MARKS and after not in ".!?"

    def _is_clause(self, wj: Sequence[int], both: bool = False) -> bool:
        """Whether the window words ``wj`` are a clause or an aside dropped whole: they open
        with a clause opener, or a mark stands before or after them (with ``both``, v44's
        reading of a population: before *and* after them)."""
        text = self.w.text
        before = text[: self.w.tokens[wj[0]].start].rstrip()[-1:]
        after = text[self.w.tokens[wj[-1]].end :].lstrip()[:1]
        opener = self.w.tokens[wj[0]].text in _CLAUSE_OPENERS
        opens = before != "" and before in _OPEN_MARKS
        closes = after != "" and after in _CLOSE_MARKS
        return opener or (opens and closes if both else opens or closes)

    def _equal(self, i: int, j: int) -> None:
        if (
            self.units
            and self.c.units[i]
            and self.w.units[j]
            and self.c.units[i] != self.w.units[j]
        ):
            claim, window = _figure_range(self.c, i), _figure_range(self.w, j)
            self.pending.append(
                Pending("substitution", claim, window, "unsupported: different unit")
            )
            return
        if self.bounds and (why := self._sign_changed(i, j)) is not None:
            start = self.w.tokens[j - 1].end if j > 0 else 0
            gap = self.w.text[start : self.w.tokens[j].start]
            sign = start + max(gap.rfind(ch) for ch in _SIGN_SIDES)
            window = (min(sign, self.w.tokens[j].start), self.w.tokens[j].end)
            self.pending.append(Pending("substitution", self.c.span(i, i), window, why))
            return
        if self.signs and self.c.markers[i] and self.w.markers[j]:
            ours, theirs = self.c.markers[i], self.w.markers[j]
            if ours != theirs:
                claim = self.c.tokens[i].start, self.c.tokens[i].end + len(ours)
                window = self.w.tokens[j].start, self.w.tokens[j].end + len(theirs)
                self.pending.append(
                    Pending("substitution", claim, window, "unsupported: different sign")
                )
                return
        if self.c.tokens[i].text == self.w.tokens[j].text:
            return
        why = "number format" if self.c.keys[i].startswith("#") else "morphology"
        self._add("substitution", [i], [j], f"allowed: {why}")

    def _sign_changed(self, i: int, j: int) -> str | None:
        """The judgement on claim figure ``i`` copied from window figure ``j`` when their
        comparison signs differ ("5%" against "<5%", "p > 0.05" against "p < 0.05"), unless the
        claim states the sign's bound in words ("less than 5%") (v16); else None."""
        theirs, ours = _sign_before(self.w, j), _sign_before(self.c, i)
        if theirs == ours:
            return None
        if ours is None and _bound_side(self.c, i, self.postposed) == theirs:
            return None  # "less than 5%" against "<5%"
        if theirs is None and _bound_side(self.w, j, self.postposed) == ours:
            return None  # "<5%" against "less than 5%"
        if ours is None and _bound_side(self.c, i, self.postposed) is None:
            return "unsupported: bound dropped"
        return "unsupported: different bound"

    def _gap(self, claim: range, window: range) -> None:
        ci = [i for i in claim if i not in self.moved_c]
        free = [j for j in window if j not in self.moved_w]
        # Window words before the first or after the last aligned word are not quoted: they
        # count only as the counterpart of claim words in the same place.
        wj = [j for j in free if self.first_w <= j <= self.last_w]
        if ci and not wj:
            before = [j for j in free if j < self.first_w]
            after = [j for j in free if j > self.last_w]
            width = self._edge_width(ci)
            wj = before[-width:] if before else after[:width]
            if self.stated_frames and self._stated_frame(ci, wj):
                self._add("insertion", ci, [], "allowed: context stated in the evidence")
                return
        if ci and wj:
            self._substitution(ci, wj)
        elif ci:
            self._insertion(ci, "insertion", [])
        elif wj:
            self._deletion(wj)

    def _stated_frame(self, ci: list[int], edge: list[int]) -> bool:
        """Whether claim words ``ci`` are the claim's opening frame ("At Pellham,": a word of
        :data:`FRAME_OPENERS` first, a comma right after them) whose content words the evidence
        states, while the window words ``edge`` they would stand against name nothing (no
        capitalised content word: "… a grade of C or better, and" before "any change of
        major", not "Beta Inc's" before "revenue fell") (v65)."""
        c, w = self.c, self.w
        if ci[0] != 0 or c.tokens[0].text not in FRAME_OPENERS:
            return False
        after = ci[-1] + 1
        if after >= len(c.tokens):
            return False
        if "," not in c.text[c.tokens[ci[-1]].end : c.tokens[after].start]:
            return False
        keys = [c.keys[i] for i in ci if c.content[i]]
        if not keys or not set(keys) <= self.ev.keys | self.context:
            return False
        return not any(w.content[j] and w.surface(j)[:1].isupper() for j in edge)

    def _edge_width(self, ci: list[int]) -> int:
        """How many unquoted window words at an edge stand against claim words ``ci``: as many
        as the claim has, a whole long form when the claim gives its defined short form, or
        (v17) as many as its contractions write out ("didn't" stands against "did not")."""
        keys = [self.c.keys[i] for i in ci if self.c.content[i]]
        for short, long in self.ev.abbreviations:
            if keys == [short]:
                return max(len(ci), len(long))
        return len(_expanded(self.c, ci)) if self.contractions else len(ci)

    def _deletion(self, wj: list[int]) -> None:
        if _negations(self.w, wj) % 2 and (
            not self._is_clause(wj) or (self.negation_scope and self._negation_runs_on(wj))
        ):
            self._add("deletion", [], wj, "contradicted: negation dropped")
        elif self._spliced(wj):
            self._add("deletion", [], wj, "unsupported: joins two sentences' parts")
        elif self.clause_splices and self._clause_spliced(wj):
            self._add("deletion", [], wj, "unsupported: joins two clauses' parts")
        elif self.compounds and self._prefix_dropped(wj):
            self._add("deletion", [], wj, "unsupported: opposite term")
        elif self.moved_figures and (
            (kind := self._figure_moved_in(wj)) is not None
            or (kind := self._figure_carried_on(wj)) is not None
        ):
            self._add("deletion", [], wj, f"unsupported: different {kind}")
        elif (self.carried_details and (why := self._carried(wj)) is not None) or (
            self.overstatement and (why := self._overstated(wj, [])) is not None
        ):
            self._add("deletion", [], wj, f"unsupported: {why}")
        elif self.bounds and self._bound_dropped(wj):
            self._add("deletion", [], wj, "unsupported: bound dropped")
        elif (
            self.inversions
            and (at := self._claim_at(wj[-1] + 1)) is not None
            and _inverting(self.w, wj, self.c, at)
        ):
            self._add("deletion", [], wj, "unsupported: inverting word dropped")
        elif self.frames and _framing(self.w, wj, self.suppositions, self.caveats):
            self._add("deletion", [], wj, "unsupported: not asserted by the window")
        elif self.restrictions and (why := self._restricted(wj)) is not None:
            self._add("deletion", [], wj, f"unsupported: {why}")
        else:
            self._add("deletion", [], wj, "allowed: compression")

    def _prefix_dropped(self, wj: list[int]) -> bool:
        """Whether the deleted window words ``wj`` end in a negating prefix joined by a hyphen
        to the word after them: "small-cell" quoted from "non-small-cell" names the opposite
        (v18; up to v17 a compression)."""
        last = self.w.tokens[wj[-1]]
        after = self.w.text[last.end : last.end + 1]
        return (
            last.text in _HYPHENED_NEGATIONS
            and after in _HYPHENS
            and wj[-1] + 1 < len(self.w.tokens)
        )

    def _bound_dropped(self, wj: list[int]) -> bool:
        """Whether the deleted window words ``wj`` end in the bound of the figure right after
        them, which the claim keeps ("over" of "over 50%"; :func:`_bound_before`; v16)."""
        if self.postposed and self._bound_after_dropped(wj):
            return True
        after = wj[-1] + 1
        bound = _bound_before(self.w, after)
        if not bound or after not in self.aligned_w or not set(bound) <= set(wj):
            return False
        at = self._claim_at(after)  # the claim may write the bound as a sign: "<5%"
        return at is None or self._written_side(at) != _bound_side(self.w, after)

    def _written_side(self, at: int) -> str | None:
        """The side of claim figure ``at``'s bound where it is no aligned word: a sign, or
        (v19) words after the figure ("65 years or older")."""
        if self.postposed and (after := _bound_after(self.c, at)):
            return _after_side(self.c, after)
        return _sign_before(self.c, at)

    def _bound_after_dropped(self, wj: list[int]) -> bool:
        """Whether the deleted window words ``wj`` hold the bound written after a window figure
        the claim keeps ("or older" of "65 years or older"), which the claim does not state
        another way ("≥65 years", "at least 65 years") (v19)."""
        found = _figure_bounded_after(self.w, wj[0] - 1)
        if found is None or found[1][-1] not in wj or found[0] not in self.aligned_w:
            return False
        k, bound = found
        at = self._claim_at(k)
        return at is None or _bound_side(self.c, at, True) != _after_side(self.w, bound)

    def _restricted(self, wj: list[int]) -> str | None:
        """What the deleted window words ``wj`` restricted the finding with (v15): a
        co-intervention, a dose or a subgroup (:func:`_restriction`), or, unless they are a
        bracketed or comma-delimited clause dropped whole, a population ("in women aged 50 or
        more") or what narrows a population noun the claim keeps ("patients | with diabetes");
        else None."""
        why = _restriction(self.w, wj, self.c)
        if why is not None or self._is_clause(wj, both=self.local_population):
            return why
        noun = wj[0] - 1 if wj[0] - 1 in self.aligned_w else -1
        kept = self._population_kept()
        if _population_phrase(self.w, wj, self.c, kept) or _narrowing(self.w, wj, noun):
            return "population dropped"
        return None

    def _population_kept(self) -> list[str] | None:
        """The claim words that may keep a dropped population under v44 (``local_population``):
        those the claim does not copy as part of a run of two words or more from elsewhere in
        the window ("Men and women reported …" keeps no "among women" dropped later; a lone
        "women" aligned to it may be the claim's own, "Among women, …"); None before v44."""
        if not self.local_population:
            return None
        copied = {a + n for a, _, size in self.blocks if size >= 2 for n in range(size)}
        return [t.text for i, t in enumerate(self.c.tokens) if i not in copied]

    def _overstated(self, wj: list[int], ci: list[int]) -> str | None:
        """What the deleted window words ``wj`` qualified the finding with, when the claim keeps
        nothing of the kind: a species or in-vitro scope (dropped anywhere, brackets too), a
        hedge or an association (not when a bracketed or comma-delimited clause of two content
        words or more is dropped whole); else None (v12). A dropped conjunct (two content
        words or more up to a joining word: "can be stably expanded in vitro and") qualifies
        only itself. Under v16 (``local_qualifiers``) a scope is kept only by one of its kind
        (:func:`_scopes_kept`), a hedge or an association only by one in the claim's stretch
        around the edit (``ci``, or the point of a deletion; :func:`_reach`)."""
        dropped = {self.w.tokens[j].text for j in wj}
        kept = {t.text for t in self.c.tokens}
        if self.w.tokens[wj[-1]].text in COORDINATORS and sum(self.w.content[j] for j in wj) >= 2:
            return None  # a dropped conjunct's own qualifier: "expanded in vitro and"
        if self.local_qualifiers:
            if dropped & _SCOPE_WORDS and not _scopes_kept(dropped, kept):
                return "scope dropped"
            kept = _reach(self.c, *self._claim_range(ci, wj))
        elif dropped & _SCOPE_WORDS and not kept & _SCOPE_WORDS:
            return "scope dropped"
        if self.extent and (why := self._not_significant(wj, kept)) is not None:
            return why
        if self._is_clause(wj) and sum(self.w.content[j] for j in wj) >= 2:
            return None  # a dropped clause's own hedge: ", which may reflect X,"
        if dropped & _HEDGE_WORDS and not kept & _HEDGE_WORDS:
            return "hedge dropped"
        if (
            self.suppositions
            and _raised(self.w, wj, self.caveats)
            and not set(kept) & (_RAISING_WORDS - _DOUBTING_WORDS)
            and not _raised(self.c, range(len(self.c.tokens)))
        ):
            return "not asserted by the window"
        if (
            self.suppositions
            and (dropped & _MORE_HEDGE_WORDS or _in_theory(self.w, wj))
            and not kept & (_HEDGE_WORDS | _MORE_HEDGE_WORDS | {"theory"})
        ):
            return "hedge dropped"
        if dropped & _ASSOCIATION_WORDS and not kept & _ASSOCIATION_WORDS:
            return "association stated as an effect"
        if self.extent:
            return _extent_dropped(self.w, wj, kept, self.caveats)
        return None

    def _not_significant(self, wj: list[int], kept: set[str]) -> str | None:
        """What the deleted window words ``wj`` said of the finding's significance, when the
        claim's stretch around the edit (``kept``) says nothing of it (v35): a concession clause
        of non-significance about the finding ("…, although not significantly, …": v15's
        :func:`_caveat`, read inside the copy as well as after it), or a phrase saying it was
        not significant and nothing else ("a non-significant reduction" → "a reduction");
        else None."""
        if kept & _SIGNIFICANCE:
            return None
        words = [self.w.tokens[j].text for j in wj]
        if words[0] in _CONCESSIONS:
            return _caveat(self.w, wj, self.c)
        content = {words[k] for k, j in enumerate(wj) if self.w.content[j]}
        if (
            content & _SIGNIFICANCE
            and content & _NOT_SIGNIFICANT_WORDS - {"statistically"}
            and content <= (_SIGNIFICANCE | _NOT_SIGNIFICANT_WORDS)
        ):
            return "extent dropped"
        return None

    def _carried(self, wj: list[int]) -> str | None:
        """What the deleted window words ``wj`` leave the claim saying that the window does not
        (v33), else None: a bound written after a later figure now follows an earlier one ("15
        years and older" from "15 years and 95 years and older"); the other side of a
        comparison dropped from a claim that keeps the words stating the comparison's outcome
        ("not different in reducing 28-day mortality rates" from "… 28-day mortality versus
        14-day mortality rates"); or the main clause dropped up to a conditional head, so the
        claim states as a finding what the window only supposes ("A 53% reduction … was seen
        if 100% of treatment was switched" → "A 100% of treatment was switched")."""
        if self._bound_carried(wj):
            return "bound carried on"
        if self._comparison_dropped(wj):
            return "comparison dropped"
        if (
            self.w.tokens[wj[-1]].text.lower() in _CONDITIONAL_HEADS
            and self._claim_at(wj[-1] + 1) is not None
        ):
            return "not asserted by the window"
        return None

    def _bound_carried(self, wj: list[int]) -> bool:
        """Whether the claim's figure before the gap left by ``wj`` has a bound written after
        it whose words lie past the gap, which the window's figure lacks or writes on the
        other side (v33; :func:`_bound_after`)."""
        before = [a for a, b in self._pairs() if b < wj[0]]
        if not before:
            return False
        found = _figure_bounded_after(self.c, max(before))
        if found is None or found[1][-1] <= max(before):
            return False
        k, bound = found
        j = self._window_at(k)
        if j is None:
            return False
        own = _bound_after(self.w, j)
        return not own or _after_side(self.w, own) != _after_side(self.c, bound)

    def _comparison_dropped(self, wj: list[int]) -> bool:
        """Whether ``wj`` opens with what introduces a comparison's other side ("versus",
        "compared", "than") while the claim's stretch around the gap (:func:`_reach`) keeps a
        word that states the comparison's outcome ("different", "similar", "comparable") and
        neither a comparison of its own nor both of its sides ("between", "both") (v33)."""
        if self.w.tokens[wj[0]].text.lower() not in _COMPARATORS:
            return False
        words = {w.lower() for w in _reach(self.c, *self._claim_range([], wj))}
        return bool(words & _SAMENESS_WORDS) and not words & (_COMPARATORS | _BOTH_SIDES)

    def _repeated_frame(self, wj: list[int], later: list[tuple[int, int]]) -> int:
        """How many claim words right after the gap left by ``wj`` repeat the dropped words'
        first ones, when the dropped words end with the later figure's own modifier, which the
        claim lacks ("systolic [blood pressure of 90-114 mm Hg and diastolic] blood pressure of
        60-74 mm Hg": 3; not "for maternal use [for days 0 to 13 was 3.49 and] for days 14 to
        120 was 0.70", where what precedes the gap is both figures'); else 0 (v33)."""
        last = wj[-1]
        if not self.w.content[last] or self.w.keys[last] in set(self.c.keys):
            return 0
        n, after = 0, last + 1
        while (
            n + 1 < min(len(later), len(wj))
            and later[n] == (later[0][0] + n, after + n)
            and self.w.keys[wj[n]] == self.w.keys[after + n]
        ):
            n += 1
        if n and later[n] == (later[0][0] + n, after + n):
            return n
        return 0

    def _figure_moved_in(self, wj: list[int]) -> str | None:
        """``number`` or ``entity`` when deleted window words ``wj`` hold a number or name and the
        claim's next word (past function words aligned right after the gap) is one of the same
        kind that the alignment pairs with a later mention, and either a clause mark stands
        between ("over 2 y" against "over 4 y; incident type 2 diabetes") or the dropped words
        give that later figure a noun of its own ("lowered LDL by 15%" against "lowered LDL by
        30% and triglycerides by 15%"): the claim's figure took the dropped one's place (v10).
        None otherwise: dropping "3 and" from "at 3 and 6 months" keeps "6 months" where the
        window has it, and in "0.8 for men and 0.9 for women" the noun "men" is the first
        figure's."""
        dropped = {_detail_kind(self.w, j) for j in wj} - {None}
        later = sorted(((a, b) for a, b in self._pairs() if b > wj[-1]), key=lambda p: p[1])
        if not dropped or not later:
            return None
        k = self._repeated_frame(wj, later) if self.carried_details else 0
        while (
            k + 1 < len(later)
            and not self.c.content[later[k][0]]
            and later[k + 1] == (later[k][0] + 1, later[k][1] + 1)
        ):
            k += 1  # "by" in "by 15%": function words that tie the figure to what precedes
        a, b = later[k]
        kind = _detail_kind(self.c, a)
        # v33: a figure in brackets is another figure's aside ("by 3.0% (95% CI 1.6%-5.9%)"),
        # not one the claim's figure may repeat
        own = {self.w.keys[j] for j in wj if not (self.carried_details and _bracketed(self.w, j))}
        if kind is None or kind not in dropped or self.c.keys[a] in own:
            return None
        text = self.w.text
        opens = text[: self.w.tokens[wj[0]].start].rstrip()[-1:]
        closes = text[self.w.tokens[wj[-1]].end :].lstrip()[:1]
        if opens in ("(", "[") and closes in (")", "]"):
            return None  # a bracketed aside dropped whole: "(HPV)", "(n = 53)"
        between = text[self.w.tokens[wj[0]].start : self.w.tokens[b].start]
        if re.search(r"[,;:()\[\]]|[.!?]\s", between) or self._own_noun(wj, b):
            return _JUDGED_KIND[kind]
        return None

    def _figure_carried_on(self, wj: list[int]) -> str | None:
        """``number`` or ``entity`` when the claim carries a figure on to a later figure's noun:
        the window says "F1 X <F1's noun> and F2 X <F2's noun>" and the claim "F1 X <F2's noun>"
        ("0.8 for women" against "0.8 for men and 0.9 for women"; "12% in the placebo group"
        against "12% in the drug group and 20% in the placebo group"). The deleted words hold a
        content word (F1's own noun), then a word that joins two phrases, then only function
        words before F2; after F2 they repeat what follows F1 in the claim (v10). A list item
        dropped ("at 3 months" from "at 3, 6 and 12 months") has no noun of its own and stays a
        compression."""
        before = sorted((p for p in self._pairs() if p[1] < wj[0]), key=lambda p: p[1])
        for f2 in reversed(wj):  # F2: the last figure that the claim's figure stands for
            kind = _detail_kind(self.w, f2)
            if kind is None:
                continue
            tail = [self.w.keys[j] for j in wj if j > f2]
            if len(before) < len(tail) + 1:
                continue
            echo = before[len(before) - len(tail) :] if tail else []
            if [self.c.keys[a] for a, _ in echo] != tail:
                continue
            a1, _ = before[len(before) - len(tail) - 1]
            if _detail_kind(self.c, a1) != kind or self.c.keys[a1] == self.w.keys[f2]:
                continue
            joins = [j for j in wj if j < f2 and self.w.tokens[j].text.lower() in COORDINATORS]
            if not joins or any(self._noun(j) for j in range(joins[-1] + 1, f2)):
                return None
            if not any(
                self.w.content[j] and _detail_kind(self.w, j) is None and j < joins[-1] for j in wj
            ):
                return None  # no noun of F1's own: a list item dropped
            return _JUDGED_KIND[kind]
        return None

    def _own_noun(self, wj: list[int], b: int) -> bool:
        """Whether the dropped words ``wj`` end, after their last figure of the kind at ``b``,
        with a noun of the window's figure at ``b``: a content word (a name too: "DNA in 1,150")
        tied to it by function words only, none of which joins two phrases ("triglycerides by
        15%", not "men and 0.9")."""
        kind = _detail_kind(self.w, b)
        last = max((j for j in wj if _detail_kind(self.w, j) == kind), default=None)
        if last is None:
            return False
        nouns = [j for j in range(last + 1, b) if self._noun(j)]
        if not nouns:
            return False
        tie = range(nouns[-1] + 1, b)
        if self.figure_nouns and not tie:
            # A label's noun right before its figure ("in period 3") is its own when the
            # dropped words hold another figure too: "25.5% in period 2 and 26.3% in period 3";
            # a list of labels drops an item ("type 1 and type 2 diabetes").
            return sum(_detail_kind(self.w, j) == kind for j in wj) >= 2
        return bool(tie) and not any(
            self._noun(j) or self.w.tokens[j].text.lower() in COORDINATORS for j in tie
        )

    def _noun(self, j: int) -> bool:
        """Whether window word ``j`` may name what a figure counts: a content word, and under
        v16 (``figure_nouns``) none of :data:`_FIGURE_MODIFIERS`."""
        if self.figure_nouns and self.w.tokens[j].text.lower() in _FIGURE_MODIFIERS:
            return False
        return self.w.content[j]

    def _spliced(self, wj: list[int], starts: frozenset[int] | None = None) -> bool:
        """A deletion across a sentence boundary that drops the next sentence's own content
        words (its subject, say) splices two statements; a merge drops only what the claim
        says anyway (``X reduced A. It also reduced B`` → ``X reduced A and B``). ``starts``:
        where else a statement starts (v65: :func:`clause_starts`), instead of sentences."""
        if starts is None:
            starts = frozenset(a for a, _ in self.ev.sentences)
        cut = next((j for j in wj[1:] if j in starts), None)
        if cut is None and wj[0] in starts and wj[0] > self.first_w:
            cut = wj[0]
        if cut is None:
            return False
        said = set(self.c.keys)
        return any(self.w.content[j] and self.w.keys[j] not in said for j in wj if j >= cut)

    def _clause_spliced(self, wj: list[int]) -> bool:
        """:meth:`_spliced` at a semicolon outside brackets (:func:`clause_starts`; score model
        v65), unless the clause after it goes on about the claim's subject with "it", "they",
        "he" or "she" right before the words the claim copies next ("…; an alternative basis
        … is that they depend on the ocean": "Polar bears depend on the ocean")."""
        if not self._spliced(wj, clause_starts(self.w)):
            return False
        last = [self.w.tokens[j].text.lower() for j in wj[-2:]]
        return not any(t in _CLAUSE_SUBJECTS for t in last)

    def _insertion(self, ci: list[int], op: str, wj: list[int]) -> None:
        if _negations(self.c, ci) % 2:
            self._add(op, ci, wj, "contradicted: negation added")
            return
        content = [i for i in ci if self.c.content[i]]
        if self.bounds and (
            self._bound_written_out(ci) or (self.postposed and self._bound_written_after(ci))
        ):
            self._add(op, ci, wj, "allowed: same bound")
        elif not content:
            self._add(op, ci, wj, "allowed: function words")
        elif self.ev.states([self.c.keys[i] for i in content]):
            if self.conjuncts and self._conjunct_stated_otherwise(ci, content):
                self._add(op, ci, wj, "unsupported: stated otherwise in the evidence")
            else:
                self._add(op, ci, wj, "allowed: stated in the evidence")
        elif self.abbreviated and self._stated_abbreviated([self.c.keys[i] for i in content]):
            self._add(op, ci, wj, "allowed: stated in the evidence (abbreviated)")
        elif self._names_the_pronoun(wj, [self.c.keys[i] for i in content]):
            self._add(op, ci, wj, "allowed: named in the evidence before")
        elif self.paraphrases and not wj and (why := self._benign_insertion(ci)) is not None:
            self._add(op, ci, wj, f"allowed: {why}")
        elif self.associations and self._sign_stated(ci):
            self._add(op, ci, wj, "allowed: same sign")
        elif self.comparisons and self._comparison_phrase(content):
            self._add(op, ci, wj, "allowed: comparison restated")
        else:
            self._add(op, ci, wj, "unsupported: not in the evidence")

    def _comparison_phrase(self, content: list[int]) -> bool:
        """Claim words ``content`` are the words of a phrase that names a comparison's side
        ("compared", "relative": :data:`~spanproof.verify.comparisons.COMPARED`) of a
        comparison the window states and the claim keeps or restates (score model v78):
        "Compared with children, adults over 65 were more susceptible" against "Adults over 65
        were more susceptible … than children"."""
        if any(self.c.tokens[i].text not in PHRASE_WORDS for i in content):
            return False
        return bool(comparison_kept(self.c.text, self._window_sentences(), figure_sides=True))

    def _comparatives_restated(self, ci: list[int], wj: list[int]) -> bool:
        """The flipped words are comparatives only, each of a comparison the window states and
        the claim restates with its sides traded (score model v78,
        :func:`~spanproof.verify.comparisons.restated_comparatives`): "Never smokers had a
        lower risk … than smokers" against "Smokers had a higher risk … than never smokers"."""
        mine = [i for i in ci if self.c.content[i]]
        words = [self.c.tokens[i].text for i in mine]
        words += [self.w.tokens[j].text for j in wj if self.w.content[j]]
        if not mine or any(t not in UP and t not in DOWN for t in words):
            return False
        restated = restated_comparatives(self.c.text, self._window_sentences(), figure_sides=True)
        return all(self.c.tokens[i].start in restated for i in mine)

    def _window_sentences(self) -> str:
        """The whole sentences the window overlaps: it may begin past a phrase's first words
        ("children, adults …" of "Compared with children, adults …")."""
        start, end = self.w.tokens[self.first_w].start, self.w.tokens[self.last_w].end
        return " ".join(
            s.text for s in split_sentences(self.w.text) if s.start < end and start < s.end
        )

    def _names_a_pronoun(self, ci: list[int], wj: list[int]) -> bool:
        """Whether claim words ``ci``, more content words than :data:`MAX_CHANGED_RUN`, stand
        where the window has only pronouns ``wj`` ("The law school is ranked 12th" against "It
        is ranked 12th"): a name for what the window calls "it", not a phrase put in for
        another (v60 reads only the latter as a substitution)."""
        named = sum(1 for i in ci if self.c.content[i])
        return (
            named > MAX_CHANGED_RUN
            and bool(wj)
            and all(self.w.tokens[j].text.lower() in _PRONOUNS for j in wj)
        )

    def _names_the_pronoun(self, wj: list[int], keys: list[str]) -> bool:
        """Whether the claim's words ``keys`` stand for the window's "it" or "they" ``wj``, which
        opens the span's first sentence, and the evidence item before states them (v59: an
        answer names what a sentence quoted alone calls "it")."""
        if self.antecedent is None or not wj or not keys:
            return False
        if any(self.w.tokens[j].text.lower() not in _PRONOUN_SUBJECTS for j in wj):
            return False
        first = self.ev.sentences[0][0] if self.ev.sentences else 0
        return wj[0] == first and self.antecedent.states(keys)

    def _named_description(self, ci: list[int], wj: list[int]) -> str | None:
        """v63's judgement of a name put for a description (:meth:`_names_the_description`)."""
        if self.descriptions and self._names_the_description(ci, wj):
            return "allowed: named in the evidence before"
        return None

    def _named_referent(self, ci: list[int], wj: list[int]) -> str | None:
        """v65's judgement of a name put for a pronoun or a description that the sentence before
        names (:meth:`_names_the_referent`)."""
        if self.named_within and self._names_the_referent(ci, wj):
            return "allowed: named in the evidence before"
        return None

    def _names_the_referent(self, ci: list[int], wj: list[int]) -> bool:
        """Whether the claim's words ``ci`` stand where the window refers back, with "it",
        "they", "he" or "she" or with "the (same) <noun>" (:data:`_DESCRIBING`), to what the
        sentence before, in the same evidence item, opens by naming: every content word of
        ``ci`` is among that sentence's first :data:`REFERENT_REACH` content words, and where
        those hold a capitalised word, ``ci`` holds the first of them ("The Team plan of
        Quillstack costs … It includes 100 GB" → "Quillstack's Team plan includes 100 GB";
        "Before founding the bakery chain Crumb & Co …, Samir Haddad worked … The company now
        has 64 shops" → "Crumb & Co", not "Samir Haddad", "now has 64 shops"). v65."""
        c, w = self.c, self.w
        if not wj:
            return False
        described, words = self._described(wj)
        same = described and words[:1] == ["same"]
        if same:
            words = words[1:]
        if not (described and len(words) <= 1) and words not in ([p] for p in _CLAUSE_SUBJECTS):
            return False
        keys = {c.keys[i] for i in ci if c.content[i]}
        here = next((k for k, (a, b) in enumerate(self.ev.sentences) if a <= wj[0] < b), 0)
        if not keys:
            return False
        if here > 0:
            before, (a, b) = w, self.ev.sentences[here - 1]
        elif self.context and self.antecedent is not None and self.antecedent.sentences:
            # v67 (its items of one source give a context): the item before it in its source
            # ends with the sentence before
            before, (a, b) = self.antecedent.body, self.antecedent.sentences[-1]
        else:
            return False
        opening = [j for j in range(a, b) if before.content[j]][:REFERENT_REACH]
        stated = {before.keys[j] for j in opening}
        if described and not same and words:
            # "the company", or the noun of the name itself ("Westfell Airport … the airport"):
            # not a part or a property of it ("the motor" of a vacuum cleaner).
            noun = words[0]
            if noun not in REFERRING_NOUNS and _key(noun) not in stated:
                return False
        return keys <= stated and self._names_first(before, opening, a)

    def _names_first(self, w: Text, opening: list[int], start: int) -> bool:
        """Whether the claim holds the first capitalised word among words ``opening`` of ``w``
        (a sentence's first word counts when the next is capitalised too: "Westfell Airport
        handled …", not "Before founding …"); True where there is none."""
        named = [
            j
            for j in opening
            if w.surface(j)[:1].isupper()
            and (j != start or (j + 1 < len(w.tokens) and w.surface(j + 1)[:1].isupper()))
        ]
        return not named or w.keys[named[0]] in set(self.c.keys)

    def _described(self, wj: list[int]) -> tuple[bool, list[str]]:
        """Whether window words ``wj`` are a description ("the company" replaced whole, or its
        noun alone after the window's "the" or "this"), and their lowercase words without that
        word (v63, v65)."""
        w = self.w
        words = [w.tokens[j].text.lower() for j in wj]
        if words and words[0] in _DESCRIBING:
            return True, words[1:]
        before = bool(wj) and wj[0] > 0 and w.tokens[wj[0] - 1].text.lower() in _DESCRIBING
        return before, words

    def _names_the_description(self, ci: list[int], wj: list[int]) -> bool:
        """Whether the claim's name ``ci`` stands where the window writes "the company", "the
        drug" (:data:`REFERRING_NOUNS`) and is the name the evidence item opens with (its first
        sentence's first run of capitalised words, before the window's words): an answer names
        what its source goes on to call by a description (v63). A name the item gives only
        later, another company's say, is left to the rest of the reading."""
        c, w = self.c, self.w
        described, words = self._described(wj)
        if not described or len(words) != 1 or words[0] not in REFERRING_NOUNS:
            return False
        if not all(c.content[i] and c.surface(i)[:1].isupper() for i in ci):
            return False
        topic = self._opening_name()
        return (
            bool(topic)
            and topic[-1] < wj[0]
            and {c.keys[i] for i in ci} <= {w.keys[j] for j in topic}
        )

    def _opening_name(self) -> list[int]:
        """The window-text indices of the first run of capitalised content words in the
        evidence item's first sentence ("Acme Corp" of "In 2025, Acme Corp reported …")."""
        if not self.ev.sentences:
            return []
        a, b = self.ev.sentences[0]
        w = self.w
        run: list[int] = []
        for j in range(a, b):
            if w.content[j] and w.surface(j)[:1].isupper():
                run.append(j)
            elif run:
                break
        return run

    def _written_alike(self, ci: list[int], wj: list[int]) -> str | None:
        """The same words written together or apart (v18), or (v52) a use denied in words
        against one word ("should not be used" / "is contraindicated")."""
        c, w = self.c, self.w
        if self.compounds and written_together(c, ci) == written_together(w, wj):
            return "allowed: same words (written together or apart)"
        said = " ".join(c.tokens[i].text for i in ci)
        written = " ".join(w.tokens[j].text for j in wj)
        if self.answer_words and _contraindication(said, written):
            return "allowed: same denial (contraindication)"
        return None

    def _denials(self, text: Text, indices: Sequence[int]) -> int:
        """The negations among ``indices``, and under v52 (``answer_words``) the words that
        deny a use ("contraindicated": :data:`~spanproof.verify.gates.CONTRAINDICATIONS`)."""
        extra = (
            sum(1 for i in indices if text.tokens[i].text in CONTRAINDICATIONS)
            if self.answer_words
            else 0
        )
        return _negations(text, indices) + extra

    def _conjunct_stated_otherwise(self, ci: list[int], content: list[int]) -> bool:
        """v51: whether inserted words ``ci`` join a thing to a copied one ("and diastolic")
        that the evidence states only in sentences other than the copy's, none of which states
        it without a negation or the opposite of the claim's direction: the claim extends a
        finding to a thing the evidence says something else of."""
        words = [self.c.tokens[i].text.lower() for i in ci]
        if words[0] in _JOINERS:
            anchor = self._window_at(ci[0] - 1)
        elif words[-1] in _JOINERS:
            anchor = self._window_at(ci[-1] + 1)
        else:
            return False
        if anchor is None:
            return False
        keys = {self.c.keys[i] for i in content}
        ranges = self.ev.sentences
        own = next((k for k, (a, b) in enumerate(ranges) if a <= anchor < b), None)
        holding = [k for k, held in enumerate(self.ev.sentence_keys) if keys <= held]
        if own is None or own in holding:
            return False
        claimed = _directions(self.c, range(len(self.c.tokens)))
        for k in holding:
            span = range(*ranges[k])
            turned = _directions(self.w, span)
            if _negations(self.w, span) == 0 and not any(
                OPPOSITE[d] in turned and d not in turned for d in claimed
            ):
                return False  # a merge: another sentence states the same of it
        return True

    def _benign_insertion(self, ci: list[int]) -> str | None:
        """v50: inserted words that make the claim no stronger than the window: an
        approximation right before a figure ("approximately 5 mmHg"), or a finding stated as
        found ("was found to lower" for "lowered"). Only words put in where the window has
        none: put for the window's words ("was found to" for "could") they may drop a hedge."""
        words = [self.c.tokens[i].text.lower() for i in ci]
        after = ci[-1] + 1
        if (
            all(w in _APPROXIMATIONS for w in words)
            and after < len(self.c.tokens)
            and _detail_kind(self.c, after) == "number"
        ):
            return "approximation"
        if _FOUND_TO.fullmatch(" ".join(words)) is not None:
            return "stated as found"
        return None

    def _stated_abbreviated(self, keys: list[str]) -> bool:
        """Whether inserted content words ``keys`` are a long form whose abbreviation the window
        states, or an abbreviation whose long form it states (v17)."""
        return any(
            (tuple(keys) == long and short in self.ev.keys)
            or (keys == [short] and self.ev.states(list(long)))
            for short, long in self.ev.abbreviations
        )

    def _bound_written_out(self, ci: list[int]) -> bool:
        """Whether inserted claim words ``ci`` are the bound, in words, of the claim figure
        right after them, which the window writes as a sign of the same side ("less than 5%"
        against "<5%"; v16)."""
        after = ci[-1] + 1
        words = _bound_before(self.c, after)
        j = self._window_at(after)
        return (
            bool(words)
            and set(ci) <= set(words)
            and j is not None
            and (
                _bound_side(self.w, j, self.postposed)
                if self.postposed
                else _sign_before(self.w, j)
            )
            == _bound_side(self.c, after)
        )

    def _bound_written_after(self, ci: list[int]) -> bool:
        """Whether inserted claim words ``ci`` are a bound written after a claim figure ("or
        older" of "65 years or older") whose window figure has a bound of the same side, as a
        sign, in words before it or after it ("≥65 years", "at least 65 years") (v19)."""
        found = _figure_bounded_after(self.c, ci[0] - 1)
        if found is None or not set(ci) <= set(found[1]):
            return False
        k, bound = found
        j = self._window_at(k)
        return j is not None and _bound_side(self.w, j, True) == _after_side(self.c, bound)

    def _substitution(self, ci: list[int], wj: list[int]) -> None:
        ruled = self._rule(ci, wj)
        allowed = ruled is not None and ruled.startswith("allowed")
        if not allowed and max(len(ci), len(wj)) > MAX_SUBSTITUTION_WORDS:
            self.rewritten = True
        if not allowed and self.long_run and self._names_a_pronoun(ci, wj):
            self.rewritten = True  # a name for the window's "it": read as before v60
        if ruled == "insertion":
            self._insertion(ci, "substitution", wj)
        elif ruled is not None:
            self._add("substitution", ci, wj, ruled)
        else:
            self.questions.append(Question(self._phrase(self.c, ci), self._phrase(self.w, wj)))
            self._add("substitution", ci, wj, None)

    def _polarity(self, ci: list[int], wj: list[int]) -> str | None:
        """A negation or a direction flipped, or (v17) a contraction and the words it writes out
        ("doesn't" / "does not": read before the hedge of "could not" can seem dropped)."""
        c, w = self.c, self.w
        if self._denials(c, ci) % 2 != self._denials(w, wj) % 2:
            if self.privatives and denied_alike(_lowered(c, ci), _lowered(w, wj)):
                return "allowed: same denial (prefix)"
            return "contradicted: negation flip"
        ours, theirs = _directions(c, ci), _directions(w, wj)
        if any(OPPOSITE[d] in theirs and d not in theirs for d in ours):
            if self.comparisons and self._comparatives_restated(ci, wj):
                return "allowed: comparison restated"
            return "contradicted: direction flip"
        if self.contractions and _expanded(c, ci) == _expanded(w, wj):
            return "allowed: same words (contraction)"
        return None

    def _rule(self, ci: list[int], wj: list[int]) -> str | None:
        """A judgement the words decide alone, ``"insertion"``, or None (ask about meaning)."""
        c, w = self.c, self.w
        decided = (
            self._written_alike(ci, wj)
            or self._polarity(ci, wj)
            or (self._association_reworded(ci, wj) if self.associations else None)
            or self._opposite_or_stronger(ci, wj)
            or self._named_description(ci, wj)
            or self._named_referent(ci, wj)
        )
        if decided is not None:
            return decided
        if self.paraphrases and (why := self._reworded(ci, wj)) is not None:
            return why
        c_keys = [c.keys[i] for i in ci if c.content[i]]
        w_keys = [w.keys[j] for j in wj if w.content[j]]
        numbers = {k for k in c_keys if k.startswith("#")} - set(w_keys)
        if numbers and self.rounded and self._rounded(ci, wj):
            return "allowed: rounded figure"
        if numbers and (numbers - self.ev.keys or any(k.startswith("#") for k in w_keys)):
            return "unsupported: different number"
        written = self._written_otherwise(ci, wj, c_keys, w_keys)
        if written is not None:
            return written
        letters = {c.keys[i] for i in ci if i in self.c_letters}
        if letters and not letters <= {w.keys[j] for j in wj}:
            return "unsupported: different entity"  # "type II" → "type I" (v9)
        if not c_keys:
            return "allowed: compression"
        if not w_keys:
            return "insertion"
        if set(c_keys) <= set(w_keys):
            return "allowed: same words"
        first = self.c.tokens[0].start
        for i in ci:
            surface = c.surface(i)
            shaped = entity_shape(surface, c.tokens[i].start == first) is not None
            if shaped and c.content[i] and c.keys[i] not in w_keys:
                return "unsupported: different entity"
        return None

    def _rounded(self, ci: list[int], wj: list[int]) -> bool:
        """v56: the claim's words put one approximate figure, rounded (:func:`roundings`), for
        the one figure the evidence's words state there ("about 5" / "5.2", "nearly 70" /
        "69"), and the evidence states the claim's figure nowhere (else it is a mix-up)."""
        before = [self.c.tokens[i].text.lower() for i in range(max(0, ci[0] - 2), ci[0])]
        said = [*before, *(self.c.tokens[i].text.lower() for i in ci)]
        ours = roundings(said)
        theirs = [n for j in wj if (n := canonical_number(self.w.tokens[j].text)) is not None]
        if len(ours) != 1 or len(theirs) != 1:
            return False
        [(atom, rounding)] = ours.items()
        if "#" + atom in self.ev.keys:
            return False  # the evidence states that figure elsewhere: a mix-up, not a rounding
        words = [t for t in said[len(before) :] if canonical_number(t) is None]
        return set(words) <= _ROUNDING_WORDS and rounds_to(float(theirs[0]), float(atom), rounding)

    def _association_reworded(self, ci: list[int], wj: list[int]) -> str | None:
        """v75: one word of association put for another ("linked to" / "associated with",
        "correlated with a higher" / "associated with an increased"): allowed when the two
        state the same sign or neither states one (:func:`_association_sign`)."""
        ours, theirs = _association_sign(self.c, ci), _association_sign(self.w, wj)
        if ours is None or theirs is None or ours != theirs:
            return None
        return "allowed: same association"

    def _sign_stated(self, ci: list[int]) -> bool:
        """v75: whether inserted words ``ci`` are one sign adverb or one word of change of an
        association of the claim ("positively associated with the risk of X") whose sign every
        association the window states with the same thing has ("associated with an increased
        risk of X": :func:`~spanproof.verify.gates.signed_associations`)."""
        words = [self.c.tokens[i].text.lower() for i in ci if self.c.content[i]]
        if len(words) != 1:
            return False
        if words[0] not in _SIGN_ADVERBS and direction_of(words[0], True) not in SIGNS:
            return False
        at = self.c.tokens[ci[0]].start
        mine = [
            (sign, things) for sign, things, a, b in signed_associations(self.c.text) if a <= at < b
        ]
        if not mine:
            return False
        sign, things = mine[0]
        theirs = [s for s, t, _a, _b in signed_associations(self.w.text) if t & things]
        return bool(theirs) and all(s == sign for s in theirs)

    def _reworded(self, ci: list[int], wj: list[int]) -> str | None:
        """v50: one plain word of change for another of the same direction ("reduced" /
        "lowered"), or an abbreviation made of the initials of the words it stands against
        ("BP" / "blood pressure")."""
        ours = [self.c.surface(i) for i in ci if self.c.content[i]]
        theirs = [self.w.surface(j) for j in wj if self.w.content[j]]
        changes = _ANSWER_CHANGES if self.answer_words else _PLAIN_CHANGE
        if len(ours) == 1 and len(theirs) == 1:
            a, b = changes.get(ours[0].lower()), changes.get(theirs[0].lower())
            if a is not None and a == b:
                return "allowed: same direction"
        if self.answer_words:
            said = " ".join(self.c.tokens[i].text for i in ci)
            written = " ".join(self.w.tokens[j].text for j in wj)
            if said != written and {said, written} <= _VERSUS:
                return "allowed: same comparison"

        if _initials_of(ours, theirs) or _initials_of(theirs, ours):
            return "allowed: abbreviation (initials)"
        return None

    def _bounds_traded(self, ci: list[int], wj: list[int]) -> str | None:
        """A bound in words put for another before the same figure: the same side ("under 5%"
        / "below 5%") is allowed, the other side ("over 5%" / "under 5%") is not (v16)."""
        c_after, w_after = ci[-1] + 1, wj[-1] + 1
        ours, theirs = _bound_before(self.c, c_after), _bound_before(self.w, w_after)
        if ours != ci or theirs != wj or (c_after, w_after) not in set(self._pairs()):
            return None
        if _bound_side(self.c, c_after) == _bound_side(self.w, w_after):
            return "allowed: same bound"
        return "unsupported: different bound"

    def _opposite_or_stronger(self, ci: list[int], wj: list[int]) -> str | None:
        """An opposite term ("older" / "younger"), (v12) a substitution that drops what
        qualified the finding ("is" for "may be"), or (v16) a figure's bound put for another
        (:meth:`_bounds_traded`)."""
        if self.bounds and (bound := self._bounds_traded(ci, wj)) is not None:
            return bound
        if _opposite([self.c.tokens[i].text for i in ci], [self.w.tokens[j].text for j in wj]):
            return "unsupported: opposite term"
        if self.overstatement and (why := self._overstated(wj, ci)) is not None:
            return f"unsupported: {why}"
        return None

    def _written_otherwise(
        self, ci: list[int], wj: list[int], c_keys: list[str], w_keys: list[str]
    ) -> str | None:
        """The same thing written another way: an abbreviation the span defines, or (v11) one
        unit ("mm Hg" / "mmHg", "wk" / "weeks")."""
        if self._abbreviation(c_keys, w_keys):
            return "allowed: abbreviation defined in the evidence"
        unit = _unit_name(self.c, ci) if self.units else None
        if unit is not None and unit == _unit_name(self.w, wj):
            return "allowed: same unit"
        return None

    def _abbreviation(self, c_keys: list[str], w_keys: list[str]) -> bool:
        for short, long in self.ev.abbreviations:
            if c_keys == [short] and tuple(w_keys[-len(long) :]) == long:
                return True
            if w_keys == [short] and tuple(c_keys[-len(long) :]) == long:
                return True
        return False

    @staticmethod
    def _phrase(text: Text, indices: list[int]) -> str:
        first = max(0, min(indices) - CONTEXT_WORDS)
        last = min(len(text.tokens) - 1, max(indices) + CONTEXT_WORDS)
        start, end = text.span(first, last)
        return text.text[start:end]


def window_share(claim: Text | str, evidence: EvidenceText | str, changed_runs: int = 1) -> float:
    """A diagnostic, not a rule of the check: the share of the content words of the window the
    claim aligns to best (one to three adjacent sentences, as :func:`align_edits` picks it)
    that the claim copies in order. A verbatim sentence gives 1.0; a claim that reuses a few
    words of a long sentence, little. 0.0 when the claim has no content word or the evidence no
    sentence (``scripts/probe_copy_share.py``; docs/edit-check.md)."""
    found = _diagnostic_window(claim, evidence, changed_runs)
    if found is None:
        return 0.0
    _, ev, (lo, hi, blocks) = found
    aligned = {b + n for _, b, size in blocks for n in range(size)}
    content = [j for j in range(lo, hi) if ev.body.content[j]]
    if not content:
        return 0.0
    return sum(1 for j in content if j in aligned) / len(content)


def claim_run_share(
    claim: Text | str, evidence: EvidenceText | str, changed_runs: int = 1
) -> float:
    """A diagnostic: :func:`run_share` of ``claim`` against the window of ``evidence`` it aligns
    to best (as :func:`align_edits` picks it); 0.0 when the claim has no content word or the
    evidence no sentence (``scripts/probe_run_share.py``; docs/edit-check.md)."""
    found = _diagnostic_window(claim, evidence, changed_runs)
    return 0.0 if found is None else run_share(found[0], found[2][2])


def _diagnostic_window(
    claim: Text | str, evidence: EvidenceText | str, changed_runs: int
) -> tuple[Text, EvidenceText, tuple[int, int, list[Block]]] | None:
    """The diagnostics' shared start: both texts prepared and the window the claim aligns to
    best; None when the claim has no content word or the evidence no sentence."""
    c = claim if isinstance(claim, Text) else prepare_text(claim)
    ev = evidence if isinstance(evidence, EvidenceText) else prepare_evidence("", evidence)
    if not any(c.content) or not ev.sentences:
        return None
    return c, ev, _best_window(c, ev, None, changed_runs)


def may_copy(
    claim: Text,
    span_stems: Mapping[str, int],
    changed_runs: int = 1,
    spellings: bool = False,
    long_run: int = 0,
) -> bool:
    """A cheap bound: could ``claim`` nearly copy a span with these word stems (counts)?

    False means :func:`align_edits` would find no near copy, so the span need not be prepared.
    ``spellings``: the stems are of American spellings (v17), as the span's are.
    """
    spelt = american if spellings else str
    content = [stem(spelt(t.text)) for t, f in zip(claim.tokens, claim.content, strict=True) if f]
    present = sum(1 for s in content if s in span_stems)
    return _may_copy(present, len(content), changed_runs, long_run)


def phrase_texts(alignments: Iterable[Alignment]) -> list[str]:
    """Every phrase the alignments ask about, once each, in the order first asked."""
    seen: dict[str, None] = {}
    for alignment in alignments:
        for q in alignment.questions:
            seen.setdefault(q.claim_phrase)
            seen.setdefault(q.evidence_phrase)
    return list(seen)


def judge_with_vectors(
    alignment: Alignment,
    vectors: Mapping[str, npt.NDArray[np.float32]],
    threshold: float,
) -> EditCheck:
    """:func:`judge_edits` with each question's cosine taken from the phrases' unit vectors."""
    sims = [
        float(
            vectors[q.claim_phrase].astype(np.float64)
            @ vectors[q.evidence_phrase].astype(np.float64)
        )
        for q in alignment.questions
    ]
    return judge_edits(alignment, sims, threshold)


def longest_copy(claim: Text, window: Text) -> tuple[int, int]:
    """The claim's longest run of content words copied, in order, from one sentence of
    ``window``: its length, and the position in the claim's content words just after it."""
    keys = [k for k, f in zip(claim.keys, claim.content, strict=True) if f]
    copied, after = 0, 0
    for sentence in split_sentences(window.text):
        inside = [
            window.keys[j]
            for j, t in enumerate(window.tokens)
            if window.content[j] and sentence.start <= t.start < sentence.end
        ]
        match = SequenceMatcher(None, keys, inside, autojunk=False).find_longest_match(
            0, len(keys), 0, len(inside)
        )
        if match.size > copied:
            copied, after = match.size, match.a + match.size
    return copied, after


def grafted_phrase(
    claim: Text,
    window: Text,
    stated: Callable[[], Collection[str]],
    copied_min: int,
    novel_min: int,
) -> tuple[int, int] | None:
    """The claim's run of at least ``novel_min`` content words that the evidence never states
    (no key of theirs in ``stated()``, the keys of every evidence item, asked for only when the
    claim copies enough to need them), after a run of at least
    ``copied_min`` content words it copies, in order, from one sentence of ``window``: a copied
    sentence with a phrase of its own grafted on ("…, and the cytoplasm during oogenesis"),
    which closeness would otherwise support (score model v61). Its character range in the
    claim, or None.

    A claim that copies nothing that long is a rewording, whose new words are the rest of the
    reading's to judge; new words before the copy are a frame ("A study from the United Kingdom
    reported …"); a run shorter than ``novel_min`` is the edit check's.
    """
    content = [i for i, f in enumerate(claim.content) if f]
    copied, after = longest_copy(claim, window)
    if copied < copied_min:
        return None
    known = stated()
    best: list[int] = []
    run: list[int] = []
    for i in content[after:]:  # after the copy; function words between new words are in it
        run = [] if claim.keys[i] in known else [*run, i]
        if len(run) > len(best):
            best = run
    return claim.span(best[0], best[-1]) if len(best) >= novel_min else None
