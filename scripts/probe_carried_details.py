"""Try to break score model v33's reading of a deletion on sentences it was not written from.

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_carried_details.py \\
        [--per 60] [--seed 7] [--json changed.jsonl]

Every sentence of the SciFact corpus where one of v33's rules could act is cut the way that rule
reads, with no regard for whether the cut is faithful:

* ``comparison``: a sentence with an outcome word ("similar", "different", "comparable" …) and,
  later, "versus", "vs", "compared with/to" or "relative to", its phrase dropped up to the next
  clause mark;
* ``frame``: a sentence with a phrase of one to three words followed by a figure and repeated
  after an "and" ("… blood pressure of 90 … and diastolic blood pressure of 60"), cut from the
  first phrase to the second;
* ``conditional``: a sentence with an "if" in its first 120 characters, quoted from after it.

``--per`` of each kind (a seeded sample) are scored against their own sentence under v32 and v33,
and each verdict that changes is printed for a person to judge: a cut that changes what the
sentence says should be refused, a faithful one should not.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path

from _report import data_root

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim
from spanproof.services.verification import score_all
from spanproof.verifier import to_evidence
from spanproof.verify.scoring import SCORE_MODELS

KINDS = ("comparison", "frame", "conditional")
_COMPARISON = re.compile(
    r"\b(similar|comparable|different|differ|differed|equivalent|same)\b.*?"
    r"(\s(versus|vs\.?|compared (with|to)|relative to)\s[^,;.()]*)",
    re.I,
)
_FRAME = re.compile(
    r"\b((?:[A-Za-z]+ ){1,3})(?:of |was |were |at )?(\d[\d.]*)([^,;]{0,60}?)\band (\w+ )?\1"
)
_CONDITIONAL = re.compile(r"^(.{10,120}?)\bif\s", re.I)


def cuts(sentences: list[str]) -> list[tuple[str, str, str]]:
    """(kind, claim, sentence) for every sentence a rule may read."""
    out = []
    for s in sentences:
        if len(s) >= 300:
            continue
        if m := _COMPARISON.search(s):
            out.append(("comparison", s[: m.start(2)] + s[m.end(2) :], s))
        if m := _FRAME.search(s):
            second = s.index(m.group(1), m.start(1) + len(m.group(1)))
            out.append(("frame", s[: m.start(1)] + s[second:], s))
        if len(s) < 250 and (m := _CONDITIONAL.search(s)):
            rest = s[m.end() :]
            out.append(("conditional", rest[:1].upper() + rest[1:], s))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per", type=int, default=60, help="cuts scored per kind")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write every changed verdict here (JSON lines)")
    args = parser.parse_args()
    root = data_root()
    if root is None:
        return 2
    sentences = []
    with (root / "scifact" / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            sentences += [s.strip() for s in json.loads(line)["abstract"]]
    found = cuts(sentences)
    print("cuts found:", dict(Counter(k for k, _, _ in found)))
    random.Random(args.seed).shuffle(found)
    embedder = build_embedder(load_settings())
    taken: Counter[str] = Counter()
    tally: Counter[tuple[str, str]] = Counter()
    changed = []
    for kind, claim, sentence in found:
        if taken[kind] >= args.per:
            continue
        taken[kind] += 1
        evidence = to_evidence([{"id": "E1", "text": sentence}])
        old, new = (
            score_all([Claim("c", claim)], evidence, embedder, SCORE_MODELS[m], None)[0][0]
            for m in ("v32", "v33")
        )
        if old.verdict == new.verdict:
            tally[(kind, f"{new.verdict.value} under both")] += 1
            continue
        tally[(kind, f"{old.verdict.value} -> {new.verdict.value}")] += 1
        why = [e.judgement for e in new.edits if e.status != "allowed"]
        changed.append({"kind": kind, "why": why, "claim": claim, "evidence": sentence})
    for kind in KINDS:
        rows = {k[1]: n for k, n in sorted(tally.items()) if k[0] == kind}
        print(f"{kind} ({taken[kind]}): {rows}")
    for row in changed:
        print(f"\n[{row['kind']}] {'; '.join(row['why'])}\n  claim:    {row['claim']}")
        print(f"  sentence: {row['evidence']}")
    if args.json:
        args.json.write_text("".join(json.dumps(r) + "\n" for r in changed), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
