"""The score-model comparison (scripts/compare_score_models.py): the `contradicted` cells — how
many claims a model calls contradicted, and how many of those are not supported in truth (what
``--fail-on contradicted`` would stop a build on)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from compare_score_models import _doubted, _floor, refuted_cells, row, variant_of

from spanproof.core.models import ClaimVerdict, JudgeRecord, Verdict
from spanproof.evaluation.devdata import DevItem
from spanproof.verify.scoring import SCORE_MODELS


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.error = lambda message: (_ for _ in ()).throw(SystemExit(message))  # type: ignore[method-assign]
    return parser


def test_a_variant_changes_the_named_fields_and_names_itself() -> None:
    v58 = SCORE_MODELS["v58"]
    assert not v58.window_polarity
    changed = variant_of(v58, ["window_polarity=true", "judge_veto=0.2"], _parser())
    assert changed.window_polarity and changed.judge_veto == 0.2
    assert changed.name == "v58+window_polarity=true+judge_veto=0.2"
    assert dataclasses.replace(changed, name="v58", window_polarity=False, judge_veto=0.1) == v58


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("no_such_field=1", "not FIELD=VALUE"),
        ("name=v99", "not FIELD=VALUE"),
        ("window_polarity=yes", "true or false"),
        ("judge_veto=high", "a number"),
        ("window_polarity", "not FIELD=VALUE"),
    ],
)
def test_a_variant_that_names_no_usable_field_is_refused(change: str, says: str) -> None:
    with pytest.raises(SystemExit, match=says):
        variant_of(SCORE_MODELS["v58"], [change], _parser())


def test_the_contradiction_veto_reads_the_judges_recorded_probabilities() -> None:
    def verdict(probabilities: tuple[float, float, float] | None) -> ClaimVerdict:
        judge = None
        if probabilities is not None:
            judge = JudgeRecord(window=(), probabilities=probabilities, probability=0.0)
        return ClaimVerdict(
            id="c1", text="claim", draft_span=None, verdict=Verdict.SUPPORTED, score=0.9,
            best_span=None, candidates_considered=1, cited_markers=(), numeric_gated=False,
            judge=judge,
        )  # fmt: skip

    assert _floor("over-entailed", _parser()) is None and _floor("0.5", _parser()) == 0.5
    with pytest.raises(SystemExit, match="probabilit"):
        _floor("1.5", _parser())
    assert _doubted(verdict((0.3, 0.6, 0.1)), 0.5) and not _doubted(verdict((0.3, 0.4, 0.3)), 0.5)
    assert _doubted(verdict((0.3, 0.4, 0.3)), None) and not _doubted(verdict((0.5, 0.4, 0.1)), None)
    assert not _doubted(verdict(None), 0.0)  # a claim the judge did not read is never vetoed
