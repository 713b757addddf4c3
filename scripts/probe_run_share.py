"""How much of a claim must be copied in stretches for the edit check to read it? (issue 13)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_run_share.py \
        [--floors 0.3,0.4,0.5,0.6,0.65,0.7,0.75,0.8] [--write docs/edit-check.md]

Score model v6's edit check reads a claim as a near copy when it shares most of its content
words with a sentence, so an expert rewording that picks a few scattered words out of a long
sentence ("Klf4 is important for proper myeloid cell differentiation" against "… expression of
KLF4 in the HL60 human acute myeloid leukemia cell line stimulated monocytic differentiation …")
is checked like a copy, and its reworded phrases are read as substitutions. A copy with a detail
changed keeps long stretches of its sentence around the change. This probe scores every class of
``scripts/calibrate.py`` under v2, v6 and v6 with each floor on
:func:`spanproof.verify.edits.run_share` (the share of the claim's words copied in aligned
stretches of two or more words; below the floor the check does not apply and v2's score
stands), and chooses the floor on the **calibration half** only: the largest at which no
negative kind of the realistic generator that copies its window (every one but
``reworded_substitution``) is judged as expected less often than under v6. About four minutes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from _report import data_root, publish
from calibrate import REALISTIC_LIMIT, SUPPORTED_CLASSES, build_realistic
from probe_v6_threshold import render, score_models

from spanproof.evaluation import realistic
from spanproof.verify.edits import align_edits, claim_run_share, prepare_evidence, prepare_text
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

BEGIN = "<!-- run-share:begin -->"
END = "<!-- run-share:end -->"
#: The negative kinds that copy their window by construction: the floor must keep every catch
#: of v6 on these. ``reworded_substitution`` (a paraphrase with a detail swapped) is built not to
#: be a copy; what the floor costs there is reported, not held fixed.
NEGATIVE_KINDS = tuple(
    f"realistic:{kind}"
    for kind in realistic.LABELS
    if kind not in SUPPORTED_CLASSES and kind != "reworded_substitution"
)


def models(floors: Sequence[float]) -> dict[str, ScoreModel]:
    out = {"v2": SCORE_MODELS["v2"], "v6": SCORE_MODELS["v6"]}
    for floor in floors:
        out[f"v6 floor {floor:g}"] = replace(SCORE_MODELS["v6"], edit_run_share_min=floor)
    return out


def choose(report: dict[str, Any], floors: Sequence[float]) -> float | None:
    """The largest floor at which every negative realistic kind of the calibration half is
    judged as expected at least as often as under v6 (None when no floor keeps them)."""
    base = report["models"]["v6"]["cal"]
    kept = [
        floor
        for floor in floors
        if all(
            report["models"][f"v6 floor {floor:g}"]["cal"][kind][1] >= base[kind][1] - 1e-9
            for kind in NEGATIVE_KINDS
            if kind in base
        )
    ]
    return max(kept) if kept else None


def distribution(root: Path) -> list[str]:
    """Markdown rows: per realistic kind and half, the run share of the cases v6's check reads
    as near copies (minimum / 5th percentile / median)."""
    shares: dict[tuple[str, str], list[float]] = {}
    for group in build_realistic(root, REALISTIC_LIMIT).values():
        spans = [prepare_evidence(e.id, e.text) for e in group.evidence]
        for item in group.items:
            claim = prepare_text(item.claim)
            near = [ev for ev in spans if align_edits(claim, ev, changed_runs=2).near_copy]
            if near:
                best = max(claim_run_share(claim, ev, changed_runs=2) for ev in near)
                shares.setdefault((item.cls, item.split), []).append(best)
    rows = [
        "| kind | half | near copies | run share: min / 5th pct / median |",
        "|---|---|---:|---|",
    ]
    for (kind, split), values in sorted(shares.items()):
        v = sorted(values)
        cells = f"{v[0]:.2f} / {v[len(v) // 20]:.2f} / {v[len(v) // 2]:.2f}"
        rows.append(f"| {kind} | {split} | {len(v)} | {cells} |")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floors", default="0.3,0.4,0.5,0.6,0.65,0.7,0.75,0.8")
    parser.add_argument("--write", type=Path, help="put the table into this Markdown file")
    args = parser.parse_args(argv)
    root = data_root()
    if root is None:
        return 2
    floors = [float(f) for f in args.floors.split(",") if f]
    started = time.perf_counter()
    report = score_models(root, models(floors), {})
    report["seconds"] = time.perf_counter() - started
    report["command"] = "python scripts/probe_run_share.py --floors " + args.floors
    chosen = choose(report, floors)
    shipped = SCORE_MODELS["v8"].edit_run_share_min
    block = render(report, "A floor on the share copied in stretches", (BEGIN, END))
    spread = "\n".join(
        [
            "",
            "The run share (`edits.claim_run_share`) of each realistic case that v6's check reads "
            "as a near copy:",
            "",
            *distribution(root),
        ]
    )
    verdict = (
        f"Floor chosen on the calibration half: **{chosen:g}** (score model v8 ships {shipped:g})."
        if chosen is not None
        else "No floor keeps every copying negative kind of the calibration half at v6's rate."
    )
    block = block.replace(END, f"{spread}\n\n{verdict}\n{END}")
    print(verdict)
    publish(block, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
