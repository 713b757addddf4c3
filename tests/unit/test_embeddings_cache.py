"""CachedEmbedder against a real SQLite file, in front of a counting embedder written here."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.core.errors import ConfigurationError
from spanproof.core.ports import Embedder, FloatMatrix
from spanproof.providers.embeddings import CachedEmbedder

DIM = 8


class CountingEmbedder:
    """An Embedder whose vectors derive from the text's hash; records every embed call."""

    def __init__(self, model_id: str = "counting-v1", model_hash: str = "h1") -> None:
        self._model_id = model_id
        self._model_hash = model_hash
        self.calls: list[list[str]] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def model_hash(self) -> str:
        return self._model_hash

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        self.calls.append(list(texts))
        rows = []
        for text in texts:
            seed = hashlib.sha256(f"{self._model_id}|{text}".encode("utf-8", "surrogatepass"))
            rng = np.random.default_rng(int.from_bytes(seed.digest()[:8], "big"))
            row = rng.standard_normal(DIM).astype(np.float32)
            rows.append(row / np.linalg.norm(row))
        return np.array(rows, dtype=np.float32).reshape(len(texts), DIM)

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        return [(0, len(text))]

    @property
    def embedded(self) -> list[str]:
        return [text for call in self.calls for text in call]


@pytest.fixture
def inner() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def cache(inner: CountingEmbedder, tmp_path: Path) -> Iterator[CachedEmbedder]:
    with CachedEmbedder(inner, tmp_path / "cache" / "embeddings.sqlite") as cached:
        yield cached


def test_cached_embedder_implements_the_embedder_port(cache: CachedEmbedder) -> None:
    assert isinstance(cache, Embedder)
    assert cache.model_id == "counting-v1"
    assert cache.model_hash == "h1"
    assert cache.window_ranges("abc def") == [(0, 7)]


def test_a_hit_returns_the_same_bytes_the_miss_returned(
    cache: CachedEmbedder, inner: CountingEmbedder
) -> None:
    texts = ["Aspirin lowers fever.", "Water boils at 100 °C at sea level."]
    first = cache.embed(texts)
    second = cache.embed(texts)
    assert first.dtype == second.dtype == np.float32
    assert first.tobytes() == second.tobytes()
    assert first.tobytes() == inner.embed(texts).tobytes()
    assert len(inner.calls) == 2  # the cached miss call, and the direct call just above


def test_inner_embedder_sees_only_distinct_misses_in_one_call(
    cache: CachedEmbedder, inner: CountingEmbedder
) -> None:
    cache.embed(["a", "b"])
    out = cache.embed(["b", "c", "a", "c", "d"])
    assert inner.calls == [["a", "b"], ["c", "d"]]
    assert out.shape == (5, DIM)
    assert out[1].tobytes() == out[3].tobytes()
    assert len(cache) == 4


def test_all_hits_make_no_inner_call(cache: CachedEmbedder, inner: CountingEmbedder) -> None:
    cache.embed(["x", "y"])
    cache.embed(["y", "x", "y"])
    assert inner.calls == [["x", "y"]]


def test_cache_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    with CachedEmbedder(CountingEmbedder(), path) as cached:
        before = cached.embed(["persisted text", "another one"])
    fresh_inner = CountingEmbedder()
    with CachedEmbedder(fresh_inner, path) as reopened:
        after = reopened.embed(["another one", "persisted text"])
    assert fresh_inner.calls == []
    assert after[::-1].tobytes() == before.tobytes()


def test_different_model_ids_or_hashes_do_not_share_vectors(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    first, renamed, reweighted = (
        CountingEmbedder("model-a", "h1"),
        CountingEmbedder("model-b", "h1"),
        CountingEmbedder("model-a", "h2"),
    )
    with CachedEmbedder(first, path) as a:
        vec_a = a.embed(["same text"])
    with CachedEmbedder(renamed, path) as b:
        vec_b = b.embed(["same text"])
    with CachedEmbedder(reweighted, path) as c:
        c.embed(["same text"])
        assert len(c) == 3
    assert renamed.calls == [["same text"]]
    assert reweighted.calls == [["same text"]]
    assert not np.array_equal(vec_a, vec_b)


def test_empty_input_gives_an_empty_matrix(cache: CachedEmbedder) -> None:
    assert cache.embed([]).shape[0] == 0


def test_a_corrupt_cache_file_raises_a_configuration_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite"
    path.write_bytes(b"this is not a database, just some bytes " * 200)
    with pytest.raises(ConfigurationError, match=r"broken\.sqlite") as caught:
        CachedEmbedder(CountingEmbedder(), path)
    assert "delete the file" in str(caught.value)


def test_a_foreign_table_of_the_same_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE embedding (id INTEGER PRIMARY KEY, body TEXT)")
    db.close()
    with pytest.raises(ConfigurationError, match=r"other\.sqlite"):
        CachedEmbedder(CountingEmbedder(), path)


def test_cache_file_is_in_wal_mode(cache: CachedEmbedder) -> None:
    with sqlite3.connect(cache.path) as db:
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    assert mode == "wal"


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CachedEmbedder]:
    path = tmp_path_factory.mktemp("hypothesis") / "embeddings.sqlite"
    with CachedEmbedder(CountingEmbedder(), path) as cached:
        yield cached


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(st.text(max_size=40), max_size=12))
def test_cached_vectors_equal_the_inner_vectors_for_any_texts(
    shared_cache: CachedEmbedder, texts: list[str]
) -> None:
    expected = CountingEmbedder().embed(texts)
    assert shared_cache.embed(texts).tobytes() == expected.tobytes()
    assert shared_cache.embed(texts).tobytes() == expected.tobytes()


def test_a_text_with_a_lone_surrogate_is_cached_under_its_own_key(
    cache: CachedEmbedder, inner: CountingEmbedder
) -> None:
    texts = ["half a pair \ud800", "half a pair \udc00"]
    first = cache.embed(texts)
    assert cache.embed(texts).tobytes() == first.tobytes()
    assert inner.calls == [texts]


def test_a_cache_file_another_connection_is_writing_opens_once_it_commits(tmp_path: Path) -> None:
    # A file in rollback-journal mode with a write open elsewhere (as a file another process
    # is creating is, for a moment): SQLite refuses the switch to WAL at once, without its busy
    # wait, and the cache tries again until the writer commits.
    import threading

    path = tmp_path / "cache.sqlite"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE other (v INTEGER)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO other VALUES (1)")
    done = threading.Timer(0.3, other.execute, ("COMMIT",))
    done.start()
    try:
        inner = CountingEmbedder()
        with CachedEmbedder(inner, path) as cache:
            first = cache.embed(["aspirin"])
            assert np.array_equal(cache.embed(["aspirin"]), first)
            assert inner.calls == [["aspirin"]]
    finally:
        done.join()
        other.close()
