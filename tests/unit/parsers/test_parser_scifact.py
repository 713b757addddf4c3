"""SciFact corpus JSONL: one document per line; the shipped corpus parses in full."""

from __future__ import annotations

import json

import pytest

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.evaluation.devdata import data_dir
from spanproof.ingest.parsers import scifact

LINE = json.dumps(
    {
        "doc_id": 4983,
        "title": "Microstructural  development of\tnewborn white matter.",
        "abstract": ["Alterations  of white matter affect development. ", "", "We used DTI."],
        "structured": False,
    }
)


def test_a_line_gives_title_one_abstract_section_and_sentence_spans() -> None:
    doc = scifact.parse_line(LINE)
    assert doc.format == "scifact"
    assert doc.title == "Microstructural development of newborn white matter."
    assert doc.external_ids == {"scifact": "4983"}
    assert [(s.key, s.title) for s in doc.sections] == [("abstract", "Abstract")]
    text = doc.sections[0].text
    assert text == "Alterations of white matter affect development. We used DTI."
    assert doc.metadata["structured"] is False
    spans = doc.metadata["sentence_spans"]
    assert spans[1] is None
    assert [text[a:b] for a, b in (spans[0], spans[2])] == [
        "Alterations of white matter affect development.",
        "We used DTI.",
    ]


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        "[1, 2]",
        '{"title": "x", "abstract": ["a"]}',
        '{"doc_id": 1, "title": "x", "abstract": "a string"}',
        '{"doc_id": true, "title": "x", "abstract": ["a"]}',
        "[" * 100_000,
    ],
    ids=["not-json", "not-object", "no-id", "abstract-not-list", "bool-id", "deep"],
)
def test_bad_lines_are_malformed(line: str) -> None:
    with pytest.raises(ParseFailure) as err:
        scifact.parse_line(line)
    assert err.value.reason == "malformed"


def test_iter_documents_yields_a_failure_per_bad_line_and_keeps_going() -> None:
    raw = f"{LINE}\n\nnot json\n{LINE}\n".encode() + b'{"doc_id": 2, "abstract": ["\xff"]}\n'
    results = list(scifact.iter_documents(raw))
    assert [type(r).__name__ for r in results] == [
        "ParsedDocument",
        "ParseFailure",
        "ParsedDocument",
        "ParseFailure",
    ]
    assert isinstance(results[1], ParseFailure)
    assert results[1].detail.startswith("line 3:")
    assert isinstance(results[3], ParseFailure)
    assert results[3].reason == "invalid_utf8"


def test_parse_takes_exactly_one_line() -> None:
    assert scifact.parse(f"\ufeff{LINE}\n".encode()).external_ids == {"scifact": "4983"}
    with pytest.raises(ParseFailure) as err:
        scifact.parse(f"{LINE}\n{LINE}\n".encode())
    assert err.value.reason == "malformed"


@pytest.mark.data
@pytest.mark.skipif(data_dir() is None, reason="../shared/data not found (SPANPROOF_DATA_DIR)")
def test_the_shipped_scifact_corpus_parses_as_5183_documents() -> None:
    root = data_dir()
    assert root is not None
    results = list(scifact.iter_documents((root / "scifact" / "corpus.jsonl").read_bytes()))
    documents = [r for r in results if isinstance(r, ParsedDocument)]
    assert len(results) == len(documents) == 5183
    assert len({d.external_ids["scifact"] for d in documents}) == 5183
    assert all(None not in d.metadata["sentence_spans"] for d in documents)
