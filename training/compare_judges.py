"""Compare judge runs: ranking power per dev set, and paraphrases against substitutions.

    SPANPROOF_DATA_DIR=../shared/data .venv-train/bin/python training/compare_judges.py \
        .judge-ckpt <another run's --ckpt-dir> ... [--realistic] [--json OUT]

For each run folder (a ``--ckpt-dir`` of :mod:`train_judge` after its end phase):

* from its ``dev_judged.jsonl`` (the whole dev split with the model's probabilities), per set:
  ROC AUC of P(entailed) − P(contradicted) for entailed against the rest of the set's pairs,
  the same on the set's headline labels (SciFact and HealthVer without their neutral pairs, as
  issue 14 measures them), and the balanced accuracy of the argmax on the headline labels;
* with ``--realistic``, through its ``judge_fp32.onnx``: the held-out half of the realistic edit
  generator (:mod:`spanproof.evaluation.realistic`, seed 0, 150 cases per kind, the half no judge
  trains on): the median P(entailed) per kind, and the ROC AUC of P(entailed) for SciFact's
  expert paraphrases against the substitution kinds (phrase, entity, scope, role swap, clause,
  two details). Above 0.5 the judge ranks a reworded true claim above a copy with a detail
  changed; an edit check could then let it vouch for paraphrases (docs/edit-check.md).
* with ``--fit-gap N``, through its ``judge_fp32.onnx``: the same AUC (entailed against the
  rest) on a seeded sample of N *training* pairs per set next to N dev pairs, which tells a
  model that cannot fit a set (both low) from one that fits it without generalising (training
  high, dev low).
* with ``--ensemble``, the same dev figures for the runs' mean probabilities (each dev pair's
  P(entailed), P(contradicted), P(neutral) averaged over the folders given): what an ensemble of
  the runs reads, and so the most a distillation of that ensemble into one judge could learn
  from it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_pairs import MAX_TOKENS, JudgePair
from train_cross_encoder import tokenizer
from train_judge import onnx_probs

SETS = (
    "scifact",
    "healthver",
    "citation_integrity",
    "check_covid",
    "covidfact",
    "climate_fever",
    "fever",
)
SUBSTITUTIONS = (
    "phrase_substitution",
    "entity_substitution",
    "scope_change",
    "role_swap",
    "clause_substitution",
    "two_details",
)


def auc(pos: Sequence[float], neg: Sequence[float]) -> float:
    """P(a positive scores above a negative), ties counting half."""
    if not pos or not neg:
        return float("nan")
    p, n = np.asarray(pos)[:, None], np.asarray(neg)[None, :]
    return float(((p > n).sum() + 0.5 * (p == n).sum()) / (p.size * n.size))


def _probabilities(row: dict[str, Any]) -> list[float]:
    probs = row["probabilities"]
    if isinstance(probs, dict):
        return [probs["entailed"], probs["contradicted"], probs["neutral"]]
    return list(probs)


def judged_rows(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "dev_judged.jsonl").open(encoding="utf-8")]


def ensemble_rows(folders: Sequence[Path]) -> list[dict[str, Any]]:
    """The first folder's dev rows with every run's probabilities averaged (same pairs, same
    order, checked)."""
    runs = [judged_rows(f) for f in folders]
    out = []
    for rows in zip(*runs, strict=True):
        first = rows[0]
        if any((r["claim"], r["evidence"]) != (first["claim"], first["evidence"]) for r in rows):
            raise SystemExit("the runs' dev splits differ: an ensemble needs the same pairs")
        mean = np.mean([_probabilities(r) for r in rows], axis=0)
        out.append({**first, "probabilities": [float(x) for x in mean]})
    return out


def dev_figures(
    folder: Path, rows: list[dict[str, Any]] | None = None
) -> dict[str, dict[str, float]]:
    rows = judged_rows(folder) if rows is None else rows
    out: dict[str, dict[str, float]] = {}
    for name in SETS:
        mine = [r for r in rows if r["dataset"] == name]
        if not mine:
            continue
        probs = [_probabilities(r) for r in mine]
        margin = [p[0] - p[1] for p in probs]
        gold = [r["label"] == "entailed" for r in mine]
        head = [
            i
            for i, r in enumerate(mine)
            if not (name in ("scifact", "healthver") and r["label"] == "neutral")
        ]
        said = [int(np.argmax(p)) == 0 for p in probs]
        pos = [said[i] for i in head if gold[i]]
        neg = [not said[i] for i in head if not gold[i]]
        out[name] = {
            "auc_all": auc(
                [m for m, g in zip(margin, gold, strict=True) if g],
                [m for m, g in zip(margin, gold, strict=True) if not g],
            ),
            "auc_headline": auc(
                [margin[i] for i in head if gold[i]], [margin[i] for i in head if not gold[i]]
            ),
            "ba_headline": (float(np.mean(pos)) + float(np.mean(neg))) / 2 if pos and neg else 0,
        }
    return out


def realistic_figures(folder: Path, limit: int = 150) -> dict[str, float]:
    from spanproof.evaluation import realistic
    from spanproof.evaluation.devdata import data_dir

    root = data_dir()
    if root is None:
        raise SystemExit("set SPANPROOF_DATA_DIR to ../shared/data")
    cases = [
        c
        for c in realistic.generate(root, seed=0, limit_per_kind=limit)
        if c.split == realistic.HELDOUT
    ]
    pairs = [JudgePair(c.claim, c.evidence, "entailed", "", "realistic", "dev") for c in cases]
    probs, _ = onnx_probs(folder / "judge_fp32.onnx", tokenizer(MAX_TOKENS), pairs, threads=2)
    by_kind: dict[str, list[float]] = defaultdict(list)
    for case, p in zip(cases, probs, strict=True):
        by_kind[case.kind].append(float(p[0]))
    out = {f"median P(entailed) {k}": float(np.median(v)) for k, v in sorted(by_kind.items())}
    substituted = [x for k in SUBSTITUTIONS for x in by_kind[k]]
    out["AUC paraphrase vs substitutions"] = auc(by_kind["paraphrase"], substituted)
    return out


def fit_gap(folder: Path, per_set: int) -> dict[str, dict[str, float]]:
    import random

    from judge_pairs import LABELS, build_judge_pairs

    pairs, _ = build_judge_pairs(substitutions="phrase")
    rng = random.Random(20261202)
    tok = tokenizer(MAX_TOKENS)
    out: dict[str, dict[str, float]] = {}
    for name in SETS[:4]:
        out[name] = {}
        for split in ("train", "dev"):
            chosen = [p for p in pairs if p.dataset == name and p.split == split]
            chosen = [p for p in chosen if p.label in LABELS]
            rng.shuffle(chosen)
            chosen = chosen[:per_set]
            probs, _ = onnx_probs(folder / "judge_fp32.onnx", tok, chosen, threads=2)
            margin = [float(p[0] - p[1]) for p in probs]
            gold = [p.label == "entailed" for p in chosen]
            out[name][f"auc_{split}"] = auc(
                [m for m, g in zip(margin, gold, strict=True) if g],
                [m for m, g in zip(margin, gold, strict=True) if not g],
            )
            out[name][f"n_{split}"] = len(chosen)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--realistic", action="store_true")
    parser.add_argument("--fit-gap", type=int, default=0, metavar="N")
    parser.add_argument("--ensemble", action="store_true", help="add the runs' mean (see above)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    for folder in args.folders:
        entry: dict[str, Any] = {"dev": dev_figures(folder)}
        if args.realistic:
            entry["realistic_heldout"] = realistic_figures(folder)
        if args.fit_gap:
            entry["fit_gap"] = fit_gap(folder, args.fit_gap)
        report[str(folder)] = entry
    if args.ensemble:
        rows = ensemble_rows(args.folders)
        report["ensemble"] = {"dev": dev_figures(args.folders[0], rows)}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
