"""The rule-based decomposer on hostile drafts: time grows with the draft, not with its square.

    python bench/decompose_hostile.py [--sizes 10000 40000] [--write bench/RESULTS.md]

Each draft repeats one pattern that a regular expression can rescan from every position: unmatched
emphasis marks (``**a **a …``), brackets that never close, footnote or link openings, long runs of
whitespace inside a sentence, a link with a very long address. For each, the median of 3 runs of
``RuleBasedDecomposer().decompose`` and the table reading after it (``with_table_context``, as
``verify_draft`` runs them) at two sizes and their ratio: a ratio near the size ratio is
linear, near its square quadratic. No timing is asserted anywhere; this records what the
decomposer costs on such input (a verify request body is limited to a few megabytes, so a
quadratic rule is a way to stall a worker).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from _results import write_section  # type: ignore[import-not-found]

from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.tables import with_table_context

#: Each pattern and how it is made into a draft of about ``n`` characters.
PATTERNS = {
    "unmatched strong marks `**a `": lambda n: "**a " * (n // 4),
    "unmatched emphasis `*a `": lambda n: "*a " * (n // 3),
    "unclosed brackets `[`": lambda n: "[" * n,
    "footnote openings `[^`": lambda n: "[^" * (n // 2),
    "link openings `[a](b `": lambda n: "[a](b " * (n // 6),
    "autolink openings `<http:`": lambda n: "<http:" * (n // 6),
    "spaces inside a sentence": lambda n: "Walking lowered BP" + " " * n + "today.",
    "a link with a long address": lambda n: "Walking lowered BP [x](" + "a" * n + ") today.",
    "table rows": lambda n: "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * (n // 10),
    "table rows read with a change header": lambda n: (
        "| a | Change in b |\n|---|---|\n" + "| x | -5 |\n" * (n // 11)
    ),
    # rules-v4's rules: numeric markers, marker links, reference definitions, answer words
    "numeric markers `[1][2]`": lambda n: "[1][2]" * (n // 6),
    "marker links `[1](a `": lambda n: "[1](a " * (n // 6),
    "reference definitions `[1]: a`": lambda n: "[1]: a\n" * (n // 7),
    "answer words `No. `": lambda n: "No. " * (n // 4),
    "echoes `Yes, it does. `": lambda n: "Yes, it does. " * (n // 14),
    "named source openings `(source 1, `": lambda n: "(source 1, " * (n // 11),
    "bold labels `**a**: `": lambda n: "**a**: " * (n // 7),
    "bracketed markers `([1] `": lambda n: "([1] " * (n // 5),
    "interface markers `【1 `": lambda n: "【1 " * (n // 3),
    # rules-v5's trailing frames, many in one sentence: each is tried where it may start
    "trailing frames `a, the study found `": lambda n: "a, the study found " * (n // 19),
    "bracketed frames `a (as shown in [1]) `": lambda n: "a (as shown in [1]) " * (n // 20),
    "commas before spaces `a,` + spaces": lambda n: ("a," + " " * 48) * (n // 50),
}


def median_seconds(text: str, repeats: int = 3) -> float:
    decomposer = RuleBasedDecomposer()
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        with_table_context(text, decomposer.decompose(text))
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[10_000, 40_000])
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    small, large = args.sizes
    rows = []
    for name, make in PATTERNS.items():
        a, b = median_seconds(make(small)), median_seconds(make(large))
        rows.append(f"| {name} | {a * 1000:.1f} ms | {b * 1000:.1f} ms | {b / max(a, 1e-9):.1f} |")
        print(rows[-1], file=sys.stderr, flush=True)
    text = "\n".join(
        [
            "## Decomposer on hostile drafts",
            "",
            f"Measured by `python bench/decompose_hostile.py --sizes {small} {large}` on "
            f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: median of 3 decompositions "
            "(each with the table reading after it) of a "
            f"draft of about {small:,} and {large:,} characters repeating one pattern (size ratio "
            f"{large / small:g}: a linear cost grows about that much, a quadratic one about its "
            "square).",
            "",
            f"| draft | {small:,} chars | {large:,} chars | ratio |",
            "|---|---:|---:|---:|",
            *rows,
        ]
    )
    print(text)
    if args.write is not None:
        write_section(args.write, "decompose-hostile", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
