"""The overstatement probe (scripts/probe_overstatements.py): each case is a sentence of an
abstract with the word that limited its finding removed or rewritten."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_overstatements import KINDS, Kind, build_cases, overstate, tally

from spanproof.testing.fakes import FakeEmbedder

BY_NAME = {kind.name: kind for kind in KINDS}


@pytest.mark.parametrize(
    ("kind", "sentence", "claim"),
    [
        (
            "association",
            "Higher coffee intake was significantly associated with lower mortality in the cohort.",
            "Higher coffee intake caused lower mortality in the cohort.",
        ),
        (
            "association",
            "Serum ferritin levels are correlated with the severity of the disease at admission.",
            "Serum ferritin levels cause the severity of the disease at admission.",
        ),
        (
            "hedge",
            "These findings suggest that the variant may reduce the response to clopidogrel.",
            "These findings suggest that the variant reduces the response to clopidogrel.",
        ),
        (
            "species",
            "Metformin reduced tumour growth in mice with colorectal cancer over eight weeks.",
            "Metformin reduced tumour growth with colorectal cancer over eight weeks.",
        ),
        (
            "in_vitro",
            "The compound blocked viral replication in vitro at nanomolar concentrations.",
            "The compound blocked viral replication at nanomolar concentrations.",
        ),
        (
            "population",
            "The intervention lowered systolic blood pressure among older adults by 5 mm Hg.",
            "The intervention lowered systolic blood pressure by 5 mm Hg.",
        ),
        (
            "extent",
            "Cardiac fibrosis is mediated partly by matrix-depositing fibroblasts in the heart.",
            "Cardiac fibrosis is mediated by matrix-depositing fibroblasts in the heart.",
        ),
        (
            "trend",
            "Aspirin showed a trend toward lower mortality in the older patients of the trial.",
            "Aspirin showed lower mortality in the older patients of the trial.",
        ),
        (
            "nonsignificant",
            "Aspirin gave a non-significant reduction in stroke in older patients of the trial.",
            "Aspirin gave a reduction in stroke in older patients of the trial.",
        ),
        (
            "largely",
            "The molecular mechanisms by which the enzyme increases longevity are largely unknown.",
            "The molecular mechanisms by which the enzyme increases longevity are unknown.",
        ),
        (
            "frequency",
            "Health promotion programmes are seldom offered to prisoners in the region studied.",
            "Health promotion programmes are offered to prisoners in the region studied.",
        ),
        (
            "part",
            "Some patients with refractory disease responded to the second course of treatment.",
            "Patients with refractory disease responded to the second course of treatment.",
        ),
        (
            "size",
            "Patient satisfaction decreased slightly between the first and the second year.",
            "Patient satisfaction decreased between the first and the second year.",
        ),
        (
            "supposed_that",
            "It has been proposed that statins lower the risk of dementia in older adults.",
            "Statins lower the risk of dementia in older adults.",
        ),
        (
            "supposed_that",
            "We hypothesized that the variant impairs the response to clopidogrel.",
            "The variant impairs the response to clopidogrel.",
        ),
        (
            "supposed_to",
            "Microglia are generally thought to play a role in synaptic pruning in the cortex.",
            "Microglia play a role in synaptic pruning in the cortex.",
        ),
        (
            "supposed_to",
            "The enzyme is believed to be the main source of oxidative stress in the liver.",
            "The enzyme is the main source of oxidative stress in the liver.",
        ),
        (
            "supposed_to",
            "The drug was expected to reach the brain at therapeutic concentrations in mice.",
            "The drug reaches the brain at therapeutic concentrations in mice.",
        ),
        (
            "unlikely",
            "Statins are unlikely to prevent dementia in older adults with high cholesterol.",
            "Statins prevent dementia in older adults with high cholesterol.",
        ),
        (
            "aimed_to",
            "The school programme aims to reduce obesity among children in deprived areas.",
            "The school programme reduces obesity among children in deprived areas.",
        ),
        (
            "aimed_to",
            "The vaccines were designed to elicit broadly neutralizing antibodies in adults.",
            "The vaccines elicit broadly neutralizing antibodies in adults.",
        ),
        (
            "potential",
            "This compound has the potential to inhibit tumour growth in colorectal cancer.",
            "This compound inhibits tumour growth in colorectal cancer.",
        ),
        (
            "would",
            "Annual screening would reduce mortality from colorectal cancer in older adults.",
            "Annual screening reduces mortality from colorectal cancer in older adults.",
        ),
        (
            "duration",
            "Glucagon transiently increased hepatic glucose output in the fasted dogs.",
            "Glucagon increased hepatic glucose output in the fasted dogs.",
        ),
        (
            "weak_evidence",
            "Emerging evidence suggests that tumour cells require specific interphase CDKs.",
            "Tumour cells require specific interphase CDKs.",
        ),
        (
            "weak_evidence",
            "In older adults, there is limited evidence that statins lower the risk of dementia.",
            "Statins lower the risk of dementia.",
        ),
        (
            "contrast",
            "The drug reduced relapse in the per-protocol analysis but not in the "
            "intention-to-treat analysis.",
            "The drug reduced relapse.",
        ),
        (
            "asserted_that",
            "Our results indicate that statins lower the risk of dementia in older adults.",
            "Statins lower the risk of dementia in older adults.",
        ),
        (
            "asserted_to",
            "The variant has been shown to modify the response to clopidogrel in two trials.",
            "The variant modifies the response to clopidogrel in two trials.",
        ),
    ],
)
def test_each_kind_removes_or_rewrites_its_phrase(kind: str, sentence: str, claim: str) -> None:
    assert overstate(sentence, BY_NAME[kind]) == claim


@pytest.mark.parametrize(
    ("kind", "sentence"),
    [
        ("part", "The trial enrolled some 30 patients with refractory disease at four sites."),
        ("extent", "The vaccine was effective against severe disease in every age group."),
        ("species", "Metformin reduced tumour growth in patients with colorectal cancer."),
        # a supposition only at a sentence's start; "known to" asserts
        ("supposed_that", "Several groups have proposed that statins lower the risk of dementia."),
        ("supposed_to", "The variant is known to modify the response to clopidogrel."),
        ("would", "These findings would be important for the design of future trials."),
    ],
    ids=[
        "some-before-a-figure",
        "no-extent-word",
        "no-species",
        "not-at-start",
        "known-to",
        "would-be",
    ],
)
def test_a_sentence_without_the_phrase_gives_no_case(kind: str, sentence: str) -> None:
    assert overstate(sentence, BY_NAME[kind]) is None


def test_only_the_controls_should_be_supported() -> None:
    assert [k.name for k in KINDS if k.supported] == ["size", "asserted_that", "asserted_to"]
    assert len({k.name for k in KINDS}) == len(KINDS)


ABSTRACTS = [
    [
        "Metformin partially restored insulin secretion in mice fed a high-fat diet for weeks.",
        "Some treated animals lost weight faster than their untreated littermates did.",
        "Too short.",
    ],
    [
        "Serum ferritin was associated with the severity of the disease at admission to hospital.",
        "Fasting glucose decreased slightly in the treated group over the first year of follow-up.",
    ],
    ["Nothing in this abstract limits its finding in any of the ways the probe reads."],
]


def test_cases_are_one_per_kind_and_abstract_seeded_and_keep_the_sentence() -> None:
    cases = build_cases(ABSTRACTS, 5, seed=7)
    assert cases == build_cases(ABSTRACTS, 5, seed=7)
    assert sorted(c.kind for made in cases.values() for c in made) == sorted(
        ["association", "species", "extent", "part", "size"]
    )
    for made in cases.values():
        for case in made:
            assert case.old in case.evidence  # the unedited sentence is in its evidence
            assert case.claim != case.old
            assert case.claim == overstate(case.old, BY_NAME[case.kind])
    # the first sentence an abstract offers a kind: "partially" before "Some" of the next one
    assert [c.old for c in cases["species"]] == [ABSTRACTS[0][0]]
    assert [c.old for c in cases["part"]] == [ABSTRACTS[0][1]]
    assert len(build_cases(ABSTRACTS, 0, seed=7)["extent"]) == 0


def test_tally_counts_the_verdicts_of_the_claims_or_of_the_unedited_sentences() -> None:
    cases = build_cases(ABSTRACTS, 5, seed=7)["extent"]
    counts, supported = tally(cases, "v35", FakeEmbedder())
    assert sum(counts.values()) == len(cases) == 1
    assert counts["supported"] == 0 and supported == []
    counts, supported = tally(cases, "v35", FakeEmbedder(), original=True)
    assert counts["supported"] == 1 and supported == cases
    counts, _ = tally(cases, "v34", FakeEmbedder())
    assert counts["supported"] == 1  # v34 read the copy without "partially" as a compression


def test_a_kind_is_a_pattern_and_a_replacement() -> None:
    kind = Kind("x", BY_NAME["extent"].pattern, lambda _: "fully ")
    assert overstate("It was partially effective.", kind) == "It was fully effective."
