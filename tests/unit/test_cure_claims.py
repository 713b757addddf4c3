"""Score model v40's reading of a cure claimed where the window states none
(:func:`spanproof.verify.gates.cure_not_stated`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.verify.gates import cure_not_stated


@pytest.mark.parametrize(
    ("claim", "word"),
    [
        ("Vitamin C cures COVID-19", "cures"),
        ("Drinking boiled garlic water will cure COVID-19.", "cure"),
        ("Patients were CURED by the new drug.", "CURED"),
    ],
)
def test_names_the_claims_cure_word(claim: str, word: str) -> None:
    found = cure_not_stated(claim, "The use of IV vitamin C in COVID-19 may be feasible.")
    assert found is not None
    assert claim[found[0] : found[1]] == word


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the window states a cure itself, in any of its forms
        ("Vitamin C cures COVID-19.", "Vitamin C cured most patients with COVID-19."),
        ("The drug cures hepatitis C.", "The regimen was curative in hepatitis C."),
        # a denied cure states none
        ("It's not a COVID cure, but it helps.", "Vitamin C may help."),
        ("There is no cure for COVID-19.", "No treatment has been shown to work."),
        ("Garlic does not cure COVID-19.", "Garlic may be a preventive measure."),
        # no cure word ("curfew", "curcumin", "procure" are none)
        ("Vitamin C helps patients recover.", "Vitamin C may help."),
        ("A curfew reduced spread.", "Curfews were imposed."),
        ("Curcumin treats the disease.", "Curcumin was given."),
    ],
    ids=[
        "stated",
        "curative",
        "not-a-cure",
        "no-cure",
        "does-not-cure",
        "no-word",
        "curfew",
        "curcumin",
    ],
)
def test_reads_nothing_else(claim: str, window: str) -> None:
    assert cure_not_stated(claim, window) is None


@given(st.text(max_size=80), st.text(max_size=80))
@settings(max_examples=300, deadline=None)
def test_any_texts_give_none_or_the_range_of_a_cure_word(claim: str, window: str) -> None:
    found = cure_not_stated(claim, window)
    if found is not None:
        start, end = found
        assert claim[start:end].lower().startswith("cur")
    assert cure_not_stated(claim + " cures", window + " cured") is None
