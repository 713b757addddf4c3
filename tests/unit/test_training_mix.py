"""The cross-encoder's training mix: identity pairs and the seeded shares of made-up pairs.

Pure functions of a list of pairs; no data and no torch needed (``training/`` is on the path
only for this module).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from build_pairs import IDENTITY, SYNTHETIC, Pair, identity_pairs, is_validation
from train_cross_encoder import keep_share, training_mix

REAL = [
    Pair(
        "Aspirin reduced the risk of stroke.",
        "Aspirin lowered stroke risk.",
        "entailed",
        "g1",
        "scifact",
    ),
    Pair(
        "Aspirin reduced the risk of stroke.",
        "Patients were enrolled in 2004.",
        "neutral",
        "g1",
        "scifact",
    ),
    Pair(
        "The drug was effective.", "It failed. Nothing changed.", "contradicted", "g2", "healthver"
    ),
]


def test_identity_pairs_teach_self_entailment_against_a_flip() -> None:
    made = identity_pairs([*REAL, Pair("x", "y", "contradicted", "g3", SYNTHETIC)])
    assert all(p.dataset == IDENTITY for p in made)
    as_tuples = {(p.claim, p.evidence, p.label, p.group) for p in made}
    claim = REAL[0].claim
    assert (claim, claim, "entailed", "g1") in as_tuples
    flips = [p for p in made if p.label == "contradicted" and p.evidence == claim]
    assert len(flips) == 1 and flips[0].claim != claim  # one flipped claim per group
    # one single-sentence evidence per group; the two-sentence evidence of g2 gives none
    assert (
        "Aspirin lowered stroke risk.",
        "Aspirin lowered stroke risk.",
        "entailed",
        "g1",
    ) in as_tuples
    assert not any(p.evidence == REAL[2].evidence for p in made)
    assert not any(p.group == "g3" for p in made)  # synthetic pairs are not a source
    # an identity pair stays on its source's side of the split
    assert {is_validation(p.group) for p in made if p.group == "g1"} == {is_validation("g1")}


def test_shares_are_seeded_by_content_and_real_pairs_are_all_kept() -> None:
    synthetic = [
        Pair(f"claim {i}", f"evidence {i}", "contradicted", f"s{i}", SYNTHETIC) for i in range(400)
    ]
    kept = [p for p in synthetic if keep_share(p, 0.25)]
    assert 60 < len(kept) < 140  # about a quarter
    assert kept == [p for p in reversed(synthetic) if keep_share(p, 0.25)][::-1]  # order-free
    assert not [p for p in synthetic if keep_share(p, 0.0)]
    train_real = [p for p in REAL if p.split == "train"]
    mix = training_mix([*REAL, *synthetic], 0.25, 0.0)
    assert [p for p in mix if p.dataset != SYNTHETIC] == train_real
    assert all(p.split == "train" for p in mix)
    assert len([p for p in mix if p.dataset == SYNTHETIC]) <= len(kept)
