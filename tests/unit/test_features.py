"""Pair features of the trained entailment checker (spanproof.verify.features)."""

from __future__ import annotations

import numpy as np
import pytest

from spanproof.verify.features import (
    EMBEDDING_DIM,
    FEATURE_VERSION,
    SCALAR_FEATURES,
    feature_count,
    pair_features,
)

D = EMBEDDING_DIM


def _vecs(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    u = rng.normal(size=D).astype(np.float32)
    v = (u + 0.3 * rng.normal(size=D)).astype(np.float32)
    return u, v


def _scalars(claim: str, span: str) -> dict[str, float]:
    u, v = _vecs()
    out = pair_features(claim, span, u, v)
    return dict(zip(SCALAR_FEATURES, (float(x) for x in out[2 * D :]), strict=True))


def test_shape_dtype_and_version() -> None:
    assert SCALAR_FEATURES[0] == "cosine"
    u, v = _vecs()
    out = pair_features("Aspirin reduces stroke risk.", "Aspirin lowered the risk of stroke.", u, v)
    assert out.dtype == np.float32
    assert out.shape == (feature_count(),) == (2 * D + len(SCALAR_FEATURES),)
    assert len(set(SCALAR_FEATURES)) == len(SCALAR_FEATURES)
    assert FEATURE_VERSION == "f1"


def test_deterministic_bytes() -> None:
    u, v = _vecs(3)
    a = pair_features("BRCA1 raises cancer risk by 40%.", "BRCA1 carriers: risk up 40%.", u, v)
    b = pair_features("BRCA1 raises cancer risk by 40%.", "BRCA1 carriers: risk up 40%.", u, v)
    assert a.tobytes() == b.tobytes()


def test_embedding_blocks_are_product_and_abs_difference_of_unit_vectors() -> None:
    u, v = _vecs(1)
    out = pair_features("a claim", "a span", 5.0 * u, v)  # scale does not matter
    un = u / np.linalg.norm(u)
    vn = v / np.linalg.norm(v)
    np.testing.assert_allclose(out[:D], un * vn, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(out[D : 2 * D], np.abs(un - vn), rtol=1e-5, atol=1e-7)
    assert float(out[2 * D]) == pytest.approx(float(un @ vn), abs=1e-6)  # "cosine" comes first


def test_identical_vectors_give_cosine_one_and_zero_difference() -> None:
    u, _ = _vecs()
    out = pair_features("same", "same", u, u)
    assert float(out[2 * D]) == pytest.approx(1.0, abs=1e-6)
    assert not out[D : 2 * D].any()


def test_mismatched_dimensions_raise() -> None:
    with pytest.raises(ValueError, match="dimensions"):
        pair_features("a", "b", np.ones(4), np.ones(5))


def test_negation_flip_changes_negation_features() -> None:
    same = _scalars("Metformin reduced HbA1c.", "Metformin reduced HbA1c in adults.")
    flipped = _scalars("Metformin reduced HbA1c.", "Metformin did not reduce HbA1c in adults.")
    assert same["negation_parity_diff"] == 0.0
    assert flipped["negation_parity_diff"] == 1.0
    assert flipped["polarity_gate"] == 1.0
    assert flipped["span_only_negation"] == 1.0
    assert flipped["span_negations"] == 1.0
    assert same["span_negations"] == 0.0


def test_direction_opposition() -> None:
    up = _scalars("Exercise increased bone density.", "Exercise increased bone density.")
    down = _scalars("Exercise increased bone density.", "Exercise decreased bone density.")
    assert up["direction_opposition"] == 0.0
    assert down["direction_opposition"] == 1.0
    assert down["negation_parity_diff"] == 0.0


def test_numbers_feature() -> None:
    match = _scalars("The trial enrolled 120 patients.", "In all, 120 patients were enrolled.")
    swap = _scalars("The trial enrolled 120 patients.", "In all, 210 patients were enrolled.")
    none = _scalars("The trial enrolled patients.", "In all, 210 patients were enrolled.")
    assert match["claim_has_numbers"] == 1.0
    assert (match["numeric_gate"], match["numeric_missing_frac"]) == (0.0, 0.0)
    assert (swap["numeric_gate"], swap["numeric_missing_frac"]) == (1.0, 1.0)
    assert (none["claim_has_numbers"], none["numeric_gate"]) == (0.0, 0.0)


def test_v2_numerics_modal_may_is_not_a_month() -> None:
    s = _scalars("Group 2 may benefit.", "Group 2 showed a benefit.")
    assert s["numeric_gate"] == 0.0


def test_entity_swap_trips_entity_gate() -> None:
    swap = _scalars("Blocking TNF eased arthritis.", "Blocking IFN eased arthritis.")
    same = _scalars("Blocking TNF eased arthritis.", "Blocking TNF eased arthritis in mice.")
    assert swap["entity_gate"] == 1.0
    assert swap["entity_missing_frac"] == 1.0
    assert same["entity_gate"] == 0.0
    assert same["claim_has_entities"] == 1.0


def test_coverage_features() -> None:
    s = _scalars("Vitamin D reduces fractures.", "Vitamin D reduces fractures in older adults.")
    assert s["cov_claim_tokens"] == 1.0
    assert s["cov_claim_stems"] == 1.0
    assert s["missing_content_log"] == 0.0
    assert s["cov_span_tokens"] == pytest.approx(4 / 7)
    stem_only = _scalars("Vitamin D reduced fractures.", "Vitamin D reduces fractures.")
    assert stem_only["cov_claim_tokens"] == pytest.approx(3 / 4)
    assert stem_only["cov_claim_stems"] == 1.0


def test_aligned_sentence_is_the_one_covering_the_claim() -> None:
    span = "Smoking was common. Statins did not lower mortality."
    s = _scalars("Statins lowered mortality.", span)
    assert s["aligned_negations"] == 1.0
    assert s["negation_parity_diff"] == 1.0
    other = _scalars("Smoking was common.", span)
    assert other["aligned_negations"] == 0.0
    assert other["negation_parity_diff"] == 0.0
    assert other["negation_parity_diff_span"] == 1.0


def test_length_features_and_empty_text() -> None:
    s = _scalars("", "")
    assert s["cov_claim_tokens"] == 0.0
    assert s["claim_tokens_log"] == 0.0
    assert s["length_ratio_log"] == 0.0
    u, v = _vecs()
    assert np.isfinite(pair_features("", "", u, v)).all()
    assert np.isfinite(pair_features("a", "b", np.zeros(D), v)).all()


def test_hedges_are_counted() -> None:
    s = _scalars("Zinc may possibly shorten colds.", "Zinc shortens colds.")
    assert s["claim_hedges"] == 2.0
    assert s["span_hedges"] == 0.0
