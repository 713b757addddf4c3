"""Keyword search matches the same chunks on SQLite and PostgreSQL (docs/store.md).

Both dialects index and query the terms of one pure function (``spanproof.text.keywords``):
accents and case folded, a decimal one term, hyphenated words split, English stop words dropped,
Porter2 stems. Ranking (bm25 against ts_rank) differs by design; which chunks match does not.
"""

from __future__ import annotations

import sqlite3
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
from spanproof.testing.store_contract import add_document
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
