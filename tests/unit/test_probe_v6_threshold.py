"""The v6 threshold probe (scripts/probe_v6_threshold.py): which verdicts count as expected, the
models it compares, and the cells it marks as falling below v2's."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_v6_threshold import BEGIN, END, expected_rates, models, render

from spanproof.core.models import Verdict


def _row(cls: str, split: str, verdict: Verdict) -> dict[str, object]:
    return {"cls": cls, "split": split, "verdict": verdict, "score": 0.0}


def test_supported_is_expected_only_of_the_positive_classes() -> None:
    rows = [
        _row("paraphrase", "held", Verdict.SUPPORTED),
        _row("paraphrase", "held", Verdict.UNSUPPORTED),
        _row("covidfact:refuted", "held", Verdict.SUPPORTED),
        _row("covidfact:refuted", "cal", Verdict.CONTRADICTED),
        _row("phrase_substitution", "cal", Verdict.PARTIAL),  # partial is not supported
        _row("first_clause", "cal", Verdict.SUPPORTED),
    ]
    rates = expected_rates(rows, "x")
    assert rates["held"] == {"x:covidfact:refuted": (1, 0.0), "x:paraphrase": (2, 50.0)}
    assert rates["cal"] == {
        "x:covidfact:refuted": (1, 100.0),
        "x:first_clause": (1, 100.0),
        "x:phrase_substitution": (1, 100.0),
    }


def test_each_threshold_moves_the_partial_band_with_it() -> None:
    chosen = models([0.46])
    assert list(chosen) == ["v2", "v6", "v6@0.46"]
    lowered = chosen["v6@0.46"]
    assert lowered.supported_min == lowered.partial_min == 0.46
    assert lowered.edit_changed_runs == chosen["v6"].edit_changed_runs == 2


def test_cells_below_v2_are_bold() -> None:
    report = {
        "command": "python scripts/probe_v6_threshold.py --thresholds 0.46",
        "seconds": 1.0,
        "models": {
            "v2": {"held": {"s:paraphrase": (10, 40.0)}, "cal": {"s:paraphrase": (8, 50.0)}},
            "v6": {"held": {"s:paraphrase": (10, 30.0)}, "cal": {"s:paraphrase": (8, 50.0)}},
        },
    }
    text = render(report)
    assert text.startswith(BEGIN) and text.rstrip().endswith(END)
    assert "| s:paraphrase | 10 / 8 | 40.0 / 50.0 | **30.0** / 50.0 |" in text
