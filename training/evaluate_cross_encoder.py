"""Score the shipped cross-encoder through its runtime adapter (one pair per call), and time it.

    SPANPROOF_DATA_DIR=../shared/data .venv/bin/python training/evaluate_cross_encoder.py

Re-reads the validation split (same seed and rule as training), runs
:class:`spanproof.providers.checker.cross_encoder.CrossEncoderChecker` exactly as score model v3
does, and prints the metrics per dataset (the synthetic edits and the identity pairs apart), the
model size, the load time and pairs per second.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import build_pairs, identity_pairs
from train_checker import all_metrics

from spanproof.providers.checker.cross_encoder import (
    DEFAULT_CROSS_ENCODER_PATH,
    CrossEncoderChecker,
)


def main() -> int:
    everything = build_pairs()
    everything += identity_pairs(everything)
    pairs = [p for p in everything if p.split == "validation"]
    loads = []
    for _ in range(3):
        start = time.perf_counter()
        checker = CrossEncoderChecker()
        loads.append(time.perf_counter() - start)
    none = np.zeros(384, dtype=np.float32)
    batch = [(p.claim, p.evidence, none, none) for p in pairs]
    start = time.perf_counter()
    probs = checker.check(batch)
    seconds = time.perf_counter() - start
    report = {
        "model_id": checker.model_id,
        "model_bytes": DEFAULT_CROSS_ENCODER_PATH.stat().st_size,
        "load_seconds": round(min(loads), 3),
        "pairs": len(batch),
        "pairs_per_second": round(len(batch) / seconds, 1),
        "validation": all_metrics(probs, pairs),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
