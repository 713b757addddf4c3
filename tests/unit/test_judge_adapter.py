"""The judge adapter: every pair of a call batched, results independent of the batch.

The model tests read whatever judge ships at ``spanproof/models/judge.onnx`` (``make
quantize-judge``) and skip when there is none; the tokenisation, batching and error tests need
no judge model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spanproof.core.checker import CHECKER_LABELS, EntailmentChecker
from spanproof.core.errors import ConfigurationError
from spanproof.providers.checker import judge as judge_module
from spanproof.providers.checker.cross_encoder import DEFAULT_CROSS_ENCODER_PATH, length_batches
from spanproof.providers.checker.judge import (
    BATCH_INDEPENDENT,
    DEFAULT_JUDGE_PATH,
    JudgeChecker,
    PairEncoder,
)

pytestmark = pytest.mark.model

CLAIM = "Aspirin reduced the risk of stroke in older adults."
WINDOW = "In older adults, aspirin reduced the risk of stroke. The effect was larger in men."
NEGATED = "In older adults, aspirin did not reduce the risk of stroke."
LONG_WINDOW = " ".join(f"Sentence {i} of the trial report lists outcome {i}." for i in range(80))
PAIRS = [
    (CLAIM, WINDOW),
    (CLAIM, NEGATED),
    (CLAIM, "The weather in Paris was mild in the spring."),
    (CLAIM, LONG_WINDOW),
    ("Vitamin D did not change fracture rates.", WINDOW),
    ("Walking daily lowered systolic blood pressure by 5 mmHg.", "Walking lowered it. " * 12),
]
NO_VECTOR = np.zeros(384, dtype=np.float32)
needs_judge = pytest.mark.skipif(
    not DEFAULT_JUDGE_PATH.is_file(), reason="no judge.onnx shipped yet (`make quantize-judge`)"
)


@pytest.fixture(scope="module")
def judge() -> JudgeChecker:
    if not DEFAULT_JUDGE_PATH.is_file():
        pytest.skip("no judge.onnx shipped yet (`make quantize-judge`)")
    return JudgeChecker()


@pytest.fixture(scope="module")
def encoder() -> PairEncoder:
    return PairEncoder(64)


def _checker_pairs(pairs: list[tuple[str, str]]) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    return [(c, s, NO_VECTOR, NO_VECTOR) for c, s in pairs]


@needs_judge
def test_a_pair_gets_the_same_probabilities_alone_as_inside_any_batch(judge: JudgeChecker) -> None:
    batched = judge.check_texts(PAIRS)
    alone = np.vstack([judge.check_texts([p]) for p in PAIRS])
    assert np.allclose(batched, alone, rtol=0, atol=1e-5)
    # another batch composition: the pairs reversed, among others, in one batch of any length
    mixed = [*PAIRS[::-1], (CLAIM, CLAIM), ("Coffee raised heart rate.", WINDOW)]
    one_batch = JudgeChecker(batch_size=64, max_padding=float("inf")).check_texts(mixed)
    assert np.allclose(one_batch[: len(PAIRS)][::-1], alone, rtol=0, atol=1e-5)


@needs_judge
def test_the_same_pairs_give_the_same_bits(judge: JudgeChecker) -> None:
    first = judge.check(_checker_pairs(PAIRS))
    assert first.dtype == np.float32 and first.shape == (len(PAIRS), 3)
    assert np.array_equal(first, judge.check(_checker_pairs(PAIRS)))
    assert np.array_equal(first, JudgeChecker().check(_checker_pairs(PAIRS)))  # a new session
    assert np.allclose(first.sum(axis=1), 1.0, atol=1e-5)


@needs_judge
def test_the_thread_count_changes_no_bit(judge: JudgeChecker) -> None:
    # the default judge uses onnxruntime's own thread count (one per physical core), so the same
    # claims must give the same bits on a machine with other cores: every count here agrees
    pairs = [*PAIRS, (CLAIM, LONG_WINDOW[:900]), ("Coffee raised heart rate.", WINDOW)]
    one = JudgeChecker(intra_op_num_threads=1, cache_batches=0, cache_pairs=0).check_texts(pairs)
    for threads in (2, 3, None):
        other = JudgeChecker(intra_op_num_threads=threads, cache_batches=0, cache_pairs=0)
        assert np.array_equal(one, other.check_texts(pairs)), threads
    assert np.array_equal(one, judge.check_texts(pairs))


def test_a_thread_count_below_one_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="intra_op_num_threads"):
        JudgeChecker(intra_op_num_threads=0)


@needs_judge
def test_the_composition_root_gives_the_judge_its_configured_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spanproof.bootstrap import build_judge
    from spanproof.config import load_settings

    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", str(tmp_path))
    assert build_judge(load_settings())._threads is None  # onnxruntime's own count
    monkeypatch.setenv("SPANPROOF_VERIFY__JUDGE_THREADS", "1")
    assert build_judge(load_settings())._threads == 1
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE", "false")
    assert build_judge(load_settings())._threads == 1
    monkeypatch.setenv("SPANPROOF_VERIFY__JUDGE_THREADS", "0")
    with pytest.raises(ValueError, match="judge_threads"):
        load_settings()


@needs_judge
def test_columns_are_entailed_contradicted_neutral(judge: JudgeChecker) -> None:
    meta = json.loads(DEFAULT_JUDGE_PATH.with_suffix(".json").read_text())
    assert tuple(meta["labels"]) == CHECKER_LABELS
    assert meta["quantization"] in BATCH_INDEPENDENT and meta["max_tokens"] == judge.max_tokens
    assert DEFAULT_JUDGE_PATH.stat().st_size <= 30_000_000
    same, negated = judge.check_texts([(CLAIM, CLAIM), (CLAIM, NEGATED)])
    assert int(np.argmax(same)) == 0  # a sentence entails itself: column 0
    assert negated[1] > same[1]  # the negation raises column 1, contradicted
    assert isinstance(judge, EntailmentChecker)
    assert judge.model_id.startswith("spanproof-judge@sha256:")


@needs_judge
def test_no_pairs_give_an_empty_matrix(judge: JudgeChecker) -> None:
    out = judge.check([])
    assert out.shape == (0, 3) and out.dtype == np.float32


def test_truncation_keeps_the_claim_whole_and_cuts_the_window(encoder: PairEncoder) -> None:
    (ids, types), (short_ids, _) = encoder.encode([(CLAIM, LONG_WINDOW), (CLAIM, "Yes.")])
    (claim_ids, _), *_ = PairEncoder(512).encode([(CLAIM, "")])
    claim = claim_ids[1:-2]  # [CLS] claim [SEP] [SEP]
    assert len(ids) == 64 and len(short_ids) < 64
    assert ids[1 : 1 + len(claim)] == claim and ids[1 + len(claim)] == ids[-1]  # [SEP]
    assert types.count(0) == len(claim) + 2 and types[-1] == 1
    # the window is cut from its end: what is kept is its beginning
    (full, _), *_ = PairEncoder(512).encode([(CLAIM, LONG_WINDOW)])
    assert ids[:-1] == full[:63]


def test_a_claim_too_long_for_the_limit_leaves_the_window_a_piece(encoder: PairEncoder) -> None:
    claim = "The trial enrolled many older adults across several countries " * 8
    (ids, types), (exact_ids, exact_types) = encoder.encode([(claim, WINDOW), (claim[:200], "x")])
    assert len(ids) == 64 and 1 in types  # cut, yet the window is still there
    assert len(exact_ids) <= 64 and 1 in exact_types


def test_pairs_are_batched_by_length_with_bounded_padding() -> None:
    lengths = [40, 10, 12, 41, 100, 11, 13, 200]
    batches = length_batches(lengths, 3, 0.25)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert batches == [[1, 5, 2], [6], [0, 3], [4], [7]]
    assert all(len(b) <= 3 for b in batches)
    assert length_batches(lengths, 64, float("inf")) == [[1, 5, 2, 6, 0, 3, 4, 7]]
    assert length_batches([], 4, 0.5) == []


def test_a_missing_model_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigurationError, match="make quantize-judge"):
        JudgeChecker(tmp_path / "none.onnx")
    monkeypatch.setattr(judge_module, "DEFAULT_JUDGE_PATH", tmp_path / "judge.onnx")
    from spanproof.bootstrap import build_judge

    with pytest.raises(ConfigurationError, match=r"judge\.onnx"):
        build_judge()


def test_a_model_quantised_per_call_is_refused() -> None:
    # the v3 cross-encoder is dynamically quantised: batched, its results would move
    with pytest.raises(ConfigurationError, match="depend on its batch"):
        JudgeChecker(DEFAULT_CROSS_ENCODER_PATH)


def test_metadata_without_labels_is_refused(tmp_path: Path) -> None:
    meta = tmp_path / "judge.json"
    meta.write_text(json.dumps({"labels": ["yes", "no"], "quantization": "fp32"}))
    with pytest.raises(ConfigurationError, match="labels"):
        JudgeChecker(DEFAULT_CROSS_ENCODER_PATH, metadata_path=meta)
