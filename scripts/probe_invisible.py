"""Evidence as web pages and PDFs give it: does a verdict survive invisible characters?

    python scripts/probe_invisible.py [--models v71 v72 v73] [--per-text 3] [--seed 20261207] \\
        [--write docs/quality.md]

Text copied from a web page or a PDF carries invisible format characters inside words (a
zero-width space, a soft hyphen, a word joiner, a zero-width joiner). They change nothing a
reader sees, so they should change no verdict. This probe checks each claim of the three
hand-written general-text sets (``tests/fixtures/general_claims*.jsonl``, 600 claims, each
against its own passage; see ``probe_general_text.py``) twice: against its passage as written,
and against the same passage with ``--per-text`` of its words (six letters or more, drawn by a
seeded generator for each passage) each given one such character in the middle. Reported per
score model: how many verdicts differ, and how many `supported` claims are no longer
`supported` (or the other way round). Needs no data folder: the sets are in the repository.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from _report import SECONDS, model_spec, publish_timed, score_model_of
from probe_general_text import SETS, Case, load_cases, verdicts

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.verify.scoring import ScoreModel

BEGIN, END = "<!-- invisible-evidence:begin -->", "<!-- invisible-evidence:end -->"
#: The characters put into words: a zero-width space, a soft hyphen, a word joiner and a
#: zero-width joiner, as web pages and PDFs leave them.
MARKS = ("\u200b", "\u00ad", "\u2060", "\u200d")
NAMES = {"\u200b": "zero-width space", "\u00ad": "soft hyphen", "\u2060": "word joiner",
         "\u200d": "zero-width joiner"}  # fmt: skip
#: A word that can take one: six letters or more.
_WORD = re.compile(r"[^\W\d_]{6,}")


def with_invisible(text: str, per_text: int, rng: random.Random) -> str:
    """``text`` with ``per_text`` of its words of six letters or more (all of them when it has
    fewer) each given one of :data:`MARKS` after its third letter, chosen by ``rng``."""
    words = list(_WORD.finditer(text))
    chosen = sorted(rng.sample(range(len(words)), min(per_text, len(words))))
    out, at = [], 0
    for k in chosen:
        cut = words[k].start() + 3
        out += [text[at:cut], rng.choice(MARKS)]
        at = cut
    return "".join([*out, text[at:]])


def perturbed(cases: list[Case], per_text: int, seed: int) -> list[Case]:
    """Each case with its passage given invisible characters, the same passage the same way."""
    texts: dict[str, str] = {}
    for case in cases:
        if case.evidence not in texts:
            rng = random.Random(f"{seed}:{len(texts)}")
            texts[case.evidence] = with_invisible(case.evidence, per_text, rng)
    return [replace(case, evidence=texts[case.evidence]) for case in cases]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--models", nargs="+", type=model_spec, default=["v71", "v72", "v73"])
    parser.add_argument("--per-text", type=int, default=3, help="words given a character")
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    started = time.perf_counter()
    cases = [c for name in ("written", "second", "held-out") for c in load_cases(SETS[name])]
    changed = perturbed(cases, args.per_text, args.seed)
    marks = Counter(ch for c in {c.evidence: c for c in changed} for ch in c if ch in MARKS)
    embedder = build_embedder(load_settings())
    lines = [
        BEGIN,
        f"Measured by `python scripts/probe_invisible.py --models {' '.join(args.models)} "
        f"--per-text {args.per_text} --seed {args.seed}` on {time.strftime('%Y-%m-%d')} "
        f"({SECONDS} s): the {len(cases)} claims of the three general-text sets, each against "
        f"its passage as written and against the passage with {args.per_text} of its words "
        "given an invisible character ("
        + ", ".join(f"{NAMES[m]} {marks[m]}" for m in MARKS)
        + " in all).",
        "",
        "| model | claims | verdicts that differ | `supported` → not | not → `supported` |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in args.models:
        model: ScoreModel = score_model_of(name)
        plain = [v.verdict.value for v in verdicts(cases, model, embedder)]
        seen = [v.verdict.value for v in verdicts(changed, model, embedder)]
        pairs = list(zip(plain, seen, strict=True))
        lost = sum(a == "supported" != b for a, b in pairs)
        gained = sum(b == "supported" != a for a, b in pairs)
        differ = sum(a != b for a, b in pairs)
        lines.append(f"| {model.name} | {len(cases)} | {differ} | {lost} | {gained} |")
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
