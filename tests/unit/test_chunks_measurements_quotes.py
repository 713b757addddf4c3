"""Chunking, measurement finding and quotation finding: pure text behaviour."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.services.spans import find_quotation
from spanproof.text.chunks import chunk_ranges
from spanproof.text.measurements import find_measurements
from spanproof.text.tokens import segments

PROSE = (
    "Mice received 12.5 mg/kg of the drug daily. Body temperature stayed at 37 °C. "
    "Systolic pressure fell by 5 mmHg after 12 weeks. The effect was largest in older animals."
)


def test_chunks_are_sentence_aligned_and_cover_every_word() -> None:
    ranges = chunk_ranges(PROSE, max_tokens=12)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(PROSE)
    for (_, end), (start, _) in itertools.pairwise(ranges):
        assert end <= start  # no overlap
        assert PROSE[end:start].strip() == ""  # nothing but whitespace between chunks
    for start, end in ranges:
        assert PROSE[end - 1] == "."  # each chunk ends at a sentence end here
        assert len(segments(PROSE[start:end])) <= 12


def test_a_sentence_longer_than_the_bound_is_cut_at_word_boundaries() -> None:
    long = " ".join(f"word{i}" for i in range(50)) + "."
    ranges = chunk_ranges(long, max_tokens=20)
    assert len(ranges) == 3
    assert all(len(segments(long[s:e])) <= 20 for s, e in ranges)
    assert " ".join(long[s:e] for s, e in ranges) == long


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=1, max_value=30))
def test_chunks_never_lose_a_word(text: str, bound: int) -> None:
    ranges = chunk_ranges(text, max_tokens=bound)
    for _, start, end in segments(text):
        assert any(s <= start and end <= e for s, e in ranges)
    assert all(s < e for s, e in ranges)


def test_measurements_keep_value_unit_and_span_without_converting() -> None:
    found = find_measurements(PROSE)
    got = [(m.value, m.unit, PROSE[m.start : m.end]) for m in found]
    assert (12.5, "mg/kg", "12.5 mg/kg") in got
    assert (37.0, "°C", "37 °C") in got
    assert (5.0, "mmHg", "5 mmHg") in got
    assert (12.0, "weeks", "12 weeks") in got


def test_words_that_only_look_like_units_are_not_measurements() -> None:
    assert find_measurements("We enrolled 240 patients in 3 cities and 2 of them left.") == []


def test_quotation_is_found_ignoring_whitespace_differences() -> None:
    text = "The drug   lowered\nblood pressure by 5 mmHg."
    match = find_quotation(text, "lowered blood pressure")
    assert match.found
    assert text[match.start : match.end] == "lowered\nblood pressure"


def test_quotation_not_found_shows_the_closest_passage() -> None:
    match = find_quotation(PROSE, "Systolic pressure fell by 9 mmHg after 12 weeks")
    assert not match.found
    assert "Systolic pressure fell by 5 mmHg" in match.closest
    assert 0.8 < match.similarity < 1.0
