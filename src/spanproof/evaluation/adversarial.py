"""Adversarial claim builders (the seed's classes), applied to real sentences.

Each builder is deterministic: a choice between several applicable edits is made by a hash of
the sentence, so the same data always gives the same classes. A builder returns None when the
sentence offers nothing to edit (no number, no entity, no negatable verb).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from spanproof.text.numerics import canonical_number, numerics
from spanproof.text.tokens import segments, token_texts
from spanproof.verify.gates import entity_shape

_AUX = re.compile(
    r"\b(is|are|was|were|did|does|do|can|could|has|have|had|may|might|will|would|should)\b"
)
_NOT = re.compile(r"\b(not|never) ")
_DIRECTION_SWAPS = {
    "increased": "decreased",
    "decreased": "increased",
    "increases": "decreases",
    "decreases": "increases",
    "increase": "decrease",
    "decrease": "increase",
    "higher": "lower",
    "lower": "higher",
    "reduced": "increased",
    "reduces": "increases",
    "reduce": "increase",
    "elevated": "reduced",
    "greater": "smaller",
    "more": "less",
    "less": "more",
    "improved": "worsened",
    "improves": "worsens",
    "enhanced": "impaired",
    "inhibits": "promotes",
    "inhibited": "promoted",
    "promotes": "inhibits",
    "promoted": "inhibited",
    "upregulated": "downregulated",
    "downregulated": "upregulated",
}
_DIRECTION = re.compile(r"\b(" + "|".join(sorted(_DIRECTION_SWAPS, key=len, reverse=True)) + r")\b")


def _pick(key: str, n: int) -> int:
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "little") % n


def _bump(number: str) -> str:
    """A different number in the same format: the last digit moves by one (9 → 8)."""
    digits = [i for i, ch in enumerate(number) if ch.isdigit()]
    last = digits[-1]
    old = int(number[last])
    new = old + 1 if old < 9 else old - 1
    return number[:last] + str(new) + number[last + 1 :]


def number_swap(sentence: str, avoid: str = "") -> str | None:
    """Change one number of the sentence to a value neither it nor ``avoid`` (the evidence)
    contains, so the edited claim is unsupported by construction."""
    present = set(numerics(token_texts(avoid)))
    numbers: list[tuple[int, int, str]] = []
    for surface, start, end in segments(sentence):
        atom = canonical_number(surface)
        if atom is not None:
            present.add(atom)
            numbers.append((start, end, surface))
    if not numbers:
        return None
    start, end, surface = numbers[_pick(sentence, len(numbers))]
    new = surface
    for _ in range(10):
        new = _bump(new)
        if canonical_number(new) not in present:
            break
    else:
        return None
    return sentence[:start] + new + sentence[end:]


def entities_of(sentence: str) -> list[tuple[int, int, str, str]]:
    """(start, end, surface, shape) of each entity-like token."""
    out = []
    for index, (surface, start, end) in enumerate(segments(sentence)):
        shape = entity_shape(surface, index == 0)
        if shape is not None:
            out.append((start, end, surface, shape))
    return out


def entity_swap(sentence: str, pool: Sequence[tuple[str, str]], avoid: str) -> str | None:
    """Replace one entity with a same-shaped entity from ``pool`` that ``avoid`` lacks.

    Args:
        sentence: the source sentence.
        pool: (surface, shape) entities taken from *other* documents.
        avoid: text the replacement must not occur in (the evidence), case-insensitively.
    """
    found = entities_of(sentence)
    if not found:
        return None
    start, end, surface, shape = found[_pick(sentence, len(found))]
    options = [
        s
        for s, sh in pool
        if sh == shape and s.lower() != surface.lower() and s.lower() not in avoid.lower()
    ]
    if not options:
        return None
    replacement = options[_pick(sentence + surface, len(options))]
    return sentence[:start] + replacement + sentence[end:]


def negation_flip(sentence: str) -> str | None:
    """Flip the sentence's polarity: add or remove a negation, or reverse a direction word."""
    edits: list[str] = []
    match = _NOT.search(sentence)
    if match:
        edits.append(sentence[: match.start()] + sentence[match.end() :])
    match = _AUX.search(sentence)
    if match:
        edits.append(sentence[: match.end()] + " not" + sentence[match.end() :])
    match = _DIRECTION.search(sentence)
    if match:
        word = match.group(1)
        edits.append(sentence[: match.start()] + _DIRECTION_SWAPS[word] + sentence[match.end() :])
    if not edits:
        return None
    return edits[_pick(sentence, len(edits))]
