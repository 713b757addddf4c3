"""The yes/no-with-a-clause probe (scripts/probe_yes_no_clause.py): how the rationale sentence
follows the word, and which SciFact cases it asks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_yes_no_clause import _clause, cases

from spanproof.evaluation.devdata import data_dir


def test_the_sentence_follows_the_word_in_lower_case_unless_it_opens_with_a_name() -> None:
    assert _clause("We found that walking lowered it.") == "we found that walking lowered it."
    assert _clause("IL-6 rose  after surgery") == "IL-6 rose after surgery."
    assert _clause("Aspirin lowered fever") == "aspirin lowered fever."  # a plain capital
    assert _clause("COVID-19 spread.") == "COVID-19 spread."


def test_the_cases_are_scifact_claims_with_a_rationale_in_their_split() -> None:
    root = data_dir()
    if root is None:
        pytest.skip("../shared/data not found (set SPANPROOF_DATA_DIR)")
    dev, train = cases(root, "dev"), cases(root, "train")
    assert len(dev) == 73 and len(train) == 491  # SUPPORT and CONTRADICT, as docs/quality.md
    assert not {c[0] for c in dev} & {c[0] for c in train}
    for claim, sentence, abstract, _supports in dev:
        assert claim and sentence.strip() and " ".join(sentence.split()) in abstract
