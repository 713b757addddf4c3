"""The judge's throughput: batched vs one pair at a time vs raw onnxruntime; one verify's latency.

    make bench-judge     # = python bench/judge.py --write bench/RESULTS.md

Pairs are SciFact claims against evidence windows from their cited abstracts (``../shared/data``;
the section says so and stops when it is absent): per claim, its rationale sentences joined in
document order, the rationale's first sentence with its neighbours, and the abstract's first
three sentences: up to three windows a claim, as a verify call gives the judge.

* adapter, batched: ``JudgeChecker.check_texts`` on all pairs (tokenisation included);
* adapter, one at a time: one ``check_texts`` call per pair;
* raw onnxruntime: the same tokenised inputs in the same batches, padded and run with nothing of
  spanproof's (the ratio adapter / raw is the adapter's overhead, goal ≥ 0.9);
* raw onnxruntime, one batch padded to its longest pair: what the simplest batching costs.

Medians over interleaved repeats; one intra-op thread, and the batched runs (adapter and raw)
again with two. Every judge here remembers nothing (``cache_batches=0, cache_pairs=0``): each
repeat runs the model, tokenisation included. One verify call's judge work — v5's (every claim,
up to three windows each) and the veto's of v57/v58 (one window a claim) — is timed with one
thread and with the judge as spanproof builds it (onnxruntime's own thread count, one per
physical core), and repeated by the default judge (remembered batch outputs: no model run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _results import write_section  # type: ignore[import-not-found]

from spanproof.evaluation.devdata import data_dir, scifact_claims, scifact_corpus
from spanproof.providers.checker.cross_encoder import Encoded, length_batches
from spanproof.providers.checker.judge import DEFAULT_JUDGE_PATH, JudgeChecker


def scifact_windows(root: Path) -> list[list[tuple[str, str]]]:
    """Per SciFact train claim with evidence: up to three (claim, window) pairs."""
    corpus = scifact_corpus(root)
    out = []
    for claim in scifact_claims(root):
        pairs: list[tuple[str, str]] = []
        for doc_id, sets in sorted(claim.evidence.items()):
            abstract = corpus.get(doc_id, {}).get("abstract", [])
            if not abstract or not sets:
                continue
            rationale = sorted(i for i in sets[0][1] if 0 <= i < len(abstract))
            if not rationale:
                continue
            first = rationale[0]
            for window in (
                rationale,
                range(max(0, first - 1), min(len(abstract), first + 2)),
                range(min(3, len(abstract))),
            ):
                text = " ".join(abstract[i].strip() for i in window)
                if (claim.claim, text) not in pairs:
                    pairs.append((claim.claim, text))
            break
        if pairs:
            out.append(pairs[:3])
    return out


def raw_runner(
    judge: JudgeChecker, encoded: Sequence[Encoded], threads: int = 1
) -> Callable[[bool], np.ndarray]:
    """onnxruntime on ``encoded`` with nothing of spanproof's: pad, run, scatter. ``True``:
    the adapter's batches; ``False``: one batch padded to the longest pair."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(
        str(DEFAULT_JUDGE_PATH), sess_options=options, providers=["CPUExecutionProvider"]
    )
    lengths = [len(ids) for ids, _ in encoded]
    same = length_batches(lengths, judge.batch_size, judge.max_padding)
    one = [list(range(len(encoded)))]

    def run(adapter_batches: bool) -> np.ndarray:
        out = np.zeros((len(encoded), 3), dtype=np.float32)
        for rows in same if adapter_batches else one:
            width = max(lengths[i] for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            types = np.zeros_like(ids)
            mask = np.zeros_like(ids)
            for r, i in enumerate(rows):
                ids[r, : lengths[i]] = encoded[i][0]
                types[r, : lengths[i]] = encoded[i][1]
                mask[r, : lengths[i]] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            out[rows] = session.run(["probabilities"], feeds)[0]
        return out

    return run


def interleaved(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median seconds of each function over ``repeats`` rounds, the functions taking turns."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            began = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - began)
    return {name: statistics.median(t) for name, t in times.items()}


def uncached(**options: Any) -> JudgeChecker:
    """A judge that remembers no batch output and no tokenised pair: every check runs."""
    return JudgeChecker(cache_batches=0, cache_pairs=0, **options)


def bench_throughput(pairs: list[tuple[str, str]], repeats: int) -> dict[str, Any]:
    judge = uncached(intra_op_num_threads=1)
    single = uncached(batch_size=1, intra_op_num_threads=1)
    judge2 = uncached(intra_op_num_threads=2)
    single2 = uncached(batch_size=1, intra_op_num_threads=2)
    encoded = judge.encode(pairs)
    raw = raw_runner(judge, encoded)
    raw2 = raw_runner(judge, encoded, threads=2)
    batched = judge.check_texts(pairs)
    if not np.allclose(batched, raw(True), rtol=0, atol=1e-5):
        raise SystemExit("raw onnxruntime and the adapter disagree: not the same inputs")
    medians = interleaved(
        {
            "adapter_batched": lambda: judge.check_texts(pairs),
            "adapter_one_at_a_time": lambda: [single.check_texts([p]) for p in pairs],
            "raw_onnxruntime_batched": lambda: raw(True),
            "raw_onnxruntime_one_batch_padded_to_longest": lambda: raw(False),
            "adapter_batched_2_threads": lambda: judge2.check_texts(pairs),
            "adapter_one_at_a_time_2_threads": lambda: [single2.check_texts([p]) for p in pairs],
            "raw_onnxruntime_batched_2_threads": lambda: raw2(True),
        },
        repeats,
    )
    rates = {name: round(len(pairs) / s, 1) for name, s in medians.items()}
    lengths = [len(ids) for ids, _ in encoded]
    calls = length_batches(lengths, judge.batch_size, judge.max_padding)
    alone = np.vstack([single.check_texts([p]) for p in pairs])
    return {
        "pairs": len(pairs),
        "word_pieces": {"mean": round(float(np.mean(lengths)), 1), "max": max(lengths)},
        "adapter_onnxruntime_calls": len(calls),
        "pairs_per_s": rates,
        "ratio_adapter_to_raw": round(
            rates["adapter_batched"] / rates["raw_onnxruntime_batched"], 3
        ),
        "ratio_adapter_to_raw_2_threads": round(
            rates["adapter_batched_2_threads"] / rates["raw_onnxruntime_batched_2_threads"], 3
        ),
        "two_threads_over_one": round(
            rates["adapter_batched_2_threads"] / rates["adapter_batched"], 3
        ),
        "bits_equal_1_and_2_threads": bool(np.array_equal(batched, judge2.check_texts(pairs))),
        "batched_over_one_at_a_time": round(
            rates["adapter_batched"] / rates["adapter_one_at_a_time"], 3
        ),
        "max_abs_diff_alone_vs_batched": float(np.abs(alone - batched).max()),
    }


def bench_verify_call(
    claims: list[list[tuple[str, str]]], repeats: int, windows: int = 3
) -> dict[str, Any]:
    """One verify call's judge work: 10 claims × up to ``windows`` windows (3: v5's; 1: the veto
    of v57/v58), one ``check_texts``; run every time with one thread and with onnxruntime's own
    count (as spanproof builds the judge), and repeated by the default judge (its batch outputs
    remembered)."""
    one, judge, remembering = uncached(intra_op_num_threads=1), uncached(), JudgeChecker()
    pairs = [p for per_claim in claims[:10] for p in per_claim[:windows]]
    judge.check_texts(pairs)  # warm
    one.check_texts(pairs)
    if not np.array_equal(remembering.check_texts(pairs), judge.check_texts(pairs)):
        raise SystemExit("the remembering judge and the uncached one disagree")
    if not np.array_equal(one.check_texts(pairs), judge.check_texts(pairs)):
        raise SystemExit("one thread and onnxruntime's own count disagree")
    times, single, again = [], [], []
    for _ in range(repeats):
        for runner, out in ((judge, times), (one, single), (remembering, again)):
            began = time.perf_counter()
            runner.check_texts(pairs)
            out.append(time.perf_counter() - began)
    return {
        "claims": min(10, len(claims)),
        "pairs": len(pairs),
        "median_ms": round(1000 * statistics.median(times), 1),
        "p95_ms": round(1000 * sorted(times)[int(0.95 * (len(times) - 1))], 1),
        "one_thread_median_ms": round(1000 * statistics.median(single), 1),
        "remembered_median_ms": round(1000 * statistics.median(again), 2),
    }


def render(results: dict[str, Any]) -> str:
    head = [
        "## Judge: batched inference (issue 14)",
        "",
        f"Measured by `make bench-judge` (`python bench/judge.py --write bench/RESULTS.md`) on "
        f"{results['machine']}, {results['date']}; model {results.get('model', '—')}. Medians "
        "of interleaved repeats, one intra-op thread unless said.",
        "",
    ]
    if "skipped" in results:
        return "\n".join([*head, f"Skipped: {results['skipped']}.", ""])
    t, v, w = results["throughput"], results["verify_call"], results["veto_call"]
    r = t["pairs_per_s"]
    lines = [
        *head,
        f"{t['pairs']} SciFact (claim, window) pairs, {t['word_pieces']['mean']} word pieces on "
        f"average (longest {t['word_pieces']['max']}); the adapter made "
        f"{t['adapter_onnxruntime_calls']} onnxruntime calls.",
        "",
        "| judge throughput | pairs/s |",
        "|---|---:|",
        f"| adapter, all pairs in one `check` (length-sorted batches) | {r['adapter_batched']} |",
        f"| adapter, one pair per call | {r['adapter_one_at_a_time']} |",
        f"| raw onnxruntime, same tokenised inputs, same batches | "
        f"{r['raw_onnxruntime_batched']} |",
        f"| raw onnxruntime, one batch padded to its longest pair | "
        f"{r['raw_onnxruntime_one_batch_padded_to_longest']} |",
        f"| ratio adapter / raw (goal ≥ 0.9) | {t['ratio_adapter_to_raw']} |",
        f"| adapter, all pairs in one `check`, 2 intra-op threads | "
        f"{r['adapter_batched_2_threads']} |",
        f"| adapter, one pair per call, 2 intra-op threads | "
        f"{r['adapter_one_at_a_time_2_threads']} |",
        f"| raw onnxruntime, same batches, 2 intra-op threads | "
        f"{r['raw_onnxruntime_batched_2_threads']} |",
        f"| ratio adapter / raw, 2 intra-op threads (goal ≥ 0.9) | "
        f"{t['ratio_adapter_to_raw_2_threads']} |",
        f"| adapter batched, 2 threads / 1 thread | {t['two_threads_over_one']} |",
        "",
        f"A pair judged alone vs inside the batch: largest difference "
        f"{t['max_abs_diff_alone_vs_batched']:.1e}; one thread against two, the same bits: "
        f"{'yes' if t['bits_equal_1_and_2_threads'] else 'NO'}. One verify call's judge work, "
        "one `check`, with the judge as spanproof builds it (onnxruntime's own thread count) "
        "and with one thread:",
        "",
        "| call | pairs | median ms | p95 ms | one thread, median ms | outputs remembered, "
        "median ms |",
        "|---|---:|---:|---:|---:|---:|",
        f"| v5: {v['claims']} claims × up to 3 windows | {v['pairs']} | {v['median_ms']} | "
        f"{v['p95_ms']} | {v['one_thread_median_ms']} | {v['remembered_median_ms']} |",
        f"| v57/v58 veto: {w['claims']} claims × 1 window | {w['pairs']} | {w['median_ms']} | "
        f"{w['p95_ms']} | {w['one_thread_median_ms']} | {w['remembered_median_ms']} |",
        "",
        "Remembered outputs: no model run, the same probabilities bit for bit.",
        "",
        "Raw JSON of this run:",
        "",
        "```json",
        json.dumps(results, indent=1),
        "```",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--pairs", type=int, default=192)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
    }
    root = data_dir()
    if not DEFAULT_JUDGE_PATH.is_file():
        results["skipped"] = "no judge.onnx (`make quantize-judge`)"
    elif root is None:
        results["skipped"] = "../shared/data is absent (set SPANPROOF_DATA_DIR)"
    else:
        judge = JudgeChecker()
        meta = json.loads(DEFAULT_JUDGE_PATH.with_suffix(".json").read_text(encoding="utf-8"))
        results["model"] = f"{judge.model_id} ({meta.get('quantization')})"
        claims = scifact_windows(root)
        pairs = [p for windows in claims for p in windows][: args.pairs]
        print(f"throughput on {len(pairs)} pairs…", file=sys.stderr)
        results["throughput"] = bench_throughput(pairs, args.repeats)
        print("one verify call…", file=sys.stderr)
        results["verify_call"] = bench_verify_call(claims, 4 * args.repeats)
        results["veto_call"] = bench_verify_call(claims, 4 * args.repeats, windows=1)
    text = render(results)
    if args.write:
        write_section(args.write, "judge", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
