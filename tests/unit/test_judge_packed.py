"""The packed judge trainer's pure parts: packed pairs read back, recipes, dev figures, weight
files in parts, and the shared batch plan. numpy only (no torch, no data)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from minilm import batches_in_length_order, pad
from train_judge_packed import (
    TARGET_SETS,
    Packed,
    auc,
    figures,
    parse_recipe,
    read_parts,
    state_digest,
    write_parts,
)


def _packed(rows: list[tuple[list[int], int]], labels: list[int], datasets: list[int]) -> dict:
    ids = [i for r, _ in rows for i in r]
    offsets = np.concatenate([[0], np.cumsum([len(r) for r, _ in rows])])
    return {
        "dev_offsets": offsets.astype(np.int64),
        "dev_ids": np.array(ids, dtype=np.uint16),
        "dev_first_b": np.array([b for _, b in rows], dtype=np.int32),
        "dev_labels": np.array(labels, dtype=np.int8),
        "dev_datasets": np.array(datasets, dtype=np.int8),
    }


def test_packed_pairs_read_back_with_their_segments() -> None:
    data = _packed([([101, 7, 102, 8, 9, 102], 3), ([101, 5, 102], 3)], [0, -1], [0, 1])
    dev = Packed(data, "dev")
    (ids0, types0), (ids1, types1) = dev.pairs
    assert ids0.tolist() == [101, 7, 102, 8, 9, 102] and types0.tolist() == [0, 0, 0, 1, 1, 1]
    assert ids1.tolist() == [101, 5, 102] and types1.tolist() == [0, 0, 0]
    assert dev.labels.tolist() == [0, -1] and dev.lengths == [6, 3]
    ids, mask, types = pad(dev.pairs)
    assert ids.shape == (2, 6) and mask[1].tolist() == [1, 1, 1, 0, 0, 0]
    assert types[0].tolist() == [0, 0, 0, 1, 1, 1]


def test_recipes_parse_with_defaults_and_refuse_unknown_keys() -> None:
    name, recipe = parse_recipe("target:lr=5e-5,epochs=6,target_weight=2")
    assert name == "target"
    assert recipe == {"lr": 5e-5, "epochs": 6, "batch": 32, "smoothing": 0.0, "target_weight": 2.0}
    with pytest.raises(SystemExit, match="unknown recipe key 'steps'"):
        parse_recipe("x:steps=3")


def test_auc_counts_ties_as_half_and_needs_both_classes() -> None:
    assert auc(np.array([0.9, 0.8, 0.1]), np.array([True, True, False])) == 1.0
    assert auc(np.array([0.1, 0.9]), np.array([True, False])) == 0.0
    assert auc(np.array([0.5, 0.5]), np.array([True, False])) == 0.5
    assert auc(np.array([0.5, 0.7]), np.array([True, True])) is None


def test_dev_figures_per_set_and_the_target_score() -> None:
    names = ["fever", *TARGET_SETS]
    data = _packed([([101, 102], 2)] * 4, [0, 2, 0, 1], [1, 1, 0, 0])
    dev = Packed(data, "dev")
    probs = np.array([[0.8, 0.1, 0.1], [0.3, 0.2, 0.5], [0.2, 0.7, 0.1], [0.6, 0.3, 0.1]])
    found = figures(probs, dev, names)
    # scifact: the entailed pair ranks above the neutral one and both are read right
    assert found["scifact"] == {"n": 2, "balanced_accuracy": 1.0, "auc_entailed": 1.0,
                                "auc_margin": 1.0}  # fmt: skip
    # fever: the entailed pair ranks below the contradicted one and is read wrong
    assert found["fever"]["auc_entailed"] == 0.0 and found["fever"]["balanced_accuracy"] == 0.0
    # the score is the mean over the target sets present (scifact alone here), not fever
    assert found["score"] == 1.0


def test_weights_split_into_parts_and_read_back_bit_for_bit(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    state = {f"layer{i}.weight": rng.standard_normal((300, 300)).astype(np.float32)
             for i in range(5)}  # fmt: skip
    import train_judge_packed

    original = train_judge_packed.PART_BYTES
    train_judge_packed.PART_BYTES = 800_000  # two matrices of 360 kB a part
    try:
        names = write_parts(state, tmp_path, "best")
    finally:
        train_judge_packed.PART_BYTES = original
    assert names == ["best_part0.npz", "best_part1.npz", "best_part2.npz"]
    back = read_parts(tmp_path, "best")
    assert state_digest(back) == state_digest(state)
    back["layer0.weight"][0, 0] += 1e-6
    assert state_digest(back) != state_digest(state)
    with pytest.raises(SystemExit, match="no other_part"):
        read_parts(tmp_path, "other")


def test_the_batch_plan_is_a_function_of_the_seed() -> None:
    lengths = [random.Random(k).randint(5, 200) for k in range(500)]
    a = batches_in_length_order(500, 32, lengths, random.Random(1))
    b = batches_in_length_order(500, 32, lengths, random.Random(1))
    c = batches_in_length_order(500, 32, lengths, random.Random(2))
    assert a == b and a != c
    assert sorted(i for batch in a for i in batch) == list(range(500))
