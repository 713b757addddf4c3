"""The sentence parser port (score model v71): who does what to whom in a claim and its span.

A parser reads texts into tokens that each name their lemma, part of speech, syntactic relation
and head, so that :mod:`spanproof.verify.roles` can read a verb's subject, object and
prepositional arguments without importing any parsing library (the house style: the pure
packages read plain data; adapters live in :mod:`spanproof.providers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CheckerPair, EntailmentChecker

__all__ = ["ParsedToken", "ReadingChecker", "SentenceParser", "children_of"]


@dataclass(frozen=True, slots=True)
class ParsedToken:
    """One token of a parsed text.

    Attributes:
        text: the token as written.
        lemma: its dictionary form, lowercased.
        pos: its universal part of speech (``VERB``, ``PROPN``, ``NOUN`` …).
        tag: its fine-grained tag (``WP`` for "who", ``VBN`` …).
        dep: its relation to its head (``nsubj``, ``dobj``, ``prep``, ``pobj``, ``agent`` …;
            ``ROOT`` for a sentence's root).
        head: the index of its head within the text's tokens (its own index for a root).
        start: the character offset of the token in the text; ``end`` one past its last.
        stop: whether the token is a stop word to the parser's language model.
    """

    text: str
    lemma: str
    pos: str
    tag: str
    dep: str
    head: int
    start: int
    end: int
    stop: bool


#: One parsed text: its tokens in order.
Parsed = tuple[ParsedToken, ...]


def children_of(tokens: Sequence[ParsedToken]) -> list[list[int]]:
    """For each token of a parsed text, the indices of the tokens whose head it is, in order (a
    root, its own head, is no child of itself; a head outside the text is ignored)."""
    children: list[list[int]] = [[] for _ in tokens]
    for i, token in enumerate(tokens):
        if token.head != i and 0 <= token.head < len(tokens):
            children[token.head].append(i)
    return children


@runtime_checkable
class SentenceParser(Protocol):
    """Parses texts into :class:`ParsedToken` sequences. Implementations are deterministic: the
    same text gives the same tokens, whatever other texts share its call."""

    @property
    def parser_id(self) -> str:
        """A stable name that pins the parser's model, recorded with the checker's id."""
        ...

    def parse(self, texts: Sequence[str]) -> list[Parsed]:
        """The tokens of each text, in order."""
        ...


class ReadingChecker:
    """A checker that also parses: the judge a score model reads and the parser v71 reads
    roles with, handed to scoring as one dependency (:func:`spanproof.bootstrap.build_checker_for`).

    Its ``model_id`` names both (``<judge>+<parser>``), so a report and a trace record the
    parser too and a replay checks both. Anything else is the judge's (``fallback_note`` …).
    """

    def __init__(self, checker: EntailmentChecker, parser: SentenceParser) -> None:
        self.checker = checker
        self.parser = parser

    @property
    def model_id(self) -> str:
        return f"{self.checker.model_id}+{self.parser.parser_id}"

    @property
    def parser_id(self) -> str:
        return self.parser.parser_id

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        return self.checker.check(pairs)

    def parse(self, texts: Sequence[str]) -> list[Parsed]:
        return self.parser.parse(texts)

    def __getattr__(self, name: str) -> Any:
        if name in ("checker", "parser"):  # not set yet (a copy being built): no recursion
            raise AttributeError(name)
        return getattr(self.checker, name)
