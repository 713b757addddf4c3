"""Fuzzing the text primitives with hostile Unicode: offsets always slice back to their text."""

from __future__ import annotations

import pytest
from fuzz_kit import TEXT_PROPERTIES, Property
from fuzz_run import run_property

from spanproof.core.documents import ParseFailure
from spanproof.ingest.parsers import scifact
from spanproof.text.canonical import canonical_text


@pytest.mark.parametrize("prop", TEXT_PROPERTIES, ids=lambda p: p.name)
def test_text_primitive_holds_its_invariants_on_hostile_unicode(prop: Property) -> None:
    run_property(prop)


def test_canonical_text_is_nfc_when_a_control_sits_before_a_combining_mark() -> None:
    once = canonical_text("e\x00\u0301")
    assert once == "\u00e9"
    assert canonical_text(once) == once


def test_scifact_line_with_a_lone_surrogate_escape_is_quarantined() -> None:
    with pytest.raises(ParseFailure) as failure:
        scifact.parse(b'{"doc_id": 1, "abstract": ["\\ud800 walking"]}')
    assert failure.value.reason == "invalid_utf8"
