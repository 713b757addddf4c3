"""Relevance of a span to a question (issue 15): does the span bear on what was asked?

Pure. A span's relevance is a logistic function of ranking signals, each in [0, 1]:

* ``coverage``: the IDF-weighted share of the question's content words the span holds (SPEC §4.4
  tokens and coverage; IDF over the candidate spans of the question; the function words of
  questions, :data:`FUNCTION_WORDS`, are dropped first, so "What is the … of …?" counts nothing);
* ``cosine``: the span's cosine to the question under the embedding model the weights were
  fitted for (clamped to [0, 1]); a model fitted without it ignores it.

The weights, the bias and the ``floor`` (the least relevance a span needs to stay in a plan) are
fitted on the calibration half of the answerability suite (``scripts/answerability.py``;
``docs/quality.md``) and pinned here. Any change to a formula, a word list or a number is a new
model name.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from spanproof.verify.lexical import PlanIdf, coverage, weigh_claim

#: Closed-class words of English questions: interrogatives, auxiliaries, determiners, pronouns,
#: prepositions and conjunctions. They carry no topic, so they never count toward coverage.
_FUNCTION_WORDS = """
    a about above across after against all also am among an and any are as at be because been
    before being below between both but by can could did do does doing done during each either
    for from had has have having he her here hers him his how i if in into is it its itself me
    might more most much must my neither no nor not of off on once only or other our ours out
    over own same shall she should so some such than that the their theirs them then there these
    they this those through to too under until up upon very was we were what whatever when where
    whether which while who whom whose why will with within without would you your yours
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())


def content_terms(tokens: Sequence[str]) -> list[str]:
    """``tokens`` (already lowercased, SPEC §4.4) without :data:`FUNCTION_WORDS`."""
    return [t for t in tokens if t not in FUNCTION_WORDS]


def question_coverage(
    question_tokens: Sequence[str], span_tokens: Sequence[Sequence[str]]
) -> list[float]:
    """The coverage of the question's content words by each span, IDF over ``span_tokens``.

    A question with no content word (``What is it?``) is covered by nothing: every score is 0.
    """
    weighted = weigh_claim(content_terms(question_tokens), PlanIdf(span_tokens))
    return [coverage(weighted, Counter(tokens)) for tokens in span_tokens]


@dataclass(frozen=True, slots=True)
class RelevanceModel:
    """Pinned weights of the relevance score and its floor.

    Attributes:
        name: recorded with every relevance score (``relevance-v1`` …).
        embed_model: the embedding model ``cosine`` must come from; "" when the model uses
            coverage alone.
        coverage_weight, cosine_weight, bias: the logistic function's parameters.
        floor: spans below it leave the plan; a question with no span at or above it is
            abstained from.
    """

    name: str
    embed_model: str
    coverage_weight: float
    cosine_weight: float
    bias: float
    floor: float

    def score(self, coverage_: float, cosine: float | None) -> float:
        """The relevance of one span in [0, 1]; ``cosine`` is ignored by a lexical model."""
        z = self.bias + self.coverage_weight * min(max(coverage_, 0.0), 1.0)
        if self.embed_model and cosine is not None:
            z += self.cosine_weight * min(max(cosine, 0.0), 1.0)
        return 1.0 / (1.0 + math.exp(-z))

    def uses(self, embed_model: str | None) -> bool:
        """Whether this model reads cosines from ``embed_model``."""
        return bool(self.embed_model) and embed_model == self.embed_model


#: Coverage and MiniLM cosine (the bundled embedder). Fitted on the calibration half of the
#: answerability suite (seed 20261201, 100 claims): the decision 0.454·coverage + 0.891·cosine ≥
#: 0.59 (balanced accuracy 0.826), on a logistic scale of 12 so that the floor is 0.5.
RELEVANCE_V1 = RelevanceModel(
    name="relevance-v1",
    embed_model="sentence-transformers/all-MiniLM-L6-v2@onnx-int8",
    coverage_weight=5.448,
    cosine_weight=10.692,
    bias=-7.08,
    floor=0.5,
)
#: Coverage alone, for any other embedder or none: coverage ≥ 0.268 (balanced accuracy 0.754 on
#: the same calibration half), on the same scale.
RELEVANCE_V1_LEXICAL = RelevanceModel(
    name="relevance-v1-lexical",
    embed_model="",
    coverage_weight=12.0,
    cosine_weight=0.0,
    bias=-3.216,
    floor=0.5,
)


def relevance_model_for(embed_model: str | None) -> RelevanceModel:
    """The pinned model that fits ``embed_model``: cosine-aware for the bundled embedder."""
    return RELEVANCE_V1 if RELEVANCE_V1.uses(embed_model) else RELEVANCE_V1_LEXICAL
