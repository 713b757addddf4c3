"""Does a word-by-word alignment in context carry the signal the sentence cosine lacks? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_token_alignment.py [--split dev|train]

Every signal score model v5 reads ranks HealthVer and Citation-Integrity claims near chance
(``docs/quality.md``, "Where the judge carries signal"): a sentence embedding pools every word,
so a claim that shares its evidence's topic but not its content looks the same as one it states.
This probe reads each claim word *in context* (the mean of the bundled encoder's token vectors over
the word's pieces, the claim encoded whole) against every evidence word in context (each evidence
sentence encoded whole), and measures, per set, the ROC AUC of:

* ``align mean``: the mean over the claim's content words of the best cosine to any evidence word;
* ``align min`` and ``align p20``: the lowest and the 20th percentile of those best cosines (one
  unsupported word sinks them);
* ``align best sentence``: the same mean, reading one evidence sentence at a time, best sentence;
* for comparison, ``cosine``: the best sentence cosine of the pooled embeddings.

Labels are each set's headline pair (as ``scripts/fit_combiner.py``'s ``headline``). No fitting:
each signal is read as it is.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
from _report import data_root
from fit_combiner import auc, headline

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.evaluation.devdata import DEV_SETS, dev_items
from spanproof.text.sentences import split_sentences
from spanproof.verify.edits import FUNCTION_WORDS

FIELDS = ("align mean", "align min", "align p20", "align best sentence", "cosine")


def piece_vectors(embedder: Any, texts: Sequence[str]) -> list[tuple[np.ndarray, Any]]:
    """Per text: the bundled encoder's token vectors (pieces × 384, float64) and its encoding
    (character offsets, word ids), the text encoded whole."""
    inner = getattr(embedder, "_inner", embedder)  # under the vector cache
    session, io, tokenizer = inner._model()
    out = []
    for text in texts:
        enc = tokenizer.encode(text)
        ids = np.asarray([enc.ids], dtype=np.int64)
        feeds = {io.input_ids: ids, io.attention_mask: np.ones_like(ids)}
        if io.token_type_ids is not None:
            feeds[io.token_type_ids] = np.zeros_like(ids)
        (hidden,) = session.run([io.output], feeds)
        out.append((np.asarray(hidden[0], dtype=np.float64), enc))
    return out


def unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-12)


class WordReader:
    """Word vectors in context from the bundled encoder (pieces averaged per word)."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder

    def words(self, texts: Sequence[str]) -> list[tuple[np.ndarray, list[bool], np.ndarray]]:
        """Per text: word vectors (unit rows), which are content words, and the pooled vector."""
        out = []
        for text, (h, enc) in zip(texts, piece_vectors(self.embedder, texts), strict=True):
            groups: dict[int, list[int]] = defaultdict(list)
            for i, w in enumerate(enc.word_ids):
                if w is not None:
                    groups[w].append(i)
            vecs, content = [], []
            for w in sorted(groups):
                rows = groups[w]
                word = text[enc.offsets[rows[0]][0] : enc.offsets[rows[-1]][1]].lower()
                vecs.append(unit(h[rows].mean(axis=0)))
                content.append(any(c.isalnum() for c in word) and word not in FUNCTION_WORDS)
            words = np.asarray(vecs) if vecs else np.zeros((0, h.shape[1]))
            out.append((words, content, unit(h.mean(axis=0))))
        return out


def signals(reader: WordReader, claim: str, evidence: Sequence[str]) -> dict[str, float]:
    sentences = [s.text for text in evidence for s in split_sentences(text) if s.text.strip()] or [
        ""
    ]
    (cv, cc, cp), *ev = reader.words([claim, *sentences])
    keep = cv[[i for i, c in enumerate(cc) if c]] if any(cc) else cv
    per_sentence = [keep @ v.T for v, _, _ in ev if len(v)]
    if not len(keep) or not per_sentence:
        return {f: 0.0 for f in FIELDS}
    best = np.max(np.hstack(per_sentence), axis=1)
    return {
        "align mean": float(best.mean()),
        "align min": float(best.min()),
        "align p20": float(np.quantile(best, 0.2)),
        "align best sentence": max(float(m.max(axis=1).mean()) for m in per_sentence),
        "cosine": max(float(cp @ p) for _, _, p in ev),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=["dev", "train"], default="dev")
    ap.add_argument("--limit", type=int, default=None, help="items per set (first N)")
    args = ap.parse_args()
    started = time.time()
    items = [it for it in dev_items(data_root(), args.split) if headline(it)]
    reader = WordReader(build_embedder(load_settings()))
    report: dict[str, Any] = {"split": args.split}
    for name in DEV_SETS:
        sub = [it for it in items if it.dataset == name][: args.limit]
        rows = [signals(reader, it.claim, it.evidence) for it in sub]
        report[name] = {"n": len(sub)} | {
            f: round(auc(sub, [r[f] for r in rows]), 3) for f in FIELDS
        }
    report["seconds"] = round(time.time() - started, 1)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
