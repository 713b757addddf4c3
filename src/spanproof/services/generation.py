"""Generation (SPEC §4.2): an answer written from a plan, citing its spans as ``[S#]``.

Two generators share one small interface (:class:`Generator`):

* :class:`ExtractiveGenerator` (``extractive-v4``) runs offline: it picks the planned sentences
  most relevant to the question, from the source that bears on it most (its best span, plus half
  its second best: a source with two relevant sentences over one with a single stray match, plus
  a fifth of its title's cosine to the question: a paper's title says what it is about), and
  writes each one followed by its marker (``extractive-v3`` did not read titles:
  ``title_weight=0``; ``extractive-v2`` chose the source of the best span alone:
  ``second_weight=0`` as well; ``extractive-v1``, which mixed sources, is ``max_sources`` ≥
  ``max_sentences``).
* :class:`LlmGenerator` sends the deterministic prompt of :mod:`spanproof.verify.prompt` to a chat
  model at temperature 0 and records the model's token usage.

Both record the hash of the prompt built from the plan, so a trace names what the model was (or,
for the extractive generator, would have been) asked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.core.models import EvidenceSpan
from spanproof.core.ports import ChatModel, Embedder, Usage
from spanproof.services.planning import Plan
from spanproof.text.tokens import token_texts
from spanproof.verify.lexical import PlanIdf, coverage, weigh_claim
from spanproof.verify.prompt import build_generation_messages, prompt_hash

EXTRACTIVE_MODEL = "extractive-v4"
#: The generator that ranked sources by their sentences alone, not titles (``title_weight=0``).
EXTRACTIVE_MODEL_V3 = "extractive-v3"
#: The generator that quoted the source of the single best span (``second_weight=0``).
EXTRACTIVE_MODEL_V2 = "extractive-v2"
#: The generator before answers kept to their best sources: the id of ``max_sources`` ≥
#: ``max_sentences``, whose drafts are the same.
EXTRACTIVE_MODEL_V1 = "extractive-v1"
#: With plan relevance: how far below the best span's relevance a span may be and still be used.
MAX_BEHIND = 0.05
#: How many sources an extractive answer quotes (the best spans' sources, in relevance order).
MAX_SOURCES = 1
#: With plan relevance and fewer sources than sentences: a source ranks by its best span's
#: relevance plus this share of its second best's. Chosen on the calibration halves of the
#: answerability suite (docs/quality.md): a second relevant sentence marks the source the
#: question is about better than one sentence that shares its words.
SECOND_WEIGHT = 0.5
#: With plan relevance and fewer sources than sentences: a source's rank also adds this share of
#: its title's cosine to the question, when every candidate source has a title (so a source is
#: never ranked down for lacking one). Chosen on the calibration half of the answerability suite
#: (``scripts/answerability.py --title-probe``, docs/quality.md): of 40 answerable questions,
#: 0.2 quoted a cited abstract for 32 against 29 without titles, 30–31 for 0.1 and 0.3–1.
TITLE_WEIGHT = 0.2
_END_PUNCTUATION = " \t\r\n.;:,…"


@dataclass(frozen=True, slots=True)
class Generation:
    """A draft answer and what produced it.

    Attributes:
        text: the draft, citing plan spans as ``[S#]``.
        model: the generator's model id (the provider's reported name for LLMs).
        prompt_hash: SHA-256 of the canonical JSON of the prompt built from the plan.
        usage: input and output tokens of the model call (zero for the extractive generator).
    """

    text: str
    model: str
    prompt_hash: str
    usage: Usage = field(default_factory=Usage)


@runtime_checkable
class Generator(Protocol):
    """Writes a draft from a plan."""

    @property
    def model_id(self) -> str: ...

    def generate(self, question: str, plan: Plan) -> Generation:
        """A draft answering ``question`` from ``plan`` only."""
        ...


def _prompt_hash(question: str, plan: Plan) -> str:
    return prompt_hash(build_generation_messages(question, plan.evidence))


class ExtractiveGenerator:
    """Composes an answer from the planned sentences, each followed by its ``[S#]`` marker.

    When the plan carries relevance scores (a planner with a relevance model, issue 15), a span's
    relevance is its plan score: how well it bears on the question's content words and meaning,
    under the calibrated model. Spans more than ``max_behind`` below the best one are not used,
    so an answer is not padded with sentences that only share the topic.

    Otherwise, relevance is the IDF-weighted lexical coverage of the question's words by the span
    (IDF over the plan's spans), averaged with the span's cosine to the question when an
    embedder is given and works; spans sharing no word with the question and spans less than
    ``min_relative`` times as relevant as the best one are not used.

    Spans ending in ``?`` are never used. The best ``max_sentences`` spans are written in
    relevance order (ties in plan order), from at most ``max_sources`` sources (spans without a
    ``source_id`` count as their own source): by default one, so an answer quotes the source
    that bears on the question most rather than mixing in sentences of its neighbours on the
    same topic. With plan relevance, sources rank by their best span's relevance plus
    ``second_weight`` times their second best's, and ``max_behind`` counts from the best span
    of the chosen sources; without it (or with as many sources as sentences) they come in the
    order of their best spans. An empty plan gives an empty draft.
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        max_sentences: int = 3,
        min_relative: float = 0.5,
        max_behind: float = MAX_BEHIND,
        max_sources: int = MAX_SOURCES,
        second_weight: float = SECOND_WEIGHT,
        title_weight: float = TITLE_WEIGHT,
    ) -> None:
        if max_sentences < 1:
            raise ConfigurationError(f"max_sentences must be at least 1, got {max_sentences}")
        if max_sources < 1:
            raise ConfigurationError(f"max_sources must be at least 1, got {max_sources}")
        if not 0.0 <= min_relative <= 1.0:
            raise ConfigurationError(f"min_relative must be in [0, 1], got {min_relative}")
        if not 0.0 <= second_weight <= 1.0:
            raise ConfigurationError(f"second_weight must be in [0, 1], got {second_weight}")
        if not 0.0 <= title_weight <= 1.0:
            raise ConfigurationError(f"title_weight must be in [0, 1], got {title_weight}")
        self._embedder = embedder
        self._max = max_sentences
        self._min_relative = min_relative
        self._max_behind = max_behind
        self._max_sources = max_sources
        self._second_weight = second_weight
        self._title_weight = title_weight

    @property
    def model_id(self) -> str:
        """``extractive-v4`` as shipped, the older ids where the behaviour is theirs, and any other
        weight named in the id, so a trace says which ranking wrote its draft."""
        if self._max_sources >= self._max:
            return EXTRACTIVE_MODEL_V1
        if self._title_weight == 0.0:
            if self._second_weight == 0.0:
                return EXTRACTIVE_MODEL_V2
            if self._second_weight == SECOND_WEIGHT:
                return EXTRACTIVE_MODEL_V3
            return f"{EXTRACTIVE_MODEL_V3}:second={self._second_weight:g}"
        other = [
            f"{name}={weight:g}"
            for name, weight, shipped in (
                ("second", self._second_weight, SECOND_WEIGHT),
                ("title", self._title_weight, TITLE_WEIGHT),
            )
            if weight != shipped
        ]
        return ":".join([EXTRACTIVE_MODEL, *other])

    def generate(self, question: str, plan: Plan) -> Generation:
        spans = [s for s in plan.spans if s.truth_class and not s.text.rstrip().endswith("?")]
        relevance = (
            dict(zip((s.id for s in plan.spans), plan.relevance, strict=True))
            if plan.relevance
            else {}
        )
        chosen = self._select(question, spans, relevance)
        text = " ".join(f"{s.text.strip().rstrip(_END_PUNCTUATION)} [{s.id}]." for s in chosen)
        return Generation(text, self.model_id, _prompt_hash(question, plan))

    def _select(
        self, question: str, spans: Sequence[EvidenceSpan], relevance: dict[str, float]
    ) -> list[EvidenceSpan]:
        if not spans:
            return []
        if relevance:
            scores = [relevance[s.id] for s in spans]
            order = sorted(range(len(spans)), key=lambda i: (-scores[i], i))
            if self._max_sources < self._max and (self._second_weight or self._title_weight):
                titles = self._title_cosines(question, spans) if self._title_weight else {}
                chosen = self._best_sources(spans, scores, order, titles)
                order = [i for i in order if _source_of(spans[i]) in chosen]
            order = [i for i in order if scores[i] >= scores[order[0]] - self._max_behind]
            return self._first_distinct(spans, order)
        token_lists = [token_texts(s.text) for s in spans]
        weighted = weigh_claim(token_texts(question), PlanIdf(token_lists))
        lexical = [coverage(weighted, Counter(tokens)) for tokens in token_lists]
        cosines = self._cosines(question, [s.text for s in spans])
        scores = [
            lex if cosines is None else 0.5 * lex + 0.5 * max(float(cosines[i]), 0.0)
            for i, lex in enumerate(lexical)
        ]
        order = sorted(
            (i for i in range(len(spans)) if lexical[i] > 0.0), key=lambda i: (-scores[i], i)
        )
        if order:
            floor = scores[order[0]] * self._min_relative
            order = [i for i in order if scores[i] >= floor]
        return self._first_distinct(spans, order)

    def _best_sources(
        self,
        spans: Sequence[EvidenceSpan],
        scores: Sequence[float],
        order: Sequence[int],
        titles: dict[str, float],
    ) -> set[str]:
        """The ``max_sources`` sources with the highest best relevance plus ``second_weight``
        times the second best plus ``title_weight`` times their title's cosine to the question
        (``titles``, by source; none when empty), ties to the source whose best span comes first
        in ``order``."""
        best: dict[str, list[float]] = {}
        for i in order:  # relevance order: each source's best span first
            best.setdefault(_source_of(spans[i]), []).append(scores[i])
        rank = {source: k for k, source in enumerate(best)}

        def strength(source: str) -> tuple[float, int]:
            top = best[source]
            second = top[1] if len(top) > 1 else 0.0
            title = self._title_weight * titles.get(source, 0.0)
            return (-(top[0] + self._second_weight * second + title), rank[source])

        return set(sorted(best, key=strength)[: self._max_sources])

    def _first_distinct(
        self, spans: Sequence[EvidenceSpan], order: list[int]
    ) -> list[EvidenceSpan]:
        """The first ``max_sentences`` spans in ``order`` from its first ``max_sources``
        sources, skipping repeated texts."""
        chosen: list[EvidenceSpan] = []
        seen: set[str] = set()
        sources: list[str] = []
        for i in order:
            source = _source_of(spans[i])
            if source not in sources:
                if len(sources) == self._max_sources:
                    continue
                sources.append(source)
            normal = " ".join(spans[i].text.split()).lower()
            if normal not in seen:
                seen.add(normal)
                chosen.append(spans[i])
            if len(chosen) == self._max:
                break
        return chosen

    def _title_cosines(self, question: str, spans: Sequence[EvidenceSpan]) -> dict[str, float]:
        """Each candidate source's title cosine to the question, by source; empty without a
        working embedder, or when one of the sources has no title (titles rank sources only
        when every one of them can be read that way)."""
        titles: dict[str, str] = {}
        for span in spans:
            title = span.source.get("title") if span.source else None
            if not isinstance(title, str) or not title.strip():
                return {}
            titles.setdefault(_source_of(span), " ".join(title.split()))
        if self._embedder is None or len(titles) < 2:
            return {}
        names = list(titles)
        cosines = self._cosines(question, [titles[n] for n in names])
        if cosines is None:
            return {}
        return {name: float(cosines[k]) for k, name in enumerate(names)}

    def _cosines(self, question: str, texts: Sequence[str]) -> npt.NDArray[np.float64] | None:
        """Cosine of each text to the question, or None without a working embedder."""
        if self._embedder is None:
            return None
        try:
            vectors = np.asarray(self._embedder.embed([question, *texts]), dtype=np.float64)
        except ProviderError:
            return None  # lexical relevance alone; verification records the embedder's failure
        if vectors.ndim != 2 or vectors.shape[0] != len(texts) + 1:
            return None
        if not np.all(np.isfinite(vectors)):
            return None
        result: npt.NDArray[np.float64] = vectors[1:] @ vectors[0]
        return result


def _source_of(span: EvidenceSpan) -> str:
    """The source a span quotes: its ``source_id``, else the span itself."""
    source = span.source.get("source_id") if span.source else None
    return str(source) if source else f"span:{span.id}"


class LlmGenerator:
    """Asks a chat model to answer from the plan, at temperature 0.

    Provider failures propagate as :class:`~spanproof.core.errors.ProviderError`: without a
    draft there is nothing to verify.
    """

    def __init__(self, chat: ChatModel, *, max_tokens: int = 1024) -> None:
        self._chat = chat
        self._max_tokens = max_tokens

    @property
    def model_id(self) -> str:
        return self._chat.model_id

    def generate(self, question: str, plan: Plan) -> Generation:
        messages = build_generation_messages(question, plan.evidence)
        result = self._chat.complete(messages, temperature=0.0, max_tokens=self._max_tokens)
        return Generation(
            text=result.text,
            model=result.model or self._chat.model_id,
            prompt_hash=prompt_hash(messages),
            usage=result.usage,
        )
