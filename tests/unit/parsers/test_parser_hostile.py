"""Corrupt and hostile input fails with the right quarantine reason, and nothing else escapes."""

from __future__ import annotations

import codecs
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers import csv, html, jats, markdown, pubmed, scifact, text
from spanproof.ingest.parsers.detect import parse_bytes
from spanproof.text.canonical import canonical_text

FIXTURES = Path(__file__).parents[2] / "fixtures" / "parsers"
JATS = (FIXTURES / "jats_article.xml").read_bytes()
Parser = Callable[[bytes], ParsedDocument]


def reason(parse: Parser, raw: bytes) -> str:
    with pytest.raises(ParseFailure) as err:
        parse(raw)
    return err.value.reason


@pytest.mark.parametrize("parse", [jats.parse, pubmed.parse, parse_bytes])
def test_billion_laughs_is_forbidden_before_any_expansion(parse: Parser) -> None:
    assert reason(parse, (FIXTURES / "billion_laughs.xml").read_bytes()) == "forbidden_xml"


@pytest.mark.parametrize("parse", [pubmed.parse, pubmed.parse_all, parse_bytes])
def test_external_entity_is_forbidden_and_never_read(parse: Parser) -> None:
    with pytest.raises(ParseFailure) as err:
        parse((FIXTURES / "external_entity.xml").read_bytes())
    assert err.value.reason == "forbidden_xml"
    assert "root:" not in str(err.value)


def test_parameter_entity_to_a_remote_dtd_is_forbidden() -> None:
    raw = b'<!DOCTYPE article [<!ENTITY % p SYSTEM "http://example.invalid/x.dtd"> %p;]><article/>'
    assert reason(jats.parse, raw) == "forbidden_xml"


def test_a_doctype_naming_an_external_dtd_is_allowed_but_not_fetched() -> None:
    raw = b'<!DOCTYPE article SYSTEM "http://example.invalid/jats.dtd"><article><body><p>x</p></body></article>'
    assert jats.parse(raw).sections[0].text == "x"


@pytest.mark.parametrize("cut", [100, 1500, len(JATS) // 2, len(JATS) - 20])
def test_truncated_xml_is_corrupt(cut: int) -> None:
    assert reason(jats.parse, JATS[:cut]) == "corrupt_xml"


def test_undefined_entity_is_corrupt() -> None:
    assert reason(jats.parse, b"<article><body><p>&nbsp;</p></body></article>") == "corrupt_xml"


def test_huge_attribute_is_too_large() -> None:
    raw = b'<article id="' + b"a" * (1024 * 1024 + 1) + b'"><body><p>x</p></body></article>'
    assert reason(jats.parse, raw) == "too_large"


def test_deep_nesting_is_too_large() -> None:
    raw = b"<article><body>" + b"<sec>" * 300 + b"<p>x</p>" + b"</sec>" * 300 + b"</body></article>"
    assert reason(jats.parse, raw) == "too_large"


def test_input_over_the_size_limit_is_too_large_for_every_parser() -> None:
    raw = b" " * (50 * 1024 * 1024 + 1)
    for parse in (jats.parse, pubmed.parse, text.parse, markdown.parse, html.parse, csv.parse):
        assert reason(parse, raw) == "too_large"
    assert reason(scifact.parse, raw) == "too_large"
    assert reason(parse_bytes, raw) == "too_large"


def test_too_many_headings_is_too_large() -> None:
    assert reason(markdown.parse, b"#\n" * 250_001) == "too_large"


def test_random_binary_bytes_are_not_text() -> None:
    raw = random.Random(7).randbytes(4096)
    assert reason(parse_bytes, raw) in ("invalid_utf8", "unknown_format")
    for parse in (jats.parse, text.parse, markdown.parse, html.parse, csv.parse):
        assert reason(parse, raw) == "invalid_utf8"


def test_utf16_without_a_bom_is_invalid_utf8_and_with_a_bom_is_read() -> None:
    body = "<article><body><p>Caf\u00e9 au lait</p></body></article>"
    assert reason(jats.parse, body.encode("utf-16-le")) == "invalid_utf8"
    assert reason(text.parse, "plain words".encode("utf-16-be")) == "invalid_utf8"
    with_bom = codecs.BOM_UTF16_LE + body.encode("utf-16-le")
    assert jats.parse(with_bom).sections[0].text == "Café au lait"


def test_declared_encodings_are_honoured_and_lies_about_width_are_not() -> None:
    latin = '<?xml version="1.0" encoding="ISO-8859-1"?><article><body><p>Café</p></body></article>'
    assert jats.parse(latin.encode("latin-1")).sections[0].text == "Café"
    wide = b'<?xml version="1.0" encoding="UTF-16"?><article><body><p>x</p></body></article>'
    assert reason(jats.parse, wide) == "invalid_utf8"
    assert reason(jats.parse, b"<article><body><p>caf\xe9</p></body></article>") == "invalid_utf8"


@pytest.mark.parametrize(
    "parse", [jats.parse, pubmed.parse, text.parse, markdown.parse, html.parse, parse_bytes]
)
def test_empty_input_is_refused(parse: Parser) -> None:
    assert reason(parse, b"") in ("no_text", "corrupt_xml")


FRAGMENTS = [
    b"<article>",
    b"</article>",
    b"<body>",
    b"<sec>",
    b"</sec>",
    b"<title>",
    b"<p>",
    b"</p>",
    b"<table-wrap><table><tr><td>",
    b"<alternatives>",
    b"<mml:math>",
    b"&amp;",
    b"&lol;",
    b"<!DOCTYPE a [",
    b"<!ENTITY lol 'x'>",
    b"]>",
    b"<PubmedArticleSet><PubmedArticle><MedlineCitation><Article><Abstract><AbstractText>",
    b"<html><h1>",
    b"<!--",
    b"<script>",
    b"# ",
    b"```",
    b"\n",
    b"\n\n",
    b"|a|b|",
    b"---",
    b'{"doc_id": 1, "abstract": ["',
    b'"]}',
    b"\xff",
    b"\x00",
    b"\xef\xbb\xbf",
    b"text",
]


def check(raw: bytes, media_type: str | None, filename: str | None) -> None:
    try:
        doc = parse_bytes(raw, media_type=media_type, filename=filename)
    except ParseFailure:
        return
    keys = [s.key for s in doc.sections]
    assert len(keys) == len(set(keys))
    assert any(s.text for s in doc.sections)
    for s in doc.sections:
        assert canonical_text(s.text) == s.text
        assert canonical_text(s.title) == s.title


MEDIA = st.sampled_from(
    [None, "application/xml", "application/jats+xml", "application/pubmed+xml", "text/html",
     "text/markdown", "text/plain", "text/csv", "application/x-ndjson", "application/pdf"]
)  # fmt: skip
NAMES = st.sampled_from([None, "a.xml", "a.md", "a.html", "a.csv", "a.txt", "a.jsonl", "a.bin"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.binary(max_size=2048), media_type=MEDIA, filename=NAMES)
def test_arbitrary_bytes_give_a_document_or_a_parse_failure(
    raw: bytes, media_type: str | None, filename: str | None
) -> None:
    check(raw, media_type, filename)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    parts=st.lists(st.sampled_from(FRAGMENTS), max_size=40),
    media_type=MEDIA,
    filename=NAMES,
)
def test_markup_shaped_bytes_give_a_document_or_a_parse_failure(
    parts: list[bytes], media_type: str | None, filename: str | None
) -> None:
    check(b"".join(parts), media_type, filename)


@settings(max_examples=200, deadline=None)
@given(body=st.text(max_size=400), media_type=MEDIA)
def test_arbitrary_text_gives_canonical_sections_or_a_parse_failure(
    body: str, media_type: str | None
) -> None:
    check(body.encode("utf-8", "surrogatepass"), media_type, None)
