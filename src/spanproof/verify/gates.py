"""Score model v2 gates (SPEC §4.5): entity and polarity, each a hard cap like the numeric gate.

**Entity gate** — the span names a *different* entity where the claim names one. An entity is a
token whose surface form is an identifier (letters and digits: ``BRCA1``, ``H1N1``), an acronym
(two or more letters, all capitals: ``TNF``), mixed case (a capital after the first letter:
``mRNA``), a Greek letter, or a name (capitalised away from its sentence's first word; a first word
only with a drug-name ending such as ``-mab`` or ``-statin``). The gate trips when a claim entity
is absent from the span *and* the span has an entity of the same shape that the claim lacks — a
substitution. A claim entity is present when the span has the same lowercase token or, for three
characters or more, the same letters and digits as a run of whole span tokens (``IL6`` finds
``IL-6``; ``CD4`` does not find ``CD45``). An entity the span merely omits (an abbreviation the
claim adds, a qualifier) does not trip the gate: the lexical and semantic scores already weigh it.
Under score model v20 a plural abbreviation or a possessive name is the entity it is a form of
(:func:`base_form`: "HSPCs" is "HSPC", "Hodgkin's" is "Hodgkin"). Under score model v55 capitals
that are a sentence's style name nothing (an English word written in capitals, "the short answer
is YES", a heading's "AND"; a long word of a sentence written in capitals: :func:`entities`), and
a claim's name that the span writes joined to its figures is present ("COVID-19" against
"COVID19": :func:`written_joined`), and so is an abbreviation the claim defines in place whose
words the span writes out ("break-induced DNA replication (BIR)" against "break-induced
replication": :func:`alias_spelled`).

**Polarity gate** — the claim and the span sentence that covers it best disagree on negation
(the parity of their negation cues differs, so "not unchanged" reads as a double negation; "but
not", an exception, and nominal cues such as "absence of", which paraphrase freely as
"deficiency" or "loss", are not counted) or on
direction (a direction word only the claim has — up, down, better, worse — faces one of the
opposite class that only the sentence has: "higher" against "lower", "improved" against
"worsened"). Words the two share are ignored, so "X decreased Y" and "a decrease in Y" agree.
Under score model v20 a direction word's forms are one word ("inhibiting" and "inhibition":
:func:`direction_word`) and a noun of what acts ("inhibitor": :func:`is_agent_noun`) is none.
Under score model v22 the lists are longer (:data:`_MORE_STEMS`, :data:`MORE_NEGATION_WORDS`):
"impedes", "hinders", "deactivates", "scarce" go down, "encourages", "facilitates", "expanded"
up, and "ineffective", "incapable", "inability" deny. Words that name a cause or a method more
often than a change ("induced", "triggering", "inactivated", "silencing") are left out. The
edit check still reads a near copy's negations and directions with the earlier lists.

**Finding gate** (score model v7) — the span window states no finding: an aim or a design
("OBJECTIVE To evaluate …", "We aimed to assess …", "The aim of this study was …", "We
investigated whether …"), a methods-section heading ("DESIGN …", "MAIN OUTCOME MEASURES …"), or
an open question ("Whether …"). Such a sentence says what was studied, not what was found, so it
cannot support a finding however many words it shares with the claim, and the polarity gate
reads a claim against the span's sentences that state a finding; a claim that is itself such a
statement is read as under v2.

Known limits: the cues are closed word lists with no parser, so negation scope is not modelled
("increased A but not B" carries a negation), and entity shapes miss lowercase entity names. The
finding gate reads cue phrases only: a methods sentence without one ("Rates were determined at
the end of each period.") passes, and a finding that opens with a listed heading is gated.
Under score model v49 the gate also reads a sentence that states a procedure by its verb ("We
placed temperature loggers in 48 city blocks", "Blood samples were collected at 9 pm") and
holds no word of a finding ("found", "higher", "than", "p <" …) as stating none
(:func:`states_a_procedure`).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from functools import lru_cache

from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import lower_chars, segments

_METHOD_HEADING = (
    r"(?:objectives?|purposes?|aims?|study aims?|design|study design|methods?|settings?|"
    r"participants|patients|interventions?|main outcomes? (?:and )?measures?|outcome measures?|"
    r"main outcome measurements?|measurements?|data sources?|study selection|data extraction|"
    r"review methods|eligibility criteria|materials and methods)"
)
_AIM_VERB = (
    r"(?:evaluate|assess|determine|investigate|examine|compare|test|explore|identify|describe|"
    r"characteri[sz]e|measure|quantify|review|estimate|analy[sz]e|establish|clarify|elucidate|"
    r"study|summari[sz]e|report|develop|validate|ascertain|understand|address|define)"
)
#: An aim, design or method statement, a methods heading, or an open question (the finding gate).
_NO_FINDING = re.compile(
    rf"^\s*(?:{_METHOD_HEADING}\s*[:.]?\s+(?-i:(?=[A-Z(]))"
    rf"|(?:{_METHOD_HEADING}\s*[:.]?\s+)?to\s+{_AIM_VERB}\b"
    r"|(?:however,\s+)?whether\b)"
    r"|\b(?:we|this study|the present study|this trial|this review|the study)\s+(?:aimed|aims|"
    r"sought|seeks|set out|was designed|were designed|is designed|was undertaken|was conducted)"
    r"\s+to\b"
    r"|\bthe\s+(?:primary\s+|main\s+|overall\s+)?(?:aims?|objectives?|purpose|goal)\s+of\s+"
    r"(?:this|the|our|the present)\s+(?:study|trial|review|work|analysis|research|paper|"
    r"investigation)\b"
    r"|\bthe\s+(?:study|trial)\s+(?:aim|objective|purpose|goal)\s+(?:was|is)\b"
    r"|\bwe\s+(?:investigated|examined|evaluated|assessed|tested|asked|explored|studied|"
    r"determined)\s+(?:whether|if|how)\b",
    re.IGNORECASE,
)


#: Score model v49: verbs of a procedure, what was done to gather or read the data, after "we"
#: ("We placed temperature loggers in 48 city blocks", "We used a full-length cDNA clone").
#: Left out: verbs that as often open a finding ("describe", "developed", "established",
#: "characterized", "identified", "determined").
_PROCEDURE_ACTIVE = (
    r"(?:used|use|investigated|investigate|examined|examine|present|discuss|review|reviewed|"
    r"performed|perform|compared|compare|analy[sz]ed|analy[sz]e|studied|study|assessed|assess|"
    r"tested|test|hypothesi[sz]ed|hypothesi[sz]e|evaluated|evaluate|estimated|conducted|conduct|"
    r"generated|applied|explored|explore|measured|measure|did|undertook|summari[sz]e|highlight|"
    r"introduce|consider|placed|recruited|enrolled|collected|randomi[sz]ed|randomly\s+assigned|"
    r"assigned|administered|sampled|surveyed|interviewed|recorded|screened|genotyped|sequenced|"
    r"obtained|treated|injected|fed|exposed|cultured|isolated|searched|included|selected|"
    r"calculated|modell?ed|simulated|quantified|monitored|carried\s+out)"
)
#: The same in the passive, after the sentence's subject ("Blood samples were collected at
#: 9 pm", "CIMT was measured using ultrasound"). Left out: "followed" ("was followed by"),
#: "determined" ("was determined by"), "identified".
_PROCEDURE_PASSIVE = (
    r"(?:measured|assessed|evaluated|examined|recruited|enrolled|collected|randomi[sz]ed|"
    r"randomly\s+assigned|assigned|allocated|administered|sampled|surveyed|interviewed|recorded|"
    r"screened|genotyped|sequenced|obtained|performed|conducted|carried\s+out|used|included|"
    r"selected|analy[sz]ed|calculated|estimated|tested|quantified|treated|injected|fed|exposed|"
    r"cultured|isolated|searched|reviewed|compared|studied|investigated|applied|extracted|"
    r"matched|stratified|adjusted|defined|categori[sz]ed|classified|monitored|placed)"
)
_ADVERB = (
    r"(?:(?:also|then|first|further|additionally|prospectively|retrospectively|randomly|"
    r"systematically|now|here|subsequently|separately|independently)\s+)?"
)
_OPENER = (
    r"^\s*(?:(?:here|then|next|first|second|third|finally|in addition|additionally|"
    r"in this (?:study|trial|work|report|paper|review)|to this end|"
    r"to (?:do|test|address) (?:so|this|these|it)),?\s+)?"
)


def _procedure(denied: bool) -> re.Pattern[str]:
    """A sentence that opens with "we" and a verb of doing, or a subject and a passive one
    (:data:`_PROCEDURE_ACTIVE`, :data:`_PROCEDURE_PASSIVE`); ``denied`` (score model v79, for a
    claim): also with the verb denied ("We did not measure …", "Patients were not randomized
    …")."""
    did = r"(?:did\s+not\s+|didn[’']t\s+)?" if denied else ""
    be = r"(?:(?:was|were)(?:\s+not)?|(?:wasn|weren)[’']t)" if denied else r"(?:was|were)"
    return re.compile(
        rf"{_OPENER}we\s+{did}{_ADVERB}{_PROCEDURE_ACTIVE}\b"
        rf"|^\s*[A-Za-z(][^,;:.]{{0,80}}?\s+{be}\s+{_ADVERB}{_PROCEDURE_PASSIVE}\b",
        re.IGNORECASE,
    )


_PROCEDURE = _procedure(denied=False)
_DENIED_PROCEDURE = _procedure(denied=True)
#: Words that state what was found (a finding's verb, a comparison, a change, a negation); a
#: procedure sentence holding one states a finding too ("We measured X and found Y", "Patients
#: were treated with aspirin, and fever fell").
_FINDING_WORDS = (
    r"found|find|finds|show|shows|showed|shown|demonstrat\w*|observ\w*|reveal\w*|"
    r"identif\w*|detect\w*|indicat\w*|suggest\w*|confirm\w*|conclud\w*|associat\w*|"
    r"correlat\w*|significan\w*|than|resulted|led to|increas\w*|decreas\w*|reduc\w*|"
    r"improv\w*|higher|lower|greater|fewer|fell|fall|falls|rose|rise|rises|dropped|declined|"
    r"lowered|raised|changed|unchanged|differ\w*"
)
_FINDING_CUE = re.compile(
    rf"\b(?:{_FINDING_WORDS}|not|no|none|neither|never)\b|\bp\s*[<=>≤≥]", re.IGNORECASE
)
#: The same without its negations (score model v79, for a claim): "Patients were not
#: randomized" denies a procedure and states no finding.
_AFFIRMED_FINDING_CUE = re.compile(rf"\b(?:{_FINDING_WORDS})\b|\bp\s*[<=>≤≥]", re.IGNORECASE)


def states_a_procedure(sentence: str, denied: bool = False) -> bool:
    """Whether ``sentence`` states only what was done — "We placed temperature loggers in 48
    city blocks", "Blood samples were collected at 9 pm" — and no finding (score model v49);
    with ``denied`` (v79, for a claim), also what was not done: a negation is no word of a
    finding there ("Patients were not randomized")."""
    if denied:
        found, cue = _DENIED_PROCEDURE.search(sentence), _AFFIRMED_FINDING_CUE
    else:
        found, cue = _PROCEDURE.search(sentence), _FINDING_CUE
    return found is not None and cue.search(sentence) is None


def states_no_finding(
    text: str, procedures: bool = False, aims: bool = True, denied: bool = False
) -> bool:
    """Whether ``text`` (a sentence window) states an aim, a design, a method heading or an open
    question rather than a finding (the finding gate; see the module docstring); with
    ``procedures`` (score model v49), also when each of its sentences states only a procedure
    (:func:`states_a_procedure`, ``denied`` passed on); without ``aims``, only then."""
    if aims and _NO_FINDING.search(text) is not None:
        return True
    if not procedures or not text.strip():
        return False
    return all(states_a_procedure(s.text, denied) for s in split_sentences(text) or ())


NEGATION_WORDS = frozenset(
    {
        "not", "no", "never", "none", "neither", "without", "cannot", "nothing", "fail",
        "fails", "failed", "failing", "failure", "lacks", "lacked", "unable",
        "nonsignificant", "insignificant", "unaffected", "unchanged", "unrelated",
    }
)  # fmt: skip
NEGATION_SUFFIXES = ("n't", "n’t")

UP, DOWN, BETTER, WORSE = "up", "down", "better", "worse"
OPPOSITE = {UP: DOWN, DOWN: UP, BETTER: WORSE, WORSE: BETTER}

_EXACT: dict[str, str] = {
    **dict.fromkeys(
        ("more", "higher", "greater", "larger", "longer", "stronger", "faster", "gain", "gains",
         "gained", "rise", "rises", "rose", "risen", "rising"), UP),
    **dict.fromkeys(
        ("less", "lower", "fewer", "smaller", "shorter", "weaker", "slower", "loss", "lost",
         "fell", "fall", "falls", "drop", "drops", "dropped"), DOWN),
    **dict.fromkeys(("better", "benefit", "benefits", "beneficial"), BETTER),
    **dict.fromkeys(("worse", "worst", "harm", "harms", "harmful"), WORSE),
}  # fmt: skip
_STEMS: tuple[tuple[str, str], ...] = (
    *((s, UP) for s in ("increas", "elevat", "enhanc", "augment", "upregulat", "boost",
                        "accelerat", "exceed", "promot", "stimulat", "activat", "amplif",
                        "potentiat", "raise", "raising")),
    *((s, DOWN) for s in ("decreas", "reduc", "declin", "downregulat", "diminish", "attenuat",
                          "suppress", "inhibit", "impair", "deplet", "abolish", "lessen",
                          "lowere", "lowering", "slowe", "slowing", "block", "prevent",
                          "shorten", "weaken")),
    *((s, BETTER) for s in ("improv", "alleviat", "ameliorat", "protect", "relie")),
    *((s, WORSE) for s in ("worsen", "deteriorat", "aggravat", "exacerbat", "detriment")),
)  # fmt: skip
#: Score model v22: more direction words, each stating a change in one word (a verb, its noun or
#: its adjective). Read before ``_STEMS`` ("deactivates" is down, though "activat" is up; a stem
#: matches from a word's first letter). Left out: words naming a cause, a method or a role more
#: often than a change ("induced", "triggering", "inactivated", "silencing", "antagonist").
_MORE_STEMS: tuple[tuple[str, str], ...] = (
    *((s, UP) for s in ("expan", "encourag", "facilitat", "foster", "strengthen",
                        "heighten", "intensif", "prolong")),
    *((s, DOWN) for s in ("imped", "hinder", "hamper", "curb", "deactivat",
                          "dampen", "mitigat", "counteract", "abrogat", "repress", "restrain",
                          "retard", "shrink", "shrank", "scarc")),
)  # fmt: skip
#: Score model v22: words that deny what they qualify, read with :data:`NEGATION_WORDS`
#: ("ineffective" is "not effective", "incapable of" is "cannot").
MORE_NEGATION_WORDS = frozenset(
    {"incapable", "ineffective", "ineffectual", "inability", "unsuccessful"}
)


#: Score model v63: words of change that business and news text writes ("shares climbed", "sales
#: slipped"), read with the lists above. Past and -ing forms only: "spike", "dip" and "jump"
#: name things as often as changes.
MARKET_DIRECTIONS: dict[str, str] = {
    **dict.fromkeys(
        ("climbed", "climbing", "jumped", "surged", "surging", "soared", "soaring", "rallied",
         "spiked", "doubled", "tripled"), UP),
    **dict.fromkeys(
        ("slipped", "slipping", "tumbled", "tumbling", "plunged", "plunging", "slumped",
         "slumping", "dipped", "sank", "halved"), DOWN),
}  # fmt: skip
#: Score model v63: "up" or "down" right before a figure ("up 12%", "down by 3 points") states a
#: change; :func:`figure_changes` reads it as one of these tokens.
FIGURE_CHANGES = {"up": "up\u00b7figure", "down": "down\u00b7figure"}
MARKET_DIRECTIONS.update({FIGURE_CHANGES["up"]: UP, FIGURE_CHANGES["down"]: DOWN})
#: Score model v68 (``market`` 2): plain words of change that the lists above lack and general
#: text writes ("numbers grew by 18%", "cutting the allocation", "lighter tannins"): past and
#: -ing forms and comparatives only ("cut" is also "cut-off", "growing" also "growing evidence").
PLAIN_DIRECTIONS: dict[str, str] = {
    **dict.fromkeys(
        ("grew", "widened", "widening", "lengthened", "hiked", "heavier", "bigger"), UP),
    **dict.fromkeys(
        ("falling", "fallen", "cuts", "cutting", "slashed", "trimmed", "eased", "easing",
         "narrowed", "narrowing", "lighter", "cheaper"), DOWN),
}  # fmt: skip
#: Words before "up" that make a noun of it ("follow-up 12 months", "a work-up") or a verb of
#: share, not of change ("women make up 12% of …", "takes up 3% of …").
_UP_NOUNS = frozenset(
    {"follow", "work", "check", "clean", "set", "start", "break", "lock", "shut", "round",
     "warm", "cool", "back", "mark", "build", "pick", "wind", "touch", "write", "make", "makes",
     "made", "making", "take", "takes", "took", "taking"}
)  # fmt: skip


def figure_changes(tokens: Sequence[str]) -> list[str]:
    """``tokens`` (lowercase) with each "up" or "down" that stands right before a figure, or
    before "by" and a figure, read as a change (:data:`FIGURE_CHANGES`; score model v63):
    "revenue of $4.2 billion, up 12%" rose. "up to 50%" is a bound and "follow-up 12 months" a
    noun, so neither is read."""
    out = list(tokens)
    for i, t in enumerate(tokens):
        if t not in FIGURE_CHANGES or (i > 0 and tokens[i - 1] in _UP_NOUNS):
            continue
        k = i + 2 if i + 1 < len(tokens) and tokens[i + 1] == "by" else i + 1
        if k < len(tokens) and tokens[k][:1].isdigit():
            out[i] = FIGURE_CHANGES[t]
    return out


def direction_class(token: str, more: bool = False, market: int = 0) -> str | None:
    """The direction class of a lowercase token as the polarity gate reads it: :func:`direction_of`,
    under ``market`` (score model v63) :data:`MARKET_DIRECTIONS` too, and under ``market`` 2
    (v68) :data:`PLAIN_DIRECTIONS` as well."""
    found = direction_of(token, more) or (MARKET_DIRECTIONS.get(token) if market else None)
    return found or (PLAIN_DIRECTIONS.get(token) if market >= 2 else None)


@lru_cache(maxsize=1 << 16)
def _listed_stem(token: str, more: bool = False) -> tuple[str, str] | None:
    """The first listed direction stem ``token`` begins with, and its class; None if none.
    ``more`` (score model v22) reads :data:`_MORE_STEMS` first."""
    for stem, cls in (*_MORE_STEMS, *_STEMS) if more else _STEMS:
        if token.startswith(stem):
            return stem, cls
    return None


@lru_cache(maxsize=1 << 16)
def direction_of(token: str, more: bool = False) -> str | None:
    """The direction class of a lowercase token, or None (``more``: v22's longer list)."""
    exact = _EXACT.get(token)
    if exact is not None:
        return exact
    listed = _listed_stem(token, more)
    return listed[1] if listed else None


_AGENT_ENDINGS = frozenset(("or", "ors", "er", "ers"))


def is_agent_noun(token: str, more: bool = False) -> bool:
    """A direction stem made a noun of what acts ("inhibitor", "activators", "promoter",
    "blocker"): it names an agent, it states no direction."""
    listed = _listed_stem(token, more)
    return listed is not None and token[len(listed[0]) :] in _AGENT_ENDINGS


def direction_word(token: str, more: bool = False) -> str:
    """The word a direction token is a form of: its listed stem ("inhibiting", "inhibition" and
    "inhibits" are all "inhibit"), the token itself for a listed word or any other token."""
    if token in _EXACT:
        return token
    listed = _listed_stem(token, more)
    return listed[0] if listed else token


def is_negation(token: str, more: bool = False) -> bool:
    return (
        token in NEGATION_WORDS
        or token.endswith(NEGATION_SUFFIXES)
        or (more and token in MORE_NEGATION_WORDS)
    )


#: Score model v27: words after which "no" or "never" opens a comparison group, not a denial
#: ("… compared with no treatment", "… than never smokers", "paracetamol or no antipyretic").
_COMPARATORS = frozenset(("than", "versus", "vs"))
_COMPARISON_OPENERS = frozenset(("compared", "comparison"))
#: "no more than 5 %", "no later than day 3": a bound, not a denial.
_BOUND_WORDS = frozenset(
    {"more", "less", "later", "earlier", "fewer", "greater", "longer", "higher", "lower",
     "larger", "smaller"}
)  # fmt: skip
#: The people a "never" names ("never smokers", "never-drinkers", "never users").
_NEVER_GROUPS = ("smoker", "smokers", "drinker", "drinkers", "user", "users")
#: Score model v27: adjectives that deny what they qualify, read with :data:`NEGATION_WORDS`
#: ("inaccurate" is "not accurate": "ABPM is inaccurate" against "ABPM is more accurate").
#: Left out: "impossible" (most often "it is impossible to determine", a limit of the study),
#: "independent" ("an independent risk factor" affirms), "inactive" (a state, not a denial).
SCOPED_NEGATION_WORDS = frozenset(
    {"inaccurate", "unreliable", "inadequate", "insufficient", "unsafe", "unlikely",
     "unnecessary", "unimportant", "irrelevant", "inefficient"}
)  # fmt: skip
#: Score model v27: words that deny only when they are predicated ("evidence was lacking"),
#: not when they describe what they follow ("mice lacking p53").
PREDICATIVE_NEGATION_WORDS = frozenset(("lacking",))
_COPULAS = frozenset(
    ("is", "are", "was", "were", "be", "been", "being", "remain", "remains", "remained")
)


def names_no_denial(tokens: Sequence[str], i: int) -> bool:
    """Whether the negation word at ``tokens[i]`` names a condition, a group or a bound rather
    than denying the statement (score model v27): "heart failure" (a condition; "failure to
    respond" still denies), "with or without steroids", "whether or not", "not only … but",
    "no more than 5 %", "compared with no treatment", "than never smokers", "paracetamol or no
    antipyretic" ("little or no effect" still denies)."""
    t = tokens[i]
    prev = tokens[i - 1] if i > 0 else ""
    prev2 = tokens[i - 2] if i > 1 else ""
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    after = tokens[i + 2] if i + 2 < len(tokens) else ""
    if t in ("failure", "failures"):
        return nxt != "to"
    if t == "without":
        return prev in ("or", "and")
    if t == "not":
        return prev == "or" or nxt == "only"
    if t not in ("no", "never"):
        return False
    if t == "no" and nxt in _BOUND_WORDS and after == "than":
        return True
    if t == "never" and (nxt in _NEVER_GROUPS or nxt.startswith("smok")):
        return True
    return (
        prev in _COMPARATORS
        or (prev == "or" and prev2 not in ("little", "few"))
        or (prev in ("with", "to") and prev2 in _COMPARISON_OPENERS)
    )


#: Score model v52: words that deny a use as "should not be used" does when predicated
#: ("Metformin is contraindicated when eGFR is below 30" / "Metformin should not be used …
#: below 30"), not when they describe ("categorized as contraindicated medications").
CONTRAINDICATIONS = frozenset({"contraindicated"})


#: Score model v76: the pronouns that open a restrictive relative clause ("cells that do not
#: express it", "women who are not pregnant"); "which" is left out, as its clause often comments
#: on the finding ("…, which was not significant").
_RELATIVE_PRONOUNS = frozenset(("who", "that"))
_AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "be", "been", "do", "does", "did", "has", "have", "had", "can",
     "could", "will", "would", "may", "might", "should", "must"}
)  # fmt: skip
#: Words after which "that" is a pronoun of its own ("and that was not …", "because that did
#: not …"), not one that opens a clause on the noun before it.
_THAT_PRONOUN_AFTER = frozenset(
    {"and", "but", "or", "so", "because", "since", "as", "if", "while", "although", "though",
     "whereas", "whether", "yet", "than", "of", "on", "in", "for", "to", "with", "by", "from",
     "about", "like", "all"}
)  # fmt: skip
_RELATIVE_ADVERBS = frozenset(("yet", "still", "also", "ever", "even", "always"))
#: Words that open a clause after a negation whose verb is left out ("those that do not,
#: either because …", "than those who did not and …"): no words name the group.
_ELLIPSIS_AFTER = frozenset(
    {"either", "because", "and", "or", "but", "as", "while", "whereas", "which", "so", "since",
     "if", "than", "then", "although", "though", "when"}
)  # fmt: skip
_PREDICATE_REACH = 4  # words before the pronoun in which a copula makes its noun a predicate
_DENIED_REACH = 3  # words after a group's negation read as what it denies
_NOT_DENIED = _AUXILIARIES | frozenset(
    {"a", "an", "the", "be", "been", "being", "is", "are", "was", "were", "of", "to", "in", "on",
     "with", "and", "or", "for", "by", "at", "any", "yet", "still", "also", "ever", "even"}
)  # fmt: skip


def _denied_words(tokens: Sequence[str], i: int) -> list[str]:
    """The words a group's negation at ``tokens[i]`` denies: the next few but function words,
    auxiliaries and adverbs ("not sufficiently treated": "treated"); the other side is read for
    their stems (:func:`parity_against`)."""
    after = tokens[i + 1 : i + 1 + _DENIED_REACH]
    return [w for w in after if w not in _NOT_DENIED and not w.endswith("ly")]


def names_a_group(tokens: Sequence[str], i: int) -> bool:
    """Whether the negation at ``tokens[i]`` stands in a restrictive relative clause, which names
    what the sentence is about rather than denying what it states (score model v76): "vitamin D
    deficiency that is not sufficiently treated is associated with …", "infants who do not
    develop ASD", "cells that didn't express it". Not when the noun the clause qualifies is
    itself predicated ("X is a compound that does not inhibit Y" denies), nor after "which",
    nor when the clause leaves its verb out ("those that do not, either because …")."""
    t = tokens[i]
    if i + 1 == len(tokens) or tokens[i + 1] in _ELLIPSIS_AFTER:
        return False  # "… from those that do not, either because …": the verb left out
    k = i - 1
    if not t.endswith(NEGATION_SUFFIXES):
        if t not in ("not", "never"):
            return False
        if k >= 0 and (tokens[k] in _RELATIVE_ADVERBS or tokens[k].endswith("ly")):
            k -= 1
        if k < 1 or tokens[k] not in _AUXILIARIES:
            return False
        k -= 1
    if k < 1 or tokens[k] not in _RELATIVE_PRONOUNS:
        return False
    if tokens[k] == "that" and tokens[k - 1] in _THAT_PRONOUN_AFTER:
        return False
    return not any(w in _COPULAS for w in tokens[max(0, k - _PREDICATE_REACH) : k])


def _denies(
    tokens: Sequence[str], i: int, more: bool, scoped: bool, denials: frozenset[str] = frozenset()
) -> bool:
    """Whether ``tokens[i]`` denies what the sentence states (see :func:`cues`)."""
    t = tokens[i]
    if t in denials:
        before = tokens[i - 2 : i]
        return bool(before) and (
            before[-1] in _COPULAS
            or (len(before) == 2 and before[0] in _COPULAS and before[1].endswith("ly"))
        )
    if t == "not" and i > 0 and tokens[i - 1] == "but":
        # "A but not B": the negation scopes over B alone, an exception, not the statement.
        return False
    if scoped and t in PREDICATIVE_NEGATION_WORDS:
        return i > 0 and tokens[i - 1] in _COPULAS
    if scoped and t in SCOPED_NEGATION_WORDS:
        return True
    if not is_negation(t, more):
        return False
    return not (scoped and names_no_denial(tokens, i))


@dataclass(frozen=True, slots=True)
class Cues:
    """Polarity cues of a token multiset: negation parity and direction words with counts."""

    negation_parity: int
    directions: tuple[tuple[str, str, int], ...]  # (token, class, count)
    counts: Mapping[str, int]
    #: Score model v76: for each negation in a restrictive relative clause, not counted in
    #: ``negation_parity``, the words it denies (:func:`names_a_group`, :func:`parity_against`).
    groups: tuple[frozenset[str], ...] = ()
    #: Score model v76: the stems of the words after each negation ("no symptoms": "sympt"),
    #: and of each word a privative prefix denies ("asymptomatic": "sympt").
    negated: frozenset[str] = frozenset()
    privatives: tuple[str, ...] = ()
    #: Score model v77: the negated clauses of a contrast, not counted in ``negation_parity``
    #: (:func:`clause_denials`).
    clauses: tuple[ClauseDenial, ...] = ()
    #: Score model v77: the text joins a contrast of its own ("but", "whereas" …): a contrasted
    #: clause's negation counts against it whatever it names.
    contrast: bool = False

    @property
    def polar(self) -> bool:
        """Whether the text states a direction or a negation (counted, or kept with a group or
        a clause) for the polarity gate to read."""
        return bool(self.directions or self.negation_parity or self.groups or self.clauses)


def cues(
    tokens: Sequence[str],
    forms: bool = False,
    more: bool = False,
    scoped: bool = False,
    denials: frozenset[str] = frozenset(),
    market: int = 0,
    paired: bool = False,
) -> Cues:
    """Polarity cues of ``tokens``. ``forms`` (score model v20): a direction word's forms are one
    word (:func:`direction_word`), so "inhibiting" in a claim and "inhibition" in its span are a
    shared word, not one only each side has. ``more`` (score model v22): the longer lists,
    :data:`_MORE_STEMS` and :data:`MORE_NEGATION_WORDS` ("impedes" against "promoting",
    "deactivates" against "activating", "incapable of" against "elicited"). ``scoped`` (score
    model v27): a negation word that names a condition, a group or a bound is not counted
    (:func:`names_no_denial`: "heart failure", "with or without", "compared with no
    treatment", "than never smokers"), "lacking" denies when predicated ("evidence was
    lacking"), and adjectives that deny what they qualify are negations
    (:data:`SCOPED_NEGATION_WORDS`: "inaccurate", "unreliable", "insufficient", "unlikely").
    ``denials`` (score model v52, :data:`CONTRAINDICATIONS`): more words that deny. ``market``
    (score model v63): the words of change of business and news text
    (:data:`MARKET_DIRECTIONS`) and "up" or "down" before a figure (:func:`figure_changes`);
    ``market`` 2 (v68): :data:`PLAIN_DIRECTIONS` too. ``paired`` (score model v76): negations are
    read against the other side (:func:`parity_against`): a negation in a restrictive relative
    clause names a group, not counted in ``negation_parity`` but kept with the words it denies
    (``groups``; :func:`names_a_group`); the stems each counted negation denies (``negated``) and
    those a privative prefix denies (``privatives``; :func:`privative_stem`) are kept too."""
    if market:
        tokens = figure_changes(tokens)
    counts = (
        Counter(direction_word(t, more) for t in tokens if not is_agent_noun(t, more))
        if forms
        else Counter(tokens)
    )
    denying = [i for i in range(len(tokens)) if _denies(tokens, i, more, scoped, denials)]
    grouped = [i for i in denying if paired and names_a_group(tokens, i)]
    directions = tuple(
        (t, cls, c) for t, c in counts.items() if (cls := direction_class(t, more, market))
    )
    parity = (len(denying) - len(grouped)) % 2
    if not paired:
        return Cues(parity, directions, counts)
    # "never smokers", "than never smoked" (v27: no denial) name a group too
    never = [
        i
        for i, t in enumerate(tokens)
        if t == "never" and scoped and i + 1 < len(tokens) and names_no_denial(tokens, i)
    ]
    groups = tuple(
        frozenset(direction_word(t, more) if forms else t for t in words)
        for words in [_denied_words(tokens, i) for i in grouped] + [[tokens[i + 1]] for i in never]
    )
    negated = _negated_stems(tokens, denying + never)
    privatives = _privatives(tokens, frozenset(denying))
    return Cues(parity, directions, counts, groups, negated, privatives)


#: Score model v76: prefixes that deny the word they open ("asymptomatic", "non-smokers",
#: "uncommon", "independent", "disagree"), longest first.
_PRIVATIVE_PREFIXES = ("non-", "non", "dis", "un", "in", "im", "ir", "il", "a")
_NEGATED_REACH = 4  # words after a negation whose stems it denies ("not have COVID-19 symptoms")


def _negated_stems(words: Sequence[str], negations: Sequence[int]) -> frozenset[str]:
    """The stems of the words a negation at each of ``negations`` denies: those of five letters
    or more among the next few ("not have COVID-19 symptoms": "covid", "sympt")."""
    return frozenset(
        w[:_STEM]
        for i in negations
        for w in words[i + 1 : i + 1 + _NEGATED_REACH]
        if len(w) >= _STEM
    )


def _next(tokens: Sequence[str], i: int) -> str:
    return tokens[i + 1] if i + 1 < len(tokens) else ""


def privative_stem(token: str) -> str | None:
    """The stem a privative prefix denies in ``token`` ("asymptomatic": "sympt"), or None. Any
    word that opens with such letters has one ("analysis": "nalys"); it counts only where the
    other side denies a word of that stem (:func:`parity_against`)."""
    for prefix in _PRIVATIVE_PREFIXES:
        if token.startswith(prefix) and len(token) - len(prefix) >= _STEM:
            return token[len(prefix) : len(prefix) + _STEM]
    return None


def _privatives(words: Sequence[str], skip: frozenset[int] = frozenset()) -> tuple[str, ...]:
    """The stems the privative words of ``words`` deny ("non" joined to the word after it),
    but at the indices in ``skip`` (words already read as denials)."""
    return tuple(
        stem
        for i, t in enumerate(words)
        if i not in skip
        and (stem := privative_stem(t) if t != "non" else privative_stem(t + _next(words, i)))
    )


def denied_alike(ours: Sequence[str], theirs: Sequence[str]) -> bool:
    """Whether two phrases (lowercase words) deny the same word, one with a negation and the
    other with a privative prefix ("not clear" / "unclear", "did not show symptoms" /
    "asymptomatic", "never smoked" / "non-smokers"; score model v76's edit check). "not" against
    the "non" of "non-infectious" alone is one too: the word after it is aligned as the same."""
    for negating, prefixed in ((ours, theirs), (theirs, ours)):
        if len(negating) == 1 and is_negation(negating[0]) and list(prefixed) == ["non"]:
            return True  # "not infectious" / "non-infectious": the word after is the same
        negated = _negated_stems(negating, [i for i, t in enumerate(negating) if is_negation(t)])
        if negated & set(_privatives(prefixed)) and not any(is_negation(t) for t in prefixed):
            return True
    return False


def parity_against(cues: Cues, other: Cues) -> int:
    """The negation parity of ``cues`` read against ``other`` (score model v76): a negation that
    names a group counts when ``other`` holds a word of the stem of one it denies ("women who
    are not pregnant" against "pregnant women" still denies; "vitamin D deficiency that is not
    sufficiently treated" against a claim that says nothing of treatment does not); and a word
    a privative prefix denies counts as a negation when ``other`` denies a word of its stem
    ("asymptomatic" against "did not exhibit symptoms", "non-smokers" against "never
    smoked", which names a group: v27's "never smokers" are one), unless ``other`` holds the
    privative word too ("not superior to non-surgical" against "nonsurgical": the negation is
    of something else). Under v77 a negated clause of a contrast (``clauses``) counts where
    ``other`` is about that clause (:meth:`ClauseDenial.named_by`) or joins a contrast of its
    own."""
    if cues.groups or cues.clauses:
        stems = {w[:_STEM] for w in other.counts} | set(other.privatives)
        named = sum(1 for words in cues.groups if any(w[:_STEM] in stems for w in words))
        named += sum(1 for c in cues.clauses if other.contrast or c.named_by(stems))
    else:
        named = 0
    denied = sum(
        1 for stem in cues.privatives if stem in other.negated and stem not in other.privatives
    )
    return (cues.negation_parity + named + denied) % 2


#: Score model v28: where a sentence's clauses may state different findings ("A raised the
#: risk, whereas B lowered it"; "…; …").
_CLAUSE_BREAK = re.compile(r",\s+(?:whereas|while|but)\s+|;\s+|,?\s+whereas\s+")


#: Score model v77: words of quantity a clause's own words leave out ("all-cause": "cause").
_QUANTIFIERS = frozenset(("all", "each", "every", "both", "some", "most", "few", "other"))


#: Score model v77: how many of a negated clause's own words a text names it by, whatever the
#: other clauses' ("Official demolition … began on 9 November 1989" names "official demolition
#: did not start until June 1990"); one may be a word the two share by chance.
_NAMED_BY = 2


@dataclass(frozen=True, slots=True)
class ClauseDenial:
    """A negated clause of a contrast (score model v77, :func:`clause_denials`).

    Attributes:
        denied: the content words after its negation that no other clause holds.
        own: the content words of the whole clause that no other clause holds.
        others: the same of each other clause of its sentence.
    """

    denied: frozenset[str]
    own: frozenset[str]
    others: tuple[frozenset[str], ...]

    def named_by(self, stems: Set[str]) -> bool:
        """Whether a text with these word stems (first letters) is about this clause: it holds
        a word the clause denies, two of the clause's own words (:data:`_NAMED_BY`), or one at
        least and as many as of any other clause's ("Kestrel retries tasks marked idempotent"
        names "tasks marked idempotent: false are never retried", not "max_retries … disables
        retries")."""

        def held(words: frozenset[str]) -> int:
            return len({w[:_STEM] for w in words} & stems)

        if held(self.denied):
            return True
        mine = held(self.own)
        return mine >= _NAMED_BY or (mine > 0 and all(mine >= held(o) for o in self.others))


def _content(t: str, more: bool) -> bool:
    """Whether ``t`` is a content word a contrasted clause is told by (v77)."""
    return (
        len(t) > 2
        and t not in _NOT_DENIED
        and t not in _OBJECT_SKIP
        and t not in _QUANTIFIERS
        and not is_negation(t, more)
    )


def clause_denials(
    text: str,
    more: bool = False,
    scoped: bool = False,
    denials: frozenset[str] = frozenset(),
    market: int = 0,
) -> tuple[ClauseDenial, ...]:
    """The negations of ``text`` kept to their clause (score model v77): for each sentence whose
    clauses (v28's marks: ", whereas", ", while", ", but", ";") differ in negation parity —
    "Empagliflozin lowered the rate of hospitalization for heart failure, but did not change
    all-cause mortality" — each negated clause with the content words it states after its
    first negation that no other clause of the sentence holds (by their first letters;
    function words and words of quantity left out: ``{"change", "cause", "mortality"}``), its
    own content words and the other clauses'. Such a negation denies that clause's finding, not
    the sentence's: :func:`confine_clause_negations` keeps it apart, and
    :func:`parity_against` counts it where the other side is about that clause
    (:meth:`ClauseDenial.named_by`). A sentence with a clause that opens with "not" after its
    mark ("…, but not in women": an ellipsis of the first clause's verb), or a negated clause
    whose words after the negation all stand in another clause ("A reduced mortality, but B did
    not reduce mortality": what is denied is the first clause's finding, of another subject),
    is left whole."""
    out: list[ClauseDenial] = []
    for sentence in split_sentences(text):
        parts = [p for p in _CLAUSE_BREAK.split(sentence.text) if p.strip()]
        if len(parts) < 2:
            continue
        words = [segment_words(p) for p in parts]
        if any(w and w[0] == "not" for w in words[1:]):
            continue  # "…, but not B": the first clause's verb left out
        read = [figure_changes(w) if market else w for w in words]
        negations = [  # as :func:`cues` counts them (v76: a group's negation is not)
            [
                i
                for i in range(len(w))
                if _denies(w, i, more, scoped, denials) and not names_a_group(w, i)
            ]
            for w in read
        ]
        if len({len(n) % 2 for n in negations}) < 2:
            continue
        owns = []
        for k, w in enumerate(read):
            elsewhere = {t[:_STEM] for j, other in enumerate(read) if j != k for t in other}
            owns.append(frozenset(t for t in w if _content(t, more) and t[:_STEM] not in elsewhere))
        confined: list[ClauseDenial] = []
        for k, (w, found) in enumerate(zip(read, negations, strict=True)):
            if len(found) % 2 == 0:
                continue
            denied = frozenset(t for t in w[found[0] + 1 :] if t in owns[k])
            if not denied:
                confined = []
                break
            others = tuple(o for j, o in enumerate(owns) if j != k)
            confined.append(ClauseDenial(denied, owns[k], others))
        out.extend(confined)
    return tuple(out)


#: Score model v77: words by which a text joins a contrast of its own.
CONTRAST_WORDS = frozenset(("but", "whereas", "while", "although", "though", "however", "yet"))


def confine_clause_negations(read: Cues, confined: Sequence[ClauseDenial]) -> Cues:
    """``read`` (the cues of a whole text) with each negated clause of :func:`clause_denials`
    taken out of its negation parity and kept apart (``clauses``), and whether the text joins a
    contrast of its own (``contrast``; score model v77): :func:`parity_against` counts such a
    negation where the other side is about its clause or joins a contrast itself ("Cats can be
    infected but are unlikely to get sick" against "…, but are unlikely to develop clinical
    disease": both deny their second part)."""
    return replace(
        read,
        negation_parity=(read.negation_parity - len(confined)) % 2,
        clauses=tuple(confined),
        contrast=any(t in CONTRAST_WORDS for t in read.counts),
    )


def opposed_clauses(sentence: str, more: bool = False, market: int = 0) -> list[str]:
    """The clauses of ``sentence`` when two of them state opposite directions, else the sentence
    alone (score model v28): "blood group A was associated with a higher risk …, whereas blood
    group O was associated with a lower risk …" is two findings, and the polarity gate reads
    the one that covers the claim; a sentence whose clauses agree, or state no direction, is
    read whole. Clauses are cut at ", whereas", ", while", ", but" and ";". ``market`` (score
    model v63): the clauses' directions as :func:`cues` reads them with ``market``."""
    parts = [p for p in _CLAUSE_BREAK.split(sentence) if p.strip()]
    if len(parts) < 2:
        return [sentence]
    classes = []
    for p in parts:
        words = segment_words(p)
        read = figure_changes(words) if market else words
        classes.append({c for w in read if (c := direction_class(w, more, market)) is not None})
    opposed = any(
        OPPOSITE[c] in later
        for k, first in enumerate(classes)
        for later in classes[k + 1 :]
        for c in first
    )
    return parts if opposed else [sentence]


def segment_words(text: str) -> list[str]:
    """The lowercase words of ``text`` as the polarity gate reads them (:func:`segments`)."""
    return [lower_chars(w[0]) for w in segments(text)]


def _only(a: Cues, b: Cues) -> set[str]:
    """Direction classes of words ``a`` has more of than ``b``."""
    return {cls for t, cls, c in a.directions if c > b.counts.get(t, 0)}


def states_polarity(claim: Cues, span: Cues) -> bool:
    """Whether ``span`` states the claim's polarity: a direction word of one of the claim's
    direction classes, or a negation where the claim is negated. True for a claim with no
    direction word and no negation (score model v23)."""
    classes = {cls for _t, cls, _c in claim.directions}
    claim_parity = parity_against(claim, span)
    if not classes and not claim_parity:
        return True
    if claim_parity and parity_against(span, claim):
        return True
    return any(cls in classes for _t, cls, _c in span.directions)


def polarity_gate_trips(claim: Cues, span: Cues) -> bool:
    """True when negation parity differs or the unshared direction words oppose."""
    if parity_against(claim, span) != parity_against(span, claim):
        return True
    if not claim.directions or not span.directions:
        return False
    claim_only = _only(claim, span)
    span_only = _only(span, claim)
    return any(OPPOSITE[cls] in span_only and cls not in span_only for cls in claim_only)


DRUG_SUFFIXES = (
    "mab", "nib", "pril", "sartan", "statin", "olol", "azole", "cillin", "mycin", "cycline",
    "vir", "floxacin", "parin", "oxetine", "dronate", "profen", "done", "pam", "lam", "zide",
    "semide", "formin", "gliptin", "glitazone", "tide", "platin", "taxel", "rubicin", "amine",
    "caine", "sone", "olone", "triptan", "setron", "prazole", "tidine", "irin",
)  # fmt: skip


def _is_greek(ch: str) -> bool:
    return "\u0370" <= ch <= "\u03ff"


_ROMAN = re.compile(r"[IVX]+")
_MAX_ACRONYM = 6  # longer all-capital words are headings ("CONCLUSIONS") or shouting


@lru_cache(maxsize=1 << 16)
def entity_shape(surface: str, first: bool) -> str | None:
    """The entity shape of a surface token (see the module docstring), or None."""
    letters = [ch for ch in surface if ch.isalpha()]
    if not letters:
        return None  # pure numbers belong to the numeric gate
    if len(surface) == 1:
        return "greek" if _is_greek(surface) else None
    if any(ch.isdigit() for ch in surface):
        return "identifier"
    if _ROMAN.fullmatch(surface):
        return None  # "type II": a number, not a name
    upper = sum(1 for ch in letters if ch.isupper())
    plural = surface.endswith("s") and upper == len(letters) - 1 and upper >= 2
    if upper == len(letters) or plural:  # "TNF", and plural acronyms such as "ESCs"
        return "acronym" if upper <= _MAX_ACRONYM else None
    if (upper >= 1 and not surface[0].isupper()) or upper >= 2:
        return "mixed"
    if not surface[0].isupper() or len(letters) < 2:
        return None
    if not first or (len(surface) >= 6 and surface.lower().endswith(DRUG_SUFFIXES)):
        return "name"
    return None


def _defined_abbreviation(text: str, start: int, end: int) -> bool:
    """``long form (ABBR)``: an alias defined in place, not a further entity."""
    return (
        start >= 2
        and text[start - 1] == "("
        and text[start - 2] == " "
        and text[end : end + 1] == ")"
    )


#: Score model v55: plain English words that a text writes in capitals for emphasis ("the
#: short answer is YES", "NOT a cure") or in a heading ("CONCLUSIONS AND RELEVANCE"): never an
#: acronym. Left out: words that are as often an acronym, in the SciFact corpus or elsewhere
#: ("NO" nitric oxide, "ALL" a leukaemia, "AS", "AN", "AT", "ARE", "GO", "IS", "WHO", "US",
#: "OR", "ER", "IT", "CAN", "AIDS", "FACT").
EMPHASIS_WORDS = frozenset(
    {
        "yes", "not", "nor", "never", "none", "true", "false", "fake", "myth", "myths", "only",
        "now", "new", "news", "was", "were", "be", "been", "the", "and", "of", "to", "in", "on",
        "for", "by", "if", "but", "does", "did", "don't", "has", "have", "will", "may", "might",
        "must", "should", "this", "that", "with", "from", "very", "more", "most", "less", "any",
        "how", "why", "what", "when", "you", "your", "we", "our", "they", "its", "so", "up",
        "out", "too", "can't", "won't", "isn't", "didn't", "doesn't",
    }
)  # fmt: skip


def shouted(words: Sequence[tuple[str, int, int]]) -> bool:
    """Score model v55: whether a sentence is written in capitals — at least three words of two
    letters or more, three in five of them all capitals ("VITAMIN D LEVELS MAY IMPACT COVID-19
    MORTALITY RATES") — so that its capitals are its style, not its names."""
    plain = [w for w, _s, _e in words if w[:1].isalpha() and sum(ch.isalpha() for ch in w) >= 2]
    capitals = [w for w in plain if all(ch.isupper() for ch in w if ch.isalpha())]
    return len(capitals) >= 3 and 5 * len(capitals) >= 3 * len(plain)


def entities(
    text: str,
    sentences: Sequence[tuple[str, Sequence[tuple[str, int, int]]]] | None = None,
    plain_case: bool = False,
) -> dict[str, str]:
    """Lowercase entity tokens of ``text`` (NFC) with their shapes, sentence by sentence.

    Abbreviations defined in place (``... stem cells (ESCs)``) get the shape ``alias``: they
    restate the words before them, so they only ever stand in for one another.

    ``sentences``: the text's sentences with their word segments (``segments`` of each sentence),
    when the caller has them already; the result is the same.

    ``plain_case`` (score model v55): capitals that are a sentence's style name nothing: an
    English word in capitals for emphasis or as a heading (:data:`EMPHASIS_WORDS`), and a word
    of four letters or more in a sentence written in capitals (:func:`shouted`). A headline's
    capitalised words ("Climate Models Have Overestimated Global Warming") stay names: read as
    plain words they let more false headlines through on CLIMATE-FEVER than they let true ones.
    """
    if sentences is None:
        sentences = [(s.text, segments(s.text)) for s in split_sentences(text) or ()]
    out: dict[str, str] = {}
    for body, words in sentences:
        loud = plain_case and shouted(words)
        for index, (surface, start, end) in enumerate(words):
            shape = entity_shape(surface, index == 0)
            if plain_case and shape == "acronym":
                lowered = lower_chars(surface)
                if lowered in EMPHASIS_WORDS or (loud and sum(map(str.isalpha, surface)) >= 4):
                    shape = None
            if shape is not None:
                alias = _defined_abbreviation(body, start, end)
                out.setdefault(lower_chars(surface), "alias" if alias else shape)
    return out


def _alnum(token: str) -> str:
    if token.isalnum():
        return token
    return "".join(ch for ch in token if ch.isalnum())


@dataclass(frozen=True, slots=True)
class Compact:
    """A span's letters and digits joined without separators, with its token boundaries."""

    text: str
    boundaries: frozenset[int]

    @classmethod
    def of(cls, tokens: Sequence[str]) -> Compact:
        bounds = {0}
        pos = 0
        parts = []
        for token in tokens:
            part = _alnum(token)
            parts.append(part)
            pos += len(part)
            bounds.add(pos)
        return cls("".join(parts), frozenset(bounds))

    def words(self) -> list[str]:
        """The text's tokens, letters and digits only, in order (a token with neither is
        left out)."""
        bounds = sorted(self.boundaries)
        return [self.text[a:b] for a, b in itertools.pairwise(bounds)]

    def contains_run(self, key: str) -> bool:
        start = self.text.find(key)
        while start != -1:
            if start in self.boundaries and start + len(key) in self.boundaries:
                return True
            start = self.text.find(key, start + 1)
        return False


def _present(entity: str, key: str, token_set: frozenset[str], compact: Compact) -> bool:
    """``entity`` (with ``key``, its letters and digits) occurs in a text."""
    if entity in token_set:
        return True
    return len(key) >= 3 and compact.contains_run(key)


#: Words whose "'s" is "is", "has" or "us" ("That's", "There's", "Let's"), not a possessive.
_NOT_POSSESSIVE = frozenset(("that", "there", "here", "what", "where", "who", "how", "let"))


def base_form(surface: str) -> str | None:
    """The lowercase entity a surface token is a form of, when it is one: a capitalised
    possessive ("Hodgkin's" → "hodgkin"; not "That's") or a plural abbreviation, a lowercase
    "s" after a capital with two capitals or more ("HSPCs" → "hspc", "mRNAs" → "mrna"; "AIDS"
    is none). None otherwise."""
    if len(surface) > 4 and surface[0].isupper() and surface.endswith(("'s", "\u2019s")):
        base = lower_chars(surface[:-2])
        return None if base in _NOT_POSSESSIVE else base
    if (
        len(surface) >= 3
        and surface[-1] == "s"
        and surface[-2].isupper()
        and sum(1 for ch in surface if ch.isupper()) >= 2
    ):
        return lower_chars(surface[:-1])
    return None


def _present_in(entity: str, source: EntityView, target: EntityView) -> bool:
    """``entity`` of ``source`` occurs in ``target``; with forms (score model v20) also as
    another form of the same entity: "HSPC" in a text that writes "HSPCs", "Hodgkin's" in one
    that writes "Hodgkin"."""
    if _present(entity, source.keys[entity], target.token_set, target.compact):
        return True
    if " " in entity and entity in target.entities:  # a designated name (v53)
        return True
    if not (source.bases or target.bases):
        return False
    base = source.bases.get(entity, entity)
    return base in target.token_set or base in target.base_set


@dataclass(frozen=True, slots=True)
class EntityView:
    """A text's token counts, compact form and entities, prepared once per plan."""

    token_set: frozenset[str]
    counts: Mapping[str, int]
    compact: Compact
    entities: Mapping[str, str]
    keys: Mapping[str, str]  # entity → its letters and digits
    #: with forms (score model v20): each possessive or plural token → its base form
    #: (:func:`base_form`); empty otherwise.
    bases: Mapping[str, str] = field(default_factory=dict)
    base_set: frozenset[str] = frozenset()


#: Score model v53: a name that a letter tells from its kin ("vitamin C" and "vitamin D",
#: "hepatitis B", "group A", "vitamin B12"): the head word, any case, then a capital letter and
#: at most two figures, standing alone.
_DESIGNATED = re.compile(
    r"\b((?i:vitamins?|hepatitis|influenza|group|serogroup|serotype|subtype|clade"
    r"|apolipoprotein|factor))[ \t-]+([A-Z]\d{0,2})\b(?!['’]\w)"
)


def designated(text: str) -> Counter[str]:
    """Names that a letter tells from their kin (score model v53), each as one lowercase entity
    ``"<head> <letter>"`` ("Vitamin C" → ``"vitamin c"``, "vitamins D" → ``"vitamin d"``), with
    how often the text writes it. A letter with figures names one of the letter's kind as well
    ("vitamin D3" is a vitamin D: ``"vitamin d3"`` and ``"vitamin d"``), so a text on vitamin D3
    holds a claim's vitamin D, while "vitamin B12" and "vitamin B6" stay two things.

    >>> sorted(designated("Vitamin C and vitamin D; hepatitis B-related; group A; vitamin B12."))
    ['group a', 'hepatitis b', 'vitamin b', 'vitamin b12', 'vitamin c', 'vitamin d']
    """
    out: Counter[str] = Counter()
    for match in _DESIGNATED.finditer(text):
        head = match.group(1).lower()
        head = "vitamin" if head == "vitamins" else head
        name = match.group(2).lower()
        out[f"{head} {name}"] += 1
        if len(name) > 1:
            out[f"{head} {name[0]}"] += 1
    return out


def entity_view(
    text: str,
    tokens: Sequence[str],
    sentences: Sequence[tuple[str, Sequence[tuple[str, int, int]]]] | None = None,
    forms: bool = False,
    designators: bool = False,
    plain_case: bool = False,
) -> EntityView:
    """A text's entity view; ``forms`` (v20): possessives and plurals read as their base;
    ``designators`` (v53): a name a letter tells from its kin ("vitamin C") is an entity of
    its own, shaped by its head word (:func:`designated`), so "vitamin D" in the span stands in
    for a claim's missing "vitamin C" as another gene name would for a claim's gene;
    ``plain_case`` (v55): capitals that are a sentence's style name nothing (:func:`entities`)."""
    if sentences is None and forms:
        sentences = [(s.text, segments(s.text)) for s in split_sentences(text) or ()]
    if sentences is None and plain_case:
        sentences = [(s.text, segments(s.text)) for s in split_sentences(text) or ()]
    found = entities(text, sentences, plain_case)
    counts: Counter[str] = Counter(tokens)
    if designators:
        for name, n in designated(text).items():
            found.setdefault(name, f"designated {name.split(' ', 1)[0]}")
            counts[name] += n
    bases: dict[str, str] = {}
    if forms:
        for _body, words in sentences or ():
            for surface, _start, _end in words:
                base = base_form(surface)
                if base:
                    bases.setdefault(lower_chars(surface), base)
    return EntityView(
        frozenset(tokens),
        counts,
        Compact.of(tokens),
        found,
        {e: _alnum(e) for e in found},
        bases,
        frozenset(bases.values()),
    )


def _surplus(entity: str, more: EntityView, less: EntityView) -> bool:
    """``more`` mentions ``entity`` more often than ``less`` does."""
    have = less.counts.get(entity, 0)
    if have == 0 and _present_in(entity, more, less):
        have = 1
    return more.counts.get(entity, 0) > have


def _figures(key: str) -> str:
    return "".join(ch for ch in key if ch.isdigit())


def written_within(a: str, b: str) -> bool:
    """Two entity keys (letters and digits) name one thing written shorter or longer: one holds
    the other, both at least two characters, with the same figures in the same order ("ras" in
    "kras", "smcs" in "vsmcs", "ampk" holding "amp", "e4" in "apoe4"; not "il6" in "il68", not
    "cd4" in "cd45": another figure is another member of a family)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 2 and short in long and _figures(short) == _figures(long)


def spelled_by_initials(acronym: str, span: EntityView) -> bool:
    """Score model v54: whether the lowercase ``acronym`` (two to six letters) is the initials of
    as many consecutive words of the span ("bp" and "blood pressure", "ckd" and "chronic kidney
    disease"): a claim that abbreviates what its span writes out names nothing the span lacks.

    >>> spelled_by_initials("bp", entity_view("Walking lowered blood pressure.", ["walking",
    ...     "lowered", "blood", "pressure"]))
    True
    """
    if not (2 <= len(acronym) <= 6 and acronym.isalpha()):
        return False
    words = span.compact.words()
    n = len(acronym)
    return any(
        "".join(w[:1] for w in words[i : i + n]) == acronym for i in range(len(words) - n + 1)
    )


def written_joined(key: str, claim: EntityView, span: EntityView) -> bool:
    """Score model v55: whether the claim writes entity ``key`` as part of a name that ends in a
    figure and the span writes that name joined: "COVID-19" against "COVID19", "SARS-CoV-2"
    against "SARSCoV2", "IL 6" against "IL6" (up to four of the claim's words, the last with a
    figure, found as whole words of the span with nothing between them).

    >>> written_joined("covid", entity_view("COVID-19 rose.", ["covid", "19", "rose"]),
    ...     entity_view("COVID19 rose.", ["covid19", "rose"]))
    True
    """
    words = claim.compact.words()
    for i, word in enumerate(words):
        if word != key:
            continue
        for first in range(max(0, i - 3), i + 1):
            for last in range(i, min(len(words), first + 4)):
                if last == first or not any(ch.isdigit() for ch in words[last]):
                    continue
                if span.compact.contains_run("".join(words[first : last + 1])):
                    return True
    return False


def alias_spelled(alias: str, span: EntityView) -> bool:
    """Score model v55: whether an abbreviation a claim defines in place ("break-induced DNA
    replication (BIR)", "extracellular vesicles (EVs)") is spelled by the initials of
    consecutive words of the span, as :func:`spelled_by_initials` reads an acronym, a plural's
    "s" aside: the span writes out what the claim abbreviates.

    >>> alias_spelled("evs", entity_view("Cells shed extracellular vesicles.", ["cells", "shed",
    ...     "extracellular", "vesicles"]))
    True
    """
    return spelled_by_initials(alias, span) or (
        alias.endswith("s") and spelled_by_initials(alias[:-1], span)
    )


def entity_gate_trips(
    claim: EntityView,
    span: EntityView,
    variants: bool = False,
    initials: bool = False,
    joined: bool = False,
    alias_initials: bool = False,
) -> bool:
    """True when a claim entity is missing from the span and a same-shaped entity that the span
    mentions more often than the claim stands in its place (counts matter: a claim that swaps
    one of two mentions of ``AMPK`` still leaves the span one ``AMPK`` to spare).

    ``variants`` (score model v25): a claim entity that the span writes within a longer name,
    or whose letters hold a shorter name of the span, with the same figures
    (:func:`written_within`), is not missing: "RAS" against "KRAS", "VSMCs" against "SMCs".

    ``initials`` (score model v54): a claim acronym that spells the initials of consecutive
    words of the span (:func:`spelled_by_initials`) is not missing: "BP" against "blood
    pressure".

    ``joined`` (score model v55): a claim entity the span writes joined to the figures after it
    (:func:`written_joined`) is not missing: "COVID-19" against "COVID19".

    ``alias_initials`` (score model v55): an abbreviation the claim defines in place whose
    words the span writes out (:func:`alias_spelled`) is not missing: "(BIR)" against
    "break-induced replication"."""
    missing_shapes = {
        shape
        for entity, shape in claim.entities.items()
        if not _present_in(entity, claim, span)
        and not (
            variants and any(written_within(claim.keys[entity], key) for key in span.keys.values())
        )
        and not (initials and shape == "acronym" and spelled_by_initials(entity, span))
        and not (alias_initials and shape == "alias" and alias_spelled(entity, span))
        and not (joined and written_joined(claim.keys[entity], claim, span))
    }
    if not missing_shapes:
        return False
    return any(
        shape in missing_shapes and _surplus(entity, span, claim)
        for entity, shape in span.entities.items()
    )


#: Score model v38: words by which a claim states an effect ("reduces", "leads to", "prevents").
_EFFECT_WORDS = re.compile(
    r"\b(?:cause[sd]?|causing|prevent(?:s|ed|ing)?|reduce[sd]?|reducing|increase[sd]?"
    r"|increasing|leads? to|led to|protect(?:s|ed)?|improve[sd]?|improving|lower(?:s|ed)?"
    r"|raise[sd]?|decrease[sd]?|induce[sd]?|promote[sd]?|inhibit(?:s|ed)?|cure[sd]?"
    r"|worsen(?:s|ed)?|result(?:s|ed)? in|trigger(?:s|ed)?|boost(?:s|ed)?)\b",
    re.IGNORECASE,
)
#: Score model v38: words by which a text states an association ("was associated with").
_ASSOCIATION_WORDS = re.compile(
    r"\b(?:associat\w*|link(?:ed)?|correlat\w*|relationship|related to)\b", re.IGNORECASE
)


def association_stated_as_effect(
    claim: str, window: str
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where a claim states an effect that its window states only as an association (score
    model v38): the claim has an effect word (:data:`_EFFECT_WORDS`: "reduces", "leads to",
    "prevents" …) and no association word, and the window an association word
    (:data:`_ASSOCIATION_WORDS`: "associated", "linked", "correlated" …) and no effect word —
    "Dexamethasone increases the risk of bleeding" against "Dexamethasone was associated with
    postoperative bleeding". Returns the character ranges of the claim's first effect word and
    the window's first association word, or None. A window that writes an effect word anywhere
    ("associated with a lower risk") is not read: its words may state the effect."""
    effect = _EFFECT_WORDS.search(claim)
    association = _ASSOCIATION_WORDS.search(window)
    if (
        effect is None
        or association is None
        or _ASSOCIATION_WORDS.search(claim)
        or _EFFECT_WORDS.search(window)
    ):
        return None
    return effect.span(), association.span()


#: Score model v39: words between a direction word and what it acts on ("increases *the* risk
#: *of* stroke", "the increase *in* FCR").
_OBJECT_SKIP = frozenset(
    ("the", "a", "an", "of", "in", "on", "to", "for", "with", "and", "or", "as", "at", "from",
     "that", "this", "these", "those", "is", "are", "was", "were", "be", "been", "being", "its",
     "their", "his", "her", "it", "they", "we", "our", "than", "into", "via", "also", "both",
     "between", "among", "significantly", "markedly", "substantially", "greatly", "strongly",
     "further")
)  # fmt: skip
#: Score model v39: nouns that measure what follows them ("the risk of stroke", "levels of
#: IL-6"): the thing acted on is the word after, so two windows that raise and lower a "risk"
#: of different outcomes do not oppose.
_MEASURE_NOUNS = frozenset(
    ("risk", "risks", "rate", "rates", "level", "levels", "number", "numbers", "incidence",
     "odds", "likelihood", "expression", "activity", "activities", "production", "function",
     "functions", "severity", "frequency", "amount", "amounts", "concentration",
     "concentrations", "proportion", "percentage", "prevalence", "chance", "probability",
     "degree", "extent", "magnitude")
)  # fmt: skip
#: Score model v39: words that turn what a direction word says of a subject around ("loss of
#: X reduces Y" states that X raises Y); texts whose counts differ in parity are not compared.
#: Not the edit check's ``_INVERTERS`` (:mod:`spanproof.verify.edits`): those also hold
#: direction words ("inhibition", "suppression"), which v39 reads as directions, and lack
#: "mutation" and "null", which turn a gene's role round as often as a loss does.
_INVERTING_STEMS = (
    "loss", "lack", "deficien", "knockout", "knockdown", "deletion", "absence", "mutation",
    "mutant", "depletion", "null", "without", "silenc", "ablation",
)  # fmt: skip
_OBJECT_REACH = 4  # words after a direction word in which what it acts on is looked for
_NEGATION_REACH = 3  # words before a direction or cure word in which a negation denies it
_STEM = 5  # a word's first letters compared ("cardiovascular" and "cardiac" are not told apart)


def _negated_before(lowered: Sequence[str], i: int) -> bool:
    """Whether a negation ("not", "no", "isn't" …) stands in the :data:`_NEGATION_REACH` words
    before ``lowered[i]`` (v39's direction words, v40's cure words)."""
    return any(is_negation(t, True) for t in lowered[max(0, i - _NEGATION_REACH) : i])


def _directed_objects(text: str) -> list[tuple[str, str, int, int]]:
    """The directions a text states of things (score model v39): for each direction word of the
    longer lists (not a comparative such as "more" or "lower", which compares two sides; not an
    agent noun such as "inhibitor"; not after a negation in the three words before it; not a
    passive "reduced by", whose next word is the agent), its class and the first letters of
    the first word of the four after it that is not a function word, a measuring noun
    ("risk", "levels") or a direction word, with the direction word's character range."""
    words = segments(text)
    lowered = [lower_chars(w[0]) for w in words]
    out: list[tuple[str, str, int, int]] = []
    for i, token in enumerate(lowered):
        if token in _EXACT or is_agent_noun(token, True):
            continue
        cls = direction_of(token, True)
        if cls is None:
            continue
        if _negated_before(lowered, i):
            continue
        if i + 1 < len(lowered) and lowered[i + 1] == "by":
            continue
        for later in lowered[i + 1 : i + 1 + _OBJECT_REACH]:
            if later in _OBJECT_SKIP or later in _MEASURE_NOUNS or direction_of(later, True):
                continue
            out.append((cls, later[:_STEM], words[i][1], words[i][2]))
            break
    return out


def _inversions(text: str) -> int:
    return sum(1 for w in segments(text) if lower_chars(w[0]).startswith(_INVERTING_STEMS)) % 2


def direction_reversed_on_object(
    claim: str, window: str
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where a window states the opposite direction of the same thing a claim states a direction
    of (score model v39): "Polymeal nutrition increases cardiovascular mortality" against "…
    an alternative to reduce cardiovascular morbidity and increase life expectancy", "V-9302
    inhibits antitumor responses by decreasing cell death" against "… increased cell death".
    The polarity gate counts a text's direction words as a bag, so a window that says both
    "reduce" and "increase" states the claim's "increases" for it; here each direction word is
    read with the word it acts on (:func:`_directed_objects`). Returns the character ranges of
    the claim's direction word and the window's opposite one, or None — also when the window
    states the claim's direction of that thing anywhere, and when the two texts differ in the
    parity of their inverting words ("loss of", "deficient", "mutations")."""
    if _inversions(claim) != _inversions(window):
        return None
    stated = _directed_objects(window)
    found = None
    for cls, thing, cs, ce in _directed_objects(claim):
        for other, what, ws, we in stated:
            if what != thing:
                continue
            if other == cls:
                return None
            if found is None and other == OPPOSITE[cls]:
                found = (cs, ce), (ws, we)
    return found


#: Score model v40: a word by which a text states a cure ("cures", "cured", "curative").
_CURE_WORDS = re.compile(r"\bcur(?:e|es|ed|ing|ative|able)\b", re.IGNORECASE)


def cure_not_stated(claim: str, window: str) -> tuple[int, int] | None:
    """Where a claim states a cure that its window does not (score model v40): "Vitamin C cures
    COVID-19" against "The use of IV vitamin C in patients with moderate to severe COVID-19 may
    be feasible". A cure is the strongest effect a claim can state — the disease resolved —
    and a source that says only that a treatment helped, may help or was given does not state
    it. Returns the character range of the claim's first cure word that no negation in the
    three words before it denies ("It's not a COVID cure", "there is no cure"), or None — also
    when the window writes a cure word itself."""
    if _CURE_WORDS.search(window):
        return None
    words = segments(claim)
    lowered = [lower_chars(w[0]) for w in words]
    for i, (_surface, start, end) in enumerate(words):
        if _CURE_WORDS.fullmatch(lowered[i]) and not _negated_before(lowered, i):
            return start, end
    return None


#: Score model v74: an association stated with its sign. ``neg``: "negatively correlated",
#: "inversely associated", "an inverse association"; ``pos``: "positively associated", "a
#: positive correlation"; ``led``: an association or a prediction led by a word of change
#: ("associated with an increased risk", "predicted lower levels"), whose class is its sign.
_ASSOCIATED = r"(?:correlat(?:ed|es|e)|associated|related|linked)"
_ASSOCIATION = r"(?:correlations?|associations?|relationships?|relations?)"
_SIGNED_ASSOCIATION = re.compile(
    rf"\b(?:(?P<neg>(?:negatively|inversely)\s+{_ASSOCIATED}|(?:negative|inverse)\s+{_ASSOCIATION}"
    rf"|{_ASSOCIATED}\s+(?:negatively|inversely))"
    rf"|(?P<pos>positively\s+{_ASSOCIATED}|positive\s+{_ASSOCIATION}|{_ASSOCIATED}\s+positively)"
    rf"|(?P<led>(?:{_ASSOCIATED}|predict(?:s|ed)?|predictive\s+of)\s+(?:with\s+)?"
    r"(?:(?:an?|the)\s+)?(?:significantly\s+)?(?P<change>[a-z]+)))\b",
    re.IGNORECASE,
)
#: Score model v74: levels an exposure is stated at, beside the words of change.
_LEVELS = {"high": UP, "low": DOWN}
#: Score model v74: where an association's exposure begins: a clause mark (v28's) or a
#: sentence's end.
_EXPOSURE_START = re.compile(rf"{_CLAUSE_BREAK.pattern}|[.!?]\s+")
#: Score model v74: the sign a word of change gives an association.
SIGNS = {UP: 1, DOWN: -1}
_ASSOCIATION_REACH = 6  # words after an association in which what it is with is looked for
#: Score model v74: outcomes that are the absence of a harm: more of one is less of the harm
#: ("shorter metastasis-free survival" is more metastasis). "-free" ends a word ("disease-free",
#: not "free-living").
_GOOD_OUTCOME = re.compile(r"\bsurviv|\w-free\b(?!-)", re.IGNORECASE)


def _exposure_sign(before: str) -> int | None:
    """The sign the words before an association (back to a clause mark) give it: -1 when they
    state a lower level ("lower plasma levels of X are associated with …"), 1 for a higher one
    or none; None when they state both, deny, or hold an inverting word ("loss of")."""
    words = [lower_chars(w[0]) for w in segments(_EXPOSURE_START.split(before)[-1])]
    if any(is_negation(t, True) or t.startswith(_INVERTING_STEMS) for t in words):
        return None
    classes = {
        cls
        for t in words
        if not is_agent_noun(t, True) and (cls := _LEVELS.get(t) or direction_of(t, True)) in SIGNS
    }
    if len(classes) > 1:
        return None
    return SIGNS[classes.pop()] if classes else 1


def _associated_with(after: str) -> tuple[frozenset[str], int]:
    """The first letters of the content words among the :data:`_ASSOCIATION_REACH` words after
    an association — what it is with — and -1 when they name the absence of a harm
    (:data:`_GOOD_OUTCOME`: "survival", "disease-free"), else 1."""
    words = segments(after)[:_ASSOCIATION_REACH]
    out = set()
    for w in words:
        t = lower_chars(w[0])
        if t in _OBJECT_SKIP or t in _MEASURE_NOUNS or direction_of(t, True) or len(t) < 3:
            continue
        out.add(t[:_STEM])
    reach = after[: words[-1][2]] if words else ""
    return frozenset(out), -1 if _GOOD_OUTCOME.search(reach) else 1


def signed_associations(text: str) -> list[tuple[int, frozenset[str], int, int]]:
    """The associations a text states with a sign (score model v74): for each, its sign (1 when
    more of one goes with more of the other, -1 when with less) composed with the level of the
    exposure before it ("Higher levels of X are negatively correlated with Y" is -1, "Lower X
    was associated with an increased risk of Y" -1) and with what it is with, turned round
    for the absence of a harm ("associated with shorter survival" is 1), what it is with
    (:func:`_associated_with`), and its character range. An association denied, or after an
    inverting word or both directions in its clause, has none and is left out."""
    out = []
    for m in _SIGNED_ASSOCIATION.finditer(text):
        if m.group("neg"):
            sign = -1
        elif m.group("pos"):
            sign = 1
        else:
            change = direction_of(lower_chars(m.group("change")), True)
            if change not in SIGNS:
                continue
            sign = SIGNS[change]
        exposure = _exposure_sign(text[: m.start()])
        if exposure is None:  # denied, turned by an inverting word, or both levels
            continue
        things, turn = _associated_with(text[m.end() :])
        if things:
            out.append((sign * exposure * turn, things, m.start(), m.end()))
    return out


def association_reversed(claim: str, window: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where a window states with the opposite sign the association a claim states (score model
    v74): "Higher plasma levels of L-carnitine are negatively correlated with cardiovascular
    events" against "Plasma L-carnitine levels … predicted increased risks for both prevalent
    cardiovascular disease and …". Neither sentence has a word of change the other opposes
    ("higher" and "increased" agree), so the polarity gate passes them; the sign lies in
    "negatively correlated" against "predicted increased". The claim must state every
    association of its own with one sign; the window's associations with something the claim's
    is with (:func:`signed_associations`) must all have the other sign. Returns the character
    ranges of the claim's first association and the window's first opposing one, or None."""
    stated = signed_associations(claim)
    if not stated or len({sign for sign, *_ in stated}) > 1:
        return None
    sign, _things, cs, ce = stated[0]
    things = frozenset().union(*(t for _s, t, _a, _b in stated))
    same = [(s, ws, we) for s, t, ws, we in signed_associations(window) if t & things]
    if not same or any(s == sign for s, _ws, _we in same):
        return None
    return (cs, ce), (same[0][1], same[0][2])
