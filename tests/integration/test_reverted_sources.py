"""A source whose content changes A → B → A (a file edited, then reverted) on both store dialects:
the store serves A again, through the version that already holds A's bytes, and what was built
on B still resolves and replays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pg_fixtures import dialect_store
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.store import EvidenceStore, SearchFilter
from spanproof.services.answering import Engine
from spanproof.services.erasure import erase
from spanproof.services.generation import ExtractiveGenerator
from spanproof.services.ingestion import IngestOutcome, embed_pending, ingest
from spanproof.services.replay import replay
from spanproof.services.search import search
from spanproof.services.spans import SpanAddress, resolve
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import V45

SOURCE = "file:notes.txt"
A = b"""Metformin and liver fat

Metformin at 250 mg/kg reduced hepatic triglyceride content in mice compared with vehicle.
"""
B = b"""Exercise and insulin

Exercise increased insulin sensitivity in obese mice compared with sedentary controls.
"""
ELIGIBLE = SearchFilter(eligible_only=True)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EvidenceStore]:
    with dialect_store(request.param, tmp_path) as s:
        yield s


def _ingest(store: EvidenceStore, raw: bytes) -> IngestOutcome:
    fetched = FetchedDocument("file", {}, "text/plain", raw)
    return ingest(store, fetched, SOURCE, build_parser())


def _engine(store: EvidenceStore, embedder: FakeEmbedder) -> Engine:
    return Engine(
        store=store,
        traces=store,  # type: ignore[arg-type]
        embedder=embedder,
        decomposer=RuleBasedDecomposer(),
        generator=ExtractiveGenerator(embedder),
        score_model=V45,
    )


def _versions_found(store: EvidenceStore, query: str, embedder: FakeEmbedder) -> set[int]:
    """The versions of SOURCE an eligible hybrid search for ``query`` finds."""
    hits = search(store, query, embedder=embedder, flt=ELIGIBLE)
    return {h.chunk.version for h in hits if h.chunk.source_id == SOURCE}


def test_a_reverted_file_serves_its_earlier_content_again(store: EvidenceStore) -> None:
    embedder = FakeEmbedder()
    assert _ingest(store, A).status == "new"
    assert _ingest(store, B) == IngestOutcome(SOURCE, 2, "new", sections=2, chunks=2)
    embed_pending(store, embedder)
    assert _versions_found(store, "insulin sensitivity exercise", embedder) == {2}
    reverted = _ingest(store, A)
    assert (reverted.status, reverted.version) == ("reverted", 1)
    # no new version: the bytes are version 1's, which is the source's content again
    assert [v.number for v in store.versions(SOURCE)] == [1, 2]
    current = store.current_version(SOURCE)
    assert current is not None and current.number == 1
    assert store.get_source(SOURCE).title == "Metformin and liver fat"  # type: ignore[union-attr]
    assert embed_pending(store, embedder) == 0  # version 1's vectors serve again
    for query in ("hepatic triglyceride metformin", "insulin sensitivity exercise"):
        assert _versions_found(store, query, embedder) == {1}  # never version 2's chunks
    for flt in (ELIGIBLE, SearchFilter(eligible_only=True, source_ids=(SOURCE,))):
        assert {h.chunk.version for h in store.keyword_search("insulin", 10, flt)} == set()
        assert {h.chunk.version for h in store.keyword_search("metformin", 10, flt)} == {1}
    # the same bytes once more change nothing
    assert _ingest(store, A) == IngestOutcome(SOURCE, 1, "duplicate")
    # and B again is version 2 again
    assert (_ingest(store, B).status, store.current_version(SOURCE)) == (
        "reverted",
        store.versions(SOURCE)[1],
    )


def test_what_was_built_on_the_replaced_content_still_resolves_and_replays(
    store: EvidenceStore,
) -> None:
    embedder = FakeEmbedder()
    _ingest(store, A)
    _ingest(store, B)
    embed_pending(store, embedder)
    answer = _engine(store, embedder).ask("What did exercise do to insulin sensitivity in mice?")
    assert answer.trace_id and "insulin sensitivity" in (answer.answer or "")
    quote = "Exercise increased insulin sensitivity"
    section = next(s for s in store.sections(SOURCE, 2) if quote in s.text)
    start = section.text.index(quote)
    span = SpanAddress(SOURCE, 2, section.key, start, start + len(quote), quote)
    assert resolve(store, span).ok
    assert _ingest(store, A).status == "reverted"
    assert resolve(store, span).ok  # version 2 is history, never rewritten
    trace = store.get_trace(answer.trace_id)  # type: ignore[attr-defined]
    assert replay(trace).ok
    after = _engine(store, embedder).ask("What did metformin do to hepatic triglyceride content?")
    assert "Metformin at 250 mg/kg" in (after.answer or "")
    assert "insulin" not in (after.answer or "")


def test_an_erasure_of_the_earlier_version_holds_when_its_content_comes_back(
    store: EvidenceStore,
) -> None:
    secret = "Metformin at 250 mg/kg"
    _ingest(store, A)
    section = next(s for s in store.sections(SOURCE, 1) if secret in s.text)
    start = section.text.index(secret)
    erase(store, SOURCE, 1, section.key, start, start + len(secret), "GDPR #1")
    _ingest(store, B)
    assert _ingest(store, A).status == "reverted"
    served = store.sections(SOURCE, store.current_version(SOURCE).number)  # type: ignore[union-attr]
    assert all(secret not in s.text for s in served)
    assert store.keyword_search("250", 10, ELIGIBLE) == []
    assert [h.chunk.version for h in store.keyword_search("hepatic", 10, ELIGIBLE)] == [1]


def test_the_api_and_the_web_show_the_version_the_source_was_reverted_to(
    store: EvidenceStore,
) -> None:
    from fastapi.testclient import TestClient

    from spanproof.api.app import create_app
    from spanproof.services.browse import browse_sources
    from spanproof.testing.apps import app_state

    _ingest(store, A)
    _ingest(store, B)
    _ingest(store, A)
    with TestClient(create_app(app_state(store))) as client:
        shown = client.get(f"/v1/sources/{SOURCE}").json()
        assert shown["current_version"]["number"] == 1 and len(shown["versions"]) == 2
        assert any("Metformin at 250 mg/kg" in s["text"] for s in shown["sections"])
        assert not any("insulin" in s["text"] for s in shown["sections"])
        page = client.get(f"/sources/{SOURCE}").text
        assert "v1</a> (current) (shown)" in page and "Metformin at 250 mg/kg" in page
        assert "v2</a> (current)" not in page
        # the API's list gives each source's versions as `spanproof sources --json` does
        (listed,) = client.get("/v1/sources").json()
        assert listed["versions"] == 2
        assert (listed["latest_version"]["number"], listed["current_version"]["number"]) == (2, 1)
    (row,) = browse_sources(store).items
    assert (row.latest.number, row.current.number) == (2, 1)  # type: ignore[union-attr]


def test_the_source_page_says_when_its_current_version_could_not_be_parsed(
    store: EvidenceStore,
) -> None:
    # It said "active" and showed v1's sections as if they were served, while `spanproof
    # source` and /sources said "quarantined".
    from fastapi.testclient import TestClient

    from spanproof.api.app import create_app
    from spanproof.testing.apps import app_state

    broken = FetchedDocument("file", {}, "application/pdf", b"%PDF-1.4 not really a pdf")
    assert _ingest(store, A).status == "new"
    assert ingest(store, broken, SOURCE, build_parser()).status == "quarantined"
    with TestClient(create_app(app_state(store))) as client:
        page = client.get(f"/sources/{SOURCE}").text
    assert ">quarantined: v2" in page and ">active<" not in page
    assert "v1 is shown, but the current version, v2, could not be parsed" in page
