"""A "Yes." or "No." that answers a question, checked as the claim it stands for.

An answer that opens with a bare verdict word — "Yes.", "No.", "No, it does not.", "Yes, that
is correct [S1]." — states the question's proposition or its negation and nothing else a
decomposer can read: the words carry no claim of their own ("it does not" names nothing). When
the question is known (``spanproof check`` items, ``verify --question``, ``POST /v1/verify``'s
``question``, the proxy's last user message, of which :func:`question_of` reads the last sentence
when it asks) and is a proposition (:func:`~spanproof.verify.proposition.proposition_of`), the
answer word becomes one claim:

* "Yes" (also "Yeah", "Yep", "Correct", "True") → the proposition itself: "Does walking lower
  blood pressure?" + "Yes." → "Walking lowers blood pressure.";
* "No" (also "Nope", "Incorrect", "False") → its negation as the claim's text
  (:func:`~spanproof.verify.proposition.negation_of`: "Walking does not lower blood
  pressure."), scored by reading the proposition itself (:attr:`Claim.negates`) and turning
  its verdict round (:func:`turned_verdict`): a "No." against sources that support the
  proposition is ``contradicted``; against sources that contradict it, ``partial`` (the
  verifier's ``contradicted`` is too often wrong on natural text to make a denial
  ``supported``: a person should look); otherwise ``unsupported``. The negated sentence is not
  scored itself: the verifier reads a negated claim against evidence that states the opposite
  in other words ("not scarce" against "markedly expanded") as a contradiction: on SciFact's
  development items a right "No." was ``contradicted`` 18 times in 22 that way, 7 in 22
  turned round (training items: 106 and 65 in 157; ``scripts/probe_yes_no.py``,
  docs/quality.md).

The claim's draft span is the answer sentence ("No, it does not."), so ``flag`` marks it there
and ``redact`` removes it; the markers it cites are its own. A claim the decomposer cut from that
sentence (the echo "it does not") is replaced by it; one that runs past it ("No. Walking lowered
blood pressure" where a sentence splitter read "No." as the abbreviation of "number") keeps its
part after it. A "Yes" followed by a verbless elaboration ("Yes, by 5 mmHg after 12 weeks.")
is the proposition with it ("Walking lowered blood pressure, by 5 mmHg after 12 weeks."), read as
one claim; an echo followed by a clause of its own ("Yes, it did: blood pressure fell …") leaves
the clause to the decomposer. Nothing is added when the question is no proposition, the answer
word is not the answer's first sentence, the sentence goes on with a clause ("Yes, walking
raised it …": the decomposer reads that), a "No" is elaborated ("No, by 5 mmHg": what it
denies is unclear), the echo contradicts the word ("Yes, it does not."), or the
question is negative ("Does X not lower Y?": a "No" to it is ambiguous). Where the rules find no
verb to negate, a "No" states "It is not the case that X." Deterministic: the same question and
draft give the same claims.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from spanproof.core.models import Claim, ClaimVerdict, Verdict
from spanproof.text.sentences import split_sentences
from spanproof.verify.decompose import (
    CITATION_MARKER_RE,
    ECHO,
    clean_claim_text,
    marker_numbers,
)
from spanproof.verify.proposition import has_verb, negation_of, proposition_of

#: Answer words that say the proposition is so, and those that say it is not.
YES_WORDS = frozenset({"yes", "yeah", "yep", "correct", "true"})
NO_WORDS = frozenset({"no", "nope", "incorrect", "false"})
#: A label before the answer word: "Short answer: No.", "**Answer:** Yes", "In short, no.".
_LABEL_BEFORE = (
    r"(?:(?:[*_]{1,2})?(?:the\s+)?(?:short\s+answer|answer|in\s+short|in\s+a\s+word|"
    r"bottom\s+line|tl;?\s?dr)(?:\s+is)?\s*[:,—–-]?\s*(?:[*_]{1,2})?\s*)?"
)
#: The answer word, a label before it, an echo after it and the markers it cites.
_HEAD = re.compile(
    rf"\s*{_LABEL_BEFORE}(?:[*_]{{1,2}})?(?P<word>[A-Za-z]+)(?:[*_]{{1,2}})?"
    rf"(?:\s*[,;:—–-]\s*(?P<echo>{ECHO}))?"
    rf"(?P<markers>(?:\s*(?:{CITATION_MARKER_RE.pattern}))*)",
    re.IGNORECASE,
)
#: Blank lines and Markdown headings before the answer word ("## Answer\n\nNo.").
_HEADINGS = re.compile(r"(?:[ \t]*(?:#{1,6}[ \t][^\n]*)?\n)*")
#: The answer sentence ends right after the word or its echo: "No.", "Yes, it does [S1].".
_END = re.compile(r"\s*(?:[.!]+|(?=\n)|\Z)")
#: After an echo, a clause of its own: "Yes, it did: systolic blood pressure fell …".
_GOES_ON = re.compile(r"\s*(?:[:;—–]|\s-\s)")
#: After a "Yes", what elaborates the proposition: "Yes, by 5 mmHg after 12 weeks."
_ELABORATION = re.compile(r"\s*(?:[,:—–]|\s-\s)\s*")
#: The longest elaboration (in words) read as part of the proposition.
MAX_ELABORATION_WORDS = 25
#: A negation: in an echo ("it does not"), or in a question a "No" to is ambiguous.
_NEGATIVE = re.compile(r"\bnot\b|n['’]t\b|\bcannot\b|\bnever\b", re.IGNORECASE)
#: The longest question (in words) a "Yes."/"No." is read against.
MAX_QUESTION_WORDS = 60
_LABEL = re.compile(r"^(?:question|q)\s*[:.)-]\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class AnswerWord:
    """The answer word of a draft and the claim it stands for.

    Attributes:
        claim: the proposition ("Yes") or its negation ("No"), one sentence.
        span: ``(start, end)`` of the answer sentence in the draft ("No, it does not.").
        says_yes: True for a "Yes", False for a "No".
        cited_markers: the markers inside the answer sentence ("S1").
        proposition: the proposition the question asks about (``claim`` for a "Yes").
    """

    claim: str
    span: tuple[int, int]
    says_yes: bool
    cited_markers: tuple[str, ...] = ()
    proposition: str = ""


def answer_word(question: str, draft: str) -> AnswerWord | None:
    """The answer word that opens ``draft``, read against ``question``; None when there is none
    or it cannot stand for a claim (see the module's docstring).

    Three forms: the word alone or with an echo ("No.", "Yes, it does [S1]."), the claim's span
    its sentence; the word and an echo before a clause of its own ("Yes, it did: systolic
    blood pressure fell …"), the span the word and the echo (the decomposer reads the clause);
    a "Yes" and a verbless elaboration ("Yes, by 5 mmHg after 12 weeks [S1]."), the claim the
    proposition with the elaboration ("Walking lowered blood pressure, by 5 mmHg after 12
    weeks.") and the span its sentence.
    """
    headings = _HEADINGS.match(draft)
    head = _HEAD.match(draft, headings.end() if headings else 0)
    if head is None:
        return None
    word = head.group("word").lower()
    if word not in YES_WORDS and word not in NO_WORDS:
        return None
    says_yes = word in YES_WORDS
    echo = head.group("echo")
    if echo is not None and bool(_NEGATIVE.search(echo)) == says_yes:
        return None  # "Yes, it does not." / "No, it does.": the two disagree
    question = question_of(question)
    proposition = proposition_of(question) if question else None
    if proposition is None:
        return None
    claim = proposition.claim if says_yes else _denial(question, proposition.claim)
    if not claim:
        return None
    start, markers_text = head.start("word"), head.group("markers") or ""
    if (end_match := _END.match(draft, head.end())) is not None:
        end = end_match.end()
        if re.match(r"[ \t]*\d", draft[end:]):
            return None  # "No. 5 …": the abbreviation of "number"
    elif echo is not None and _GOES_ON.match(draft, head.end()):
        end = head.end()
    elif echo is None and says_yes and (sep := _ELABORATION.match(draft, head.end())):
        sentence_end = _sentence_end(draft, sep.end())
        elaboration = clean_claim_text(draft[sep.end() : sentence_end])
        words = elaboration.lower().split()
        if not 0 < len(words) <= MAX_ELABORATION_WORDS or has_verb(words):
            return None  # a clause of its own: the decomposer reads it
        claim = f"{claim.rstrip('.')}, {elaboration}."
        markers_text, end = draft[head.start("markers") : sentence_end], sentence_end
    else:
        return None
    while end > start and draft[end - 1].isspace():
        end -= 1
    found = CITATION_MARKER_RE.findall(markers_text)
    markers = tuple(dict.fromkeys(f"S{int(n)}" for m in found for n in marker_numbers(m)))
    return AnswerWord(claim, (start, end), says_yes, markers, proposition.claim)


def _denial(question: str, proposition: str) -> str | None:
    """What a "No" to ``question`` states: the proposition negated at its verb
    (:func:`~spanproof.verify.proposition.negation_of`), else "It is not the case that …";
    None for a negative question ("Does X not lower Y?"), where a "No" is ambiguous."""
    negated = negation_of(question)
    if negated is not None:
        return negated
    if _NEGATIVE.search(question):
        return None
    return f"It is not the case that {proposition[0].lower()}{proposition[1:]}"


def _sentence_end(draft: str, at: int) -> int:
    """Where the sentence holding ``at`` ends (its full stop included), or the line's end."""
    line_end = draft.find("\n", at)
    line_end = len(draft) if line_end < 0 else line_end
    for sentence in split_sentences(draft[:line_end]):
        if sentence.end > at:
            return sentence.end
    return line_end


def question_of(message: str) -> str:
    """The question a message asks: the message when it is one sentence, else its last sentence
    when that ends in "?" (a RAG prompt's "Context: … Question: Did X lower Y?"), without a
    "Question:" or "Q:" label; "" when there is none or it is over :data:`MAX_QUESTION_WORDS`
    words. A statement of several sentences is no question to read "Yes." by.

    >>> question_of("Context: Walking lowered it.\n\nQuestion: Did walking lower it?")
    'Did walking lower it?'
    """
    sentences = split_sentences(message.strip())
    if not sentences:
        return ""
    last = sentences[-1].text.strip()
    if len(sentences) > 1 and not last.endswith("?"):
        return ""
    last = _LABEL.sub("", last, count=1)
    return last if 0 < len(last.split()) <= MAX_QUESTION_WORDS else ""


def with_answer_claim(question: str, draft: str, claims: Sequence[Claim]) -> list[Claim]:
    """``claims`` with the claim of ``draft``'s answer word first (:func:`answer_word`), the
    claims inside its sentence dropped, a claim running past it cut to what follows it, and
    every id renumbered ``c1, c2, ...``; ``claims`` as they are when there is no answer word."""
    found = answer_word(question, draft)
    if found is None:
        return list(claims)
    a, b = found.span
    kept: list[Claim] = []
    for claim in claims:
        span = claim.draft_span
        if span is None or span[1] <= a or span[0] >= b:
            kept.append(claim)
            continue
        if span[1] <= b:
            continue  # the echo "it does not", or the word itself
        start = b
        while start < span[1] and (draft[start].isspace() or draft[start] in ":;,—–-"):
            start += 1
        text = clean_claim_text(draft[start : span[1]])
        if any(ch.isalnum() for ch in text):
            kept.append(replace(claim, text=text, draft_span=(start, span[1])))
    negates = "" if found.says_yes else found.proposition
    first = Claim("c1", found.claim, found.span, found.cited_markers, negates)
    return [first] + [replace(c, id=f"c{k}") for k, c in enumerate(kept, start=2)]


#: How a denial's verdict follows from its proposition's (:func:`turned_verdict`).
_TURNED = {
    Verdict.SUPPORTED: Verdict.CONTRADICTED,
    Verdict.CONTRADICTED: Verdict.PARTIAL,
    Verdict.PARTIAL: Verdict.PARTIAL,
    Verdict.UNSUPPORTED: Verdict.UNSUPPORTED,
    Verdict.EVIDENCE_REDACTED: Verdict.EVIDENCE_REDACTED,
}


def turned_verdict(reading: ClaimVerdict, claim: Claim) -> ClaimVerdict:
    """The verdict on ``claim``, a denial, from ``reading``, the verdict on the proposition it
    negates (:attr:`Claim.negates`): the proposition supported → ``contradicted``;
    contradicted → ``partial`` (a person should look); otherwise the same verdict. The score
    turns with it (1 − the proposition's score when the verdict turns), so a low score goes
    with ``contradicted``; the best span, gates and edits are the proposition's reading.
    """
    verdict = _TURNED[reading.verdict]
    turns = reading.verdict in (Verdict.SUPPORTED, Verdict.CONTRADICTED)
    return replace(
        reading,
        id=claim.id,
        text=claim.text,
        draft_span=claim.draft_span,
        verdict=verdict,
        score=1.0 - reading.score if turns else reading.score,
        negates=claim.negates,
    )
