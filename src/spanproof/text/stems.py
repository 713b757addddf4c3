"""English stems for lexical coverage in score model v2 (Snowball/Porter2 stemmer).

``reduced``, ``reduces`` and ``reducing`` share the stem ``reduc``, so a paraphrase that changes
inflection keeps its lexical credit. Tokens without a letter, and non-ASCII words the English
stemmer does not model, are returned unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import snowballstemmer

_STEMMER = snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def stem(token: str) -> str:
    """The stem of one lowercase token."""
    if not token.isascii() or not any(ch.isalpha() for ch in token):
        return token
    return str(_STEMMER.stemWord(token))


def stems(tokens: Sequence[str]) -> list[str]:
    return [stem(t) for t in tokens]
