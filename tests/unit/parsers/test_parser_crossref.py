"""Crossref work JSON → title and abstract sections (fixtures shared with the connector tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spanproof.core.documents import ParseFailure
from spanproof.ingest.parsers import parse_bytes
from spanproof.ingest.parsers.crossref import abstract_text

FIXTURES = Path(__file__).parents[2] / "fixtures" / "connectors"
CROSSREF = "application/vnd.crossref+json"


def test_a_work_with_an_abstract_gives_an_abstract_section_without_markup() -> None:
    doc = parse_bytes((FIXTURES / "crossref_work.json").read_bytes(), media_type=CROSSREF)
    assert doc.format == "crossref"
    assert doc.external_ids == {"doi": "10.5555/spanproof.2024.001"}
    assert doc.title.startswith("A structured walking programme")
    (section,) = doc.sections
    assert section.key == "abstract"
    assert section.text.startswith("Results HbA1c fell by 0.8% (95% CI 0.5 to 1.1)")
    assert "<" not in section.text


def test_a_notice_without_abstract_keeps_its_title_as_a_section() -> None:
    doc = parse_bytes(
        (FIXTURES / "crossref_retraction_notice.json").read_bytes(), media_type=CROSSREF
    )
    assert [s.key for s in doc.sections] in (["title"], ["abstract"])
    assert doc.sections[0].text


def test_the_jats_fragment_is_flattened_once() -> None:
    text = abstract_text(
        "<jats:title>Abstract</jats:title><jats:p>A &amp; B<jats:sup>2</jats:sup></jats:p>"
    )
    assert text == "A & B2"


@pytest.mark.parametrize("raw", [b"{", b'{"message": {}}', b"[]"])
def test_not_a_crossref_work_is_malformed(raw: bytes) -> None:
    with pytest.raises(ParseFailure) as info:
        parse_bytes(raw, media_type=CROSSREF)
    assert info.value.reason == "malformed"
