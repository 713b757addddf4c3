"""The development data loads as its README describes (skips when ../shared/data is absent)."""

from __future__ import annotations

import pytest

from spanproof.evaluation.devdata import (
    covidfact,
    data_dir,
    healthver,
    scifact_claims,
    scifact_corpus,
)

ROOT = data_dir()
pytestmark = pytest.mark.skipif(
    ROOT is None, reason="../shared/data not found (SPANPROOF_DATA_DIR)"
)


def test_scifact_counts_match_the_data_readme() -> None:
    assert ROOT is not None
    assert len(scifact_corpus(ROOT)) == 5183
    claims = scifact_claims(ROOT)
    assert len(claims) == 809
    support = sum(
        1 for c in claims for sets in c.evidence.values() for lab, _ in sets if lab == "SUPPORT"
    )
    assert support > 0


def test_public_sets_have_three_way_labels() -> None:
    assert ROOT is not None
    cf = covidfact(ROOT)
    assert len(cf) == 4086
    assert {p.label for p in cf} == {"supported", "refuted"}
    hv = healthver(ROOT)
    assert len(hv) == 1917
    assert {p.label for p in hv} == {"supported", "refuted", "neutral"}
