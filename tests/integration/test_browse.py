"""Browsing a real SQLite store page by page: totals, filters, the scan cap and trace titles."""

from __future__ import annotations

from pathlib import Path

import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError
from spanproof.core.trace import Trace
from spanproof.services.browse import (
    browse_records,
    browse_sources,
    browse_traces,
    trace_title,
)
from spanproof.services.ingestion import ingest
from spanproof.store.sqlite.store import SqliteEvidenceStore


def _trace(kind: str, question: str = "", draft: str = "", outcome: str = "") -> Trace:
    claims = [{"id": "c1", "text": "Walking lowers blood pressure.", "verdict": "supported"}]
    return Trace(
        kind=kind,
        request={"question": question} if question else {},
        plan=[{"id": "S1", "source_id": "file:a.md", "text": "x"}],
        plan_hash="",
        prompt_hash="",
        models={},
        draft=draft,
        claims=claims,
        verification="verified",
        delivered=None,
        outcome=outcome or "all_supported",
        counts={"supported": 1},
    )


@pytest.fixture
def store(tmp_path: Path) -> SqliteEvidenceStore:
    return SqliteEvidenceStore(tmp_path / "store.sqlite")


def test_trace_pages_count_every_match_and_filter(store: SqliteEvidenceStore) -> None:
    for i in range(7):
        store.append(_trace("generation", question=f"Question {i}?"))
    for _ in range(5):
        store.append(_trace("verification", draft="Walking lowers blood pressure. " * 10))
    page = browse_traces(store, limit=5, offset=5)
    assert (page.total, page.first, page.last) == (12, 6, 10)
    assert page.prev_offset == 0 and page.next_offset == 10
    assert [t.seq for t in page.items] == [7, 6, 5, 4, 3]
    verifications = browse_traces(store, kind="verification", limit=2)
    assert verifications.total == 5 and len(verifications.items) == 2
    assert browse_traces(store, q="question 3", limit=5).total == 1
    assert browse_traces(store, q="FILE:A.MD", limit=5).total == 12  # a source id
    assert browse_traces(store, source_id="file:b.md", limit=5).total == 0
    assert browse_traces(store, outcome="contradicted", limit=5).total == 0
    capped = browse_traces(store, kind="generation", limit=5, scan=4)
    assert capped.capped and capped.total == 0  # the four newest are verifications
    with pytest.raises(InvalidInputError):
        browse_traces(store, limit=0)


def test_a_trace_is_named_by_its_question_its_draft_or_its_claims() -> None:
    assert trace_title(_trace("generation", question=" Why? ")) == "Why?"
    long = " ".join(f"w{i}" for i in range(30))
    assert trace_title(_trace("verification", draft=long)).endswith("w15 …")
    assert trace_title(_trace("verification")) == "Walking lowers blood pressure."


def test_sources_show_quarantined_and_filter(store: SqliteEvidenceStore) -> None:
    parse = build_parser()
    for i in range(3):
        doc = FetchedDocument(
            "file", {"doi": f"10.1/x{i}"}, "text/markdown", f"# T{i}\n\nWalking {i} km.\n".encode()
        )
        ingest(store, doc, f"file:{i}.md", parse)
    ingest(
        store, FetchedDocument("pubmed", {}, "text/markdown", b"\xff\xfe\x00\x00!"), "pm:1", parse
    )
    every = browse_sources(store, limit=2)
    assert every.total == 4 and len(every.items) == 2
    quarantined = browse_sources(store, status="quarantined", limit=10)
    assert [r.source.id for r in quarantined.items] == ["pm:1"]
    assert browse_sources(store, status="active", limit=10).total == 3
    assert browse_sources(store, connector="pubmed", limit=10).total == 1
    assert [r.source.id for r in browse_sources(store, q="10.1/X2", limit=10).items] == [
        "file:2.md"
    ]
    assert browse_records(store, limit=10).total == 0


def test_a_page_past_the_end_says_so_and_links_back_to_the_last_page(
    store: SqliteEvidenceStore,
) -> None:
    from fastapi.testclient import TestClient

    from spanproof.api.app import create_app
    from spanproof.testing.apps import app_state

    for n in range(3):
        store.append(_trace("verification", question=f"Question {n}?"))
    page = browse_traces(store, limit=2, offset=100)
    assert page.items == [] and page.total == 3
    assert page.prev_offset == 2  # the last page, not offset 98
    assert browse_traces(store, limit=2, offset=2).prev_offset == 0
    with TestClient(create_app(app_state(store))) as client:
        html = client.get("/traces", params={"offset": 100, "limit": 2}).text
        assert "No traces here: the list ends at 3" in html
        assert "No traces yet" not in html and "Showing 0–" not in html
        assert "offset=2" in html  # ← Previous goes to the last page
        sources = client.get("/sources", params={"offset": 99999}).text
        assert "No sources yet" in sources  # this store has none at all


def test_a_records_page_past_the_end_counts_the_records_not_the_offset(
    store: SqliteEvidenceStore,
) -> None:
    from spanproof.testing.record_contract import make_record

    for n in range(3):
        store.put_record(make_record(n))
    # The total once read as the offset asked for ("total": 20 of 3 records).
    past = browse_records(store, limit=10, offset=20)
    assert (past.items, past.total, past.capped) == ([], 3, False)
    assert past.prev_offset == 0
    capped = browse_records(store, limit=1, offset=2, scan=1)
    assert len(capped.items) == 1 and capped.total == 3  # a lower bound counts the page shown
