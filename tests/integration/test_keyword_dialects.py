"""Keyword search matches and ranks the same chunks on SQLite and PostgreSQL (docs/store.md).

Both dialects index and query the terms of one pure function (``spanproof.text.keywords``):
accents and case folded, a decimal one term, hyphenated words split, English stop words dropped,
Porter2 stems. Both rank by bm25 (FTS5's own; the same formula in SQL over ``keyword_stats`` on
PostgreSQL), so they give the same order and scores.
"""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pg_fixtures import dialect_store, fresh_database
from spanproof.core.store import EvidenceStore, SearchFilter
from spanproof.store.keyword_terms import FTS_TOKENIZER, fts_document, tsquery, tsvector
from spanproof.store.postgres import PostgresEvidenceStore
from spanproof.store.postgres import search as pg_search
from spanproof.testing.store_contract import add_document, chunk_id
from spanproof.text.keywords import terms

ANY = SearchFilter(eligible_only=False)

DOCUMENTS = {
    "accents": "The café served crème brûlée to naïve visitors from São Paulo.",
    "decimal": "The hazard ratio was 1.5 (95% CI 1.2 to 1.9) over ten years.",
    "integer": "Five patients, 5 in all, took 15 mg daily.",
    "stopwords": "To be or not to be: that is the question.",
    "hyphen": "COVID-19 vaccines reduced long-term hospitalisation.",
    "sites": "The trial enrolled 19 sites across Europe.",
    "unicode": "Straße data: Ångström-scale β-catenin at 5 μg/mL in Ärzte's samples.",
    "stems": "The results were fairly consistent, running across studies.",
}

#: query → the documents it must match, on every dialect.
EXPECTED: dict[str, set[str]] = {
    "cafe": {"accents"},
    "CAFÉ": {"accents"},
    "creme brulee": {"accents"},
    "naive": {"accents"},
    "sao paulo": {"accents"},
    "1.5": {"decimal"},
    "1.9": {"decimal"},
    "5": {"integer", "unicode"},
    "15 mg": {"integer"},
    "the question": {"stopwords"},
    "to be or not": set(),
    "covid-19": {"hyphen", "sites"},
    "covid": {"hyphen"},
    "long-term": {"hyphen"},
    "term": {"hyphen"},
    "strasse": {"unicode"},
    "Straße": {"unicode"},
    "angstrom": {"unicode"},
    "µg": {"unicode"},  # the micro sign, where the text has the Greek letter mu
    "β-catenin": {"unicode"},
    "arzte": {"unicode"},
    "fair": {"stems"},
    "runs": {"stems"},
    "study": {"stems"},
}


def _fill(store: EvidenceStore) -> None:
    for name, text in DOCUMENTS.items():
        add_document(store, name, [("abstract", text)])


def _matched(store: EvidenceStore, query: str) -> set[str]:
    return {hit.chunk.source_id for hit in store.keyword_search(query, 50, ANY)}


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EvidenceStore]:
    with dialect_store(request.param, tmp_path) as s:
        _fill(s)
        yield s


def test_each_query_matches_the_documents_of_its_folded_terms(store: EvidenceStore) -> None:
    found = {query: _matched(store, query) for query in EXPECTED}
    assert found == EXPECTED


def test_the_two_dialects_match_the_same_chunks_for_the_same_query(tmp_path: Path) -> None:
    queries = [*EXPECTED, *DOCUMENTS.values(), "the", "ratio CI", "Europe's trial", "μg/mL"]
    matched: dict[str, dict[str, set[str]]] = {}
    for dialect in ("sqlite", "postgres"):
        with dialect_store(dialect, tmp_path) as s:
            _fill(s)
            matched[dialect] = {query: _matched(s, query) for query in queries}
    assert matched["sqlite"] == matched["postgres"]


#: A corpus where how rare a word is matters: "zebrafish" is in one chunk, "cell" in a few,
#: "protein" in more than half (so both dialects first leave it out of a query).
_VOCABULARY = ["zebrafish", "kinase", "mitochondria", "cell", "cell", "signal", "signal", "dose"]
_VOCABULARY += ["protein"] * 6 + ["growth"] * 3 + ["tumour"] * 2 + ["mice", "receptor"]


def _ranking_corpus() -> dict[str, str]:
    rng = random.Random(11)
    texts = {
        "zebrafish": "zebrafish " + " ".join(rng.choices(_VOCABULARY[4:], k=40)),
        "cells": "cell cell cell protein",
    }
    for n in range(38):
        texts[f"doc{n:02d}"] = " ".join(rng.choices(_VOCABULARY[1:], k=rng.randint(3, 30)))
    return texts


RANKING_QUERIES = [
    "zebrafish cell",
    "cell protein",
    "protein",
    "zebrafish cell protein growth",
    "kinase signal dose receptor mice",
    "mitochondria tumour growth protein",
    "signal",
]


def _ranked(store: EvidenceStore, flt: SearchFilter) -> dict[str, list[tuple[str, float]]]:
    return {
        query: [(hit.chunk.source_id, hit.score) for hit in store.keyword_search(query, 5, flt)]
        for query in RANKING_QUERIES
    }


@pytest.mark.parametrize("first_rows", [pg_search.FIRST_ROWS, 0])
def test_the_two_dialects_rank_by_the_same_bm25(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first_rows: int
) -> None:
    # first_rows 0: PostgreSQL starts from the rarest term alone and must widen the match.
    monkeypatch.setattr(pg_search, "FIRST_ROWS", first_rows)
    corpus = _ranking_corpus()
    some = SearchFilter(eligible_only=False, source_ids=sorted(corpus)[::2])
    ranked: dict[str, list[dict[str, list[tuple[str, float]]]]] = {}
    for dialect in ("sqlite", "postgres"):
        with dialect_store(dialect, tmp_path) as s:
            for name, text in corpus.items():
                add_document(s, name, [("abstract", text)])
            ranked[dialect] = [_ranked(s, ANY), _ranked(s, some)]
    assert ranked["postgres"][0]["zebrafish cell"][0][0] == "zebrafish"
    for lite, pg in zip(ranked["sqlite"], ranked["postgres"], strict=True):
        for query in RANKING_QUERIES:
            assert [name for name, _ in pg[query]] == [name for name, _ in lite[query]], query
            assert [score for _, score in pg[query]] == pytest.approx(
                [score for _, score in lite[query]], rel=1e-9
            )


def test_postgres_counts_terms_in_step_with_chunks_and_erasures() -> None:
    """``keyword_stats`` (bm25's document counts) follows inserts and erasures; an erased word
    that no other chunk holds leaves no row behind."""
    with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=1) as store:
        _fill(store)
        text = DOCUMENTS["accents"]
        start = text.index("São Paulo")
        store.add_erasure("accents", 1, "abstract", start, start + 9, reason="gdpr")
        chunks = store.get_chunks([chunk_id(name, 1, "abstract") for name in DOCUMENTS])
        assert "Paulo" not in chunks[0].text
        expected: dict[str, tuple[int, int]] = {"": (len(chunks), 0)}
        lengths = {}
        for chunk in chunks:
            found = Counter(terms(chunk.text))
            lengths[chunk.id] = sum(found.values())
            expected[""] = (expected[""][0], expected[""][1] + lengths[chunk.id])
            for term, n in found.items():
                docs, occurrences = expected.get(term, (0, 0))
                expected[term] = (docs + 1, occurrences + n)
        with psycopg.connect(dsn) as conn:
            stats = {
                term: (docs, occurrences)
                for term, docs, occurrences in conn.execute("SELECT * FROM keyword_stats")
            }
            stored = dict(conn.execute("SELECT id, term_count FROM chunks").fetchall())
        assert stats == expected
        assert "paulo" not in stats
        assert stored == lengths


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    with closing(sqlite3.connect(":memory:")) as conn:
        conn.execute(f'CREATE VIRTUAL TABLE t USING fts5 (terms, tokenize = "{FTS_TOKENIZER}")')
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
        yield conn


@pytest.fixture(scope="module")
def pg() -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
    with fresh_database(migrated=False) as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        yield conn


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_fts5_splits_a_chunks_document_into_exactly_its_terms(
    fts: sqlite3.Connection, text: str
) -> None:
    fts.execute("DELETE FROM t")
    fts.execute("INSERT INTO t (rowid, terms) VALUES (1, ?)", (fts_document(text),))
    tokens = [row[0] for row in fts.execute("SELECT term FROM v ORDER BY offset")]
    assert tokens == terms(text)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_postgres_reads_a_chunks_tsvector_and_a_querys_tsquery_as_its_terms(
    pg: psycopg.Connection[tuple[Any, ...]], text: str
) -> None:
    text = text.replace("\x00", " ")  # the stores refuse or drop NUL before this point
    found = terms(text)
    lexemes, positions = pg.execute(
        "SELECT coalesce(array_agg(lexeme), '{}'), coalesce(sum(cardinality(positions)), 0)"
        " FROM unnest(CAST(%s AS tsvector))",
        (tsvector(text),),
    ).fetchone() or ([], 0)
    assert (sorted(lexemes), positions) == (sorted(set(found)), len(found))
    if found:
        matches = pg.execute(
            "SELECT CAST(%s AS tsvector) @@ CAST(%s AS tsquery)", (tsvector(text), tsquery(found))
        ).fetchone()
        assert matches == (True,)
