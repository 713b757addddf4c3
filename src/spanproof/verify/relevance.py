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

The **answerability gate** (:class:`AnswerabilityModel`) reads a plan that passed the floor when
the question asks about a claim (:func:`asked_claim`): the best relevance, how much of the
claim one planned source states in its whole text (:func:`source_coverage`) and the claim's
support score against the plan; below its own floor the question is abstained from (a topical
neighbour passes the floor; only a source that states the claim answers the question).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spanproof.verify.lexical import PlanIdf, coverage, weigh_claim
from spanproof.verify.proposition import proposition_of

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


# ------------------------------------------------------------------------------ answerability
#
# The relevance floor keeps spans *on the topic* of a question. A question that asks about a
# claim ("What is known about whether X?", "Is it true that X?", "Does X …?") is answered only
# if the sources state what it asks: when the abstract that did is missing, its neighbours on
# the same topic still pass a topical floor. The answerability gate reads three signals of a
# plan that passed the floor and abstains when they do not reach its own floor.

#: An open question around a claim: "What is known about whether X?", "What do studies report
#: on whether X?", "How strong is the evidence that X?" → X. A bare "that" or "if" is not a
#: frame ("Which genes that …", "What happens if …" ask for something).
_CLAIM_FRAME = re.compile(
    r"^\s*(?:what|which|how|who|tell me|describe|summari[sz]e|explain)\b[^?]*?"
    r"\b(?:whether|(?:evidence|proof|true|known|shown|reported) that)\s+(?P<claim>.+?)\s*\?*\s*$",
    re.IGNORECASE | re.DOTALL,
)
#: The least words a framed claim must have to count as one.
_MIN_CLAIM_WORDS = 3


def asked_claim(question: str) -> str | None:
    """The declarative claim a question asks about, or None when it asks for something else.

    A proposition (:func:`spanproof.verify.proposition.proposition_of`: a statement, "Is it true
    that …", a yes/no question) gives its claim; an open question framing a clause with
    "whether" (or "the evidence that", "known that" …) gives the clause (``What is known about
    whether aspirin lowers fever?`` → ``Aspirin lowers fever.``). ``What lowers fever?`` asks
    for something: None.
    """
    proposition = proposition_of(question)
    if proposition is not None:
        return proposition.claim
    match = _CLAIM_FRAME.match(" ".join(question.split()))
    if match is None:
        return None
    clause = match.group("claim").strip().rstrip(" .!?;:")
    if len(clause.split()) < _MIN_CLAIM_WORDS:
        return None
    return clause[0].upper() + clause[1:] + "."


def source_coverage(
    claim_tokens: Sequence[str],
    span_tokens: Sequence[Sequence[str]],
    source_tokens: Sequence[Sequence[str]],
) -> list[float]:
    """How much of a claim each whole source states: the IDF-weighted coverage of the claim's
    content words (:data:`FUNCTION_WORDS` dropped) by all the words of the source.

    IDF is over the plan's spans and the sources together (each one document), so a word every
    candidate shares (the topic) weighs little and the claim's specific words weigh most.
    ``claim_tokens`` are lowercased tokens (SPEC §4.4); one score per source, in order.
    """
    weighted = weigh_claim(content_terms(claim_tokens), PlanIdf([*span_tokens, *source_tokens]))
    return [coverage(weighted, Counter(tokens)) for tokens in source_tokens]


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1.0 - 1e-6)
    return math.log(p / (1.0 - p))


@dataclass(frozen=True, slots=True)
class AnswerabilitySignals:
    """What the answerability gate reads of one plan.

    Attributes:
        claim: the claim the question asks about (:func:`asked_claim`).
        relevance: the plan's best span relevance (under ``relevance_model``).
        source_coverage: the best share of the claim's content words one planned source holds
            in its whole text (:func:`source_coverage`).
        claim_score: the claim's score against the plan under ``score_model`` (the scoring of
            ``spanproof verify``: a claim a span states scores high; one a span contradicts
            scores low under the polarity gate, so a contradicted claim leans on the other two
            signals).
    """

    claim: str
    relevance: float
    source_coverage: float
    claim_score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "relevance": round(self.relevance, 6),
            "source_coverage": round(self.source_coverage, 6),
            "claim_score": round(self.claim_score, 6),
        }


@dataclass(frozen=True, slots=True)
class AnswerabilityModel:
    """Pinned weights of the answerability gate: a logistic function of the plan's best
    relevance (as a logit), the best source coverage and the claim score; a plan whose
    answerability is below ``floor`` is abstained from.

    Attributes:
        name: recorded with each decision (``answerability-v1`` …).
        relevance_model: the relevance model whose scores ``relevance`` must be; the gate does
            not apply to a plan made under another one.
        score_model: the score model the claim score comes from (``v2`` …).
        relevance_weight, coverage_weight, claim_weight, bias: the logistic function.
        floor: the least answerability of an answered question.
    """

    name: str
    relevance_model: str
    score_model: str
    relevance_weight: float
    coverage_weight: float
    claim_weight: float
    bias: float
    floor: float = 0.5

    def score(self, signals: AnswerabilitySignals) -> float:
        """The answerability of a plan in [0, 1]."""
        z = (
            self.bias
            + self.relevance_weight * _logit(signals.relevance)
            + self.coverage_weight * min(max(signals.source_coverage, 0.0), 1.0)
            + self.claim_weight * min(max(signals.claim_score, 0.0), 1.0)
        )
        return 1.0 / (1.0 + math.exp(-z))

    def answers(self, signals: AnswerabilitySignals) -> bool:
        """Whether the sources answer the question, by this model."""
        return self.score(signals) >= self.floor


#: The gate of :data:`RELEVANCE_V1`. Fitted by ``python scripts/answerability.py --limit 300
#: --fit-gate --gate-keep 0.98`` on the calibration half of the answerability suite (seed
#: 20261201: the 148 answerable and 117 other questions about a claim that pass the relevance
#: floor): the floor keeps 98 % of those answerable ones (docs/quality.md).
ANSWERABILITY_V1 = AnswerabilityModel(
    name="answerability-v1",
    relevance_model=RELEVANCE_V1.name,
    score_model="v2",
    relevance_weight=0.4234,
    coverage_weight=1.4075,
    claim_weight=1.5542,
    bias=-1.1622,
    floor=0.5,
)
_ANSWERABILITY_MODELS = {m.relevance_model: m for m in (ANSWERABILITY_V1,)}


def answerability_model_for(relevance_model: str) -> AnswerabilityModel | None:
    """The pinned answerability gate fitted with ``relevance_model``, or None."""
    return _ANSWERABILITY_MODELS.get(relevance_model)
