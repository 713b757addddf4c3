"""Keyword terms: the one normal form both store dialects index and search (docs/store.md).

Every chunk's text and every keyword query become terms here, before either database sees them,
so SQLite's FTS5 and PostgreSQL's full-text search match the same chunks for the same query:

1. NFKD, accents (the combining diacritical marks) dropped, case folded, NFC: ``Café`` →
   ``cafe``, ``Straße`` → ``strasse``, ``Ångström`` → ``angstrom``, the micro sign ``µ`` →
   Greek ``μ``, ``ﬁ`` → ``fi``. Marks that are part of a script's spelling (Indic vowel signs,
   the kana voicing marks) stay.
2. Words: runs of letters, digits and (spacing) marks, any script; a decimal (``1.5``,
   ``0.05``, ``1.2.3``) is one term. Everything else separates words, so ``COVID-19`` gives
   ``covid`` and ``19``, and ``Ärzte's`` gives ``arzte`` and ``s``.
3. English stop words dropped (:data:`STOP_WORDS`, PostgreSQL's ``english`` list, which is
   Snowball's): a query of stop words only finds nothing.
4. Porter2 (Snowball English) stems (:func:`spanproof.text.stems.stem`): ``fairly`` → ``fair``,
   ``running`` → ``run``.

A term holds no whitespace, quote or backslash (only letters, marks, digits and a decimal's dots),
and a word longer than :data:`MAX_TERM_CHARS` is dropped (PostgreSQL refuses lexemes over
2,046 bytes).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from itertools import islice

import regex

from spanproof.text.stems import stem

#: At most this many distinct terms of a query are searched for (bounds huge queries' cost).
MAX_QUERY_TERMS = 64
#: Longer words are not terms: at 4 UTF-8 bytes a character, still under PostgreSQL's limit.
MAX_TERM_CHARS = 500

#: PostgreSQL's ``english`` stop words (``tsearch_data/english.stop``, Snowball's English list).
STOP_WORDS = frozenset(
    {
        "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours",
        "yourself", "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself",
        "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "what", "which",
        "who", "whom", "this", "that", "these", "those", "am", "is", "are", "was", "were", "be",
        "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "a", "an",
        "the", "and", "but", "if", "or", "because", "as", "until", "while", "of", "at", "by", "for",
        "with", "about", "against", "between", "into", "through", "during", "before", "after",
        "above", "below", "to", "from", "up", "down", "in", "out", "on", "off", "over", "under",
        "again", "further", "then", "once", "here", "there", "when", "where", "why", "how", "all",
        "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not",
        "only", "own", "same", "so", "than", "too", "very", "s", "t", "can", "will", "just", "don",
        "should", "now"
    }
)  # fmt: skip

#: The combining diacritical marks (and their extensions and supplement, and those for symbols
#: and half marks): the accents of Latin, Greek and Cyrillic letters once decomposed.
_ACCENTS = regex.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")
# A decimal first, so "1.5" is not taken as "1" and "5".
_WORD = regex.compile(r"\p{Nd}+(?:\.\p{Nd}+)+|[\p{L}\p{M}\p{N}]+")


def fold(text: str) -> str:
    """``text`` without accents (NFKD, diacritical marks dropped), case folded, then NFC."""
    if text.isascii():
        return text.lower()
    bare = _ACCENTS.sub("", unicodedata.normalize("NFKD", text))
    return unicodedata.normalize("NFC", bare.casefold())


def _words(text: str) -> Iterator[str]:
    for word in _WORD.findall(fold(text)):
        if word not in STOP_WORDS and len(word) <= MAX_TERM_CHARS:
            yield stem(word)


def terms(text: str) -> list[str]:
    """The terms of ``text`` in order, repeats kept (what a chunk is indexed by)."""
    return list(_words(text))


def query_terms(text: str) -> list[str]:
    """The distinct terms of ``text`` in order of first occurrence, at most
    :data:`MAX_QUERY_TERMS` (what a keyword query searches for)."""
    return list(islice(dict.fromkeys(_words(text)), MAX_QUERY_TERMS))
