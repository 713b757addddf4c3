"""Fuzzing every parser and ``parse_bytes`` with structured, mutated and hostile input.

Each input is parsed (and the document keeps its guarantees) or refused with a ``ParseFailure``
and its reason; nothing else escapes, nothing hangs (Hypothesis ``deadline`` plus a ``SIGALRM``
guard), and no external entity is ever read. The plain hostile cases are pinned one by one in
``tests/unit/parsers/test_parser_hostile.py``; these are the property-based runs over them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_run import run_property
from parser_kit import (
    MEMORY_FACTOR,
    MEMORY_SLACK,
    SECRET,
    Property,
    large_inputs,
    memory_peak,
    parser_properties,
)

_NAMES = [p.name for p in parser_properties("/nonexistent")]


@pytest.fixture(scope="module")
def secret_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("xxe") / "secret.txt"
    path.write_text(SECRET, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", _NAMES)
def test_parser_gives_a_document_or_a_parse_failure_with_a_reason(
    name: str, secret_path: str
) -> None:
    prop: Property = next(p for p in parser_properties(secret_path) if p.name == name)
    run_property(prop)


def test_secret_file_exists_so_the_external_entity_runs_mean_something(secret_path: str) -> None:
    assert Path(secret_path).read_text(encoding="utf-8") == SECRET


@pytest.mark.parametrize("name", sorted(large_inputs(1)))
def test_large_input_memory_stays_within_a_multiple_of_its_size(name: str) -> None:
    parse, raw = large_inputs(256 * 1024)[name]
    outcome, peak, _ = memory_peak(parse, raw)
    assert outcome.startswith(("parsed", "quarantined:")), outcome
    assert peak <= MEMORY_FACTOR * len(raw) + MEMORY_SLACK, (outcome, peak, len(raw))
