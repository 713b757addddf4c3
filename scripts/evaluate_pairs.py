"""Score models v1, v2 and v3 on the checker's held-out pair split; write docs/quality.md's section.

    make evaluate-pairs    # = python scripts/evaluate_pairs.py --write docs/quality.md

The split is the one the checkers never trained on (``training/build_pairs.py``: 15 % of the
claim groups of SciFact, HealthVer, COVID-Fact, CLIMATE-FEVER and FEVER, seed 20261130; the
synthetic edits are left out here). Each pair's claim is verified against its one evidence
passage through :func:`spanproof.services.verification.score_all`, as ``spanproof verify``
would. Reported per score model: balanced accuracy of supported vs not supported (a pair labelled
``entailed`` should be supported, every other one not), the recall of each label (``entailed``
→ supported, ``contradicted`` → contradicted, ``neutral`` → unsupported, FEVER's
``not_entailed`` → not supported), the share of ``contradicted`` pairs not supported, and how many
claims v3 escalated (latency is measured by ``make bench``). v3 is also run with wider escalation
bands (0.3, and 1 = every ungated claim), the setting ``verify.escalation_band``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "training"))

from build_pairs import SYNTHETIC, build_pairs  # type: ignore[import-not-found]

from spanproof.bootstrap import build_checker, build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.services.verification import score_all
from spanproof.verify.scoring import score_model

HEADING = "## The entailment checker on the held-out pair split"


def evaluate(pairs: list[Any], name: str, embedder: Any, checker: Any) -> dict[str, Any]:
    model = score_model(name)
    verdicts: list[Verdict] = []
    escalated = 0
    for p in pairs:
        out, status = score_all(
            [Claim("c", p.claim)], [EvidenceSpan("S1", p.evidence)], embedder, model, checker
        )
        if status != "verified":
            raise SystemExit(f"{name}: verification {status}")
        verdicts.append(out[0].verdict)
        escalated += out[0].escalated
    by_label: dict[str, Counter[Verdict]] = defaultdict(Counter)
    for p, v in zip(pairs, verdicts, strict=True):
        by_label[p.label][v] += 1

    def share(label: str, *wanted: Verdict) -> float:
        c = by_label[label]
        return sum(c[w] for w in wanted) / max(1, sum(c.values()))

    not_supported = (Verdict.UNSUPPORTED, Verdict.CONTRADICTED, Verdict.PARTIAL)
    positives = [v is Verdict.SUPPORTED for p, v in zip(pairs, verdicts, strict=True)
                 if p.label == "entailed"]  # fmt: skip
    negatives = [v is not Verdict.SUPPORTED for p, v in zip(pairs, verdicts, strict=True)
                 if p.label != "entailed"]  # fmt: skip
    return {
        "n": len(pairs),
        "balanced_accuracy": (sum(positives) / len(positives) + sum(negatives) / len(negatives))
        / 2,
        "entailed_supported": share("entailed", Verdict.SUPPORTED),
        "contradicted_contradicted": share("contradicted", Verdict.CONTRADICTED),
        "contradicted_not_supported": share("contradicted", *not_supported),
        "neutral_unsupported": share("neutral", Verdict.UNSUPPORTED),
        "not_entailed_not_supported": share("not_entailed", *not_supported),
        "escalated": escalated,
    }


def render(results: dict[str, dict[str, Any]], counts: Counter[str], checker_id: str) -> str:
    def pct(x: float) -> str:
        return f"{100 * x:.1f}%"

    lines = [
        HEADING,
        "",
        "Measured by `make evaluate-pairs` (`python scripts/evaluate_pairs.py --write "
        "docs/quality.md`): the checkers' held-out split (claim groups never trained on, "
        "`training/build_pairs.py`), each claim verified against its one evidence passage. "
        f"Pairs: {', '.join(f'{k} {v:,}' for k, v in sorted(counts.items()))}. "
        f"v3's checker: `{checker_id}`.",
        "",
        "| score model | BA supported vs not | entailed → supported | contradicted → "
        "contradicted | contradicted → not supported | neutral → unsupported | FEVER "
        "not_entailed → not supported | escalated |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in results.items():
        lines.append(
            f"| {name} | {pct(r['balanced_accuracy'])} | {pct(r['entailed_supported'])} | "
            f"{pct(r['contradicted_contradicted'])} | {pct(r['contradicted_not_supported'])} | "
            f"{pct(r['neutral_unsupported'])} | {pct(r['not_entailed_not_supported'])} | "
            f"{r['escalated']:,} |"
        )
    return "\n".join(lines) + "\n"


def write_section(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if HEADING in old:
        before, rest = old.split(HEADING, 1)
        after = rest[rest.index("\n## ") + 1 :] if "\n## " in rest else ""
        new = before + text + ("\n" + after if after else "")
    else:
        marker = "## Fault injection (evidence records)"
        new = old.replace(marker, text + "\n" + marker, 1) if marker in old else old + "\n" + text
    path.write_text(new, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="first N pairs (a quick look)")
    args = parser.parse_args()
    pairs = [p for p in build_pairs() if p.split == "validation" and p.dataset != SYNTHETIC]
    pairs = pairs[: args.limit] if args.limit else pairs
    embedder = build_embedder(load_settings())
    checker = build_checker()
    results = {}
    # v3 as shipped, then with wider escalation bands (SPANPROOF_VERIFY__ESCALATION_BAND)
    for name in ("v1", "v2", "v3", "v3:band=0.3", "v3:band=1"):
        results[name] = evaluate(pairs, name, embedder, checker)
        print(name, results[name], file=sys.stderr, flush=True)
    text = render(results, Counter(p.label for p in pairs), checker.model_id)
    print(text)
    if args.write:
        write_section(args.write, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
