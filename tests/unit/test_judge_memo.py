"""The judge remembers its batch outputs: a repeated check runs no model and changes no bit.

The model tests read the shipped ``spanproof/models/judge.onnx`` and skip when there is none.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from spanproof.core.errors import ConfigurationError
from spanproof.core.models import Claim, EvidenceSpan
from spanproof.providers.checker import cross_encoder
from spanproof.providers.checker.cross_encoder import ResultMemo
from spanproof.providers.checker.judge import DEFAULT_JUDGE_PATH, JudgeChecker
from spanproof.services.replay import replay
from spanproof.services.verification import score_all
from spanproof.services.verification_trace import RecordingEmbedder, verification_trace
from spanproof.testing.fakes import FakeEmbedder, WholeDraftDecomposer
from spanproof.verifier import Verifier
from spanproof.verify.scoring import V5

CLAIM = "Aspirin reduced the risk of stroke in older adults."
PAIRS = [
    (CLAIM, "In older adults, aspirin reduced the risk of stroke. The effect was larger in men."),
    (CLAIM, "In older adults, aspirin did not reduce the risk of stroke."),
    (CLAIM, "The weather in Paris was mild in the spring."),
    ("Vitamin D did not change fracture rates.", "Fracture rates fell with vitamin D in trials."),
    ("Walking daily lowered systolic blood pressure by 5 mmHg.", "Walking lowered it. " * 12),
]
EVIDENCE = [
    EvidenceSpan(
        "S1",
        "The trial enrolled older adults. Daily walking lowered systolic blood pressure. "
        "Dropout was low.",
    ),
    EvidenceSpan("S2", "Tree canopy cooled city blocks. Aspirin reduced stroke risk."),
]
CLAIMS = [
    Claim("c1", "Daily walking lowered systolic blood pressure."),
    Claim("c2", "Tree canopy warmed city blocks."),
    Claim("c3", "Aspirin did not reduce stroke risk."),
]

needs_judge = pytest.mark.skipif(
    not DEFAULT_JUDGE_PATH.is_file(), reason="no judge.onnx shipped yet (`make quantize-judge`)"
)


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of rows of every onnxruntime run of a pair classifier, in order."""
    seen: list[int] = []
    real = cross_encoder.run_session

    def counting(session: Any, output: str, feeds: dict[str, Any], path: Any) -> Any:
        seen.append(len(feeds["input_ids"]))
        return real(session, output, feeds, path)

    monkeypatch.setattr(cross_encoder, "run_session", counting)
    return seen


def test_a_memo_keeps_the_most_recently_used_entries() -> None:
    memo = ResultMemo(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # "a" is now the most recent
    memo.put("c", 3)
    assert memo.get("b") is None and memo.get("a") == 1 and memo.get("c") == 3
    assert len(memo) == 2
    memo.clear()
    assert memo.get("a") is None and len(memo) == 0
    off = ResultMemo(0)
    off.put("a", 1)
    assert off.get("a") is None and len(off) == 0
    with pytest.raises(ConfigurationError):
        ResultMemo(-1)


def test_negative_cache_sizes_are_refused() -> None:
    with pytest.raises(ConfigurationError):
        JudgeChecker(cache_batches=-1)
    with pytest.raises(ConfigurationError):
        JudgeChecker(cache_pairs=-1)


@needs_judge
def test_a_repeated_check_runs_no_model_and_gives_the_same_bits(runs: list[int]) -> None:
    judge = JudgeChecker()
    uncached = JudgeChecker(cache_batches=0, cache_pairs=0)
    first = judge.check_texts(PAIRS)
    ran = len(runs)
    assert ran >= 1 and sum(runs) == len(PAIRS)
    again = judge.check_texts(PAIRS)
    assert len(runs) == ran  # every batch remembered: no onnxruntime run
    assert np.array_equal(first, again) and again.dtype == np.float32
    plain = uncached.check_texts(PAIRS)
    assert np.array_equal(first, plain)  # what running the model gives, bit for bit
    assert len(runs) == 2 * ran
    uncached.check_texts(PAIRS)
    assert len(runs) == 3 * ran  # a judge that remembers nothing runs every time
    # a remembered row cannot be written through the result
    again[0, 0] = -1.0
    assert np.array_equal(judge.check_texts(PAIRS), first)


@needs_judge
def test_a_pair_in_another_batch_is_run_again_as_the_model_would(runs: list[int]) -> None:
    judge = JudgeChecker(batch_size=64, max_padding=float("inf"))  # one batch a call
    judge.check_texts(PAIRS)
    assert runs == [len(PAIRS)]
    subset = [PAIRS[2], PAIRS[0]]
    got = judge.check_texts(subset)
    assert runs == [len(PAIRS), 2]  # other batch tensors: not taken from memory
    plain = JudgeChecker(
        batch_size=64, max_padding=float("inf"), cache_batches=0, cache_pairs=0
    ).check_texts(subset)
    assert np.array_equal(got, plain)
    judge.clear_cache()
    after_clear = len(runs)
    judge.check_texts(PAIRS)
    assert len(runs) > after_clear


@needs_judge
def test_tokenised_pairs_are_remembered_exactly() -> None:
    judge = JudgeChecker(cache_batches=0)
    fresh = judge.encode(PAIRS)
    remembered = judge._encode_remembered(PAIRS)  # fills the memo
    assert remembered == fresh
    assert judge._encode_remembered([*PAIRS[::-1], PAIRS[0]]) == [*fresh[::-1], fresh[0]]


@needs_judge
def test_v5_verdicts_are_the_same_bits_with_and_without_remembered_outputs(
    runs: list[int],
) -> None:
    judge = JudgeChecker()
    first, status = score_all(CLAIMS, EVIDENCE, FakeEmbedder(), V5, judge)
    assert status == "verified" and all(v.judge is not None for v in first)
    ran = len(runs)
    again, _ = score_all(CLAIMS, EVIDENCE, FakeEmbedder(), V5, judge)
    assert len(runs) == ran  # the second verify of the same claims runs no model
    assert [v.to_dict() for v in again] == [v.to_dict() for v in first]
    plain, _ = score_all(
        CLAIMS, EVIDENCE, FakeEmbedder(), V5, JudgeChecker(cache_batches=0, cache_pairs=0)
    )
    assert [v.to_dict() for v in plain] == [v.to_dict() for v in first]


@needs_judge
def test_a_v5_trace_replays_bit_for_bit_with_a_remembering_and_a_fresh_judge() -> None:
    recorder = RecordingEmbedder(FakeEmbedder())
    judge = JudgeChecker()
    verifier = Verifier(
        embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V5, checker=judge
    )
    report = verifier.check_claims(CLAIMS, EVIDENCE)
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V5, {})
    assert report.claims and all(c.judge is not None for c in report.claims)
    assert replay(trace, judge).ok  # outputs remembered from the verify
    assert replay(trace, JudgeChecker(cache_batches=0, cache_pairs=0)).ok
