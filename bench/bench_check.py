"""``spanproof check`` throughput: answers per second for 5-claim answers with 10 contexts each.

    make bench-check     # = python bench/bench_check.py --write bench/RESULTS.md

The answer set is built from SciFact (``../shared/data``; the section says so and stops when it
is absent), seeded, so every run checks the same answers: per SciFact train claim with evidence,
the contexts are its cited abstract and nine other abstracts drawn at random (each abstract one
context, as a retriever's chunks), in shuffled order; the answer is the claim followed by
sentences of the cited abstract (its rationale first), five sentences in all. Only answers the
rule-based decomposer splits into exactly five claims are kept.

* service, cached embeddings: ``check_answers`` over the whole set, the embedding cache filled
  by a first pass (which is the uncached figure); median of ``--repeats`` passes;
* CLI end to end: ``spanproof check ANSWERS.jsonl --json --workers N`` (N = 1, 2) as a
  subprocess against the same warm cache (process start, model loads and JSON output included);
  median of three runs each.

CPU time per answer is recorded beside wall time: on a machine shared with other work it is the
better estimate of what an idle core does.

``--profile`` prints where one cached pass spends its time (cProfile, top 25 by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _results import write_section  # type: ignore[import-not-found]

from spanproof.evaluation.devdata import data_dir, scifact_claims, scifact_corpus
from spanproof.verify.decompose import RuleBasedDecomposer

SEED = 17
CONTEXTS = 10
CLAIMS = 5
SPANPROOF = Path(sys.executable).with_name("spanproof")


def answer_set(root: Path, limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` items ``{id, question, answer, contexts}`` of 5 claims and 10 contexts."""
    rng = random.Random(SEED)
    corpus = scifact_corpus(root)
    doc_ids = sorted(corpus)
    decomposer = RuleBasedDecomposer()
    items: list[dict[str, Any]] = []
    for claim in scifact_claims(root):
        if len(items) >= limit:
            break
        cited = [d for d in sorted(claim.evidence) if d in corpus and claim.evidence[d]]
        if not cited:
            continue
        abstract = [s.strip() for s in corpus[cited[0]]["abstract"]]
        rationale = sorted(i for i in claim.evidence[cited[0]][0][1] if 0 <= i < len(abstract))
        order = rationale + [i for i in range(len(abstract)) if i not in rationale]
        sentences = [claim.claim.rstrip(".") + "."] + [abstract[i] for i in order]
        answer = " ".join(sentences[:CLAIMS])
        if len(decomposer.decompose(answer)) != CLAIMS:
            continue
        others = rng.sample([d for d in doc_ids if d != cited[0]], CONTEXTS - 1)
        contexts = [" ".join(corpus[d]["abstract"]) for d in [cited[0], *others]]
        rng.shuffle(contexts)
        items.append(
            {"id": f"scifact-{claim.id}", "question": "", "answer": answer, "contexts": contexts}
        )
    return items


def bench_service(
    items: list[dict[str, Any]], cache_dir: Path, repeats: int, profile: bool
) -> dict[str, Any]:
    from spanproof.bootstrap import build_checker_for
    from spanproof.providers.embeddings.cache import CachedEmbedder
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
    from spanproof.services.answer_check import check_answers, parse_case
    from spanproof.verify.scoring import score_model

    cases = [parse_case(item, f"item {n}", n) for n, item in enumerate(items, start=1)]
    model = score_model("v2")
    checker = build_checker_for(model)
    decomposer = RuleBasedDecomposer()
    with CachedEmbedder(OnnxMiniLMEmbedder(), cache_dir / "embeddings.sqlite") as embedder:

        def run() -> list[Any]:
            return list(
                check_answers(
                    cases, decomposer=decomposer, embedder=embedder, model=model, checker=checker
                )
            )

        start = time.perf_counter()
        results = run()  # fills the cache
        uncached = time.perf_counter() - start
        times, cpu = [], []
        for _ in range(repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        if profile:
            profiler = cProfile.Profile()
            profiler.enable()
            run()
            profiler.disable()
            pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
    claims = sum(len(r.report.claims) for r in results)
    med = statistics.median(times)
    return {
        "answers": len(cases),
        "claims_per_answer": round(claims / len(cases), 2),
        "uncached_answers_per_s": round(len(cases) / uncached, 1),
        "cached_answers_per_s": round(len(cases) / med, 1),
        "cached_ms_per_answer": round(1000 * med / len(cases), 2),
        "cached_cpu_ms_per_answer": round(1000 * statistics.median(cpu) / len(cases), 2),
        "cached_runs_s": [round(t, 3) for t in times],
    }


def bench_cli(answers: Path, cache_dir: Path, n: int, repeats: int, workers: int) -> dict[str, Any]:
    env = {**os.environ, "SPANPROOF_EMBEDDER__CACHE_DIR": str(cache_dir)}
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(
            [str(SPANPROOF), "check", str(answers), "--json", "--workers", str(workers)],
            env=env,
            capture_output=True,
            check=False,
        )
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"spanproof check exited {done.returncode}: {done.stderr.decode()}")
    med = statistics.median(times)
    return {"answers_per_s": round(n / med, 1), "median_s": round(med, 3)}


def render(results: dict[str, Any]) -> str:
    head = [
        "## `spanproof check`: answers per second (issue 17)",
        "",
        "Measured by `make bench-check` (`python bench/bench_check.py --write bench/RESULTS.md`) "
        f"on {results['machine']}, {results['date']}.",
        "",
    ]
    if "skipped" in results:
        return "\n".join([*head, f"Not measured: {results['skipped']}."])
    s, c = results["service"], results["cli"]
    body = [
        f"{s['answers']} SciFact answers of {s['claims_per_answer']} claims, "
        f"{CONTEXTS} contexts each (an abstract per context, about 13,700 characters of "
        "context per answer), score model v2, rule-based decomposer. Load average at the end "
        f"of the run: {results['load_average']} (the machine was shared).",
        "",
        "| measure | value | goal |",
        "|---|---:|---|",
        f"| `spanproof check --json`, warm cache, end to end (process start and model load "
        f"included), answers/s, median of 3 | {c['workers_1']['answers_per_s']} | ≥ 20 |",
        f"| the same with `--workers 2` | {c['workers_2']['answers_per_s']} | |",
        f"| `check_answers` in one process, cached embeddings, answers/s (median of "
        f"{len(s['cached_runs_s'])}) | {s['cached_answers_per_s']} | |",
        f"| `check_answers`, cached, wall ms per answer | {s['cached_ms_per_answer']} | |",
        f"| `check_answers`, cached, CPU ms per answer (what one idle core would take) | "
        f"{s['cached_cpu_ms_per_answer']} | |",
        f"| `check_answers`, uncached (first pass, every text embedded), answers/s | "
        f"{s['uncached_answers_per_s']} | |",
        "",
        "Raw JSON of this run:",
        "",
        "```json",
        json.dumps(results, indent=1, ensure_ascii=False),
        "```",
    ]
    return "\n".join([*head, *body])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--answers", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile one cached pass")
    args = parser.parse_args()
    results: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
    }
    root = data_dir()
    if root is None:
        results["skipped"] = "../shared/data is absent (set SPANPROOF_DATA_DIR)"
    else:
        items = answer_set(root, args.answers)
        with tempfile.TemporaryDirectory() as tmp:
            answers = Path(tmp) / "answers.jsonl"
            answers.write_text(
                "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items),
                encoding="utf-8",
            )
            print(f"check_answers on {len(items)} answers…", file=sys.stderr)
            results["service"] = bench_service(items, Path(tmp), args.repeats, args.profile)
            print("spanproof check end to end…", file=sys.stderr)
            results["cli"] = {
                f"workers_{w}": bench_cli(answers, Path(tmp), len(items), 3, w) for w in (1, 2)
            }
            results["load_average"] = [round(x, 1) for x in os.getloadavg()]
    text = render(results)
    if args.write:
        write_section(args.write, "check", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
