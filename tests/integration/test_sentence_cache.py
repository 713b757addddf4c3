"""Sentence vectors cached ahead of ``ask``: ingestion embeds the sentence spans the planner can
break chunks down to into the embedding cache, ``cache_sentences`` back-fills a store, and the
planner then embeds only the question, with the same plan bit for bit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.store import MASK
from spanproof.ingest.files import iter_path
from spanproof.providers.embeddings.cache import CachedEmbedder
from spanproof.services.ingestion import (
    EmbeddingCache,
    SentenceFill,
    cache_chunk_sentences,
    cache_sentences,
    embed_pending,
    ingest,
    parsed_chunks,
)
from spanproof.services.planning import Plan, Planner, sentence_texts
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.relevance import relevance_model_for

CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
QUESTIONS = (
    "What did daily walking do to blood pressure?",
    "How much cooler were city blocks with more tree canopy?",
    "Did caffeine shorten reaction time?",
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    s = SqliteEvidenceStore(tmp_path / "store.sqlite")
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(s, fetched, source_id, parse)
    yield s
    s.close()


def all_sentences(store: SqliteEvidenceStore) -> list[str]:
    """Every source's sentence texts, distinct, in source order."""
    texts = [t for chunks in parsed_chunks(store) for t in sentence_texts(store, chunks)]
    return list(dict.fromkeys(texts))


def plan_record(plan: Plan) -> tuple[object, ...]:
    return (plan.to_trace(), plan.plan_hash, plan.relevance, plan.notes, plan.relevance_record())


def test_a_cached_embedder_is_an_embedding_cache_and_a_plain_one_is_not(tmp_path: Path) -> None:
    with CachedEmbedder(FakeEmbedder(), tmp_path / "e.sqlite") as cache:
        assert isinstance(cache, EmbeddingCache)
    assert not isinstance(FakeEmbedder(), EmbeddingCache)


def test_missing_lists_distinct_uncached_texts_in_order_without_a_model_call(
    tmp_path: Path,
) -> None:
    inner = FakeEmbedder()
    with CachedEmbedder(inner, tmp_path / "e.sqlite") as cache:
        cache.embed(["b"])
        assert cache.missing(["c", "b", "a", "c"]) == ["c", "a"]
        assert cache.missing([]) == []
        assert inner.texts_embedded == 1


def test_sentence_texts_are_the_plan_breakdown_of_the_chunks(store: SqliteEvidenceStore) -> None:
    per_source = [sentence_texts(store, chunks) for chunks in parsed_chunks(store)]
    assert all(len(texts) == len(set(texts)) for texts in per_source)
    texts = all_sentences(store)
    assert len(texts) > 20
    assert all(t.strip() and MASK not in t for t in texts)
    embedder = FakeEmbedder()
    embed_pending(store, embedder)
    for question in QUESTIONS:
        planner = Planner(store, embedder)
        features = planner.relevance_features(question)
        planned = {span.text for span, _, _ in features}
        assert planned and planned <= set(texts)
        assert planned == set(sentence_texts(store, planner.recall(question)))


def test_ingestion_caches_every_sentence_and_the_planner_then_embeds_only_the_question(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    inner = FakeEmbedder()
    with CachedEmbedder(inner, tmp_path / "e.sqlite") as cache:
        chunks = embed_pending(store, cache, batch_size=3, sentences=True)
        assert chunks == store.stats()["chunks"]
        assert cache.missing(all_sentences(store)) == []
        assert cache_sentences(store, cache).embedded == 0  # nothing left to back-fill
        relevance = relevance_model_for(cache.model_id)
        for question in QUESTIONS:
            before = inner.texts_embedded
            plan = Planner(store, cache, relevance=relevance).plan(question)
            assert plan.spans
            assert inner.texts_embedded - before == 1  # the question alone


def test_plans_over_cached_sentences_equal_plans_over_a_cold_cache_bit_for_bit(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    embed_pending(store, FakeEmbedder())
    with (
        CachedEmbedder(FakeEmbedder(), tmp_path / "cold.sqlite") as cold,
        CachedEmbedder(FakeEmbedder(), tmp_path / "warm.sqlite") as warm,
    ):
        fill = cache_sentences(store, warm, batch_size=4)
        assert fill.sentences == fill.embedded == len(all_sentences(store))
        for question in QUESTIONS:
            relevance = relevance_model_for(cold.model_id)
            expected = Planner(store, cold, relevance=relevance).plan(question)
            got = Planner(store, warm, relevance=relevance).plan(question)
            assert plan_record(got) == plan_record(expected)


def test_back_fill_resumes_and_embeds_nothing_without_a_cache(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    inner = FakeEmbedder()
    n = len(all_sentences(store))
    with CachedEmbedder(inner, tmp_path / "e.sqlite") as cache:
        cache.embed(all_sentences(store)[:5])  # an interrupted earlier run
        done: list[int] = []
        fill = cache_sentences(store, cache, batch_size=7, progress=done.append)
        assert fill == SentenceFill(sentences=n, embedded=n - 5)
        assert sum(done) == store.stats()["sources"]
        assert cache_sentences(store, cache) == SentenceFill(sentences=n, embedded=0)
        assert inner.texts_embedded == n
    plain = FakeEmbedder()
    assert cache_sentences(store, plain) == SentenceFill(sentences=n, embedded=0)
    assert plain.texts_embedded == 0


def test_erased_text_is_never_cached(store: SqliteEvidenceStore, tmp_path: Path) -> None:
    source_id = next(s.id for s in store.list_sources() if s.id.endswith("walking.md"))
    (version,) = store.versions(source_id)
    section = next(
        s for s in store.sections(source_id, version.number) if "lowered systolic" in s.text
    )
    start = section.text.index("lowered systolic")
    store.add_erasure(source_id, version.number, section.key, start, start + 16, "GDPR request 7")
    texts = all_sentences(store)
    assert texts and not any("lowered systolic" in t or MASK in t for t in texts)
    with CachedEmbedder(FakeEmbedder(), tmp_path / "e.sqlite") as cache:
        cache_sentences(store, cache)
        assert cache.missing(["Daily walking lowered systolic blood pressure."]) != []


def test_cache_chunk_sentences_fills_one_version_and_skips_an_embedder_without_a_cache(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    chunks = next(iter(parsed_chunks(store)))
    wanted = sentence_texts(store, chunks)
    assert wanted
    assert cache_chunk_sentences(store, FakeEmbedder(), chunks) == 0
    with CachedEmbedder(FakeEmbedder(), tmp_path / "e.sqlite") as cache:
        assert cache_chunk_sentences(store, cache, chunks, batch_size=2) == len(wanted)
        assert cache.missing(wanted) == []
        assert cache_chunk_sentences(store, cache, chunks) == 0  # nothing left
