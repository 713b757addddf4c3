"""JATS full text: front matter, structured abstract, nested sections, floats, inline markup."""

from __future__ import annotations

from pathlib import Path

import pytest

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers import jats
from spanproof.ingest.parsers.jats import JatsParser

FIXTURES = Path(__file__).parents[2] / "fixtures" / "parsers"


@pytest.fixture(scope="module")
def article() -> ParsedDocument:
    return jats.parse((FIXTURES / "jats_article.xml").read_bytes())


def texts(doc: ParsedDocument) -> dict[str, str]:
    return {s.key: s.text for s in doc.sections}


def test_front_matter_gives_ids_title_and_metadata(article: ParsedDocument) -> None:
    assert article.format == "jats"
    assert article.external_ids == {
        "pmid": "36812345",
        "pmcid": "PMC9876543",
        "doi": "10.1016/j.jlr.2023.100342",
    }
    assert article.title == (
        "Metformin reduces lipid accumulation in Caenorhabditis elegans through AMPK signalling"
    )
    assert article.metadata == {
        "article_type": "research-article",
        "journal": "Journal of Lipid Research",
        "other_ids": {"pii": "S0022-2275(23)00012-3"},
        "year": 2023,
        "authors": ["Adaeze N. Okafor", "Maja Lindqvist"],
        "keywords": ["metformin", "AMPK", "lipid droplets"],
    }


def test_sections_come_in_document_order_with_stable_keys(article: ParsedDocument) -> None:
    assert [(s.key, s.title) for s in article.sections] == [
        ("abstract", "Abstract"),
        ("abstract-graphical", "Abstract"),
        ("s1", "1 Introduction"),
        ("s2", "2 Materials and methods"),
        ("s2.1", "2.1 Strains"),
        ("s2.2", "2.2 Quantification"),
        ("s3", "3 Results"),
        ("table-1", "Table 1"),
        ("fig-1", "Figure 1"),
        ("s4", "Discussion"),
        ("ack", "Acknowledgements"),
    ]


def test_structured_abstract_is_one_section_of_labelled_parts(article: ParsedDocument) -> None:
    assert texts(article)["abstract"] == (
        "Background: Metformin extends lifespan in C. elegans, but its effect on fat storage is "
        "unclear. Methods: Worms were exposed to 50 mM metformin from the L4 stage and stained "
        "with Oil Red O. Results: Metformin decreased lipid droplet area by 38% (P < 0.01) in "
        "wild-type animals but not in aak-2 mutants. Conclusions: AMPK is required for the "
        "lipid-lowering effect of metformin."
    )


def test_inline_markup_xrefs_and_links_keep_every_character_once(article: ParsedDocument) -> None:
    assert texts(article)["s1"] == (
        "Metformin is the first-line drug for type 2 diabetes 1. In nematodes, the drug alters "
        "folate metabolism of the bacterial diet [2,3]. Strains were obtained from the "
        "Caenorhabditis Genetics Center. Here we ask whether AMPK mediates its effect on fat."
    )


def test_a_heading_with_only_subsections_stays_in_the_outline(article: ParsedDocument) -> None:
    assert texts(article)["s2"] == ""


def test_list_items_follow_their_lead_in(article: ParsedDocument) -> None:
    assert texts(article)["s2.1"] == (
        "The following strains were used: N2 (Bristol), wild type; aak-2(ok524) X; daf-16(mu86) I."
    )


def test_mathml_is_read_once_and_alternatives_are_not_repeated(article: ParsedDocument) -> None:
    text = texts(article)["s2.2"]
    assert text == (
        "Lipid content was expressed as L=A/A0, where A0 is the mean control area. Bacteria were "
        "grown to 10^9 cells/ml. (1) r=1−L An empty formula has only alt text: p < 0.05."
    )
    assert "A_0" not in text  # the TeX alternative is not read as well


def test_floats_leave_the_paragraph_and_become_sections(article: ParsedDocument) -> None:
    sections = texts(article)
    assert sections["s3"] == (
        "Lipid droplet area fell in treated worms (Table 1; Fig. 1). The effect required aak-2. "
        "It was independent of daf-16."
    )
    assert sections["table-1"] == (
        "Lipid droplet area after 48 h. Strain | Control (µm2) | Metformin (µm2); "
        "N2 | 12.4 ± 1.1 | 7.7 ± 0.9; aak-2 | 13.0 ± 1.3 | 12.6 ± 1.2 "
        "Values are mean ± SD, n = 30."
    )
    assert sections["fig-1"] == (
        "Oil Red O staining. Representative N2 worms, control (left) and metformin (right)."
    )


def test_references_and_licence_text_are_not_sections(article: ParsedDocument) -> None:
    everything = " ".join(s.text for s in article.sections)
    assert "Diabetologia" not in everything
    assert "open access" not in everything
    assert texts(article)["ack"] == "We thank the CGC for strains."


def test_parser_object_and_pmc_articleset_wrapper_give_the_same_document() -> None:
    raw = (FIXTURES / "jats_article.xml").read_bytes()
    body = raw.split(b"?>", 1)[1].split(b"\n", 2)[2]  # drop the declaration and doctype
    wrapped = b"<pmc-articleset>" + body + b"</pmc-articleset>"
    assert JatsParser().parse(raw) == jats.parse(wrapped)


def test_another_root_element_is_malformed_jats() -> None:
    with pytest.raises(ParseFailure) as err:
        jats.parse(b"<PubmedArticleSet><PubmedArticle/></PubmedArticleSet>")
    assert err.value.reason == "malformed"


def test_front_matter_without_any_text_is_no_text() -> None:
    raw = (
        b"<article><front><article-meta><title-group><article-title>Only a title"
        b"</article-title></title-group></article-meta></front></article>"
    )
    with pytest.raises(ParseFailure) as err:
        jats.parse(raw)
    assert err.value.reason == "no_text"


def test_body_paragraphs_outside_sections_are_s0_and_keys_stay_unique() -> None:
    raw = (
        b"<article><body><p>Loose <bold>lead</bold> paragraph.</p>"
        b"<sec><title>A</title><p>One.</p></sec><sec><title>B</title><p>Two.</p>"
        b"<table-wrap><table><tr><td>x</td><td>1</td></tr></table></table-wrap></sec>"
        b"</body><back><sec><title>Data availability</title><p>On request.</p></sec>"
        b"<app-group><app><title>Appendix</title><p>Extra.</p></app></app-group></back></article>"
    )
    doc = jats.parse(raw)
    assert [(s.key, s.text) for s in doc.sections] == [
        ("s0", "Loose lead paragraph."),
        ("s1", "One."),
        ("s2", "Two."),
        ("table-1", "x | 1"),
        ("b1", "On request."),
        ("app1", "Extra."),
    ]
