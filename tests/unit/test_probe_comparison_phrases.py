"""The comparison-phrase probe (scripts/probe_comparison_phrases.py): how it rewrites a
sentence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_comparison_phrases import KINDS, build_cases, rewrite


def test_a_phrase_after_the_comparative_with_places() -> None:
    forms = rewrite("TLR2 expression was significantly higher in IPF patients compared to NSCLC.")
    assert forms == {
        "copied": "TLR2 expression was significantly higher in IPF patients compared to NSCLC.",
        "than": "TLR2 expression was significantly higher in IPF patients than NSCLC.",
        "restated": "TLR2 expression was significantly lower in NSCLC than IPF patients.",
        "traded": "TLR2 expression was significantly higher in NSCLC than IPF patients.",
        "traded, phrase kept": "TLR2 expression was significantly higher in NSCLC compared to "
        "IPF patients.",
    }


def test_a_phrase_after_the_comparative_with_a_subject() -> None:
    forms = rewrite("Women were more likely to have trichiasis compared to men (odds ratio 1.57).")
    assert forms is not None
    assert forms["than"] == "Women were more likely to have trichiasis than men (odds ratio 1.57)."
    assert forms["restated"] == (
        "Men were less likely to have trichiasis than women (odds ratio 1.57)."
    )
    assert (
        forms["traded"] == "Men were more likely to have trichiasis than women (odds ratio 1.57)."
    )
    assert forms["traded, phrase kept"] == (
        "Men were more likely to have trichiasis compared to women (odds ratio 1.57)."
    )


def test_a_phrase_opening_the_sentence() -> None:
    forms = rewrite("Compared with children, adults were more susceptible to infection.")
    assert forms is not None
    assert forms["than"] == "Adults were more susceptible to infection than children."
    assert forms["restated"] == "Children were less susceptible to infection than adults."
    assert forms["traded"] == "Children were more susceptible to infection than adults."
    assert forms["traded, phrase kept"] == (
        "Compared with adults, children were more susceptible to infection."
    )


@pytest.mark.parametrize(
    "sentence",
    [
        # "than" already, two comparatives, no phrase, a figure for a side
        "Mortality was higher in men than in women compared with controls.",
        "Rates were higher and costs lower in men compared with women.",
        "Mortality was higher in men.",
        "Mortality was higher in 2019 compared to 2018.",
    ],
)
def test_what_it_leaves_alone(sentence: str) -> None:
    assert rewrite(sentence) is None


def test_build_cases_is_seeded_and_keeps_the_forms_together() -> None:
    abstracts = [
        [
            "Women were more likely to have trichiasis compared to men in every village.",
            "Mortality was significantly higher in smokers compared with never smokers overall.",
            "Nothing here compares anything with anything else at all, in any way whatsoever.",
        ]
    ]
    one, two = build_cases(abstracts, 5, 7), build_cases(abstracts, 5, 7)
    assert one == two and set(one) == set(KINDS)
    assert len(one["copied"]) == 2
    for k, case in enumerate(one["traded"]):
        assert case.evidence == " ".join(abstracts[0])
        assert rewrite(one["copied"][k].claim) is not None
