"""IDF-weighted multiset lexical coverage (SPEC §4.4).

``idf(t) = ln(1 + N / df(t))`` over the plan's spans only, ``df`` floored at 1, so a term in no
plan span still has a defined (maximal) weight.
``lex = Σ_{t∈claim∩span} idf(t)·min(count) / Σ_{t∈claim} idf(t)·count`` — coverage, not F1: a
long span that contains the claim's vocabulary scores 1.0 however long it is.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class PlanIdf:
    """Document frequencies over one plan's spans."""

    __slots__ = ("_df", "_n")

    def __init__(self, span_tokens: Sequence[Iterable[str]]) -> None:
        df: Counter[str] = Counter()
        for tokens in span_tokens:
            df.update(set(tokens))
        self._df = df
        self._n = len(span_tokens)

    @property
    def n(self) -> int:
        return self._n

    def idf(self, term: str) -> float:
        df = max(self._df.get(term, 0), 1)
        return math.log(1.0 + self._n / df)


@dataclass(frozen=True, slots=True)
class WeightedClaim:
    """A claim's terms with counts and IDF weights, prepared once per plan."""

    terms: tuple[tuple[str, int, float], ...]  # (term, count, idf)
    denominator: float


def weigh_claim(tokens: Iterable[str], idf: PlanIdf) -> WeightedClaim:
    """Prepare a claim's token multiset for repeated coverage scoring."""
    counts = Counter(tokens)
    terms = tuple((t, c, idf.idf(t)) for t, c in counts.items())
    denominator = 0.0
    for _, count, weight in terms:  # same summation order as coverage()
        denominator += weight * count
    return WeightedClaim(terms, denominator)


def coverage(claim: WeightedClaim, span_counts: Counter[str] | dict[str, int]) -> float:
    """Multiset lexical coverage of ``claim`` by a span's token counts, in [0, 1]."""
    if claim.denominator <= 0.0:
        return 0.0
    get = span_counts.get
    numerator = 0.0
    for term, count, weight in claim.terms:  # a plain loop: this is the hot path
        have = get(term)
        if have:
            numerator += weight * (count if count < have else have)
    return numerator / claim.denominator


def lexical_coverage(
    claim_tokens: Sequence[str], span_tokens: Sequence[str], idf: PlanIdf
) -> float:
    """Convenience form of :func:`coverage` on raw token lists."""
    return coverage(weigh_claim(claim_tokens, idf), Counter(span_tokens))
