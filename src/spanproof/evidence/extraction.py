"""Extraction (SPEC §5.1): findings with quotations, never offsets; code locates the quotations.

Two proposers give the same :class:`Finding`: the LLM (:data:`EXTRACTION_SYSTEM_PROMPT`,
:func:`build_extraction_messages`, :func:`parse_findings`) and the rule-based
:func:`extract_findings`. :func:`locate` finds each quotation in its section (ignoring
whitespace) and computes offsets; a quotation not found is a defect before any record exists.

Rule-based extractor (``rules-extract-v1``): a sentence is result-bearing when it has an outcome
cue (a direction word from :mod:`spanproof.verify.gates`, an association word, or "difference",
"effect", "change") and either sits in a Results section or carries a statistical signal
(p-value, confidence interval, effect size, percentage, comparison, "significant"). Sections
titled as background, methods or objectives are skipped. Fields come from the sentence: the
subject is the phrase before the outcome cue (or after "by"/"with" in the passive), the endpoint
the phrase after it (or before it in the passive); direction from negation and direction cues;
treatment from dose patterns; scope from population and subgroup words. Species comes from the
sentence or, failing that, from the first sentence of the document that names one, which is then
quoted too so the checker sees it. Limits: no parser, so long or nested sentences give rough
subjects and endpoints; a finding without a species keeps ``species`` empty and fails the gate.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import InvalidInputError
from spanproof.core.ports import ChatMessage
from spanproof.core.records import DIRECTIONS, Quotation, Record, RecordFields
from spanproof.core.replies import load_json_reply
from spanproof.evidence.checker import (
    ASSOCIATION_PREFIXES,
    IN_VITRO_RE,
    POPULATION,
    QUANTIFIERS,
    SPECIES_LEXICON,
    polarity,
    species_classes,
    species_modifier,
)
from spanproof.text.quotes import find_quotation
from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import lower_chars, segments
from spanproof.verify.gates import direction_of

RULES_MODEL_ID = "rules-extract-v1"


@dataclass(frozen=True, slots=True)
class QuotedText:
    """A quotation as proposed: its section key and text, no offsets."""

    section_key: str
    text: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A proposed finding: statement, quotations (text only) and the record fields."""

    statement: str
    quotations: tuple[QuotedText, ...]
    fields: RecordFields
    score: float = 0.0


# --------------------------------------------------------------------------- rule-based

_P_VALUE = re.compile(r"\b[pP]\s*[<>=≤≥]\s*0?\.\d")
_CI = re.compile(r"\b95\s*%\s*CI\b|confidence interval", re.IGNORECASE)
_EFFECT = re.compile(
    r"\b(?:a?OR|a?HR|RR|IRR|SMD)\b\s*[=:,]?\s*\d|odds ratio|hazard ratio|relative risk|"
    r"risk ratio|\d\s*%",
    re.IGNORECASE,
)
_COMPARISON = re.compile(
    r"\b(?:compared (?:with|to)|than|versus|vs\.?|relative to|significant(?:ly)?)\b",
    re.IGNORECASE,
)
_DOSE = re.compile(
    r"\d+(?:\.\d+)?\s*(?:mg|g|µg|μg|ug|ng|mL|ml|mmol|µmol|μmol|mM|µM|μM|nM|IU|units?|Gy)"
    r"(?:\s*/\s*(?:kg|m2|m²|day|d|L|mL|h))*(?:\s+(?:of\s+)?[a-z][\w-]*)?"
)
_SKIP_TITLES = re.compile(
    r"^(?:title|background|introduction|methods?|materials|objectives?|aims?|purpose|design)",
    re.IGNORECASE,
)
_RESULTS_TITLE = re.compile(r"result|finding|conclusion", re.IGNORECASE)
_OUTCOME_WORDS = frozenset(
    {"difference", "differences", "differ", "differed", "effect", "effects", "change",
     "changes", "changed", "unchanged", "similar"}
)  # fmt: skip
_AUX = frozenset(
    {"was", "were", "is", "are", "be", "been", "being", "had", "has", "have", "did", "does",
     "do", "not", "no", "significantly", "markedly", "strongly", "substantially", "greatly",
     "also", "further", "both", "showed", "show", "shows", "exhibited", "displayed", "caused",
     "led", "resulted", "to", "a", "an", "the", "failed", "fail", "fails", "statistically",
     "slightly", "dramatically", "consistently", "independently", "positively", "negatively",
     "inversely", "directly", "highly", "there"}
)  # fmt: skip
_PHRASE_STOPS = frozenset(
    {"in", "by", "compared", "than", "versus", "vs", "among", "after", "with", "from",
     "between", "at", "during", "when", "while", "whereas", "but", "and", "or", "for",
     "following", "relative", "across", "over", "within", "which", "that", "p"}
)  # fmt: skip
_LEADING = frozenset(
    {"in", "however", "overall", "moreover", "furthermore", "finally", "additionally", "thus",
     "the", "a", "an", "we", "found", "that", "observed", "showed", "show", "results",
     "these", "our", "compared", "importantly", "notably", "conversely", "similarly", "also"}
)  # fmt: skip
_MAX_PHRASE = 8


def _is_cue(token: str) -> bool:
    return (
        direction_of(token) is not None
        or token.startswith(ASSOCIATION_PREFIXES)
        or token in _OUTCOME_WORDS
    )


def _signals(sentence: str) -> int:
    return sum(1 for rx in (_P_VALUE, _CI, _EFFECT, _COMPARISON) if rx.search(sentence) is not None)


def _direction(sentence: str) -> str:
    pol = polarity(sentence)
    if pol.negated:
        return "no_effect"
    if len(pol.directions) == 1:
        return next(iter(pol.directions))
    if pol.directions:
        return "increase" if _first_direction(sentence) == "increase" else "decrease"
    return "association" if pol.association else "none"


def _first_direction(sentence: str) -> str:
    for surface, _, _ in segments(sentence):
        cls = direction_of(lower_chars(surface))
        if cls is not None:
            return "increase" if cls in ("up", "better") else "decrease"
    return "none"


Word = tuple[str, int, int]


def _broken(text: str, left: Word, right: Word, marks: str = ",;:()[]") -> bool:
    """Whether punctuation separates two adjacent words."""
    return any(ch in marks for ch in text[left[2] : right[1]])


def _forward(text: str, words: list[Word], start: int) -> str:
    """The phrase from ``words[start]`` up to a stop word or punctuation."""
    picked: list[Word] = []
    for i in range(start, min(len(words), start + _MAX_PHRASE)):
        if picked and (
            lower_chars(words[i][0]) in _PHRASE_STOPS or _broken(text, words[i - 1], words[i])
        ):
            break
        if not picked and lower_chars(words[i][0]) in _AUX | _PHRASE_STOPS:
            continue
        picked.append(words[i])
    return text[picked[0][1] : picked[-1][2]] if picked else ""


def _backward(text: str, words: list[Word], end: int) -> str:
    """The phrase ending before ``words[end]``: leading discourse and trailing verbs cut."""
    picked = list(words[max(0, end - _MAX_PHRASE) : end])
    for i in range(len(picked) - 1, 0, -1):
        if (
            _broken(text, picked[i - 1], picked[i], ",;:")
            or lower_chars(picked[i - 1][0]) == "that"
        ):
            picked = picked[i:]
            break
    while picked and lower_chars(picked[-1][0]) in _AUX:
        picked.pop()
    while picked and lower_chars(picked[0][0]) in _LEADING:
        picked.pop(0)
    return text[picked[0][1] : picked[-1][2]] if picked else ""


def _subject_endpoint(text: str) -> tuple[str, str]:
    words = segments(text)
    lows = [lower_chars(w[0]) for w in words]
    cue = next((i for i, t in enumerate(lows) if _is_cue(t)), None)
    if cue is None:
        return "", ""
    before = [t for t in lows[max(0, cue - 3) : cue] if t not in ("significantly", "not")]
    passive = bool(before) and before[-1] in ("was", "were", "is", "are", "been")
    if lows[cue] in _OUTCOME_WORDS and cue + 1 < len(words) and lows[cue + 1] in ("in", "of"):
        endpoint = _forward(text, words, cue + 2)
        other = next((i for i in range(cue + 2, len(lows)) if lows[i] == "between"), None)
        subject = _forward(text, words, other + 1) if other is not None else ""
        return subject or _backward(text, words, cue), endpoint
    if passive:
        by = next((i for i in range(cue + 1, len(lows)) if lows[i] in ("by", "with")), None)
        subject = _forward(text, words, by + 1) if by is not None else ""
        return subject, _backward(text, words, cue)
    return _backward(text, words, cue), _forward(text, words, cue + 1)


def _species_terms(text: str) -> list[str]:
    tokens = [lower_chars(s) for s, _, _ in segments(text)]
    terms = [
        t for i, t in enumerate(tokens) if t in SPECIES_LEXICON and not species_modifier(tokens, i)
    ]
    match = IN_VITRO_RE.search(text)
    if match is not None:
        terms.append(match.group(0).lower())
    return list(dict.fromkeys(terms))


def _scope(text: str) -> str:
    words = [lower_chars(s) for s, _, _ in segments(text)]
    return ", ".join(dict.fromkeys(w for w in words if w in POPULATION or w in QUANTIFIERS))


def _context_species(sections: Sequence[ParsedSection]) -> tuple[str, str] | None:
    """The first sentence of the document naming a species: (section key, sentence)."""
    for section in sections:
        for sentence in split_sentences(section.text):
            if species_classes(sentence.text):
                return section.key, sentence.text
    return None


def _finding(key: str, sentence: str, score: float, context: tuple[str, str] | None) -> Finding:
    quotes = [QuotedText(key, sentence)]
    species = _species_terms(sentence)
    if not species and context is not None:
        quotes.append(QuotedText(*context))
        species = _species_terms(context[1])
    quoted = " ".join(q.text for q in quotes)
    subject, endpoint = _subject_endpoint(sentence)
    doses = [m.group(0).strip() for m in _DOSE.finditer(sentence)]
    fields = RecordFields(
        subject=subject,
        endpoint=endpoint,
        direction=_direction(sentence),
        species=", ".join(species),
        treatment="; ".join(doses),
        scope=_scope(quoted),
    )
    return Finding(sentence, tuple(quotes), fields, score)


def extract_findings(sections: Sequence[ParsedSection]) -> list[Finding]:
    """Findings proposed from the result-bearing sentences of ``sections``, in document order."""
    context = _context_species(sections)
    out: list[Finding] = []
    for section in sections:
        if _SKIP_TITLES.match(section.title or section.key):
            continue
        in_results = _RESULTS_TITLE.search(section.title) is not None
        for sentence in split_sentences(section.text):
            text = sentence.text
            words = [lower_chars(s) for s, _, _ in segments(text)]
            if not any(_is_cue(w) for w in words):
                continue
            score = _signals(text) + (1.5 if in_results else 0.0)
            if score >= 1:
                out.append(_finding(section.key, text, score, context))
    return out


def locate(
    finding: Finding, sections: Sequence[ParsedSection]
) -> tuple[list[Quotation], list[str]]:
    """Offsets for each quotation of ``finding``; quotations not found become defects."""
    texts = {s.key: s.text for s in sections}
    found: list[Quotation] = []
    defects: list[str] = []
    for q in finding.quotations:
        text = texts.get(q.section_key)
        if text is None:
            defects.append(f"quotation not found: no section {q.section_key!r}: {q.text!r}")
            continue
        match = find_quotation(text, q.text)
        if match.found:
            found.append(
                Quotation(q.section_key, match.start, match.end, text[match.start : match.end])
            )
        else:
            defects.append(
                f"quotation not found in {q.section_key}: {q.text!r}; closest: {match.closest!r}"
            )
    return found, defects


def to_record(
    finding: Finding,
    quotations: Sequence[Quotation],
    *,
    record_id: str,
    source_id: str,
    version: int,
) -> Record:
    """A ``proposed`` record from a finding whose quotations :func:`locate` found."""
    return Record(
        record_id, source_id, version, finding.statement, tuple(quotations), finding.fields
    )


# --------------------------------------------------------------------------- LLM prompt

EXTRACTION_SYSTEM_PROMPT = """\
You extract findings (results) from a scientific document shown as sections, each under a \
short key.

Return ONLY a JSON array, with no text before or after it. Each element is an object:
{"statement": "<the finding in one sentence>",
 "quotations": [{"section": "<section key>", "text": "<exact text copied from that section>"}],
 "subject": "<intervention or exposure>", "endpoint": "<what was measured>",
 "direction": "increase" | "decrease" | "no_effect" | "association" | "none",
 "species": "<species or model system, e.g. patients, mice, human cells in vitro>",
 "treatment": "<condition, dose or exposure, or empty>",
 "scope": "<population, setting and qualifiers, or empty>"}

Rules:
1. Quote, never paraphrase: each quotation's text is copied character for character from the \
section named by its key. Never give offsets or positions; they are computed from your quotations.
2. Report only results the document states (outcomes, comparisons, effect sizes, p-values), \
not background or methods.
3. Keep negations ("did not increase" is no_effect), hedges ("may"), subgroups and the species \
or model system exactly as the document states them; quote the sentence that names the species.
4. If the document states no finding, return [].
"""

_REQUIRED = ("statement", "subject", "endpoint", "direction", "species")
_OPTIONAL = ("treatment", "scope")


def build_extraction_messages(sections: Sequence[ParsedSection]) -> list[ChatMessage]:
    """The fixed system prompt and a user message showing each section under its key."""
    shown = "\n\n".join(
        f'<section key="{s.key}" title="{s.title}">\n{s.text}\n</section>' for s in sections
    )
    user = f"Sections of the document:\n\n{shown}"
    return [ChatMessage("system", EXTRACTION_SYSTEM_PROMPT), ChatMessage("user", user)]


def parse_findings(raw: str, section_keys: Collection[str] | None = None) -> list[Finding]:
    """Parse an extraction reply, validating every finding against the schema.

    Accepts a JSON array or ``{"findings": [...]}``, bare or in one code fence. Required:
    ``statement``, ``quotations`` (non-empty; each ``{"section", "text"}`` and nothing else, so
    offsets are refused), ``subject``, ``endpoint``, ``direction`` (one of
    :data:`~spanproof.core.records.DIRECTIONS`), ``species``; ``treatment`` and ``scope`` are
    optional strings. With ``section_keys``, every quotation must name one of them.

    Raises:
        InvalidInputError: the reply is not such JSON; the message names the item and field.
    """
    payload = load_json_reply(raw, "extraction reply", "a JSON array of findings")
    if isinstance(payload, dict) and set(payload) == {"findings"}:
        payload = payload["findings"]
    if not isinstance(payload, list):
        raise InvalidInputError("extraction reply must be a JSON array of findings")
    return [_finding_from(i, item, section_keys) for i, item in enumerate(payload)]


def _text(where: str, item: dict[str, Any], name: str, required: bool) -> str:
    value = item.get(name, None if required else "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise InvalidInputError(f"{where}.{name} must be a non-empty string")
    return value.strip()


def _finding_from(index: int, item: Any, keys: Collection[str] | None) -> Finding:
    where = f"findings[{index}]"
    if not isinstance(item, dict):
        raise InvalidInputError(f"{where} must be an object")
    unknown = set(item) - {*_REQUIRED, *_OPTIONAL, "quotations"}
    if unknown:
        raise InvalidInputError(f"{where} has unknown fields: {', '.join(sorted(unknown))}")
    values = {name: _text(where, item, name, True) for name in _REQUIRED}
    values |= {name: _text(where, item, name, False) for name in _OPTIONAL}
    if values["direction"] not in DIRECTIONS:
        raise InvalidInputError(f"{where}.direction must be one of {', '.join(DIRECTIONS)}")
    quotes = item.get("quotations")
    if not isinstance(quotes, list) or not quotes:
        raise InvalidInputError(f"{where}.quotations must be a non-empty array")
    parsed = tuple(_quote(f"{where}.quotations[{j}]", q, keys) for j, q in enumerate(quotes))
    statement = values.pop("statement")
    return Finding(statement, parsed, RecordFields(**values))


def _quote(where: str, value: Any, keys: Collection[str] | None) -> QuotedText:
    if not isinstance(value, dict) or set(value) != {"section", "text"}:
        raise InvalidInputError(
            f"{where} must be an object with exactly 'section' and 'text' (no offsets)"
        )
    section, text = value["section"], value["text"]
    if not isinstance(section, str) or not isinstance(text, str) or not text.strip():
        raise InvalidInputError(f"{where}.section and .text must be non-empty strings")
    if keys is not None and section not in keys:
        raise InvalidInputError(f"{where}.section {section!r} is not a section key")
    return QuotedText(section, text)
