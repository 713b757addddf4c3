"""The score-model comparison (scripts/compare_score_models.py): the `contradicted` cells — how
many claims a model calls contradicted, and how many of those are not supported in truth (what
``--fail-on contradicted`` would stop a build on)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from compare_score_models import refuted_cells, row

from spanproof.evaluation.devdata import DevItem


def _item(label: str) -> DevItem:
    return DevItem("citation_integrity", "g", "claim", ("evidence",), label, label)


def test_contradicted_is_right_when_the_gold_label_is_not_supported() -> None:
    items = [_item("supported"), _item("contradicted"), _item("neutral"), _item("supported")]
    # Three called contradicted: the contradicted and the neutral item are right, one is not.
    assert refuted_cells(items, [True, True, True, False]) == " 3 | 66.7 |"


def test_no_contradicted_verdict_has_no_share() -> None:
    assert refuted_cells([_item("supported")], [False]) == " 0 | — |"


def test_a_veto_row_has_no_contradicted_cells() -> None:
    items = [_item("supported"), _item("contradicted")]
    line = row("citation_integrity", "vetoed", items, [True, True]) + refuted_cells(items, None)
    assert line.endswith("| 50.0 | — | — |")
    assert line.count("|") == 10  # nine cells, as the table's header has
