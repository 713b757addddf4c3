"""Can the trained judge tell an expert paraphrase from a substituted phrase? (issue 13, 14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_edit_judge.py --limit 150 [--json]

Score model v4's edit check reads a reworded predicate in an expert paraphrase ("regulates the
homeostasis of" for "is important for") as an unsupported substitution, which is why v4's
SciFact paraphrase recall stays below v2's. One way out would be to let the judge overrule the
edit check when it reads the claim as entailed. This probe measures whether that could work: for
each case of the realistic generator (``spanproof.evaluation.realistic``, seed 0 as in
``scripts/calibrate.py``, ``--limit`` cases per kind) it scores v2, v4 and v6, and for every case
the edit check turned from v2's ``supported`` into not supported (and every paraphrase) it reads
the judge's probability that the evidence window entails the claim. Printed per half and kind:
the share each model judged supported, how many cases the edit check turned, and the judge's
entailment probabilities of those cases (quartiles). A usable override needs a threshold above
which substitutions are rare and paraphrases common.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, EvidenceSpan
from spanproof.evaluation import realistic
from spanproof.providers.checker.judge import JudgeChecker
from spanproof.services.verification import score_all
from spanproof.verify.scoring import SCORE_MODELS

MODELS = ("v2", "v4", "v6")


def probe(root: Path, limit: int) -> list[dict[str, Any]]:
    cases = realistic.generate(root, seed=0, limit_per_kind=limit)
    embedder = build_embedder(load_settings())
    judge = JudgeChecker()
    zero = np.zeros(384, dtype=np.float32)
    rows: list[dict[str, Any]] = []
    for case in cases:
        span, claim = EvidenceSpan(id="e", text=case.evidence), Claim(id="c", text=case.claim)
        row: dict[str, Any] = {"kind": case.kind, "split": case.split}
        for name in MODELS:
            verdicts, _ = score_all([claim], [span], embedder, SCORE_MODELS[name], None)
            row[name] = verdicts[0].verdict.value
        turned = row["v2"] == "supported" and row["v4"] != "supported"
        row["turned"] = turned
        if turned or case.kind == "paraphrase":
            row["entailed"] = float(judge.check([(case.claim, case.evidence, zero, zero)])[0][0])
        rows.append(row)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["split"], row["kind"])].append(row)
    for (split, kind), mine in sorted(groups.items()):
        turned = [r["entailed"] for r in mine if r["turned"]]
        out[split][kind] = {
            "cases": len(mine),
            **{
                f"supported_{m}": round(sum(r[m] == "supported" for r in mine) / len(mine), 3)
                for m in MODELS
            },
            "turned_by_edit_check": len(turned),
            "judge_entailed_quartiles": [
                round(float(q), 2) for q in np.quantile(turned, [0.25, 0.5, 0.75])
            ]
            if turned
            else [],
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=150, help="cases per kind")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()
    root = Path(os.environ.get("SPANPROOF_DATA_DIR", "../shared/data"))
    if not root.is_dir():
        print(f"no data folder at {root}: set SPANPROOF_DATA_DIR", file=sys.stderr)
        return 2
    table = summary(probe(root, args.limit))
    if args.json:
        print(json.dumps(table, indent=1))
        return 0
    for split, kinds in table.items():
        print(f"== {split}")
        for kind, r in kinds.items():
            print(
                f"{kind:20s} n={r['cases']:4d} supported v2/v4/v6 {r['supported_v2']:.2f}/"
                f"{r['supported_v4']:.2f}/{r['supported_v6']:.2f} "
                f"turned {r['turned_by_edit_check']:3d}"
                f" judge entailed q1/median/q3 {r['judge_entailed_quartiles']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
