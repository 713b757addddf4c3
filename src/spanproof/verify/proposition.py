"""Propositions: is a question a claim to check, and which declarative claim is it?

A question is a *proposition* when it asks whether something is so rather than asking for
something: a statement ("Daily walking lowers blood pressure."), a "whether" frame ("Is it true
that …", "Is it the case that …", "True or false: …"), or a yes/no question opening with an
auxiliary ("Does/Do/Did …", "Is/Are/Was/Were …", "Can/Could/Will/Should/May …", "Has/Have …").
:func:`proposition_of` turns one into the declarative claim it asks about, deterministically and
without a parser:

* the "whether" frame is cut off: "Is it true that daily walking raised blood pressure?" →
  "Daily walking raised blood pressure.";
* a yes/no question's auxiliary moves behind its subject. The subject ends where the predicate
  visibly starts: for "do" and modals, at the first known verb (:data:`BASE_VERBS`) not right
  after a determiner or preposition, which "does"/"did" then inflect ("Does walking lower blood
  pressure?" → "Walking lowers blood pressure."); for "be", at a comparative, a participle, an
  adjective, "not" or an article ("Is aspirin effective?" → "Aspirin is effective."); for
  "have", at a participle. Where no such word is found the auxiliary is dropped and the words
  kept in order (the claim still carries every content word the verifier reads);
* a statement (three words or more ending in a full stop, or two or more with a visible verb)
  is kept as it is, with a full stop.

A question opening with a contracted negative auxiliary ("Doesn't aspirin lower fever?",
"Isn't it true that …?", "Didn't walking lower it?") asks about the same proposition as its
positive form ("Aspirin lowers fever."): English answers it as it answers the positive question
("No" = it does not). A negative question with "not" after its subject ("Does aspirin not lower
fever?") is read as it is written, "not" in the claim.

A request put as a question asks about the claim it names ("Can you tell me whether X?",
"Could you confirm that X?" → X) and is no proposition when it names none ("Can you summarise
the context?": not "You can summarise the context."); "Can you catch COVID-19 twice?" is a
question, not a request.

Not propositions (``None``): questions opening with a question word or a request ("What …",
"How …", "Tell me …", "Can you list …?"), alternative questions ("Is X or Y …?") and word lists
with no verb and no full stop ("walking blood pressure").
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Auxiliaries and common verbs: a clause holds one (the decomposer's rule 3, the statements
#: here).
VERB_CUES = frozenset(
    {
        "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "do",
        "does", "did", "can", "could", "will", "would", "shall", "should", "must", "may", "might",
        "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "doesn't",
        "don't", "didn't", "can't", "cannot", "won't", "wouldn't", "shouldn't", "couldn't",
        "find", "finds", "found", "show", "shows", "shown", "cause", "causes", "reduce",
        "reduces", "increase", "increases", "improve", "improves", "lower", "lowers", "raise",
        "raises", "suggest", "suggests", "indicate", "indicates", "remain", "remains", "contain",
        "contains", "require", "requires", "affect", "affects", "lead", "leads", "led", "make",
        "makes", "made", "rise", "rises", "rose", "fall", "falls", "fell", "become", "becomes",
        "became", "give", "gives", "gave", "take", "takes", "took", "see", "sees", "saw", "grow",
        "grows", "grew", "begin", "begins", "began", "occur", "occurs", "appear", "appears",
        "seem", "seems", "exceed", "exceeds", "produce", "produces", "prevent", "prevents",
        "inhibit", "inhibits", "bind", "binds", "bound", "encode", "encodes", "regulate",
        "regulates", "depend", "depends", "differ", "differs", "vary", "varies", "include",
        "includes", "report", "reports", "describe", "describes", "predict", "predicts",
        "win", "wins", "won", "lose", "loses", "lost", "hold", "holds", "held", "keep", "keeps",
        "kept", "meet", "meets", "met", "run", "runs", "ran", "get", "gets", "got", "go", "goes",
        "went", "come", "comes", "came", "say", "says", "said", "know", "knows", "known",
        "build", "builds", "built", "write", "writes", "wrote", "written", "cost", "costs",
        "sell", "sells", "sold", "pay", "pays", "paid", "spend", "spends", "spent",
    }
)  # fmt: skip


#: Openers of questions that ask for something rather than whether something is so.
QUESTION_WORDS = _words(
    "what how why when where which who whom whose tell list describe explain summarize "
    "summarise give show find compare name define please"
)
_COPULA = _words("is are was were am")
_DO = _words("does do did")
_MODALS = _words("can could will would should shall may might must")
_PERFECT = _words("has have had")
#: Pronouns (and "there") that are a whole subject by themselves.
_PRONOUNS = _words("it they he she we you i this that these those there")
_DETERMINERS = _words(
    "the a an this that these those its their his her our my your some any each every no such"
)
_PREPOSITIONS = _words(
    "of in on for with to by from at between among during after before and or than via "
    "into within without against"
)
#: Words that open the predicate of "is/are/was/were <subject> <predicate>".
_COPULA_CUES = _words(
    "not more less higher lower greater smaller larger better worse fewer longer shorter faster "
    "slower earlier later similar different equal associated linked related correlated able "
    "likely unlikely common rare necessary sufficient required present absent due safe "
    "effective harmful beneficial useful toxic essential involved responsible elevated "
    "reduced increased decreased high low good bad true false normal abnormal important "
    "significant helpful dangerous protective a an the"
)
_ADJECTIVE_SUFFIXES = ("ive", "ous", "ful", "able", "ible", "ant")
_PARTICIPLES = _words(
    "been shown known found given taken seen made grown become led held kept proven begun done "
    "gone written driven risen fallen thought brought caught taught bound built lost met paid "
    "sold spent won cut put set spread shed hit undergone"
)
#: Base forms of verbs a yes/no question's predicate commonly opens with.
BASE_VERBS = _words("""
    accelerate accumulate activate affect alter alleviate attenuate augment bind block boost
    break bring cause change compensate confer contain contribute control correlate counteract
    cure damage decline decrease degrade delay depend deplete differ diminish disrupt drive
    elevate eliminate encode enhance enlarge exacerbate exceed exist expand express extend fall
    fight form function harm have help hinder impair improve increase induce influence inhibit
    initiate interact interfere involve kill lack lead lengthen limit lower maintain make
    mediate modify modulate need occur outperform outweigh predict prevent produce prolong
    promote protect prove raise reduce regulate relieve remain repair repress require restore
    result reverse rise shorten show shrink slow speed stabilize stabilise stimulate stop
    suppress sustain target trigger treat work worsen cool warm heat protect benefit lessen
    curb cut double halve hasten hurt impact mitigate mimic occur persist precede predispose
    recruit release replace respond signal spread survive transmit transport upregulate
    downregulate use vary weaken strengthen
    """)
_IRREGULAR_PAST = {
    "lead": "led",
    "rise": "rose",
    "fall": "fell",
    "make": "made",
    "have": "had",
    "bind": "bound",
    "break": "broke",
    "bring": "brought",
    "fight": "fought",
    "shrink": "shrank",
    "cut": "cut",
    "spread": "spread",
    "speed": "sped",
    "drive": "drove",
}
_DOUBLED = _words("stop occur control")
_WHETHER = re.compile(
    r"^(?:is it|it is)\s+(?:really\s+)?(?:true|the case|correct|right|a fact|so)\s+that\s+(.+)$",
    re.IGNORECASE | re.DOTALL,
)
_LABELLED = re.compile(r"^(?:true or false|fact check|check|verify|claim)\s*[:,\-–]\s*(.+)$", re.I)
_CLAIM_THAT = re.compile(
    r"^is the (?:claim|statement|idea|notion|hypothesis) that\s+(.+?)\s+"
    r"(?:true|correct|right|supported)$",
    re.IGNORECASE | re.DOTALL,
)
_TOKEN = re.compile(r"\S+")
#: A request put as a question: "Can you tell me whether X?", "Could you confirm that X?"; the
#: claim it asks about is X, when it names one.
_REQUEST = re.compile(
    r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?P<verb>tell|explain|confirm|check|verify|clarify|say|let\s+(?:me|us)\s+know|"
    r"summari[sz]e|describe|list|give|show|find|help|provide|write|answer|look\s+up)\b"
    r"(?:\s+(?:me|us))?(?:\s+(?:whether|if|that)\s+(?P<claim>.+))?",
    re.IGNORECASE | re.DOTALL,
)
#: Contracted negative auxiliaries and the positive auxiliary each stands for.
_POSITIVE_OF = {
    **{
        f"{aux}n't": aux
        for aux in (
            *("is", "are", "was", "were", "does", "do", "did"),
            *("could", "would", "should", "has", "have", "had"),
        )
    },
    "can't": "can",
    "won't": "will",
    "shan't": "shall",
    "mustn't": "must",
    "ain't": "is",
}


@dataclass(frozen=True, slots=True)
class Proposition:
    """The declarative claim a question asks about.

    Attributes:
        claim: the claim to verify, one sentence ending in a full stop.
        form: how it was asked: ``statement``, ``whether`` ("Is it true that …") or ``yes_no``.
    """

    claim: str
    form: str


def _bare(token: str) -> str:
    return token.strip(".,;:!?()[]\"'“”‘’").lower()


def _sentence(text: str) -> str:
    """``text`` as one claim: trimmed, trailing ?!. and spaces off, a capital, a full stop."""
    body = " ".join(text.split()).rstrip("?!. ").strip()
    first = body.split(" ", 1)[0] if body else ""
    if first.isalpha() and first.islower():
        body = body[0].upper() + body[1:]
    return f"{body}." if body else ""


def third_person(verb: str) -> str:
    """The third-person singular present of a base form: lower → lowers, have → has."""
    if verb == "have":
        return "has"
    if verb.endswith(("s", "x", "z", "ch", "sh", "o")):
        return f"{verb}es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return f"{verb[:-1]}ies"
    return f"{verb}s"


def past_tense(verb: str) -> str:
    """The simple past of a base form: raise → raised, lead → led, stop → stopped."""
    if verb in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[verb]
    if verb in _DOUBLED:
        return f"{verb}{verb[-1]}ed"
    if verb.endswith("e"):
        return f"{verb}d"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return f"{verb[:-1]}ied"
    return f"{verb}ed"


def _open_slot(words: list[str], i: int) -> bool:
    """Whether a predicate may start at word ``i``: not the first, not after a determiner or
    preposition (there the word modifies a noun of the subject: "the lower dose")."""
    return i >= 1 and words[i - 1] not in _DETERMINERS and words[i - 1] not in _PREPOSITIONS


def _copula_start(words: list[str]) -> int | None:
    for i in range(1, len(words)):
        if not _open_slot(words, i):
            continue
        word = words[i]
        if (
            word in _COPULA_CUES
            or (word.endswith("ed") and len(word) >= 5)
            or (word.endswith(_ADJECTIVE_SUFFIXES) and len(word) >= 6)
        ):
            return i
    # A comparative closing the question: "Were blocks with more canopy cooler?"
    last = len(words) - 1
    if last >= 1 and _open_slot(words, last) and words[last].endswith("er"):
        return last
    return None


def _verb_start(words: list[str]) -> int | None:
    for i in range(1, len(words)):
        if _open_slot(words, i) and (words[i] in BASE_VERBS or words[i] == "not"):
            return i
    return None


def _perfect_start(words: list[str]) -> int | None:
    for i in range(1, len(words)):
        word = words[i]
        participle = word in _PARTICIPLES or (word.endswith("ed") and len(word) >= 5)
        if _open_slot(words, i) and (participle or word == "not"):
            return i
    return None


def _predicate_start(aux: str, words: list[str]) -> int | None:
    if words and words[0] in _PRONOUNS:
        return 1 if len(words) > 1 else None
    if aux in _COPULA:
        return _copula_start(words)
    if aux in _PERFECT:
        return _perfect_start(words)
    return _verb_start(words)


def _yes_no(question: str) -> Proposition | None:
    parts = _yes_no_parts(question)
    if parts.alternative or not parts.words:
        return None  # an alternative question ("Is X or Y …?") asks which, not whether
    aux, rest, tokens, words, at = parts.aux, parts.rest, parts.tokens, parts.words, parts.at
    if at is None:
        return Proposition(_sentence(rest), "yes_no")
    subject, predicate = rest[: tokens[at].start()].strip(), rest[tokens[at].start() :]
    verb = words[at]
    if aux in _DO and verb != "not":
        inflect = {"does": third_person, "did": past_tense}.get(aux)
        head = tokens[at].group()
        if inflect is not None and head.lower() == verb:
            predicate = inflect(verb) + predicate[len(head) :]
        return Proposition(_sentence(f"{subject} {predicate}"), "yes_no")
    return Proposition(_sentence(f"{subject} {aux} {predicate}"), "yes_no")


def has_verb(words: list[str]) -> bool:
    """Whether lower-case ``words`` show a verb: an auxiliary or common verb, a known verb in any
    form, or a word of five letters or more ending in "-ed"."""
    inflected = {third_person(v) for v in BASE_VERBS} | {past_tense(v) for v in BASE_VERBS}
    return any(
        w in VERB_CUES or w in BASE_VERBS or w in inflected or (w.endswith("ed") and len(w) >= 5)
        for w in words
    )


@dataclass(frozen=True, slots=True)
class _YesNoParts:
    """A yes/no question cut for its proposition: the auxiliary (lower case, made positive),
    the words after it (a closing "or not" dropped), where the predicate starts, and whether it
    is an alternative question ("Is X or Y …?": an "or" that is not the closing "or not")."""

    aux: str
    rest: str
    tokens: list[re.Match[str]]
    words: list[str]
    at: int | None
    alternative: bool


def _yes_no_parts(question: str) -> _YesNoParts:
    text = positive_question(question)
    first = text.split(" ", 1)[0]
    rest = text[len(first) :].strip()
    tokens = list(_TOKEN.finditer(rest))
    words = [_bare(t.group()) for t in tokens]
    alternative = "or" in words and words[-2:] != ["or", "not"]
    if words[-2:] == ["or", "not"]:
        rest, tokens, words = rest[: tokens[-2].start()], tokens[:-2], words[:-2]
    at = _predicate_start(first.lower(), words) if words else None
    return _YesNoParts(first.lower(), rest, tokens, words, at, alternative)


def _negated_yes_no(question: str) -> str | None:
    """:func:`_yes_no`'s claim with "not" after the auxiliary, or None without a predicate."""
    parts = _yes_no_parts(question)
    at = parts.at
    if at is None or parts.words[at] == "not":
        return None  # no visible predicate, or the question is negative already
    start = parts.tokens[at].start()
    subject, predicate = parts.rest[:start].strip(), parts.rest[start:]
    negated = "cannot" if parts.aux == "can" else f"{parts.aux} not"
    return _sentence(f"{subject} {negated} {predicate}")


#: Inflected forms of :data:`BASE_VERBS` and the auxiliary that negates each, with its base form:
#: "lowers" → ("does", "lower"), "lowered" → ("did", "lower"), "lower" → ("do", "lower").
_NEGATED_FORMS: dict[str, tuple[str, str]] = {
    **{verb: ("do", verb) for verb in BASE_VERBS},
    **{past_tense(verb): ("did", verb) for verb in BASE_VERBS},
    **{third_person(verb): ("does", verb) for verb in BASE_VERBS},
}


def negate_statement(statement: str) -> str | None:
    """``statement`` negated at its first verb, or None where no verb is found.

    "not" goes after a first copula or modal ("Aspirin is effective." → "Aspirin is not
    effective."; "can" → "cannot") and after "has"/"have"/"had" before a participle; a first
    verb of :data:`BASE_VERBS` takes "does"/"did"/"do" not ("Walking lowered blood pressure." →
    "Walking did not lower blood pressure."). A statement already negated there gives None.

    >>> negate_statement("Daily walking raised systolic blood pressure.")
    'Daily walking did not raise systolic blood pressure.'
    """
    tokens = list(_TOKEN.finditer(statement))
    words = [_bare(t.group()) for t in tokens]
    i = _first_verb(tokens, words)
    if i is None:
        return None
    word, after = words[i], words[i + 1] if i + 1 < len(words) else ""
    if word == "not" or word.endswith("n't") or after == "not":
        return None  # negated already
    if word in _NEGATED_FORMS and not _is_auxiliary(word, after):
        aux, base = _NEGATED_FORMS[word]
        at = tokens[i].start() + tokens[i].group().lower().find(word)
        head, tail = statement[:at], statement[at + len(word) :]
        return _sentence(f"{head}{aux} not {base}{tail}")
    cut = tokens[i].end()
    if word == "can":
        return _sentence(f"{statement[: tokens[i].start()]}cannot{statement[cut:]}")
    return _sentence(f"{statement[:cut]} not{statement[cut:]}")


def _is_auxiliary(word: str, after: str) -> bool:
    """Whether ``word`` (followed by ``after``) is an auxiliary that "not" follows: a copula,
    a modal, "do", or "has/have/had" before a participle."""
    return word in _COPULA | _MODALS | _DO or (
        word in _PERFECT and (after in _PARTICIPLES or after.endswith("ed"))
    )


def _first_verb(tokens: list[re.Match[str]], words: list[str]) -> int | None:
    """Index of a statement's first verb — an auxiliary (:func:`_is_auxiliary`), a form of
    :data:`BASE_VERBS`, or a negation — past its first word, not after a determiner or
    preposition and written in lower case ("(IS)", "Is" inside a name are no verbs)."""
    for i in range(1, len(words)):
        raw = tokens[i].group()
        if not _open_slot(words, i) or raw.startswith(("(", "[")) or not raw.islower():
            continue
        word, after = words[i], words[i + 1] if i + 1 < len(words) else ""
        if _is_auxiliary(word, after) or word in _NEGATED_FORMS:
            return i
        if word == "not" or word.endswith("n't"):
            return i
    return None


def negation_of(question: str) -> str | None:
    """The declarative claim a "no" to ``question`` states, or None where none can be built.

    The negation of :func:`proposition_of`'s claim: "not" after a yes/no question's auxiliary
    behind its subject, else the claim negated at its first verb (:func:`negate_statement`).
    None when ``question`` is no proposition, asks a negative question ("Does X not …?") or
    shows no predicate to negate.

    >>> negation_of("Does aspirin lower fever?")
    'Aspirin does not lower fever.'
    >>> negation_of("Is it true that daily walking raised systolic blood pressure?")
    'Daily walking did not raise systolic blood pressure.'
    """
    found = proposition_of(question)
    if found is None:
        return None
    if found.form == "yes_no":
        return _negated_yes_no(question)
    return negate_statement(found.claim)


def positive_question(question: str) -> str:
    """``question`` with an opening contracted negative auxiliary made positive ("Doesn't
    aspirin lower fever?" → "Does aspirin lower fever?", "Isn't it true that …" → "Is it true
    that …"), whitespace collapsed; otherwise ``question`` with its whitespace collapsed."""
    text = " ".join(question.split())
    first, _, rest = text.partition(" ")
    positive = _POSITIVE_OF.get(first.lower().replace("’", "'"))
    if positive is None or not rest:
        return text
    return f"{positive.capitalize() if first[0].isupper() else positive} {rest}"


def subject_of(question: str) -> str | None:
    """The subject of the proposition ``question`` asks about, as the question (for a yes/no
    question) or the claim (for a statement or a "whether" frame) writes it, or None where the
    rules see no predicate to end it or the subject is a pronoun.

    >>> subject_of("Did daily walking raise systolic blood pressure?")
    'daily walking'
    >>> subject_of("Is it true that masks reduce transmission?")
    'Masks'
    """
    found = proposition_of(question)
    if found is None:
        return None
    if found.form == "yes_no":
        parts = _yes_no_parts(question)
        subject = parts.rest[: parts.tokens[parts.at].start()] if parts.at else ""
    else:
        tokens = list(_TOKEN.finditer(found.claim))
        at = _first_verb(tokens, [_bare(t.group()) for t in tokens])
        subject = found.claim[: tokens[at].start()] if at else ""
    subject = subject.strip(" ,;:")
    if not subject or subject.lower() in _PRONOUNS:
        return None
    return subject


def proposition_of(question: str) -> Proposition | None:
    """The declarative claim ``question`` asks about, or None when it is not a proposition.

    >>> proposition_of("Is it true that daily walking raised systolic blood pressure?").claim
    'Daily walking raised systolic blood pressure.'
    >>> proposition_of("Does aspirin lower fever?").claim
    'Aspirin lowers fever.'
    >>> proposition_of("What is the capital of France?") is None
    True
    >>> proposition_of("Doesn't aspirin lower fever?").claim
    'Aspirin lowers fever.'
    """
    text = positive_question(question)
    request = _REQUEST.match(text.rstrip("?").strip())
    if request is not None:  # "Can you tell me whether X?": X, else no claim at all
        claim = _sentence(request.group("claim") or "")
        return Proposition(claim, "whether") if claim else None
    for frame in (_WHETHER, _LABELLED, _CLAIM_THAT):
        match = frame.match(text.rstrip("?").strip())
        if match:
            claim = _sentence(match.group(1))
            return Proposition(claim, "whether") if claim else None
    tokens = text.split(" ")
    words = [_bare(t) for t in tokens]
    if not words or not words[0] or words[0] in QUESTION_WORDS:
        return None
    if words[0] in _COPULA | _DO | _MODALS | _PERFECT:
        return _yes_no(text) if len(words) >= 3 else None
    if words[0].endswith(("n't", "n’t")):
        return None  # a contraction positive_question does not know
    # A sentence with a full stop is a statement; without one it needs a visible verb.
    if (len(words) >= 3 and text.rstrip().endswith(".")) or (len(words) >= 2 and has_verb(words)):
        return Proposition(_sentence(text), "statement")
    return None
