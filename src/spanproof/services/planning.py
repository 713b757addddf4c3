"""The evidence planner (SPEC §4.1): recall, fuse, break down to sentences, pack under a budget.

1. **Recall** chunks three ways: keyword search (BM25-class), semantic search (cosine under the
   embedder's model) and graph expansion from the best fused hits: the sections next to a hit's
   section in the same source version, and sources linked to a hit's source by an external id
   (one source holds the id, the other is named by it, e.g. ``doi:10.1/x``).
2. **Fuse** the three rankings with reciprocal rank fusion (:func:`services.search.rrf`).
3. **Break down** every recalled chunk into truth-class spans: the sentences of its section's
   canonical text that fall inside the chunk (clipped to it), with offsets into that text. A span
   that touches an erased (masked) character is dropped: erased text never enters a plan.
4. **Rank** the spans by fusing again: the recall order of their chunk, their lexical coverage of
   the question, and their cosine to the question when an embedder is given.
5. **Keep the relevant** (with a relevance model, issue 15): every ranked span gets a relevance
   score (:mod:`spanproof.verify.relevance`: coverage of the question's content words and cosine
   to the question); spans below the model's floor leave. When none is left, the plan is empty
   and records the closest spans it dropped (``Plan.closest``): the answer then abstains.
6. **Pack** spans in that order into ``budget_tokens`` word tokens, skipping any span that would
   overflow the budget or take its source past ``max_source_share`` of the budget, and any span
   whose text repeats a packed one.

**Canonical plan order** is the fused span rank (best first); ties break by the span key
``(source id, version, section ordinal, start)``. Markers ``S1…Sn`` follow that order, so the
same store and question always give the same plan, markers and :func:`core.trace.plan_hash`.

Cache-class hints (derived summaries the caller passes in) ride along in the plan with
``truth_class=False`` and ids ``H1…``; the scorer never lets them support a claim, and the
citation syntax ``[S#]`` cannot name them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.core.models import EvidenceSpan
from spanproof.core.ports import Embedder
from spanproof.core.store import MASK, Chunk, EvidenceStore, SearchFilter, SearchHit, Section
from spanproof.core.trace import plan_hash
from spanproof.services.search import rrf
from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import token_texts
from spanproof.verify.lexical import PlanIdf, coverage, weigh_claim
from spanproof.verify.relevance import RelevanceModel, question_coverage, relevance_model_for

PLAN_MODEL = "planner-v1"
#: How many of the closest dropped spans an empty plan keeps, to show an abstention's sources.
CLOSEST = 3
#: Source-id prefixes of the connectors, by the external-id kind they name.
_ID_PREFIXES = {"doi": "doi", "pmid": "pmid", "pmcid": "pmc"}


@dataclass(frozen=True, slots=True)
class PlannerSettings:
    """How the planner recalls and packs.

    Attributes:
        budget_tokens: word tokens (SPEC §4.4 tokens) the packed spans may take in all.
        max_source_share: the largest share of the budget one source may take, in (0, 1].
        depth: hits drawn from each search ranking.
        chunks: fused chunks (search and expansion) broken down into sentence spans.
        expand_from: the best fused hits whose neighbours and linked sources are recalled.
        chunks_per_neighbour: chunks taken from each adjacent section or linked source.
    """

    budget_tokens: int = 600
    max_source_share: float = 0.4
    depth: int = 50
    chunks: int = 20
    expand_from: int = 5
    chunks_per_neighbour: int = 2

    def __post_init__(self) -> None:
        if self.budget_tokens < 1:
            raise ConfigurationError(f"budget_tokens must be at least 1, got {self.budget_tokens}")
        if not 0.0 < self.max_source_share <= 1.0:
            raise ConfigurationError(
                f"max_source_share must be in (0, 1], got {self.max_source_share}"
            )
        if min(self.depth, self.chunks, self.expand_from, self.chunks_per_neighbour) < 0:
            raise ConfigurationError("planner depth and chunk counts must not be negative")

    @property
    def source_cap(self) -> int:
        """Word tokens one source may take."""
        return math.floor(self.budget_tokens * self.max_source_share)


@dataclass(frozen=True, slots=True)
class Plan:
    """The packed evidence for one question.

    Attributes:
        question: the question planned for.
        spans: truth-class spans in canonical plan order; ``id`` is the marker (``S1``…) and
            ``source`` holds ``source_id``, ``version``, ``section_key``, ``start``, ``end``,
            ``title``.
        hints: cache-class spans (``truth_class=False``, ids ``H1``…), never evidence.
        budget_tokens: the budget packed under.
        tokens: word tokens the spans take.
        notes: how recall degraded, if it did (e.g. semantic recall skipped and why).
        relevance: with a relevance model, each span's relevance to the question (span order).
        relevance_model: the relevance model's name; "" when the plan kept every span.
        floor: the relevance a span needed to stay (None without a relevance model).
        closest: when no span reached the floor, the closest ones dropped (ids ``C1``…,
            ``source`` with a ``relevance`` key); never evidence.
    """

    question: str
    spans: tuple[EvidenceSpan, ...]
    hints: tuple[EvidenceSpan, ...] = ()
    budget_tokens: int = 600
    tokens: int = 0
    notes: tuple[str, ...] = ()
    plan_model: str = PLAN_MODEL
    relevance: tuple[float, ...] = ()
    relevance_model: str = ""
    floor: float | None = None
    closest: tuple[EvidenceSpan, ...] = ()

    @property
    def abstains(self) -> bool:
        """A relevance model kept no span: the sources do not answer the question."""
        return bool(self.relevance_model) and not self.spans

    @property
    def best_relevance(self) -> float | None:
        """The highest relevance of a kept span, else of a dropped one; None without a model."""
        if not self.relevance_model:
            return None
        scores = list(self.relevance) + [float(s.source["relevance"]) for s in self.closest]
        return max(scores, default=0.0)

    def relevance_record(self) -> dict[str, Any]:
        """What a trace records of relevance: model, floor, best score, whether the plan kept a
        span, each kept span's score by marker, and the closest dropped spans; {} without a
        relevance model."""
        if not self.relevance_model:
            return {}
        return {
            "model": self.relevance_model,
            "floor": self.floor,
            "score": self.best_relevance,
            "answered": not self.abstains,
            "spans": {s.id: r for s, r in zip(self.spans, self.relevance, strict=True)},
            "closest": [{"id": s.id, "text": s.text, **s.source} for s in self.closest],
        }

    @property
    def evidence(self) -> tuple[EvidenceSpan, ...]:
        """What verification receives: the truth-class spans, then the hints."""
        return self.spans + self.hints

    def ranked_sources(self) -> list[tuple[str, int]]:
        """The plan's sources as (source id, version), each once, by their best span's
        relevance (ties by marker); in plan order without a relevance model."""
        ranked = (
            sorted(zip(self.relevance, self.spans, strict=True), key=lambda p: (-p[0], p[1].id))
            if self.relevance
            else [(0.0, s) for s in self.spans]
        )
        out: dict[tuple[str, int], None] = {}
        for _, span in ranked:
            out.setdefault((str(span.source["source_id"]), int(span.source["version"])))
        return list(out)

    def span(self, marker: str) -> EvidenceSpan | None:
        """The truth-class span a marker names, if any."""
        return next((s for s in self.spans if s.id == marker), None)

    def to_trace(self) -> list[dict[str, Any]]:
        """The plan as a trace stores it: one dict per span, evidence order."""
        return [
            {"marker": s.id, "id": s.id, "text": s.text, "truth_class": s.truth_class, **s.source}
            for s in self.evidence
        ]

    @property
    def plan_hash(self) -> str:
        return plan_hash(self.to_trace())


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A sentence span of a section, before packing."""

    key: str  # canonical tie-break key
    source_id: str
    version: int
    section: Section
    start: int
    end: int
    tokens: int = field(compare=False)
    chunk_rank: int = field(compare=False, default=0)
    words: tuple[str, ...] = field(compare=False, default=())  # token_texts(text)

    @property
    def text(self) -> str:
        return self.section.text[self.start : self.end]

    def as_chunk(self) -> Chunk:
        return Chunk(
            self.key,
            self.source_id,
            self.version,
            self.section.key,
            self.start,
            self.end,
            self.text,
        )


class Planner:
    """Plans evidence for questions from one store (and optionally one embedder)."""

    def __init__(
        self,
        store: EvidenceStore,
        embedder: Embedder | None,
        settings: PlannerSettings | None = None,
        *,
        flt: SearchFilter | None = None,
        relevance: RelevanceModel | None = None,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self.settings = settings or PlannerSettings()
        self._flt = flt or SearchFilter()
        self.relevance = relevance

    def plan(self, question: str, hints: Sequence[str] = ()) -> Plan:
        """Recall, fuse, break down and pack the evidence for ``question``."""
        notes: list[str] = []
        sections = _SectionCache(self._store)
        chunks = self._recall(question, sections, notes)
        candidates = _break_down(chunks, sections)
        ranked, cosines = self._rank(question, candidates, notes)
        scores: dict[str, float] = {}
        by_relevance: list[_Candidate] = []
        model = self._relevance_model(cosines)
        if model is not None:
            scores = self._relevance(model, question, ranked, cosines)
            floor = model.floor
            # Best first; when nothing is packed these are the closest (a kept span too long
            # for the budget included).
            by_relevance = sorted(ranked, key=lambda c: -scores[c.key])
            ranked = [c for c in ranked if scores[c.key] >= floor]
        packed, used = _pack(ranked, self.settings)
        titles = _Titles(self._store)
        spans = tuple(
            EvidenceSpan(id=f"S{i}", text=c.text, source=_source_ref(c, titles))
            for i, c in enumerate(packed, start=1)
        )
        closest = tuple(
            EvidenceSpan(
                id=f"C{i}",
                text=c.text,
                truth_class=False,
                source={**_source_ref(c, titles), "relevance": scores[c.key]},
            )
            for i, c in enumerate(_distinct_sources(by_relevance, CLOSEST) if not spans else [], 1)
        )
        hint_spans = tuple(
            EvidenceSpan(id=f"H{i}", text=text, truth_class=False, source={"kind": "cache"})
            for i, text in enumerate(hints, start=1)
        )
        return Plan(
            question=question,
            spans=spans,
            hints=hint_spans,
            budget_tokens=self.settings.budget_tokens,
            tokens=used,
            notes=tuple(notes),
            relevance=tuple(scores[c.key] for c in packed) if scores else (),
            relevance_model=model.name if model is not None else "",
            floor=model.floor if model is not None else None,
            closest=closest,
        )

    def recall(self, question: str) -> list[Chunk]:
        """The chunks the plan of ``question`` breaks down to sentence spans (recall order)."""
        return [hit.chunk for hit in self._recall(question, _SectionCache(self._store), [])]

    def relevance_features(self, question: str) -> list[tuple[EvidenceSpan, float, float | None]]:
        """Every ranked candidate span of ``question`` with its coverage of the question's
        content words and its cosine to the question (None without a working embedder), in
        canonical order, before relevance and packing: what a relevance model is fitted on."""
        notes: list[str] = []
        sections = _SectionCache(self._store)
        candidates = _break_down(self._recall(question, sections, notes), sections)
        ranked, cosines = self._rank(question, candidates, notes)
        coverages = question_coverage(token_texts(question), [c.words for c in ranked])
        titles = _Titles(self._store)
        return [
            (EvidenceSpan(c.key, c.text, source=_source_ref(c, titles)), cov, cosines.get(c.key))
            for c, cov in zip(ranked, coverages, strict=True)
        ]

    def _relevance_model(self, cosines: dict[str, float]) -> RelevanceModel | None:
        """The configured relevance model, or its lexical fallback when the cosines it reads are
        missing (embedder absent, failed, or another model)."""
        if self.relevance is None or not self.relevance.embed_model:
            return self.relevance
        embed_model = self._embedder.model_id if self._embedder is not None else None
        if self.relevance.uses(embed_model) and cosines:
            return self.relevance
        return relevance_model_for(None)

    def _relevance(
        self,
        model: RelevanceModel,
        question: str,
        ranked: Sequence[_Candidate],
        cosines: dict[str, float],
    ) -> dict[str, float]:
        """Each candidate's relevance under ``model``."""
        coverages = question_coverage(token_texts(question), [c.words for c in ranked])
        return {
            c.key: model.score(cov, cosines.get(c.key))
            for c, cov in zip(ranked, coverages, strict=True)
        }

    # recall -----------------------------------------------------------------------------------
    def _question_vector(self, question: str, notes: list[str]) -> npt.NDArray[np.float64] | None:
        if self._embedder is None:
            notes.append("semantic recall skipped: no embedder")
            return None
        vectors = _safe_embed(self._embedder, [question], notes)
        return None if vectors is None else vectors[0]

    def _recall(self, question: str, sections: _SectionCache, notes: list[str]) -> list[SearchHit]:
        cfg = self.settings
        if not question.strip() or cfg.chunks == 0:
            return []
        keyword = self._store.keyword_search(question, cfg.depth, self._flt)
        semantic: list[SearchHit] = []
        vector = self._question_vector(question, notes)
        if vector is not None and self._embedder is not None:
            semantic = self._store.vector_search(
                vector.astype(np.float32), self._embedder.model_id, cfg.depth, self._flt
            )
        seeds = rrf([keyword, semantic], cfg.chunks)
        graph = self._expand(seeds[: cfg.expand_from], sections)
        return rrf([keyword, semantic, graph], cfg.chunks)

    def _expand(self, seeds: Sequence[SearchHit], sections: _SectionCache) -> list[SearchHit]:
        """Chunks of the sections adjacent to each seed's section, then of linked sources."""
        out: list[Chunk] = []
        seen: set[str] = set()
        per = self.settings.chunks_per_neighbour

        def take(chunks: Sequence[Chunk]) -> None:
            for chunk in chunks[:per]:
                if chunk.id not in seen:
                    seen.add(chunk.id)
                    out.append(chunk)

        for hit in seeds:
            chunk = hit.chunk
            by_section = sections.chunks_by_section(chunk.source_id, chunk.version)
            ordered = sections.ordered(chunk.source_id, chunk.version)
            keys = [s.key for s in ordered]
            if chunk.section_key in keys:
                at = keys.index(chunk.section_key)
                if at > 0:
                    take(by_section.get(keys[at - 1], [])[-per:] if per else [])
                if at + 1 < len(keys):
                    take(by_section.get(keys[at + 1], []))
            for linked in self._linked_sources(chunk.source_id):
                take(self._eligible_chunks(linked, sections))
        return [SearchHit(c, 0.0, i) for i, c in enumerate(out, start=1)]

    def _linked_sources(self, source_id: str) -> list[str]:
        """Other active sources that hold an external id of this one, or are named by one."""
        source = self._store.get_source(source_id)
        if source is None:
            return []
        pairs = sorted(source.external_ids.items())
        prefix, _, value = source_id.partition(":")
        for kind, kind_prefix in _ID_PREFIXES.items():
            if prefix == kind_prefix and value:
                pairs.append((kind, value))
        found: list[str] = []
        for kind, value in pairs:
            named = (
                self._store.get_source(f"{_ID_PREFIXES[kind]}:{value}")
                if kind in _ID_PREFIXES
                else None
            )
            for other in (self._store.find_source(kind, value), named):
                if (
                    other is not None
                    and other.id != source_id
                    and other.status == "active"
                    and other.id not in found
                ):
                    found.append(other.id)
        return sorted(found)

    def _eligible_chunks(self, source_id: str, sections: _SectionCache) -> list[Chunk]:
        """Chunks of a source's current version when it is parsed (SPEC §3.6 eligibility)."""
        current = self._store.current_version(source_id)
        if current is None or current.state != "parsed":
            return []
        number = current.number
        by_section = sections.chunks_by_section(source_id, number)
        return [c for s in sections.ordered(source_id, number) for c in by_section.get(s.key, [])]

    # ranking ----------------------------------------------------------------------------------
    def _rank(
        self, question: str, candidates: Sequence[_Candidate], notes: list[str]
    ) -> tuple[list[_Candidate], dict[str, float]]:
        """Candidates in canonical plan order (RRF of recall order, lexical and cosine ranks),
        and each one's cosine to the question by key (empty without a working embedder)."""
        if not candidates:
            return [], {}
        cosines: dict[str, float] = {}
        by_key = {c.key: c for c in candidates}
        # A sentence inherits its chunk's recall rank: recall ranks chunks, not sentences.
        recall = [SearchHit(c.as_chunk(), 0.0, c.chunk_rank) for c in candidates]
        lexical = _lexical_ranking(question, candidates)
        rankings = [recall, lexical]
        if self._embedder is not None and not any(n.startswith("semantic") for n in notes):
            vectors = _safe_embed(self._embedder, [question] + [c.text for c in candidates], notes)
            if vectors is not None:
                cos = vectors[1:] @ vectors[0]
                cosines = {c.key: float(cos[i]) for i, c in enumerate(candidates)}
                order = sorted(range(len(candidates)), key=lambda i: (-cos[i], candidates[i].key))
                rankings.append(
                    [
                        SearchHit(candidates[i].as_chunk(), float(cos[i]), r)
                        for r, i in enumerate(order, start=1)
                    ]
                )
        fused = rrf(rankings, len(candidates))
        return [by_key[h.chunk.id] for h in fused], cosines


def _source_ref(c: _Candidate, titles: _Titles) -> dict[str, Any]:
    """A span's source reference as plans carry it."""
    return {
        "source_id": c.source_id,
        "version": c.version,
        "section_key": c.section.key,
        "start": c.start,
        "end": c.end,
        "title": titles.get(c.source_id),
    }


def _distinct_sources(candidates: Sequence[_Candidate], n: int) -> list[_Candidate]:
    """The first candidate of each source, up to ``n`` of them, in the given order."""
    out: list[_Candidate] = []
    seen: set[str] = set()
    for c in candidates:
        if c.source_id not in seen:
            seen.add(c.source_id)
            out.append(c)
        if len(out) == n:
            break
    return out


def _safe_embed(
    embedder: Embedder, texts: list[str], notes: list[str]
) -> npt.NDArray[np.float64] | None:
    """Vectors for ``texts``, or None (with a note) when the embedder fails or is inconsistent."""
    try:
        vectors = np.asarray(embedder.embed(texts), dtype=np.float64)
    except ProviderError as exc:
        notes.append(f"semantic recall skipped: embedding failed: {exc}")
        return None
    if vectors.ndim != 2 or vectors.shape[0] != len(texts) or not np.all(np.isfinite(vectors)):
        notes.append("semantic recall skipped: inconsistent embedding model")
        return None
    return vectors


def _lexical_ranking(question: str, candidates: Sequence[_Candidate]) -> list[SearchHit]:
    """Candidates that share a word with the question, by IDF-weighted coverage of it."""
    token_lists = [c.words for c in candidates]
    weighted = weigh_claim(token_texts(question), PlanIdf(token_lists))
    scored = [
        (coverage(weighted, Counter(tokens)), c)
        for tokens, c in zip(token_lists, candidates, strict=True)
    ]
    scored = sorted((s for s in scored if s[0] > 0.0), key=lambda s: (-s[0], s[1].key))
    return [SearchHit(c.as_chunk(), score, r) for r, (score, c) in enumerate(scored, start=1)]


def chunk_sentences(
    text: str, sentences: Sequence[tuple[int, int]], start: int, end: int
) -> Iterator[tuple[int, int, list[str]]]:
    """The sentence spans of the chunk ``[start, end)`` of a section's ``text``, as the planner
    breaks it down: each sentence clipped to the chunk, with its word tokens; spans that touch
    erased text, are blank or hold no token are left out. ``sentences`` are the section's
    sentence ranges in order."""
    for sentence in sentences:
        lo, hi = max(sentence[0], start), min(sentence[1], end)
        if lo >= hi:
            continue
        piece = text[lo:hi]
        if MASK in piece or not piece.strip():
            continue
        words = token_texts(piece)
        if words:
            yield lo, hi, words


def sentence_texts(store: EvidenceStore, chunks: Sequence[Chunk]) -> list[str]:
    """The distinct texts of the sentence spans the planner can break ``chunks`` down to, in
    chunk order: what it embeds when one of these chunks is recalled."""
    sections = _SectionCache(store)
    out: dict[str, None] = {}
    for chunk in chunks:
        section = sections.section(chunk.source_id, chunk.version, chunk.section_key)
        if section is None:
            continue
        for lo, hi, _ in chunk_sentences(
            section.text, sections.sentences(section), chunk.start, chunk.end
        ):
            out.setdefault(section.text[lo:hi])
    return list(out)


def _break_down(chunks: Sequence[SearchHit], sections: _SectionCache) -> list[_Candidate]:
    """Sentence spans of each chunk (clipped to it), in chunk order; erased text dropped."""
    out: list[_Candidate] = []
    seen: set[str] = set()
    for hit in chunks:
        chunk = hit.chunk
        section = sections.section(chunk.source_id, chunk.version, chunk.section_key)
        if section is None:
            continue
        for start, end, words in chunk_sentences(
            section.text, sections.sentences(section), chunk.start, chunk.end
        ):
            key = (
                f"{chunk.source_id}\x1f{chunk.version:09d}\x1f{section.ordinal:06d}"
                f"\x1f{start:09d}\x1f{end:09d}"
            )
            if key in seen:
                continue
            seen.add(key)
            out.append(
                _Candidate(
                    key,
                    chunk.source_id,
                    chunk.version,
                    section,
                    start,
                    end,
                    len(words),
                    hit.rank,
                    tuple(words),
                )
            )
    return out


def _pack(ranked: Sequence[_Candidate], cfg: PlannerSettings) -> tuple[list[_Candidate], int]:
    """Greedy packing in rank order under the budget and the per-source cap."""
    packed: list[_Candidate] = []
    used = 0
    per_source: dict[str, int] = {}
    texts: set[str] = set()
    cap = cfg.source_cap
    for candidate in ranked:
        if used + candidate.tokens > cfg.budget_tokens:
            continue
        if per_source.get(candidate.source_id, 0) + candidate.tokens > cap:
            continue
        normal = " ".join(candidate.text.split()).lower()
        if normal in texts:
            continue
        texts.add(normal)
        packed.append(candidate)
        used += candidate.tokens
        per_source[candidate.source_id] = per_source.get(candidate.source_id, 0) + candidate.tokens
    return packed, used


class _SectionCache:
    """Sections, their chunks and sentences, read once per plan."""

    def __init__(self, store: EvidenceStore) -> None:
        self._store = store
        self._sections: dict[tuple[str, int], list[Section]] = {}
        self._chunks: dict[tuple[str, int], dict[str, list[Chunk]]] = {}
        self._sentences: dict[tuple[str, int, str], list[tuple[int, int]]] = {}

    def ordered(self, source_id: str, version: int) -> list[Section]:
        key = (source_id, version)
        if key not in self._sections:
            self._sections[key] = sorted(
                self._store.sections(source_id, version), key=lambda s: s.ordinal
            )
        return self._sections[key]

    def section(self, source_id: str, version: int, key: str) -> Section | None:
        return next((s for s in self.ordered(source_id, version) if s.key == key), None)

    def chunks_by_section(self, source_id: str, version: int) -> dict[str, list[Chunk]]:
        key = (source_id, version)
        if key not in self._chunks:
            grouped: dict[str, list[Chunk]] = {}
            for chunk in self._store.chunks(source_id, version):
                grouped.setdefault(chunk.section_key, []).append(chunk)
            for items in grouped.values():
                items.sort(key=lambda c: (c.start, c.id))
            self._chunks[key] = grouped
        return self._chunks[key]

    def sentences(self, section: Section) -> list[tuple[int, int]]:
        key = (section.source_id, section.version, section.key)
        if key not in self._sentences:
            self._sentences[key] = [(s.start, s.end) for s in split_sentences(section.text)]
        return self._sentences[key]


class _Titles:
    def __init__(self, store: EvidenceStore) -> None:
        self._store = store
        self._titles: dict[str, str] = {}

    def get(self, source_id: str) -> str:
        if source_id not in self._titles:
            source = self._store.get_source(source_id)
            self._titles[source_id] = source.title if source is not None else ""
        return self._titles[source_id]
