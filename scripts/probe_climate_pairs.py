"""Score models side by side on claim–evidence pairs that no rule of the edit check or the gates
was read from — CLIMATE-FEVER's, or FEVER's: how often each model's verdict differs from the
first model's, by the pair's gold label, with the pairs that changed.

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_climate_pairs.py \\
        [--set climate_fever|fever] [--models v37 v38 v39 v40] [--limit N] [--json]

``climate_fever`` (the default): each claim against one of its evidence sentences alone
(``climate_fever/climate-fever.jsonl``: a claim and five sentences from Wikipedia, each labelled
SUPPORTS, REFUTES or NOT_ENOUGH_INFO by its annotators). ``fever``: FEVER's development pairs
(``fever_nli_dev/fever_dev_pairs.jsonl``: a Wikipedia passage and a claim, entailment or
not_entailment). It measures where a new reading acts on text it was not written for: a change on
a pair labelled SUPPORTS or entailment is a cost, on the others a gain.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from _report import data_root, model_spec, score_model_of

from spanproof.bootstrap import build_checker_for, build_embedder
from spanproof.config import load_settings
from spanproof.services.verification import score_all
from spanproof.verifier import to_claims, to_evidence


def pairs_of(path: Any, limit: int | None) -> list[tuple[str, str, str]]:
    """(claim, evidence sentence, its label) for every evidence sentence of every claim."""
    out: list[tuple[str, str, str]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            item = json.loads(line)
            for evidence in item["evidences"]:
                out.append((item["claim"], evidence["evidence"], evidence["evidence_label"]))
            if limit is not None and len(out) >= limit:
                return out[:limit]
    return out


def fever_pairs(path: Any, limit: int | None) -> list[tuple[str, str, str]]:
    """(claim, passage, label) of FEVER's development pairs."""
    out: list[tuple[str, str, str]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            item = json.loads(line)
            out.append((item["hypothesis"], item["premise"], item["label"]))
            if limit is not None and len(out) >= limit:
                break
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("climate_fever", "fever"), default="climate_fever")
    parser.add_argument(
        "--models", nargs="+", type=model_spec,
        default=["v37", "v38", "v39", "v40", "v41", "v42", "v45", "v47"],
        help="score models: a name (v60) or one with readings switched (v60+field=value)",
    )  # fmt: skip
    parser.add_argument("--limit", type=int, default=None, help="the first N pairs only")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args()
    models = {m: score_model_of(m) for m in args.models}
    root = data_root()
    if root is None:
        return 2
    if args.set == "fever":
        pairs = fever_pairs(root / "fever_nli_dev" / "fever_dev_pairs.jsonl", args.limit)
    else:
        pairs = pairs_of(root / "climate_fever" / "climate-fever.jsonl", args.limit)
    embedder = build_embedder(load_settings())
    started = time.perf_counter()
    verdicts: dict[str, list[str]] = {m: [] for m in args.models}
    checkers = {m: build_checker_for(models[m]) for m in args.models}
    for n, (claim, evidence, _label) in enumerate(pairs, start=1):
        claims = to_claims([claim])
        spans = to_evidence([{"id": "E1", "text": evidence}])
        for name in args.models:
            scored, _status = score_all(claims, spans, embedder, models[name], checkers[name])
            verdicts[name].append(scored[0].verdict.value)
        if n % 1000 == 0:
            print(f"  {n}/{len(pairs)}", file=sys.stderr)
    base = args.models[0]
    report: dict[str, Any] = {
        "pairs": len(pairs),
        "labels": dict(Counter(label for _c, _e, label in pairs)),
        "seconds": round(time.perf_counter() - started, 1),
        "verdicts": {
            m: {
                f"{label} {verdict}": count
                for (label, verdict), count in sorted(
                    Counter((p[2], v) for p, v in zip(pairs, verdicts[m], strict=True)).items()
                )
            }
            for m in args.models
        },
        "changes": {},
    }
    for name in args.models[1:]:
        changed = [
            (p, a, b)
            for p, a, b in zip(pairs, verdicts[base], verdicts[name], strict=True)
            if a != b
        ]
        report["changes"][f"{base} -> {name}"] = [
            {"label": p[2], "from": a, "to": b, "claim": p[0], "evidence": p[1]}
            for p, a, b in changed
        ]
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return 0
    print(f"{len(pairs)} pairs {report['labels']}, {report['seconds']} s")
    for name in args.models:
        print(f"{name}: {report['verdicts'][name]}")
    for key, changes in report["changes"].items():
        print(f"{key}: {len(changes)} verdicts differ")
        for c in changes:
            print(f"  {c['label']}: {c['from']} -> {c['to']} | {c['claim']} | {c['evidence']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
