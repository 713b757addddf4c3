"""Who does what to whom (score model v71): a claim that gives a span's act to someone else.

An answer that rewords its source can keep every word of it and still get it wrong by moving a
name to another role: "Local shop owners overruled the city council's objections" from "The city
council … voted to approve a new cycle lane, overruling objections from local shop owners",
"Halden Capital led the Series A" from "a Series A round led by Oakmere Ventures, with existing
investor Halden Capital also participating", "moved its hub there from Darrow" from "moved its
hub to Darrow". Word overlap, embeddings and the gates read such a claim as close to its span,
because it is: the difference is in the structure, which a parser gives.

This module reads that structure from :class:`~spanproof.core.parser.ParsedToken` sequences
(no parsing library: the parser is an adapter). For each verb of the claim it takes the verb's
subject (``nsubj``, or the object of a passive's ``by``), its object (``dobj``, the subject of
a passive, an indirect object) and its prepositional arguments (a noun's conjuncts and
appositions included: "in Greece, Cyprus, Italy"; every object of one preposition), and
compares them with those of each verb of the same lemma in the span; :func:`role_conflict`
reports the first of:

* ``swap`` — the claim's subject head is among the span object's words and the span's
  subject head among the words of the claim object's own noun phrase ("IL-6 activates STAT3"
  against "STAT3 activates IL-6"; "the city council's objections" holds "council");
* ``subject`` — the two agree on the object and name different subjects, each a proper name
  (its head, or a name its head stands in apposition to: "Brisko's chief executive, Nadia
  Orlov"), the claim's written in the span but in no argument the span gives the verb;
* ``object`` — the same with subject and object traded;
* ``direction`` — the claim's "to X" is the span's "from X", or the other way round;
* ``argument`` — the two share a word of their subjects and objects (whatever the roles: a
  passive's "was born" against a participle's "Born …") and give a preposition other than
  "as", "like" or "than" different proper names, the claim's written in the span but not with
  the verb ("Elena Rucabado was born in Buenos Aires" against "Born in Valparaiso …, Elena
  Rucabado moved to Buenos Aires").

A subject the parser leaves implicit ("…, overruling objections") is read from the verb the
clause hangs on only when that verb is the sentence's root (or joined to it), where the
parser's attachment is most reliable; a relative clause's "who" is the noun it describes.
Names are proper nouns written with a capital (not all capitals, letters only, three or more),
so abbreviations and gene names, which papers write many ways, never trip it; a name counts as
written with two letters more ("Chinas" for "China"). A name the span gives the same verb in
any of its clauses is not moved ("played … in Arlington, Texas, the first time the Super Bowl
was played in the Dallas–Fort Worth area").

Known limits: only verbs of the same lemma are compared ("beat" and "defeated" are not); a role
held by someone a common noun names ("the injured walker", "his companion") is not read;
arguments agree when they share one content word; a parse error can attach a clause to the
wrong verb.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from spanproof.core.parser import ParsedToken, children_of

__all__ = ["RoleConflict", "role_conflict"]

#: Parts of speech that carry no content of an argument ("approximately" neither).
_FUNCTION_POS = frozenset(
    ("DET", "PUNCT", "ADP", "CCONJ", "PRON", "AUX", "PART", "SCONJ", "SPACE", "NUM", "SYM", "ADV")
)
#: Relations that start a clause of their own: an argument's words stop there (a noun's
#: conjuncts and appositions are its words: "in Greece, Cyprus, Italy", "in Lawton, Oklahoma").
_CLAUSES = frozenset(("relcl", "acl", "advcl", "ccomp", "punct"))
#: Relations of the words that modify a noun in place (:meth:`_Text.core`).
_IN_PLACE = frozenset(("compound", "amod", "poss", "nmod", "det", "case", "nummod", "quantmod"))
#: Relations by which a verb's clause takes its subject from the verb it hangs on.
_INHERITS = frozenset(("advcl", "xcomp", "conj", "pcomp"))
_OPPOSITE_WAY = {"to": "from", "from": "to"}
#: Prepositions that describe rather than place ("starring Jake Gyllenhaal as a U.S. Marine"):
#: another name after them is no moved role.
_DESCRIBING = frozenset(("as", "like", "than"))
#: A word of the passage, as :meth:`_Pair.moved` looks a name up in it.
_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class RoleConflict:
    """A role the span gives someone else.

    Attributes:
        kind: ``swap``, ``subject``, ``object``, ``direction`` or ``argument`` (module docs).
        verb: the lemma of the verb both texts use.
        claim_range: character offsets, in the claim, of the claim's argument.
        span_range: character offsets, in the span text, of the span's argument.
    """

    kind: str
    verb: str
    claim_range: tuple[int, int]
    span_range: tuple[int, int]


@dataclass(frozen=True, slots=True)
class _Arg:
    """An argument of a verb: the index of its head word and of all its words."""

    head: int
    words: frozenset[int]


_NONE = _Arg(-1, frozenset())


@dataclass(frozen=True, slots=True)
class _Frame:
    verb: str
    subject: _Arg
    object: _Arg
    preps: tuple[tuple[str, _Arg], ...]

    @property
    def words(self) -> frozenset[int]:
        """Every word of the frame's arguments."""
        return self.subject.words.union(self.object.words, *(a.words for _p, a in self.preps))


class _Text:
    """One parsed text with its children lists."""

    def __init__(self, tokens: Sequence[ParsedToken]) -> None:
        self.tokens = tokens
        self.children = children_of(tokens)

    def argument(self, i: int) -> _Arg:
        """The phrase headed by ``tokens[i]``, up to any clause of its own."""
        out = [i]
        stack = [i]
        while stack:
            for c in self.children[stack.pop()]:
                if self.tokens[c].dep not in _CLAUSES:
                    out.append(c)
                    stack.append(c)
        return _Arg(i, frozenset(out))

    def core(self, arg: _Arg) -> _Arg:
        """An argument's own noun phrase: its head with the words that modify it in place
        (compounds, adjectives, a possessor, determiners), no preposition or clause."""
        out = [arg.head]
        stack = [arg.head]
        while stack:
            for c in self.children[stack.pop()]:
                if self.tokens[c].dep in _IN_PLACE:
                    out.append(c)
                    stack.append(c)
        return _Arg(arg.head, frozenset(out))

    def content(self, arg: _Arg) -> frozenset[str]:
        return frozenset(
            self.tokens[i].lemma
            for i in arg.words
            if self.tokens[i].pos not in _FUNCTION_POS and not self.tokens[i].stop
        )

    def is_name(self, i: int) -> bool:
        """Whether ``tokens[i]`` is a proper name as this module reads one (module docs)."""
        t = self.tokens[i]
        return (
            t.pos == "PROPN"
            and t.text[:1].isupper()
            and not t.text.isupper()
            and t.text.isalpha()
            and len(t.text) > 2
        )

    def name_of(self, arg: _Arg) -> int:
        """The index of the proper name an argument is: its head, or a name its head stands in
        apposition to ("Brisko's chief executive, Nadia Orlov"); -1 when it is none."""
        if not arg.words:
            return -1
        if self.is_name(arg.head):
            return arg.head
        for c in self.children[arg.head]:
            if self.tokens[c].dep == "appos" and self.is_name(c):
                return c
        return -1

    def names(self, arg: _Arg) -> frozenset[str]:
        """The proper names among an argument's words, lowercased."""
        return frozenset(self.tokens[i].text.lower() for i in arg.words if self.is_name(i))

    def lowered(self, words: frozenset[int]) -> frozenset[str]:
        return frozenset(self.tokens[i].text.lower() for i in words)

    def range_of(self, arg: _Arg) -> tuple[int, int]:
        return (
            min(self.tokens[i].start for i in arg.words),
            max(self.tokens[i].end for i in arg.words),
        )

    def _is_relative(self, i: int) -> bool:
        return self.tokens[i].dep == "nsubj" and self.tokens[i].tag in ("WP", "WDT")

    def _is_root_clause(self, i: int) -> bool:
        token = self.tokens[i]
        if token.pos not in ("VERB", "AUX"):
            return False
        if token.dep == "ROOT":
            return True
        return token.dep == "conj" and self.tokens[token.head].dep == "ROOT"

    def subject(self, v: int, depth: int = 0) -> _Arg:
        for c in self.children[v]:
            if self.tokens[c].dep == "nsubj" and not self._is_relative(c):
                return self.argument(c)
            if self.tokens[c].dep == "agent":
                for p in self.children[c]:
                    if self.tokens[p].dep == "pobj":
                        return self.argument(p)
        verb = self.tokens[v]
        head = verb.head
        if depth < 3 and head != v and verb.dep in _INHERITS and self._is_root_clause(head):
            return self.subject(head, depth + 1)
        relative = any(self._is_relative(c) for c in self.children[v])
        if verb.dep in ("relcl", "acl") and head != v and relative:
            return self.argument(head)
        return _NONE

    def object(self, v: int) -> _Arg:
        for c in self.children[v]:
            if self.tokens[c].dep in ("dobj", "nsubjpass", "dative"):
                return self.argument(c)
        verb = self.tokens[v]
        relative = any(self._is_relative(c) for c in self.children[v])
        if verb.dep in ("relcl", "acl") and verb.head != v and not relative:
            return self.argument(verb.head)
        return _NONE

    def _prepositions(self, v: int) -> list[int]:
        """The verb's prepositions, with those joined to one ("… and to Canada")."""
        out = []
        stack = [c for c in self.children[v] if self.tokens[c].dep == "prep"]
        while stack:
            c = stack.pop(0)
            out.append(c)
            stack += [
                d
                for d in self.children[c]
                if self.tokens[d].dep == "conj" and self.tokens[d].pos == "ADP"
            ]
        return out

    def preps(self, v: int) -> tuple[tuple[str, _Arg], ...]:
        """Each preposition of the verb with the words of all its objects ("premiered on Fox
        on September 22": ``on`` → Fox, September 22; its head is the first object's)."""
        out: dict[str, _Arg] = {}
        for c in self._prepositions(v):
            for p in self.children[c]:
                if self.tokens[p].dep != "pobj":
                    continue
                lemma, arg = self.tokens[c].lemma, self.argument(p)
                before = out.get(lemma)
                out[lemma] = arg if before is None else _Arg(before.head, before.words | arg.words)
        return tuple(out.items())

    def frames(self) -> list[_Frame]:
        return [
            _Frame(t.lemma, self.subject(i), self.object(i), self.preps(i))
            for i, t in enumerate(self.tokens)
            if t.pos == "VERB"
        ]


def role_conflict(claim: Sequence[ParsedToken], span: Sequence[ParsedToken]) -> RoleConflict | None:
    """The first role the span gives someone else than the claim does, or None.

    ``claim`` and ``span`` are the parsed claim and span text (the window the verdict rests on:
    a name the claim moves must be one the window writes).
    """
    s = _Text(span)
    pair = _Pair(_Text(claim), s, frozenset(_WORD.findall(" ".join(t.text for t in span).lower())))
    span_frames = s.frames()
    for fc in pair.c.frames():
        same_verb = [fs for fs in span_frames if fs.verb == fc.verb]
        # every word the span gives this verb, in any of its clauses ("played … at Cowboys
        # Stadium in Arlington …, the first time the Super Bowl was played in the … area")
        said = s.lowered(frozenset().union(*(fs.words for fs in same_verb)))
        for fs in same_verb:
            found = pair.by_arguments(fc, fs, said) or pair.by_prepositions(fc, fs, said)
            if found is not None:
                return found
    return None


@dataclass(frozen=True, slots=True)
class _Pair:
    """A parsed claim ``c`` against a parsed span ``s`` (``where``: the span's words,
    lowercased)."""

    c: _Text
    s: _Text
    where: frozenset[str]

    def same(self, mine: _Arg, theirs: _Arg) -> bool:
        """Whether a claim argument and a span argument share a content word."""
        return bool(mine.words and theirs.words and (self.c.content(mine) & self.s.content(theirs)))

    def crossed(self, mine: _Arg, theirs: _Arg) -> bool:
        """Whether the claim argument's head word is among the span argument's words."""
        return bool(mine.words) and self.c.tokens[mine.head].lemma in self.s.content(theirs)

    def moved(self, mine: _Arg, theirs: _Arg, said: frozenset[str]) -> bool:
        """The claim's argument is a name (:meth:`_Text.name_of`) that the span writes but not
        in any argument of the verb (``said``), and the span's argument is another name."""
        name, other = self.c.name_of(mine), self.s.name_of(theirs)
        if name < 0 or other < 0:
            return False
        names = self.c.names(self.c.core(_Arg(name, frozenset())))
        return bool(names & self.where) and not _written(names, said)

    def conflict(self, kind: str, fc: _Frame, mine: _Arg, theirs: _Arg) -> RoleConflict:
        return RoleConflict(kind, fc.verb, self.c.range_of(mine), self.s.range_of(theirs))

    def by_arguments(self, fc: _Frame, fs: _Frame, said: frozenset[str]) -> RoleConflict | None:
        """A swap, or another name as the subject or the object of the same verb."""
        if not (fc.subject.words and fc.object.words and fs.subject.words and fs.object.words):
            return None
        same_subject = self.same(fc.subject, fs.subject)
        same_object = self.same(fc.object, fs.object)
        swapped = self.crossed(fc.subject, fs.object) and _crossed_back(self, fc, fs)
        if not same_subject and swapped:
            return self.conflict("swap", fc, fc.subject, fs.object)
        if same_object and not same_subject and self.moved(fc.subject, fs.subject, said):
            return self.conflict("subject", fc, fc.subject, fs.subject)
        if same_subject and not same_object and self.moved(fc.object, fs.object, said):
            return self.conflict("object", fc, fc.object, fs.object)
        return None

    def by_prepositions(self, fc: _Frame, fs: _Frame, said: frozenset[str]) -> RoleConflict | None:
        """ "from X" for "to X" (or back), or another name after the same preposition."""
        # anchored: the two agree on someone the verb is about, whatever the role (a passive's
        # "X was born in …" against a participle's "Born in …, X …"); two clauses about other
        # things ("oxygen consumption was reduced to …, pH was reduced from …") are not compared
        about_c = _Arg(fc.subject.head, fc.subject.words | fc.object.words)
        about_s = _Arg(fs.subject.head, fs.subject.words | fs.object.words)
        if not self.same(about_c, about_s):
            return None
        mine, theirs = dict(fc.preps), dict(fs.preps)
        for way, other in _OPPOSITE_WAY.items():
            if (
                way in mine
                and other in theirs
                and self.same(mine[way], theirs[other])
                and not (other in mine and self.same(mine[other], theirs[other]))
            ):
                return self.conflict("direction", fc, mine[way], theirs[other])
        for prep, words in fc.preps:
            other_words = theirs.get(prep)
            if (
                prep not in _DESCRIBING
                and other_words is not None
                and not self.same(words, other_words)
                and self.moved(words, other_words, said)
            ):
                return self.conflict("argument", fc, words, other_words)
        return None


def _crossed_back(pair: _Pair, fc: _Frame, fs: _Frame) -> bool:
    """Whether the span's subject head is among the words of the claim object's own noun
    phrase, its prepositions left out (a swap's other half: "IL-6 activates STAT3" against
    "STAT3 activates IL-6"; "the city council's objections" holds "council"; "vocal harmony to
    another singer" does not hold "singers")."""
    head = pair.s.tokens[fs.subject.head].lemma
    return bool(fs.subject.words) and head in pair.c.content(pair.c.core(fc.object))


def _written(names: frozenset[str], words: frozenset[str]) -> bool:
    """Whether any of ``names`` is among ``words``, also with up to two letters more ("Chinas"
    for "China", as a caption writes a possessive without its apostrophe; "Smiths")."""
    return any(w.startswith(n) and len(w) - len(n) <= 2 for n in names for w in words)
