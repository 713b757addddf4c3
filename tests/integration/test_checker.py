"""The shipped ONNX entailment checker (issue 7), with the bundled MiniLM embeddings."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from spanproof.core.checker import CHECKER_LABELS, EntailmentChecker
from spanproof.core.errors import ConfigurationError, InvalidInputError
from spanproof.providers.checker import OnnxEntailmentChecker
from spanproof.providers.checker.onnx_checker import DEFAULT_MODEL_PATH
from spanproof.providers.embeddings import OnnxMiniLMEmbedder
from spanproof.verify.features import FEATURE_VERSION, feature_count

pytestmark = pytest.mark.model

ENTAILED = (
    "Aspirin reduced the risk of stroke in older adults.",
    "In older adults, aspirin reduced the risk of stroke.",
)
NEGATED = (
    "Aspirin reduced the risk of stroke in older adults.",
    "In older adults, aspirin did not reduce the risk of stroke.",
)
PAIRS = [
    ENTAILED,
    NEGATED,
    ("Vitamin D supplementation reduced fractures.", "Vitamin D did not reduce fractures."),
    (
        "Metformin lowers blood glucose in patients with type 2 diabetes.",
        "In patients with type 2 diabetes, metformin lowered blood glucose levels.",
    ),
    ("Metformin lowers blood glucose.", "The weather in Paris was mild in the spring."),
    ("The trial enrolled 120 patients.", "The trial enrolled 210 patients."),
]


@pytest.fixture(scope="module")
def checker() -> OnnxEntailmentChecker:
    return OnnxEntailmentChecker()


@pytest.fixture(scope="module")
def embedded() -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    texts = sorted({t for pair in PAIRS for t in pair})
    vectors = dict(zip(texts, OnnxMiniLMEmbedder().embed(texts), strict=True))
    return [(c, s, vectors[c], vectors[s]) for c, s in PAIRS]


def test_loads_the_shipped_model_offline_without_torch(checker: OnnxEntailmentChecker) -> None:
    assert isinstance(checker, EntailmentChecker)
    assert checker.model_path == DEFAULT_MODEL_PATH
    assert DEFAULT_MODEL_PATH.stat().st_size <= 25 * 1024 * 1024
    assert re.fullmatch(
        rf"spanproof-checker-{FEATURE_VERSION}@sha256:[0-9a-f]{{12}}", checker.model_id
    )
    assert checker.model_hash.startswith(checker.model_id.rsplit(":", 1)[1])
    assert checker.labels == CHECKER_LABELS == ("entailed", "contradicted", "neutral")
    assert "torch" not in sys.modules


def test_model_card_matches_the_shipped_model(checker: OnnxEntailmentChecker) -> None:
    card = json.loads(DEFAULT_MODEL_PATH.with_suffix(".json").read_text(encoding="utf-8"))
    assert card["feature_version"] == FEATURE_VERSION
    assert card["labels"] == list(CHECKER_LABELS)
    assert card["onnx_sha256"] == checker.model_hash
    assert card["input"]["shape"][1] == feature_count()


def test_probabilities_are_distributions(
    checker: OnnxEntailmentChecker, embedded: list[tuple[str, str, np.ndarray, np.ndarray]]
) -> None:
    probs = checker.check(embedded)
    assert probs.shape == (len(PAIRS), 3)
    assert probs.dtype == np.float32
    assert (probs >= 0).all()
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert checker.check([]).shape == (0, 3)


def test_clear_entailment_scores_entailed_highest(
    checker: OnnxEntailmentChecker, embedded: list[tuple[str, str, np.ndarray, np.ndarray]]
) -> None:
    probs = checker.check(embedded)
    assert int(np.argmax(probs[0])) == CHECKER_LABELS.index("entailed")
    assert int(np.argmax(probs[3])) == CHECKER_LABELS.index("entailed")


def test_unrelated_span_is_not_entailed(
    checker: OnnxEntailmentChecker, embedded: list[tuple[str, str, np.ndarray, np.ndarray]]
) -> None:
    probs = checker.check(embedded)
    assert probs[4, 0] < 0.5
    assert int(np.argmax(probs[4])) == CHECKER_LABELS.index("neutral")


def test_negation_flip_reads_as_contradiction(
    checker: OnnxEntailmentChecker, embedded: list[tuple[str, str, np.ndarray, np.ndarray]]
) -> None:
    probs = checker.check(embedded)
    entailed, contradicted = CHECKER_LABELS.index("entailed"), CHECKER_LABELS.index("contradicted")
    for row in (1, 2):
        assert probs[row, contradicted] > probs[row, entailed], PAIRS[row]
    # The negation moves probability away from "entailed" relative to the faithful pair.
    assert probs[1, entailed] < probs[0, entailed]


def test_deterministic_across_calls_batches_and_instances(
    checker: OnnxEntailmentChecker, embedded: list[tuple[str, str, np.ndarray, np.ndarray]]
) -> None:
    first = checker.check(embedded)
    assert checker.check(embedded).tobytes() == first.tobytes()
    small_batches = OnnxEntailmentChecker(batch_size=2).check(embedded)
    np.testing.assert_allclose(small_batches, first, rtol=0, atol=1e-6)
    one_by_one = np.vstack([checker.check([pair]) for pair in embedded])
    np.testing.assert_allclose(one_by_one, first, rtol=0, atol=1e-6)


def test_wrong_embedding_width_is_rejected(checker: OnnxEntailmentChecker) -> None:
    with pytest.raises(InvalidInputError, match="384"):
        checker.check([("a", "b", np.ones(8, dtype=np.float32), np.ones(8, dtype=np.float32))])


def test_missing_or_broken_model_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="not found"):
        OnnxEntailmentChecker(tmp_path / "absent.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not an onnx file")
    with pytest.raises(ConfigurationError, match="cannot load"):
        OnnxEntailmentChecker(broken)
    with pytest.raises(ConfigurationError, match="batch_size"):
        OnnxEntailmentChecker(batch_size=0)
