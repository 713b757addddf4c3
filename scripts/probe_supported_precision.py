"""Can any reading of the default score model make `supported` right 95 % of the time? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_supported_precision.py \\
        [--model v34] [--write docs/quality.md]

Issue 14 asks that `supported` be right at least 95 % of the time on every development split,
whatever the accuracy, with its coverage reported. This probe measures, on each set's training
and development items (each claim against its own evidence, headline labels, as
``scripts/compare_score_models.py`` reads them), the two readings a stricter or looser
`supported` could be made of without a new signal:

1. **The threshold.** The model rescored with ``supported_min`` moved (``dataclasses.replace``;
   nothing else changes): balanced accuracy and `supported` precision per set at each value.
2. **What a `supported` verdict holds.** The model's own `supported` verdicts, kept only when
   their score reaches a floor, or when the claim copies its best span closely (the share of
   the claim's lowercase words that sit in stretches of two or more words aligned in order with
   the span's, :class:`difflib.SequenceMatcher`): the precision and coverage left at each floor.
   This is a plain word alignment of the claim with the span the verdict quotes, not the edit
   check's own (``spanproof.verify.edits.claim_run_share`` picks its window itself): it asks
   only whether claims that copy their quoted evidence are the surer ones. If any floor of
   either reading gave 95 % on every set, a `partial` band below it would be the honest "a
   person should look".

No fitting: every figure is read off the verdicts as they are.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import re
import time
from collections.abc import Sequence
from pathlib import Path

from _report import SECONDS, checker_for, data_root, publish_timed
from fit_combiner import headline, score, strict_ba

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import ClaimVerdict, Verdict
from spanproof.evaluation.devdata import DEV_SETS, DevItem, dev_items
from spanproof.verify.scoring import SCORE_MODELS

BEGIN, END = "<!-- supported-precision:begin -->", "<!-- supported-precision:end -->"
THRESHOLDS = (0.40, 0.45, 0.50, 0.55, 0.60, 0.70)
SCORE_FLOORS = (0.6, 0.7, 0.8, 0.9)
COPY_FLOORS = (0.3, 0.4, 0.5, 0.6)
SPLITS = ("train", "dev")
_WORD = re.compile(r"\w+")


def copy_share(claim: str, span: str) -> float:
    """The share of the claim's words in stretches of two or more words aligned, in order, with
    the span's (lowercase word tokens)."""
    a, b = _WORD.findall(claim.lower()), _WORD.findall(span.lower())
    if not a:
        return 0.0
    blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks if block.size >= 2) / len(a)


def span_text(item: DevItem, verdict: ClaimVerdict) -> str:
    span = verdict.best_span
    if span is None:
        return ""
    text = item.evidence[int(span.id[1:]) - 1]
    return text[span.start : span.end]


def cell(right: int, said: int, gold: int) -> str:
    if not said:
        return "— (0)"
    return f"{100 * right / said:.0f} % ({said}; {100 * right / gold:.0f} %)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=load_settings().verify.score_model)
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    embedder = build_embedder(load_settings())
    model = SCORE_MODELS[args.model]
    items = {s: [it for it in dev_items(root, s) if headline(it)] for s in SPLITS}
    sets = [name for name in DEV_SETS if any(it.dataset == name for it in items["dev"])]

    def by_set(
        split: str, values: Sequence[ClaimVerdict]
    ) -> dict[str, list[tuple[DevItem, ClaimVerdict]]]:
        pairs = list(zip(items[split], values, strict=True))
        return {name: [(it, v) for it, v in pairs if it.dataset == name] for name in sets}

    lines = [BEGIN, ""]
    head = "| " + " | ".join(f"{name} {split}" for split in SPLITS for name in sets) + " |"
    rule = "|---:" * (len(SPLITS) * len(sets)) + "|"
    lines += [
        f"Measured by `python scripts/probe_supported_precision.py --model {args.model}` on "
        f"{time.strftime('%Y-%m-%d')} ({SECONDS} s): each set's training and development items, "
        "each claim against its own evidence, headline labels.",
        "",
        f"**1. The threshold** (score model {args.model} rescored with `supported_min` moved; "
        "its shipped value is "
        f"{model.supported_min:.2f}): balanced accuracy % / `supported` precision %.",
        "",
        "| `supported_min` " + head,
        "|---" + rule,
    ]
    base: dict[str, list[ClaimVerdict]] = {}
    for threshold in sorted({*THRESHOLDS, model.supported_min}):  # the shipped one is the base
        moved = dataclasses.replace(model, supported_min=threshold)
        cells = []
        for split in SPLITS:
            verdicts = score(items[split], moved, checker_for(model), embedder)
            if threshold == model.supported_min:
                base[split] = verdicts
            for pairs in by_set(split, verdicts).values():
                said = [v.verdict is Verdict.SUPPORTED for _, v in pairs]
                subset = [it for it, _ in pairs]
                gold = [it.label == "supported" for it in subset]
                right = sum(s and g for g, s in zip(gold, said, strict=True))
                precision = f"{100 * right / sum(said):.0f}" if any(said) else "—"
                cells.append(f"{100 * strict_ba(subset, said):.1f} / {precision}")
        lines.append(f"| {threshold:.2f} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"**2. What a `supported` verdict holds** ({args.model}'s own `supported` verdicts kept "
        "only at or above a floor): precision % (verdicts kept; coverage of the gold-supported "
        "items).",
        "",
        "| kept when " + head,
        "|---" + rule,
    ]
    rows: list[tuple[str, list[str]]] = [("all (as shipped)", [])]
    rows += [(f"score ≥ {f}", []) for f in SCORE_FLOORS]
    rows += [(f"copy share ≥ {f}", []) for f in COPY_FLOORS]
    for split in SPLITS:
        for pairs in by_set(split, base[split]).values():
            gold = sum(it.label == "supported" for it, _ in pairs)
            kept = [
                (it, v, copy_share(it.claim, span_text(it, v)))
                for it, v in pairs
                if v.verdict is Verdict.SUPPORTED
            ]
            tests = [lambda v, c: True]
            tests += [lambda v, c, f=f: v.score >= f for f in SCORE_FLOORS]
            tests += [lambda v, c, f=f: c >= f for f in COPY_FLOORS]
            for (_, out), test in zip(rows, tests, strict=True):
                chosen = [it for it, v, c in kept if test(v, c)]
                right = sum(it.label == "supported" for it in chosen)
                out.append(cell(right, len(chosen), gold))
    lines += [f"| {name} | " + " | ".join(out) + " |" for name, out in rows]
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
