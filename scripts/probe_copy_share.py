"""Would a floor on how much of its window a near copy reproduces save v6's paraphrases? (#13)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_copy_share.py \
        [--write docs/edit-check.md]

Score model v6's edit check reads some SciFact expert paraphrases as near copies with an
unsupported substitution, which is why its paraphrase recall stays below v2's. Those paraphrases
reuse a few words of a long sentence. One candidate rule would apply the check only when the
claim copies at least a minimum share of its window (:func:`spanproof.verify.edits.window_share`).
This probe measures that share on the realistic generator's cases (seed 0, as
``scripts/calibrate.py``) for the paraphrases v6 turns from v2's ``supported`` into not supported,
and for the shortened copies with a swapped phrase (``clause_substitution``) the check must keep
catching. For each floor it then gives, per half: v6's paraphrase recall if every turned
paraphrase below the floor got v2's ``supported`` back, and the share of clause substitutions
the floor would exempt from the check. About two minutes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from _report import checker_for, data_root, publish

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, EvidenceSpan
from spanproof.evaluation import realistic
from spanproof.services.verification import score_all
from spanproof.verify.edits import window_share
from spanproof.verify.scoring import SCORE_MODELS

BEGIN = "<!-- copy-share:begin -->"
END = "<!-- copy-share:end -->"
FLOORS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45)
KINDS = ("paraphrase", "clause_substitution", "first_clause", "phrase_substitution")


def _quantiles(values: Sequence[float]) -> str:
    if not values:
        return "—"
    q = np.quantile(values, [0.0, 0.05, 0.5])
    return " / ".join(f"{v:.2f}" for v in q)


def measure(root: Path, limit: int) -> dict[str, object]:
    cases = [c for c in realistic.generate(root, seed=0, limit_per_kind=limit) if c.kind in KINDS]
    embedder = build_embedder(load_settings())
    rows = []
    for case in cases:
        row: dict[str, object] = {"kind": case.kind, "split": case.split}
        row["share"] = window_share(case.claim, case.evidence, SCORE_MODELS["v6"].edit_changed_runs)
        if case.kind == "paraphrase":
            claim, span = Claim(id="c", text=case.claim), EvidenceSpan(id="e", text=case.evidence)
            for name in ("v2", "v6"):
                verdicts, _ = score_all(
                    [claim], [span], embedder, SCORE_MODELS[name], checker_for(SCORE_MODELS[name])
                )
                row[name] = verdicts[0].verdict.value == "supported"
        rows.append(row)
    return {"rows": rows, "limit": limit}


def render(result: dict[str, object], seconds: float) -> str:
    rows = result["rows"]
    assert isinstance(rows, list)
    halves = (realistic.CALIBRATION, realistic.HELDOUT)
    lines = [
        BEGIN,
        "Measured by `python scripts/probe_copy_share.py --write docs/edit-check.md` "
        f"({seconds:.0f} s; realistic generator, seed 0, {result['limit']} cases per kind). "
        "Share of its window a claim copies (`edits.window_share`), minimum / 5th percentile / "
        "median:",
        "",
        "| cases | half | n | share |",
        "|---|---|---:|---|",
    ]
    for label, pick in (
        (
            "paraphrases v6 turns from v2's `supported`",
            lambda r: r["kind"] == "paraphrase" and r["v2"] and not r["v6"],
        ),
        ("clause substitutions", lambda r: r["kind"] == "clause_substitution"),
        ("first clauses (supported)", lambda r: r["kind"] == "first_clause"),
        ("phrase substitutions", lambda r: r["kind"] == "phrase_substitution"),
    ):
        for half in halves:
            mine = [float(r["share"]) for r in rows if r["split"] == half and pick(r)]
            lines.append(f"| {label} | {half} | {len(mine)} | {_quantiles(mine)} |")
    lines += [
        "",
        "With a floor (the check skipped below it, so a turned paraphrase gets v2's `supported` "
        "back): v6's SciFact paraphrase recall, against v2's, and the clause substitutions the "
        "floor would exempt from the check:",
        "",
        "| floor | paraphrase recall, calibration (v2) | held out (v2) | clause substitutions "
        "exempted, calibration | held out |",
        "|---:|---:|---:|---:|---:|",
    ]
    for floor in FLOORS:
        cells = [f"{floor:.2f}"]
        recall, exempted = [], []
        for half in halves:
            para = [r for r in rows if r["kind"] == "paraphrase" and r["split"] == half]
            v2 = sum(bool(r["v2"]) for r in para) / len(para)
            back = sum(
                bool(r["v6"]) or (bool(r["v2"]) and float(r["share"]) < floor) for r in para
            ) / len(para)
            recall.append(f"{100 * back:.1f} % ({100 * v2:.1f} %)")
            clause = [r for r in rows if r["kind"] == "clause_substitution" and r["split"] == half]
            low = sum(float(r["share"]) < floor for r in clause)
            exempted.append(f"{low} of {len(clause)}")
        lines.append("| " + " | ".join(cells + recall + exempted) + " |")
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=400, help="cases per kind (default 400)")
    parser.add_argument("--write", type=Path, help="put the tables into this markdown file")
    args = parser.parse_args(argv)
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    result = measure(root, args.limit)
    text = render(result, time.perf_counter() - started)
    publish(text, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
