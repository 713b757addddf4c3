"""Format detection: media type first, then the file extension, then the content."""

from __future__ import annotations

from pathlib import Path

import pytest

from spanproof.core.documents import ParseFailure
from spanproof.ingest.parsers import parse_bytes
from spanproof.ingest.parsers.detect import detect_format

FIXTURES = Path(__file__).parents[2] / "fixtures" / "parsers"
SCIFACT_LINE = b'{"doc_id": 7, "title": "T", "abstract": ["One.", "Two."], "structured": false}\n'


@pytest.mark.parametrize(
    ("name", "sniffed"),
    [
        ("jats_article.xml", "jats"),
        ("pubmed_efetch.xml", "pubmed"),
        ("page.html", "html"),
        ("notes.md", "markdown"),
        ("letter.txt", "text"),
        ("studies.csv", "text"),  # CSV is never sniffed: any text could be one-column CSV
    ],
)
def test_fixtures_are_sniffed_without_a_hint(name: str, sniffed: str) -> None:
    assert detect_format((FIXTURES / name).read_bytes()) == sniffed


def test_extension_decides_csv_and_xml_is_chosen_by_its_root() -> None:
    assert detect_format((FIXTURES / "studies.csv").read_bytes(), filename="x/studies.CSV") == "csv"
    raw = (FIXTURES / "pubmed_efetch.xml").read_bytes()
    assert detect_format(raw, filename="efetch.xml") == "pubmed"
    assert detect_format(raw, media_type="application/xml; charset=utf-8") == "pubmed"


def test_media_type_wins_over_content_and_name() -> None:
    raw = (FIXTURES / "notes.md").read_bytes()
    assert detect_format(raw, media_type="text/plain", filename="notes.md") == "text"
    assert parse_bytes(raw, media_type="text/plain").format == "text"


def test_a_scifact_line_is_sniffed_and_parsed() -> None:
    doc = parse_bytes(SCIFACT_LINE)
    assert (doc.format, doc.external_ids, doc.sections[0].text) == (
        "scifact",
        {"scifact": "7"},
        "One. Two.",
    )


@pytest.mark.parametrize(
    ("raw", "media_type", "filename", "expected"),
    [
        (b"%PDF-1.7\n...", None, None, "unknown_format"),
        (b"PK\x03\x04\x14\x00", None, None, "unknown_format"),
        (b"anything", "application/pdf", None, "unknown_format"),
        (b"anything", None, "paper.docx", "unknown_format"),
        (b"<rdf:RDF><x/></rdf:RDF>", None, None, "unknown_format"),
        (b"<feed><entry/></feed>", "application/xml", None, "unknown_format"),
        (b'{"id": 1, "text": "x"}', None, None, "unknown_format"),
        (b"\x01\x02\x03\x04 binary \x05\x06", None, None, "unknown_format"),
        (b"ab\x00cd", None, None, "invalid_utf8"),
        (b"caf\xe9 au lait", None, None, "invalid_utf8"),
        (b"caf\xe9 au lait", None, "menu.txt", "invalid_utf8"),
    ],
    ids=[
        "pdf",
        "zip",
        "pdf-type",
        "docx-name",
        "other-xml",
        "other-xml-typed",
        "other-json",
        "controls",
        "nul",
        "latin1",
        "latin1-named",
    ],
)
def test_unparseable_bytes_fail_with_a_reason(
    raw: bytes, media_type: str | None, filename: str | None, expected: str
) -> None:
    with pytest.raises(ParseFailure) as err:
        parse_bytes(raw, media_type=media_type, filename=filename)
    assert err.value.reason == expected


def test_text_that_merely_starts_with_a_less_than_sign_is_text() -> None:
    assert parse_bytes(b"<3 this result\n").sections[0].text == "<3 this result"
