"""Citation markers inside a sentence: "[12]", "[3, 4]", "[5–7]", "(Smith et al., 2019)".

A claim copied from a paper, or written by a model that cites its sources, carries reference
markers that are not part of what it states: "12" in "… fibrillation [12]." is no figure of the
finding and "Smith" in "(Smith et al., 2019)" no entity of it. :func:`blank_citations` replaces
each marker with spaces of the same length, so every offset into the text stays valid (edits and
spans still point into the original claim) while a reader of words no longer sees the marker.

Read as markers: square brackets holding only reference numbers, ranges and lists ("[12]",
"[3, 4]", "[5–7]"), this project's own span markers ("[S1]", "[S1, S2]"), the placeholders
``<|cit|>``, ``<|other_cit|>`` and ``<|multi_cit|>`` that citation data sets put where a
marker stood, and a parenthetical author–year
citation ("(Smith, 2019)", "(Smith et al., 2019a; Lee and Park, 2020)"). Left alone: a number in
round brackets ("(12)" may be a count), a bracket with anything else in it ("[95% CI 1.2–3.4]"),
a date in round brackets ("(August-September 2013)"), and a narrative citation ("Smith et al.
showed"), whose name is part of the sentence.
"""

from __future__ import annotations

import re

_NUMBER_LIST = r"\d{1,4}(?:\s*[-–—,;]\s*\d{1,4})*"
_SPAN_LIST = r"S\d+(?:\s*[,;]\s*S\d+)*"
_PLACEHOLDER = r"<\|(?:other_|multi_)?cit\|>"
#: A date in brackets is no citation: "(August-September 2013)", "(May 2020)".
_NOT_NAME = (
    r"(?!(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Spring|Summer|Autumn|Fall"
    r"|Winter)\b)"
)
_NAME = rf"{_NOT_NAME}[A-Z][\w'’-]+"
_AUTHORS = rf"{_NAME}(?:\s+et\s+al\.?|\s+(?:and|&)\s+{_NAME})?"
_AUTHOR_YEAR = rf"{_AUTHORS},?\s+(?:19|20)\d{{2}}[a-z]?"
_CITATION = re.compile(
    rf"\[\s*(?:{_NUMBER_LIST}|{_SPAN_LIST}|{_PLACEHOLDER}(?:\s*[,;]?\s*{_PLACEHOLDER})*)\s*\]"
    rf"|{_PLACEHOLDER}"
    rf"|\(\s*(?:e\.g\.,?\s+|see\s+)?{_AUTHOR_YEAR}(?:\s*[;,]\s*{_AUTHOR_YEAR})*\s*\)"
)


def citation_ranges(text: str) -> list[tuple[int, int]]:
    """The character ranges of the citation markers in ``text``, in order."""
    return [m.span() for m in _CITATION.finditer(text)]


def blank_citations(text: str) -> str:
    """``text`` with each citation marker replaced by as many spaces (offsets unchanged)."""
    return _CITATION.sub(lambda m: " " * (m.end() - m.start()), text)
