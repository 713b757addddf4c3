"""Does reading a substituted phrase *in its sentence* tell a paraphrase from a swap? (issue 13)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_context_phrases.py [--limit 300]

Score model v6 decides an open substitution by the cosine of the two phrases embedded bare
(``edits.CONTEXT_WORDS = 0``), and that costs it SciFact paraphrase recall against v2. This probe
measures two other readings of the same open questions, on the realistic generator's cases (seed
0; every paraphrase, few of which raise a question, and up to ``--limit`` cases of each other
kind), for every near copy whose alignment leaves a question open:

* ``bare``: the shipped reading (the two phrases embedded alone);
* ``token``: each phrase's word pieces read in context — the mean of the encoder's token vectors
  over the phrase's characters, with the claim encoded whole and the evidence window encoded whole;
* ``same-context``: the evidence window encoded twice, once as it is and once with the claim's
  phrase put in place of the evidence phrase; the two pooled phrase vectors are compared, so both
  phrases are read in the very same context.

A case's reading is its lowest cosine over its questions. Reported per half: ROC AUC of each
reading for the supported kinds against the substitution kinds (higher = the reading ranks
supported cases above substitutions), the best balanced accuracy of one threshold, and how many
supported cases pass at the lowest threshold that still refuses 98 % of the half's substitutions
(the issue's goal; set on the half itself, so an upper bound). Results: docs/edit-check.md.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from fit_combiner import auc_of
from probe_token_alignment import piece_vectors, unit

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, EvidenceSpan
from spanproof.evaluation.devdata import data_dir
from spanproof.evaluation.realistic import (
    CALIBRATION,
    HELDOUT,
    LABELS,
    SUPPORTED,
    EditCase,
    generate,
)
from spanproof.services.verification import score_all
from spanproof.verify import edits
from spanproof.verify.scoring import V6

READINGS = ("bare", "token", "same-context")


def pooled(vectors: np.ndarray, enc: Any, lo: int, hi: int) -> np.ndarray:
    """The unit mean of the piece vectors whose characters overlap ``[lo, hi)``."""
    rows = [i for i, (a, b) in enumerate(enc.offsets) if b > a and a < hi and b > lo]
    return unit(vectors[rows].mean(axis=0) if rows else vectors.mean(axis=0))


def best_ba(pos: Sequence[float], neg: Sequence[float]) -> tuple[float, float]:
    best = (0.0, 0.0)
    for t in sorted(set(pos) | set(neg)):
        ba = float((np.mean([x >= t for x in pos]) + np.mean([x < t for x in neg])) / 2)
        if ba > best[0]:
            best = (ba, float(t))
    return best


def sample(cases: Sequence[EditCase], limit: int) -> list[EditCase]:
    """Every paraphrase and the first ``limit`` cases of each other kind (generator order)."""
    taken: dict[str, int] = defaultdict(int)
    out = []
    for case in cases:
        if case.kind == "paraphrase" or taken[case.kind] < limit:
            taken[case.kind] += 1
            out.append(case)
    return out


def open_questions(cases: Sequence[EditCase], embedder: Any) -> list[dict[str, Any]]:
    """The near copies whose alignment (as v6 aligns them) leaves a substitution open."""
    refused = replace(V6, edit_similarity_min=1.01)
    rows = []
    for case in cases:
        claims = [Claim(id="c", text=case.claim)]
        (verdict,), status = score_all(
            claims, [EvidenceSpan(id="E", text=case.evidence)], embedder, refused
        )
        span = verdict.best_span
        if status != "verified" or span is None:
            continue
        a = edits.align_edits(
            case.claim,
            edits.prepare_evidence("E", case.evidence),
            (span.start, span.end),
            changed_runs=V6.edit_changed_runs,
        )
        pending = [p for p in a.pending if p.question >= 0]
        if a.near_copy and pending:
            rows.append({"case": case, "alignment": a, "open": pending})
    return rows


def read(rows: list[dict[str, Any]], embedder: Any) -> None:
    """Each row's lowest cosine per reading (``row["readings"]``)."""
    texts = edits.phrase_texts(r["alignment"] for r in rows)
    bare = dict(zip(texts, embedder.embed(texts).astype(np.float64), strict=True))
    claims = piece_vectors(embedder, [r["case"].claim for r in rows])
    windows = piece_vectors(embedder, [r["alignment"].evidence_text for r in rows])
    for r, (cv, ce), (ev, ee) in zip(rows, claims, windows, strict=True):
        a = r["alignment"]
        found: dict[str, list[float]] = defaultdict(list)
        for p in r["open"]:
            q = a.questions[p.question]
            found["bare"].append(float(bare[q.claim_phrase] @ bare[q.evidence_phrase]))
            e_vec = pooled(ev, ee, *p.evidence)
            found["token"].append(float(pooled(cv, ce, *p.claim) @ e_vec))
            lo, hi = p.evidence
            phrase = a.claim[p.claim[0] : p.claim[1]]
            ((sv, se),) = piece_vectors(
                embedder, [a.evidence_text[:lo] + phrase + a.evidence_text[hi:]]
            )
            found["same-context"].append(float(pooled(sv, se, lo, lo + len(phrase)) @ e_vec))
        r["readings"] = {k: min(v) for k, v in found.items()}


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    kinds: dict[str, int] = defaultdict(int)
    for r in rows:
        kinds[r["case"].kind] += 1
    entry: dict[str, Any] = {"kinds": dict(kinds)}
    for name in READINGS:
        pos = [r["readings"][name] for r in rows if LABELS[r["case"].kind] == SUPPORTED]
        neg = [r["readings"][name] for r in rows if LABELS[r["case"].kind] != SUPPORTED]
        ba, t = best_ba(pos, neg)
        strict = float(np.quantile(neg, 0.98)) if neg else 1.0
        entry[name] = {
            "auc": round(auc_of(pos, neg), 3),
            "best_ba": round(ba, 3),
            "at": round(t, 3),
            "threshold_98": round(strict, 3),
            "supported_allowed_at_98": f"{sum(x > strict for x in pos)} of {len(pos)}",
        }
    return entry


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--limit", type=int, default=300, help="cases per kind besides paraphrases")
    args = ap.parse_args()
    root = data_dir()
    if root is None:
        raise SystemExit("error: development data not found (set SPANPROOF_DATA_DIR)")
    started = time.time()
    embedder = build_embedder(load_settings())
    cases = sample(generate(root, seed=0, limit_per_kind=None), args.limit)
    rows = open_questions(cases, embedder)
    read(rows, embedder)
    report: dict[str, Any] = {"cases": len(cases), "with_open_question": len(rows)}
    for half in (CALIBRATION, HELDOUT):
        report[half] = summary([r for r in rows if r["case"].split == half])
    report["seconds"] = round(time.time() - started, 1)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
