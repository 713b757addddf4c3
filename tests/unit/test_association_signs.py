"""Score model v74: the sign of an association
(:func:`spanproof.verify.gates.association_reversed`); v75: a word of association, or its sign,
restated in a copy (:func:`spanproof.verify.edits.align_edits`, ``associations``)."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.gates import association_reversed, signed_associations
from spanproof.verify.scoring import SCORE_MODELS, V73, V74, V75, ScoreModel

CARNITINE = (
    "Plasma L-carnitine levels in subjects undergoing cardiac evaluation (n = 2,595) predicted "
    "increased risks for both prevalent cardiovascular disease (CVD) and incident major adverse "
    "cardiac events (myocardial infarction, stroke or death), but only among subjects with "
    "concurrently high TMAO levels."
)
VITAMIN = "Higher serum vitamin D levels were associated with lower odds of depression in adults."


def _found(claim: str, window: str) -> tuple[str, str] | None:
    found = association_reversed(claim, window)
    if found is None:
        return None
    (cs, ce), (ws, we) = found
    return claim[cs:ce], window[ws:we]


def _signs(text: str) -> list[int]:
    return [sign for sign, *_ in signed_associations(text)]


@pytest.mark.parametrize(
    ("text", "signs"),
    [
        ("X is negatively correlated with anxiety.", [-1]),
        ("X is inversely associated with anxiety.", [-1]),
        ("There was an inverse association between X and anxiety.", [-1]),
        ("X was positively associated with anxiety.", [1]),
        ("There is a positive correlation between X and anxiety.", [1]),
        ("X was associated with an increased risk of anxiety.", [1]),
        ("X predicted lower levels of anxiety.", [-1]),
        # the exposure's level turns the sign
        ("Higher X is negatively correlated with anxiety.", [-1]),
        ("Lower X was associated with an increased risk of anxiety.", [-1]),
        ("Low X was associated with reduced anxiety.", [1]),
        # the absence of a harm turns it too: shorter metastasis-free survival is more metastasis
        ("X was associated with shorter metastasis-free survival.", [1]),
        # "free-living" is no absence of a harm
        ("X was associated with a reduced risk of stroke in free-living adults.", [-1]),
        # none: denied, turned by an inverting word, both levels, or nothing it is with
        ("X was not associated with increased anxiety.", []),
        ("Loss of X was associated with increased anxiety.", []),
        ("Higher X and lower Z were associated with increased anxiety.", []),
        ("X was associated with increased.", []),
        # an association with no sign
        ("X was associated with anxiety.", []),
    ],
)
def test_signs(text: str, signs: list[int]) -> None:
    assert _signs(text) == signs


@pytest.mark.parametrize(
    ("claim", "window", "words"),
    [
        (
            "Higher plasma levels of L-carnitine are negatively correlated with cardiovascular "
            "events in humans.",
            CARNITINE,
            ("negatively correlated", "predicted increased"),
        ),
        (
            "Vitamin D levels are positively associated with depression.",
            VITAMIN,
            ("positively associated", "associated with lower"),
        ),
        (
            "Birth weight is negatively associated with breast cancer.",
            "Heavier birth weights were associated with increased breast cancer risk.",
            ("negatively associated", "associated with increased"),
        ),
    ],
    ids=["carnitine", "vitamin", "birth-weight"],
)
def test_names_the_claims_association_and_the_windows_opposite(
    claim: str, window: str, words: tuple[str, str]
) -> None:
    assert _found(claim, window) == words


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # restated with the same sign in other words
        ("Vitamin D levels are inversely associated with depression.", VITAMIN),
        ("Low vitamin D is associated with increased depression.", VITAMIN),
        ("L-carnitine levels are positively correlated with cardiovascular events.", CARNITINE),
        # "shorter metastasis-free survival" is more metastasis
        (
            "CCAT2 expression correlated with a higher incidence of liver metastasis.",
            "High CCAT2 RNA levels were associated with shorter metastasis-free survival.",
        ),
        # with something else
        ("X is negatively correlated with tumour size.", "X was associated with increased pain."),
        # the window states both signs of it
        (
            "X is negatively correlated with pain.",
            "X was associated with increased pain at rest and a negative correlation with pain "
            "on walking.",
        ),
        # the claim states both
        (
            "X is negatively correlated with pain and positively correlated with pain scores.",
            "X was associated with increased pain.",
        ),
    ],
)
def test_what_is_no_reversal(claim: str, window: str) -> None:
    assert _found(claim, window) is None


def _verdict(model: ScoreModel, claim: str, evidence: str) -> tuple[Verdict, list[str]]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict, [e.judgement for e in verdict.edits]


def test_v74_contradicts_an_association_v73_supports() -> None:
    claim = "Vitamin D levels are positively associated with depression."
    assert _verdict(V73, claim, VITAMIN)[0] is Verdict.SUPPORTED
    verdict, edits = _verdict(V74, claim, VITAMIN)
    assert verdict is Verdict.CONTRADICTED
    assert edits == ["contradicted: association reversed"]


def test_v74_supports_the_association_restated() -> None:
    claim = "Low vitamin D is associated with increased depression."
    assert _verdict(V74, claim, VITAMIN)[0] is Verdict.SUPPORTED


def test_v74_is_v73_reading_association_signs() -> None:
    assert SCORE_MODELS["v74"] is V74
    assert DEFAULT_SCORE_MODEL != "v73"  # v74 until v75
    assert dataclasses.replace(V73, name="v74", association_signs=True) == V74
    assert not V73.association_signs


BEVERAGES = (
    "Frequent consumption of sugar-sweetened beverages was associated with an increased risk of "
    "type 2 diabetes, independent of body weight."
)


@pytest.mark.parametrize(
    ("claim", "judgement"),
    [
        ("was linked to an increased risk", "allowed: same association"),
        ("was linked with an increased risk", "allowed: same association"),
        ("was correlated with an increased risk", "allowed: same association"),
        ("was tied to an increased risk", "allowed: same association"),
        ("was linked to a higher risk", "allowed: same association"),
        ("was positively associated with the risk", "allowed: same sign"),
    ],
)
def test_v75_reads_an_association_restated_in_a_copy(claim: str, judgement: str) -> None:
    text = (
        f"Frequent consumption of sugar-sweetened beverages {claim} of type 2 diabetes, "
        "independent of body weight."
    )
    assert _verdict(V74, text, BEVERAGES)[0] is Verdict.UNSUPPORTED
    verdict, edits = _verdict(V75, text, BEVERAGES)
    assert verdict is Verdict.SUPPORTED
    assert judgement in edits


@pytest.mark.parametrize(
    "claim",
    [
        "was linked to a lower risk",
        "was inversely associated with the risk",
        "was negatively correlated with the risk",
    ],
)
def test_v75_still_refuses_the_sign_turned(claim: str) -> None:
    text = (
        f"Frequent consumption of sugar-sweetened beverages {claim} of type 2 diabetes, "
        "independent of body weight."
    )
    verdict, edits = _verdict(V75, text, BEVERAGES)
    assert verdict is not Verdict.SUPPORTED
    assert "allowed: same sign" not in edits
    assert "allowed: same association" not in edits


def test_v75_is_v74_reading_associations_in_a_copy() -> None:
    assert SCORE_MODELS["v75"] is V75
    assert DEFAULT_SCORE_MODEL != "v74"  # v75 until v76
    assert dataclasses.replace(V74, name="v75", edit_associations=True) == V75
    assert not V74.edit_associations
