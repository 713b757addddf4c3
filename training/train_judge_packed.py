"""Train the judge from packed pairs on whatever torch device is there (a GPU when there is one).

    python training/train_judge_packed.py --packed .judge-gpu/judge_pairs.npz \
        --init src/spanproof/models/judge.onnx --out .judge-gpu/run \
        --recipe base:lr=3e-5,epochs=4 --recipe smooth:lr=5e-5,epochs=6,smoothing=0.1

Issue 14, item 2: longer training than the 2-core CPU allows (``train_judge.py`` stopped after
0.38 of a pass for time). Needs torch, numpy and onnx only — no spanproof, no data folder: the
pairs come tokenised from :mod:`pack_judge_pairs`, the starting weights from the shipped
``judge.onnx`` (its ``int8-weights`` form read back to fp32 by :func:`minilm.load_int8_weights`;
the word-piece table, frozen in training, stays that form's table, so the exported model and the
training agree on it exactly).

Each ``--recipe NAME:key=value,...`` (keys: ``lr``, ``epochs``, ``batch``, ``smoothing``,
``target_weight`` — a factor on the loss of the four target sets' pairs) is trained from the same
start with the same seed; after every epoch the dev split is scored and a running mean of the
epoch-end weights from the second epoch on is kept (the checkpoint average, the recipe change
that ``train_judge.py`` also tries). The candidate kept is the (recipe, epoch or average) with the
best mean ROC AUC of P(entailed) over the four target sets' dev pairs (SciFact, HealthVer,
Citation-Integrity, Check-COVID; supported vs not); its weights (every parameter but the frozen
word-piece table, fp32) are written in parts of at most 15 MB, with ``report.json`` (every
recipe's per-epoch dev figures: the learning curves) and ``dev_probs.npz`` (each candidate's dev
probabilities).

Determinism: seeds fixed, ``torch.use_deterministic_algorithms(True)``, no TF32, one batch plan
per recipe from ``random.Random(seed)``; ``--check-repeat N`` trains N steps twice and reports
whether the weights agree bit for bit. The same device kind and software give the same bits; a
CPU and a GPU do not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from minilm import (
    architecture,
    batches_in_length_order,
    load_int8_weights,
    optimiser_step,
    pad,
    pair_loss,
    warmup_then_decay,
)

SEED = 20261130
TARGET_SETS = ("scifact", "healthver", "citation_integrity", "check_covid")
PART_BYTES = 15_000_000
RECIPE_KEYS = {"lr": float, "epochs": int, "batch": int, "smoothing": float, "target_weight": float}


class Packed:
    """One split of the packed file: pairs as (ids, type_ids), labels, weights, datasets."""

    def __init__(self, data: Any, split: str) -> None:
        offsets = data[f"{split}_offsets"]
        ids = data[f"{split}_ids"].astype(np.int64)
        first_b = data[f"{split}_first_b"]
        self.pairs = []
        for k in range(len(offsets) - 1):
            row = ids[offsets[k] : offsets[k + 1]]
            types = np.zeros_like(row)
            types[first_b[k] :] = 1
            self.pairs.append((row, types))
        self.labels = data[f"{split}_labels"].astype(np.int64)
        self.datasets = data[f"{split}_datasets"].astype(np.int64)
        self.lengths = [len(r) for r, _ in self.pairs]


def parse_recipe(text: str) -> tuple[str, dict[str, Any]]:
    name, _, rest = text.partition(":")
    recipe: dict[str, Any] = {"lr": 3e-5, "epochs": 4, "batch": 32, "smoothing": 0.0,
                              "target_weight": 1.0}  # fmt: skip
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key not in RECIPE_KEYS:
            raise SystemExit(f"unknown recipe key {key!r} (known: {', '.join(RECIPE_KEYS)})")
        recipe[key] = RECIPE_KEYS[key](value)
    return name, recipe


def auc(scores: np.ndarray, positive: np.ndarray) -> float | None:
    """ROC AUC by ranks (ties share their mean rank)."""
    pos, neg = int(positive.sum()), int((~positive).sum())
    if not pos or not neg:
        return None
    order = np.argsort(scores, kind="stable")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[positive].sum() - pos * (pos + 1) / 2) / (pos * neg))


def figures(probs: np.ndarray, dev: Packed, names: list[str]) -> dict[str, Any]:
    """Per set: n, balanced accuracy of argmax (entailed vs not), ROC AUC of P(entailed) and of
    P(entailed) - P(contradicted); the target sets' mean AUC of P(entailed) as ``score``."""
    out: dict[str, Any] = {}
    for k, name in enumerate(names):
        rows = dev.datasets == k
        if not rows.any():
            continue
        gold = dev.labels[rows] == 0
        said = probs[rows].argmax(1) == 0
        recalls = [float((said[gold]).mean()) if gold.any() else None,
                   float((~said[~gold]).mean()) if (~gold).any() else None]  # fmt: skip
        known = [r for r in recalls if r is not None]
        out[name] = {
            "n": int(rows.sum()),
            "balanced_accuracy": round(float(np.mean(known)), 4) if known else None,
            "auc_entailed": _round(auc(probs[rows, 0], gold)),
            "auc_margin": _round(auc(probs[rows, 0] - probs[rows, 1], gold)),
        }
    aucs = [out[s]["auc_entailed"] for s in TARGET_SETS if s in out and out[s]["auc_entailed"]]
    out["score"] = round(float(np.mean(aucs)), 4) if aucs else 0.0
    return out


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def predict(model: Any, dev: Packed, device: Any, batch: int = 128) -> np.ndarray:
    import torch

    model.eval()
    order = sorted(range(len(dev.pairs)), key=lambda i: dev.lengths[i])
    out = np.zeros((len(dev.pairs), 3), dtype=np.float32)
    with torch.no_grad():
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            ids, mask, types = (
                torch.from_numpy(a).to(device) for a in pad([dev.pairs[i] for i in rows])
            )
            out[rows] = model(ids, mask, types).float().softmax(-1).cpu().numpy()
    model.train()
    return out


def start_model(init: Path, device: Any) -> tuple[Any, list[Any]]:
    import torch

    torch.manual_seed(SEED)
    model = architecture()
    load_int8_weights(model, init)
    model.words.weight.requires_grad_(False)
    model.to(device).train()
    return model, [p for p in model.parameters() if p.requires_grad]


def train_steps(
    model: Any,
    trainable: list[Any],
    train: Packed,
    weights: Any,
    recipe: dict[str, Any],
    device: Any,
    plan: list[list[int]],
    on_epoch: Any = None,
    steps_per_epoch: int = 0,
    deadline: float = 0.0,
) -> list[float]:
    import torch

    optim = torch.optim.AdamW(trainable, lr=recipe["lr"], weight_decay=0.01)
    total = len(plan)
    sched = warmup_then_decay(optim, total)
    labels_all = torch.from_numpy(train.labels).to(device)
    losses: list[float] = []
    for step, rows in enumerate(plan, start=1):
        if deadline and time.perf_counter() > deadline:
            print(f"deadline reached at step {step - 1} of {total}", flush=True)
            break
        ids, mask, types = (
            torch.from_numpy(a).to(device) for a in pad([train.pairs[i] for i in rows])
        )
        index = torch.tensor(rows, device=device)
        labels = labels_all[index]
        logp = model(ids, mask, types).log_softmax(-1)
        loss_rows = pair_loss(logp, labels, labels < 0, recipe["smoothing"])
        loss = (weights[index] * loss_rows).mean()
        losses.append(optimiser_step(loss, optim, sched, trainable))
        if on_epoch is not None and steps_per_epoch and step % steps_per_epoch == 0:
            on_epoch(step // steps_per_epoch, losses[-steps_per_epoch:])
    return losses


def plan_for(train: Packed, batch: int, epochs: int) -> tuple[list[list[int]], int]:
    rng = random.Random(SEED)
    plan: list[list[int]] = []
    per_epoch = 0
    for _ in range(epochs):
        chunk = batches_in_length_order(len(train.pairs), batch, train.lengths, rng)
        per_epoch = len(chunk)
        plan.extend(chunk)
    return plan, per_epoch


def trainable_state(model: Any) -> dict[str, np.ndarray]:
    return {
        k: v.detach().float().cpu().numpy()
        for k, v in model.state_dict().items()
        if k != "words.weight"
    }


def state_digest(state: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for k in sorted(state):
        h.update(k.encode())
        h.update(np.ascontiguousarray(state[k]).tobytes())
    return h.hexdigest()


def write_parts(state: dict[str, np.ndarray], out: Path, stem: str) -> list[str]:
    """``state`` as ``<stem>_partN.npz`` files of at most :data:`PART_BYTES` each."""
    for old in out.glob(f"{stem}_part*.npz"):
        old.unlink()
    parts: list[dict[str, np.ndarray]] = [{}]
    size = 0
    for k in sorted(state):
        if size + state[k].nbytes > PART_BYTES and parts[-1]:
            parts.append({})
            size = 0
        parts[-1][k] = state[k]
        size += state[k].nbytes
    names = []
    for n, part in enumerate(parts):
        path = out / f"{stem}_part{n}.npz"
        with path.open("wb") as fh:
            np.savez(fh, **part)
        names.append(path.name)
    return names


def read_parts(folder: Path, stem: str) -> dict[str, np.ndarray]:
    state: dict[str, np.ndarray] = {}
    for path in sorted(folder.glob(f"{stem}_part*.npz")):
        with np.load(path) as data:
            state.update({k: data[k] for k in data.files})
    if not state:
        raise SystemExit(f"no {stem}_part*.npz in {folder}")
    return state


class Search:
    """The candidates seen so far (every recipe's epochs and averages) and the best of them,
    whose weights are on disk as ``best_part*.npz``."""

    def __init__(self, out: Path, dev: Packed, names: list[str], device: Any) -> None:
        self.out, self.dev, self.names, self.device = out, dev, names, device
        self.best: tuple[float, str] = (0.0, "start")
        self.probs: dict[str, np.ndarray] = {}

    def score(self, model: Any, key: str) -> dict[str, Any]:
        """Score ``model`` on the dev split as candidate ``key``; keep its weights if best."""
        probs = predict(model, self.dev, self.device)
        found = figures(probs, self.dev, self.names)
        self.probs[key] = probs
        if key == "start":
            self.best = (found["score"], key)
        elif found["score"] > self.best[0]:
            self.best = (found["score"], key)
            write_parts(trainable_state(model), self.out, "best")
        return found

    def save_probs(self) -> None:
        with (self.out / "dev_probs.npz").open("wb") as fh:
            np.savez(fh, **{k.replace("@", "__"): v for k, v in self.probs.items() if k != "start"})


def run_recipe(
    search: Search,
    text: str,
    init: Path,
    train: Packed,
    base_weights: np.ndarray,
    deadline: float,
) -> tuple[str, dict[str, Any]]:
    """Train one recipe from ``init``: each epoch's weights and the mean of the epoch-end
    weights from the second epoch on are candidates of ``search``."""
    import torch

    name, recipe = parse_recipe(text)
    device, names = search.device, search.names
    model, trainable = start_model(init, device)
    targets = [names.index(s) for s in TARGET_SETS if s in names]
    w = base_weights * np.where(np.isin(train.datasets, targets), recipe["target_weight"], 1.0)
    weights = torch.from_numpy((w / w.mean()).astype(np.float32)).to(device)
    plan, per_epoch = plan_for(train, recipe["batch"], recipe["epochs"])
    curve: list[dict[str, Any]] = []
    average: dict[str, Any] = {}
    t0 = time.perf_counter()

    def on_epoch(epoch: int, losses: list[float]) -> None:
        dev_figures = search.score(model, f"{name}@{epoch}")
        point = {
            "epoch": epoch,
            "train_loss": round(float(np.mean(losses)), 4),
            "seconds": round(time.perf_counter() - t0, 1),
            "dev": dev_figures,
        }
        curve.append(point)
        print(name, json.dumps(point), flush=True)
        if epoch >= 2:
            with torch.no_grad():
                for k, v in model.state_dict().items():
                    if k != "words.weight":
                        average[k] = (
                            v.detach().double().clone()
                            if k not in average
                            else average[k] + v.detach().double()
                        )
            average["__count"] = average.get("__count", 0) + 1

    losses = train_steps(
        model, trainable, train, weights, recipe, device, plan, on_epoch, per_epoch, deadline
    )
    entry: dict[str, Any] = {
        "recipe": recipe,
        "steps": len(plan),
        "steps_done": len(losses),
        "steps_per_epoch": per_epoch,
        "train_seconds": round(time.perf_counter() - t0, 1),
        "final_loss": round(float(np.mean(losses[-100:])), 4),
        "curve": curve,
    }
    count = average.pop("__count", 0)
    if count >= 2:
        state = model.state_dict()
        mean = {k: (v / count).to(state[k].dtype) for k, v in average.items()}
        with torch.no_grad():
            model.load_state_dict({**state, **mean})
        entry["average"] = {"epochs": count, "dev": search.score(model, f"{name}@avg{count}")}
        print(f"{name}@avg{count}", json.dumps(entry["average"]), flush=True)
    return name, entry


def _limit(train: Packed, dev: Packed, weights: np.ndarray, args: argparse.Namespace) -> np.ndarray:
    """Smoke runs: the first ``--limit-train`` training pairs, about ``--limit-dev`` dev pairs."""
    if args.limit_train:
        n = args.limit_train
        train.pairs, train.lengths = train.pairs[:n], train.lengths[:n]
        train.labels, train.datasets = train.labels[:n], train.datasets[:n]
        weights = weights[:n]
    if args.limit_dev:
        keep = slice(None, None, max(1, len(dev.pairs) // args.limit_dev))
        dev.pairs, dev.lengths = dev.pairs[keep], dev.lengths[keep]
        dev.labels, dev.datasets = dev.labels[keep], dev.datasets[keep]
    return weights


def repeat_check(args: argparse.Namespace, train: Packed, weights: Any, device: Any) -> dict:
    """``--check-repeat`` steps of the default recipe, twice from the start: digests compared."""
    _, recipe = parse_recipe("repeat:")
    digests = []
    for _ in range(2):
        model, trainable = start_model(args.init, device)
        plan, _ = plan_for(train, recipe["batch"], 1)
        train_steps(model, trainable, train, weights, recipe, device, plan[: args.check_repeat])
        digests.append(state_digest(trainable_state(model)))
    return {"steps": args.check_repeat, "digests": digests, "identical": digests[0] == digests[1]}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--packed", type=Path, required=True)
    parser.add_argument("--init", type=Path, required=True, help="judge.onnx (int8-weights form)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--recipe", action="append", default=[], help="NAME:key=value,...")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--budget-s", type=float, default=0, help="start no recipe after this")
    parser.add_argument("--deadline-s", type=float, default=0, help="stop training after this")
    parser.add_argument("--check-repeat", type=int, default=0, help="N steps twice, compared")
    parser.add_argument("--limit-train", type=int, default=0, help="first N pairs only (smoke)")
    parser.add_argument("--limit-dev", type=int, default=0, help="about N dev pairs (smoke)")
    return parser.parse_args()


def main() -> None:
    args = parse_args()

    import torch

    torch.use_deterministic_algorithms(True)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    device = torch.device(
        ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    )
    began = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    with np.load(args.packed) as data:
        names = [str(x) for x in data["dataset_names"]]
        train, dev = Packed(data, "train"), Packed(data, "dev")
        base_weights = _limit(train, dev, data["train_weights"].astype(np.float32), args)
    report: dict[str, Any] = {
        "device": str(device),
        "device_name": torch.cuda.get_device_name(0) if device.type == "cuda" else "cpu",
        "torch": torch.__version__,
        "seed": SEED,
        "packed_sha256": hashlib.sha256(args.packed.read_bytes()).hexdigest(),
        "init_sha256": hashlib.sha256(args.init.read_bytes()).hexdigest(),
        "train_pairs": len(train.pairs),
        "dev_pairs": len(dev.pairs),
        "recipes": {},
    }

    def save_report() -> None:
        report["seconds"] = round(time.perf_counter() - began, 1)
        (args.out / "report.json").write_text(json.dumps(report, indent=1) + "\n")

    if args.check_repeat:
        weights = torch.from_numpy(base_weights).to(device)
        report["repeat_check"] = repeat_check(args, train, weights, device)
        print("repeat check", report["repeat_check"], flush=True)
        save_report()
    search = Search(args.out, dev, names, device)
    model, _ = start_model(args.init, device)
    report["start"] = search.score(model, "start")
    print("start", json.dumps(report["start"]), flush=True)
    deadline = began + args.deadline_s if args.deadline_s else 0.0
    for text in args.recipe:
        if args.budget_s and time.perf_counter() - began > args.budget_s:
            report["skipped"] = [*report.get("skipped", []), text]
            continue
        name, entry = run_recipe(search, text, args.init, train, base_weights, deadline)
        report["recipes"][name] = entry
        report["chosen"] = {"candidate": search.best[1], "score": search.best[0]}
        search.save_probs()
        save_report()
    if search.best[1] != "start":
        report["chosen"]["digest"] = state_digest(read_parts(args.out, "best"))
    save_report()
    took = f"{time.perf_counter() - began:.0f} s"
    print("chosen", json.dumps(report.get("chosen")), took, flush=True)


if __name__ == "__main__":
    main()
