"""The table-rows probe (scripts/probe_table_rows.py): the rows it writes and the cases it finds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_table_rows import Case, build_cases, worst

from spanproof.evaluation.devdata import data_dir
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.tables import with_table_context

CASE = Case("Alendronate", "clinical fractures", False, "36", "%", "passage", "sentence", 0)


def test_each_form_writes_a_one_row_table_with_the_sign_or_figure_it_names() -> None:
    assert CASE.row("right").splitlines() == [
        "| Finding | Change in clinical fractures | Source |",
        "|---|---|---|",
        "| Alendronate | -36% | [1] |",
    ]
    assert "| +36% |" in CASE.row("sign flipped")
    assert "| -55% |" in CASE.row("figure changed")
    # the header and the minus sign vary case by case
    other = Case("Orlistat", "weight", False, "2.9", "kg", "p", "s", 1)
    assert other.row("right").splitlines()[::2] == [
        "| Finding | Effect on weight | Source |",
        "| Orlistat | −2.9 kg | [1] |",
    ]
    # what the verifier reads from the row is the sentence the case was made from, nearly
    draft = CASE.row("right")
    read = with_table_context(draft, RuleBasedDecomposer().decompose(draft))
    assert [c.text for c in read] == ["Alendronate decreased clinical fractures by 36%"]


def test_a_rows_verdict_is_its_worst_claims() -> None:
    assert worst(["supported", "contradicted"], "verified") == "contradicted"
    assert worst(["supported", "unsupported"], "verified") == "unsupported"
    assert worst(["supported"], "verified") == "supported"
    assert worst([], "verified") == "no claims"


def test_the_cases_state_a_change_by_a_figure_found_in_their_passage() -> None:
    root = data_dir()
    if root is None:
        pytest.skip("../shared/data not found (set SPANPROOF_DATA_DIR)")
    cases = build_cases(root, 200, 20261209)
    assert len(cases) == 20  # as docs/quality.md reports
    assert [c.index for c in cases] == list(range(len(cases)))
    for case in cases:
        assert case.sentence in case.passage and case.number in case.sentence
        assert case.object in case.sentence
    assert build_cases(root, 200, 20261209) == cases  # seeded
