"""The pronoun probe (scripts/probe_pronouns.py): how its cases are made."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_pronouns import KINDS, build_cases, second_claim, subject_sentences, with_pronoun

ABSTRACTS = [
    [
        "Aspirin lowered the risk of stroke in older adults.",
        "Aspirin raised the rate of major bleeding.",
    ],
    ["Masks reduced transmission in schools.", "Masks were worn by most pupils."],
    ["Clopidogrel was stopped early.", "The trial enrolled 1,200 adults."],
]


def test_a_case_sentence_opens_with_a_subject_whose_verb_agrees_with_the_pronoun() -> None:
    rows = subject_sentences(ABSTRACTS)
    aspirin = rows[0][1]
    assert aspirin is not None and aspirin.subject == "Aspirin" and not aspirin.plural
    assert with_pronoun(aspirin) == "It raised the rate of major bleeding."
    masks = rows[1][1]
    assert masks is not None and with_pronoun(masks) == "They were worn by most pupils."


def test_the_kinds_pair_sentences_as_described() -> None:
    cases = build_cases(ABSTRACTS, 20, 1)
    same, split, other = (cases[k] for k in KINDS)
    assert [c.draft for c in same] == [c.draft for c in split]
    assert any(c.draft.endswith("It raised the rate of major bleeding.") for c in same)
    assert all(len(c.evidence) == 1 for c in same)
    assert all("It raised" in " ".join(c.evidence) for c in split if "It raised" in c.draft)
    assert other and all(len(c.evidence) == 2 for c in other)
    named, written = second_claim(same[0]) or (None, None)
    assert named is not None and written is not None
    assert named.text.startswith(("Aspirin", "Masks")) and written.text.startswith(("It", "They"))
