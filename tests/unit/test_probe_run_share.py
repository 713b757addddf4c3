"""The run-share probe (scripts/probe_run_share.py): the models it compares, the floor it chooses
on the calibration half, and the markers it writes between."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_run_share import BEGIN, END, NEGATIVE_KINDS, choose, models
from probe_v6_threshold import render

from spanproof.verify.scoring import SCORE_MODELS


def _report(cal: dict[float, dict[str, float]], base: dict[str, float]) -> dict[str, object]:
    def table(rates: dict[str, float]) -> dict[str, dict[str, tuple[int, float]]]:
        cells = {kind: (10, rate) for kind, rate in rates.items()}
        return {"held": cells, "cal": cells}

    out = {"v2": table(base), "v6": table(base)}
    out.update({f"v6 floor {floor:g}": table(rates) for floor, rates in cal.items()})
    return {"models": out, "command": "probe", "seconds": 1.0}


def test_each_floor_is_v6_with_that_floor() -> None:
    chosen = models([0.5, 0.65])
    assert list(chosen) == ["v2", "v6", "v6 floor 0.5", "v6 floor 0.65"]
    assert chosen["v6 floor 0.65"].edit_run_share_min == 0.65
    assert chosen["v6 floor 0.5"].edit_changed_runs == SCORE_MODELS["v6"].edit_changed_runs
    assert chosen["v6"].edit_run_share_min == 0.0


def test_the_negative_kinds_are_the_generators_not_supported_ones() -> None:
    assert "realistic:phrase_substitution" in NEGATIVE_KINDS
    assert "realistic:role_swap" in NEGATIVE_KINDS
    assert "realistic:paraphrase" not in NEGATIVE_KINDS
    assert "realistic:first_clause" not in NEGATIVE_KINDS
    assert "realistic:reworded_substitution" not in NEGATIVE_KINDS  # built not to be a copy


def test_the_largest_floor_that_loses_no_negative_case_is_chosen() -> None:
    role = "realistic:role_swap"
    base = {role: 98.8, "realistic:paraphrase": 36.7}
    report = _report(
        {
            0.5: {role: 98.8, "realistic:paraphrase": 39.0},
            0.65: {role: 98.8, "realistic:paraphrase": 40.1},
            0.7: {role: 96.4, "realistic:paraphrase": 40.1},  # two role swaps let through
        },
        base,
    )
    assert choose(report, [0.5, 0.65, 0.7]) == 0.65
    worse = _report({0.5: {role: 90.0}, 0.65: {role: 80.0}}, base)
    assert choose(worse, [0.5, 0.65]) is None


def test_the_table_sits_between_the_probes_markers() -> None:
    text = render(_report({0.65: {"realistic:role_swap": 98.8}}, {}), "t", (BEGIN, END))
    assert text.startswith(BEGIN) and text.rstrip().endswith(END)
    assert "### t (measured)" in text
