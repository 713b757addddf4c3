"""Would a lower ``supported_min`` give score model v6 back what its edit check costs? (#13)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_v6_threshold.py \
        [--thresholds 0.48,0.46,0.44,0.42] [--write docs/edit-check.md]

v6 may become the default only when it is at least as good as v2 on every class of both
generators and on the public sets. It is not: its edit check turns some SciFact paraphrases and
COVID-Fact supported claims from v2's ``supported`` into not supported. A check that only takes
verdicts away cannot win those classes back; a lower ``supported_min`` can, at the price of the
negative classes. This probe scores every class of ``scripts/calibrate.py`` (the seed's
classes, COVID-Fact and HealthVer, the realistic generator at 400 cases per kind) under v2, v6
and v6 with each threshold (``partial_min`` moved with it, so the partial band stays empty),
and reports per half the share judged as expected, marking each cell below v2's. About four
minutes.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from _report import data_root, publish
from calibrate import SUPPORTED_CLASSES, score_groups, suites

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

BEGIN = "<!-- v6-threshold:begin -->"
END = "<!-- v6-threshold:end -->"


def models(thresholds: Sequence[float]) -> dict[str, ScoreModel]:
    out = {"v2": SCORE_MODELS["v2"], "v6": SCORE_MODELS["v6"]}
    for t in thresholds:
        out[f"v6@{t:g}"] = replace(SCORE_MODELS["v6"], supported_min=t, partial_min=t)
    return out


def expected_rates(results: Sequence[dict[str, Any]], suite: str) -> dict[str, dict[str, Any]]:
    """split → "suite:class" → (n, share judged as expected)."""
    by: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r in results:
        supported = r["verdict"].value == "supported"
        by[(r["split"], r["cls"])].append(supported == (r["cls"] in SUPPORTED_CLASSES))
    out: dict[str, dict[str, Any]] = {"held": {}, "cal": {}}
    for (split, cls), hits in sorted(by.items()):
        out[split][f"{suite}:{cls}"] = (len(hits), 100.0 * sum(hits) / len(hits))
    return out


def render(
    report: dict[str, Any],
    title: str = "A lower threshold for v6",
    markers: tuple[str, str] = (BEGIN, END),
) -> str:
    names = list(report["models"])
    lines = [
        markers[0],
        f"### {title} (measured)",
        "",
        f"`{report['command']}` ({report['seconds']:.0f} s). Each cell is the share judged as "
        "expected (`supported` for verbatim, paraphrase, first clause, compression and the "
        "public sets' supported claims; not supported for every other class), held-out / "
        "calibration half; **bold** where it falls below v2's.",
        "",
        "| class | n (held / cal) | " + " | ".join(names) + " |",
        "|---|---:|" + "---:|" * len(names),
    ]
    first = report["models"][names[0]]
    for cls in sorted(first["held"]):
        n = f"{first['held'][cls][0]} / {first['cal'].get(cls, (0, 0))[0]}"
        cells = []
        for name in names:
            parts = []
            for split in ("held", "cal"):
                value = report["models"][name][split].get(cls, (0, float("nan")))[1]
                base = first[split].get(cls, (0, float("nan")))[1]
                text = f"{value:.1f}"
                parts.append(f"**{text}**" if value < base - 1e-9 else text)
            cells.append(" / ".join(parts))
        lines.append(f"| {cls} | {n} | " + " | ".join(cells) + " |")
    lines.append(markers[1])
    return "\n".join(lines) + "\n"


def score_models(
    root: Path, chosen: dict[str, ScoreModel], report: dict[str, Any]
) -> dict[str, Any]:
    """Score every class of ``scripts/calibrate.py`` under each of ``chosen`` into
    ``report["models"][name]`` (half → "suite:class" → (n, share judged as expected))."""
    embedder = build_embedder(load_settings())
    built = suites(root, embedder)
    report.setdefault("models", {})
    for name, model in chosen.items():
        table: dict[str, dict[str, Any]] = {"held": {}, "cal": {}}
        for suite, groups in built.items():
            for split, rows in expected_rates(score_groups(groups, embedder, model), suite).items():
                table[split].update(rows)
        report["models"][name] = table
        print(f"{name}: scored", flush=True)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--thresholds", default="0.48,0.46,0.44,0.42")
    parser.add_argument("--write", type=Path, help="put the table into this Markdown file")
    args = parser.parse_args(argv)
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    chosen = models([float(t) for t in args.thresholds.split(",") if t])
    report = score_models(root, chosen, {})
    report["seconds"] = time.perf_counter() - started
    report["command"] = "python scripts/probe_v6_threshold.py --thresholds " + args.thresholds
    block = render(report)
    publish(block, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
