"""Fit score model v5's combiner on the development splits and measure v2 vs v5 per set.

    python scripts/fit_combiner.py                      # measure only (the shipped combiner)
    python scripts/fit_combiner.py --fit                # refit, write the weights module
    python scripts/fit_combiner.py --fit --write docs/quality.md

Data: the claim-level development splits of SciFact, HealthVer, Citation-Integrity and
Check-COVID (:func:`spanproof.evaluation.devdata.dev_items`; the judge never trained on them).
Every item is one claim against its own evidence (SciFact: the cited abstract). The judge's
probabilities and the deterministic signals come from score model v5 itself (the features its
verdicts record), so the combiner is fitted on exactly what it will read.

The fit: L2-regularised logistic regression (Newton's method in numpy; deterministic), target
"supported". Thresholds: ``supported_min`` is the lowest probability at which ``supported`` is
right at least 95 % of the time on *every* set; ``unsupported_max`` the highest at which
"not supported" is right at least 90 % of the time on every set. The figures reported are
cross-fitted (two folds by claim group: each half scored by the combiner fitted on the other,
thresholds chosen the same way inside each fold), so they are not the fit's own data; the
shipped weights are then fitted on all of it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _report import data_root, put_block

from spanproof.bootstrap import build_embedder, build_judge
from spanproof.config import load_settings
from spanproof.core.models import ClaimVerdict, Verdict
from spanproof.evaluation.devdata import DEV_SETS, DevItem, dev_items
from spanproof.services.verification import score_all
from spanproof.verifier import to_claims, to_evidence
from spanproof.verify.judging import FEATURES, Combiner
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS_MODULE = ROOT / "src" / "spanproof" / "verify" / "combiner_weights.py"
BEGIN = "<!-- judge-dev:begin -->"
END = "<!-- judge-dev:end -->"
PRECISION = 0.95
NPV = 0.90
L2 = 1.0


def score(
    items: Sequence[DevItem], model: ScoreModel, checker: Any, embedder: Any
) -> list[ClaimVerdict]:
    out = []
    for n, item in enumerate(items, start=1):
        claims = to_claims([item.claim])
        evidence = to_evidence(
            [{"id": f"E{k + 1}", "text": t} for k, t in enumerate(item.evidence)]
        )
        verdicts, status = score_all(claims, evidence, embedder, model, checker)
        if status != "verified":
            raise SystemExit(f"item {n}: {status}")
        out.append(verdicts[0])
        if n % 200 == 0:
            print(f"  {model.name}: {n}/{len(items)}", file=sys.stderr)
    return out


def features_of(verdict: ClaimVerdict) -> list[float]:
    if verdict.judge is None:  # no evidence window: nothing supports it
        return [0.0] * len(FEATURES)
    named = dict(verdict.judge.features)
    return [named[f] for f in FEATURES]


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-regularised logistic regression (bias not penalised)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(100):
        z = np.clip(xb @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = xb.T @ (p - y) + penalty * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return w[:-1], float(w[-1])


def probabilities(x: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    z = np.clip(x @ weights + bias, -30, 30)
    return 1.0 / (1.0 + np.exp(-z))


def thresholds(p: np.ndarray, y: np.ndarray, sets: np.ndarray) -> tuple[float, float]:
    """(supported_min, unsupported_max) meeting the precision goals on every set."""
    candidates = sorted(set(np.round(p, 6).tolist()))
    supported_min = 1.0
    for t in reversed(candidates):  # lowest t that keeps every set's precision at goal
        ok = True
        for s in np.unique(sets):
            sel = (sets == s) & (p >= t)
            if sel.any() and y[sel].mean() < PRECISION:
                ok = False
                break
        if not ok:
            break
        supported_min = t
    unsupported_max = 0.0
    for t in candidates:  # highest t that keeps every set's "not supported" right at goal
        ok = True
        for s in np.unique(sets):
            sel = (sets == s) & (p < t)
            if sel.any() and (1 - y[sel]).mean() < NPV:
                ok = False
                break
        if not ok:
            break
        unsupported_max = t
    return supported_min, min(unsupported_max, supported_min)


def fold_of(group: str) -> int:
    return hashlib.sha256(group.encode()).digest()[0] % 2


def headline(item: DevItem) -> bool:
    """Whether the item counts in its set's headline labels: SciFact SUPPORT vs CONTRADICT and
    HealthVer Supports vs Refutes leave their neutral items out."""
    return not (item.dataset in {"scifact", "healthver"} and item.label == "neutral")


def strict_ba(items: Sequence[DevItem], predicted: Sequence[bool]) -> float:
    """Balanced accuracy, supported vs not, on the set's headline label pair (issue 14)."""
    keep = [
        (it.label == "supported", pred)
        for it, pred in zip(items, predicted, strict=True)
        if headline(it)
    ]
    pos = [pred for gold, pred in keep if gold]
    neg = [not pred for gold, pred in keep if not gold]
    if not pos or not neg:
        return float("nan")
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def auc_of(pos: Sequence[float], neg: Sequence[float]) -> float:
    """ROC AUC: P(a positive scores above a negative), ties counting half; nan without both."""
    if not len(pos) or not len(neg):
        return float("nan")
    a, b = np.asarray(pos, dtype=np.float64)[:, None], np.asarray(neg, dtype=np.float64)[None, :]
    return float(((a > b).sum() + 0.5 * (a == b).sum()) / (a.size * b.size))


def auc(items: Sequence[DevItem], p: Sequence[float]) -> float:
    keep = [(it.label == "supported", s) for it, s in zip(items, p, strict=True) if headline(it)]
    return auc_of([s for g, s in keep if g], [s for g, s in keep if not g])


def verdict_of(p: float, feats: Sequence[float], comb: Combiner, v5: ClaimVerdict) -> str:
    """The v5 verdict a combiner gives (the same rule as score model v5)."""
    from spanproof.verify.judging import judged_verdict

    if v5.judge is None:
        return v5.verdict.value
    probs = v5.judge.probabilities
    named = dict(zip(FEATURES, feats, strict=True))
    capped = bool(named["numeric_gated"] or named["entity_gated"] or named["polarity_gated"])
    capped = capped or bool(named["edit_unsupported"] or named["edit_contradicted"])
    named_contra = bool(named["edit_contradicted"]) or (
        bool(named["polarity_gated"]) and v5.verdict is Verdict.CONTRADICTED
    )
    return judged_verdict(p, probs, comb, capped=capped, contradiction_named=named_contra).value


def per_set(
    items: Sequence[DevItem], verdicts: Sequence[str], p: Sequence[float] | None
) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name in DEV_SETS:
        idx = [i for i, it in enumerate(items) if it.dataset == name]
        sub = [items[i] for i in idx]
        v = [verdicts[i] for i in idx]
        supported = [x == "supported" for x in v]
        gold = [it.label == "supported" for it in sub]
        n_sup = sum(supported)
        right = sum(1 for s, g in zip(supported, gold, strict=True) if s and g)
        unsup = [i for i, x in enumerate(v) if x in {"unsupported", "contradicted"}]
        unsup_right = sum(1 for i in unsup if not gold[i])
        row = {
            "n": len(sub),
            "ba": strict_ba(sub, supported),
            "supported_share": n_sup / len(sub),
            "supported_precision": right / n_sup if n_sup else float("nan"),
            "positives_reached": right / max(1, sum(gold)),
            "not_supported_right": unsup_right / len(unsup) if unsup else float("nan"),
            "partial_share": sum(x == "partial" for x in v) / len(sub),
            "contradicted_share": sum(x == "contradicted" for x in v) / len(sub),
        }
        if p is not None:
            row["auc"] = auc(sub, [p[i] for i in idx])
        out[name] = row
    return out


def write_weights(comb: Combiner) -> None:
    weights = ",\n        ".join(f"{w!r}" for w in comb.weights)
    names = "\n".join(f"#   {n}" for n in FEATURES)
    fitted = f"        {json.dumps(comb.fitted_on)}"
    WEIGHTS_MODULE.write_text(
        f'''"""The shipped combiner of score model v5 (``scripts/fit_combiner.py --fit`` writes it).

Do not edit by hand: refit instead. Changing these numbers changes v5's verdicts, so stored v5
traces would no longer replay; a refit that ships needs a new score model name.
"""

from spanproof.verify.judging import Combiner

# Feature order:
{names}
COMBINER_V5 = Combiner(
    weights=(
        {weights},
    ),
    bias={comb.bias!r},
    supported_min={comb.supported_min!r},
    unsupported_max={comb.unsupported_max!r},
    contradicted_min={comb.contradicted_min!r},
    fitted_on=(
{fitted}
    ),
)
''',
        encoding="utf-8",
    )
    # The project's formatter lays the generated module out as the linter expects.
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", str(WEIGHTS_MODULE)], check=True)


def fmt(x: float) -> str:
    return "—" if math.isnan(x) else f"{100 * x:.1f}"


def render(report: dict[str, Any]) -> str:
    lines = [
        BEGIN,
        "## The judge in the verdict: v2 vs v5 on the development splits",
        "",
        f"Reproduce: `{report['command']}` ({report['seconds']:.0f} s). Judge: "
        f"`{report['judge']}`. Combiner fitted on: {report['fitted_on']}.",
        "",
        "Each claim against its own evidence (SciFact: the cited abstract). BA = balanced "
        "accuracy, supported vs not, on each set's headline labels (SciFact SUPPORT vs "
        "CONTRADICT, HealthVer Supports vs Refutes, Citation-Integrity ACCURATE vs the rest, "
        "Check-COVID SUPPORT vs REFUTE + NEI). v5 figures are **cross-fitted** (two folds by "
        "claim group, each scored by a combiner fitted on the other half). `supported` "
        "precision = share of `supported` verdicts whose gold label is supported (goal ≥ 95 %); "
        "coverage = share of gold-supported claims that reach `supported`.",
        "",
        "| set | n | BA v2 | BA v5 | AUC v5 | supported precision v2 | v5 | coverage v5 | "
        "not-supported right v5 | partial v5 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in DEV_SETS:
        a = report["v2"][name]
        b = report["v5_crossfit"][name]
        lines.append(
            f"| {name} | {b['n']} | {fmt(a['ba'])} | {fmt(b['ba'])} | {fmt(b['auc'])} | "
            f"{fmt(a['supported_precision'])} | {fmt(b['supported_precision'])} | "
            f"{fmt(b['positives_reached'])} | {fmt(b['not_supported_right'])} | "
            f"{fmt(b['partial_share'])} |"
        )
    lines += [
        "",
        f"Shipped thresholds: `supported` at p ≥ {report['combiner']['supported_min']:.4f}, "
        f"`unsupported` below {report['combiner']['unsupported_max']:.4f}, `partial` between.",
        "",
        END,
    ]
    return "\n".join(lines)


def cross_fit(
    items: Sequence[DevItem],
    v5: Sequence[ClaimVerdict],
    x: np.ndarray,
    y: np.ndarray,
    sets: np.ndarray,
) -> tuple[np.ndarray, list[str]]:
    """Probabilities and verdicts of each fold under the combiner fitted on the other fold."""
    folds = np.array([fold_of(it.group) for it in items])
    cross_p = np.zeros(len(items))
    cross_verdicts = [""] * len(items)
    for f in (0, 1):
        train, test = folds != f, folds == f
        w, b = fit_logistic(x[train], y[train])
        s_min, u_max = thresholds(probabilities(x[train], w, b), y[train], sets[train])
        comb = Combiner(tuple(float(v) for v in w), b, s_min, u_max)
        p = probabilities(x[test], w, b)
        for i, pi in zip(np.flatnonzero(test), p, strict=True):
            cross_p[i] = pi
            cross_verdicts[i] = verdict_of(float(pi), x[i], comb, v5[i])
    return cross_p, cross_verdicts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", action="store_true", help="refit and write the weights module")
    parser.add_argument("--write", type=Path, help="put the table into this markdown file")
    parser.add_argument("--json", type=Path, help="write the whole report as JSON")
    parser.add_argument("--limit", type=int, help="first N items per set (quick checks)")
    args = parser.parse_args(argv)
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    items = dev_items(root)
    if args.limit:
        counts: dict[str, int] = defaultdict(int)
        kept = []
        for it in items:
            if counts[it.dataset] < args.limit:
                counts[it.dataset] += 1
                kept.append(it)
        items = kept
    settings = load_settings()
    embedder = build_embedder(settings)
    judge = build_judge()
    v5_model = SCORE_MODELS["v5"]
    v2 = score(items, SCORE_MODELS["v2"], None, embedder)
    v5 = score(items, v5_model, judge, embedder)
    x = np.array([features_of(v) for v in v5])
    y = np.array([1.0 if it.label == "supported" else 0.0 for it in items])
    sets = np.array([it.dataset for it in items])
    cross_p, cross_verdicts = cross_fit(items, v5, x, y, sets)
    if args.fit:
        w, b = fit_logistic(x, y)
        s_min, u_max = thresholds(probabilities(x, w, b), y, sets)
        n_by = {name: int((sets == name).sum()) for name in DEV_SETS}
        fitted_on = "development splits " + ", ".join(f"{k} {v}" for k, v in n_by.items())
        shipped = Combiner(tuple(float(v) for v in w), b, s_min, u_max, 0.5, fitted_on)
        write_weights(shipped)
        print(f"wrote {WEIGHTS_MODULE.relative_to(ROOT)}", file=sys.stderr)
    else:
        shipped = v5_model.combiner
        assert shipped is not None
    report = {
        "command": "python scripts/fit_combiner.py"
        + (" --fit" if args.fit else "")
        + (f" --write {args.write}" if args.write else ""),
        "seconds": time.perf_counter() - started,
        "judge": judge.model_id,
        "fitted_on": shipped.fitted_on,
        "combiner": {
            "weights": dict(zip(FEATURES, shipped.weights, strict=True)),
            "bias": shipped.bias,
            "supported_min": shipped.supported_min,
            "unsupported_max": shipped.unsupported_max,
        },
        "v2": per_set(items, [v.verdict.value for v in v2], None),
        "v5_as_run": per_set(items, [v.verdict.value for v in v5], [v.score for v in v5]),
        "v5_crossfit": per_set(items, cross_verdicts, cross_p.tolist()),
    }
    print(json.dumps(report, indent=2, default=float))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=float) + "\n", encoding="utf-8")
    if args.write:
        put_block(args.write, render(report), BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
