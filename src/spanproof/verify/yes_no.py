"""A "Yes." or "No." that answers a question, checked as the claim it stands for.

An answer that opens with a bare verdict word — "Yes.", "No.", "No, it does not.", "Yes, that
is correct [S1]." — states the question's proposition or its negation and nothing else a
decomposer can read: the words carry no claim of their own ("it does not" names nothing). When
the question is known (``spanproof check`` items, ``verify --question``, ``POST /v1/verify``'s
``question``, the proxy's last user message, of which :func:`question_of` reads the sentence
that asks) and is a proposition (:func:`~spanproof.verify.proposition.proposition_of`), the
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
part after it. A "Yes" followed by a verbless elaboration, after an echo or not ("Yes, by 5
mmHg after 12 weeks.", "Yes, it did, in the trial.") is the proposition with it ("Walking
lowered blood pressure, by 5 mmHg after 12 weeks."), read as one claim; a "No" and an echo
before words with no verb ("No, it did not, according to the trial.", "No, not at all.") is the
denial, its span the sentence, unless the words limit how far it denies ("No, it did not in
children.", "No — not in children."): then it is the denial that far ("Walking did not lower
blood pressure, in children."), scored by turning round the proposition with the same scope, so
a finding about everyone or about adults does not make it ``contradicted``; an answer word
followed by a clause of its own, after an echo or not ("Yes, it did:
blood pressure fell …", "No, walking lowered it [S1].", "No — it lowered it by 5 mmHg."), is
the proposition or its denial (its span the word, and the echo), and leaves the clause to the
decomposer. When the claim right after the answer sentence opens with "it" (or "they", for a
subject the question shows as plural), the question's subject is named in the text the verifier
reads ("Did daily walking raise systolic blood pressure?" + "No — it lowered it by 5 mmHg." →
"Daily walking lowered it by 5 mmHg"), unless the pronoun names nothing ("it is likely that
…", "they found that …"); the claim's span stays on the draft's words. Nothing is added when
the question is no proposition, the answer word is not the answer's first sentence, a "No" is
elaborated without a clause ("No, by 5 mmHg": what it denies is unclear), the echo contradicts
the word ("Yes, it does not."), or the question is negative with "not" after its subject
("Does X not lower Y?": a "No" to it is ambiguous). A question opening with a contracted
negative ("Didn't walking lower it?") asks about the positive proposition, as English answers
it ("No" = it did not). Where the rules find no verb to negate, a "No" states "It is not the
case that X." Deterministic: the same question and draft give the same claims.
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
from spanproof.verify.pronouns import name_pronoun
from spanproof.verify.proposition import (
    has_verb,
    negation_of,
    positive_question,
    proposition_of,
    subject_of,
)

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
#: What follows an echo before words of its own: "Yes, it did: …", "Yes, it does, by 30 %."
_AFTER_ECHO = re.compile(r"\s*(?:[,;:—–]|\s-\s)\s*")
#: An echo before an adverbial of its own, no comma between: "Yes, it did in the trial."
_ADVERBIAL = re.compile(
    r"\s+(?=(?:in|at|among|during|after|before|within|across|over|under|for|by|with|without|"
    r"according)\b)",
    re.IGNORECASE,
)
#: Words after a "No" that limit how far it denies: "No, it does not in children." (not "by",
#: which measures, nor "according to", which names who says so).
_SCOPE = re.compile(
    r"(?!(?:at\s+all|in\s+(?:fact|short|any\s+(?:way|case)|truth|reality)|for\s+sure)\b)"
    r"(?:in|among|during|after|before|within|across|over|under|for|with|without|at)\s+\S",
    re.IGNORECASE,
)
#: "No, not at all.": a plain denial.
_NOT_AT_ALL = re.compile(r"not\s+at\s+all", re.IGNORECASE)
#: "No — not in children.": the scope after a "not".
_NOT_SCOPE = re.compile(rf"not\s+(?={_SCOPE.pattern})", re.IGNORECASE)
#: After a "Yes", what elaborates the proposition: "Yes, by 5 mmHg after 12 weeks."
_ELABORATION = re.compile(r"\s*(?:[,:—–]|\s-\s)\s*")
#: The longest elaboration (in words) read as part of the proposition.
MAX_ELABORATION_WORDS = 25
#: A negation: in an echo ("it does not"), or in a question a "No" to is ambiguous.
_NEGATIVE = re.compile(r"\bnot\b|n['’]t\b|\bcannot\b|\bnever\b", re.IGNORECASE)
#: The longest question (in words) a "Yes."/"No." is read against.
MAX_QUESTION_WORDS = 60
#: The longest trailer (in words) after a message's last question ("Helpful Answer:",
#: "Answer yes or no, citing the context.") that leaves it the question.
MAX_TRAILER_WORDS = 15
_LABEL = re.compile(r"^(?:question|q)\s*[:.)-]\s*", re.IGNORECASE)
#: A question that only points to a claim stated beside it: "Is this claim true?", "True or
#: false?", "Is the following statement supported by the context?".
_FRAME_ONLY = re.compile(
    r"^(?:(?:is|are)\s+(?:this|that|it|these|those|the\s+(?:above|following)|the)?\s*"
    r"(?:claim|statement|sentence|assertion|fact)?s?\s*(?:true|correct|accurate|right|supported|"
    r"valid|false)(?:\s+(?:or\s+(?:false|not)|according\s+to|based\s+on|given|by|in)\b[^?]*)?"
    r"|true\s+or\s+false|fact\s+or\s+fiction|yes\s+or\s+no|right\s+or\s+wrong)\s*\?$",
    re.IGNORECASE,
)
#: A label before the claim a frame points to: "Claim: X.", "Statement - X.".
_CLAIM_LABEL = re.compile(
    r"^(?:claim|statement|assertion|hypothesis|sentence)\s*[:.)-]\s*", re.IGNORECASE
)


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
    its sentence; the word, with an echo or not, before a clause of its own ("Yes, it did:
    systolic blood pressure fell …", "No, walking lowered it."), the span the word and the
    echo (the decomposer reads the clause); a "Yes" and a verbless elaboration ("Yes, by 5 mmHg
    after 12 weeks [S1]."), the claim the proposition with the elaboration ("Walking lowered
    blood pressure, by 5 mmHg after 12 weeks.") and the span its sentence.
    """
    headings = _HEADINGS.match(draft)
    head = _HEAD.match(draft, headings.end() if headings else 0)
    if head is None:
        return None
    word = head.group("word").lower()
    if word not in YES_WORDS and word not in NO_WORDS:
        return None
    says_yes = word in YES_WORDS
    question = question_of(question)
    proposition = proposition_of(question) if question else None
    if proposition is None:
        return None
    claim = proposition.claim if says_yes else _denial(question, proposition.claim)
    if not claim:
        return None
    reach = _answer_reach(draft, head, claim, says_yes=says_yes)
    if reach is None:
        return None
    claim, end, markers_text, scope = reach
    asked = proposition.claim if not scope else f"{proposition.claim.rstrip('.')}, {scope}."
    start = head.start("word")
    while end > start and draft[end - 1].isspace():
        end -= 1
    found = CITATION_MARKER_RE.findall(markers_text)
    markers = tuple(dict.fromkeys(f"S{int(n)}" for m in found for n in marker_numbers(m)))
    return AnswerWord(claim, (start, end), says_yes, markers, asked)


#: What :func:`_answer_reach` finds: the claim, where its span ends, the text its markers are
#: read from and the scope a "No" is limited to ("in children"; "" for none).
_Reach = tuple[str, int, str, str]


def _answer_reach(draft: str, head: re.Match[str], claim: str, *, says_yes: bool) -> _Reach | None:
    """What the answer word matched by ``head`` claims (:func:`answer_word`'s forms), or None
    where it stands for nothing checkable."""
    echo, markers_text = head.group("echo"), head.group("markers") or ""
    # "Yes, it does not." / "No, it did.": an echo that disagrees with its word
    disagrees = echo is not None and bool(_NEGATIVE.search(echo)) == says_yes
    if (end_match := _END.match(draft, head.end())) is not None:
        if disagrees or re.match(r"[ \t]*\d", draft[end_match.end() :]):
            return None  # or "No. 5 …": the abbreviation of "number"
        return claim, end_match.end(), markers_text, ""
    if echo is not None:
        return _after_echo(draft, head, claim, says_yes=says_yes, disagrees=disagrees)
    return _after_word(draft, head, claim, says_yes=says_yes)


def _after_echo(
    draft: str, head: re.Match[str], claim: str, *, says_yes: bool, disagrees: bool
) -> _Reach | None:
    """:func:`_answer_reach` for a word and an echo followed by more words."""
    sentence_end = _sentence_end(draft, head.end())
    after = _AFTER_ECHO.match(draft, head.end()) or _ADVERBIAL.match(draft, head.end())
    if after is None:
        # words right after what read as an echo make one clause with it: "No, it had no
        # effect on HbA1c.", "No, it did not change it in the follow-up."
        return claim, head.end("word"), draft[head.end("word") : sentence_end], ""
    rest = CITATION_MARKER_RE.sub(" ", draft[after.end() : sentence_end])
    rest = clean_claim_text(rest).strip(" ,;:—–-")
    words = rest.lower().split()
    if words and has_verb(words):
        # an echo before a clause of its own: "Yes, it did: blood pressure fell …"
        return claim, head.end(), head.group("markers") or "", ""
    if disagrees or len(words) > MAX_ELABORATION_WORDS:
        return None
    markers_text = draft[head.start("markers") : sentence_end]
    if says_yes and words:  # "Yes, it does, by 30 % [S1].", "Yes, it did — by 5 mmHg."
        return f"{claim.rstrip('.')}, {rest}.", sentence_end, markers_text, ""
    if _SCOPE.match(rest):  # "No, it does not in children.": the denial goes that far only
        return f"{claim.rstrip('.')}, {rest}.", sentence_end, markers_text, rest
    return claim, sentence_end, markers_text, ""  # "No, it does not, according to the trial."


def _after_word(draft: str, head: re.Match[str], claim: str, *, says_yes: bool) -> _Reach | None:
    """:func:`_answer_reach` for a word with no echo followed by more words."""
    sep = _ELABORATION.match(draft, head.end())
    if sep is None:
        return None
    sentence_end = _sentence_end(draft, sep.end())
    elaboration = clean_claim_text(draft[sep.end() : sentence_end])
    words = elaboration.lower().split()
    markers_text = draft[head.start("markers") : sentence_end]
    if words and has_verb(words):
        return claim, head.end(), markers_text, ""  # "No, walking lowered it.": a clause follows
    if says_yes and 0 < len(words) <= MAX_ELABORATION_WORDS:
        return f"{claim.rstrip('.')}, {elaboration}.", sentence_end, markers_text, ""
    if says_yes or len(words) > MAX_ELABORATION_WORDS:
        return None
    if _NOT_AT_ALL.fullmatch(elaboration):
        return claim, sentence_end, markers_text, ""  # "No, not at all."
    if scope := _NOT_SCOPE.match(elaboration):  # "No — not in children.": the denial, that far
        rest = elaboration[scope.end() :]
        return f"{claim.rstrip('.')}, {rest}.", sentence_end, markers_text, rest
    return None  # "No, by 5 mmHg": what a "No" with no clause denies is unclear


def _denial(question: str, proposition: str) -> str | None:
    """What a "No" to ``question`` states: the proposition negated at its verb
    (:func:`~spanproof.verify.proposition.negation_of`), else "It is not the case that …";
    None for a negative question ("Does X not lower Y?"), where a "No" is ambiguous."""
    negated = negation_of(question)
    if negated is not None:
        return negated
    if _NEGATIVE.search(positive_question(question)):
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
    """The question a message asks, without a "Question:" or "Q:" label; "" when there is none
    or it is over :data:`MAX_QUESTION_WORDS` words. A message of one sentence is read whole;
    of several (a RAG prompt), the question is, in this order:

    * the last sentence labelled "Question:" or "Q:" that ends in "?", wherever it stands
      ("Question: Did X lower Y?\\n\\nContext: …");
    * the last sentence ending in "?" when what follows it is a short trailer of at most
      :data:`MAX_TRAILER_WORDS` words ("Context: … Did X lower Y?\\nHelpful Answer:",
      "… Did X lower Y? Answer yes or no.");
    * the first sentence, when it ends in "?" and no other sentence does ("Did X lower
      Y?\\n\\nContext: …").

    A question that only points to a claim beside it ("Claim: X. Is this claim supported by the
    context?", "X. True or false?", "Is the following statement true? X.") gives that claim,
    a statement, without its "Claim:" label. A statement of several sentences is no question to
    read "Yes." by, and neither is a question in the middle of a long message that is not
    labelled as the question.

    >>> question_of("Context: Walking lowered it.\\n\\nQuestion: Did walking lower it?")
    'Did walking lower it?'
    >>> question_of("Context: Walking lowered it.\\n\\nDid walking lower it?\\nHelpful Answer:")
    'Did walking lower it?'
    """
    sentences = [s.text.strip() for s in split_sentences(message.strip())]
    asks = [k for k, text in enumerate(sentences) if text.endswith("?")]
    if len(sentences) == 1:
        chosen = 0
    elif labelled := [k for k in asks if _LABEL.match(sentences[k])]:
        chosen = labelled[-1]
    elif asks and _words_after(sentences, asks[-1]) <= MAX_TRAILER_WORDS:
        chosen = asks[-1]
    elif asks == [0]:
        chosen = 0
    else:
        return ""
    question = _LABEL.sub("", sentences[chosen], count=1).strip()
    if _FRAME_ONLY.match(question):
        # "Claim: X. Is this claim true?" / "Is the following statement true? X.": the claim
        # the frame points to is what a "Yes" or "No" answers
        after = chosen == 0 or re.search(r"\bfollowing\b", question, re.I) is not None
        at = chosen + 1 if after else chosen - 1
        if not 0 <= at < len(sentences) or sentences[at].endswith("?"):
            return ""
        question = _CLAIM_LABEL.sub("", sentences[at], count=1).strip()
    return question if 0 < len(question.split()) <= MAX_QUESTION_WORDS else ""


def _words_after(sentences: Sequence[str], k: int) -> int:
    """How many words the sentences after the ``k``-th hold."""
    return sum(len(text.split()) for text in sentences[k + 1 :])


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
    asked = question_of(question)
    if kept and (subject := subject_of(asked)):
        kept[0] = _named(kept[0], subject, _plural(asked, subject), draft, b)
    negates = "" if found.says_yes else found.proposition
    first = Claim("c1", found.claim, found.span, found.cited_markers, negates)
    return [first] + [replace(c, id=f"c{k}") for k, c in enumerate(kept, start=2)]


#: What may stand between an answer sentence and the claim after it ("No — it …", "Yes. It …").
_BETWEEN = " \t\n.,;:!—–-*_"


def _plural(question: str, subject: str) -> bool:
    """Whether the question's subject reads as plural: by its auxiliary where that shows
    number ("Do masks …", "Are …"), else by its last word ending in a plural "-s"."""
    aux = positive_question(question).split(" ", 1)[0].lower()
    if aux in ("do", "are", "were", "have"):
        return True
    if aux in ("does", "is", "was", "has"):
        return False
    last = subject.rsplit(maxsplit=1)[-1].lower()
    return last.endswith("s") and not last.endswith(("ss", "is", "us"))


def _named(claim: Claim, subject: str, plural: bool, draft: str, after: int) -> Claim:
    """``claim`` with the pronoun that opens it ("it", or "they" for a plural subject) replaced
    by the question's ``subject``, when it follows the answer sentence ending at ``after`` with
    only punctuation between ("Yes — it lowered systolic blood pressure." → "Daily walking
    lowered systolic blood pressure"); ``claim`` as it is otherwise. The claim's span stays on
    the draft's words; only the text the verifier reads names the subject."""
    span = claim.draft_span
    if span is None or draft[after : span[0]].strip(_BETWEEN):
        return claim
    return name_pronoun(claim, subject, plural)


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
