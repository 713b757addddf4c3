"""Make the shipped judge from the trainer's fp32 export: quantise, compare, choose, install.

    make quantize-judge          # the training venv (onnx, onnxruntime.quantization)

Issue 14, item 3. The cross-encoder of v3 is *dynamically* quantised: it computes activation
scales per call, so a pair's probabilities depend on the other pairs of its batch and the
runtime runs one pair per call. The judge's runtime
(:class:`spanproof.providers.checker.judge.JudgeChecker`) reads all pairs of a call at once, so
its model must not depend on the batch. Two such ≤ 30 MB forms of the fp32 model are made:

* ``static-int8``: ``quantize_static``, QDQ format: the MatMuls with constant weights (every
  linear layer) and the word-piece table (Gather); weights int8 per output channel, 7-bit
  (``reduce_range``: x86 CPUs without VNNI saturate 8-bit u8s8 products), activations uint8 with
  MinMax ranges over ``--calibration`` training pairs (a seeded sample, ``random.Random``, of the
  real sets' train split of :func:`judge_pairs.build_judge_pairs`, or of
  ``--calibration-jsonl``), tokenised by the runtime's own ``JudgeChecker.encode`` and fed one
  pair per call, so padding never enters the ranges. Attention's activation-by-activation
  MatMuls, LayerNorm and softmax stay fp32. Integer arithmetic: the fastest on a CPU.
* ``int8-weights``: every weight matrix of 64k elements or more stored as int8 in blocks of
  ``--block`` along the dimension a MatMul sums over (the word-piece table: one scale per row),
  restored by ``Cast`` and ``Mul`` nodes that onnxruntime folds into fp32 weights when it loads
  the model. fp32 arithmetic, the speed of fp32; the only error is the rounding of the weights,
  16 times finer-grained than per channel.

Both are compared with fp32 on ``--compare`` dev pairs per set (a seeded sample of ``--dev``, the
trainer's ``dev_pairs.jsonl``, else the judge pairs' dev split): probability max and mean absolute
difference, label agreement, per-set balanced accuracy (supported vs not), the largest difference
between a pair judged alone and inside a batch, and pairs/s batched (medians of interleaved
repeats). Shipped: the first of static-int8, int8-weights, fp32 that holds accuracy (label
agreement ≥ ``--min-agreement``, macro balanced accuracy within ``--tolerance`` of fp32; fp32
always does) and fits ``--max-bytes``; if none, the step fails and says why (``--ship`` chooses by
hand). The decision reads accuracy only, which is deterministic; the speeds are reported in
``<work>/quantize_report.json``, not in ``judge.json``, so the same fp32 model and data give the
same ``judge.onnx`` and ``judge.json`` bytes on every run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import LABELS, SEED

from spanproof.providers.checker.cross_encoder import Encoded, pad_feeds
from spanproof.providers.checker.judge import JudgeChecker

MAX_BYTES = 30_000_000
#: Weight matrices smaller than this stay fp32 in ``int8-weights`` (biases, the head, types).
MIN_ELEMENTS = 65_536
CANDIDATES = ("static-int8", "int8-weights", "fp32")
METHODS = {
    "static-int8": "onnxruntime quantize_static, QDQ: MatMul with constant weights and Gather; "
    "int8 weights per channel (reduce_range), uint8 activations, MinMax ranges over unpadded "
    "calibration pairs",
    "int8-weights": "weights of >= 64k elements int8 in blocks of {block} along the summed "
    "dimension (the word-piece table: per row), Cast and Mul nodes that onnxruntime folds into "
    "fp32 weights at load; fp32 arithmetic",
    "fp32": "the trainer's fp32 export as it is",
}
#: ``judge.json`` keys of the trainer's metadata that are copied (paths and timings are not).
KEPT_META = ("name", "base_model", "labels", "max_tokens", "inputs", "output", "seed", "settings")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def judge_pairs_split(split: str) -> list[dict[str, Any]]:
    """The judge's own pairs of the real sets in ``split`` (``train`` or ``dev``), as dicts:
    real claims against real windows, the inputs the judge meets at run time (the made-up pairs,
    most of the train split, are left out)."""
    from dataclasses import asdict

    from judge_pairs import REAL_SETS, build_judge_pairs

    pairs, _ = build_judge_pairs(substitutions="phrase")
    return [asdict(p) for p in pairs if p.split == split and p.dataset in REAL_SETS]


def seeded_sample(rows: Sequence[dict[str, Any]], count: int, salt: str) -> list[dict[str, Any]]:
    """``count`` rows (all when fewer), chosen by ``random.Random(f"{SEED}:{salt}")``, in input
    order."""
    if count >= len(rows):
        return list(rows)
    picked = sorted(random.Random(f"{SEED}:{salt}").sample(range(len(rows)), count))
    return [rows[i] for i in picked]


def per_set_sample(rows: Sequence[dict[str, Any]], per_set: int) -> list[dict[str, Any]]:
    """At most ``per_set`` rows of each dataset (:func:`seeded_sample`), in input order."""
    keep: list[int] = []
    for dataset in sorted({r["dataset"] for r in rows}):
        mine = [{"i": i} for i, r in enumerate(rows) if r["dataset"] == dataset]
        keep += [m["i"] for m in seeded_sample(mine, per_set, f"compare:{dataset}")]
    return [rows[i] for i in sorted(keep)]


class Calibration(CalibrationDataReader):  # type: ignore[misc]
    """The calibration inputs: one unpadded pair per call."""

    def __init__(self, encoded: Sequence[Encoded]) -> None:
        self._encoded = encoded
        self._next: Iterator[Encoded] = iter(encoded)

    def get_next(self) -> dict[str, np.ndarray] | None:
        item = next(self._next, None)
        return None if item is None else pad_feeds([item])

    def rewind(self) -> None:
        self._next = iter(self._encoded)


def static_int8(fp32: Path, out: Path, calibration: Sequence[Encoded]) -> None:
    """The ``static-int8`` form of ``fp32`` (module docstring)."""
    quantize_static(
        str(fp32),
        str(out),
        Calibration(calibration),
        quant_format=QuantFormat.QDQ,
        op_types_to_quantize=["MatMul", "Gather"],
        per_channel=True,
        reduce_range=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
        extra_options={"MatMulConstBOnly": True},
    )


def int8_blocks(w: np.ndarray, block: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 of a (rows, columns) matrix and its fp32 scales: ``block`` rows share a
    scale per column (a MatMul's weight: rows are summed over), or, for ``None``, each row has
    one (an embedding table). ``q * scale`` reshaped to ``w.shape`` restores ``w``."""
    if block is None:
        parts = w
        scale = np.abs(w).max(axis=1, keepdims=True) / 127.0
    else:
        parts = w.reshape(w.shape[0] // block, block, w.shape[1])
        scale = np.abs(parts).max(axis=1, keepdims=True) / 127.0
    scale = np.where(scale == 0, 1.0, scale).astype(np.float32)
    return np.clip(np.rint(parts / scale), -127, 127).astype(np.int8), scale


def int8_weights(fp32: Path, out: Path, block: int) -> int:
    """The ``int8-weights`` form of ``fp32`` (module docstring); the number of matrices."""
    model = onnx.load(str(fp32))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    restore: list[onnx.NodeProto] = []
    for node in graph.node:
        matmul = node.op_type == "MatMul" and node.input[1] in inits
        if not matmul and not (node.op_type == "Gather" and node.input[0] in inits):
            continue
        name = node.input[1] if matmul else node.input[0]
        w = numpy_helper.to_array(inits[name])
        fits = w.ndim == 2 and w.dtype == np.float32 and (not matmul or w.shape[0] % block == 0)
        if not fits or w.size < MIN_ELEMENTS:
            continue
        q, scale = int8_blocks(w, block if matmul else None)
        graph.initializer.remove(inits.pop(name))
        graph.initializer.extend(
            [
                numpy_helper.from_array(q, f"{name}_int8"),
                numpy_helper.from_array(scale, f"{name}_scale"),
                numpy_helper.from_array(np.array(w.shape, dtype=np.int64), f"{name}_shape"),
            ]
        )
        restore += [
            helper.make_node("Cast", [f"{name}_int8"], [f"{name}_fp32"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [f"{name}_fp32", f"{name}_scale"], [f"{name}_scaled"]),
            helper.make_node("Reshape", [f"{name}_scaled", f"{name}_shape"], [name]),
        ]
    nodes = list(graph.node)
    del graph.node[:]
    graph.node.extend([*restore, *nodes])
    onnx.checker.check_model(model)
    onnx.save(model, str(out))
    return len(restore) // 3


def pairs_per_second(
    models: dict[str, JudgeChecker], encoded: Sequence[Encoded], repeats: int
) -> dict[str, float]:
    """Pairs/s of each model on ``encoded``: medians of ``repeats`` interleaved runs."""
    times: dict[str, list[float]] = {name: [] for name in models}
    for model in models.values():
        model.check_encoded(encoded[:4])  # warm
    for _ in range(repeats):
        for name, model in models.items():
            began = time.perf_counter()
            model.check_encoded(encoded)
            times[name].append(time.perf_counter() - began)
    return {name: round(len(encoded) / statistics.median(t), 1) for name, t in times.items()}


def compare(
    paths: dict[str, Path], meta: Path, rows: Sequence[dict[str, Any]], args: argparse.Namespace
) -> dict[str, Any]:
    """Each form against fp32 on ``rows`` (dev pairs): accuracy, batch independence, speed."""
    from judge_pairs import JudgePair
    from train_judge import per_set

    models = {
        name: JudgeChecker(path, metadata_path=meta, intra_op_num_threads=args.threads)
        for name, path in paths.items()
    }
    encoded = models["fp32"].encode([(r["claim"], r["evidence"]) for r in rows])
    probs = {name: model.check_encoded(encoded) for name, model in models.items()}
    pairs = [JudgePair(**{**r, "split": "dev"}) for r in rows]
    forms: dict[str, Any] = {}
    for name, model in models.items():
        diff = np.abs(probs[name] - probs["fp32"])
        alone = np.vstack([model.check_encoded([e]) for e in encoded[: args.alone]])
        forms[name] = {
            "bytes": paths[name].stat().st_size,
            "max_abs_diff": round(float(diff.max()), 6),
            "mean_abs_diff": round(float(diff.mean()), 6),
            "label_agreement": round(
                float(np.mean(probs[name].argmax(1) == probs["fp32"].argmax(1))), 4
            ),
            "alone_vs_batched_max_abs_diff": float(np.abs(alone - probs[name][: args.alone]).max()),
            "per_set": per_set(probs[name], pairs),
        }
    timed = list(encoded[:: max(1, len(encoded) // args.speed_pairs)])[: args.speed_pairs]
    speed = pairs_per_second(models, timed, args.repeats)
    return {
        "pairs": len(rows),
        "mean_word_pieces": round(float(np.mean([len(ids) for ids, _ in encoded])), 1),
        "forms": forms,
        "speed": {"pairs": len(timed), "threads": args.threads, "pairs_per_second_batched": speed},
    }


def holds(form: dict[str, Any], fp32: dict[str, Any], args: argparse.Namespace) -> bool:
    drop = (
        fp32["per_set"]["macro"]["balanced_accuracy"]
        - form["per_set"]["macro"]["balanced_accuracy"]
    )
    return bool(form["label_agreement"] >= args.min_agreement and drop <= args.tolerance)


def decide(report: dict[str, Any], args: argparse.Namespace) -> str:
    """The first form of :data:`CANDIDATES` that holds accuracy and fits (module docstring)."""
    if args.ship != "auto":
        return str(args.ship)
    forms = report["forms"]
    for name in CANDIDATES:
        if holds(forms[name], forms["fp32"], args) and forms[name]["bytes"] <= args.max_bytes:
            return name
    summary = {k: (v["label_agreement"], v["bytes"]) for k, v in forms.items()}
    raise SystemExit(f"no form holds accuracy within {args.max_bytes:,} bytes: {summary}")


def metadata(meta_path: Path | None, fp32: Path) -> dict[str, Any]:
    """The trainer's ``judge.json`` (the kept keys), or the defaults of an early export."""
    from judge_pairs import MAX_TOKENS

    meta: dict[str, Any] = {
        "name": "spanproof-judge",
        "labels": list(LABELS),
        "max_tokens": MAX_TOKENS,
        "inputs": ["input_ids", "attention_mask", "token_type_ids"],
        "output": "probabilities",
    }
    if meta_path is not None and meta_path.is_file():
        trained = json.loads(meta_path.read_text(encoding="utf-8"))
        meta.update({k: trained[k] for k in KEPT_META if k in trained})
        for key in ("training", "recipe_change", "dev"):
            if key in trained:
                meta[f"trainer_{key}"] = trained[key]
    meta["fp32_sha256"] = hashlib.sha256(fp32.read_bytes()).hexdigest()
    return meta


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fp32", type=Path, default=Path(".judge-ckpt/judge_fp32.onnx"))
    parser.add_argument("--meta", type=Path, default=None, help="default: judge.json beside it")
    parser.add_argument("--dev", type=Path, default=None, help="default: dev_pairs.jsonl beside")
    parser.add_argument("--calibration-jsonl", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("src/spanproof/models"))
    parser.add_argument("--work", type=Path, default=Path("build/judge"))
    parser.add_argument("--calibration", type=int, default=256, help="calibration pairs")
    parser.add_argument("--block", type=int, default=16, help="int8-weights block")
    parser.add_argument("--compare", type=int, default=200, help="dev pairs compared per set")
    parser.add_argument("--alone", type=int, default=48, help="pairs also judged alone")
    parser.add_argument("--speed-pairs", type=int, default=96)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--min-agreement", type=float, default=0.98)
    parser.add_argument("--tolerance", type=float, default=0.015)
    parser.add_argument("--max-bytes", type=int, default=MAX_BYTES)
    parser.add_argument("--ship", choices=("auto", *CANDIDATES), default="auto")
    args = parser.parse_args()
    args.meta = args.meta or args.fp32.with_name("judge.json")
    args.dev = args.dev or args.fp32.with_name("dev_pairs.jsonl")
    return args


def install(source: Path, meta: dict[str, Any], report: dict[str, Any], out: Path) -> Path:
    """``judge.onnx`` and ``judge.json`` in ``out`` (no timings: the same inputs, the same
    bytes)."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "judge.onnx"
    target.write_bytes(source.read_bytes())
    chosen = report["chosen"]
    meta = {
        **meta,
        "quantization": chosen,
        "truncation": "only_second",
        "onnx_sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
        "quantize": {
            "method": METHODS[chosen].format(block=report["block"]),
            **{k: v for k, v in report.items() if k != "speed"},
        },
    }
    (out / "judge.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return target


def main() -> None:
    args = parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    meta = metadata(args.meta, args.fp32)
    meta_fp32 = args.work / "judge_fp32.json"
    meta_fp32.write_text(json.dumps({**meta, "quantization": "fp32"}, indent=1) + "\n")
    reference = JudgeChecker(args.fp32, metadata_path=meta_fp32)

    began = time.perf_counter()
    if args.calibration_jsonl is not None:
        train = read_jsonl(args.calibration_jsonl)
    else:
        train = judge_pairs_split("train")
    calibration = seeded_sample(train, args.calibration, "calibration")
    with (args.work / "calibration.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in calibration)
    paths = {
        "static-int8": args.work / "judge_static_int8.onnx",
        "int8-weights": args.work / "judge_int8_weights.onnx",
        "fp32": args.fp32,
    }
    encoded = reference.encode([(r["claim"], r["evidence"]) for r in calibration])
    static_int8(args.fp32, paths["static-int8"], encoded)
    int8_weights(args.fp32, paths["int8-weights"], args.block)
    print(f"quantised in {time.perf_counter() - began:.0f} s", flush=True)

    dev = read_jsonl(args.dev) if args.dev.is_file() else judge_pairs_split("dev")
    report = compare(paths, meta_fp32, per_set_sample(dev, args.compare), args)
    report["block"] = args.block
    report["calibration"] = {
        "pairs": len(calibration),
        "source": args.calibration_jsonl.name if args.calibration_jsonl else "judge_pairs train",
    }
    (args.work / "quantize_report.json").write_text(json.dumps(report, indent=1) + "\n")
    summary = {
        name: {
            "macro_balanced_accuracy": form["per_set"]["macro"]["balanced_accuracy"],
            **{k: v for k, v in form.items() if k != "per_set"},
        }
        for name, form in report["forms"].items()
    }
    print(json.dumps({**summary, "speed": report["speed"]}, indent=1), flush=True)
    report["chosen"] = decide(report, args)
    target = install(paths[report["chosen"]], meta, report, args.out)
    (args.work / "quantize_report.json").write_text(json.dumps(report, indent=1) + "\n")
    size = target.stat().st_size / 1e6
    print(f"wrote {target} ({report['chosen']}, {size:.1f} MB) and judge.json")


if __name__ == "__main__":
    main()
