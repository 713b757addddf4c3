"""Train the entailment checker and export it to ONNX (``make train-feature-checker``).

Steps, all on the CPU and deterministic under ``SEED``:

1. :mod:`build_pairs` builds labelled (claim, evidence) pairs from ``../shared/data``, adds
   synthetic polarity / number / entity edits of the entailed ones, and splits them by claim
   group: 15 % of the groups are the validation split, the same on every run.
2. Every distinct text is embedded with the bundled all-MiniLM-L6-v2 (int8, onnxruntime) through
   the on-disk embedding cache (``~/.cache/spanproof/checker-train-embeddings.sqlite`` by default:
   the first run embeds ~34k texts, later runs read them back).
3. :func:`spanproof.verify.features.pair_features` turns each pair into a feature vector.
4. Two architectures are trained in numpy with Adam on a class-weighted cross-entropy (FEVER's
   ``not_entailed`` pairs use the partial-label loss ``-log(p_contradicted + p_neutral)``):
   a multinomial logistic regression and a one-hidden-layer ReLU MLP. Each one's
   regularisation and epoch count are chosen on an inner development split of the *training*
   groups; it is then retrained on all training groups and scored on the validation split.
5. The architecture with the higher validation balanced accuracy (entailed vs the rest) is
   exported to ONNX (MatMul/Add/Relu/Softmax, feature standardisation folded into the first
   layer), re-scored through onnxruntime, and written with its metadata:
   ``<out>/checker.onnx`` and ``<out>/checker.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import (
    DATASETS,
    IDENTITY,
    LABELS,
    PARTIAL_LABEL,
    SEED,
    SYNTHETIC,
    VALIDATION_SHARE,
    Pair,
    build_pairs,
    summary,
)

from spanproof.verify.features import (
    EMBEDDING_DIM,
    FEATURE_VERSION,
    SCALAR_FEATURES,
    feature_count,
    pair_features_from_views,
    text_view,
)

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
INNER_SHARE = 0.15
BATCH = 256
LEARNING_RATE = 1e-3
MAX_EPOCHS = {"logreg": 30, "mlp": 25}
#: Hyper-parameter grid per architecture, searched on the inner development split.
GRID: dict[str, list[dict[str, float]]] = {
    "logreg": [{"l2": 1e-4}, {"l2": 1e-3}, {"l2": 1e-2}],
    "mlp": [
        {"hidden": 256, "l2": 1e-3, "dropout": 0.3},
        {"hidden": 512, "l2": 1e-4, "dropout": 0.5},
    ],
}
ONNX_OPSET = 17
ONNX_IR_VERSION = 8
#: Share of the total training weight per label (``synthetic:`` = the edited copies of
#: :func:`build_pairs.synthetic_pairs`). Entailed against the rest is the headline metric, so
#: "entailed" gets 0.4; real contradictions 0.25 keep contradiction recall up; the synthetic
#: edits teach the polarity, number and entity features without outweighing the real data.
#: (Measured on the inner split: equal label shares, 0.5 for entailed, and no synthetic pairs all
#: land within 0.01 balanced accuracy; the synthetic pairs raise recall on edited claims from
#: about 0.45 to 0.85.)
WEIGHT_SHARE = {
    "entailed": 0.4,
    "contradicted": 0.25,
    "neutral": 0.1,
    PARTIAL_LABEL: 0.1,
    f"{SYNTHETIC}:contradicted": 0.1,
    f"{SYNTHETIC}:{PARTIAL_LABEL}": 0.05,
}
DEFAULT_CACHE = Path.home() / ".cache" / "spanproof" / "checker-train-embeddings.sqlite"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- data


def embed_texts(texts: Sequence[str], cache: Path) -> dict[str, F32]:
    from spanproof.providers.embeddings import CachedEmbedder, OnnxMiniLMEmbedder

    out: dict[str, F32] = {}
    with CachedEmbedder(OnnxMiniLMEmbedder(batch_size=32), cache) as embedder:
        step = 2000
        for start in range(0, len(texts), step):
            chunk = list(texts[start : start + step])
            for text, row in zip(chunk, embedder.embed(chunk), strict=True):
                out[text] = row
            log(f"  embedded {min(start + step, len(texts))}/{len(texts)}")
    return out


def featurise(pairs: Sequence[Pair], vectors: dict[str, F32]) -> F32:
    x = np.empty((len(pairs), feature_count(EMBEDDING_DIM)), dtype=np.float32)
    for i, p in enumerate(pairs):
        x[i] = pair_features_from_views(
            text_view(p.claim), text_view(p.evidence), vectors[p.claim], vectors[p.evidence]
        )
    return x


def label_mask(pairs: Sequence[Pair]) -> F64:
    """Allowed labels per pair: one-hot for a full label, {contradicted, neutral} for FEVER's."""
    mask = np.zeros((len(pairs), len(LABELS)), dtype=np.float64)
    for i, p in enumerate(pairs):
        if p.label == PARTIAL_LABEL:
            mask[i, 1:] = 1.0
        else:
            mask[i, LABELS.index(p.label)] = 1.0
    return mask


def _weight_key(p: Pair) -> str:
    return f"{SYNTHETIC}:{p.label}" if p.dataset == SYNTHETIC else p.label


def sample_weights(pairs: Sequence[Pair]) -> F64:
    """Per-pair weights: each key of :data:`WEIGHT_SHARE` carries its share; mean weight 1."""
    counts: dict[str, int] = {}
    for p in pairs:
        counts[_weight_key(p)] = counts.get(_weight_key(p), 0) + 1
    present = sum(WEIGHT_SHARE[key] for key in counts)
    w = np.array([WEIGHT_SHARE[_weight_key(p)] / present / counts[_weight_key(p)] for p in pairs])
    return w * (len(w) / w.sum())


def inner_split(pairs: Sequence[Pair], rows: npt.NDArray[np.int64]) -> tuple[Any, Any]:
    """Split training rows by group into fit / development rows (seeded, like the main split)."""
    dev = np.array(
        [
            int.from_bytes(hashlib.sha256(f"{SEED}:inner:{pairs[i].group}".encode()).digest()[:8])
            / 2.0**64
            < INNER_SHARE
            for i in rows
        ]
    )
    return rows[~dev], rows[dev]


# ----------------------------------------------------------------------------- models


@dataclass
class Network:
    """Dense layers with ReLU between them and a softmax on top (no hidden layer = logreg)."""

    weights: list[F64]
    biases: list[F64]
    dropout: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, sizes: Sequence[int], rng: np.random.Generator, dropout: float) -> Network:
        weights, biases = [], []
        for fan_in, fan_out in itertools.pairwise(sizes):
            scale = np.sqrt(2.0 / fan_in) if fan_out != sizes[-1] else np.sqrt(1.0 / fan_in)
            weights.append(rng.normal(0.0, scale, size=(fan_in, fan_out)))
            biases.append(np.zeros(fan_out))
        return cls(weights, biases, dropout)

    def forward(
        self, x: F64, rng: np.random.Generator | None = None
    ) -> tuple[F64, list[F64], list[F64 | None]]:
        activations = [x]
        masks: list[F64 | None] = []
        h = x
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            z = h @ w + b
            if k == len(self.weights) - 1:
                return softmax(z), activations, masks
            h = np.maximum(z, 0.0)
            mask = None
            if rng is not None and self.dropout > 0:
                mask = (rng.random(h.shape) >= self.dropout) / (1.0 - self.dropout)
                h = h * mask
            masks.append(mask)
            activations.append(h)
        raise AssertionError("unreachable")

    def predict(self, x: F64) -> F64:
        probs, _, _ = self.forward(x)
        return probs


def softmax(z: F64) -> F64:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: F64 = e / e.sum(axis=1, keepdims=True)
    return out


def train(
    sizes: Sequence[int],
    x: F64,
    mask: F64,
    weight: F64,
    *,
    l2: float,
    dropout: float,
    epochs: int,
    seed: int,
    on_epoch: Callable[[int, Network], None] | None = None,
) -> Network:
    """Adam on the weighted (partial-label) cross-entropy with L2 on the weights."""
    rng = np.random.default_rng(seed)
    net = Network.create(sizes, rng, dropout)
    params = [*net.weights, *net.biases]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    n = len(x)
    for epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, BATCH):
            rows = order[start : start + BATCH]
            xb, mb, wb = x[rows], mask[rows], weight[rows]
            probs, acts, drops = net.forward(xb, rng)
            allowed = probs * mb
            target = allowed / np.maximum(allowed.sum(axis=1, keepdims=True), 1e-12)
            delta = (probs - target) * (wb / wb.sum())[:, None]
            grads_w: list[F64] = [np.empty(0)] * len(net.weights)
            grads_b: list[F64] = [np.empty(0)] * len(net.biases)
            for k in range(len(net.weights) - 1, -1, -1):
                grads_w[k] = acts[k].T @ delta + l2 * net.weights[k]
                grads_b[k] = delta.sum(axis=0)
                if k > 0:
                    delta = delta @ net.weights[k].T
                    delta = delta * (acts[k] > 0)
                    drop = drops[k - 1]
                    if drop is not None:
                        delta = delta * (drop > 0)
            step += 1
            grads = [*grads_w, *grads_b]
            for i, (param, g) in enumerate(zip(params, grads, strict=True)):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                m_hat = m[i] / (1 - beta1**step)
                v_hat = v[i] / (1 - beta2**step)
                param[...] -= LEARNING_RATE * m_hat / (np.sqrt(v_hat) + eps)
        if on_epoch is not None:
            on_epoch(epoch + 1, net)
    return net


# ----------------------------------------------------------------------------- metrics


def metrics(probs: npt.NDArray[Any], pairs: Sequence[Pair]) -> dict[str, Any]:
    """Validation metrics; argmax decides the label, "supported" means argmax = entailed."""
    pred = np.asarray(probs).argmax(axis=1)
    gold = np.array([p.label for p in pairs])
    out: dict[str, Any] = {"pairs": len(pairs)}
    entailed = gold == "entailed"
    pred_ent = pred == 0
    if entailed.any() and (~entailed).any():
        rec_pos = float(pred_ent[entailed].mean())
        rec_neg = float((~pred_ent[~entailed]).mean())
        out["balanced_accuracy"] = round((rec_pos + rec_neg) / 2, 4)
        out["recall_supported"] = round(rec_pos, 4)
        out["recall_not_supported"] = round(rec_neg, 4)
    recalls = {}
    for k, label in enumerate(LABELS):
        rows = gold == label
        if rows.any():
            recalls[label] = round(float((pred[rows] == k).mean()), 4)
    out["recall"] = recalls
    if len(recalls) > 1:
        out["balanced_accuracy_3way"] = round(float(np.mean(list(recalls.values()))), 4)
    contra = gold == "contradicted"
    if contra.any():
        out["contradiction_recall"] = recalls["contradicted"]
        out["contradicted_not_entailed"] = round(float((pred[contra] != 0).mean()), 4)
    partial = gold == PARTIAL_LABEL
    if partial.any():
        out["recall_not_entailed"] = round(float((pred[partial] != 0).mean()), 4)
    return out


def all_metrics(probs: npt.NDArray[Any], pairs: Sequence[Pair]) -> dict[str, Any]:
    """Metrics over the real pairs ("all"), without FEVER, per dataset, and on the synthetic
    edits (reported apart: they are not real data)."""

    def subset(keep: Callable[[Pair], bool]) -> dict[str, Any]:
        rows = [i for i, p in enumerate(pairs) if keep(p)]
        return metrics(probs[rows], [pairs[i] for i in rows])

    made = (SYNTHETIC, IDENTITY)
    out = {"all": subset(lambda p: p.dataset not in made)}
    out["all_but_fever"] = subset(lambda p: p.dataset not in ("fever", *made))
    for dataset in (*DATASETS, *made):
        if any(p.dataset == dataset for p in pairs):
            out[dataset] = subset(lambda p, d=dataset: p.dataset == d)  # type: ignore[misc]
    return out


# ----------------------------------------------------------------------------- export


def to_onnx(net: Network, mean: F64, std: F64) -> bytes:
    """The network as an ONNX graph; the standardisation is folded into the first layer."""
    from onnx import TensorProto, helper, numpy_helper

    w0 = net.weights[0] / std[:, None]
    b0 = net.biases[0] - (mean / std) @ net.weights[0]
    weights = [w0, *net.weights[1:]]
    biases = [b0, *net.biases[1:]]
    inits, nodes = [], []
    h = "features"
    for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
        inits.append(numpy_helper.from_array(w.astype(np.float32), f"W{k}"))
        inits.append(numpy_helper.from_array(b.astype(np.float32), f"B{k}"))
        nodes.append(helper.make_node("MatMul", [h, f"W{k}"], [f"mm{k}"]))
        last = k == len(weights) - 1
        nodes.append(helper.make_node("Add", [f"mm{k}", f"B{k}"], ["logits" if last else f"z{k}"]))
        if not last:
            nodes.append(helper.make_node("Relu", [f"z{k}"], [f"h{k}"]))
            h = f"h{k}"
    nodes.append(helper.make_node("Softmax", ["logits"], ["probabilities"], axis=-1))
    graph = helper.make_graph(
        nodes,
        "spanproof_checker",
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, ["n", w0.shape[0]])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["n", len(LABELS)])],
        initializer=inits,
    )
    model = helper.make_model(
        graph,
        producer_name="spanproof-training",
        opset_imports=[helper.make_opsetid("", ONNX_OPSET)],
    )
    model.ir_version = ONNX_IR_VERSION
    helper.set_model_props(model, {"feature_version": FEATURE_VERSION, "labels": ",".join(LABELS)})
    import onnx

    onnx.checker.check_model(model)
    data: bytes = model.SerializeToString()
    return data


def onnx_predict(model: bytes, x: F32) -> F32:
    import onnxruntime as ort

    options = ort.SessionOptions()
    session = ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    out: F32 = session.run(["probabilities"], {"features": x})[0]
    return out


# ----------------------------------------------------------------------------- driver


def select_and_fit(
    arch: str, x: F64, mask: F64, weight: F64, fit_rows: Any, dev_rows: Any, pairs: Sequence[Pair]
) -> tuple[dict[str, float], int, float]:
    """Best (config, epochs, dev balanced accuracy) for ``arch`` on the inner split."""
    best: tuple[dict[str, float], int, float] = ({}, 0, -1.0)
    dev_rows = np.array([i for i in dev_rows if pairs[i].dataset != SYNTHETIC], dtype=np.int64)
    dev_pairs = [pairs[i] for i in dev_rows]
    for config in GRID[arch]:
        sizes = _sizes(arch, config, x.shape[1])
        scores: list[float] = []

        def on_epoch(epoch: int, net: Network, scores: list[float] = scores) -> None:
            ba = metrics(net.predict(x[dev_rows]), dev_pairs)["balanced_accuracy"]
            scores.append(ba)

        train(
            sizes,
            x[fit_rows],
            mask[fit_rows],
            weight[fit_rows],
            l2=config["l2"],
            dropout=config.get("dropout", 0.0),
            epochs=MAX_EPOCHS[arch],
            seed=SEED,
            on_epoch=on_epoch,
        )
        epoch = int(np.argmax(scores)) + 1
        log(f"  {arch} {config}: best dev balanced accuracy {max(scores):.4f} at epoch {epoch}")
        if max(scores) > best[2]:
            best = (config, epoch, max(scores))
    return best


@dataclass(frozen=True)
class Split:
    train: npt.NDArray[np.int64]
    validation: npt.NDArray[np.int64]
    fit: npt.NDArray[np.int64]
    dev: npt.NDArray[np.int64]


def fit_architecture(
    arch: str,
    x: F64,
    mask: F64,
    weight: F64,
    weight_fit: F64,
    split: Split,
    pairs: Sequence[Pair],
) -> tuple[Network, dict[str, Any]]:
    """Select ``arch``'s configuration on the inner split, retrain on all training groups and
    score it on the validation split."""
    t0 = time.perf_counter()
    log(f"{arch}: model selection on the inner split")
    config, epochs, dev_ba = select_and_fit(arch, x, mask, weight_fit, split.fit, split.dev, pairs)
    log(f"{arch}: retraining on all training groups, {epochs} epochs, {config}")
    net = train(
        _sizes(arch, config, x.shape[1]),
        x[split.train],
        mask[split.train],
        weight[split.train],
        l2=config["l2"],
        dropout=config.get("dropout", 0.0),
        epochs=epochs,
        seed=SEED,
    )
    val = all_metrics(net.predict(x[split.validation]), [pairs[i] for i in split.validation])
    log(f"{arch}: validation {json.dumps(val['all'])}")
    log(f"{arch}: {time.perf_counter() - t0:.0f} s")
    result = {
        "config": config,
        "epochs": epochs,
        "inner_dev_balanced_accuracy": round(dev_ba, 4),
        "validation": val,
    }
    return net, result


def _sizes(arch: str, config: dict[str, float], dim: int) -> list[int]:
    if arch == "logreg":
        return [dim, len(LABELS)]
    return [dim, int(config["hidden"]), len(LABELS)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for checker.onnx/.json")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="embedding cache file")
    args = parser.parse_args(argv)
    started = time.perf_counter()

    pairs = build_pairs()
    log(f"{len(pairs)} pairs")
    texts = sorted({t for p in pairs for t in (p.claim, p.evidence)})
    log(f"embedding {len(texts)} distinct texts (cache: {args.cache})")
    vectors = embed_texts(texts, args.cache)
    log("features")
    x32 = featurise(pairs, vectors)
    mask = label_mask(pairs)
    train_rows = np.array([i for i, p in enumerate(pairs) if p.split == "train"], dtype=np.int64)
    val_rows = np.array([i for i, p in enumerate(pairs) if p.split == "validation"], dtype=np.int64)
    train_pairs = [pairs[i] for i in train_rows]
    val_pairs = [pairs[i] for i in val_rows]
    mean = x32[train_rows].astype(np.float64).mean(axis=0)
    std = x32[train_rows].astype(np.float64).std(axis=0)
    std = np.where(std < 1e-6, 1.0, std)
    x = (x32.astype(np.float64) - mean) / std
    weight = np.zeros(len(pairs))
    weight[train_rows] = sample_weights(train_pairs)
    fit_rows, dev_rows = inner_split(pairs, train_rows)
    weight_fit = np.zeros(len(pairs))
    weight_fit[fit_rows] = sample_weights([pairs[i] for i in fit_rows])

    split = Split(train_rows, val_rows, fit_rows, dev_rows)
    results: dict[str, Any] = {}
    nets: dict[str, Network] = {}
    for arch in ("logreg", "mlp"):
        nets[arch], results[arch] = fit_architecture(
            arch, x, mask, weight, weight_fit, split, pairs
        )

    chosen = max(
        nets, key=lambda a: (results[a]["validation"]["all"]["balanced_accuracy"], a == "logreg")
    )
    log(f"chosen: {chosen}")
    model = to_onnx(nets[chosen], mean, std)
    probs = onnx_predict(model, x32[val_rows])
    drift = float(np.abs(probs - nets[chosen].predict(x[val_rows])).max())
    shipped = all_metrics(probs, val_pairs)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "checker.onnx").write_bytes(model)
    card = {
        "name": "spanproof-checker",
        "feature_version": FEATURE_VERSION,
        "labels": list(LABELS),
        "input": {"name": "features", "shape": ["n", feature_count(EMBEDDING_DIM)]},
        "output": {"name": "probabilities", "shape": ["n", len(LABELS)]},
        "embedding_model": "sentence-transformers/all-MiniLM-L6-v2@onnx-int8",
        "scalar_features": list(SCALAR_FEATURES),
        "architecture": chosen,
        "onnx_sha256": hashlib.sha256(model).hexdigest(),
        "onnx_bytes": len(model),
        "precision": "float32",
        "seed": SEED,
        "split": {
            "rule": "sha256(f'{seed}:{group}') / 2**64 < share, by claim group, never by pair",
            "validation_share": VALIDATION_SHARE,
            "inner_dev_share": INNER_SHARE,
        },
        "decision": "label = argmax; supported = (argmax == entailed)",
        "data": summary(list(pairs)),
        "architectures": results,
        "shipped_validation": shipped,
        "onnx_vs_numpy_max_abs_diff": float(f"{drift:.3g}"),
    }
    (args.out / "checker.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    log(f"wrote {args.out / 'checker.onnx'} ({len(model)} bytes) and checker.json")
    log(f"shipped validation: {json.dumps(shipped['all'])}")
    log(f"wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
