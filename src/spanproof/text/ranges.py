"""Character ranges of a text: ``(start, end)`` pairs, end exclusive."""

from __future__ import annotations

from collections.abc import Iterable


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort ranges and merge those that overlap (touching ranges merge too).

    >>> merge_ranges([(5, 7), (0, 2), (2, 3), (6, 9)])
    [(0, 3), (5, 9)]
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
