"""CSV → one section per data row.

The first record is the header. The delimiter is sniffed among ``,``, tab, ``;`` and ``|``: the
one that splits the first records into the most columns, consistently, wins (ties in that order;
``,`` when none splits). Quoting follows RFC 4180 (``"a, b"`` is one field; ``""`` is a quote).
A UTF-8 byte-order mark is dropped, so Excel exports read cleanly.

Sections: key ``row-<n>`` (``n`` = 1-based data row, blank lines not counted) or, with
``id_column``, ``row-<id>`` (the id with characters other than letters, digits, ``.``, ``_`` and
``-`` replaced by ``-``; ids must be unique and non-empty) and the id as the section title. Text:
with one text column, the value alone; with several, ``column: value; column: value`` over the
non-empty values; a column whose header is blank is named ``column <n>`` (its position).
``text_columns`` defaults to every column except ``id_column``. Rows with no
text are skipped. A row with more fields than the header, a duplicated header name, an unknown
column name, or a quoted field never closed (which would swallow every later row) →
``malformed``; a field over the ``csv`` module's 131,072-character limit
→ ``too_large``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers._common import Sections, decode_text

FORMAT = "csv"
_DELIMITERS = (",", "\t", ";", "|")
_SNIFF_CHARS = 64 * 1024
_SNIFF_RECORDS = 20
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def parse(
    raw: bytes,
    text_columns: Sequence[str] | None = None,
    id_column: str | None = None,
) -> ParsedDocument:
    """Parse a CSV file with a header row.

    Args:
        raw: the file's bytes.
        text_columns: the columns whose values make each row's text (default: all but the id).
        id_column: a column of unique row ids used in section keys (default: row numbers).

    Raises:
        ParseFailure: ``too_large``, ``invalid_utf8``, ``malformed`` or ``no_text``.
    """
    text = decode_text(raw)
    delimiter = sniff_delimiter(text)
    records = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    try:
        header = [name.strip() for name in next(records, [])]
        if any(header):  # a column without a name keeps its values under its position
            header = [name or f"column {i}" for i, name in enumerate(header, start=1)]
        columns = _columns(header, text_columns, id_column)
        sections = Sections(keep_empty=False)
        rows = _read_rows(records, header, columns, id_column, sections)
    except csv.Error as exc:
        reason = "too_large" if "field larger" in str(exc) else "malformed"
        raise ParseFailure(reason, f"CSV line {records.line_num}: {exc}") from exc
    opened = _unclosed_quote(text, delimiter)
    if opened is not None:
        raise ParseFailure(
            "malformed",
            f"CSV line {opened}: a quoted field opened there is never closed (every later line "
            "would be read into it)",
        )
    return sections.document(
        title="",
        format=FORMAT,
        metadata={"columns": header, "text_columns": columns, "delimiter": delimiter, "rows": rows},
    )


def _unclosed_quote(text: str, delimiter: str) -> int | None:
    """The line where a quoted field opens that the file never closes, or None.

    The lenient reader takes such a field to the end of the file, so one stray quote would make
    every later row part of one field; a strict reader says "unexpected end of data". Other
    strict complaints (``"a"b``) are not this, and the lenient reading of them stands.
    """
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    last = 0
    try:
        for _ in reader:
            last = reader.line_num
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            return last + 1
    return None


def sniff_delimiter(text: str) -> str:
    """The delimiter that splits the first records into the most columns, consistently."""
    sample = text[:_SNIFF_CHARS]
    if len(text) > _SNIFF_CHARS:  # the last sampled record may be cut short
        sample = sample[: sample.rfind("\n") + 1] or sample
    best, best_columns = ",", 1
    for delimiter in _DELIMITERS:
        reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter, strict=False)
        try:
            widths = [len(r) for _, r in zip(range(_SNIFF_RECORDS), reader, strict=False) if r]
        except csv.Error:
            continue
        if widths and widths[0] > best_columns and all(w == widths[0] for w in widths):
            best, best_columns = delimiter, widths[0]
    return best


def _columns(
    header: list[str], text_columns: Sequence[str] | None, id_column: str | None
) -> list[str]:
    if not any(header):
        raise ParseFailure("malformed", "the CSV has no header row")
    duplicates = sorted({name for name in header if header.count(name) > 1})
    if duplicates:
        raise ParseFailure("malformed", f"duplicate column names {duplicates}")
    wanted = [id_column] if id_column is not None else []
    wanted += list(text_columns) if text_columns is not None else []
    missing = [name for name in wanted if name not in header]
    if missing:
        raise ParseFailure("malformed", f"no column named {missing}; the columns are {header}")
    if text_columns is not None:
        return list(text_columns)
    return [name for name in header if name and name != id_column]


def _read_rows(
    records: Iterator[list[str]],
    header: list[str],
    columns: list[str],
    id_column: str | None,
    sections: Sections,
) -> int:
    position = {name: i for i, name in enumerate(header)}
    seen: set[str] = set()
    number = 0
    for record in records:
        if not any(field.strip() for field in record):
            continue
        number += 1
        if len(record) > len(header):
            raise ParseFailure(
                "malformed",
                f"data row {number} has {len(record)} fields; the header has {len(header)}",
            )
        values = {name: record[i] if i < len(record) else "" for name, i in position.items()}
        texts = [(name, values[name].strip()) for name in columns if values[name].strip()]
        if len(columns) == 1:
            text = texts[0][1] if texts else ""
        else:
            text = "; ".join(f"{name}: {value}" for name, value in texts)
        key, title = f"row-{number}", ""
        if id_column is not None:
            key, title = _row_key(values[id_column], number, seen), values[id_column]
        sections.add(key, title, text)
    return number


def _row_key(value: str, number: int, seen: set[str]) -> str:
    safe = _ID_UNSAFE.sub("-", value.strip()).strip("-")[:64]
    if not safe:
        raise ParseFailure("malformed", f"data row {number} has an empty id")
    key = f"row-{safe}"
    if key in seen:
        raise ParseFailure(
            "malformed", f"data row {number}: the id {value.strip()!r} is not unique as a key"
        )
    seen.add(key)
    return key
