"""Calibrate score model v4's edit check on the realistic generator's calibration half, and
compare v2 with v4 per kind on the held-out half.

    python scripts/calibrate_edits.py [--limit-per-kind N] [--score-model v4|v8] [--json out.json]

Each generator case is one claim against its evidence window (one span of one to three
sentences), so a claim has one (claim, span) pair and its v4 verdict at any threshold follows
from two runs: every open substitution allowed (threshold 0) and every one refused (threshold
above 1). A claim's verdict at threshold ``t`` is the refused run's when the lowest cosine among
its open questions is below ``t``, else the allowed run's. The threshold (and the number of
context words embedded with each phrase, ``edits.CONTEXT_WORDS``) that maximises balanced
accuracy over the kinds of the calibration half is chosen: the fewest context words among the
best, and the grid threshold nearest the middle of their plateau of best thresholds (the
calibration half cannot tell those apart). The held-out table is then measured by a plain run of
v4 with that threshold. ``--score-model v8`` calibrates v8's check the same way (two changed runs,
the run-share floor; context words fixed at the shipped 0): its threshold, and v8 against v2 in
the tables.

Kept apart from scripts/calibrate.py (another engineer's); that script may call :func:`run`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from _report import checker_for

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, ClaimVerdict, EvidenceSpan, Verdict
from spanproof.core.ports import Embedder
from spanproof.evaluation.devdata import data_dir
from spanproof.evaluation.realistic import (
    CALIBRATION,
    CONTRADICTED,
    HELDOUT,
    KINDS,
    LABELS,
    SUPPORTED,
    EditCase,
    generate,
)
from spanproof.services.verification import score_all
from spanproof.verify import edits
from spanproof.verify.scoring import SCORE_MODELS, V2, V4, ScoreModel

GRID = [round(0.30 + 0.01 * i, 2) for i in range(71)]  # 0.30 … 1.00
CONTEXTS = (0, 1, 2)


def _groups(cases: Sequence[EditCase]) -> dict[str, list[int]]:
    by_evidence: dict[str, list[int]] = defaultdict(list)
    for n, case in enumerate(cases):
        by_evidence[case.evidence].append(n)
    return by_evidence


def verdicts(
    cases: Sequence[EditCase], embedder: Embedder, model: ScoreModel
) -> list[ClaimVerdict]:
    """Every case's verdict under ``model`` (claims grouped by their evidence window)."""
    out: list[ClaimVerdict | None] = [None] * len(cases)
    for text, members in _groups(cases).items():
        claims = [Claim(id=f"c{n}", text=cases[n].claim) for n in members]
        got, status = score_all(
            claims, [EvidenceSpan(id="E", text=text)], embedder, model, checker_for(model)
        )
        if status != "verified":
            raise SystemExit(f"verification {status}")
        for n, verdict in zip(members, got, strict=True):
            out[n] = verdict
    return [v for v in out if v is not None]


def lowest_similarity(
    cases: Sequence[EditCase],
    refused: Sequence[ClaimVerdict],
    embedder: Embedder,
    model: ScoreModel = V4,
) -> list[float]:
    """The lowest phrase cosine among each case's open questions under ``model``'s alignment
    (``inf`` when none)."""
    alignments: list[edits.Alignment | None] = []
    for case, verdict in zip(cases, refused, strict=True):
        span = verdict.best_span
        if span is None:
            alignments.append(None)
            continue
        evidence = edits.prepare_evidence("E", case.evidence)
        alignments.append(
            edits.align_edits(
                case.claim,
                evidence,
                (span.start, span.end),
                changed_runs=model.edit_changed_runs,
                run_share_min=model.edit_run_share_min,
            )
        )
    texts = edits.phrase_texts(a for a in alignments if a is not None)
    vectors = dict(zip(texts, embedder.embed(texts).astype(np.float64), strict=True))
    lowest = []
    for a in alignments:
        sims = [
            float(vectors[q.claim_phrase] @ vectors[q.evidence_phrase])
            for q in (a.questions if a is not None else ())
        ]
        lowest.append(min(sims, default=float("inf")))
    return lowest


def expected(case: EditCase, verdict: Verdict) -> bool:
    """Whether the verdict is what the kind expects: supported, or not (a contradiction kind
    counts as caught when the claim is not supported; see ``rates`` for the exact label)."""
    supported = verdict is Verdict.SUPPORTED
    return supported if LABELS[case.kind] == SUPPORTED else not supported


def rates(cases: Sequence[EditCase], got: Sequence[Verdict], split: str) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for kind in KINDS:
        rows = [
            (c, v) for c, v in zip(cases, got, strict=True) if c.kind == kind and c.split == split
        ]
        if not rows:
            continue
        n = len(rows)
        entry = {"n": n, "expected": sum(expected(c, v) for c, v in rows) / n}
        if LABELS[kind] == CONTRADICTED:
            entry["contradicted"] = sum(v is Verdict.CONTRADICTED for _, v in rows) / n
        table[kind] = entry
    return table


def balanced_accuracy(table: dict[str, Any]) -> float:
    positive = [float(e["expected"]) for k, e in table.items() if LABELS[k] == SUPPORTED]
    negative = [float(e["expected"]) for k, e in table.items() if LABELS[k] != SUPPORTED]
    return (sum(positive) / len(positive) + sum(negative) / len(negative)) / 2


def at_threshold(
    allowed: Sequence[ClaimVerdict],
    refused: Sequence[ClaimVerdict],
    lowest: Sequence[float],
    t: float,
) -> list[Verdict]:
    return [
        (r.verdict if low < t else a.verdict)
        for a, r, low in zip(allowed, refused, lowest, strict=True)
    ]


def calibrate(
    cases: Sequence[EditCase],
    embedder: Embedder,
    model: ScoreModel = V4,
    contexts: Sequence[int] = CONTEXTS,
) -> tuple[int, float, list[tuple[int, float, float]]]:
    """The context size and threshold of ``model``'s check with the best balanced accuracy on
    the calibration half."""
    allowed = verdicts(cases, embedder, replace(model, edit_similarity_min=0.0))
    refused = verdicts(cases, embedder, replace(model, edit_similarity_min=1.01))
    curve: list[tuple[int, float, float]] = []
    saved = edits.CONTEXT_WORDS
    try:
        for context in contexts:
            edits.CONTEXT_WORDS = context
            lowest = lowest_similarity(cases, refused, embedder, model)
            for t in GRID:
                table = rates(cases, at_threshold(allowed, refused, lowest, t), CALIBRATION)
                curve.append((context, t, balanced_accuracy(table)))
    finally:
        edits.CONTEXT_WORDS = saved
    top = max(round(c[2], 6) for c in curve)
    context = min(c[0] for c in curve if round(c[2], 6) == top)
    plateau = [c[1] for c in curve if c[0] == context and round(c[2], 6) == top]
    # The middle of the best plateau: the calibration half cannot tell its thresholds apart.
    return (
        context,
        GRID[min(range(len(GRID)), key=lambda i: abs(GRID[i] - sum(plateau) / len(plateau)))],
        curve,
    )


def _plateau(curve: Sequence[tuple[int, float, float]], context: int) -> list[float]:
    """The lowest and highest threshold of the best balanced accuracy at ``context``."""
    mine = [c for c in curve if c[0] == context]
    top = max(round(c[2], 6) for c in mine)
    best = [c[1] for c in mine if round(c[2], 6) == top]
    return [min(best), max(best)]


def run(limit_per_kind: int | None = None, model: ScoreModel = V4) -> dict[str, Any]:
    root = data_dir()
    if root is None:
        raise SystemExit("error: development data not found (set SPANPROOF_DATA_DIR)")
    started = time.time()
    cases = generate(root, seed=0, limit_per_kind=limit_per_kind)
    embedder = build_embedder(load_settings())
    contexts = CONTEXTS if model.name == "v4" else (edits.CONTEXT_WORDS,)
    context, threshold, curve = calibrate(cases, embedder, model, contexts)
    edits.CONTEXT_WORDS = context
    v4 = replace(model, edit_similarity_min=threshold)
    v2_got = [v.verdict for v in verdicts(cases, embedder, V2)]
    v4_got = [v.verdict for v in verdicts(cases, embedder, v4)]
    return {
        "embed_model": embedder.model_id,
        "score_model": model.name,
        "cases": len(cases),
        "context_words": context,
        "threshold": threshold,
        "plateau": _plateau(curve, context),
        "curve": curve,
        "v2": {s: rates(cases, v2_got, s) for s in (CALIBRATION, HELDOUT)},
        "v4": {s: rates(cases, v4_got, s) for s in (CALIBRATION, HELDOUT)},
        "seconds": round(time.time() - started, 1),
    }


def render(report: dict[str, Any], split: str = HELDOUT) -> str:
    lines = [
        f"Edit check: context words {report['context_words']}, "
        f"threshold {report['threshold']:.2f} (best balanced accuracy from "
        f"{report['plateau'][0]:.2f} to {report['plateau'][1]:.2f}; {report['embed_model']}, "
        f"{report['cases']} cases)",
        "",
        f"| kind ({split}) | n | expected | v2 | {report.get('score_model', 'v4')} |",
        "|---|---|---|---|---|",
    ]
    for kind, v4 in report["v4"][split].items():
        v2 = report["v2"][split][kind]
        want = "supported" if LABELS[kind] == SUPPORTED else "not supported"
        cells = [f"{100 * v2['expected']:.1f}%", f"{100 * v4['expected']:.1f}%"]
        if "contradicted" in v4:
            cells = [
                f"{c} ({100 * r['contradicted']:.1f}% contradicted)"
                for c, r in zip(cells, (v2, v4), strict=True)
            ]
        lines.append(f"| {kind} | {v4['n']} | {want} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit-per-kind", type=int, default=None)
    parser.add_argument(
        "--score-model",
        choices=("v4", "v8"),
        default="v4",
        help="the score model whose check is calibrated (its changed runs and run-share floor)",
    )
    parser.add_argument("--json", type=Path, help="write the raw report here")
    args = parser.parse_args(argv)
    report = run(args.limit_per_kind, SCORE_MODELS[args.score_model])
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    print(render(report, CALIBRATION) + "\n\n" + render(report, HELDOUT))
    print(f"{report['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
