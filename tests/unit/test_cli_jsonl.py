"""Reading JSON Lines input files (`verify --evidence/--claims/--batch`, `check`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spanproof.cli.check_commands import read_cases
from spanproof.cli.jsonl import iter_lines, read_jsonl
from spanproof.core.errors import InvalidInputError

#: Characters ``str.splitlines`` splits at that a JSON string may hold unescaped.
SEPARATORS = ["\u2028", "\u2029", "\x85"]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_line_separator_inside_a_json_string_does_not_split_the_line(
    tmp_path: Path, separator: str
) -> None:
    # json.dumps(..., ensure_ascii=False) writes U+2028, U+2029 and U+0085 as they are.
    rows = [
        {"id": "S1", "text": f"Refunds take 5 days.{separator}Exchanges take 3 days."},
        {"id": "S2", "text": "Sale items can be returned."},
    ]
    path = tmp_path / "evidence.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    assert read_jsonl(path, "evidence") == rows


def test_check_reads_a_context_holding_a_line_separator_and_numbers_lines_as_an_editor(
    tmp_path: Path,
) -> None:
    first = {"id": "a", "answer": "Refunds take 5 days.", "contexts": ["Refunds\u2028take 5 days."]}
    second = {"id": "b", "answer": "Refunds take 5 days.", "contexts": ["Refunds take 5 days."]}
    path = tmp_path / "answers.jsonl"
    path.write_text(
        json.dumps(first, ensure_ascii=False) + "\r\n" + json.dumps(second) + "\n",
        encoding="utf-8",
    )
    cases = read_cases(path)
    assert [(c.id, c.line) for c in cases] == [("a", 1), ("b", 2)]
    assert cases[0].contexts[0].text == "Refunds\u2028take 5 days."


def test_lines_end_at_lf_crlf_or_cr_and_blank_lines_keep_their_numbers() -> None:
    assert list(iter_lines('{"a": 1}\r\n\n  \r{"b": "x\u2028y"}\n')) == [
        (1, '{"a": 1}'),
        (4, '{"b": "x\u2028y"}'),
    ]


def test_a_lone_surrogate_escape_is_refused_with_its_line_and_a_pair_is_read(
    tmp_path: Path,
) -> None:
    # "\ud800" is valid JSON but no character; it reached the model's tokenizer, whose
    # TypeError ended the run with a traceback and exit 1 (a CI gate's failure status).
    path = tmp_path / "evidence.jsonl"
    path.write_text(
        '{"id": "S1", "text": "Refunds \\ud83d\\ude00 take 5 days."}\n'
        '{"id": "S2", "text": "Refunds take \\ud800 5 days."}\n',
        encoding="utf-8",
    )
    with pytest.raises(InvalidInputError, match=r"evidence.jsonl:2: holds a lone UTF-16 surro"):
        read_jsonl(path, "evidence")
    path.write_text('{"id": "S1", "text": "Refunds \\ud83d\\ude00 take 5 days."}\n', "utf-8")
    assert read_jsonl(path, "evidence") == [{"id": "S1", "text": "Refunds \U0001f600 take 5 days."}]
