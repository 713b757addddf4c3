"""The optional HNSW index of the SQLite store: used only while fresh, close to exact."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from spanproof.core.documents import ParsedSection
from spanproof.core.store import Chunk, SearchFilter, Source
from spanproof.store.sqlite import ann
from spanproof.store.sqlite.store import SqliteEvidenceStore

pytestmark = pytest.mark.skipif(not ann.available(), reason="hnswlib (the 'ann' extra) missing")
N, DIM, MODEL = 3000, 32, "test-model"
EVERYTHING = SearchFilter(eligible_only=False)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    s = SqliteEvidenceStore(tmp_path / "ann.sqlite")
    words = [f"w{i:05d}" for i in range(N)]
    text = " ".join(words)
    with s.transaction():
        s.upsert_source(Source(id="src", connector="file"))
        sha = hashlib.sha256(text.encode()).hexdigest()
        s.put_blob(sha, text.encode())
        s.add_version("src", sha, "text/plain")
        s.add_sections("src", 1, [ParsedSection("p1", "", text)])
        s.set_version_state("src", 1, "parsed", format="text")
        chunks, pos = [], 0
        for i, w in enumerate(words):
            chunks.append(Chunk(f"c{i:05d}", "src", 1, "p1", pos, pos + len(w), w))
            pos += len(w) + 1
        s.add_chunks(chunks)
        rng = np.random.default_rng(11)
        vecs = rng.normal(size=(N, DIM)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        s.put_embeddings(MODEL, [(c.id, vecs[i]) for i, c in enumerate(chunks)])
    yield s
    s.close()


def ids(store: SqliteEvidenceStore, query: np.ndarray, k: int = 10) -> list[str]:
    return [h.chunk.id for h in store.vector_search(query, MODEL, k, EVERYTHING)]


def test_a_fresh_index_answers_close_to_exact_and_finds_a_stored_vector_first(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    rng = np.random.default_rng(5)
    queries = rng.normal(size=(20, DIM)).astype(np.float32)
    exact = [ids(store, q) for q in queries]
    assert store.rebuild_vector_index(MODEL) == N
    assert list((tmp_path / "ann.sqlite.vectors").glob("*.hnsw"))
    approx = [ids(store, q) for q in queries]
    overlap = np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approx, exact, strict=True)])
    assert overlap >= 0.9
    hit = store.vector_search(np.eye(1, DIM, 0, dtype=np.float32)[0], MODEL, 5, EVERYTHING)
    assert len(hit) == 5 and [h.rank for h in hit] == [1, 2, 3, 4, 5]
    assert all(hit[i].score >= hit[i + 1].score for i in range(4))


def test_a_stale_index_is_never_used(store: SqliteEvidenceStore) -> None:
    store.rebuild_vector_index(MODEL)
    probe = np.zeros(DIM, dtype=np.float32)
    probe[3] = 1.0
    with store.transaction():
        store.put_embeddings(MODEL, [("c00007", probe)])  # changes the model's vectors
    first = store.vector_search(probe, MODEL, 1, EVERYTHING)[0]
    assert first.chunk.id == "c00007" and first.score == pytest.approx(1.0)
