"""Which of v6's rules cost it the true claims v2 supports? (issue 13)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_v6_losses.py [--write docs/edit-check.md]

Score model v6 may become the default only when it supports every positive class at least as
often as v2, and it does not: its edit check turns some SciFact paraphrases and COVID-Fact and
HealthVer supported claims from v2's ``supported`` into not supported. This probe scores the
positive classes of ``scripts/calibrate.py`` (the seed's and the realistic generator's
paraphrases, verbatim sentences, first clauses and compressions, and the public sets' supported
claims) under v2 and v6 and, for every claim v6 turns, records which of its edits are not
allowed. Reported per class and half: how many v2 supports, how many of those v6 turns, and how
often each reason is among a turned claim's edits (a claim may have several). About three
minutes.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _report import data_root, publish
from calibrate import SUPPORTED_CLASSES, Group, suites

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, ClaimVerdict
from spanproof.core.ports import Embedder
from spanproof.services.verification import score_all
from spanproof.verify.scoring import SCORE_MODELS

BEGIN = "<!-- v6-losses:begin -->"
END = "<!-- v6-losses:end -->"


def reasons(verdict: ClaimVerdict) -> list[str]:
    """The distinct not-allowed edits of a verdict, without their figures ("similarity …");
    ``no edit`` when the verdict changed without one (a cap on another candidate span)."""
    found = sorted({e.judgement.split(" (")[0] for e in verdict.edits if e.status != "allowed"})
    return found or ["no edit"]


def turned(groups: dict[str, Group], embedder: Embedder, suite: str) -> dict[str, Any]:
    """(split, suite:class) → v2's supported count, v6's turned count and a Counter of reasons."""
    table: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"v2_supported": 0, "turned": 0, "reasons": Counter()}
    )
    for group in groups.values():
        items = [it for it in group.items if it.cls in SUPPORTED_CLASSES]
        if not items:
            continue
        claims = [Claim(id=f"c{i}", text=it.claim) for i, it in enumerate(items)]
        old, _ = score_all(claims, group.evidence, embedder, SCORE_MODELS["v2"], None)
        new, _ = score_all(claims, group.evidence, embedder, SCORE_MODELS["v6"], None)
        for item, a, b in zip(items, old, new, strict=True):
            if a.verdict.value != "supported":
                continue
            row = table[(item.split, f"{suite}:{item.cls}")]
            row["v2_supported"] += 1
            if b.verdict.value != "supported":
                row["turned"] += 1
                row["reasons"].update(reasons(b))
    return dict(table)


def render(table: dict[tuple[str, str], dict[str, Any]], seconds: float) -> str:
    lines = [
        BEGIN,
        "### Where v6's losses come from (measured)",
        "",
        f"`python scripts/probe_v6_losses.py` ({seconds:.0f} s). Positive classes only; a "
        "claim v6 turns may carry several reasons.",
        "",
        "| class | half | v2 supported | v6 turns | reasons (claims) |",
        "|---|---|---:|---:|---|",
    ]
    for (split, cls), row in sorted(table.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        why = ", ".join(f"{r} {n}" for r, n in row["reasons"].most_common()) or "—"
        lines.append(f"| {cls} | {split} | {row['v2_supported']} | {row['turned']} | {why} |")
    lines.append(END)
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="put the table into this Markdown file")
    args = parser.parse_args(argv)
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    embedder = build_embedder(load_settings())
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for suite, groups in suites(root, embedder).items():
        table.update(turned(groups, embedder, suite))
    block = render(table, time.perf_counter() - started)
    publish(block, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
