"""Score model v39's reading of a direction word with the thing it acts on
(:func:`spanproof.verify.gates.direction_reversed_on_object`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.verify.gates import OPPOSITE, direction_of, direction_reversed_on_object


def _found(claim: str, window: str) -> tuple[str, str] | None:
    found = direction_reversed_on_object(claim, window)
    if found is None:
        return None
    (cs, ce), (ws, we) = found
    return claim[cs:ce], window[ws:we]


@pytest.mark.parametrize(
    ("claim", "window", "words"),
    [
        (
            "Polymeal nutrition increases cardiovascular mortality.",
            "An alternative to reduce cardiovascular morbidity and increase life expectancy.",
            ("increases", "reduce"),
        ),
        # a nominal direction: "the increase in X"
        (
            "Alirocumab treatment reduces apo(a) fractional clearance rate.",
            "The increase in apo(a) FCR during alirocumab treatment was marked.",
            ("reduces", "increase"),
        ),
        # a measuring noun is skipped: the thing is what the severity is of
        (
            "Antidepressants increase the severity of migraines.",
            "Tricyclic antidepressants are effective in preventing migraine.",
            ("increase", "preventing"),
        ),
    ],
    ids=["verb", "noun", "measure"],
)
def test_names_the_claims_direction_and_the_windows_opposite(
    claim: str, window: str, words: tuple[str, str]
) -> None:
    assert _found(claim, window) == words


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the window states the claim's direction of the thing as well
        (
            "X reduces cardiac fibrosis.",
            "Y increased cardiac fibrosis, and X reduced cardiac scar.",
        ),
        # comparatives compare two sides: the comparison readings' to judge
        ("Masks are less effective than respirators.", "Respirators were more effective."),
        # a negated opposite states no direction
        ("X increases insulin sensitivity.", "X did not reduce insulin sensitivity."),
        # a passive names the agent after "by", not the thing
        ("X increases apoptosis.", "Apoptosis was reduced by Y in the same cells."),
        # different things
        ("X increases the risk of diabetes.", "X reduced the risk of stroke."),
        # one side inverts: the loss of X lowering Y agrees with X raising Y
        ("Loss of X decreases Y expression.", "X acts to stimulate Y expression."),
        # an agent noun names no direction
        ("X increases mTOR signalling.", "X is an inhibitor of mTOR signalling."),
        # no direction at all
        ("X binds Y.", "X reduced Y binding."),
    ],
    ids=[
        "also-stated",
        "comparative",
        "negated",
        "passive",
        "other-thing",
        "inverted",
        "agent-noun",
        "none",
    ],
)
def test_reads_nothing_else(claim: str, window: str) -> None:
    assert _found(claim, window) is None


_WORDS = st.sampled_from(
    ["increases", "reduced", "the", "risk", "of", "stroke", "not", "by", "loss", "more", "X",
     "inhibitor", "levels", "IL-6", "and", "cell", "death", "(", ")", ",", "Α", "é"]
)  # fmt: skip


@given(st.lists(_WORDS, max_size=25), st.lists(_WORDS, max_size=25))
@settings(max_examples=300, deadline=None)
def test_any_texts_give_none_or_ranges_of_opposite_direction_words(
    claim_words: list[str], window_words: list[str]
) -> None:
    claim, window = " ".join(claim_words), " ".join(window_words)
    found = direction_reversed_on_object(claim, window)
    if found is not None:
        (cs, ce), (ws, we) = found
        assert 0 <= cs < ce <= len(claim) and 0 <= ws < we <= len(window)
        assert (
            direction_of(claim[cs:ce].lower(), True)
            == OPPOSITE[str(direction_of(window[ws:we].lower(), True))]
        )
    # a text never reverses itself
    assert direction_reversed_on_object(claim, claim) is None
