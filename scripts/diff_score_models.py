"""Two score models claim by claim: which verdicts differ, in which class, and why.

    SPANPROOF_DATA_DIR=../shared/data python scripts/diff_score_models.py v2 v16 \\
        [--suites seed public realistic] [--examples 3] [--json diff.json] [--markdown diff.md]

A model may be written with its ``supported_min`` moved, ``v34@0.45``, to measure what a
threshold alone changes, or with readings switched, ``v58+window_polarity=true`` (any true/false
or number field of the score model), to measure a reading without a new score model.

The suites are those of ``scripts/calibrate.py`` (the seed's classes, COVID-Fact and HealthVer,
the realistic generator at its sampled size), every claim against its own evidence, scored by
both models (a model that reads the judge, v57, with the bundled judge). Reported per suite
and class: how many claims, how many each model judges as the class expects (``supported``
for a positive class, anything else for a negative one), and every change of verdict from the
first model to the second, counted, with up to ``--examples`` claims per change and the second
model's edits that are not allowed — the list a reader needs to decide whether a new model's
refusals are right. ``--json`` writes every changed
claim; ``--markdown`` the report as printed.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _report import data_root, model_spec, score_model_of
from calibrate import POSITIVE, Group, suites

from spanproof.bootstrap import build_checker_for, build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim
from spanproof.core.ports import Embedder
from spanproof.evaluation import realistic
from spanproof.services.verification import score_all


@dataclass
class Change:
    """One claim whose verdict differs between the two models."""

    suite: str
    cls: str
    split: str
    claim: str
    before: str
    after: str
    edits: list[tuple[str, str, str, str]]  # (op, claim text, evidence text, judgement)


@dataclass
class ClassDiff:
    """One class of one suite: claims, each model's share as expected, the changes."""

    n: int = 0
    expected: list[int] = field(default_factory=lambda: [0, 0])
    changes: list[Change] = field(default_factory=list)

    def transitions(self) -> Counter[tuple[str, str]]:
        return Counter((c.before, c.after) for c in self.changes)


def positive(cls: str) -> bool:
    """Whether class ``cls`` expects ``supported``: the seed's verbatim copies and paraphrases,
    a public set's supported claims ("covidfact:supported"), the realistic generator's faithful
    kinds (:data:`spanproof.evaluation.realistic.LABELS`)."""
    if cls in realistic.LABELS:
        return realistic.LABELS[cls] == realistic.SUPPORTED
    return cls.rsplit(":", maxsplit=1)[-1] in POSITIVE | {"supported"}


def as_expected(cls: str, verdict: str) -> bool:
    """Whether ``verdict`` is what class ``cls`` expects: ``supported`` for a positive class,
    anything else for a negative one."""
    return (verdict == "supported") == positive(cls)


def diff_groups(
    suite: str,
    groups: Mapping[str, Group],
    models: tuple[str, str],
    embedder: Embedder,
    out: dict[tuple[str, str], ClassDiff],
) -> None:
    """Score every claim of ``groups`` under both ``models`` and add to ``out`` per class."""
    first, second = (score_model_of(m) for m in models)
    checkers = [build_checker_for(m) for m in (first, second)]
    for group in groups.values():
        claims = [Claim(id=f"c{i}", text=it.claim) for i, it in enumerate(group.items)]
        if not claims:
            continue
        before, _ = score_all(claims, group.evidence, embedder, first, checkers[0])
        after, _ = score_all(claims, group.evidence, embedder, second, checkers[1])
        for item, x, y in zip(group.items, before, after, strict=True):
            entry = out.setdefault((suite, item.cls), ClassDiff())
            entry.n += 1
            entry.expected[0] += as_expected(item.cls, x.verdict.value)
            entry.expected[1] += as_expected(item.cls, y.verdict.value)
            if x.verdict != y.verdict:
                edits = [
                    (e.op, e.claim_text, e.evidence_text, e.judgement or "")
                    for e in y.edits
                    if e.status != "allowed"
                ]
                entry.changes.append(
                    Change(suite, item.cls, item.split, item.claim, x.verdict.value,
                           y.verdict.value, edits)
                )  # fmt: skip


def pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "–"


def render(out: Mapping[tuple[str, str], ClassDiff], models: tuple[str, str], examples: int) -> str:
    a, b = models
    lines = [
        f"| suite | class | n | {a} as expected | {b} as expected | changed | changes |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for (suite, cls), d in out.items():
        moves = ", ".join(f"{x} → {y}: {k}" for (x, y), k in sorted(d.transitions().items()))
        lines.append(
            f"| {suite} | {cls} | {d.n} | {pct(d.expected[0], d.n)} | {pct(d.expected[1], d.n)} "
            f"| {len(d.changes)} | {moves} |"
        )
    for (suite, cls), d in out.items():
        if not d.changes or examples <= 0:
            continue
        lines += ["", f"**{suite} / {cls}**", ""]
        shown: Counter[tuple[str, str]] = Counter()
        for c in d.changes:
            if shown[(c.before, c.after)] >= examples:
                continue
            shown[(c.before, c.after)] += 1
            lines.append(f"* {c.before} → {c.after} ({c.split}): {c.claim}")
            lines += [f"  * {op} `{ct}` / `{et}`: {why}" for op, ct, et, why in c.edits]
    return "\n".join(lines)


def to_json(out: Mapping[tuple[str, str], ClassDiff], models: tuple[str, str]) -> dict[str, Any]:
    return {
        "models": list(models),
        "classes": [
            {
                "suite": suite,
                "class": cls,
                "n": d.n,
                "as_expected": d.expected,
                "changes": [vars(c) for c in d.changes],
            }
            for (suite, cls), d in out.items()
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "models", nargs=2, type=model_spec, metavar="MODEL",
        help="a score model (v34), or one with supported_min moved (v34@0.45)",
    )  # fmt: skip
    parser.add_argument(
        "--suites", nargs="+", default=["seed", "public", "realistic"],
        choices=["seed", "public", "realistic"],
    )  # fmt: skip
    parser.add_argument("--examples", type=int, default=3, help="claims shown per change")
    parser.add_argument("--json", type=Path, help="write every changed claim here")
    parser.add_argument("--markdown", type=Path, help="write the report here")
    args = parser.parse_args(argv)
    models = (args.models[0], args.models[1])
    start = time.monotonic()
    embedder = build_embedder(load_settings())
    out: dict[tuple[str, str], ClassDiff] = {}
    for suite, groups in suites(data_root(), embedder).items():
        if suite in args.suites:
            diff_groups(suite, groups, models, embedder, out)
    report = render(out, models, args.examples)
    report += f"\n\n{time.monotonic() - start:.1f} s."
    print(report)
    if args.markdown is not None:
        args.markdown.write_text(report + "\n", encoding="utf-8")
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(out, models), indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
