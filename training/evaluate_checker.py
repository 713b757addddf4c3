"""Score the shipped checker through its runtime adapter, and time it.

Re-reads the validation split (same seed and rule as training), embeds it through the embedding
cache, runs :class:`spanproof.providers.checker.OnnxEntailmentChecker` (features + onnxruntime,
exactly the run-time path) and prints the metrics per dataset, the model size, the load time and
the throughput in pairs per second (features and inference, embedding excluded)::

    SPANPROOF_DATA_DIR=../shared/data .venv/bin/python training/evaluate_checker.py
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import build_pairs
from train_checker import DEFAULT_CACHE, all_metrics, embed_texts

from spanproof.providers.checker import OnnxEntailmentChecker
from spanproof.providers.checker.onnx_checker import DEFAULT_MODEL_PATH
from spanproof.verify.features import text_view


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL_PATH)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--repeat", type=int, default=3, help="timing runs (best is reported)")
    args = parser.parse_args()

    pairs = [p for p in build_pairs() if p.split == "validation"]
    texts = sorted({t for p in pairs for t in (p.claim, p.evidence)})
    vectors = embed_texts(texts, args.cache)
    batch = [(p.claim, p.evidence, vectors[p.claim], vectors[p.evidence]) for p in pairs]

    loads = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        checker = OnnxEntailmentChecker(args.model)
        loads.append(time.perf_counter() - start)

    runs, feature_runs = [], []
    probs = np.empty((0, 3), dtype=np.float32)
    for _ in range(args.repeat):
        text_view.cache_clear()  # cold: every text analysed afresh, as for new evidence
        start = time.perf_counter()
        probs = checker.check(batch)
        runs.append(time.perf_counter() - start)
        text_view.cache_clear()
        start = time.perf_counter()
        x = checker.features(batch)
        feature_runs.append(time.perf_counter() - start)
    start = time.perf_counter()
    again = checker.check_features(x)
    inference = time.perf_counter() - start
    assert again.tobytes() == checker.check_features(x).tobytes()

    report = {
        "model_id": checker.model_id,
        "model_bytes": args.model.stat().st_size,
        "load_seconds": round(min(loads), 4),
        "pairs": len(batch),
        "pairs_per_second": round(len(batch) / min(runs), 1),
        "features_pairs_per_second": round(len(batch) / min(feature_runs), 1),
        "inference_pairs_per_second": round(len(batch) / inference, 1),
        "validation": all_metrics(probs, pairs),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
