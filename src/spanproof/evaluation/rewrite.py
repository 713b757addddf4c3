"""Rewrite edits for the realistic adversarial generator (issue 13): roles swapped, a scope
qualifier changed, the seed's number, negation and direction edits, and the faithful shortenings
(first main clause, compression) a fair check must keep supported.

Each edit is a pure function of the sentence (and the evidence window where the edit must avoid
it); a choice between several applicable edits is made by a seeded hash of the text.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence

from spanproof.evaluation import adversarial as adv
from spanproof.evaluation.substitution import (
    STOPWORDS,
    VERB_WORDS,
    Edit,
    Word,
    direction_class,
    entity_mentions,
    entity_words,
    one_entity,
    participle,
    seeded_hash,
    with_article,
    words,
)
from spanproof.text.citations import citation_ranges
from spanproof.text.numerics import canonical_number
from spanproof.text.spelling import american, greek_named
from spanproof.text.tokens import segments
from spanproof.verify.edits import COORDINATORS
from spanproof.verify.gates import direction_of, is_negation

_DIRECTED = (
    "induc", "inhibit", "activat", "regulat", "upregulat", "downregulat", "suppress", "promot",
    "mediat", "requir", "caus", "phosphorylat", "stimulat", "repress", "block", "target",
    "recruit", "cleav", "degrad", "antagoniz", "enhanc", "increas", "decreas", "reduc", "prevent",
    "trigger", "driv", "control", "modulat", "attenuat", "abrogat", "potentiat", "impair",
    "ubiquitinat", "acetylat", "methylat", "deacetylat", "transactivat", "sensitiz", "preced",
    "exceed", "outperform", "predict", "elevat", "abolish", "restor", "rescu", "protect",
    "encod", "produc", "secret", "convert", "replac", "recogniz", "kill", "infect",
)  # fmt: skip
_VERB_ENDINGS = ("es", "ed", "s", "d")
_DIRECTED_RE = re.compile(r"\b(?:" + "|".join(_DIRECTED) + r")(?:es|ed|s|d)\b", re.IGNORECASE)
_DETERMINERS = frozenset({"a", "an", "the", "this", "these", "its", "their", "our", "of"})
_COMPARISON = re.compile(
    r"\b(?P<p1>in|among) (?P<a>[^\W\d_][\w-]*(?: [^\W\d_][\w-]*){0,2})"
    r" (?P<cmp>than|compared with|compared to|relative to) (?P<p2>in |among )?"
    r"(?P<b>[^\W\d_][\w-]*(?: [^\W\d_][\w-]*){0,2})(?=[,.;)]| \()"
)


def _directed_verb_word(low: str) -> bool:
    return _DIRECTED_RE.fullmatch(low) is not None


def _directed_verb(ws: Sequence[Word], k: int) -> bool:
    """Word ``k`` is a finite or passive form of a directed verb ("induces", "was induced"),
    not an adjective after a determiner ("an elevated level")."""
    if not _directed_verb_word(ws[k].core.lower()):
        return False
    return k == 0 or ws[k - 1].core.lower() not in _DETERMINERS


_AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "has", "have", "had", "can",
                          "may", "could", "might", "also", "not", "directly", "specifically",
                          "strongly", "further", "thereby", "in", "turn"})  # fmt: skip
#: Nouns an object entity may carry: "X induces Y expression" still names Y as the object.
_OBJECT_NOUNS = frozenset({"expression", "activity", "levels", "level", "production", "release",
                           "phosphorylation", "activation", "signaling", "signalling",
                           "secretion", "transcription", "degradation", "localization",
                           "function", "stability", "recruitment", "synthesis"})  # fmt: skip


def _bounded(sentence: str, ws: Sequence[Word], k: int, step: int, allowed: frozenset[str]) -> bool:
    """Word ``k`` ends its noun phrase on that side: punctuation, a function word or the edge."""
    n = k + step
    if not 0 <= n < len(ws):
        return True
    gap = sentence[ws[min(k, n)].end : ws[max(k, n)].start]
    low = ws[n].core.lower()
    return gap != " " or low in STOPWORDS or low in allowed


def _agent_and_patient(sentence: str, ws: Sequence[Word], ka: int, kb: int) -> bool:
    """Entity ``ka`` is a verb's subject (or "of X by Y"'s patient) and ``kb`` its object."""
    if not _bounded(sentence, ws, ka, -1, frozenset()) or not _bounded(
        sentence, ws, kb, 1, _OBJECT_NOUNS | VERB_WORDS
    ):
        return False
    middle = list(range(ka + 1, kb))
    if [ws[m].core for m in middle] == ["by"]:
        return ka > 0 and ws[ka - 1].core == "of"
    if any(ch in sentence[ws[ka].end : ws[kb].start] for ch in ",;:()[]"):
        return False
    verbs = [m for m in middle if _directed_verb(ws, m)]
    others = [ws[m].core.lower() for m in middle if m not in verbs]
    return len(verbs) == 1 and all(w in _AUXILIARIES or w == "by" for w in others)


def _swap_entities(sentence: str) -> Edit | None:
    if " by " not in sentence and not _DIRECTED_RE.search(sentence):
        return None
    ws = words(sentence)
    found = entity_words(sentence, ws)
    for a, (ka, _) in enumerate(found):
        for kb, _ in found[a + 1 :]:
            wa, wb = ws[ka], ws[kb]
            if wa.core.lower() == wb.core.lower() or not 1 <= kb - ka - 1 <= 3:
                continue
            if not _agent_and_patient(sentence, ws, ka, kb):
                continue
            between = sentence[wa.end : wb.start]
            claim = sentence[: wa.start] + wb.core + between + wa.core + sentence[wb.end :]
            return Edit(claim, f"{wa.core} <-> {wb.core}")
    return None


def _swap_comparison(sentence: str) -> Edit | None:
    """ "higher in men than in women" → "higher in women than in men"."""
    if (
        " than " not in sentence
        and " compared " not in sentence
        and " relative to " not in sentence
    ):
        return None
    if not any(direction_class(w.core.lower()) for w in words(sentence)):
        return None
    for match in _COMPARISON.finditer(sentence):
        a, b = match.group("a"), match.group("b")
        if (
            a.lower() == b.lower()
            or a.endswith(" rather")
            or (match.group("cmp") == "than") != bool(match.group("p2"))
        ):
            continue
        if any(w.lower() in STOPWORDS or participle(w) for w in (a.split()[0], b.split()[0])):
            continue
        start, end = match.start("a"), match.end("b")
        middle = sentence[match.end("a") : match.start("b")]
        return Edit(sentence[:start] + b + middle + a + sentence[end:], f"{a} <-> {b}")
    return None


def swap_roles(sentence: str) -> Edit | None:
    """Swap two roles: entities on either side of a directed verb ("TNF induces IL-6" → "IL-6
    induces TNF"; "activation of Akt by mTOR"), with no comma, bracket or coordination between
    them, or the two sides of a comparison ("higher in men than in women")."""
    return _swap_entities(sentence) or _swap_comparison(sentence)


# --------------------------------------------------------------------------- scope change

_SCOPE_SWAPS: dict[str, str] = {
    "mice": "rats", "rats": "mice", "mouse": "rat", "rat": "mouse", "humans": "mice",
    "murine": "human", "adults": "children", "children": "adults", "men": "women",
    "women": "men", "male": "female", "female": "male", "males": "females",
    "females": "males", "boys": "girls", "girls": "boys", "elderly": "young",
    "older": "younger", "younger": "older", "infants": "adolescents", "adolescents": "infants",
    "postmenopausal": "premenopausal", "premenopausal": "postmenopausal", "obese": "lean",
    "healthy": "diabetic", "in vitro": "in vivo", "in vivo": "in vitro",
    "low-dose": "high-dose", "high-dose": "low-dose", "low doses": "high doses",
    "high doses": "low doses", "low dose": "high dose", "high dose": "low dose",
    "daily": "weekly", "weekly": "monthly", "monthly": "weekly", "short-term": "long-term",
    "long-term": "short-term", "acute": "chronic", "chronic": "acute",
    "early-stage": "late-stage", "late-stage": "early-stage", "first-line": "second-line",
    "second-line": "first-line", "hospitalized": "non-hospitalized", "severe": "mild",
    "mild": "severe", "rural": "urban", "urban": "rural", "smokers": "nonsmokers",
    "nonsmokers": "smokers", "neonates": "adults", "preterm": "term", "primary": "secondary",
    "pediatric": "adult", "Caucasian": "Asian", "Chinese": "Japanese", "Japanese": "Korean",
    "European": "Asian", "African": "European",
}  # fmt: skip
_SCOPE = re.compile(
    r"(?<![\w-])("
    + "|".join(sorted(map(re.escape, _SCOPE_SWAPS), key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)
#: Qualifiers added at the end of a sentence that names no population of its own.
_HUMAN_ADDITIONS = ("in children", "in older adults", "in women", "in men", "in pregnant women",
                    "in smokers", "in the long term")  # fmt: skip
_ANIMAL_ADDITIONS = ("in aged mice", "in female mice", "in neonatal mice")
_ANIMAL = re.compile(r"\b(mice|mouse|rats?|murine|animals?)\b", re.IGNORECASE)
_PEOPLE = re.compile(
    r"\b(patients|participants|subjects|individuals|adults|people|persons|volunteers|cohort|"
    r"trial|population)\b",
    re.IGNORECASE,
)
#: A finding (an effect or an association), to which a qualifier can be added.
_FINDING = re.compile(
    r"\b(increas|decreas|reduc|improv|lower|higher|associated|effective|benefit|prevent|"
    r"protect|induc|inhibit|elevat|impair|risk)\w*",
    re.IGNORECASE,
)


#: Names that contain a qualifier word ("severe acute respiratory syndrome").
_NAMED = re.compile(
    r"severe acute respiratory syndrome|acute respiratory distress syndrome|"
    r"severe combined immunodeficiency|middle east respiratory syndrome",
    re.IGNORECASE,
)
_QUALIFIED = re.compile(
    r"\b(pregnant|nonpregnant|non-pregnant|postmenopausal|premenopausal) $", re.IGNORECASE
)


def _fixed(sentence: str, start: int, end: int) -> bool:
    """A qualifier that belongs to a name ("severe acute respiratory syndrome") or that another
    qualifier pins ("pregnant women")."""
    if any(m.start() <= start and end <= m.end() for m in _NAMED.finditer(sentence)):
        return True
    return bool(_QUALIFIED.search(sentence[:start]))


def _contains(window: str, phrase: str) -> bool:
    return (
        re.search(r"(?<![\w-])" + re.escape(phrase) + r"(?![\w-])", window, re.IGNORECASE)
        is not None
    )


def _cased(like: str, text: str) -> str:
    return text[0].upper() + text[1:] if like[:1].isupper() else text


def _scope_additions(sentence: str, window: str) -> list[tuple[str, str]]:
    """A qualifier added to the end of a short finding ("X reduced Y" + "in older adults"),
    chosen to fit the window's subjects (people or animals); none when the window already
    qualifies its population."""
    if _SCOPE.search(window) or len(words(sentence)) > 30 or "respectively" in sentence:
        return []
    if not re.search(r"[^\W\d_]\.$", sentence) or not _FINDING.search(sentence):
        return []
    pool: tuple[str, ...]
    if _ANIMAL.search(window):
        pool = _ANIMAL_ADDITIONS
    elif _PEOPLE.search(window):
        pool = _HUMAN_ADDITIONS
    else:
        return []
    return [
        (sentence[:-1] + " " + q + ".", f"added '{q}'")
        for q in pool
        if not _contains(window, q.split()[-1])
    ]


def change_scope(sentence: str, window: str, key: str = "") -> Edit | None:
    """Replace a population, species, dose, setting or time qualifier with another the window
    lacks ("in mice" → "in rats"), or, when the sentence names none, add one at its end."""
    options: list[tuple[str, str]] = []
    for match in _SCOPE.finditer(sentence):
        old = match.group(1)
        new = _SCOPE_SWAPS.get(old) or _SCOPE_SWAPS.get(old.lower())
        if new is None or _contains(window, new) or _fixed(sentence, match.start(), match.end()):
            continue
        new = _cased(old, new)
        claim = with_article(sentence, match.start(), new) + new + sentence[match.end() :]
        options.append((claim, f"{old} -> {new}"))
    if not options:
        options = _scope_additions(sentence, window)
    if not options:
        return None
    claim, detail = options[seeded_hash(key, sentence, "scope") % len(options)]
    return Edit(claim, detail)


# --------------------------------------------------------------------------- seed builders


def word_diff(old: str, new: str) -> str:
    """A short note of the words that differ: "increased -> decreased", "+not"."""
    a, b = old.split(), new.split()
    notes = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "replace":
            notes.append(f"{' '.join(a[i1:i2])} -> {' '.join(b[j1:j2])}")
        elif op == "delete":
            notes.append(f"-{' '.join(a[i1:i2])}")
        elif op == "insert":
            notes.append(f"+{' '.join(b[j1:j2])}")
    return "; ".join(notes)


def _in_citation(text: str, at: int) -> bool:
    """Whether character ``at`` of ``text`` lies in a citation marker ("[3]", "(Smith et al.,
    2019)"): a reference, not a figure of the finding (:mod:`spanproof.text.citations`)."""
    return any(a <= at < b for a, b in citation_ranges(text))


def swap_number(sentence: str, window: str) -> Edit | None:
    """The seed's number swap, kept only when the number stands alone (not "IL-6" → "IL-7")
    and is no citation marker's ("[1]" → "[3]" changes the reference, not the finding)."""
    edited = adv.number_swap(sentence, window)
    if edited is None or edited == sentence:
        return None
    changed = next(k for k, (x, y) in enumerate(zip(sentence, edited, strict=True)) if x != y)
    word = next((w for w in words(edited) if w.start <= changed < w.end), None)
    if word is None or word.core[:1].isalpha() or _in_citation(sentence, changed):
        return None
    return Edit(edited, word_diff(sentence, edited))


def _numbers(text: str) -> list[tuple[int, int, str, str, str]]:
    """(start, end, surface, canonical value, shape) of each number that stands alone as a word
    (not part of "IL-6" or "T2") and outside a citation marker ("[12]", "(Smith, 2019)": a
    reference, not a figure); the shape is ``%`` for a percentage, ``.`` for a decimal, else
    ``#``."""
    out = []
    markers = citation_ranges(text)
    for surface, start, end in segments(text):
        value = canonical_number(surface)
        if value is None or not re.fullmatch(r"[0-9][0-9.,]*", surface):
            continue
        if any(a <= start < b for a, b in markers):
            continue
        before, after = text[start - 1 : start], text[end : end + 1]
        if before.isalnum() or (before == "-" and text[start - 2 : start - 1].isalnum()):
            continue
        if after.isalpha():
            continue
        shape = "%" if text[end:].lstrip().startswith("%") else "." if "." in surface else "#"
        out.append((start, end, surface, value, shape))
    return out


def mix_up_number(sentence: str, window: str, key: str = "") -> Edit | None:
    """One number of ``sentence`` replaced with another of the same shape (a percentage for a
    percentage, a decimal for a decimal, a count for a count) that the *window* states and the
    sentence does not: two figures of one passage mixed up, so the new number is in the
    evidence, only not here."""
    mine = _numbers(sentence)
    values = {n[3] for n in mine}
    theirs: dict[str, tuple[str, str]] = {}
    for _, _, surface, value, shape in _numbers(window):
        if value not in values:
            theirs.setdefault(value, (surface, shape))
    options = [(n, [s for s, shape in theirs.values() if shape == n[4]]) for n in mine]
    options = [(n, found) for n, found in options if found]
    if not options:
        return None
    (start, end, old, _, _), found = options[seeded_hash(key, sentence, "number") % len(options)]
    new = found[seeded_hash(key, sentence, old, "number") % len(found)]
    return Edit(sentence[:start] + new + sentence[end:], f"{old} -> {new} (both in the window)")


#: Where ``cut_number_mixup`` may end a shortened copy: a clause mark after the number.
_CLAUSE_MARK = re.compile(r"\s*[,;:(]\s|\s+[-–—]\s")
#: A sentence that opens with a prepositional phrase: cut at its first comma it is a fragment.
_PREPOSITION_START = re.compile(
    r"^(Of|In|Among|For|At|From|With|Within|During|Over|Across|Between|Of the|On)\b"
)


#: (start, end, surface, key, shape): a number of :func:`_numbers` (its key the canonical
#: value) or a name of :func:`entity_mentions`.
Mention = tuple[int, int, str, str, str]


def cut_number_mixup(sentence: str, key: str = "") -> Edit | None:
    """A shortened copy with two figures of one sentence mixed up: the sentence is cut at the
    first clause mark after one of its numbers (at least six words kept), and that number is
    replaced by another of the same shape that the sentence states *after* the cut ("fell by 5
    mmHg after 12 weeks; 8 participants dropped out" → "fell by 5 mmHg after 8 weeks."). The new
    figure is in the evidence, later and in order, so an alignment can pair it with its own
    later mention; :func:`mix_up_number` never builds this, as it takes figures the sentence
    lacks and keeps the sentence whole."""
    return _cut_mixup(sentence, key, _numbers(sentence), lambda a, b: False, "number")


def cut_entity_mixup(sentence: str, key: str = "") -> Edit | None:
    """:func:`cut_number_mixup` for names: the sentence cut at the first clause mark after a
    gene, drug or acronym, which is replaced by another of the same shape that the sentence
    names after the cut (never a name the sentence gives as the same thing)."""
    return _cut_mixup(
        sentence,
        key,
        entity_mentions(sentence),
        lambda a, b: one_entity(sentence, a, b),
        "entity",
    )


def _cut_mixup(
    sentence: str,
    key: str,
    mentions: Sequence[Mention],
    same: Callable[[str, str], bool],
    what: str,
) -> Edit | None:
    options: list[tuple[Mention, int, list[str]]] = []
    for n in mentions:
        cut = _CLAUSE_MARK.search(sentence, n[1])
        if cut is None or len(sentence[: cut.start()].split()) < 6:
            continue
        head = sentence[: cut.start()]
        if not balanced(head) or not _has_verb(head):
            continue
        if _SUBORDINATE_START.match(head) or _PREPOSITION_START.match(head):
            continue
        in_head = [m for m in mentions if m[1] <= cut.start()]
        if what == "entity" and sum(m[3] == n[3] for m in in_head) > 1:
            continue  # named twice before the cut: one replaced would leave the other
        later = [
            m[2]
            for m in mentions
            if m[0] >= cut.end()
            and m[4] == n[4]
            and all(m[3] != h[3] and not same(m[2], h[2]) for h in in_head)
        ]
        if later:
            options.append((n, cut.start(), later))
    if not options:
        return None
    (start, end, old, _, _), cut_at, later = options[
        seeded_hash(key, sentence, f"cut-{what}") % len(options)
    ]
    new = later[seeded_hash(key, sentence, old, f"cut-{what}") % len(later)]
    claim = sentence[:start] + new + sentence[end:cut_at].rstrip() + "."
    return Edit(claim, f"{old} -> {new} (stated later in the sentence), cut at the clause mark")


def reattribute_number(sentence: str, key: str = "") -> Edit | None:
    """Two figures of one shape in one clause, each after its own noun ("lowered LDL by 30% and
    triglycerides by 15%"): the words from the first figure through the second's noun are
    dropped, so the second figure is given to the first one's noun ("lowered LDL by 15%"). Only
    where the second figure's noun is tied to it by function words that join no two phrases
    ("triglycerides by 15%", not "for men and 0.9 for women", whose "men" belongs to the
    figure before it), and the dropped words hold a content word ("3 and 6 months" → "6 months"
    drops none and stays true)."""

    def span(first: Mention, second: Mention) -> tuple[int, int] | None:
        ws = [w.core.lower() for w in words(sentence[first[0] : second[0]])]
        content = [k for k, w in enumerate(ws) if w.isalpha() and w not in STOPWORDS]
        if len(content) < 1 or content[-1] == len(ws) - 1:
            return None  # no noun of its own, or the noun sits right against the figure
        tie = ws[content[-1] + 1 :]
        if any(w in COORDINATORS for w in tie) or not all(w in STOPWORDS for w in tie):
            return None
        return first[0], second[0]

    return _drop_between_figures(
        sentence, key, "reattribute", span, "the later figure given to the earlier noun"
    )


def carry_number(sentence: str, key: str = "") -> Edit | None:
    """Two figures of one shape in one clause, each before its own noun ("0.8 for men and 0.9
    for women", "12% in the drug group and 20% in the placebo group"): the words from the first
    figure's noun through the second figure dropped, so the first figure is carried on to the
    second one's noun ("0.8 for women"). Only where the first figure has a noun of its own
    before the word that joins the two ("3 and 12 months" → "3 months" drops none and stays
    true), and only function words stand between that word and the second figure."""

    def span(first: Mention, second: Mention) -> tuple[int, int] | None:
        ws = [w.core.lower() for w in words(sentence[first[1] : second[0]])]
        joins = [k for k, w in enumerate(ws) if w in COORDINATORS]
        if not joins or not all(w in STOPWORDS for w in ws[joins[-1] + 1 :]):
            return None
        if not any(w.isalpha() and w not in STOPWORDS for w in ws[: joins[-1]]):
            return None  # the first figure has no noun of its own: a list
        rest = re.split(r"[,;:(]", sentence[second[1] :], maxsplit=1)[0]
        if not any(w.core.isalpha() and w.core.lower() not in STOPWORDS for w in words(rest)):
            return None  # no noun after the second figure to carry the first one on to
        return first[1], second[1]

    return _drop_between_figures(
        sentence, key, "carry", span, "the earlier figure carried on to the later noun"
    )


def _drop_between_figures(
    sentence: str,
    key: str,
    tag: str,
    span: Callable[[Mention, Mention], tuple[int, int] | None],
    why: str,
) -> Edit | None:
    """For each figure, the nearest later one of the same shape and another value in the same
    clause for which ``span`` gives the characters to drop; one of them dropped (seeded)."""
    mine = _numbers(sentence)
    options: list[tuple[int, int]] = []
    for i, first in enumerate(mine):
        for second in mine[i + 1 :]:
            if second[4] != first[4] or second[3] == first[3]:
                continue
            if _CLAUSE_MARK.search(sentence[first[0] : second[0]]):
                continue
            found = span(first, second)
            if found is not None:
                options.append(found)
                break  # the nearest later figure only
    if not options:
        return None
    start, end = options[seeded_hash(key, sentence, tag) % len(options)]
    claim = sentence[:start] + sentence[end:]
    if len(claim.split()) < 6 or not balanced(claim):
        return None
    return Edit(claim, f"dropped '{sentence[start:end].strip()}' ({why})")


#: Units a generated unit swap reads and writes, by dimension (singular, plural); mass and
#: volume units have no plural. Written apart from the edit check's own unit list.
_UNIT_DIMENSIONS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("day", "days"), ("week", "weeks"), ("month", "months"), ("year", "years")),
    (("hour", "hours"), ("minute", "minutes")),
    (("mg", "mg"), ("g", "g"), ("kg", "kg"), ("µg", "µg")),
    (("mL", "mL"), ("L", "L")),
    (("mmHg", "mmHg"),),
)
_UNIT_WORDS = {
    form: (d, u)
    for d, dim in enumerate(_UNIT_DIMENSIONS)
    for u, forms in enumerate(dim)
    for form in forms
}
#: A figure with its unit: "30%", "30 %", "12 weeks", "12-week", "40 mg".
_FIGURE_UNIT = re.compile(
    r"(?<![\w.,·-])(\d+(?:[.,]\d+)?)(?:(\s?%)|([ -])("
    + "|".join(sorted((re.escape(f) for f in _UNIT_WORDS), key=len, reverse=True))
    + r")(?![\w/-]))"
)


#: The percent sign's place among the units: (dimension, unit) of no dimension.
_PERCENT = (-1, -1)


def _figure_units(text: str) -> list[tuple[re.Match[str], tuple[int, int]]]:
    """Each figure with a unit in ``text`` and its unit: (dimension, unit) or :data:`_PERCENT`."""
    return [
        (m, _PERCENT if m.group(2) else _UNIT_WORDS[m.group(4)])
        for m in _FIGURE_UNIT.finditer(text)
    ]


def _unit_written(unit: tuple[int, int], like: str, figure: str) -> str:
    """``unit`` written after ``figure`` the way ``like`` was: "%" joined, a word after a space
    (after a hyphen when ``like`` was "12-week"), singular after 1 or before a hyphen."""
    if unit == _PERCENT:
        return "%"
    singular = like.startswith("-") or canonical_number(figure) == "1.0"
    return ("-" if like.startswith("-") else " ") + _UNIT_DIMENSIONS[unit[0]][unit[1]][
        0 if singular else 1
    ]


def swap_unit(sentence: str, window: str, key: str = "") -> Edit | None:
    """One figure's unit replaced, its number kept: by another unit of the same dimension ("after
    12 weeks" → "after 12 months", "40 mg" → "40 g"), or a percentage for an absolute change
    and back ("fell by 5 mmHg" → "fell by 5%", "fell by 30%" → "fell by 30 mg" where the window
    gives another figure in mg; never a duration as a percentage). A unit that another figure
    of the *window* carries is preferred (the new unit is in the evidence, only not here); a
    percentage whose window gives no absolute unit is left alone."""
    stated = {unit for _, unit in _figure_units(window)}
    options: list[tuple[re.Match[str], list[tuple[int, int]]]] = []
    for match, (d, u) in _figure_units(sentence):
        if (d, u) == _PERCENT:  # a duration or a time is no percentage's unit
            found = sorted(x for x in stated if x[0] > 1)
        else:
            found = [(d, k) for k in range(len(_UNIT_DIMENSIONS[d])) if k != u]
            found += [_PERCENT] if d > 1 else []
            found = [x for x in found if x in stated] or found
        if found:
            options.append((match, found))
    if not options:
        return None
    match, found = options[seeded_hash(key, sentence, "unit") % len(options)]
    new = found[seeded_hash(key, sentence, match.group(0), "unit") % len(found)]
    figure = match.group(1)
    written = figure + _unit_written(new, match.group(3) or "", figure)
    claim = sentence[: match.start()] + written + sentence[match.end() :]
    return Edit(claim, f"{match.group(0).strip()} -> {written}")


def _pick_claim(options: list[tuple[str, str]], key: str, sentence: str, salt: str) -> Edit | None:
    """One of the (claim, detail) options of six words or more with balanced brackets, chosen
    by a hash of the seed, the sentence and ``salt``; None when none is left."""
    options = [(c, d) for c, d in options if len(c.split()) >= 6 and balanced(c)]
    if not options:
        return None
    claim, detail = options[seeded_hash(key, sentence, salt) % len(options)]
    return Edit(claim, detail)


#: A species or in-vitro qualifier a summary may drop, generalising the finding.
_SCOPE_DROP = re.compile(
    r",? (?:in|of|from) (?:aged |adult |young |female |male |transgenic |knockout |diabetic "
    r"|obese |wild-type |pregnant )?(?:mice|rats|mouse models?|rat models?|animals|rodents"
    r"|zebrafish|vitro)\b",
    re.IGNORECASE,
)
#: An association stated as an effect: "X was associated with a lower risk of Y".
_ASSOCIATED = re.compile(
    r"\b(?:was|were|is|are) (?:significantly |independently |inversely |positively |strongly )?"
    r"associated with (?:a |an )?(?:significantly )?(lower|reduced|decreased|higher|increased"
    r"|greater|elevated) (risk|incidence|rates?|levels?|mortality|odds|prevalence)\b",
    re.IGNORECASE,
)
_CAUSED = {"lower": "lowered", "reduced": "lowered", "decreased": "lowered"}
#: A hedge a summary may drop: a modal "may be" or an adverb of likelihood.
_MODAL_BE = re.compile(r"\b(?:may|might|could) be\b")
_HEDGE_ADVERB = re.compile(r"\b(?:possibly|potentially|probably|presumably|putatively) ")


def overstate(sentence: str, key: str = "") -> Edit | None:
    """The finding stated more strongly than the sentence states it, by a deletion a check of
    copies reads as compression: a species or in-vitro qualifier dropped ("reduced tumour growth
    in mice" → "reduced tumour growth"), an association stated as an effect ("were associated
    with a lower risk of dementia" → "lowered the risk of dementia"), or a hedge dropped ("may
    be" → "is", "potentially reduces" → "reduces")."""
    options: list[tuple[str, str]] = []
    for m in _SCOPE_DROP.finditer(sentence):
        after = sentence[m.end() :].lstrip().split(" ", 1)[0].lower()
        before = sentence[: m.start()].rstrip().rsplit(" ", 1)[-1].lower()
        if after in {"and", "or", "and/or", "vs", "versus"} or before in {"and", "or"}:
            continue  # "in vitro and in vivo", "in mice and humans": one of a pair
        options.append((sentence[: m.start()] + sentence[m.end() :], f"-{m.group().strip(', ')}"))
    for m in _ASSOCIATED.finditer(sentence):
        verb = _CAUSED.get(m.group(1).lower(), "raised")
        new = f"{verb} the {m.group(2)}"
        options.append((sentence[: m.start()] + new + sentence[m.end() :], f"{m.group()} -> {new}"))
    for m in _MODAL_BE.finditer(sentence):
        preceding = sentence[: m.start()].split()
        subject = preceding[-1].lower() if preceding else ""
        new = "are" if subject.endswith("s") and not subject.endswith("ss") else "is"
        options.append((sentence[: m.start()] + new + sentence[m.end() :], f"{m.group()} -> {new}"))
    for m in _HEDGE_ADVERB.finditer(sentence):
        options.append((sentence[: m.start()] + sentence[m.end() :], f"-{m.group().strip()}"))
    return _pick_claim(options, key, sentence, "overstate")


#: A quantity, frequency or degree word and what a careless summary puts in its place: an
#: opposite or a stronger word, never a weaker one the sentence entails ("all" → "some").
_QUANTIFIER_SWAPS: dict[str, tuple[str, ...]] = {
    "some": ("all", "most"), "several": ("all", "most"), "few": ("many", "most"),
    "a few": ("many", "most"), "many": ("few",), "most": ("all", "few"),
    "rarely": ("often", "frequently"), "seldom": ("often",), "often": ("rarely",),
    "frequently": ("rarely",), "occasionally": ("frequently", "consistently"),
    "partially": ("completely", "fully"), "partly": ("completely", "fully"),
    "incompletely": ("completely",), "slightly": ("markedly", "substantially"),
    "modestly": ("markedly", "substantially"), "marginally": ("substantially",),
    "markedly": ("slightly",), "substantially": ("slightly",), "dramatically": ("slightly",),
    "greatly": ("slightly",), "strongly": ("weakly",), "weakly": ("strongly",),
    "transiently": ("persistently", "permanently"), "transient": ("persistent", "sustained"),
    "persistent": ("transient",), "sustained": ("transient",), "temporary": ("permanent",),
    "permanent": ("temporary",), "minority": ("majority",), "majority": ("minority",),
    "rare": ("frequent",), "infrequent": ("frequent",), "frequent": ("rare",),
    "modest": ("substantial", "large"), "substantial": ("modest",), "slight": ("marked",),
    "marked": ("slight", "modest"), "at least": ("at most",), "at most": ("at least",),
    "up to": ("at least",), "less than": ("more than",), "more than": ("less than",),
}  # fmt: skip
_QUANTIFIER = re.compile(
    r"(?<![\w-])("
    + "|".join(sorted((re.escape(w) for w in _QUANTIFIER_SWAPS), key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)


def swap_quantifier(sentence: str, key: str = "") -> Edit | None:
    """A quantity, frequency or degree word replaced by its opposite or a stronger one: "some
    patients" → "all patients", "rarely" → "often", "partially restored" → "completely
    restored", "a modest reduction" → "a substantial reduction", "at least" → "at most". "most"
    counts only before "of" or a plural noun ("most of the", "most patients"; not "the most
    common"), and a word in a hyphenated compound is left alone."""
    options: list[tuple[re.Match[str], tuple[str, ...]]] = []
    for m in _QUANTIFIER.finditer(sentence):
        word = m.group(1).lower()
        nxt = sentence[m.end() :].lstrip().split(" ", 1)[0].lower().strip(",.;:)")
        if word == "most" and not (nxt == "of" or (nxt.endswith("s") and not nxt.endswith("ss"))):
            continue
        if word == "few" and sentence[: m.start()].rstrip().lower().endswith((" a", "very")):
            continue  # "a few" is its own entry; "very few" would read "very many"
        options.append((m, _QUANTIFIER_SWAPS[word]))
    if not options:
        return None
    m, swaps = options[seeded_hash(key, sentence, "quantifier") % len(options)]
    new = swaps[seeded_hash(key, sentence, m.group(1), "quantifier") % len(swaps)]
    if m.group(1)[0].isupper():
        new = new[0].upper() + new[1:]
    claim = sentence[: m.start()] + new + sentence[m.end() :]
    if len(claim.split()) < 6 or not balanced(claim):
        return None
    return Edit(claim, f"{m.group(1)} -> {new}")


#: What turns a finding about a thing into one about its absence, blocking or removal.
_INVERTING_HEAD = re.compile(
    r"(?:(?<=^)|(?<=\bthat )|(?<=\bwhereas )|(?<=; )|(?<=, ))(?:[Tt]he )?"
    r"(?:[Ll]ack|[Aa]bsence|[Ll]oss|[Dd]eletion|[Dd]epletion|[Ii]nhibition|[Bb]lockade|[Kk]nockdown|[Kk]nockout|[Dd]eficiency"
    r"|[Ss]ilencing|[Ss]uppression|[Ii]nactivation|[Dd]isruption|[Aa]blation|[Rr]emoval"
    r"|[Ww]ithdrawal|[Aa]ntagonism|[Dd]ownregulation) of (?:the )?(?=\w)"
)
_INVERTING_GERUND = re.compile(
    r"^(?:Blocking|Inhibiting|Silencing|Deleting|Depleting|Removing|Knocking (?:down|out)) (?=\w)"
)
_SHORTFALL = re.compile(r"\b(?:insufficient|inadequate) (?=\w)")
_NEITHER_NOR = re.compile(r"\b([Nn])either ((?:\S+ ){0,5}?\S+) nor ")


def drop_inverter(sentence: str, key: str = "") -> Edit | None:
    """What inverts a finding dropped, so the claim says the opposite of the sentence while
    quoting it: the head of a nominal that names a thing's absence, blocking or removal ("Lack
    of exercise increased falls" → "Exercise increased falls", "Inhibition of mTOR prevented"
    → "mTOR prevented"), a sentence's leading gerund ("Blocking TNF reduced" → "TNF reduced"),
    a shortfall ("insufficient evidence that" → "evidence that"), or "neither A nor B" made "A
    and B". Heads are cut at the sentence's start or after "that", "whereas", a comma or a
    semicolon, where what is left still reads as a sentence."""
    options: list[tuple[str, str]] = []
    for pattern in (_INVERTING_HEAD, _INVERTING_GERUND, _SHORTFALL):
        for m in pattern.finditer(sentence):
            if sentence[: m.start()].rstrip().endswith((" or", " and")):
                continue  # "missing or inadequate radiographs": one of a pair
            rest = sentence[m.end() :]
            if m.start() == 0:
                rest = rest[:1].upper() + rest[1:]
            options.append((sentence[: m.start()] + rest, f"-{m.group().strip()}"))
    for m in _NEITHER_NOR.finditer(sentence):
        first = m.group(2)
        if m.start() == 0:
            first = first[:1].upper() + first[1:]
        new = f"{first} and "
        claim = sentence[: m.start()] + new + sentence[m.end() :]
        options.append((claim, f"{m.group().strip()} -> {new.strip()}"))
    return _pick_claim(options, key, sentence, "inverter")


#: A head under which what follows "that" is not asserted: denied, doubted, supposed or asked.
_FRAME_HEAD = re.compile(
    r"\b(?:no|not|never|failed|fails?|unable|cannot|unlikely|unclear|unknown|uncertain"
    r"|controversial|debated|hypothes[ie][sz]\w*|speculat\w+|postulat\w+|believed|assumed"
    r"|presumed|myth|belief|contrary|refuted|disproved|questioned|tested|test"
    r"|investigated|examined|asked|aimed)\b",
    re.IGNORECASE,
)
_COMPLEMENT = re.compile(r"\b(that|whether) (?=\w)")
_BACKED = re.compile(r"\b(?:support\w*|confirm\w*|consistent with)\b", re.IGNORECASE)
_DENIED = re.compile(r"\b(?:no|not|never|failed|unable|cannot)\b", re.IGNORECASE)
_UNSETTLED = re.compile(
    r"\b(?:remains?|is|are|was|were|has been|have been) (?:still )?(?:unknown|unclear|uncertain"
    r"|debated|controversial|not (?:known|clear|understood))\b"
)


def lift_from_frame(sentence: str, key: str = "") -> Edit | None:
    """What the sentence does not assert, quoted as a finding: the complement of a head that
    denies, doubts, supposes or asks it ("There is no evidence that vitamin C prevents colds" →
    "Vitamin C prevents colds", "It remains unclear whether aspirin reduces the risk" → "Aspirin
    reduces the risk", "We tested the hypothesis that …", "We investigated whether …"). The
    head is the sentence from its last clause mark to "that" or "whether", two words or more,
    the denying or doubting word among its last five; "whether" needs no other word (but not
    "regardless of whether"). The complement ends where a main clause starts (", we …")."""
    options: list[tuple[str, str]] = []
    for m in _COMPLEMENT.finditer(sentence):
        head = re.split(r"[,;:]", sentence[: m.start()])[-1]
        near = " ".join(head.split()[-5:])
        if m.group(1) == "that" and not _FRAME_HEAD.search(near):
            continue
        if _BACKED.search(near) and not _DENIED.search(near):
            continue  # "evidence strongly supporting the hypothesis that X" asserts X
        if len(head.split()) < 2 or re.search(r"(?:regardless|irrespective) of$", head.strip()):
            continue  # "but whether X is unclear": the complement is the subject
        rest = sentence[m.end() :]
        if _UNSETTLED.search(rest):
            continue  # "… and whether X remains unknown": the claim would carry the frame
        # "To test whether X, we measured …": X ends where the main clause starts.
        rest = re.split(r", (?:we|and we|our|this|these)\b", rest)[0].rstrip(".") + "."
        first = rest.split(" ", 1)[0]
        if first.isalpha() and first.islower():
            rest = rest[:1].upper() + rest[1:]
        options.append((rest, f"-{head.strip()} {m.group(1)}"))
    return _pick_claim(options, key, sentence, "frame")


#: What restricts a finding to some of those it could apply to, which a summary may drop: a
#: co-intervention, a dose or an intensity, a population named in the lead-in, a subgroup.
_CO_INTERVENTION = re.compile(
    r" (?:in combination with|combined with|plus|together with|co-administered with)"
    r" [^,;()]{2,40}?(?= (?:\w+ed|was|were|is|are|has|had)\b)"
)
_DOSE = re.compile(r"\b(?:[Hh]igh|[Ll]ow)-(?:dose|intensity) (?=\w)")
_LEAD_POPULATION = re.compile(
    r"^(?:Among|In) (?:[\w-]+ ){0,4}?(?:patients|participants|subjects|women|men|children"
    r"|adults|smokers|individuals|users|survivors|infants|adolescents)\b[^,;()]{0,60}, "
)
_SUBGROUP = re.compile(r"(?<= in )(?:a|the) subgroup of (?=\w)")


def drop_restriction(sentence: str, key: str = "") -> Edit | None:
    """The finding without what restricts it, by a deletion a reader of copies takes for a
    compression: a co-intervention ("Metformin in combination with insulin reduced" →
    "Metformin reduced"), a dose or an intensity ("High-dose vitamin D" → "Vitamin D"), the
    population of a lead-in ("Among smokers, the intervention reduced" → "The intervention
    reduced") or a subgroup ("in a subgroup of patients" → "in patients")."""
    options: list[tuple[str, str]] = []
    for pattern in (_CO_INTERVENTION, _DOSE, _LEAD_POPULATION, _SUBGROUP):
        for m in pattern.finditer(sentence):
            if re.match(r"(?:Among|In) all\b", m.group()):
                continue  # "In all participants," restricts nothing
            rest = sentence[m.end() :]
            if m.start() == 0:
                rest = rest[:1].upper() + rest[1:]
            options.append((sentence[: m.start()] + rest, f"-{m.group().strip(', ')}"))
    return _pick_claim(options, key, sentence, "restriction")


#: What bounds a figure from one side, right before it: "over 50%", "less than 5%", "at least
#: 3". Not "over" before a span of time ("over 12 weeks": during, not more than).
_BOUND = re.compile(
    r"\b(?:[Ll]ess than|[Mm]ore than|[Ff]ewer than|[Gg]reater than|[Aa]t least|[Aa]t most"
    r"|[Uu]p to|[Oo]ver|[Uu]nder|[Bb]elow|[Aa]bove|[Nn]early|[Aa]lmost|[Ee]xceeding) (?=\d)"
    r"(?![\d.,]+(?:-| )(?:days?|weeks?|months?|years?|hours?|decades?|minutes?|h|d|wk|y)\b)"
)


#: A comparison sign right before a figure, after a space, a bracket or the sentence's start:
#: "(<5%)", "aged ≥65 years". The sign is no word, so a reader of words misses it.
_BOUND_SIGN = re.compile(r"(?:(?<=[\s(\[])|^)[<>≤≥] ?(?=\d)")
#: A P value's sign: "p<0.05", "P > .001".
_P_SIGN = re.compile(r"(?<=\b[Pp]) ?[<>≤≥] ?(?=0?\.\d)")


def drop_bound(sentence: str, key: str = "") -> Edit | None:
    """A figure without what bounds it, by a deletion a reader of copies takes for a
    compression: "in over 50% of patients" → "in 50% of patients", "less than 5%" → "5%",
    "at least 3 episodes" → "3 episodes", "(<5%)" → "(5%)", or a P value's sign made "="
    ("p<0.05" → "p = 0.05"): the claim states a figure the sentence does not."""
    options: list[tuple[str, str]] = []
    for pattern in (_BOUND, _BOUND_SIGN):
        for m in pattern.finditer(sentence):
            rest = sentence[m.end() :]
            options.append((sentence[: m.start()] + rest, f"-{m.group().strip()}"))
    for m in _P_SIGN.finditer(sentence):
        claim = sentence[: m.start()] + " = " + sentence[m.end() :]
        options.append((claim, f"{m.group().strip()} -> ="))
    return _pick_claim(options, key, sentence, "bound")


#: A decimal written without its leading zero (".001" after a space, a bracket or a comparison:
#: "P < .001", "P=.04", "(.85"); not after a letter, a digit or a closing bracket (a footnote).
_LEADING_DOT = re.compile(r"(?:(?<=[\s(\[=<>≤≥±])|^)\.(\d+)\b(?![.,·]\d)")
#: A middle dot for the decimal point ("2·9", the Lancet's style).
_MIDDLE_DOT = re.compile(r"(?<![\d.,·])\d+·\d+(?![\d.,·])")
#: Thousands grouped by spaces ("671 945", "10 000"; a no-break or thin space too), after a
#: space, a bracket or a comparison and not before another digit, dot or comma.
_SPACE_GROUPS = re.compile(
    r"(?:(?<=[\s(\[=<>≤≥±~])|^)\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?![\d.,·])"
)


def _figures_written_apart(sentence: str) -> list[tuple[re.Match[str], str]]:
    """The figures of ``sentence`` in a format that word segmentation splits, each with the
    same figure in the common format: ".001" → "0.001", "2·9" → "2.9", "671 945" →
    "671,945". Not inside a citation marker."""
    found = [
        *((m, "0" + m.group()) for m in _LEADING_DOT.finditer(sentence)),
        *((m, m.group().replace("·", ".")) for m in _MIDDLE_DOT.finditer(sentence)),
        *((m, re.sub(r"\s", ",", m.group())) for m in _SPACE_GROUPS.finditer(sentence)),
    ]
    return [(m, new) for m, new in found if not _in_citation(sentence, m.start())]


def rewrite_number_format(sentence: str, key: str = "") -> Edit | None:
    """A faithful restatement: one figure written in the common format ("P < .001" → "P <
    0.001", "2·9 years" → "2.9 years", "671 945 women" → "671,945 women"), as a writer who
    copies a Lancet or JAMA abstract does: the same figure, so a positive."""
    options = [
        (sentence[: m.start()] + new + sentence[m.end() :], f"{m.group()} -> {new}")
        for m, new in _figures_written_apart(sentence)
    ]
    return _pick_claim(options, key, sentence, "format")


def shift_decimal(sentence: str, key: str = "") -> Edit | None:
    """A decimal without its leading zero given one zero more or fewer, in the same style
    (".001" → ".01", ".04" → ".004"): a P value or a coefficient misreported by a factor of
    ten. Word segmentation reads both as the same whole number ("001", "01")."""
    options = []
    for m in _LEADING_DOT.finditer(sentence):
        if _in_citation(sentence, m.start()):
            continue
        digits = m.group(1)
        new = "." + (digits[1:] if digits.startswith("0") and len(digits) > 1 else "0" + digits)
        options.append((sentence[: m.start()] + new + sentence[m.end() :], f"{m.group()} -> {new}"))
    return _pick_claim(options, key, sentence, "shift")


#: A minus sign before a figure, where a figure may stand: at the start, after a space, a
#: bracket, a comparison or a list mark ("−1.5", "(-0.3", "r = -0.45"); not "IL-6" or "5-10".
_NEGATIVE_FIGURE = re.compile(r"(?:^|(?<=[\s(\[=:;,<>\u2264\u2265]))[\-\u2212](?=\.?\d)")
#: A sign written right after a name: a genotype's "−/−", "+/+" or "+/−", or a "+" or "−" (a
#: hyphen-minus only before a space or a closing mark: "CD4- T cells"), then no letter or digit.
_NAME_SIGN = re.compile(
    r"(?<=[A-Za-z0-9])(?:[+\-\u2212]/[+\-\u2212]|[+\u2212](?![\w])|-(?=[\s,;:)\]]))"
)
_FLIPPED = {"+": "-", "-": "+"}


def flip_sign(sentence: str, key: str = "") -> Edit | None:
    """A detail changed: a figure copied without its minus sign ("a change of −2.3 mmHg" → "a
    change of 2.3 mmHg", "r = −0.45" → "r = 0.45"), or a name's sign flipped ("CD4+ T cells" →
    "CD4− T cells", "Apoe−/− mice" → "Apoe+/+ mice"): the opposite effect, marker or genotype,
    which word segmentation does not see (it drops both signs)."""
    minus = "\u2212" if "\u2212" in sentence else "-"
    options = []
    for m in _NEGATIVE_FIGURE.finditer(sentence):
        if _in_citation(sentence, m.start()):
            continue
        figure = re.match(r"[\-\u2212][\d.,]*\d", sentence[m.start() :])
        if figure is not None:
            shown = figure.group()
            options.append((sentence[: m.start()] + sentence[m.end() :], f"{shown} -> {shown[1:]}"))
    for m in _NAME_SIGN.finditer(sentence):
        word = re.search(r"[\w]+$", sentence[: m.start()])
        if word is None or word.group().isdigit() or _in_citation(sentence, m.start()):
            continue  # "10+ years" is a bound
        signs = m.group().replace("\u2212", "-")
        flipped = "/".join(_FLIPPED[ch] for ch in signs.split("/"))
        if signs == "+/-":
            flipped = "+/+"
        new = flipped.replace("-", minus)
        options.append(
            (
                sentence[: m.start()] + new + sentence[m.end() :],
                f"{word.group()}{m.group()} -> {word.group()}{new}",
            )
        )
    return _pick_claim(options, key, sentence, "sign")


#: A bound before a figure, as a sign or in words, and the figure with one word of its unit
#: ("≥65 years", "at least 3 months", "≤5%").
_BOUND_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?P<gt>\u2265|>=|\u2a7e)|(?P<gtw>\bat least )"
    r"|(?<![A-Za-z])(?P<lt>\u2264|<=|\u2a7d)|(?P<ltw>\bat most ))\s*"
    r"(?P<figure>\d+(?:,\d{3})*(?:[.\u00b7]\d+)?)(?P<unit>\s*%|\s+(?!(?:and|or|to|vs)\b)[a-z]+)?"
    r"(?![\w.\u00b7\-/])"
)
#: A bound written after a figure and up to two words of its unit ("65 years or older", "5 or
#: more").
_BOUND_AFTER = re.compile(
    r"(?<=\d)(?:\s*%|(?:\s+[a-z]+){0,2})(?P<bound> (?:or|and) (?:older|more|greater|above|over"
    r"|higher|younger|less|fewer|below|under|lower))\b"
)
_FOLD_DIGITS = re.compile(r"(?<![\w.\u00b7])([2-9]|10)-fold\b")
_FOLD_NAMES = "two three four five six seven eight nine ten".split()  # noqa: SIM905


def write_bound_after(sentence: str, key: str = "") -> Edit | None:
    """A faithful restatement: a figure's bound written after it ("aged ≥65 years" → "aged 65
    years or older", "at least 3 months" → "3 months or more", "≤5%" → "5% or less"): the same
    bound, so a positive."""
    options = []
    for m in _BOUND_BEFORE.finditer(sentence):
        if _in_citation(sentence, m.start()):
            continue
        aged = re.search(r"\bage[sd]?\s*$", sentence[: m.start()]) is not None
        upper = m.group("gt") is not None or m.group("gtw") is not None
        words = (
            ("or older" if upper else "or younger") if aged else ("or more" if upper else "or less")
        )
        new = f"{m.group('figure')}{m.group('unit') or ''} {words}"
        options.append((sentence[: m.start()] + new + sentence[m.end() :], f"{m.group()} -> {new}"))
    return _pick_claim(options, key, sentence, "bound-after")


def drop_bound_after(sentence: str, key: str = "") -> Edit | None:
    """A detail changed: a bound written after its figure dropped ("aged 65 years or older" →
    "aged 65 years", "5 or more tablets" → "5 tablets"): the figure is now exact."""
    options = []
    for m in _BOUND_AFTER.finditer(sentence):
        if _in_citation(sentence, m.start()):
            continue
        start, end = m.span("bound")
        options.append((sentence[:start] + sentence[end:], f"{m.group('bound').strip()} dropped"))
    return _pick_claim(options, key, sentence, "bound-after-dropped")


_FOLD_IN_WORDS = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten)[- ]?fold\b", re.IGNORECASE
)


def write_fold(sentence: str, key: str = "") -> Edit | None:
    """A faithful restatement: a fold change written in words, or in figures ("a 2-fold
    increase" → "a twofold increase", "a threefold rise" → "a 3-fold rise"): the same figure,
    so a positive."""
    options = []
    for m in _FOLD_DIGITS.finditer(sentence):
        new = _FOLD_NAMES[int(m.group(1)) - 2] + "fold"
        options.append((sentence[: m.start()] + new + sentence[m.end() :], f"{m.group()} -> {new}"))
    for m in _FOLD_IN_WORDS.finditer(sentence):
        new = f"{_FOLD_NAMES.index(m.group(1).lower()) + 2}-fold"
        options.append((sentence[: m.start()] + new + sentence[m.end() :], f"{m.group()} -> {new}"))
    return _pick_claim(options, key, sentence, "fold")


#: A verb and "not" that a contraction writes as one word ("did not" → "didn't"), and "cannot".
_CONTRACTIBLE = re.compile(
    r"\b(is|are|was|were|do|does|did|has|have|had|could|would|should|need) not\b|\b(can)not\b"
    r"|\b(will) not\b",
    re.IGNORECASE,
)
_IRREGULAR_CONTRACTIONS = {"can": "can't", "will": "won't"}


def contract(sentence: str, key: str = "") -> Edit | None:
    """A faithful restatement: one verb and "not" written as a contraction ("did not differ" →
    "didn't differ", "cannot" → "can't", "will not" → "won't"), as a writer of an informal
    summary does: the same words, so a positive."""
    options = []
    for m in _CONTRACTIBLE.finditer(sentence):
        verb = next(g for g in m.groups() if g is not None)
        written = _IRREGULAR_CONTRACTIONS.get(verb.lower(), verb.lower() + "n't")
        written = _cased(verb, written)
        options.append(
            (sentence[: m.start()] + written + sentence[m.end() :], f"{m.group()} -> {written}")
        )
    return _pick_claim(options, key, sentence, "contract")


#: A British "-ise" or "-yse" ending: left alone by :func:`respell`, as the rule that writes it
#: "-ize" also rewrites words spelt "-ise" in American English ("exercise", "advise").
_ISE_ENDING = re.compile(r"(?:is|ys)(?:e|ed|es|ing|ation|ations|er|ers)$")


def respell(sentence: str, key: str = "") -> Edit | None:
    """A faithful restatement: one word with a British spelling written the American way
    ("haemorrhage" → "hemorrhage", "tumours" → "tumors", "centre" → "center") or a Greek
    letter written as its name ("IL-1β" → "IL-1beta"), as a summary in American English does:
    the same words, so a positive. Not an "-ise" word (some are "-ise" in American English)."""
    options = []
    for surface, start, end in segments(sentence):
        low = surface.lower()
        written = american(low)
        if written == low or _ISE_ENDING.search(low) or low.startswith("haemophil"):
            continue  # "Haemophilus", a genus, keeps its spelling in American English
        if low.isascii() and surface[:1].isupper() and start > 0:
            continue  # a name ("Medical Research Centre") keeps its spelling
        # a Greek letter inside a name: spell the letter, keep the rest as written
        new = _cased(surface, written) if low.isascii() else greek_named(surface)
        options.append((sentence[:start] + new + sentence[end:], f"{surface} -> {new}"))
    return _pick_claim(options, key, sentence, "respell")


#: A word of two parts joined by one hyphen, each two letters or more, lowercase after a first
#: capital ("non-small", "Wild-type"): a digit or a capital inside makes it a name ("IL-6",
#: "K-ras", "COVID-19"), which keeps its hyphen.
_HYPHENED = re.compile(r"(?<![\w\-\u2010\u2011])([A-Za-z][a-z]+)-([a-z]{2,})(?![\w\-\u2010\u2011])")


def recompound(sentence: str, attested: Callable[[str], bool], key: str = "") -> Edit | None:
    """A faithful restatement: one hyphened word written as one word, as the corpus also writes
    it ("non-small" → "nonsmall", "over-expression" → "overexpression", "wild-type" →
    "wildtype"): the same word, so a positive. Only a closed form ``attested`` (lowercase) says
    the corpus uses, so never "dose-dependent" → "dosedependent"."""
    options = []
    for m in _HYPHENED.finditer(sentence):
        closed = m.group(1) + m.group(2)
        if attested(closed.lower()):
            options.append(
                (sentence[: m.start()] + closed + sentence[m.end() :], f"{m.group()} -> {closed}")
            )
    return _pick_claim(options, key, sentence, "recompound")


#: A name made a possessive before what is named after it ("Alzheimer's disease", "Hodgkin's
#: lymphoma", "Kaposi's sarcoma"): an eponym.
_EPONYM = re.compile(
    r"\b([A-Z][a-z]{2,})['\u2019]s (?=(?:disease|diseases|syndrome|lymphoma|sarcoma|disorder"
    r"|palsy|ataxia|encephalopathy|leuka?emia|ana?emia|carcinoma|tumou?r|test|criteria"
    r"|classification|phenomenon|sign)\b)"
)


def drop_eponym_possessive(sentence: str, key: str = "") -> Edit | None:
    """A faithful restatement: an eponym written without its possessive, as most medical style
    guides now write it ("Alzheimer's disease" → "Alzheimer disease", "Hodgkin's lymphoma" →
    "Hodgkin lymphoma"): the same name, so a positive."""
    options = []
    for m in _EPONYM.finditer(sentence):
        name = m.group(1)
        options.append(
            (sentence[: m.start()] + name + " " + sentence[m.end() :], f"{name}'s -> {name}")
        )
    return _pick_claim(options, key, sentence, "eponym")


#: "N1 of N2" that a faithful rewording writes "N2 N1" ("expression of IL-6" → "IL-6
#: expression"): a head noun of four letters or more, "of", one word (a name, or a noun of four
#: letters or more), then a word that ends the phrase — never "and", "or" or a comma, which
#: would make N2 the first of a list.
_OF_PHRASE = re.compile(
    r"\b([A-Za-z][a-z]{3,}) of ([A-Za-z][\w-]*[\w])(?= (?:in|was|were|is|are|has|have|had|by"
    r"|after|during|at|from|with|for|to|on|than|that|which|between|among|but|did|does|could"
    r"|may|might|can|remained|increased|decreased|improved|declined|rose|fell)\b|[.;](?:\s|$))"
)
#: Heads whose "of" phrase is a part or a share, not a kind ("number of patients" is no
#: "patients number"), an inverting head (left to ``dropped_inverter``) or an idiom ("in spite
#: of").
_PARTITIVES = frozenset(
    {"number", "numbers", "majority", "minority", "proportion", "proportions", "percentage",
     "percentages", "fraction", "half", "part", "parts", "portion", "amount", "amounts",
     "total", "series", "range", "subset", "subgroup", "group", "groups", "cohort", "sample",
     "samples", "population", "populations", "none", "each", "both", "most", "many", "some",
     "presence", "absence", "lack", "loss", "years", "months", "weeks", "days", "hours",
     "this", "that", "these", "those", "terms", "means", "because", "instead",
     "course", "case", "cases", "result", "results", "end", "onset", "time", "period",
     "spite", "view", "light", "addition", "front", "place", "favor", "favour", "behalf",
     "account", "order", "regardless"}
)  # fmt: skip


def invert_modifier(sentence: str, key: str = "") -> Edit | None:
    """A faithful rewording: a noun with an "of" phrase written as a compound, "expression of
    IL-6" → "IL-6 expression", "risk of cancer" → "cancer risk" (a positive: the roles are the
    same). Not a part or a share ("number of patients"), not the first of a list ("expression
    of IL-6 and TNF")."""
    options: list[tuple[str, str]] = []
    for m in _OF_PHRASE.finditer(sentence):
        head, noun = m.group(1), m.group(2)
        if head.lower() in _PARTITIVES or head.lower() in STOPWORDS:
            continue
        if noun.lower() in STOPWORDS or (noun.isalpha() and noun.islower() and len(noun) < 4):
            continue
        if noun.lower() in _PARTITIVES:
            continue
        compound = f"{noun} {head.lower()}"
        if m.start() == 0:
            compound = compound[:1].upper() + compound[1:]
        claim = sentence[: m.start()] + compound + sentence[m.end() :]
        options.append((claim, f"{m.group()} -> {compound}"))
    return _pick_claim(options, key, sentence, "modifier")


_HAVE = frozenset({"has", "have", "had"})


def _article_for(match: re.Match[str], word: str) -> str:
    """ "a"/"an" (in the match's case) agreeing with ``word``: "an increased" → "a decreased"."""
    return match.group(1) + ("n " if word[:1].lower() in "aeiou" else " ")


def flip_polarity(sentence: str) -> tuple[str, Edit] | None:
    """The seed's negation flip, sorted into ``negation_flip`` (a "not" added or removed) or
    ``direction_flip`` (a direction word reversed); ungrammatical results are dropped."""
    edited = adv.negation_flip(sentence)
    if edited is None or edited == sentence:
        return None
    a, b = sentence.split(), edited.split()
    ops = [
        o
        for o in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
        if o[0] != "equal"
    ]
    if len(ops) != 1:
        return None
    op, i1, i2, j1, j2 = ops[0]
    detail = word_diff(sentence, edited)
    if op == "insert" and b[j1:j2] == ["not"]:
        after = b[j2] if j2 < len(b) else ""
        if any(is_negation(w.core.lower()) for w in words(sentence)):
            return None  # "No differences were not observed": a double negative
        if a[i1 - 1].lower() in _HAVE and not re.search(r"(ed|en|been|shown)$", after):
            return None  # "have not higher": "have" was a main verb
        return "negation_flip", Edit(edited, detail)
    if op == "delete" and a[i1:i2] in (["not"], ["never"]):
        if i2 < len(a) and a[i2].lower() in {"only", "just", "all", "always"}:
            return None  # "not only A but B"
        return "negation_flip", Edit(edited, detail)
    if op == "replace" and i2 - i1 == 1 and direction_of(b[j1].lower().strip(".,;:")):
        new = re.escape(b[j1].strip(".,;:"))
        fixed = re.sub(r"\b([Aa])n? (?=" + new + r"\b)", lambda m: _article_for(m, b[j1]), edited)
        return "direction_flip", Edit(fixed, detail)
    return None


# --------------------------------------------------------------------------- positives

_CUTS = re.compile(
    r"(; |, (?:which|whereas|while|but|although|though|suggesting|indicating|thereby|thus|"
    r"whereby|resulting in|leading to) |, and (?=(?:\S+ ){0,4}(?:is|are|was|were|has|have|had|"
    r"did|does|could|can|may|might|would|will|should)\b))"
)
_SUBORDINATE_START = re.compile(
    r"^(Although|Though|While|Whereas|When|Whenever|If|Unless|Because|Since|As|After|Before|"
    r"Despite|Given|To|In order|Compared|Unlike|Once|Upon|By|Using|Following|Based|Because of|"
    r"Whether|Until)\b"
)
_FINITE = frozenset(
    {
        "is", "are", "was", "were", "has", "have", "had", "did", "does", "do", "can", "could",
        "may", "might", "will", "would", "should", "must", "show", "shows", "suggest", "suggests",
        "indicate", "indicates", "remain", "remains", "appear", "appears", "bind", "binds",
        "contain", "contains", "play", "plays", "represent", "represents", "occur", "occurs",
        "exist", "exists", "act", "acts", "depend", "depends", "correlate", "correlates", "encode",
        "encodes", "exhibit", "exhibits", "display", "displays", "involve", "involves", "lack",
        "lacks", "confer", "confers", "reveal", "reveals", "demonstrate", "demonstrates", "provide",
        "provides", "lead", "leads", "cause", "causes", "affect", "affects", "predict", "predicts",
        "require", "requires", "regulate", "regulates", "mediate", "mediates"
    }
)  # fmt: skip


def _has_verb(clause: str) -> bool:
    """A finite verb after the first word: an auxiliary, a common verb, or a past form that
    no determiner precedes ("the treated group" is no verb)."""
    lows = [w.core.lower() for w in words(clause)]
    for k in range(1, len(lows)):
        word = lows[k]
        if word in _FINITE or _directed_verb_word(word):
            return True
        if (
            word.isalpha()
            and word.endswith("ed")
            and len(word) > 4
            and lows[k - 1] not in _DETERMINERS
        ):
            return True
    return False


def balanced(text: str) -> bool:
    return text.count("(") == text.count(")") and text.count("[") == text.count("]")


def first_clause(sentence: str) -> Edit | None:
    """The first main clause of a sentence that goes on (cut before "; ", ", which", ", while",
    ", and <subject> <verb>" ...), kept only when it has a verb and at least six words."""
    if _SUBORDINATE_START.match(sentence):
        return None
    for match in _CUTS.finditer(sentence):
        head = sentence[: match.start()].rstrip()
        rest = sentence[match.end() :]
        if not balanced(head) or len(head.split()) < 6 or len(rest.split()) < 3 or ":" in head:
            continue
        if "not only" in head or (match.group(1).startswith(", and") and "," in head):
            continue  # "not only A, but B"; "A, B, and C" (a list, not two clauses)
        if not _has_verb(head):
            continue
        return Edit(head + ".", f"cut before '{match.group(1).strip()}'")
    return None


_PARENTHETICAL = re.compile(r" \(([^()]{1,120})\)")
_RELATIVE = re.compile(r", (?:which|who|whose) [^,;()]{3,120}, ")
_LEAD_IN = re.compile(
    r"^(?:(?:In conclusion|In summary|Moreover|Furthermore|Additionally|In addition|Importantly|"
    r"Notably|Overall|Collectively|Taken together|Together|Thus|Therefore|Consequently|However|"
    r"Interestingly|Finally|Specifically|Similarly|Conversely|Accordingly|Here|Hence),? )?"
    r"(?:(?:[Ww]e|[Oo]ur (?:results|data|findings)) (?:show|showed|demonstrate|demonstrated|"
    r"found|find|report|observed|conclude|concluded|suggest|suggested|indicate|indicated) that )?"
)
_HEDGES = re.compile(r"\b(not|no|ns|n\.s\.|only|except|unless|but)\b", re.IGNORECASE)


def _drops(sentence: str) -> list[tuple[str, str]]:
    out = []
    for match in _PARENTHETICAL.finditer(sentence):
        if not _HEDGES.search(match.group(1)):
            out.append(
                (
                    sentence[: match.start()] + sentence[match.end() :],
                    f"dropped '{match.group()[1:]}'",
                )
            )
    for match in _RELATIVE.finditer(sentence):
        if not _HEDGES.search(match.group()):
            kept = sentence[: match.start()] + " " + sentence[match.end() :]
            out.append((kept, f"dropped '{match.group()[2:-2]}'"))
    lead = _LEAD_IN.match(sentence)
    if (
        lead
        and lead.end() > 0
        and not (lead.group().endswith("that ") and " and that " in sentence)
    ):
        rest = sentence[lead.end() :]
        first = rest.split(" ", 1)[0]
        if first.isalpha() and first.islower():  # "p53", "mRNA" keep their case
            rest = rest[:1].upper() + rest[1:]
        out.append((rest, f"dropped '{lead.group().strip()}'"))
    return out


def compress(sentence: str, key: str = "") -> Edit | None:
    """Drop one parenthetical, one ", which ...," clause or a lead-in ("Moreover, we found that")
    from ``sentence``; none that hedges ("(not significant)") is dropped."""
    options = [(c, d) for c, d in _drops(sentence) if len(c.split()) >= 5 and balanced(c)]
    if not options:
        return None
    claim, detail = options[seeded_hash(key, sentence, "compress") % len(options)]
    return Edit(claim, detail)
