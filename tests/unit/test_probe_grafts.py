"""The graft probe (scripts/probe_grafts.py): a sentence of an abstract with the second half of
another abstract's sentence appended, run on, or put in place of its own second half."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_grafts import CONTROL, KINDS, build_cases, grafts, second_half

SENTENCE = "Leptin injections lowered appetite in every treated animal within three short days."
OTHER = "Bisphosphonate treatment slowed structural progression in postmenopausal women with knees."


def test_a_graft_is_the_second_half_of_the_other_sentence() -> None:
    tail = second_half(OTHER)
    assert tail == ["in", "postmenopausal", "women", "with", "knees"]  # ten words: the last five
    assert second_half("Too short to graft anything.") is None
    made = grafts(SENTENCE, tail)
    assert made["appended"] == (
        "Leptin injections lowered appetite in every treated animal within three short days, "
        "and in postmenopausal women with knees."
    )
    assert made["run on"].endswith("three short days in postmenopausal women with knees.")
    assert made["spliced"] == (
        "Leptin injections lowered appetite in every in postmenopausal women with knees."
    )


def test_a_short_sentence_is_not_spliced() -> None:
    made = grafts("Leptin injections lowered appetite in mice.", ["women", "with", "knees"])
    assert "spliced" not in made and set(made) == {"appended", "run on"}


ABSTRACTS = [
    [
        SENTENCE,
        "Treated mice gained body weight faster than untreated littermates over twelve weeks.",
        "Obesity was studied in adult laboratory mice kept on a standard chow diet for months.",
        "These results suggest that leptin regulates appetite through hypothalamic circuits.",
    ],
    [
        OTHER,
        "Magnetic resonance imaging detected early cartilage loss in knee osteoarthritis patients.",
        "Cartilage thickness fell by a tenth in untreated knees over two years of follow-up.",
        "Joint space narrowing predicted total knee replacement within five years of baseline.",
    ],
]


def test_the_cases_are_seeded_and_each_holds_the_other_abstract_s_words() -> None:
    cases = build_cases(ABSTRACTS, 4, 3)
    assert cases == build_cases(ABSTRACTS, 4, 3)
    assert cases and {c.kind for c in cases} <= {*KINDS, CONTROL}
    assert any(c.kind == CONTROL for c in cases)
    for case in cases:
        own = next(a for a in ABSTRACTS if " ".join(a) == case.evidence)
        if case.kind == CONTROL:  # the graft comes from its own abstract: every word stated
            assert any(" ".join(second_half(s) or []) in case.claim for s in own)
            continue
        other = next(a for a in ABSTRACTS if a is not own)
        assert case.claim not in case.evidence
        assert any(" ".join(second_half(s) or []) in case.claim for s in other)
