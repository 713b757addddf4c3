"""Score model v60: a copied sentence with one phrase of several words put in for another's is a
near copy with a substitution, not a rewording the edit check does not read."""

from __future__ import annotations

import pytest

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier
from spanproof.verify.edits import near_copy

EVIDENCE = [
    {
        "id": "S1",
        "text": "IL-17 is a novel CD4+ T cell-restricted cytokine that is produced by a distinct "
        "lineage of T helper cells.",
    }
]


def verdict(model: str, draft: str) -> tuple[str, str]:
    claim = Verifier(score_model=model).verify(draft, EVIDENCE).claims[0]
    return claim.verdict.value, "; ".join(e.judgement or "" for e in claim.edits)


@pytest.mark.parametrize(
    "draft",
    [
        "Magnetic resonance imaging is a novel CD4+ T cell-restricted cytokine.",
        "Tumour necrosis factor is a novel CD4+ T cell-restricted cytokine.",
        "IL-17 is produced by a distinct lineage of dendritic antigen presenting cells.",
    ],
)
def test_a_phrase_of_three_words_or_more_put_in_is_refused(draft: str) -> None:
    said, edits = verdict("v60", draft)
    assert said != Verdict.SUPPORTED
    assert "unsupported" in edits  # read as an edit, not left to closeness
    assert verdict("v59", draft)[0] == Verdict.SUPPORTED  # v59 read it as a rewording


def test_the_copy_itself_and_a_shortened_copy_stay_supported() -> None:
    assert verdict("v60", "IL-17 is a novel CD4+ T cell-restricted cytokine.")[0] == "supported"
    draft = "IL-17 is produced by a distinct lineage of T helper cells."
    assert verdict("v60", draft)[0] == Verdict.SUPPORTED


def test_one_long_run_makes_a_near_copy_only_beside_enough_copied_words() -> None:
    run = [False] * 3
    assert not near_copy([*run, *[True] * 5])  # three changed: not under v59
    assert near_copy([*run, *[True] * 5], long_run=6)  # five of eight copied
    assert not near_copy([*run, True, True, True, True], long_run=6)  # four of seven: 57 %
    assert not near_copy([*[False] * 5, True, True, True, True], long_run=6)  # 4 of 9 copied
    assert not near_copy([*[False] * 7, *[True] * 12], long_run=6)  # a run longer than six
    assert near_copy([*[False] * 6, *[True] * 9], long_run=6)  # 9 of 15: 60 %
    two = [False, False, False, True, True, True, False, True, True, True]
    assert not near_copy(two, long_run=6)  # two runs, one of them long


def test_a_name_for_the_window_s_pronoun_is_read_as_before() -> None:
    evidence = [{"id": "S1", "text": "It is ranked 12th in the 2016 QS World University Rankings."}]
    draft = (
        "The University of Chicago Law School is ranked 12th in the 2016 QS World University "
        "Rankings."
    )
    for model in ("v59", "v60"):
        claim = Verifier(score_model=model).verify(draft, evidence).claims[0]
        assert not claim.edits  # no near copy: the name is left to the rest of the reading
    v59 = Verifier(score_model="v59").verify(draft, evidence).claims[0]
    v60 = Verifier(score_model="v60").verify(draft, evidence).claims[0]
    assert (v60.verdict, v60.score) == (v59.verdict, v59.score)
