"""The phrase-swap probe (scripts/probe_phrase_swaps.py): each case is a sentence of an abstract
with one phrase replaced by a phrase of one to five words written in the same abstract or in
another one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from _report import score_model_of
from probe_phrase_swaps import LENGTHS, SOURCES, build_cases, main, phrases, swap

ABSTRACTS = [
    [
        "Obesity was studied in adult laboratory mice kept on a standard chow diet.",
        "Treated mice gained body weight faster than untreated littermates over twelve weeks.",
        "Leptin injections lowered appetite in every treated animal within three days.",
        "These results suggest leptin regulates appetite through hypothalamic circuits.",
    ],
    [
        "Magnetic resonance imaging detected early cartilage loss in knee osteoarthritis.",
        "Cartilage thickness fell by a tenth in untreated knees over two years of follow-up.",
        "Bisphosphonate treatment slowed structural progression in postmenopausal women.",
        "Joint space narrowing predicted total knee replacement within five years.",
    ],
] * 6


def test_a_phrase_is_a_run_of_words_none_a_function_word_broken_by_punctuation() -> None:
    found = [
        p.text for p in phrases("Leptin injections lowered appetite, in every treated animal.")
    ]
    assert found == ["Leptin injections lowered appetite", "every treated animal"]


def test_a_run_longer_than_the_most_words_is_not_a_phrase() -> None:
    sentence = "Magnetic resonance imaging detected early cartilage loss."
    assert phrases(sentence) == []  # seven words in a row
    assert [p.text for p in phrases(sentence, 7)] == [sentence.rstrip(".")]


def test_a_swap_puts_the_phrase_in_place_with_the_sentence_s_capitals() -> None:
    sentence = "Leptin injections lowered appetite in every treated animal."
    opening, later = phrases(sentence)
    new = phrases("Over years, Magnetic resonance imaging, in knees.")[1]
    assert new.text == "Magnetic resonance imaging"
    assert swap(sentence, opening, new) == "Magnetic resonance imaging in every treated animal."
    assert swap(sentence, later, new) == (
        "Leptin injections lowered appetite in Magnetic resonance imaging."
    )  # a capital inside its own sentence is kept (a name)
    first = phrases("Cartilage loss, in knees.")[0]
    assert swap(sentence, later, first) == "Leptin injections lowered appetite in cartilage loss."


def test_the_cases_are_seeded_and_each_changes_the_sentence() -> None:
    first = build_cases(ABSTRACTS, 3, 7)
    assert first == build_cases(ABSTRACTS, 3, 7)
    assert first != build_cases(ABSTRACTS, 3, 8)
    assert {c.source for c in first} <= set(SOURCES)
    assert {c.length for c in first} <= {label for label, _, _ in LENGTHS}
    for case in first:
        if case.source == "same":  # written elsewhere in the evidence, put where it was not
            assert case.new in case.evidence
        assert case.claim not in case.evidence  # the sentence no longer says what it said
        assert not set(case.new.lower().split()) & set(case.old.lower().split())
        fewest, most = next((lo, hi) for label, lo, hi in LENGTHS if label == case.length)
        assert fewest <= len(case.new.split()) <= most


def test_a_model_with_readings_switched_is_read_by_name() -> None:
    model = score_model_of("v59+edit_long_run=4")
    assert model.edit_long_run == 4 and model.name == "v59+edit_long_run=4"
    with pytest.raises(SystemExit):
        main(["--models", "v59+no_such_field=1"])
