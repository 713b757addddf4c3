"""Keyword search matches the same chunks on SQLite and PostgreSQL (docs/store.md).

Both dialects should index and query the same terms: accents and case folded, a decimal one
term, hyphenated words split, English stop words dropped, Porter2 stems. Ranking (bm25 against
ts_rank) differs by design; which chunks match should not.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pg_fixtures import dialect_store
from spanproof.core.store import EvidenceStore, SearchFilter
from spanproof.testing.store_contract import add_document

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


DIFFERS = pytest.mark.xfail(
    strict=True, reason="FTS5 and the english configuration tokenise differently"
)


@DIFFERS
def test_each_query_matches_the_documents_of_its_folded_terms(store: EvidenceStore) -> None:
    found = {query: _matched(store, query) for query in EXPECTED}
    assert found == EXPECTED


@DIFFERS
def test_the_two_dialects_match_the_same_chunks_for_the_same_query(tmp_path: Path) -> None:
    queries = [*EXPECTED, *DOCUMENTS.values(), "the", "ratio CI", "Europe's trial", "μg/mL"]
    matched: dict[str, dict[str, set[str]]] = {}
    for dialect in ("sqlite", "postgres"):
        with dialect_store(dialect, tmp_path) as s:
            _fill(s)
            matched[dialect] = {query: _matched(s, query) for query in queries}
    assert matched["sqlite"] == matched["postgres"]
