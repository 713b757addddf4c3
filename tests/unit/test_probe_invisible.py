"""The invisible-character probe (scripts/probe_invisible.py): how it changes a passage."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_general_text import SETS, load_cases
from probe_invisible import MARKS, perturbed, with_invisible

from spanproof.text.visible import INVISIBLE

TEXT = "Two-factor authentication is optional for personal accounts but mandatory for admins."


def test_each_chosen_word_gets_one_invisible_character_after_its_third_letter() -> None:
    out = with_invisible(TEXT, 3, random.Random(1))
    assert INVISIBLE.sub("", out) == TEXT  # nothing a reader sees changes
    marks = [ch for ch in out if ch in MARKS]
    assert len(marks) == 3
    for word in out.split():
        inside = [i for i, ch in enumerate(word) if ch in MARKS]
        assert inside in ([], [3]) or word.startswith("Two-fac")  # "factor" inside "Two-factor"


def test_a_text_with_fewer_long_words_gets_one_in_each() -> None:
    out = with_invisible("Dogs bark loudly at cats.", 3, random.Random(1))
    assert sum(ch in MARKS for ch in out) == 1  # only "loudly" has six letters


def test_the_same_seed_changes_the_same_passage_the_same_way() -> None:
    cases = load_cases(SETS["written"])[:8]
    one, two = perturbed(cases, 3, 7), perturbed(cases, 3, 7)
    assert one == two
    assert perturbed(cases, 3, 8) != one
    by_text = {c.evidence: c for c in cases}
    assert len({c.evidence for c in one}) == len(by_text)  # each passage changed once
    for before, after in zip(cases, one, strict=True):
        assert INVISIBLE.sub("", after.evidence) == before.evidence
        assert (after.claim, after.label, after.kind) == (before.claim, before.label, before.kind)
