"""The local judge's batch outputs on disk (``judge-outputs.sqlite``): a second process that
verifies the same claims against the same evidence reads them instead of running the model, and
gets the same probabilities bit for bit.

The cache tests need no model; the judge tests read the shipped ``judge.onnx`` and skip when
there is none.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from spanproof.bootstrap import build_judge
from spanproof.config import load_settings
from spanproof.core.errors import ConfigurationError
from spanproof.providers.checker import cross_encoder
from spanproof.providers.checker.judge import DEFAULT_JUDGE_PATH, JudgeChecker
from spanproof.providers.checker.judge_cache import SqliteJudgeOutputCache

NO_VECTOR = np.zeros(384, dtype=np.float32)
PAIRS = [
    ("Aspirin reduced the risk of stroke in older adults.", "In older adults, aspirin reduced "
     "the risk of stroke. The effect was larger in men."),
    ("Aspirin reduced the risk of stroke in older adults.", "Aspirin did not reduce stroke."),
    ("Vitamin D did not change fracture rates.", "The weather in Paris was mild in the spring."),
]  # fmt: skip
needs_judge = pytest.mark.skipif(
    not DEFAULT_JUDGE_PATH.is_file(), reason="no judge.onnx shipped yet (`make quantize-judge`)"
)


def _output(rows: int, seed: int) -> np.ndarray:
    values = np.random.default_rng(seed).random((rows, 3), dtype=np.float32)
    return values / values.sum(axis=1, keepdims=True)


def test_outputs_come_back_bit_for_bit_and_only_for_their_model(tmp_path: Path) -> None:
    path = tmp_path / "judge-outputs.sqlite"
    first = _output(3, 1)
    with SqliteJudgeOutputCache(path) as cache:
        cache.put_many("model-a", {b"\x01" * 32: first, b"\x02" * 32: _output(1, 2)})
        cache.put_many("model-a", {b"\x01" * 32: _output(3, 9)})  # the first one is kept
    with SqliteJudgeOutputCache(path) as again:  # another process, the same file
        found = again.get_many("model-a", [b"\x01" * 32, b"\x03" * 32])
        assert set(found) == {b"\x01" * 32}
        assert found[b"\x01" * 32].tobytes() == first.astype("<f4").tobytes()
        assert not found[b"\x01" * 32].flags.writeable
        assert again.get_many("model-b", [b"\x01" * 32]) == {}
        assert len(again) == 2


def test_a_damaged_row_is_a_miss_and_a_bad_output_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "judge-outputs.sqlite"
    with SqliteJudgeOutputCache(path) as cache:
        cache.put_many("m", {b"\x01" * 32: _output(2, 3)})
        with pytest.raises(ValueError, match="2-D"):
            cache.put_many("m", {b"\x02" * 32: np.zeros(3, dtype=np.float32)})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE judge_output SET output = x'00'")
    with SqliteJudgeOutputCache(path) as cache:
        assert cache.get_many("m", [b"\x01" * 32]) == {}


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "judge-outputs.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(ConfigurationError, match="judge output cache"):
        SqliteJudgeOutputCache(path)


def test_the_judge_keeps_its_outputs_beside_the_embedding_cache_when_caching_is_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not DEFAULT_JUDGE_PATH.is_file():
        pytest.skip("no judge.onnx shipped yet (`make quantize-judge`)")
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", str(tmp_path))
    judge = build_judge(load_settings())
    assert isinstance(judge, JudgeChecker) and judge.outputs is not None
    assert judge._opened is None  # lazy: opened at the first batch not on disk
    assert Path(judge.outputs.path) == tmp_path / "judge-outputs.sqlite"  # type: ignore[attr-defined]
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE", "false")
    off = build_judge(load_settings())
    assert isinstance(off, JudgeChecker) and off.outputs is None
    assert build_judge().outputs is None  # type: ignore[attr-defined]


@needs_judge
def test_a_second_process_reads_the_outputs_and_runs_no_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pairs = [(c, s, NO_VECTOR, NO_VECTOR) for c, s in PAIRS]
    plain = JudgeChecker(cache_batches=0).check(pairs)
    first = JudgeChecker()
    first.outputs = SqliteJudgeOutputCache(tmp_path / "judge-outputs.sqlite")
    wrote = first.check(pairs)
    assert wrote.tobytes() == plain.tobytes()
    assert len(first.outputs) >= 1

    calls: list[Any] = []
    real = cross_encoder.run_session

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(cross_encoder, "run_session", counted)
    second = JudgeChecker(lazy=True)  # a fresh process: nothing in memory, no session yet
    second.outputs = SqliteJudgeOutputCache(tmp_path / "judge-outputs.sqlite")
    read = second.check(pairs)
    assert calls == []
    assert second._opened is None  # every batch was on disk: the model was never loaded
    assert read.tobytes() == plain.tobytes()
    # Another set of pairs makes other batches: those run, and are stored for next time.
    more = [*pairs, ("A new claim about statins.", "Statins lowered LDL.", NO_VECTOR, NO_VECTOR)]
    second.check(more)
    assert calls and second._opened is not None
    assert second.check(more).tobytes() == JudgeChecker(cache_batches=0).check(more).tobytes()
