"""The shipped cross-encoder checker (score model v3's escalation), loaded offline without torch."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from spanproof.core.checker import CHECKER_LABELS, EntailmentChecker
from spanproof.core.errors import ConfigurationError
from spanproof.providers.checker.cross_encoder import (
    DEFAULT_CROSS_ENCODER_PATH,
    CrossEncoderChecker,
)

pytestmark = pytest.mark.model

CLAIM = "Aspirin reduced the risk of stroke in older adults."
PAIRS = [
    (CLAIM, "In older adults, aspirin reduced the risk of stroke."),
    (CLAIM, "In older adults, aspirin did not reduce the risk of stroke."),
    (CLAIM, "The weather in Paris was mild in the spring."),
]
NO_VECTOR = np.zeros(384, dtype=np.float32)


@pytest.fixture(scope="module")
def checker() -> CrossEncoderChecker:
    return CrossEncoderChecker()


def _pairs(pairs: list[tuple[str, str]]) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    return [(c, s, NO_VECTOR, NO_VECTOR) for c, s in pairs]


def test_it_ships_small_enough_and_loads_without_torch(checker: CrossEncoderChecker) -> None:
    assert DEFAULT_CROSS_ENCODER_PATH.stat().st_size <= 25_000_000
    meta = json.loads(DEFAULT_CROSS_ENCODER_PATH.with_suffix(".json").read_text())
    assert tuple(meta["labels"]) == CHECKER_LABELS and meta["quantization"] == "int8"
    assert isinstance(checker, EntailmentChecker)
    assert checker.model_id.startswith("spanproof-cross-encoder@sha256:")
    assert "torch" not in sys.modules


def test_probabilities_are_rows_that_sum_to_one_and_repeat(checker: CrossEncoderChecker) -> None:
    probs = checker.check(_pairs(PAIRS))
    assert probs.shape == (3, 3) and probs.dtype == np.float32
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert np.array_equal(probs, checker.check(_pairs(PAIRS)))
    # a pair's probabilities do not depend on the other pairs asked with it (one pair a call)
    single = np.vstack([checker.check(_pairs([p])) for p in PAIRS])
    assert np.array_equal(single, probs)
    assert np.array_equal(checker.check(_pairs(PAIRS[::-1])), probs[::-1])
    assert checker.check([]).shape == (0, 3)


def test_it_reads_claim_and_span_together(checker: CrossEncoderChecker) -> None:
    entailed, negated, unrelated = checker.check(_pairs(PAIRS))
    assert entailed[0] > negated[0]  # the negation lowers entailment
    assert negated[1] > entailed[1]  # and raises contradiction
    assert unrelated[0] < entailed[0]


def test_a_missing_model_is_a_clear_error(tmp_path: object) -> None:
    from pathlib import Path

    with pytest.raises(ConfigurationError, match="make train-cross-encoder"):
        CrossEncoderChecker(Path(str(tmp_path)) / "none.onnx")


def test_the_offline_record_checker_has_the_model_beside_the_rules_by_default() -> None:
    from spanproof.bootstrap import build_record_checker
    from spanproof.config import Settings
    from spanproof.evidence.checker import check
    from spanproof.services.record_checking import ModelAssistedChecker

    rules_only = Settings(verify={"record_model_check": False})  # type: ignore[arg-type]
    assert build_record_checker(rules_only) is check
    assisted = build_record_checker(Settings())  # the offline default: the model beside the rules
    assert isinstance(assisted, ModelAssistedChecker)
    assert assisted.model_id.startswith("rules-checker-v1+spanproof-cross-encoder@sha256:")
