"""What catches a detail swapped in a reworded claim? (issue 13)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_reworded.py [--models v2 v8]

The realistic generator's ``reworded_substitution`` cases are expert paraphrases (SciFact claims
against their rationale sentences) with an entity or a phrase swapped. They copy too little of
their window for the edit check to read them, so what catches them is the rest of the score
model. This probe splits the cases by what was swapped — one word (an entity, mostly) or a phrase
of several — and counts, per score model, how many are judged not supported. About 20 seconds.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence

from _report import checker_for, data_root

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, EvidenceSpan
from spanproof.evaluation.realistic import EditCase, generate
from spanproof.services.verification import score_all
from spanproof.verify.scoring import SCORE_MODELS


def swapped(case: EditCase) -> str:
    """``word`` when one word was swapped, ``phrase`` for several (from the case's detail,
    ``SciFact claim <id>: <old> -> <new>``)."""
    old = case.detail.partition(": ")[2].partition(" -> ")[0]
    return "phrase" if " " in old.strip() else "word"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=["v2", "v8"], choices=list(SCORE_MODELS))
    args = parser.parse_args(argv)
    root = data_root()
    if root is None:
        return 2
    cases = [c for c in generate(root, seed=0) if c.kind == "reworded_substitution"]
    embedder = build_embedder(load_settings())
    print("| model | swapped | cases | not supported |")
    print("|---|---|---:|---:|")
    for name in args.models:
        caught: Counter[str] = Counter()
        total = Counter(swapped(c) for c in cases)
        for case in cases:
            verdicts, _ = score_all(
                [Claim("c1", case.claim)],
                [EvidenceSpan("E1", case.evidence)],
                embedder,
                SCORE_MODELS[name],
                checker_for(SCORE_MODELS[name]),
            )
            caught[swapped(case)] += verdicts[0].verdict.value != "supported"
        for kind in sorted(total):
            print(f"| {name} | {kind} | {total[kind]} | {caught[kind]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
