"""Durable workflows survive kill -9: a worker killed mid-ingest, mid-verification and mid-walk
resumes on restart (same executor id) and every effect happens exactly once, on SQLite and on
PostgreSQL (store and system database both)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from spanproof.bootstrap import build_parser, build_store
from spanproof.config import Settings
from spanproof.core.documents import FetchedDocument
from spanproof.core.store import EvidenceStore
from spanproof.services.ingestion import ingest
from spanproof.services.records import extract_records

HERE = Path(__file__).parent
WORKER = HERE / "crash_worker.py"
sys.path.insert(0, str(HERE))
import crash_worker  # noqa: E402

from pg_fixtures import pg_url  # noqa: E402
from process_kit import run_child, text_corpus  # noqa: E402

RESULTS_TEXT = """Drug {i} and liver fat in mice

Methods

Male mice were fed a high-fat diet for {w} weeks.

Results

Metformin at {d} mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Treatment with metformin did not change body weight in mice (p = 0.4).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(store URL, system database URL) on each backend."""
    if request.param == "sqlite":
        store = tmp_path / "store.sqlite"
        yield str(store), f"sqlite:///{tmp_path / 'store.dbos.sqlite'}"
        return
    from pg_fixtures import fresh_database

    with fresh_database() as dsn:
        url = pg_url(dsn)
        yield url, url


def run_worker(
    mode: str, urls: tuple[str, str], corpus: Path, kill_after: str | None = None, count: int = 1
) -> None:
    """Run the crash worker; with ``kill_after``, kill -9 it at the ``count``-th such marker."""
    args = [sys.executable, str(WORKER), mode, urls[0], urls[1], str(corpus)]
    lines = run_child(args, kill_after=kill_after, count=count)
    if kill_after is None:
        assert lines[-1] == "done", lines[-5:]
    else:
        assert "done" not in lines


def open_store(urls: tuple[str, str]) -> EvidenceStore:
    return build_store(Settings(), urls[0])


def test_worker_killed_mid_ingest_resumes_with_every_section_once(
    backend: tuple[str, str], tmp_path: Path
) -> None:
    corpus = text_corpus(tmp_path / "corpus", 60)
    run_worker("ingest", backend, corpus, kill_after="chunks", count=15)
    store = open_store(backend)
    partial = store.stats()
    store.close()
    assert 0 < partial["sources"] <= 60 and partial["chunks"] < 60 * 2
    run_worker("ingest", backend, corpus)

    clean = build_store(Settings(), str(tmp_path / "clean.sqlite"))
    parse = build_parser()
    for source_id, fetched in crash_worker.documents(corpus):
        ingest(clean, fetched, source_id, parse)
    store = open_store(backend)
    try:
        stats, expected = store.stats(), clean.stats()
        for key in ("sources", "versions", "sections", "chunks", "measurements"):
            assert stats.get(key) == expected.get(key), key
        assert stats["embeddings"] == stats["chunks"]
        assert all(len(store.versions(s.id)) == 1 for s in store.list_sources(limit=100))
    finally:
        store.close()
        clean.close()


def seed_records(urls: tuple[str, str], n: int) -> list[str]:
    store = open_store(urls)
    try:
        parse = build_parser()
        ids: list[str] = []
        for i in range(n):
            raw = RESULTS_TEXT.format(i=i, w=i + 4, d=100 + i).encode()
            fetched = FetchedDocument("text", {}, "text/plain", raw, title=f"paper {i}")
            ingest(store, fetched, f"paper-{i}", parse)
            ids.extend(r.id for r in extract_records(store, f"paper-{i}"))
        return ids
    finally:
        store.close()


def test_worker_killed_mid_verification_makes_each_attempt_once(
    backend: tuple[str, str], tmp_path: Path
) -> None:
    ids = seed_records(backend, 6)
    assert len(ids) == 18
    run_worker("verify", backend, tmp_path, kill_after="attempt", count=20)
    store = open_store(backend)
    made = sum(len(store.attempts(r)) for r in ids)  # type: ignore[attr-defined]
    store.close()
    assert 20 <= made < 18 * crash_worker.BUDGET
    run_worker("verify", backend, tmp_path)
    store = open_store(backend)
    try:
        for rid in ids:
            attempts = store.attempts(rid)  # type: ignore[attr-defined]
            assert [a.number for a in attempts] == [1, 2, 3]
            assert [a.outcome for a in attempts] == ["retry", "retry", "review"]
            assert store.get_record(rid).status == "in_review"  # type: ignore[attr-defined]
    finally:
        store.close()


def test_worker_killed_mid_walk_flags_every_dependent_once(
    backend: tuple[str, str], tmp_path: Path
) -> None:
    run_worker("walk", backend, tmp_path, kill_after="walked", count=3)
    store = open_store(backend)
    flags = store.list_flags(changed_ref=crash_worker.CHANGED, limit=1000)  # type: ignore[attr-defined]
    store.close()
    assert 0 < len(flags) < crash_worker.DEPENDENTS
    run_worker("walk", backend, tmp_path)
    store = open_store(backend)
    try:
        flags = store.list_flags(changed_ref=crash_worker.CHANGED, limit=1000)  # type: ignore[attr-defined]
        assert len(flags) == crash_worker.DEPENDENTS
        assert len({f.ref for f in flags}) == crash_worker.DEPENDENTS
        (walk,) = store.list_walks(changed_ref=crash_worker.CHANGED)  # type: ignore[attr-defined]
        assert walk.status == "done" and walk.edges == crash_worker.DEPENDENTS
    finally:
        store.close()


def test_worker_killed_mid_ingest_resumes_a_sources_queue_in_order(
    backend: tuple[str, str], tmp_path: Path
) -> None:
    # A, B, A, B, A of one source, killed inside B's parse: the restart finishes B, then the rest
    run_worker("order", backend, tmp_path, kill_after="chunks", count=2)
    run_worker("order", backend, tmp_path)
    store = open_store(backend)
    try:
        assert store.current_history(crash_worker.ORDER_SOURCE) == [1, 2, 1, 2, 1]
        assert [v.state for v in store.versions(crash_worker.ORDER_SOURCE)] == ["parsed"] * 2
    finally:
        store.close()
