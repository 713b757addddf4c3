"""Citation markers blanked out of a claim's words (score model v11), offsets kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.text.citations import blank_citations, citation_ranges


@pytest.mark.parametrize(
    ("text", "marker"),
    [
        ("Aspirin lowered stroke risk [12].", "[12]"),
        ("Aspirin lowered stroke risk [3, 4].", "[3, 4]"),
        ("Aspirin lowered stroke risk [5–7].", "[5–7]"),
        ("Aspirin lowered stroke risk [S1, S2].", "[S1, S2]"),
        ("Aspirin lowered stroke risk [<|cit|>].", "[<|cit|>]"),
        ("Aspirin lowered stroke risk (<|other_cit|>).", "<|other_cit|>"),
        ("Aspirin lowered stroke risk [<|multi_cit|>].", "[<|multi_cit|>]"),
        ("Aspirin lowered stroke risk (Smith et al., 2019).", "(Smith et al., 2019)"),
        ("Aspirin lowered stroke risk (Smith and Lee, 2019a; Park, 2020).",
         "(Smith and Lee, 2019a; Park, 2020)"),
        ("Aspirin lowered stroke risk (e.g., Smith, 2019).", "(e.g., Smith, 2019)"),
    ],
)  # fmt: skip
def test_a_marker_is_blanked_to_spaces(text: str, marker: str) -> None:
    start = text.index(marker)
    assert citation_ranges(text) == [(start, start + len(marker))]
    blanked = blank_citations(text)
    assert len(blanked) == len(text)
    assert blanked == text[:start] + " " * len(marker) + text[start + len(marker) :]


@pytest.mark.parametrize(
    "text",
    [
        "Of the patients (12) most recovered.",  # a count in round brackets
        "The odds ratio was 1.5 [95% CI 1.2-1.9].",  # an interval, not a reference
        "The odds ratio was 1.5 [1.2–1.9].",
        "Smith et al. (2019) showed that aspirin lowered stroke risk.",  # narrative citation
        "Levels rose in 2019 (after the change).",
        "Samples were sequenced (August-September 2013).",  # a date, not an author
        "Samples were sequenced (May 2020).",
    ],
)
def test_what_is_no_marker_is_left_alone(text: str) -> None:
    assert citation_ranges(text) == [] and blank_citations(text) == text


@given(st.text(max_size=80))
def test_blanking_keeps_every_offset(text: str) -> None:
    blanked = blank_citations(text)
    assert len(blanked) == len(text)
    kept = [i for i, ch in enumerate(blanked) if ch == text[i]]
    changed = set(range(len(text))) - set(kept)
    assert all(blanked[i] == " " for i in changed)
