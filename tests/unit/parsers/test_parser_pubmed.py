"""PubMed efetch XML: one document per article, labelled abstract parts, ids and notices."""

from __future__ import annotations

from pathlib import Path

import pytest

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers import pubmed

RAW = (Path(__file__).parents[2] / "fixtures" / "parsers" / "pubmed_efetch.xml").read_bytes()


def test_parse_all_reads_every_article_and_names_the_one_without_text() -> None:
    first, second, third = pubmed.parse_all(RAW)
    assert isinstance(first, ParsedDocument)
    assert isinstance(second, ParsedDocument)
    assert isinstance(third, ParseFailure)
    assert third.reason == "no_text"
    assert "35500777" in third.detail


def test_structured_abstract_keeps_labels_and_inline_markup_text() -> None:
    doc = pubmed.parse_all(RAW)[0]
    assert isinstance(doc, ParsedDocument)
    assert doc.format == "pubmed"
    assert doc.title == "Dietary restriction lowers hepatic triglycerides in aged Mus musculus."
    assert [(s.key, s.title) for s in doc.sections] == [("abstract", "Abstract")]
    assert doc.sections[0].text == (
        "BACKGROUND: Hepatic steatosis increases with age. METHODS: Male C57BL/6J mice aged 20 "
        "months were fed 60% of ad libitum intake for 12 weeks (n = 12 per group). RESULTS: "
        "Restriction lowered liver triglycerides from 48.2 to 21.5 mg/g (P = 0.003) and serum "
        "ALT by 30%; plasma cholesterol was 2.1 × 10^-3 mol/L lower. CONCLUSIONS: Dietary "
        "restriction reverses age-related steatosis in mice."
    )


def test_ids_come_from_the_article_id_list_not_the_references() -> None:
    doc = pubmed.parse_all(RAW)[0]
    assert isinstance(doc, ParsedDocument)
    assert doc.external_ids == {
        "pmid": "37011223",
        "pmcid": "PMC10186612",
        "doi": "10.1111/acel.13801",
    }


def test_metadata_keeps_journal_authors_and_correction_notices_only() -> None:
    doc = pubmed.parse_all(RAW)[0]
    assert isinstance(doc, ParsedDocument)
    assert doc.metadata == {
        "journal": "Aging cell",
        "journal_abbreviation": "Aging Cell",
        "language": "eng",
        "copyright": "© 2023 The Authors. Aging Cell published by John Wiley & Sons Ltd.",
        "year": 2023,
        "authors": ["Hiroshi Tanaka", "Claire Moreau", "Aging Liver Consortium"],
        "publication_types": ["Journal Article", "Research Support, Non-U.S. Gov't"],
        "corrections": [
            {"type": "ErratumIn", "pmid": "37200011", "source": "Aging Cell. 2023 Jul;22(7):e13900"}
        ],
    }
    assert "Wiley" not in doc.sections[0].text


def test_unlabelled_abstract_and_medline_date_year() -> None:
    doc = pubmed.parse_all(RAW)[1]
    assert isinstance(doc, ParsedDocument)
    assert doc.external_ids == {"pmid": "36100042"}
    assert doc.metadata["year"] == 2022
    assert doc.sections[0].text == (
        "Coffee intake was not associated with liver stiffness after adjustment for body mass "
        "index (β = −0.02; 95% CI −0.09 to 0.05)."
    )


def test_parse_refuses_a_set_of_several_articles() -> None:
    with pytest.raises(ParseFailure) as err:
        pubmed.parse(RAW)
    assert err.value.reason == "malformed"
    assert "3 articles" in err.value.detail


def test_split_gives_standalone_one_article_documents() -> None:
    pieces = pubmed.split(RAW)
    assert len(pieces) == 3
    assert pieces == pubmed.split(RAW)  # deterministic, so content hashes are stable
    assert pubmed.parse(pieces[1]) == pubmed.parse_all(RAW)[1]


def test_a_jats_article_is_not_pubmed() -> None:
    with pytest.raises(ParseFailure) as err:
        pubmed.parse(b"<article><body><p>x</p></body></article>")
    assert err.value.reason == "malformed"
