"""The answerability-gate signal probe (scripts/probe_gate_signals.py): its word-pair signal."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_gate_signals import NEAR, pair_share


def test_a_pair_counts_when_its_words_stand_near_each_other_in_either_order() -> None:
    tokens = ["aspirin", "lowered", "the", "risk", "of", "stroke", "in", "older", "adults"]
    pairs = [("aspirin", "lowered"), ("stroke", "risk"), ("aspirin", "adults"), ("coffee", "risk")]
    # near in order, near in the other order, too far apart, a word the source lacks
    assert pair_share(pairs, tokens) == 0.5


def test_the_window_is_near_words_on_either_side() -> None:
    tokens = ["a", *(["x"] * (NEAR - 1)), "b"]
    assert pair_share([("a", "b")], tokens) == 1.0
    assert pair_share([("a", "b")], ["a", *(["x"] * NEAR), "b"]) == 0.0
    assert pair_share([], tokens) == 0.0
