"""The paired-negation probe (scripts/probe_paired_negations.py): how it rewrites a sentence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_paired_negations import KINDS, build_cases, restated, turned


@pytest.mark.parametrize(
    ("sentence", "other"),
    [
        (
            "Women who were not pregnant had a higher risk of death than men.",
            "Women who were pregnant had a higher risk of death than men.",
        ),
        (
            "People who didn't know they had it spread the virus.",
            "People who did know they had it spread the virus.",
        ),
        (
            "Cells that do not express CD4 were resistant to infection.",
            "Cells that do express CD4 were resistant to infection.",
        ),
    ],
)
def test_turns_the_group(sentence: str, other: str) -> None:
    assert turned(sentence) == other


@pytest.mark.parametrize(
    "sentence",
    [
        "Metformin is a drug that does not inhibit complex I in cancer cells.",
        "Patients who had surgery lived longer than those who did not.",
        "The drug did not lower the risk of death in patients.",
    ],
)
def test_leaves_out_what_names_no_group_or_ends_its_clause(sentence: str) -> None:
    assert turned(sentence) is None


VOCABULARY = frozenset({"clear", "symptomatic", "changed", "proved"})


@pytest.mark.parametrize(
    ("sentence", "rewritten"),
    [
        (
            "The mechanism was unclear in mice.",
            (
                "The mechanism was not clear in mice.",
                "The mechanism was clear in mice.",
                "The mechanism was not unclear in mice.",
            ),
        ),
        (
            "Most patients were asymptomatic.",
            (
                "Most patients were not symptomatic.",
                "Most patients were symptomatic.",
                "Most patients were not asymptomatic.",
            ),
        ),
        # a negation already, a past form after "im" or "in", a word the corpus lacks
        ("Blood pressure was unchanged.", None),
        ("Survival was improved.", None),
        ("The risk was unquantified.", None),
    ],
)
def test_restates_a_privative(sentence: str, rewritten: tuple[str, str, str] | None) -> None:
    assert restated(sentence, VOCABULARY) == rewritten


def test_cases_pair_each_sentence() -> None:
    abstracts = [
        [
            "Women who were not pregnant had a higher risk of death than the men in the cohort.",
            "The drug did not lower the risk of death in patients of any age in the cohort.",
        ],
        ["Cells that do not express CD4 were resistant to infection in every assay we ran."],
    ]
    cases = build_cases(abstracts, 10, 1)
    assert [len(cases[k]) for k in KINDS] == [2, 2, 0, 0, 0]
    assert sorted(c.claim for c in cases[KINDS[1]])[0].startswith("Cells that do express")
    assert all(" not " in c.claim for c in cases[KINDS[0]])
    assert build_cases(abstracts, 10, 1) == cases


def test_privative_cases_need_the_word_in_the_corpus() -> None:
    abstracts = [
        [
            "The mechanism of the observed effect was unclear in the mice of either strain.",
            "Clear differences were seen between the two strains of mice in the second cohort.",
        ]
    ]
    cases = build_cases(abstracts, 10, 1)
    assert [len(cases[k]) for k in KINDS] == [0, 0, 1, 1, 1]
    assert cases[KINDS[2]][0].claim.startswith("The mechanism of the observed effect was not clear")
