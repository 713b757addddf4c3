"""A full disk, unprivileged: SQLite's ``PRAGMA max_page_count`` makes writes fail with
SQLITE_FULL exactly as a full disk does, and the vector sidecar's file writes fail with
``OSError(ENOSPC)``. A failed write raises a clear :class:`StoreError`, loses nothing committed,
shows nothing half-written, and succeeds once there is room again."""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import StoreError
from spanproof.providers.embeddings.cache import CachedEmbedder
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.search import search
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.store.sqlite import matrix as matrix_module
from spanproof.testing.fakes import FakeEmbedder

SMALL = b"Walking study\n\nDaily walking lowered systolic blood pressure by 5 mmHg in 120 adults.\n"


def _big(n: int = 1500) -> bytes:
    """About 200 kB of plain text: many chunks, sections of numbers, FTS rows."""
    lines = [
        f"In cohort {i}, treatment {i % 7} lowered marker {i % 13} by {i % 50} mg/dL over "
        f"{i % 9 + 1} weeks."
        for i in range(n)
    ]
    return ("Large study\n\n" + "\n\n".join(lines) + "\n").encode()


def _doc(raw: bytes) -> FetchedDocument:
    return FetchedDocument(connector="upload", external_ids={}, media_type="text/plain", raw=raw)


def _limit(conn: sqlite3.Connection, headroom: int | None) -> None:
    """Cap the file at its current size plus ``headroom`` pages (None: lift the cap)."""
    if headroom is None:
        conn.execute("PRAGMA max_page_count = 1073741823")
        return
    (pages,) = conn.execute("PRAGMA page_count").fetchone()
    conn.execute(f"PRAGMA max_page_count = {pages + headroom}")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(tmp_path / "store.sqlite") as s:
        ingest(s, _doc(SMALL), "upload:small", build_parser())
        embed_pending(s, FakeEmbedder())
        yield s


def _assert_nothing_half_written(store: SqliteEvidenceStore) -> None:
    for source in store.list_sources(limit=1000):
        for version in store.versions(source.id):
            assert version.state in ("pending", "parsed"), version
            if version.state == "pending":  # a version is pending or whole, never between
                assert store.sections(source.id, version.number) == []
    assert store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _assert_small_intact(store: SqliteEvidenceStore) -> None:
    (version,) = store.versions("upload:small")
    assert version.state == "parsed"
    assert any("5 mmHg" in s.text for s in store.sections("upload:small", 1))
    hits = search(store, "walking blood pressure", embedder=FakeEmbedder(), mode="hybrid")
    assert hits and hits[0].chunk.source_id == "upload:small"


# Headroom 0: the blob itself does not fit. 80 pages: the blob and version fit, the sections,
# chunks and index rows of the second transaction do not.
@pytest.mark.parametrize("headroom", [0, 80], ids=["blob-fails", "chunks-fail"])
def test_an_ingest_on_a_full_disk_raises_store_error_and_succeeds_once_there_is_room(
    store: SqliteEvidenceStore, headroom: int
) -> None:
    parse = build_parser()
    _limit(store._db, headroom)
    with pytest.raises(StoreError, match="full") as caught:
        ingest(store, _doc(_big()), "upload:big", parse)
    assert caught.value.retryable is False
    _assert_small_intact(store)
    _assert_nothing_half_written(store)
    assert store.chunks_missing_embedding(FakeEmbedder().model_id, 10) == []

    _limit(store._db, None)
    outcome = ingest(store, _doc(_big()), "upload:big", parse)
    assert (outcome.status, outcome.version) == ("new", 1)
    assert outcome.chunks > 10
    assert [v.state for v in store.versions("upload:big")] == ["parsed"]
    _assert_small_intact(store)
    _assert_nothing_half_written(store)


def test_embedding_on_a_full_disk_stores_no_vector_of_the_failed_batch(
    store: SqliteEvidenceStore,
) -> None:
    embedder = FakeEmbedder()
    ingest(store, _doc(_big()), "upload:big", build_parser())
    pending = len(store.chunks_missing_embedding(embedder.model_id, 100_000))
    assert pending > 10
    _limit(store._db, 0)
    with pytest.raises(StoreError, match="full"):
        embed_pending(store, embedder, batch_size=100_000)
    assert len(store.chunks_missing_embedding(embedder.model_id, 100_000)) == pending
    _assert_small_intact(store)

    _limit(store._db, None)
    assert embed_pending(store, embedder) == pending
    assert store.chunks_missing_embedding(embedder.model_id, 10) == []


def test_a_full_embedding_cache_raises_store_error_keeps_its_vectors_and_stores_nothing_half_way(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    with CachedEmbedder(FakeEmbedder(), tmp_path / "cache" / "embeddings.sqlite") as cache:
        before = cache.embed(["walking", "blood pressure"])
        ingest(store, _doc(_big()), "upload:big", build_parser())
        pending = len(store.chunks_missing_embedding(cache.model_id, 100_000))
        _limit(cache._db, 0)
        with pytest.raises(StoreError, match="full"):
            embed_pending(store, cache, batch_size=100_000)
        # Neither the cache nor the store holds any vector of the failed batch.
        assert len(cache) == 2
        assert len(store.chunks_missing_embedding(cache.model_id, 100_000)) == pending
        assert np.array_equal(cache.embed(["walking", "blood pressure"]), before)
        assert cache._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

        _limit(cache._db, None)
        assert embed_pending(store, cache) == pending
        assert len(cache) == 2 + pending
    _assert_small_intact(store)


@pytest.mark.parametrize("failing_write", [1, 2], ids=["seq-file", "vector-file"])
def test_a_vector_sidecar_write_failing_with_enospc_leaves_search_and_the_store_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing_write: int
) -> None:
    db = tmp_path / "store.sqlite"
    embedder = FakeEmbedder()
    with SqliteEvidenceStore(db) as s:
        ingest(s, _doc(SMALL), "upload:small", build_parser())
        ingest(s, _doc(_big(200)), "upload:big", build_parser())
        embed_pending(s, embedder)
    with SqliteEvidenceStore(db, vector_sidecar_min=10**9) as s:  # no sidecar: the reference
        expected = [(h.chunk.id, h.score) for h in search(s, "cohort 7 marker", embedder=embedder,
                                                          mode="vector")]  # fmt: skip
    assert expected

    real_save, calls = np.save, {"n": 0}

    def save_until_full(file: Any, array: Any, **kwargs: Any) -> None:
        calls["n"] += 1
        if calls["n"] == failing_write:
            Path(file).write_bytes(b"\x93NUMPY half")  # the disk filled up mid-file
            raise OSError(errno.ENOSPC, "No space left on device")
        real_save(file, array, **kwargs)

    monkeypatch.setattr(matrix_module.np, "save", save_until_full)
    with SqliteEvidenceStore(db, vector_sidecar_min=1) as s:
        got = [(h.chunk.id, h.score) for h in search(s, "cohort 7 marker", embedder=embedder,
                                                     mode="vector")]  # fmt: skip
        assert got == expected
        _assert_nothing_half_written(s)
    assert calls["n"] == failing_write
    assert not list(Path(f"{db}.vectors").glob(".*.tmp.npy"))  # no half file left on the disk
    monkeypatch.undo()

    # A later process finds no usable sidecar (the write never completed) and reads SQLite.
    with SqliteEvidenceStore(db, vector_sidecar_min=1) as s:
        got = [(h.chunk.id, h.score) for h in search(s, "cohort 7 marker", embedder=embedder,
                                                     mode="vector")]  # fmt: skip
        assert got == expected
    # ... and with room again it writes a complete sidecar that the next process memory-maps.
    with SqliteEvidenceStore(db, vector_sidecar_min=1) as s:
        got = [(h.chunk.id, h.score) for h in search(s, "cohort 7 marker", embedder=embedder,
                                                     mode="vector")]  # fmt: skip
        assert got == expected
    assert len(list(Path(f"{db}.vectors").glob("*.npy"))) == 2  # a complete pair, no temp file
