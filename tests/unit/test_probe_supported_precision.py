"""The supported-precision probe (scripts/probe_supported_precision.py): how it reads a near copy,
and how a table cell states precision, count and coverage."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_supported_precision import cell, copy_share


def test_a_verbatim_claim_copies_every_word() -> None:
    span = "Daily walking lowered systolic blood pressure by 5 mmHg after 12 weeks."
    assert copy_share("daily walking lowered systolic blood pressure", span) == 1.0


def test_only_stretches_of_two_words_or_more_count() -> None:
    # "walking" and "pressure" each match alone: no stretch of two, nothing copied.
    assert copy_share("walking raised pressure", "Daily walking lowered blood pressure.") == 0.0
    # "blood pressure" is a stretch of two of the claim's four words.
    assert copy_share("walking raised blood pressure", "Walking lowered blood pressure.") == 0.5


def test_a_claim_without_words_copies_nothing() -> None:
    assert copy_share("", "Anything at all.") == 0.0
    assert copy_share("—", "Anything at all.") == 0.0


def test_a_cell_states_precision_count_and_coverage() -> None:
    assert cell(19, 20, 40) == "95 % (20; 48 %)"
    assert cell(0, 0, 40) == "— (0)"


@pytest.mark.parametrize("said", [1, 3])
def test_precision_is_of_the_verdicts_kept(said: int) -> None:
    assert cell(said, said, 10).startswith("100 %")
