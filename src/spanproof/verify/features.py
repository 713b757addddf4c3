"""Pair features for the trained entailment checker (issue 7; SPEC §4.5 and §5.3).

:func:`pair_features` turns one (claim, span) pair and their sentence embeddings into a fixed
float32 vector that the shipped checker model (``spanproof/models/checker.onnx``) reads. The layout
is versioned by :data:`FEATURE_VERSION`; any change to it (a feature added, removed, reordered or
computed differently) needs a new version and a retrained model.

Layout, for embeddings of dimension ``d`` (384 for the bundled all-MiniLM-L6-v2):

* ``[0, d)`` — ``claim_vec * span_vec``, element-wise (of the L2-normalised vectors);
* ``[d, 2d)`` — ``|claim_vec - span_vec|``, element-wise (same);
* ``[2d, 2d + len(SCALAR_FEATURES))`` — the scalars named in :data:`SCALAR_FEATURES`, in order.

The scalars reuse the engine's text rules: word tokens (:func:`~spanproof.text.tokens.token_texts`),
Snowball stems, the v2 numeric atoms (``months_need_digits=True, number_parts=True``), the v2 entity
and polarity gates. Lexical coverage here is plain multiset coverage (every term weighs 1: a pair
has no plan to take IDF weights from). The "aligned sentence" is the sentence of the span that
covers the claim's stems best (the first on ties), as in the v2 polarity gate.

Pure and deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from spanproof.text.numerics import numerics
from spanproof.text.sentences import split_sentences
from spanproof.text.stems import stems
from spanproof.text.tokens import nfc, token_texts
from spanproof.verify.gates import (
    Cues,
    EntityView,
    cues,
    entity_gate_trips,
    entity_view,
    is_negation,
    polarity_gate_trips,
)

__all__ = [
    "EMBEDDING_DIM",
    "FEATURE_VERSION",
    "SCALAR_FEATURES",
    "TextView",
    "feature_count",
    "pair_features",
    "pair_features_from_views",
    "text_view",
]

#: Version of the feature layout; the checker model records the version it was trained on.
FEATURE_VERSION = "f1"
#: Embedding width the shipped checker expects (all-MiniLM-L6-v2).
EMBEDDING_DIM = 384

#: Names of the scalar features, in vector order (after the two embedding blocks).
SCALAR_FEATURES: tuple[str, ...] = (
    "cosine",  # cosine of the two embeddings
    "cov_claim_tokens",  # multiset coverage of the claim's tokens by the span's
    "cov_claim_stems",  # the same on stems
    "cov_claim_content_stems",  # the same on content stems (no stop words)
    "cov_claim_aligned_stems",  # claim stems covered by the aligned sentence
    "cov_span_tokens",  # coverage of the span's tokens by the claim's
    "cov_span_stems",  # the same on stems
    "missing_content_log",  # log1p(claim content stems the span lacks, with counts)
    "claim_has_numbers",  # the claim has a v2 numeric atom
    "numeric_gate",  # a claim numeric is absent from the span (v2 numeric gate)
    "numeric_missing_frac",  # share of distinct claim numerics absent from the span
    "claim_has_entities",  # the claim names an entity (gates.entities)
    "entity_gate",  # v2 entity gate: a claim entity swapped for another of its shape
    "entity_missing_frac",  # share of claim entities absent from the span
    "claim_negations",  # negation cues in the claim (capped at 3)
    "span_negations",  # negation cues in the whole span (capped at 3)
    "aligned_negations",  # negation cues in the aligned sentence (capped at 3)
    "negation_parity_diff",  # negation parity differs: claim vs aligned sentence
    "negation_parity_diff_span",  # negation parity differs: claim vs whole span
    "claim_only_negation",  # the claim has a negation word the span lacks
    "span_only_negation",  # the aligned sentence has a negation word the claim lacks
    "direction_opposition",  # unshared direction words oppose (claim vs aligned sentence)
    "polarity_gate",  # v2 polarity gate (claim vs aligned sentence)
    "claim_directions",  # direction words in the claim (capped at 3)
    "aligned_directions",  # direction words in the aligned sentence (capped at 3)
    "claim_hedges",  # hedging words in the claim (capped at 3)
    "span_hedges",  # hedging words in the aligned sentence (capped at 3)
    "claim_tokens_log",  # log1p(claim tokens)
    "span_tokens_log",  # log1p(span tokens)
    "length_ratio_log",  # log((1 + span tokens) / (1 + claim tokens))
)

_CAP = 3

STOP_WORDS = frozenset(
    {
        "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "with", "by", "from",
        "as", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that",
        "these", "those", "which", "who", "whom", "whose", "what", "there", "their", "they",
        "them", "has", "have", "had", "do", "does", "did", "than", "then", "into", "onto",
        "over", "under", "between", "among", "also", "such", "can", "will", "would", "should",
        "shall", "we", "our", "us", "he", "she", "his", "her", "i", "you", "your", "so", "if",
        "but", "about", "after", "before", "during", "while", "both", "each", "all", "any",
        "some", "other", "via", "per", "s",
    }
)  # fmt: skip

HEDGES = frozenset(
    {
        "may", "might", "could", "possibly", "possible", "potentially", "potential", "likely",
        "unlikely", "suggest", "suggests", "suggested", "suggesting", "appear", "appears",
        "appeared", "seem", "seems", "seemed", "perhaps", "probably", "putative", "presumably",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class TextView:
    """Everything :func:`pair_features` needs from one text, computed once per text."""

    tokens: tuple[str, ...]
    token_counts: Counter[str]
    stem_counts: Counter[str]
    content_counts: Counter[str]
    numerics: frozenset[str]
    entity: EntityView
    cues: Cues
    negation_words: frozenset[str]
    hedges: int
    sentences: tuple[_SentenceView, ...]


@dataclass(frozen=True, slots=True)
class _SentenceView:
    stem_counts: Counter[str]
    cues: Cues
    negation_words: frozenset[str]
    negations: int
    hedges: int


def _content(stem_list: Iterable[str], tokens: Sequence[str]) -> Counter[str]:
    return Counter(s for s, t in zip(stem_list, tokens, strict=True) if t not in STOP_WORDS)


def _negation_words(tokens: Sequence[str]) -> frozenset[str]:
    return frozenset(t for t in tokens if is_negation(t))


def _hedges(tokens: Sequence[str]) -> int:
    return sum(1 for t in tokens if t in HEDGES)


@lru_cache(maxsize=4096)
def text_view(text: str) -> TextView:
    """Tokenise and analyse ``text`` once (cached: spans recur across claims)."""
    normal = nfc(text)
    tokens = token_texts(normal)
    stem_list = stems(tokens)
    sentence_texts = [s.text for s in split_sentences(normal)]
    sentences: list[_SentenceView] = []
    for sentence in sentence_texts or [normal]:
        sentence_tokens = token_texts(sentence)
        sentences.append(
            _SentenceView(
                Counter(stems(sentence_tokens)),
                cues(sentence_tokens),
                _negation_words(sentence_tokens),
                _negation_count(sentence_tokens),
                _hedges(sentence_tokens),
            )
        )
    return TextView(
        tokens=tuple(tokens),
        token_counts=Counter(tokens),
        stem_counts=Counter(stem_list),
        content_counts=_content(stem_list, tokens),
        numerics=frozenset(numerics(tokens, months_need_digits=True, number_parts=True)),
        entity=entity_view(normal, tokens),
        cues=cues(tokens),
        negation_words=_negation_words(tokens),
        hedges=_hedges(tokens),
        sentences=tuple(sentences),
    )


def _coverage(claim: Counter[str], span: Counter[str]) -> float:
    """Plain multiset coverage of ``claim`` by ``span`` (every term weighs 1), in [0, 1]."""
    total = sum(claim.values())
    if total == 0:
        return 0.0
    return sum(min(c, span.get(t, 0)) for t, c in claim.items()) / total


def _missing(claim: Counter[str], span: Counter[str]) -> int:
    return sum(max(0, c - span.get(t, 0)) for t, c in claim.items())


def _aligned(claim: TextView, span: TextView) -> tuple[_SentenceView, float]:
    best = span.sentences[0]
    best_cov = -1.0
    for sentence in span.sentences:
        cov = _coverage(claim.stem_counts, sentence.stem_counts)
        if cov > best_cov:
            best, best_cov = sentence, cov
    return best, best_cov


def _directions(c: Cues) -> int:
    return sum(count for _, _, count in c.directions)


def _direction_opposition(claim: Cues, sentence: Cues) -> bool:
    """The direction half of the polarity gate (negation parity set aside)."""
    return polarity_gate_trips(
        Cues(0, claim.directions, claim.counts), Cues(0, sentence.directions, sentence.counts)
    )


def _cap(n: int) -> float:
    return float(min(n, _CAP))


def _unit(vec: npt.ArrayLike) -> npt.NDArray[np.float64]:
    v = np.asarray(vec, dtype=np.float64).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 1e-12 else v


def _scalars(claim: TextView, span: TextView, cosine: float) -> list[float]:
    sentence, aligned_cov = _aligned(claim, span)
    claim_entities = claim.entity.entities
    missing_entities = sum(
        1 for e in claim_entities if e not in span.entity.token_set and not _entity_present(e, span)
    )
    numeric_missing = len(claim.numerics - span.numerics)
    n_claim, n_span = len(claim.tokens), len(span.tokens)
    values = [
        cosine,
        _coverage(claim.token_counts, span.token_counts),
        _coverage(claim.stem_counts, span.stem_counts),
        _coverage(claim.content_counts, span.content_counts),
        aligned_cov,
        _coverage(span.token_counts, claim.token_counts),
        _coverage(span.stem_counts, claim.stem_counts),
        math.log1p(_missing(claim.content_counts, span.content_counts)),
        float(bool(claim.numerics)),
        float(numeric_missing > 0),
        numeric_missing / len(claim.numerics) if claim.numerics else 0.0,
        float(bool(claim_entities)),
        float(bool(claim_entities) and entity_gate_trips(claim.entity, span.entity)),
        missing_entities / len(claim_entities) if claim_entities else 0.0,
        _cap(_negation_count(claim.tokens)),
        _cap(_negation_count(span.tokens)),
        _cap(sentence.negations),
        float(claim.cues.negation_parity != sentence.cues.negation_parity),
        float(claim.cues.negation_parity != span.cues.negation_parity),
        float(bool(claim.negation_words - span.negation_words)),
        float(bool(sentence.negation_words - claim.negation_words)),
        float(_direction_opposition(claim.cues, sentence.cues)),
        float(polarity_gate_trips(claim.cues, sentence.cues)),
        _cap(_directions(claim.cues)),
        _cap(_directions(sentence.cues)),
        _cap(claim.hedges),
        _cap(sentence.hedges),
        math.log1p(n_claim),
        math.log1p(n_span),
        math.log((1 + n_span) / (1 + n_claim)),
    ]
    if len(values) != len(SCALAR_FEATURES):  # pragma: no cover - guards edits to this module
        raise AssertionError("SCALAR_FEATURES and the computed scalars disagree")
    return values


def _negation_count(tokens: Sequence[str]) -> int:
    return sum(1 for t in tokens if is_negation(t))


def _entity_present(entity: str, span: TextView) -> bool:
    """Whether the span has ``entity`` (as the entity gate reads presence)."""
    key = "".join(ch for ch in entity if ch.isalnum())
    return len(key) >= 3 and span.entity.compact.contains_run(key)


def feature_count(dim: int = EMBEDDING_DIM) -> int:
    """Length of the feature vector for embeddings of width ``dim``."""
    return 2 * dim + len(SCALAR_FEATURES)


def pair_features_from_views(
    claim: TextView, span: TextView, claim_vec: npt.ArrayLike, span_vec: npt.ArrayLike
) -> npt.NDArray[np.float32]:
    """:func:`pair_features` on prepared :class:`TextView` objects."""
    u = _unit(claim_vec)
    v = _unit(span_vec)
    if u.shape != v.shape:
        raise ValueError(f"claim_vec has {u.shape[0]} dimensions, span_vec {v.shape[0]}")
    cosine = float(np.dot(u, v))
    out = np.empty(feature_count(u.shape[0]), dtype=np.float32)
    d = u.shape[0]
    out[:d] = u * v
    out[d : 2 * d] = np.abs(u - v)
    out[2 * d :] = _scalars(claim, span, cosine)
    return out


def pair_features(
    claim_text: str, span_text: str, claim_vec: npt.ArrayLike, span_vec: npt.ArrayLike
) -> npt.NDArray[np.float32]:
    """The checker's feature vector for one pair (layout in the module docstring).

    Args:
        claim_text: the claim.
        span_text: the evidence span (a sentence or a short passage).
        claim_vec: the claim's embedding (normalised here; any non-zero scale works).
        span_vec: the span's embedding under the same embedder.

    Returns:
        A float32 vector of length ``feature_count(len(claim_vec))``.

    Raises:
        ValueError: the two vectors differ in length.
    """
    return pair_features_from_views(
        text_view(claim_text), text_view(span_text), claim_vec, span_vec
    )
