"""What a claim's opening pronoun stands for (decomposer ``rules-v6``, and yes/no answers).

An answer goes on about what it has just named: "Aspirin lowered the risk of stroke [1]. It also
raised major bleeding [1]." Read alone, "It also raised major bleeding" names nothing, so the
verifier cannot check *what* raised bleeding: a source saying that clopidogrel did would support
it. A claim that opens with "it" or "they" (after "and", "but" or "so") is read with the subject
of the claim before it in the pronoun's place — "Aspirin also raised major bleeding" — when that
subject is a noun phrase the rules can find (:func:`statement_subject`) and agrees in number
(:func:`plural_subject`: "it" for one thing, "they" for several). A pronoun that names nothing
("it is likely that …", "it seems …", "they found that …", :data:`NO_REFERENT`) is left alone, as
is every claim whose previous claim shows no such subject: then the claim reads as before. Only
the text the verifier reads changes; the claim's span stays on the draft's words.

Deterministic, closed word lists, no parser: a subject the rules misread is skipped rather than
guessed (a plural they cannot tell, a subject of more than :data:`MAX_SUBJECT_WORDS` words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from spanproof.core.models import Claim
from spanproof.verify.proposition import subject_of

#: A subject pronoun opening a claim, after a conjunction or not: "it", "and they".
PRONOUN = re.compile(r"(?:(?:and|but|so)\s+)?(it|they)\b", re.IGNORECASE)
#: A pronoun that names no thing: "it is likely that …", "it seems …", "they found that …",
#: "it was 2020 when …".
NO_REFERENT = re.compile(
    r"(?:it|they)\s+(?:(?:is|was|has\s+been|had\s+been|remains|remained)\b(?:\s+[\w-]+){0,3}?"
    r"\s+(?:that|whether|if|to)\b|(?:seems|seemed|appears|appeared)\b|\S+\s+that\b"
    r"|(?:is|was)\s+\d)",
    re.IGNORECASE,
)
#: A subject longer than this is not named in another claim (the rules likely misread it).
MAX_SUBJECT_WORDS = 10
#: Words that open a phrase before a subject, cut off with their comma ("In the trial, aspirin").
_OPENERS = frozenset({
    "in", "on", "at", "among", "after", "before", "during", "for", "with", "without", "from",
    "across", "compared", "overall", "however", "moreover", "also", "thus", "therefore",
    "additionally", "furthermore", "notably", "importantly", "similarly", "likewise",
    "meanwhile", "finally", "first", "second", "third", "here", "today", "currently",
    "conversely", "instead", "nevertheless", "nonetheless", "still", "yet", "accordingly",
    "consequently", "hence",
})  # fmt: skip
#: Adverbs the rules leave between a subject and its verb ("Aspirin also raised …").
_ADVERBS = frozenset({
    "also", "further", "still", "even", "only", "then", "thus", "therefore", "not", "never",
    "both", "all", "each", "alone", "together", "significantly", "substantially", "markedly",
    "dramatically", "slightly", "modestly", "consistently", "independently", "strongly",
    "weakly", "directly", "indirectly", "potently", "rapidly", "greatly", "largely", "partly",
    "partially", "specifically", "selectively", "effectively", "primarily", "mainly", "mostly",
    "generally", "typically", "usually", "often", "frequently", "commonly", "rarely",
    "reportedly", "reliably", "robustly", "similarly", "likewise", "additionally",
    "furthermore", "moreover", "however",
})  # fmt: skip
#: Subjects that are no thing another claim could name.
_NOT_NAMES = frozenset({
    "it", "they", "he", "she", "we", "you", "i", "this", "that", "these", "those", "there",
})  # fmt: skip
#: A subject the rules misread: a clause of its own ("These data suggest that small-gauge"),
#: a heading in capitals before it ("CONCLUSIONS These data"), a label ("Results: …").
_MISREAD = re.compile(r"\b(?:that|whether)\b|[:;]|^[A-Z]{4,}\b")
#: Where a subject's head noun phrase ends ("Participants who walked daily": "Participants").
_HEAD_END = re.compile(
    r"\s+(?:who|which|that|with|without|in|of|from|at|on|for|among|by|after|during|receiving|"
    r"treated|taking|given|compared)\b",
    re.IGNORECASE,
)


def statement_subject(text: str) -> str | None:
    """The subject of the statement ``text`` as it writes it, without an opening phrase ("In
    the trial, aspirin" → "aspirin"), an apposition ("Aspirin, a common drug" → "Aspirin") or
    adverbs before the verb ("Aspirin also" → "Aspirin"); None where the rules find no subject
    (:func:`~spanproof.verify.proposition.subject_of`), it is a pronoun, or it is longer than
    :data:`MAX_SUBJECT_WORDS` words.

    >>> statement_subject("However, daily walking also lowered systolic blood pressure.")
    'daily walking'
    >>> statement_subject("It lowered systolic blood pressure.") is None
    True
    """
    subject = subject_of(text)
    if subject is None:
        return None
    while "," in subject:
        head, rest = subject.split(",", 1)
        first = head.split()[0].lower() if head.split() else ""
        subject = rest.strip() if first in _OPENERS else head.strip()
    words = subject.split()
    while words and words[-1].lower() in _ADVERBS:
        words.pop()
    if not words or len(words) > MAX_SUBJECT_WORDS or words[0].lower() in _NOT_NAMES:
        return None
    if _MISREAD.search(" ".join(words)):
        return None
    return " ".join(words)


def plural_subject(subject: str) -> bool | None:
    """Whether ``subject`` names several things (True), one (False), or the rules cannot tell
    (None): by the last word of its head noun phrase — "and" joins several; a word in capitals
    is one name ("SARS"); a plural "-s" (not "-ss", "-us", "-is", "-ics") is several."""
    head = _HEAD_END.split(subject, maxsplit=1)[0]
    words = head.split()
    if not words:
        return None
    if "and" in (w.lower() for w in words[1:]):
        return True
    last = words[-1].strip("()[]")
    if not last or last.isupper() or not last[-1:].isalpha():
        return False
    low = last.lower()
    if low.endswith(("ss", "us", "is", "ics")):
        return None  # "diabetes"-like and "-ics" nouns: no telling one from several
    return low.endswith("s")


def name_pronoun(claim: Claim, subject: str, plural: bool | None) -> Claim:
    """``claim`` with the pronoun that opens it ("it" for one thing, "they" for several)
    replaced by ``subject``; ``claim`` as it is when it opens with no such pronoun, the
    pronoun names nothing (:data:`NO_REFERENT`) or its number is not ``plural``'s."""
    pronoun = PRONOUN.match(claim.text)
    if pronoun is None or plural is None or NO_REFERENT.match(claim.text, pronoun.start(1)):
        return claim
    if (pronoun.group(1).lower() == "they") != plural:
        return claim
    named = subject[0].upper() + subject[1:] if subject[:1].islower() else subject
    return replace(claim, text=f"{named}{claim.text[pronoun.end() :]}")


def name_pronouns(claims: Sequence[Claim]) -> list[Claim]:
    """``claims`` in order, each that opens with a pronoun read with the subject of the claim
    before it (:func:`name_pronoun`; that claim as already named, so "It … . It …" carries the
    name on)."""
    out: list[Claim] = []
    for claim in claims:
        subject = statement_subject(out[-1].text) if out else None
        out.append(
            claim if subject is None else name_pronoun(claim, subject, plural_subject(subject))
        )
    return out
