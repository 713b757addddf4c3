"""British spellings and Greek letters written one way (score models from v17)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.text.spelling import american


@pytest.mark.parametrize(
    ("british", "us"),
    [
        ("haemorrhage", "hemorrhage"), ("haem", "hem"), ("anaemia", "anemia"),
        ("leukaemia", "leukemia"), ("ischaemic", "ischemic"), ("paediatric", "pediatric"),
        ("oesophageal", "esophageal"), ("oestrogen", "estrogen"), ("oedema", "edema"),
        ("foetal", "fetal"), ("coeliac", "celiac"), ("diarrhoea", "diarrhea"),
        ("dyspnoea", "dyspnea"), ("sulphonylurea", "sulfonylurea"), ("tumours", "tumors"),
        ("behavioural", "behavioral"), ("centres", "centers"), ("litre", "liter"),
        ("fibre", "fiber"), ("randomised", "randomized"), ("hospitalisation", "hospitalization"),
        ("analyse", "analyze"), ("signalling", "signaling"), ("modelled", "modeled"),
        ("analogues", "analogs"), ("programme", "program"), ("grey", "gray"),
        ("1β", "1beta"), ("κb", "kappab"), ("α", "alpha"),
    ],
)  # fmt: skip
def test_a_british_spelling_or_a_greek_letter_is_written_the_american_way(
    british: str, us: str
) -> None:
    assert american(british) == us
    assert american(us) == us


@pytest.mark.parametrize(
    ("one", "other"),
    [("four", "for"), ("hour", "her"), ("filled", "filed"), ("genre", "gender"), ("μg", "mg")],
)
def test_words_that_differ_by_more_than_spelling_stay_apart(one: str, other: str) -> None:
    assert american(one) != american(other)


@given(st.text(alphabet="abcdeilmnorstuyæ", min_size=1, max_size=12))
def test_writing_a_word_the_american_way_twice_changes_nothing_more(word: str) -> None:
    assert american(american(word)) == american(word)
