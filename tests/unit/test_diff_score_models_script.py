"""The score-model diff script (scripts/diff_score_models.py): which verdicts change between two
models, counted per class, with the second model's edits."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from _report import score_model_of as score_model
from calibrate import Group, Item
from diff_score_models import ClassDiff, as_expected, diff_groups, main, render, to_json

from spanproof.core.models import EvidenceSpan
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.scoring import SCORE_MODELS

EVIDENCE = "Dexamethasone may be useful in severe patients, but could be dangerous during recovery."
DROPPED = "Dexamethasone may be useful in severe patients, but is dangerous during recovery."


def test_a_class_expects_supported_only_when_it_is_positive() -> None:
    assert as_expected("paraphrase", "supported") and as_expected("verbatim", "supported")
    assert as_expected("covidfact:supported", "supported")
    assert as_expected("covidfact:refuted", "unsupported")
    assert as_expected("overstated", "unsupported") and not as_expected("overstated", "supported")
    assert as_expected("compression", "supported") and not as_expected("reordered", "partial")


def test_a_changed_verdict_is_counted_with_the_second_model_s_edits() -> None:
    groups = {
        "g": Group(
            [EvidenceSpan("S1", EVIDENCE)],
            [Item("overstated", DROPPED, "g", "held"), Item("verbatim", EVIDENCE, "g", "held")],
        )
    }
    out: dict[tuple[str, str], ClassDiff] = {}
    diff_groups("realistic", groups, ("v15", "v16"), FakeEmbedder(), out)
    over, verbatim = out[("realistic", "overstated")], out[("realistic", "verbatim")]
    assert (over.n, over.expected) == (1, [0, 1])
    assert over.transitions() == {("supported", "unsupported"): 1}
    assert over.changes[0].edits == [
        ("substitution", "is", "could be", "unsupported: hedge dropped")
    ]
    assert (verbatim.n, verbatim.expected, verbatim.changes) == (1, [1, 1], [])
    report = render(out, ("v15", "v16"), examples=3)
    assert "| realistic | overstated | 1 | 0.0% | 100.0% | 1 | supported → unsupported: 1 |" in (
        report
    )
    assert "unsupported: hedge dropped" in report
    assert to_json(out, ("v15", "v16"))["classes"][0]["changes"][0]["after"] == "unsupported"


def test_a_model_may_be_named_with_its_threshold_moved() -> None:
    moved = score_model("v34@0.45")
    assert moved.supported_min == 0.45
    assert moved.name == "v34@0.45"
    # Everything else is v34's: only the threshold is measured.
    assert dataclasses.replace(moved, name="v34", supported_min=0.5) == SCORE_MODELS["v34"]
    assert score_model("v34") is SCORE_MODELS["v34"]
    assert score_model("v34@") is SCORE_MODELS["v34"]  # an empty threshold is the model


def test_a_model_may_be_named_with_readings_switched() -> None:
    switched = score_model("v58+window_polarity=true")
    assert switched.window_polarity and switched.name == "v58+window_polarity=true"
    assert dataclasses.replace(switched, name="v58", window_polarity=False) == SCORE_MODELS["v58"]
    both = score_model("v58@0.45+judge_veto=0.2")
    assert both.supported_min == 0.45 and both.judge_veto == 0.2


@pytest.mark.parametrize(
    "spec",
    ["v99", "v34@high", "v34@0", "v34@1.5", "@0.4", "v58+nope=1", "v58+window_polarity=2", "v58+"],
)
def test_a_bad_model_spec_is_refused_when_read(spec: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        score_model(spec)
    with pytest.raises(SystemExit):
        main([spec, "v34"])
