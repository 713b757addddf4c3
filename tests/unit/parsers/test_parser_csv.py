"""CSV: one section per row, chosen text columns, ids, BOM, quoting and sniffed delimiters."""

from __future__ import annotations

from pathlib import Path

import pytest

from spanproof.core.documents import ParseFailure
from spanproof.ingest.parsers import csv

RAW = (Path(__file__).parents[2] / "fixtures" / "parsers" / "studies.csv").read_bytes()


def test_fixture_starts_with_a_bom() -> None:
    assert RAW.startswith(b"\xef\xbb\xbf")


def test_all_columns_by_default_as_column_value_pairs() -> None:
    doc = csv.parse(RAW)
    assert doc.format == "csv"
    assert doc.metadata == {
        "columns": ["id", "title", "abstract", "year"],
        "text_columns": ["id", "title", "abstract", "year"],
        "delimiter": ",",
        "rows": 3,
    }
    assert [(s.key, s.text) for s in doc.sections] == [
        (
            "row-1",
            "id: S-001; title: Zinc, copper and wound healing; "
            "abstract: Zinc lowered healing time by 2 days, not 3.; year: 2019",
        ),
        (
            "row-2",
            'id: S-002; title: Caffeine and sleep; abstract: He said "no effect" at 100 mg.; '
            "year: 2021",
        ),
        ("row-3", "id: S-003; title: Empty abstract; year: 2020"),
    ]


def test_one_text_column_gives_the_bare_value_and_id_column_names_the_key() -> None:
    doc = csv.parse(RAW, text_columns=["abstract"], id_column="id")
    assert [(s.key, s.title, s.text) for s in doc.sections] == [
        ("row-S-001", "S-001", "Zinc lowered healing time by 2 days, not 3."),
        ("row-S-002", "S-002", 'He said "no effect" at 100 mg.'),
    ]


@pytest.mark.parametrize("delimiter", ["\t", ";", "|"])
def test_delimiter_is_sniffed(delimiter: str) -> None:
    raw = delimiter.join(["name", "note"]) + "\n" + delimiter.join(["a", "x, y and z"]) + "\n"
    doc = csv.parse(raw.encode(), text_columns=["note"])
    assert doc.metadata["delimiter"] == delimiter
    assert doc.sections[0].text == "x, y and z"


@pytest.mark.parametrize(
    ("raw", "kwargs", "reason"),
    [
        (b"a,b\n1,2\n", {"text_columns": ["c"]}, "malformed"),
        (b"a,a\n1,2\n", {}, "malformed"),
        (b"id,t\nx,1\nx,2\n", {"id_column": "id"}, "malformed"),
        (b"id,t\n,1\n", {"id_column": "id"}, "malformed"),
        (b"a,b\n1,2,3\n", {}, "malformed"),
        (b"a,b\n" + b"x" * 200_000 + b",1\n", {}, "too_large"),
        (b"a,b\n,\n", {}, "no_text"),
    ],
    ids=["unknown-column", "duplicate-header", "duplicate-id", "empty-id", "ragged", "huge", "no"],
)
def test_bad_csv_fails_with_its_reason(raw: bytes, kwargs: dict[str, object], reason: str) -> None:
    with pytest.raises(ParseFailure) as err:
        csv.parse(raw, **kwargs)  # type: ignore[arg-type]
    assert err.value.reason == reason


def test_a_quoted_field_never_closed_fails_naming_its_line_instead_of_swallowing_the_rest() -> None:
    raw = (
        b'id,text\n1,Aspirin lowered the risk\n2,"Walking lowered blood pressure\n3,Other\n4,More\n'
    )
    with pytest.raises(ParseFailure) as err:
        csv.parse(raw)
    assert err.value.reason == "malformed"
    assert "CSV line 3" in str(err.value) and "never closed" in str(err.value)


@pytest.mark.parametrize(
    "raw",
    [
        b'id,text\n1,"a field\nover two lines"\n2,next\n',  # closed on a later line
        b'id,text\n1,a 5" screen\n',  # a quote inside an unquoted field
        b'id,text\n1,"quoted"then more\n',  # lenient: read as it always was
    ],
    ids=["multi-line", "inch-mark", "text-after-quote"],
)
def test_quotes_that_close_or_open_no_field_read_as_before(raw: bytes) -> None:
    assert csv.parse(raw).sections


def test_a_column_without_a_name_keeps_its_values_under_its_position() -> None:
    doc = csv.parse(b"id,,note\n1,Aspirin lowered the risk,first\n")
    assert doc.metadata["columns"] == ["id", "column 2", "note"]
    assert doc.sections[0].text == "id: 1; column 2: Aspirin lowered the risk; note: first"
