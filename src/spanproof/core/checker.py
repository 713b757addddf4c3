"""The entailment checker port (issue 7; SPEC §4.5 escalation and the §5.3 model check).

A checker reads (claim, span) pairs with their embeddings and returns one probability row per
pair over :data:`CHECKER_LABELS`, in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = ["CHECKER_LABELS", "CheckerPair", "EntailmentChecker"]

#: Column order of every probability matrix a checker returns.
CHECKER_LABELS: tuple[str, str, str] = ("entailed", "contradicted", "neutral")

#: One pair to check: claim text, span text, claim embedding, span embedding (same embedder).
CheckerPair = tuple[str, str, npt.NDArray[np.float32], npt.NDArray[np.float32]]


@runtime_checkable
class EntailmentChecker(Protocol):
    """Labels (claim, span) pairs as entailed, contradicted or neutral.

    The label order is fixed: column 0 is ``entailed`` (the span states the claim), column 1
    ``contradicted`` (the span states the opposite), column 2 ``neutral`` (the span settles
    neither). Implementations are deterministic: the same pairs give the same probabilities.
    """

    @property
    def model_id(self) -> str:
        """A stable name that pins the checker's weights, recorded with every result."""
        ...

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """Probabilities ``(len(pairs), 3)`` in :data:`CHECKER_LABELS` order; rows sum to 1.

        The embeddings must come from the embedder the checker was trained with (its model
        card names it); an empty ``pairs`` gives a ``(0, 3)`` array.
        """
        ...
