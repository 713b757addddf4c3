"""A text as a reader sees it: invisible format characters left out, with the way back.

Text copied from a web page or a PDF carries invisible format characters (Unicode category Cf:
a zero-width space, a soft hyphen, a word joiner, a byte-order mark, direction marks), often
inside words ("hospital\u200bisation"), where a word reader sees two words. The evidence a
claim rests on keeps its canonical text (its offsets are what a trace points into), so it is
read through a :class:`VisibleText`: the same text without those characters, and the map from
each offset of it back to the canonical text.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

#: Invisible format characters (Unicode category Cf): a zero-width space or joiner, a soft
#: hyphen, a word joiner, a byte-order mark, direction marks. Text copied from a web page or a
#: PDF, and some models' output, carry them inside words ("Zü\u200brich"), where a word reader
#: would see two words.
INVISIBLE = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]"
)


@dataclass(frozen=True, slots=True)
class VisibleText:
    """A text without its invisible format characters (:data:`INVISIBLE`).

    Attributes:
        original: the text as given.
        text: ``original`` without them.
        kept: for each character of ``text``, its offset in ``original``.
    """

    original: str
    text: str
    kept: tuple[int, ...]

    def start(self, offset: int) -> int:
        """The offset in ``original`` where a range starting at ``offset`` of ``text`` starts."""
        if offset >= len(self.kept):
            return len(self.original)
        return self.kept[max(offset, 0)]

    def end(self, offset: int) -> int:
        """The offset in ``original`` where a range ending at ``offset`` of ``text`` ends (just
        after its last visible character, so a range never takes in what follows it)."""
        if offset <= 0:
            return 0
        return self.kept[min(offset, len(self.kept)) - 1] + 1

    def range(self, start: int, end: int) -> tuple[int, int]:
        """A range of ``text`` as a range of ``original``; an empty one stays empty."""
        if end <= start:
            at = self.start(start)
            return at, at
        return self.start(start), self.end(end)

    def visible(self, offset: int) -> int:
        """The offset in ``text`` of an offset of ``original``: the visible characters before it."""
        return bisect_left(self.kept, offset)  # the first kept character at or after it


def visible_text(text: str) -> VisibleText | None:
    """``text`` without its invisible format characters, or None when it has none."""
    if INVISIBLE.search(text) is None:
        return None
    kept = tuple(i for i, ch in enumerate(text) if INVISIBLE.match(ch) is None)
    return VisibleText(text, "".join(text[i] for i in kept), kept)
