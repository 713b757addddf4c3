"""The reworded-substitution probe (scripts/probe_reworded.py): what was swapped, from a case's
detail."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_reworded import swapped

from spanproof.evaluation.realistic import EditCase


def _case(detail: str) -> EditCase:
    return EditCase(
        "reworded_substitution", "claim", "evidence", "1", "heldout", "not_supported", detail
    )


def test_one_word_or_a_phrase_is_read_from_the_detail() -> None:
    assert swapped(_case("SciFact claim 46: DGKK -> APOJ")) == "word"
    assert swapped(_case("SciFact claim 7: regulatory T cells -> natural killer cells")) == "phrase"
    assert swapped(_case("SciFact claim 9: IL-6 -> IL-10")) == "word"
