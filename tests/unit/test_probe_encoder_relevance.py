"""The encoder relevance probe (scripts/probe_encoder_relevance.py): one signal, a question's
largest cosine to its store's sentences, and what it separates."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_encoder_relevance import auc, measure

from spanproof.evaluation.answerability import ANSWERABLE, OFF_TOPIC, UNANSWERABLE


@dataclass(frozen=True)
class Q:
    kind: str
    cited: tuple[int, ...] = ()


def test_auc_counts_pairs_and_ties_half() -> None:
    assert auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert auc([0.1], [0.9]) == 0.0
    assert auc([0.5], [0.5]) == 0.5
    assert auc([0.9, 0.1], [0.5]) == pytest.approx(0.5)


def test_measure_reads_each_question_against_its_own_store() -> None:
    # three sentences: of abstract 1 (cited by the answerable question), 2 and 3
    owners = ["scifact:1", "scifact:2", "scifact:3"]
    s = np.eye(3, dtype=np.float32)
    questions = [
        Q(ANSWERABLE, (1,)),  # closest to its cited abstract's sentence
        Q(ANSWERABLE, (3,)),  # closest to another abstract's sentence
        Q(UNANSWERABLE, (1,)),  # abstract 1 withdrawn: only 2 and 3 count
        Q(OFF_TOPIC),
    ]
    q = np.array(
        [[0.9, 0.1, 0.0], [0.0, 0.8, 0.3], [0.95, 0.2, 0.1], [0.1, 0.1, 0.1]], dtype=np.float32
    )
    r = measure(questions, q, s, owners, withdrawn={"scifact:1"})
    assert r["questions"] == {ANSWERABLE: 2, UNANSWERABLE: 1, OFF_TOPIC: 1}
    assert r["closest_in_cited"] == 0.5
    # the unanswerable question's 0.95 is withdrawn: its best is 0.2, below both answerable
    assert r["auc_unanswerable"] == 1.0
    assert r["auc_off_topic"] == 1.0
    assert r["unanswerable_below"] == 1.0 and r["off_topic_below"] == 1.0
