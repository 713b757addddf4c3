"""A contrast spliced (score model v73): one side's act given to the other side's thing.

A source that contrasts two things in one sentence — "Two-factor authentication is optional for
personal accounts but mandatory for all organisation administrators", "Heavy rain forced
organisers to cancel the second day …, though Sunday's programme went ahead", "nerve activity is
increased during pregnancy while mean arterial pressure is maintained or reduced" — holds every
word of a claim that joins the act of one side to the thing of the other: "Two-factor
authentication is optional for organisation administrators", "… forced organisers to cancel
Sunday's programme", "nerve activity is reduced". Word overlap, embeddings and the gates read
such a claim as close to its span, because it is.

This module reads the contrast from :class:`~spanproof.core.parser.ParsedToken` sequences (no
parsing library: the parser is an adapter). A contrast is a clause or phrase joined to another
by "but", "yet", "whereas" or "while" (a conjunct), by "whereas", "while", "although" or
"though" (a subordinate clause of the other), or set against the clause or sentence before it
by "however" or "conversely": its two sides are the conjunct's (the subordinate clause's, the
later clause's) words and the rest of the words of the act it hangs on (the earlier clause or
sentence); a subject both sides share (the first act's, when the second names none or names it
by a pronoun) belongs to neither. A side's own words are its content words (stemmed lemmas) the
other side lacks.

:func:`contrast_splice` reports a claim that has no contrast of its own and a predicate (a verb
or an adjective, not a noun's modifier) that is one side's own word, whose subject or object —
or the object of a preposition that the predicate's side also uses — is headed by the other
side's own word and holds no word of the predicate's side. "Sunday's programme at the Lindqvist
Folk Festival went ahead" (the other side's subject with its own verb, a place from the first
side after a preposition the second side does not use) is not one.

Known limits: a contrast across sentences is read only after "However" or "Conversely"; a
predicate the claim words otherwise than its side ("increases" for "higher") is not read; a
parse error can attach a clause to the wrong word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from spanproof.core.parser import ParsedToken, children_of
from spanproof.text.stems import stem

__all__ = ["ContrastSplice", "contrast_splice", "contrasts"]

#: Conjunctions that join a contrasted conjunct ("optional for X but mandatory for Y").
_CONTRAST_CC = frozenset(("but", "yet", "whereas", "while"))
#: Adverbs that set a clause or sentence against the one before ("…; however, …").
_CONTRAST_ADVERBS = frozenset(("however", "conversely"))
#: Relations by which the parser may hang the clause before "however" on the clause after it.
_CLAUSES = frozenset(("ccomp", "conj", "parataxis"))
#: Subordinators of a contrasted clause ("…, though Sunday's programme went ahead").
_CONTRAST_MARK = frozenset(("whereas", "while", "although", "though"))
#: Parts of speech of a side's content words.
_CONTENT_POS = frozenset(("NOUN", "PROPN", "VERB", "ADJ", "NUM"))
#: Parts of speech of an argument's words ("a compact format": "compact" is the second side's).
_ARGUMENT_POS = frozenset(("NOUN", "PROPN", "NUM", "ADJ"))
#: A predicate's subject relations.
_SUBJECTS = frozenset(("nsubj", "nsubjpass", "expl", "csubj"))
#: A predicate's subject and object relations.
_CORE = frozenset(("nsubj", "nsubjpass", "dobj", "attr", "oprd"))
#: Relations of a predicate's prepositions.
_PREPOSITIONS = frozenset(("prep", "agent", "dative"))
#: A verb or adjective in these relations modifies a noun: no predicate of the claim's.
_MODIFIERS = frozenset(("amod", "compound", "nmod"))
#: A verb in these relations describes a noun ("mice infected with …", "who must use …"): no act
#: of its side's.
_DESCRIBING = frozenset(("acl", "relcl"))


#: A word that can join a contrast, as :func:`contrasts` looks for it in plain text.
_CONTRAST_WORD = re.compile(
    r"\b(?:" + "|".join(sorted(_CONTRAST_CC | _CONTRAST_MARK)) + r")\b", re.IGNORECASE
)


def contrasts(text: str) -> bool:
    """Whether ``text`` holds a word that can join a contrast ("but", "whereas" …): a copy that
    drops such a word may join the act of one side to the thing of the other."""
    return _CONTRAST_WORD.search(text) is not None


@dataclass(frozen=True, slots=True)
class ContrastSplice:
    """A claim that joins one side's act to the other side's thing.

    Attributes:
        predicate: the lemma of the claim's predicate (one side's own word).
        slot: ``core`` (a subject or object) or the preposition's lemma.
        claim_range: character offsets, in the claim, of the argument from the other side.
        span_range: character offsets, in the span text, of that argument's head on its side.
    """

    predicate: str
    slot: str
    claim_range: tuple[int, int]
    span_range: tuple[int, int]


class _Tree:
    """One parsed text with its children lists."""

    def __init__(self, tokens: Sequence[ParsedToken]) -> None:
        self.tokens = tokens
        self.children = children_of(tokens)

    def subtree(self, i: int) -> frozenset[int]:
        out, stack = {i}, [i]
        while stack:
            for c in self.children[stack.pop()]:
                if c not in out:
                    out.add(c)
                    stack.append(c)
        return frozenset(out)

    def lemma(self, i: int) -> str:
        """The word's lemma, stemmed: "masking" and "masks" are one word ("mask")."""
        return stem(self.tokens[i].lemma.lower())

    def content(self, words: frozenset[int]) -> frozenset[str]:
        return frozenset(
            self.lemma(i)
            for i in words
            if self.tokens[i].pos in _CONTENT_POS
            and not self.tokens[i].stop
            and len(self.tokens[i].lemma) > 1
        )

    def arguments(self, words: frozenset[int]) -> frozenset[str]:
        return frozenset(
            self.lemma(i)
            for i in words
            if self.tokens[i].pos in _ARGUMENT_POS and not self.tokens[i].stop
        )

    def range_of(self, words: frozenset[int]) -> tuple[int, int]:
        return (
            min(self.tokens[i].start for i in words),
            max(self.tokens[i].end for i in words),
        )


@dataclass(frozen=True, slots=True)
class _Side:
    """One side of a contrast: its words, its content words (stemmed lemmas), those the other
    side lacks, its acts (the stems of its verbs and adjectives that modify no noun) and its
    prepositions, and whether it names something by a personal pronoun ("it", "they")."""

    words: frozenset[int]
    content: frozenset[str]
    own: frozenset[str]
    acts: frozenset[str]
    prepositions: frozenset[str]
    pronouns: bool


def _contrasts(span: _Tree) -> list[tuple[_Side, _Side]]:
    """Each contrast of the span between two acts, as its two sides (module docs)."""
    out = []
    for head, other in _contrast_pairs(span):
        if not (_predicate(span, head) and _predicate(span, other)):
            continue  # "a small, but consistent, increased risk": no two acts
        second = span.subtree(other)
        first = span.subtree(head) - second
        shared: frozenset[str] = frozenset()
        if not _own_subject(span, other):  # "Sales rose in Europe but fell in Asia"
            subject = frozenset().union(
                *(span.subtree(c) for c in span.children[head] if span.tokens[c].dep in _SUBJECTS)
            )
            first -= subject
            shared = span.content(subject)
        one, two = span.content(first), span.content(second)
        out.append((_side(span, first, one, two | shared), _side(span, second, two, one | shared)))
    return out


def _contrast_pairs(span: _Tree) -> list[tuple[int, int]]:
    """The acts each contrast of the span joins, as (the act the other hangs on, the other): a
    conjunct after "but", a clause of "though", a clause or sentence after "however" (the act
    before it first when the parser hangs it on the later one)."""
    pairs: list[tuple[int, int]] = []
    roots = [i for i, t in enumerate(span.tokens) if t.head == i]
    for i, token in enumerate(span.tokens):
        word = token.lemma.lower()  # not stemmed: "whereas" stems to "wherea"
        head = token.head
        if token.dep == "advmod" and word in _CONTRAST_ADVERBS:
            before = [c for c in span.children[head] if span.tokens[c].dep in _CLAUSES and c < i]
            if span.tokens[head].dep == "conj" and span.tokens[head].head < i:  # "X; however, Y"
                pairs.append((span.tokens[head].head, head))
            elif before:  # "X; however, Y" with X parsed as a clause of Y's act
                pairs.append((head, before[-1]))
            elif head in roots and roots.index(head) > 0:  # "X. However, Y"
                pairs.append((roots[roots.index(head) - 1], head))
        elif token.dep == "cc" and word in _CONTRAST_CC:
            joined = [c for c in span.children[head] if span.tokens[c].dep == "conj" and c > i]
            if joined:
                pairs.append((head, joined[0]))
        elif (
            token.dep == "mark"
            and word in _CONTRAST_MARK
            and span.tokens[head].dep == "advcl"
            and span.tokens[head].head != head
        ):
            pairs.append((span.tokens[head].head, head))
    return pairs


def _side(tree: _Tree, words: frozenset[int], mine: frozenset[str], other: frozenset[str]) -> _Side:
    acts = frozenset(
        tree.lemma(i)
        for i in words
        if _predicate(tree, i)
        and tree.tokens[i].pos != "AUX"
        and tree.tokens[i].dep not in _DESCRIBING
    )
    pronouns = any(tree.tokens[i].tag in ("PRP", "PRP$") for i in words)
    return _Side(words, mine, mine - other, acts, _prepositions(tree, words), pronouns)


def _own_subject(tree: _Tree, i: int) -> bool:
    """Whether the act at ``tokens[i]`` names its own subject: not none (a conjunct verb shares
    the first one's), and not a pronoun ("…, while they followed the diet")."""
    return any(
        tree.tokens[c].dep in _SUBJECTS and tree.tokens[c].pos not in ("PRON", "DET")
        for c in tree.children[i]
    )


def _predicate(tree: _Tree, i: int) -> bool:
    """Whether ``tokens[i]`` can state an act: a verb or an adjective that modifies no noun."""
    token = tree.tokens[i]
    return token.pos in ("VERB", "ADJ", "AUX") and token.dep not in _MODIFIERS


def _prepositions(tree: _Tree, words: frozenset[int]) -> frozenset[str]:
    return frozenset(tree.lemma(i) for i in words if tree.tokens[i].dep in _PREPOSITIONS)


def _slots(claim: _Tree, i: int) -> list[tuple[str, int, frozenset[int]]]:
    """The predicate's subject and object (``core``) and its prepositions' objects, each as
    (slot, head index, words)."""
    out = []
    for c in claim.children[i]:
        dep = claim.tokens[c].dep
        if dep in _CORE:
            out.append(("core", c, claim.subtree(c)))
        elif dep in _PREPOSITIONS:
            for g in claim.children[c]:
                if claim.tokens[g].dep == "pobj":
                    out.append((claim.lemma(c), g, claim.subtree(g)))
    return out


def contrast_splice(
    claim: Sequence[ParsedToken], span: Sequence[ParsedToken]
) -> ContrastSplice | None:
    """The first predicate of ``claim`` that takes one side of a contrast in ``span`` and an
    argument of the other (module docs), or None."""
    c, s = _Tree(claim), _Tree(span)
    if any(
        (t.dep == "cc" and t.lemma.lower() in _CONTRAST_CC)
        or (t.dep == "mark" and t.lemma.lower() in _CONTRAST_MARK)
        for t in c.tokens
    ):
        return None  # a claim that contrasts two things itself
    contrasts = _contrasts(s)
    if not contrasts:
        return None
    for i, token in enumerate(c.tokens):
        if token.pos not in ("VERB", "ADJ") or token.dep in _MODIFIERS:
            continue
        predicate = c.lemma(i)
        for first, second in contrasts:
            for mine, other in ((first, second), (second, first)):
                if predicate not in mine.own or predicate not in mine.acts or mine.pronouns:
                    continue  # "… but none appears to be making it able to spread": "it"
                for slot, head, words in _slots(c, i):
                    if c.lemma(head) not in other.own or c.arguments(words) & mine.content:
                        continue
                    if any(c.tokens[k].dep == "conj" for k in words):
                        continue  # "the wearer and others": both sides' things
                    if slot != "core" and slot not in mine.prepositions:
                        continue
                    there = [k for k in sorted(other.words) if s.lemma(k) == c.lemma(head)]
                    return ContrastSplice(
                        predicate, slot, c.range_of(words), s.range_of(frozenset(there[:1]))
                    )
    return None
