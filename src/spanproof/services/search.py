"""Hybrid retrieval (issue: store and ingestion): keyword (BM25-class) and cosine rankings fused
with reciprocal rank fusion, ``score = Σ 1 / (k + rank)`` over the rankings a chunk appears in.
Ties break by chunk id, so the same store and query always give the same order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from spanproof.core.ports import Embedder
from spanproof.core.store import EvidenceStore, SearchFilter, SearchHit

RRF_K = 60
Mode = Literal["hybrid", "keyword", "vector"]


def rrf(rankings: Sequence[Sequence[SearchHit]], limit: int, k: int = RRF_K) -> list[SearchHit]:
    """Reciprocal rank fusion of several rankings of chunks."""
    scores: dict[str, float] = {}
    chunks = {}
    for ranking in rankings:
        for hit in ranking:
            scores[hit.chunk.id] = scores.get(hit.chunk.id, 0.0) + 1.0 / (k + hit.rank)
            chunks[hit.chunk.id] = hit.chunk
    order = sorted(scores, key=lambda cid: (-scores[cid], cid))[:limit]
    return [SearchHit(chunks[cid], scores[cid], i + 1) for i, cid in enumerate(order)]


def search(
    store: EvidenceStore,
    query: str,
    *,
    embedder: Embedder | None,
    limit: int = 10,
    mode: Mode = "hybrid",
    flt: SearchFilter | None = None,
    depth: int = 50,
) -> list[SearchHit]:
    """Top ``limit`` chunks for ``query``; ``depth`` candidates are drawn from each ranking."""
    flt = flt or SearchFilter()
    if not query.strip():
        return []
    rankings: list[list[SearchHit]] = []
    if mode in ("hybrid", "keyword"):
        rankings.append(store.keyword_search(query, depth, flt))
    if mode in ("hybrid", "vector"):
        if embedder is None:
            if mode == "vector":
                return []
        else:
            vector = embedder.embed([query])[0]
            rankings.append(store.vector_search(vector, embedder.model_id, depth, flt))
    if len(rankings) == 1:
        return [SearchHit(h.chunk, h.score, i + 1) for i, h in enumerate(rankings[0][:limit])]
    return rrf(rankings, limit)


def hit_row(hit: SearchHit) -> dict[str, Any]:
    """One search hit as ``spanproof search --json`` and ``GET /v1/search`` give it."""
    return {
        "rank": hit.rank,
        "score": hit.score,
        "source": hit.chunk.source_id,
        "version": hit.chunk.version,
        "section": hit.chunk.section_key,
        "start": hit.chunk.start,
        "end": hit.chunk.end,
        "text": hit.chunk.text,
    }
