"""Score model v38's reading of an effect claimed on a window that states only an association
(:func:`spanproof.verify.gates.association_stated_as_effect`)."""

from __future__ import annotations

import pytest

from spanproof.verify.gates import association_stated_as_effect


def test_names_the_claims_effect_word_and_the_windows_association_word() -> None:
    claim = "Dexamethasone increases the risk of bleeding."
    window = "Dexamethasone use was associated with postoperative bleeding."
    found = association_stated_as_effect(claim, window)
    assert found is not None
    (cs, ce), (ws, we) = found
    assert (claim[cs:ce], window[ws:we]) == ("increases", "associated")


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the claim states no effect
        ("Dexamethasone use is common after surgery.", "Dexamethasone was linked to bleeding."),
        # the claim states the association itself
        ("Dexamethasone is associated with bleeding.", "Dexamethasone was linked to bleeding."),
        # the window states no association
        ("Dexamethasone increases bleeding.", "Dexamethasone was given after surgery."),
        # the window states an effect (or writes an effect word beside its association)
        ("Dexamethasone increases bleeding.", "Dexamethasone increased bleeding."),
        ("Coffee lowers the risk.", "Coffee was associated with a lower risk."),
    ],
    ids=["no-effect", "association-claimed", "no-association", "effect-stated", "effect-word"],
)
def test_reads_nothing_else(claim: str, window: str) -> None:
    assert association_stated_as_effect(claim, window) is None


def test_words_are_read_whole_and_in_any_case() -> None:
    assert association_stated_as_effect("X REDUCES Y.", "X was CORRELATED with Y.") is not None
    # "reducer" and "linkage" are no such words
    assert association_stated_as_effect("X is a reducer of Y.", "X was linked to Y.") is None
    assert association_stated_as_effect("X reduces Y.", "The linkage of X and Y.") is None
