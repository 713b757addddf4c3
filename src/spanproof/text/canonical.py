"""Canonical text (SPEC §2): NFC, every whitespace run (Unicode included) to one space, trimmed.

Applied once, at parse time. Offsets everywhere else index canonical text.
"""

from __future__ import annotations

import re
import unicodedata

_WS = re.compile(r"\s+")
# Control characters other than whitespace carry no text; NUL and friends are dropped.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def canonical_text(text: str) -> str:
    """The canonical form of ``text``."""
    # Controls go first: dropped after NFC, they could leave a base letter and its combining
    # mark side by side uncomposed, and a second pass would then change the text.
    text = _CONTROL.sub("", text)
    text = unicodedata.normalize("NFC", text)
    return _WS.sub(" ", text).strip()
