"""Rule-based sentence splitting with code-point offsets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.text.sentences import split_sentences


def sents(text: str) -> list[str]:
    return [s.text for s in split_sentences(text)]


def test_splits_plain_sentences() -> None:
    assert sents("Aspirin lowered fever. It also eased pain.") == [
        "Aspirin lowered fever.",
        "It also eased pain.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Some drugs, e.g. Aspirin, lower fever.",
        "As shown by Smith et al. The effect was large.",
        "See Fig. 2 for the dose curve.",
        "Results i.e. The main ones held.",
        "Compare A vs. B in the trial.",
        "Dr. Jones ran the trial.",
    ],
)
def test_abbreviations_do_not_end_a_sentence(text: str) -> None:
    assert sents(text) == [text]


def test_decimals_do_not_end_a_sentence() -> None:
    assert sents("The dose was 3.5 mg per kg. Then it rose.") == [
        "The dose was 3.5 mg per kg.",
        "Then it rose.",
    ]


def test_single_initials_do_not_end_a_sentence() -> None:
    assert sents("J. K. Rowling wrote it. Then she rested.") == [
        "J. K. Rowling wrote it.",
        "Then she rested.",
    ]


def test_question_and_exclamation_marks_end_sentences() -> None:
    assert sents("Did it work? Yes! It did.") == ["Did it work?", "Yes!", "It did."]


def test_closing_quote_stays_with_its_sentence() -> None:
    assert sents('He said "Stop." Then he left.') == ['He said "Stop."', "Then he left."]


def test_lowercase_continuation_is_not_a_break() -> None:
    assert sents("Values rose. and then fell.") == ["Values rose. and then fell."]


def test_paragraph_break_always_ends_a_sentence() -> None:
    assert sents("first paragraph without stop\n\nsecond one") == [
        "first paragraph without stop",
        "second one",
    ]
    assert sents("first\n  \n\tsecond") == ["first", "second"]


def test_single_newline_is_not_a_paragraph_break() -> None:
    assert sents("one line\ncontinues here") == ["one line\ncontinues here"]


def test_sentences_are_stripped_and_offsets_point_into_input() -> None:
    text = "  Padded here.   Next one  "
    out = split_sentences(text)
    assert [(s.text, s.start, s.end) for s in out] == [
        ("Padded here.", 2, 14),
        ("Next one", 17, 25),
    ]


def test_empty_and_blank_text_have_no_sentences() -> None:
    assert split_sentences("") == []
    assert split_sentences(" \n\n \t") == []


_PIECES = st.sampled_from(
    [
        "Aspirin",
        "lowered",
        "fever",
        "e.g.",
        "et al.",
        "Fig.",
        "3.5",
        "J.",
        "U.S.",
        ".",
        "?",
        "!",
        '"',
        ")",
        " ",
        "  ",
        "\n",
        "\n\n",
        "\u00e9",
        "\u0301",
        "שלום",
        "😀",
        "A",
        "1",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(_PIECES, max_size=30).map("".join), st.text(max_size=60)))
def test_sentence_offsets_slice_back(text: str) -> None:
    out = split_sentences(text)
    previous_end = 0
    for sentence in out:
        assert previous_end <= sentence.start < sentence.end <= len(text)
        assert text[sentence.start : sentence.end] == sentence.text
        assert sentence.text == sentence.text.strip()
        previous_end = sentence.end
    # Nothing but whitespace is lost between sentences.
    covered = "".join(s.text for s in out)
    assert "".join(text.split()) == "".join(covered.split())
