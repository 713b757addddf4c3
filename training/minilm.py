"""all-MiniLM-L6-v2 read as a cross-encoder: the architecture, padding, batches, the loss, the
learning-rate schedule and one optimiser step, and weights read back from a shipped ONNX model.

Shared by :mod:`train_cross_encoder`, :mod:`train_judge` and :mod:`train_judge_packed`. It
needs torch (and onnx for :func:`load_int8_weights`) and nothing of spanproof, so the packed
trainer runs on a machine that has torch and the repository's ``training/`` folder alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

HIDDEN, LAYERS, HEADS, INTERMEDIATE = 384, 6, 12, 1536
VOCAB, POSITIONS, LABEL_COUNT = 30522, 512, 3
#: The modules whose weight is a matrix read by a MatMul in the exported graph.
LINEARS = ("query", "key", "value", "attn_out", "inter", "out")


def architecture() -> Any:
    """The cross-encoder with freshly initialised weights (torch's default initialisation)."""
    import torch
    from torch import nn

    class Layer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.query = nn.Linear(HIDDEN, HIDDEN)
            self.key = nn.Linear(HIDDEN, HIDDEN)
            self.value = nn.Linear(HIDDEN, HIDDEN)
            self.attn_out = nn.Linear(HIDDEN, HIDDEN)
            self.attn_norm = nn.LayerNorm(HIDDEN, eps=1e-12)
            self.inter = nn.Linear(HIDDEN, INTERMEDIATE)
            self.out = nn.Linear(INTERMEDIATE, HIDDEN)
            self.out_norm = nn.LayerNorm(HIDDEN, eps=1e-12)
            self.drop = nn.Dropout(0.1)

        def forward(self, x: Any, bias: Any) -> Any:
            b, t, _ = x.shape

            def heads(z: Any) -> Any:
                return z.view(b, t, HEADS, HIDDEN // HEADS).transpose(1, 2)

            q, k, v = heads(self.query(x)), heads(self.key(x)), heads(self.value(x))
            scores = q @ k.transpose(-1, -2) / math.sqrt(HIDDEN // HEADS) + bias
            ctx = (self.drop(scores.softmax(-1)) @ v).transpose(1, 2).reshape(b, t, HIDDEN)
            x = self.attn_norm(x + self.drop(self.attn_out(ctx)))
            h = self.out(nn.functional.gelu(self.inter(x)))
            return self.out_norm(x + self.drop(h))

    class CrossEncoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.words = nn.Embedding(VOCAB, HIDDEN)
            self.positions = nn.Embedding(POSITIONS, HIDDEN)
            self.types = nn.Embedding(2, HIDDEN)
            self.norm = nn.LayerNorm(HIDDEN, eps=1e-12)
            self.drop = nn.Dropout(0.1)
            self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
            self.head = nn.Linear(HIDDEN, LABEL_COUNT)

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            t = input_ids.shape[1]
            pos = torch.arange(t, device=input_ids.device).unsqueeze(0)
            x = self.words(input_ids) + self.positions(pos) + self.types(token_type_ids)
            x = self.drop(self.norm(x))
            mask = attention_mask.to(x.dtype)
            bias = (1.0 - mask)[:, None, None, :] * -1e4
            for layer in self.layers:
                x = layer(x, bias)
            pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True).clamp(min=1.0)
            return self.head(self.drop(pooled))

    return CrossEncoder()


def pad(batch: Sequence[tuple[Sequence[int], Sequence[int]]]) -> tuple[np.ndarray, ...]:
    """``(input_ids, attention_mask, token_type_ids)``, int64, padded to the batch's longest."""
    width = max(len(ids) for ids, _ in batch)
    ids = np.zeros((len(batch), width), dtype=np.int64)
    types = np.zeros_like(ids)
    mask = np.zeros_like(ids)
    for row, (i, t) in enumerate(batch):
        ids[row, : len(i)] = i
        types[row, : len(t)] = t
        mask[row, : len(i)] = 1
    return ids, mask, types


def batches_in_length_order(
    n: int, batch: int, lengths: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Seeded shuffle, then length-sorted within chunks of 50 batches, then batches shuffled."""
    order = list(range(n))
    rng.shuffle(order)
    out: list[list[int]] = []
    chunk = batch * 50
    for start in range(0, n, chunk):
        part = sorted(order[start : start + chunk], key=lambda i: lengths[i])
        out.extend(part[k : k + batch] for k in range(0, len(part), batch))
    rng.shuffle(out)
    return out


def pair_loss(logp: Any, labels: Any, partial: Any, smoothing: float) -> Any:
    """Per-pair loss: (smoothed) cross-entropy for full labels, ``-log(p_c + p_n)`` for the
    partial one. ``labels``: class index (ignored where ``partial``)."""
    import torch

    nll = -logp.gather(1, labels.clamp(min=0)[:, None])[:, 0]
    if smoothing:
        nll = (1 - smoothing) * nll - smoothing * logp.mean(-1)
    not_entailed = -torch.logsumexp(logp[:, 1:], dim=-1)
    return torch.where(partial, not_entailed, nll)


def warmup_then_decay(optim: Any, steps: int) -> Any:
    """The schedule of every trainer here: linear warm-up over the first 5 % of ``steps``, then
    linear decay to 0 at ``steps``."""
    import torch

    warmup = max(1, steps // 20)

    def schedule(step: int) -> float:
        return step / warmup if step < warmup else max(0.0, (steps - step) / (steps - warmup))

    return torch.optim.lr_scheduler.LambdaLR(optim, schedule)


def optimiser_step(loss: Any, optim: Any, sched: Any, trainable: Sequence[Any]) -> float:
    """Backward, gradient norm clipped at 1, one AdamW and one schedule step; the loss."""
    import torch

    optim.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(trainable, 1.0)
    optim.step()
    sched.step()
    return float(loss.detach())


def int8_weights_state(path: Path) -> dict[str, np.ndarray]:
    """The fp32 weights of a judge ONNX in the ``int8-weights`` form of
    :mod:`quantize_judge` (every large matrix int8 with its scales; the rest fp32), by module
    name of :func:`architecture`: ``q * scale`` restores each matrix, and a MatMul's weight is
    mapped to its module through the MatMul's output name (``/inner/layers.0/query/...``) and
    transposed back to torch's (out, in) layout."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}

    def restored(name: str) -> np.ndarray:
        if name in inits:
            return inits[name].astype(np.float32)
        q = inits[f"{name}_int8"].astype(np.float32)
        shape = tuple(int(d) for d in inits[f"{name}_shape"])
        return (q * inits[f"{name}_scale"]).reshape(shape).astype(np.float32)

    state: dict[str, np.ndarray] = {}
    for name, value in inits.items():
        if name.startswith("inner.") and value.dtype == np.float32 and not name.endswith("_scale"):
            state[name.removeprefix("inner.")] = value.copy()
    for name in ("words", "positions", "types"):
        state[f"{name}.weight"] = restored(f"inner.{name}.weight")
    for node in graph.node:
        if node.op_type != "MatMul" or not node.input[1].startswith("onnx::MatMul"):
            continue
        parts = node.output[0].split("/")
        if len(parts) < 4 or not parts[2].startswith("layers.") or parts[3] not in LINEARS:
            continue
        state[f"{parts[2]}.{parts[3]}.weight"] = np.ascontiguousarray(restored(node.input[1]).T)
    return state


def load_int8_weights(model: Any, path: Path) -> None:
    """Load :func:`int8_weights_state` into ``model``; every parameter must be found."""
    import torch

    state = int8_weights_state(path)
    wanted = model.state_dict()
    missing = sorted(set(wanted) - set(state))
    if missing:
        raise SystemExit(f"{path}: no weights for {missing[:5]} ({len(missing)} missing)")
    model.load_state_dict({k: torch.from_numpy(state[k]).reshape(wanted[k].shape) for k in wanted})
