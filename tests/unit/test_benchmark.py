"""The engine benchmark of ``spanproof bench`` (services.benchmark): its texts and its cases.

Timings are never asserted (they are the benchmark's to report); what is checked is what it
runs and what it counts.
"""

from __future__ import annotations

import numpy as np
import pytest

from spanproof.services.benchmark import (
    CLAIMS,
    SPANS,
    TEXTS_NEEDED,
    bench_embedding,
    bench_verify,
    median_time,
    p95,
    synthetic_sentences,
    verify_case,
)
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.scoring import V2


def test_synthetic_sentences_are_distinct_finding_shaped_and_the_same_every_run() -> None:
    texts = synthetic_sentences()
    assert len(texts) == TEXTS_NEEDED == len(set(texts))
    assert texts == synthetic_sentences()
    assert synthetic_sentences(20, seed=1) != synthetic_sentences(20, seed=2)
    lengths = [len(t.split()) for t in texts]
    assert min(lengths) >= 12 and max(lengths) <= 40
    assert all(t[0].isupper() and t.endswith(".") for t in texts)


def test_the_verify_case_copies_every_sixth_span_as_a_claim() -> None:
    texts = synthetic_sentences()
    claims, spans = verify_case(texts)
    assert (len(claims), len(spans)) == (CLAIMS, SPANS)
    by_text = {s.text for s in spans}
    assert all(c.text in by_text for c in claims)
    with pytest.raises(ValueError, match="needs 264 texts"):
        verify_case(texts[:100])


def test_bench_verify_counts_the_verdicts_of_the_case_and_embeds_uncached_every_run() -> None:
    texts = synthetic_sentences()
    cold, warm = FakeEmbedder(), FakeEmbedder()
    result = bench_verify(texts, warm, cold, V2, None, repeats=3, uncached_repeats=2)
    assert result.score_model == "v2" and (result.claims, result.spans) == (10, 64)
    assert result.verdicts == {"supported": 10}  # each claim copies a span
    assert cold.calls >= 2 and warm.calls >= 4  # one filling call, then the repeats
    assert result.cached_median_ms >= 0 and result.cached_p95_ms >= result.cached_median_ms


def test_bench_embedding_compares_the_two_sides_vectors() -> None:
    texts = synthetic_sentences(40)
    same = FakeEmbedder()
    result = bench_embedding(texts, same.embed, FakeEmbedder().embed, repeats=2)
    assert result.largest_difference == 0.0 and result.ratio is not None
    other = FakeEmbedder(model_id="other", dim=256)

    def shifted(batch: list[str]) -> np.ndarray:
        return other.embed(batch) * 0.5

    assert bench_embedding(texts, same.embed, shifted, repeats=1).largest_difference > 0.1
    alone = bench_embedding(texts, same.embed, None, repeats=1)
    assert alone.reference_per_s is None and alone.ratio is None and alone.spanproof_per_s > 0


def test_median_time_runs_the_function_each_time_and_p95_reads_the_slow_end() -> None:
    calls: list[int] = []
    med, times = median_time(lambda: calls.append(1), 5)
    assert len(calls) == 5 == len(times) and med == sorted(times)[2]
    assert p95([1.0, 2.0, 3.0, 4.0, 100.0]) == 4.0
    assert p95([float(i) for i in range(101)]) == 95.0
