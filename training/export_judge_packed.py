"""Export the judge that ``train_judge_packed.py`` chose: fp32 ONNX, dev probabilities, judge.json.

    python training/export_judge_packed.py --run .judge-gpu/run \
        --init src/spanproof/models/judge.onnx --pairs .judge-gpu

The model is the starting ``judge.onnx`` read back to fp32 (:func:`minilm.load_int8_weights`:
the frozen word-piece table comes from there) with every other parameter replaced by the run's
``best_part*.npz``; written as ``<run>/judge_fp32.onnx`` by :func:`train_cross_encoder.export`,
then every dev pair (``<pairs>/dev_pairs.jsonl``) is scored through it with onnxruntime
(``dev_judged.jsonl``), and ``judge.json`` records the run (recipes, learning curves, the
choice) and the dev figures, in the form ``quantize_judge.py`` reads next:

    python training/quantize_judge.py --fp32 .judge-gpu/run/judge_fp32.onnx \
        --dev .judge-gpu/dev_pairs.jsonl --out src/spanproof/models
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_pairs import MAX_TOKENS
from minilm import architecture, load_int8_weights
from train_cross_encoder import export, tokenizer
from train_judge import JUDGE_META, SEED, _load_dev, onnx_probs, per_set, write_dev_judged
from train_judge_packed import read_parts, state_digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--init", type=Path, required=True)
    parser.add_argument("--pairs", type=Path, required=True, help="pack_judge_pairs.py's --out")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    import torch

    report = json.loads((args.run / "report.json").read_text())
    state = read_parts(args.run, "best")
    digest = state_digest(state)
    if report.get("chosen", {}).get("digest") not in (None, digest):
        raise SystemExit(f"{args.run}: best_part*.npz do not match report.json's digest")
    model = architecture()
    load_int8_weights(model, args.init)
    full = model.state_dict()
    model.load_state_dict({**full, **{k: torch.from_numpy(v) for k, v in state.items()}})
    model.eval()
    fp32 = args.run / "judge_fp32.onnx"
    export(model, fp32)
    dev = _load_dev(args.pairs / "dev_pairs.jsonl")
    tok = tokenizer(MAX_TOKENS)
    probs, rate = onnx_probs(fp32, tok, dev, args.threads)
    write_dev_judged(args.run / "dev_judged.jsonl", dev, probs)
    pairs_summary = json.loads((args.pairs / "pairs_summary.json").read_text())
    figures = per_set(probs, dev)
    meta = {
        **JUDGE_META,
        "onnx_sha256": hashlib.sha256(fp32.read_bytes()).hexdigest(),
        "seed": SEED,
        "settings": {
            "trainer": "train_judge_packed.py",
            "init_sha256": report["init_sha256"],
            "packed_sha256": report["packed_sha256"],
            "recipes": {k: v["recipe"] for k, v in report["recipes"].items()},
            "chosen": report["chosen"],
        },
        "pairs": pairs_summary["pairs"],
        "pair_notes": pairs_summary["pair_notes"],
        "train_pairs": pairs_summary["train_pairs"],
        "train_pairs_by_dataset_label": pairs_summary["train_pairs_by_dataset_label"],
        "training": {
            "device": report["device_name"],
            "torch": report["torch"],
            "seconds": report["seconds"],
            "repeat_check": report.get("repeat_check"),
        },
        "recipe_change": {
            "start": report["start"],
            "recipes": report["recipes"],
            "chosen": report["chosen"],
        },
        "dev": {
            "metrics": figures,
            "pairs": len(dev),
            "onnx_pairs_per_second_batched": round(rate, 1),
        },
    }
    (args.run / "judge.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps({k: v.get("balanced_accuracy") for k, v in figures.items()}))
    print(f"wrote {fp32}, dev_judged.jsonl and judge.json in {args.run}")


if __name__ == "__main__":
    main()
