"""Score model v76: negations read against the other side
(:func:`spanproof.verify.gates.parity_against`): a negation in a restrictive relative clause
names a group (:func:`spanproof.verify.gates.names_a_group`) and counts only where the other
side holds a word it denies; a privative word counts as a negation where the other side denies
a word of its stem; in a near copy, "not clear" for "unclear" is the same denial
(:func:`spanproof.verify.gates.denied_alike`)."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.gates import (
    cues,
    denied_alike,
    names_a_group,
    parity_against,
    polarity_gate_trips,
    privative_stem,
    segment_words,
)
from spanproof.verify.scoring import SCORE_MODELS, V75, V76, ScoreModel


def _grouped(text: str) -> list[str]:
    words = segment_words(text)
    return [words[i] for i in range(len(words)) if names_a_group(words, i)]


@pytest.mark.parametrize(
    ("text", "grouped"),
    [
        ("Cells that do not express CD4 were resistant.", ["not"]),
        ("Women who were not pregnant were admitted more often.", ["not"]),
        ("People who didn't know they were infected spread it.", ["didn't"]),
        ("A study that has not yet been published reported it.", ["not"]),
        ("Deficiency that is not sufficiently treated is associated with risk.", ["not"]),
        ("Adults who had never smoked had a lower risk.", ["never"]),
        # a denial: the noun the clause qualifies is predicated
        ("Metformin is a drug that does not inhibit complex I.", []),
        # "that" on its own, after a conjunction
        ("It rose, and that was not expected.", []),
        # "that" opening a finding, "which" commenting on one
        ("We found that vaccination did not reduce infection.", []),
        ("The risk fell, which was not significant.", []),
        ("The drug did not lower the risk.", []),
    ],
)
def test_what_names_a_group(text: str, grouped: list[str]) -> None:
    assert _grouped(text) == grouped


def _cues(text: str, paired: bool = True):  # type: ignore[no-untyped-def]
    return cues(segment_words(text), forms=True, scoped=True, paired=paired)


def test_a_group_is_kept_with_the_words_it_denies() -> None:
    read = _cues("Deficiency that is not sufficiently treated is associated with risk.")
    assert read.negation_parity == 0
    assert read.groups == (frozenset({"treated"}),)
    assert _cues("Deficiency that is not treated.", paired=False).negation_parity == 1
    assert _cues("Deficiency that is not treated.", paired=False).groups == ()


@pytest.mark.parametrize(
    ("claim", "window", "trips"),
    [
        # the claim says nothing of the group's words: the group only narrows the window
        (
            "Low vitamin D levels are linked to severe disease.",
            "Vitamin D deficiency that is not sufficiently treated is linked to severe disease.",
            False,
        ),
        # the claim names the other group: still a denial
        (
            "Pregnant women had a higher rate of admission.",
            "Women who were not pregnant had a higher rate of admission.",
            True,
        ),
        # both name the same group
        (
            "Women who were not pregnant had a higher rate of admission.",
            "Among women who were not pregnant the rate of admission was higher.",
            False,
        ),
        # a privative word against a denial of its stem: the same denial
        (
            "Most patients did not show symptoms.",
            "Most patients were asymptomatic.",
            False,
        ),
        ("Non-smokers had a lower risk.", "People who did not smoke had a lower risk.", False),
        ("Nonsmokers had a lower risk.", "People who never smoked had a lower risk.", False),
        # v27's "never smoked" names a group: the other group is denied
        ("Smokers had a lower risk.", "People who never smoked had a lower risk.", True),
        # both hold the privative word: the claim's negation is of something else
        (
            "Surgery was not superior to non-surgical care.",
            "We compared surgical and nonsurgical care.",
            True,
        ),
    ],
)
def test_parity_is_read_against_the_other_side(claim: str, window: str, trips: bool) -> None:
    c, w = _cues(claim), _cues(window)
    assert polarity_gate_trips(c, w) is trips
    assert (parity_against(c, w) != parity_against(w, c)) is trips


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("asymptomatic", "sympt"),
        ("unclear", "clear"),
        ("nonsurgical", "surgi"),
        ("non-smokers", "smoke"),
        ("independent", "depen"),
        ("cells", None),
        ("unit", None),
    ],
)
def test_privative_stem(word: str, stem: str | None) -> None:
    assert privative_stem(word) == stem


@pytest.mark.parametrize(
    ("ours", "theirs", "alike"),
    [
        ("not clear", "unclear", True),
        ("unclear", "not clear", True),
        ("did not show symptoms", "asymptomatic", True),
        ("never smoked", "non smokers", True),
        # the "non" of "non-infectious" alone: the word after it is aligned as the same
        ("not", "non", True),
        ("not at all", "non", False),
        ("clear", "unclear", False),
        ("not unclear", "unclear", False),
        ("not known", "unclear", False),
    ],
)
def test_denied_alike(ours: str, theirs: str, alike: bool) -> None:
    assert denied_alike(ours.split(), theirs.split()) is alike


def _edits(model: ScoreModel, claim: str, evidence: str) -> tuple[Verdict, list[str]]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict, [e.judgement for e in verdict.edits]


def _verdict(model: ScoreModel, claim: str, evidence: str) -> Verdict:
    return _edits(model, claim, evidence)[0]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Low vitamin D levels are linked to severe COVID-19.",
            "Vitamin D deficiency that is not sufficiently treated is linked to severe COVID-19 "
            "in hospital patients.",
        ),
        (
            "Smoking raises the risk of lung cancer in older adults.",
            "Older adults who do not exercise and smoke have a raised risk of lung cancer.",
        ),
    ],
)
def test_v76_supports_what_v75_read_as_denied(claim: str, evidence: str) -> None:
    assert _verdict(V75, claim, evidence) is not Verdict.SUPPORTED
    assert _verdict(V76, claim, evidence) is Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Pregnant women had a higher rate of hospital admission.",
            "Women who were not pregnant had a higher rate of admission to hospital in the cohort.",
        ),
        (
            "Obese mice gained weight on the diet.",
            "Mice that were not obese gained weight on the high-fat diet within weeks.",
        ),
        (
            "Metformin inhibits complex I in cancer cells.",
            "Metformin is a drug that does not inhibit complex I in cancer cells.",
        ),
    ],
)
def test_v76_still_refuses_the_other_group(claim: str, evidence: str) -> None:
    assert _verdict(V76, claim, evidence) is not Verdict.SUPPORTED


UNCLEAR = "The mechanism of this effect was unclear in the mouse model."


def test_v76_reads_a_prefix_written_as_not_in_a_copy() -> None:
    claim = "The mechanism of this effect was not clear in the mouse model."
    assert _edits(V75, claim, UNCLEAR) == (Verdict.CONTRADICTED, ["contradicted: negation flip"])
    assert _edits(V76, claim, UNCLEAR) == (Verdict.SUPPORTED, ["allowed: same denial (prefix)"])


def test_v76_reads_not_for_a_hyphenated_non_in_a_copy() -> None:
    claim = "Vif-defective virus made in these cells is not infectious."
    evidence = "Vif-defective virus made in these cells is non-infectious."
    assert _edits(V75, claim, evidence)[0] is Verdict.CONTRADICTED
    assert _edits(V76, claim, evidence) == (Verdict.SUPPORTED, ["allowed: same denial (prefix)"])


@pytest.mark.parametrize(
    "claim",
    [
        "The mechanism of this effect was clear in the mouse model.",
        "The mechanism of this effect was not unclear in the mouse model.",
    ],
)
def test_v76_still_refuses_the_prefix_dropped_or_denied(claim: str) -> None:
    verdict, edits = _edits(V76, claim, UNCLEAR)
    assert verdict is not Verdict.SUPPORTED
    assert "allowed: same denial (prefix)" not in edits


def test_v76_is_v75_reading_paired_negations() -> None:
    assert SCORE_MODELS["v76"] is V76
    assert DEFAULT_SCORE_MODEL != "v76"  # v77 since
    assert dataclasses.replace(V75, name="v76", paired_negations=True) == V76
    assert not V75.paired_negations
