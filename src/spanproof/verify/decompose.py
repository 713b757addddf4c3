"""Decomposition (SPEC §4.3): the LLM prompt and reply parser, and the rule-based decomposer.

Both paths give the same contract: claims ``c1, c2, ...`` in draft order, each with a
``draft_span`` of code-point offsets into the draft and the ``S#`` markers it cites.

The slice rule, shared by both paths: a claim's text is :func:`clean_claim_text` of its slice,
i.e. ``draft[start:end]`` with every citation marker (``[S1]``, ``[S2, S3]``) and the whitespace
before it removed, Markdown syntax and invisible format characters (a zero-width space, a soft
hyphen: :data:`INVISIBLE`) removed, then stripped of surrounding whitespace and trailing
``. , ; : ! …``.
The rule-based decomposer guarantees ``clean_claim_text(draft[start:end]) == claim.text``.

Rule-based decomposer (``rules-v6``), in order:

1. Blocks, reading the draft as Markdown (:func:`spanproof.text.markdown.markdown_lines`):
   headings (``#``, a line underlined with ``===`` or ``---``, a line that is one bold phrase
   such as ``**Key findings**``), code fences and the code in them, thematic breaks, footnote
   definitions (``[^1]: …``) and a table's header and separator rows are skipped; a line starting
   with a list bullet (``-``, ``*``, ``+``, ``•``, ``1.``, ``1)``, nested ones such as ``- 1.``,
   and a task box ``[ ]``) starts a new block without its bullet, and so does a block quote
   without its ``>``; each table row is a block and one claim, its cells joined by ``; ``
   (:func:`spanproof.verify.tables.with_table_context` reads it with its header before it is
   scored). Each
   other block is cut into sentences by :func:`spanproof.text.sentences.split_sentences`, run on
   the draft with markers and inline Markdown blanked out
   (:func:`spanproof.text.markdown.blank_markdown`: ``**``, ``_``, backticks, a link's address,
   a footnote reference) so ``Foo.[S1] Bar`` still breaks after ``Foo.``. A claim's span grows
   over the syntax right around it, so it holds both halves of a ``**…**`` pair, and
   :func:`clean_claim_text` removes the syntax from its text (``**Walking** lowered`` →
   ``Walking lowered``).
2. Markers: a marker belongs to the sentence it sits in or, between sentences, to the sentence
   before it in the same block (the first sentence when it opens the block).
3. Skipped sentences: questions (ending in ``?``); announcements (ending in ``:``, or starting
   with "here is", "let us", "to summarise", ...); pure transitions (nothing left once leading
   discourse markers such as "However," or "In summary," are removed). Leading discourse markers
   are also cut from the claims that remain (from both text and span), and since ``rules-v3``
   so is a frame that only attributes the claim to the sources, leading or trailing
   ("According to the study, X", "Based on the provided context, X", "The sources show that
   X", "As the authors noted, X", "X, according to the trial [2]"; since ``rules-v5`` also
   "X, the study found", "X, which the authors reported", "X, as reported", "X, which was
   shown in the trial", "X (as shown in [1])", "X (see [2])"): the sources are what the
   claim is checked against. A named attribution ("According to Smith et al., X") is a claim
   of its own and stays, and so does a hedged one ("Evidence suggests that X"). Since
   ``rules-v2`` the markers include a chat answer's interjections and greetings ("Sure!", "Of
   course,", "Hello there!", "Great question:"), and sentences opening with a closing courtesy
   ("I hope this helps", "Let me know if …", "Feel free to …": :data:`COURTESIES`) are skipped
   too.
4. Coordination: a sentence splits at ``; `` and at ``, and`` / ``, but`` / ``, while`` /
   ``, whereas`` only when both sides look like clauses: at least 3 words and a verb cue (an
   auxiliary or common verb from :data:`~spanproof.verify.proposition.VERB_CUES`, or a word of
   5+ letters ending in ``-ed``).
   "X and Y increased Z" has no comma and never splits. Each clause keeps the markers inside it
   and the markers right after it; a clause without markers inherits the sentence's last clause's.
5. Hedges: a clause is skipped when it opens with a hedge cue (:data:`HEDGE_OPENERS`, e.g. "may",
   "perhaps", "it seems", "we think"), or when hedge words (:data:`HEDGE_WORDS`) number two or
   more or make up at least a quarter of its words ("This may help.").

6. ``rules-v4``: numeric citation markers are citations (``[1]``, ``[2, 3]``, ``[4–6]``, a link
   ``[1](https://…)``: :data:`NUMERIC_MARKER_RE`; a source named in words, "(Source 1)",
   "(sources 2 and 3)", "[Ref. 4]", and a footnote number in superscript after punctuation or
   a word of four letters or more, "pressure.¹": :data:`NAMED_MARKER_RE`), read as ``S1``,
   ``S2``…, the k-th evidence item or the one with that id (and, in a draft with no ``[S1]``
   marker, as the item whose id is the number: :func:`markers_as_ids`); a reference definition line
   (``[1]: https://…``, ``¹ Source``) is skipped like a footnote definition, and so is a list
   item or paragraph that opens with a marker and holds no clause ("- [1] Walking and blood
   pressure (demo)"); so is a sentence that only points to sources ("See [1] and [2] for
   details."), an answer word ending a sentence of its own ("No. Walking lowered …" → "Walking
   lowered …"; "No. 5 …" stays), a dash after a discourse marker ("Yes — X"), a clause that
   only echoes a question's auxiliary ("it does", "they did not", "that's correct"; before a
   clause of its own, "it did: X", it is cut from it), and a bold label the clause repeats
   ("**Walking**: Daily walking lowered …"; "**Blood pressure:** walking lowered it" keeps its
   label). With the question known, an answer's "Yes."/"No." is read by
   :mod:`spanproof.verify.yes_no`.
7. ``rules-v6``: a claim that opens with "it" or "they" (after "and", "but" or "so") is read with
   the subject of the claim before it in the pronoun's place, when the rules find one that
   agrees in number ("Aspirin lowered the risk of stroke. It also raised bleeding." → "Aspirin
   also raised bleeding"); a pronoun that names nothing ("it is likely that …") is kept. The
   claim's span stays on the draft's words (:mod:`spanproof.verify.pronouns`).

Limits: no parser, so a coordination without a comma ("A rose and B fell") stays one claim, a
verb-less second clause ("A rose 5%, and B 3%") is not split, hedged long sentences ("X may
reduce Y in older adults") are kept, single newlines inside a paragraph do not end a sentence,
and trailing dots of abbreviations at a claim's end are stripped with the sentence's full stop.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from spanproof.core.errors import InvalidInputError
from spanproof.core.models import Claim
from spanproof.core.ports import ChatMessage
from spanproof.core.replies import load_json_reply
from spanproof.text.markdown import blank_markdown, markdown_lines, strip_markdown
from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import token_texts
from spanproof.text.visible import INVISIBLE
from spanproof.verify.pronouns import name_pronouns
from spanproof.verify.proposition import VERB_CUES

#: rules-v2 (rules-v1 until then) also skips a chat answer's interjections, greetings and closing
#: courtesies ("Sure!", "Hello there!", "I hope this helps!", "Let me know if …"); rules-v3 reads
#: Markdown: its syntax leaves claim texts, tables give a claim per row, code is skipped;
#: rules-v4 reads numeric citation markers ("[1]") as citations, skips reference definitions
#: ("[1]: https://…"), an answer word ending its own sentence ("No. X" → X) and a clause that
#: only echoes a question ("No, it does not.": see :mod:`spanproof.verify.yes_no`); rules-v5
#: cuts more trailing frames that only attribute the claim to the sources ("X, the trial
#: found", "X, which the authors reported", "X, as reported", "X (as shown in [1])"); rules-v6
#: reads a claim that opens with "it" or "they" with the previous claim's subject in its place
#: ("Aspirin lowered X. It also raised Y." → "Aspirin also raised Y": :mod:`spanproof.verify.
#: pronouns`).
RULES_MODEL_ID = "rules-v6"

DECOMPOSE_SYSTEM_PROMPT = """\
You split a draft answer into atomic factual claims.

Return ONLY a JSON array, with no text before or after it. Each element is an object:
{"claimText": "<one claim>", "draftSpan": [start, end], "citedMarkers": ["S1"]}

Rules:
1. claimText states exactly one fact, in the draft's own words where possible, without \
citation markers.
2. draftSpan is [start, end]: Unicode code-point offsets into the draft (0-based, end \
exclusive) of the draft text the claim comes from. 0 <= start < end <= length of the draft, \
and the text between them must not be blank.
3. Split compound sentences into one claim per fact ("A rose, and B fell" gives two claims).
4. Omit everything that is not a factual claim: hedges and speculation ("may", "might", \
"perhaps", "possibly", "we think"), transitions and signposting ("However,", "In summary,", \
"Here is what we found:"), and questions.
5. citedMarkers lists the citation markers attached to the claim's sentence, such as [S1] or \
[S2, S3], written without brackets ("S1", "S2", "S3"); use [] when the sentence cites nothing.
6. If the draft has no factual claim, return [].
"""

MARKER_RE = re.compile(r"\[[ \t]*S\d+(?:[ \t]*[,;][ \t]*S\d+)*[ \t]*\]")
#: rules-v4: a numeric citation marker, as chat answers cite their sources: "[1]", "[2, 3]",
#: "[4–6]", "[1][3]" cite ``S1``, ``S2`` and ``S3``, ``S4`` to ``S6``, ``S1`` and ``S3`` (the k-th
#: evidence item, or the one with that id), and so does a link whose text is such a marker
#: ("[1](https://…)"). Not a
#: reference link's label ("[text][1]"), a reference definition ("[1]: https://…") or a number
#: with a leading zero ("[0, 1]").
NUMERIC_MARKER_RE = re.compile(
    r"(?<!\])(?:\[[ \t]*[1-9]\d{0,3}(?:[ \t]*[,;–—-][ \t]*[1-9]\d{0,3})*[ \t]*\])+"
    r"(?:\((?:[^()\s]|\([^()\s]*\))+\))?(?![(\[:])"
)
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_NUMBER_LIST = r"[1-9]\d{0,3}(?:\s*(?:[,;&–—-]|and)\s*[1-9]\d{0,3})*"
#: rules-v4: a source named in words, "(Source 1)", "(sources 1 and 2)", "[Ref. 3]", "[source:
#: 1]", markers in brackets of their own, "([1])", "(see [2, 3])", a chat interface's "【1】", and a
#: footnote number in superscript right after punctuation or a word of four letters or more
#: ("pressure.¹", "pressure²"; not "m²" or "x²").
_NUMERIC_CORE = r"\[[ \t]*(?:S?[1-9]\d{0,3})(?:[ \t]*[,;–—-][ \t]*S?[1-9]\d{0,3})*[ \t]*\]"
NAMED_MARKER_RE = re.compile(
    rf"[(\[]\s*(?:sources?|refs?\.?|references?|documents?|docs?|passages?|contexts?)\s*[#:]?\s*"
    rf"{_NUMBER_LIST}\s*[)\]]"
    # markers in brackets of their own: "([1])", "(see [2, 3])", "(cf. [S1])"
    rf"|\(\s*(?:(?:see|cf\.?|e\.g\.,?)\s+)?{_NUMERIC_CORE}(?:\s*[,;]?\s*{_NUMERIC_CORE})*\s*\)"
    # a chat interface's marker: "【1】", "【4:0†source】" (its first number)
    r"|【[1-9]\d{0,3}[^】\n]{0,40}】"
    rf"|(?:(?<=[.,;:!?)\]])|(?<=[^\W\d_]{{4}}))[¹²³⁴⁵⁶⁷⁸⁹][{_SUPERSCRIPTS}]?(?![{_SUPERSCRIPTS}])",
    re.IGNORECASE,
)
#: rules-v4: a block that opens with a citation marker and holds no clause lists a source ("[1]
#: Walking and blood pressure (demo)", "¹ Sodium restriction"); it states no claim ("[1] Walking
#: lowered blood pressure." does, citing S1).
_REFERENCE_ENTRY = re.compile(r"[ \t]*(?:\[[ \t]*S?\d{1,4}[ \t]*\]|[¹²³⁴⁵⁶⁷⁸⁹])", re.IGNORECASE)
#: Every citation marker the decomposers read: ``[S1]`` and (rules-v4) ``[1]``, ``(Source 1)``,
#: ``¹``.
CITATION_MARKER_RE = re.compile(
    f"{MARKER_RE.pattern}|{NUMERIC_MARKER_RE.pattern}|{NAMED_MARKER_RE.pattern}", re.IGNORECASE
)
#: A marker and the whitespace before it. The match starts where a whitespace run starts (or at
#: the marker), so a long run is scanned once, not once per character.
_MARKER_WITH_SPACE = re.compile(r"(?<!\s)\s*(?:" + CITATION_MARKER_RE.pattern + ")", re.IGNORECASE)
_MARKER_ID = re.compile(r"S(\d+)")
_NUMBER_RANGE = re.compile(r"(\d+)(?:[ \t]*[–—-][ \t]*(\d+))?")
#: The widest range a numeric marker is read as ("[1-50]"); a wider one cites its ends only.
_MAX_RANGE = 50


def marker_numbers(marker: str) -> list[str]:
    """The evidence numbers a marker cites, in order: ``[S2, S3]`` → 2, 3; ``[4–6]`` → 4, 5, 6.

    >>> marker_numbers("[S1; S3]"), marker_numbers("[2, 4-6]"), marker_numbers("(Sources 1 and 3)")
    (['1', '3'], ['2', '4', '5', '6'], ['1', '3'])
    """
    if MARKER_RE.fullmatch(marker):
        return _MARKER_ID.findall(marker)
    if marker.startswith("【"):  # "【4:0†source】": the first number names the source
        found = _NUMBER_RANGE.search(marker)
        return [found[1]] if found else []
    marker = marker.translate(str.maketrans(_SUPERSCRIPTS, "0123456789"))
    body = marker.split("](", 1)[0]  # not a link's address
    out: list[str] = []
    for match in _NUMBER_RANGE.finditer(body):
        first, last = int(match[1]), int(match[2] or match[1])
        if first <= last <= first + _MAX_RANGE:
            out.extend(str(n) for n in range(first, last + 1))
        else:
            out.extend(dict.fromkeys((str(first), str(last))))
    return out


_TRAILING = " \t\r\n\f\v\u00a0.,;:!…"
_EMPHASIS = "*_~ \t\r\n"


def markers_as_ids(
    draft: str,
    claims: Sequence[Claim],
    ids: Collection[str],
    documents: Mapping[str, Sequence[str]] | None = None,
) -> list[Claim]:
    """``claims`` with each numeric citation read as the evidence it numbers.

    A draft that cites "[1]", "(Source 2)" or "³" (no ``[S1]`` marker anywhere) numbers its
    sources as it was shown them. The decomposer reads every marker as ``S<k>`` (the k-th item,
    or the one with that id); here a claim citing ``S1`` cites instead, when no evidence id is
    ``S1``:

    * ``1``, when an evidence id is ``1``: a pipeline that showed the model "[3] …", "[1] …"
      cites "[1]" for the item with id ``1``, wherever it stands;
    * else the ids ``documents`` lists under ``1``: the sentences of the document a prompt
      labelled "[1]" or "Document 1:" (the proxy's message evidence, whose spans are
      sentences: :func:`spanproof.services.chat_proxy.message_evidence`).

    A draft with ``[S1]`` markers uses spanproof's own labels, the k-th item, and keeps them; so
    does every claim whose number names no such id or document. Scoring resolves a marker by id
    first (:func:`spanproof.verify.scoring.resolve_markers`), and a trace stores the markers its
    claims were scored with, so replay reads them as they were.
    """
    documents = documents or {}
    if MARKER_RE.search(draft) or not (documents or any(i.isdigit() for i in ids)):
        return list(claims)

    def as_ids(marker: str) -> Sequence[str]:
        if marker in ids or not _MARKER_ID.fullmatch(marker):
            return (marker,)
        number = marker[1:]
        if number in ids:
            return (number,)
        return documents.get(number) or (marker,)

    out: list[Claim] = []
    for claim in claims:
        markers = tuple(dict.fromkeys(i for m in claim.cited_markers for i in as_ids(m)))
        same = markers == claim.cited_markers
        out.append(claim if same else replace(claim, cited_markers=markers))
    return out


def clean_claim_text(fragment: str) -> str:
    """The claim text of a draft slice: markers removed, Markdown syntax removed
    (:func:`spanproof.text.markdown.strip_markdown`: ``**``, a link's address, a footnote
    reference, a table row's pipes), invisible format characters removed (:data:`INVISIBLE`),
    trailing punctuation stripped."""
    text = strip_markdown(_MARKER_WITH_SPACE.sub("", INVISIBLE.sub("", fragment))).strip()
    # emphasis cut in two by a sentence end ("**A. B.**") leaves its marks at the ends
    return text.strip(_EMPHASIS).rstrip(_TRAILING).rstrip(_EMPHASIS).rstrip(_TRAILING).strip()


def build_decompose_messages(draft: str) -> list[ChatMessage]:
    """The fixed system prompt and a user message showing ``draft``; byte-stable per draft."""
    user = (
        f"Draft ({len(draft)} code points; offsets count from its first character, "
        "which follows the <draft> line):\n"
        f"<draft>\n{draft}\n</draft>"
    )
    return [ChatMessage("system", DECOMPOSE_SYSTEM_PROMPT), ChatMessage("user", user)]


def prompt_hash(messages: Sequence[ChatMessage]) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces, UTF-8) of ``messages``."""
    payload = [{"content": m.content, "role": m.role} for m in messages]
    canonical = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- LLM reply parsing


def parse_claims(raw: str, draft: str) -> list[Claim]:
    """Parse a decomposer reply into claims, validating every item against ``draft``.

    Accepts a bare JSON array, an object ``{"claims": [...]}``, or either inside one code fence
    (```` ```json ```` or plain ```` ``` ````) with nothing but whitespace around it.
    ``citedMarkers`` may be omitted (no markers). Markers in ``claimText`` are removed from the
    text and added to the cited markers.

    Raises:
        InvalidInputError: the reply is not such JSON, or an item is malformed; the message
            names the item and field.
    """
    items = _claim_items(load_json_reply(raw, "decomposer reply", "a JSON array of claims"))
    return [_claim_from_item(index, item, draft) for index, item in enumerate(items)]


def _claim_items(payload: Any) -> list[Any]:
    if isinstance(payload, dict):
        if set(payload) != {"claims"}:
            raise InvalidInputError(
                f"decomposer reply object must have exactly one key 'claims', got {sorted(payload)}"
            )
        payload = payload["claims"]
    if not isinstance(payload, list):
        raise InvalidInputError(
            f"decomposer reply must be a JSON array of claims, got {_json_type(payload)}"
        )
    return payload


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")


def _claim_from_item(index: int, item: Any, draft: str) -> Claim:
    where = f"claims[{index}]"
    if not isinstance(item, dict):
        raise InvalidInputError(f"{where} must be an object, got {_json_type(item)}")
    raw_text = item.get("claimText")
    if not isinstance(raw_text, str) or not raw_text.strip():
        raise InvalidInputError(f"{where}.claimText must be a non-empty string")
    text = clean_claim_text(raw_text)
    if not text:
        raise InvalidInputError(f"{where}.claimText has no text besides citation markers")
    span = _span(where, item.get("draftSpan"), draft)
    markers = _markers(where, item.get("citedMarkers", []))
    for found in CITATION_MARKER_RE.findall(raw_text):
        markers.extend(marker_numbers(found))
    return Claim(f"c{index + 1}", text, span, _unique_ids(markers))


def _span(where: str, value: Any, draft: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise InvalidInputError(
            f"{where}.draftSpan must be [start, end] with two integers, got {json.dumps(value)}"
        )
    start, end = value
    if not 0 <= start < end <= len(draft):
        raise InvalidInputError(
            f"{where}.draftSpan [{start}, {end}] is out of bounds or empty: need "
            f"0 <= start < end <= {len(draft)} (the draft's length in code points)"
        )
    if not draft[start:end].strip():
        raise InvalidInputError(f"{where}.draftSpan [{start}, {end}] covers only whitespace")
    return start, end


def _markers(where: str, value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidInputError(f"{where}.citedMarkers must be an array of strings like 'S1'")
    out: list[str] = []
    for position, marker in enumerate(value):
        match = (
            re.fullmatch(r"\[?\s*[Ss]\s*(\d+)\s*\]?", marker) if isinstance(marker, str) else None
        )
        if match is None:
            raise InvalidInputError(
                f"{where}.citedMarkers[{position}] must be a marker string like 'S1', "
                f"got {json.dumps(marker)}"
            )
        out.append(match[1])
    return out


def _unique_ids(numbers: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"S{int(n)}" for n in numbers))


# --------------------------------------------------------------------------- rule-based path

HEDGE_OPENERS = (
    "may", "might", "could", "perhaps", "possibly", "maybe", "presumably", "conceivably",
    "arguably", "hopefully", "likely", "probably", "it is possible", "it's possible",
    "it is plausible", "it is likely", "it is unclear", "it remains unclear", "it may", "it might",
    "it could", "it seems", "it appears", "this may", "this might", "this could", "that may",
    "there may", "there might", "we think", "i think", "we believe", "i believe", "we suspect",
    "we speculate", "we hypothesize", "we hypothesise", "one could", "one might",
)  # fmt: skip
HEDGE_WORDS = frozenset(
    {
        "may", "might", "could", "perhaps", "possibly", "maybe", "arguably", "presumably",
        "conceivably", "likely", "unlikely", "probably", "seemingly", "apparently", "potentially",
        "speculative", "speculatively",
    }
)  # fmt: skip
DISCOURSE_MARKERS = (
    "however", "in summary", "summary", "overall", "in conclusion", "to conclude", "in short",
    "in brief", "briefly", "finally", "lastly", "first", "firstly", "second", "secondly",
    "third", "thirdly", "next", "then", "moreover", "furthermore", "additionally",
    "in addition", "also", "thus", "therefore", "hence", "consequently", "as a result",
    "notably", "importantly", "similarly", "likewise", "in contrast", "by contrast",
    "conversely", "meanwhile", "taken together", "together", "in particular", "specifically",
    "indeed", "nevertheless", "nonetheless", "still", "in turn", "for example", "for instance",
    "in fact", "instead", "altogether", "to summarise", "to summarize", "in sum",
    # rules-v2: a chat answer's interjections and greetings ("Sure!", "Great question:")
    "sure", "certainly", "of course", "absolutely", "okay", "great question", "good question",
    "hello", "hello there", "hi", "hi there", "thanks", "thank you", "thanks for asking",
    "thank you for asking",
    # rules-v3: an answer's verdict word or label before what it says ("Yes, X", "Short
    # answer: X"); alone ("Yes.") it is a pure transition, checked as nothing
    "yes", "no", "short answer", "the short answer", "in a word", "bottom line",
    "the bottom line", "key takeaway", "answer", "the answer",
    # rules-v4: more of them ("Nope.", "Yep, X")
    "yeah", "yep", "nope",
)  # fmt: skip
#: rules-v4: an answer word ending a sentence of its own before the next ("No. Walking lowered
#: …", which the sentence splitter reads as the abbreviation of "number" when a capital follows).
_ANSWER_WORD_SENTENCE = re.compile(r"(?:yes|no|yeah|yep|nope)[.!]+\s+(?=[A-Z])", re.IGNORECASE)
#: rules-v4: a bold label before a clause, "**Walking**:" or "**Walking:**", of at most
#: :data:`_MAX_LABEL_WORDS` words.
_BOLD_LABEL = re.compile(r"(\*\*|__)([^*_:\n]{1,60}?)(?::\1|\1[ \t]*:)[ \t]*")
_MAX_LABEL_WORDS = 6
#: rules-v4: the words of a sentence that only points to sources ("See [1] and [2] for details.").
_POINTER_WORDS = frozenset(
    {
        "see", "also", "and", "or", "cf", "e.g", "for", "details", "detail", "more",
        "information", "further", "reading", "the", "sources", "source", "references",
        "reference", "refs", "ref", "above", "below",
    }
)  # fmt: skip
#: rules-v4: a clause that only echoes a question's auxiliary ("it does", "they did not",
#: "that's correct"): it states nothing a reader of the evidence could check (a pattern, also
#: read after an answer word by :mod:`spanproof.verify.yes_no`).
ECHO = (
    r"(?:(?:it|they|he|she|this|that|there|we|you|i)\s+"
    r"(?:(?:is|are|was|were|does|do|did|can|could|will|would|has|have|had|should|may|might|must)"
    r"(?:n['’]t|\s+not)?|cannot|can['’]t|won['’]t)"
    r"|(?:it|that|this|there)['’]s(?:\s+not)?)"
    r"(?:\s+(?:true|correct|right|the\s+case|so|too|indeed))?"
)
_ECHO_CLAUSE = re.compile(ECHO, re.IGNORECASE)
#: rules-v4: an echo before a clause of its own ("it did: blood pressure fell …").
_ECHO_LEAD = re.compile(rf"(?:{_ECHO_CLAUSE.pattern})\s*(?:[:;—–]|\s-)\s*", re.IGNORECASE)
ANNOUNCEMENTS = (
    "here is", "here are", "here's", "below is", "below are", "let us", "let's",
    "to summarise", "to summarize", "this answer", "in this answer", "we now",
)  # fmt: skip
#: rules-v2: the courtesies a chat answer closes with ("I hope this helps!", "Let me know if you
#: have other questions."): skipped like announcements.
COURTESIES = (
    "i hope this helps", "hope this helps", "i hope that helps", "hope that helps",
    "let me know", "please let me know", "feel free to", "please feel free to",
    "if you have any questions", "if you have any other questions", "if you have other questions",
    "if you have further questions", "if you have more questions", "if you need anything else",
    "happy to help", "glad to help", "i'm happy to help", "i am happy to help",
    "i'd be happy to", "i would be happy to",
)  # fmt: skip
_ED_NON_VERBS = frozenset({"hundred", "speed", "breed", "indeed", "creed", "steed", "tweed"})

_SEPARATOR = re.compile(r";\s+|,\s+(?:and|but|while|whereas)\s+", re.IGNORECASE)
_DISCOURSE = re.compile(
    r"(?:"
    + "|".join(re.escape(m) for m in sorted(DISCOURSE_MARKERS, key=len, reverse=True))
    # rules-v4: a dash after the marker too ("Yes — X", "In short - X")
    + r")(?:\s*[,:]|\s*[—–]|\s+-)\s*",
    re.IGNORECASE,
)
#: What may close a sentence after its last word: quotes and brackets.
CLOSERS = " \t\r\n\"'”’)]"
#: rules-v3: what a generic reference to the sources is ("the study", "the provided context",
#: "these trials", "research", "source 2", "[1]"). A named one ("Smith et al.") is a claim of
#: its own and stays.
_SOURCE_NOUNS = (
    "trials?|stud(?:y|ies)|sources?|contexts?|documents?|papers?|articles?|research|evidence|"
    "data|results|findings|authors|researchers|investigators|reports?|literature|analys[ie]s|"
    "(?:systematic |meta-)?reviews?|meta-analys[ie]s|text|passages?|excerpts?|abstracts?|"
    "information|surveys?|experiments?|investigations?|cohorts?"
)
_SOURCE = (
    r"(?:(?:the|this|that|these|those|our|your|one|a|an|several|many|multiple|other|some)\s+)?"
    r"(?:(?:provided|given|cited|retrieved|available|included|above|original|published|"
    r"clinical|randomi[sz]ed|controlled|recent|previous|large|new|same|current|present)\s+)*"
    rf"(?:{_SOURCE_NOUNS})(?:\s+\d{{1,3}})?(?:\s*\[[^\]\n]{{1,12}}\])?"
    r"|\[[^\]\n]{1,12}\]"
)
_SAYS = (
    r"(?:(?:has|have|had)\s+)?(?:found|finds?|show(?:s|ed|n)?|demonstrat(?:es?|ed)|report(?:s|ed)?|"
    r"stat(?:es?|ed)|not(?:es?|ed)|indicat(?:es?|ed)|reveal(?:s|ed)?|confirm(?:s|ed)?|"
    r"observ(?:es?|ed)|conclud(?:es?|ed)|establish(?:es|ed)?|says?|said|"
    r"explain(?:s|ed)?|describ(?:es?|ed)|mention(?:s|ed)?)"
)
_ACCORDING = (
    r"(?:according\s+to|as\s+per|per|based\s+on|as\s+(?:reported|described|shown|noted|"
    r"stated|found|explained|discussed|summari[sz]ed|mentioned)\s+(?:in|by))"
)
_ATTRIBUTION_LEAD = re.compile(
    # rules-v4: the source may be a marker, blanked before this is read ("According to [1], X")
    rf"(?:{_ACCORDING}(?:\s+(?:{_SOURCE}))?|as\s+(?:{_SOURCE})\s+{_SAYS})\s*,\s*"
    rf"|(?:{_SOURCE})\s+{_SAYS}\s+that\s+",
    re.IGNORECASE,
)
#: rules-v5: a participle of reporting ("as reported", "which was shown in the trial").
_REPORTED = (
    r"(?:reported|described|shown|noted|stated|found|explained|discussed|summari[sz]ed|"
    r"mentioned|demonstrated|observed|confirmed|established|indicated|revealed)"
)
_ATTRIBUTION_TAIL = re.compile(
    # "X, as the study reported"; rules-v5: "X, the trial found", "X, which the authors
    # reported", "X, as reported", "X, which was shown in the study"
    rf"(?:,\s*(?:{_ACCORDING}(?:\s+(?:{_SOURCE}))?|(?:as\s+|which\s+)?(?:{_SOURCE})\s+{_SAYS}"
    rf"|as\s+{_REPORTED}"
    rf"|which\s+(?:was|were|is|are|has\s+been|have\s+been)\s+{_REPORTED}"
    rf"(?:\s+(?:in|by)(?:\s+(?:{_SOURCE}))?)?)"
    # rules-v5: a frame in brackets, "X (as shown in [1])", "X (according to the study)",
    # "X (see [2])"; the markers inside are blanked before this is read
    rf"|\((?:{_ACCORDING}|as\s+{_REPORTED}|see|cf\.?)(?:\s+(?:{_SOURCE}))?\s*\))"
    rf"[\s.!…]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Marker:
    start: int
    end: int
    ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Unit:
    """A sentence of the masked draft and the block (paragraph or list item) it belongs to."""

    start: int
    end: int
    block: int


class RuleBasedDecomposer:
    """The offline decomposer (``rules-v6``); the rules are in this module's docstring."""

    @property
    def model_id(self) -> str:
        return RULES_MODEL_ID

    def decompose(self, draft: str) -> list[Claim]:
        """Claims of ``draft`` in order, ids ``c1, c2, ...``; ``[]`` for a blank draft."""
        markers = [
            _Marker(m.start(), m.end(), tuple(marker_numbers(m.group())))
            for m in CITATION_MARKER_RE.finditer(draft)
        ]
        unmarked = CITATION_MARKER_RE.sub(lambda m: " " * len(m.group()), draft)
        blocks = _blocks(unmarked)
        masked = blank_markdown(unmarked)
        units: list[_Unit] = []
        for index, (start, end, row) in enumerate(blocks):
            if _REFERENCE_ENTRY.match(draft, start, end) and not _is_clause(masked[start:end]):
                continue  # rules-v4: "- [1] Walking and blood pressure (demo)", a source listed
            if row:  # a table row is one claim, its cells joined
                a, b = _trim(masked, start, end)
                if a < b:
                    units.append(_Unit(a, b, index))
                continue
            units.extend(
                _Unit(start + s.start, start + s.end, index)
                for s in split_sentences(masked[start:end])
            )
        attached = _attach(markers, units, blocks)
        claims: list[Claim] = []
        for unit, unit_markers in zip(units, attached, strict=True):
            for span, cited in _sentence_claims(masked, unit, unit_markers, unmarked):
                start, end = _widen(unmarked, masked, *span)
                if claims:  # grown over syntax, a span never reaches into the claim before it
                    start = max(start, claims[-1].draft_span[1])  # type: ignore[index]
                text = clean_claim_text(draft[start:end])
                if any(ch.isalnum() for ch in text):
                    claims.append(Claim(f"c{len(claims) + 1}", text, (start, end), cited))
        return name_pronouns(claims)  # rules-v6


def _blocks(draft: str) -> list[tuple[int, int, bool]]:
    """Ranges of paragraphs, list items, quotes and table rows (rule 1), with whether each is a
    table row; headings, code, tables' header rows and the like left out, bullets cut off."""
    blocks: list[tuple[int, int, bool]] = []
    start: int | None = None
    quoted = False
    for line in markdown_lines(draft):
        kind = line.kind
        same = (kind == "quote") if quoted else (kind == "text")
        if kind == "blank" or (start is not None and same):
            continue  # a paragraph's, an item's or a quote's next line
        if start is not None:
            blocks.append((start, line.start, False))
            start = None
        quoted = kind == "quote"
        if kind == "text":
            start = line.start
        elif kind in ("item", "quote"):
            start = line.content
        elif kind == "row":
            content = draft[line.content : line.end]
            left = content.find("|") if content.lstrip().startswith("|") else -1
            right = content.rfind("|") if content.rstrip().endswith("|") else -1
            a = line.content + left + 1
            b = line.content + right if right > left else line.end
            blocks.append((a, b, True))
    if start is not None:
        blocks.append((start, len(draft), False))
    return blocks


def _widen(unmarked: str, masked: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` grown over the Markdown syntax blanked right around it (``**`` before a
    claim's first word, a link's address or a footnote reference after its last), so the
    claim's slice holds both halves of each pair and its text reads clean."""
    while start > 0 and masked[start - 1].isspace() and not unmarked[start - 1].isspace():
        start -= 1
    while end < len(masked) and masked[end].isspace() and not unmarked[end].isspace():
        end += 1
    return start, end


def _attach(
    markers: Sequence[_Marker], units: Sequence[_Unit], blocks: Sequence[tuple[int, int, bool]]
) -> list[list[_Marker]]:
    """Each marker goes to the sentence it is in or follows within its block (rule 2)."""
    out: list[list[_Marker]] = [[] for _ in units]
    starts = [u.start for u in units]
    block_starts = [b[0] for b in blocks]
    first_of_block: dict[int, int] = {}
    for index, unit in enumerate(units):
        first_of_block.setdefault(unit.block, index)
    for marker in markers:
        block = bisect.bisect_right(block_starts, marker.start) - 1
        if block < 0 or marker.start >= blocks[block][1] or block not in first_of_block:
            continue  # in a heading line, or in a block without sentences
        index = bisect.bisect_right(starts, marker.start) - 1
        same_block = index >= 0 and units[index].block == block
        out[index if same_block else first_of_block[block]].append(marker)
    return out


def _sentence_claims(
    masked: str, unit: _Unit, markers: Sequence[_Marker], unmarked: str
) -> list[tuple[tuple[int, int], tuple[str, ...]]]:
    """The (span, cited markers) of each factual clause of one sentence."""
    start = _skip_discourse(masked, unit.start, unit.end)
    start = _skip_label(unmarked, masked, start, unit.end)
    if _is_non_factual_sentence(masked[unit.start : unit.end], masked[start : unit.end]):
        return []
    start, end = _skip_attribution(masked, start, unit.end)
    clauses = _split_clauses(masked, start, end)
    clause_starts = [c[0] for c in clauses]
    spans = [list(c) for c in clauses]
    own: list[list[str]] = [[] for _ in clauses]
    for marker in markers:
        index = max(bisect.bisect_right(clause_starts, marker.start) - 1, 0)
        own[index].extend(marker.ids)
        span = spans[index]
        if marker.start >= span[1] and not masked[span[1] : marker.start].strip():
            span[1] = marker.end  # a marker right after the clause joins its span
    out: list[tuple[tuple[int, int], tuple[str, ...]]] = []
    for index, (clause_start, clause_end) in enumerate(clauses):
        if not _is_hedge(masked[clause_start:clause_end]):
            cited = _unique_ids(own[index] or own[-1])
            out.append(((clause_start, spans[index][1]), cited))
    return out


def _skip_label(unmarked: str, masked: str, start: int, end: int) -> int:
    """``start`` moved past a bold label that only names what the clause after it names
    (rules-v4): "**Walking**: Daily walking lowered …", "**Sodium:** Restricting sodium …" are
    checked as the clause. A label the clause does not repeat says what the clause is about
    ("**Blood pressure:** walking lowered it") and stays, and so does one before words that
    are no clause ("**Sodium**: no change")."""
    at = start - 2 if start >= 2 and unmarked[start - 2 : start] in ("**", "__") else start
    label = _BOLD_LABEL.match(unmarked, at, end)
    if label is None or len(label.group(2).split()) > _MAX_LABEL_WORDS:
        return start
    clause = masked[label.end() : end]
    named = {w.lower() for w in token_texts(label.group(2)) if any(c.isalnum() for c in w)}
    if named and named <= {w.lower() for w in token_texts(clause)} and _is_clause(clause):
        return _trim(masked, label.end(), end)[0]
    return start


def _skip_attribution(masked: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without a frame that only says the sources state the claim (rule 3):
    "According to the study, X", "The sources show that X", "X, as the trial reported"."""
    lead = _ATTRIBUTION_LEAD.match(masked, start, end)
    if lead is not None and lead.end() < end and any(c.isalnum() for c in masked[lead.end() : end]):
        start = lead.end()
    tail = _ATTRIBUTION_TAIL.search(masked, start, end)
    if tail is not None and any(c.isalnum() for c in masked[start : tail.start()]):
        end = tail.start()
    return start, end


def _skip_discourse(masked: str, start: int, end: int) -> int:
    """Move ``start`` past leading discourse markers followed by a comma or colon, and (rules-v4)
    past an answer word that ends a sentence before a capital ("No. Walking …") and an echo
    before a clause of its own ("Yes, it did: blood pressure fell …")."""
    while (
        match := _DISCOURSE.match(masked, start, end)
        or _ANSWER_WORD_SENTENCE.match(masked, start, end)
        or _ECHO_LEAD.match(masked, start, end)
    ) is not None and match.end() < end:
        start = match.end()
    return start


def _is_non_factual_sentence(sentence: str, rest: str) -> bool:
    """Questions, announcements and pure transitions (rule 3)."""
    tail = sentence.rstrip(CLOSERS)
    if tail.endswith(("?", ":")):
        return True
    cleaned = clean_claim_text(rest).lower().replace("’", "'")
    if not cleaned or cleaned in DISCOURSE_MARKERS or _ECHO_CLAUSE.fullmatch(cleaned):
        return True
    if set(token_texts(cleaned)) <= _POINTER_WORDS:
        return True  # rules-v4: "See [1] and [2] for details."
    return _starts_with_phrase(cleaned, ANNOUNCEMENTS) or _starts_with_phrase(cleaned, COURTESIES)


def _starts_with_phrase(text: str, phrases: Sequence[str]) -> bool:
    for phrase in phrases:
        if text.startswith(phrase) and (
            len(text) == len(phrase) or not text[len(phrase)].isalnum()
        ):
            return True
    return False


def _split_clauses(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut at coordination separators whose both sides look like clauses (rule 4)."""
    separators = list(_SEPARATOR.finditer(masked, start, end))
    clauses: list[tuple[int, int]] = []
    clause_start = start
    for index, separator in enumerate(separators):
        right_end = separators[index + 1].start() if index + 1 < len(separators) else end
        left = masked[clause_start : separator.start()]
        if _is_clause(left) and _is_clause(masked[separator.end() : right_end]):
            clauses.append((clause_start, separator.start()))
            clause_start = _skip_discourse(masked, separator.end(), end)
    clauses.append((clause_start, end))
    return [_trim(masked, a, b) for a, b in clauses]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _is_clause(text: str) -> bool:
    words = [w.replace("’", "'") for w in token_texts(text)]
    return len(words) >= 3 and any(_is_verb_cue(w) for w in words)


def _is_verb_cue(word: str) -> bool:
    if word in VERB_CUES:
        return True
    return len(word) >= 5 and word.endswith("ed") and word.isalpha() and word not in _ED_NON_VERBS


def _is_hedge(clause: str) -> bool:
    """Hedge openers, or hedge words that are two or more or a quarter of the words (rule 5)."""
    words = [w.replace("’", "'") for w in token_texts(clause)]
    if not words:
        return False
    lowered = " ".join(words)
    opens = _starts_with_phrase(lowered, HEDGE_OPENERS)
    if opens and words[0] == "may" and len(words) > 1 and words[1][:1].isdigit():
        opens = False  # "May 2020 saw ..." is a month
    hedges = sum(1 for w in words if w in HEDGE_WORDS)
    return opens or hedges >= 2 or (hedges > 0 and hedges * 4 >= len(words))
