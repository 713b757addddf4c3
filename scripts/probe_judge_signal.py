"""Where does each signal of score model v5 rank supported claims above the rest? (issue 14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_judge_signal.py [--write docs/quality.md]

v5's combiner is one logistic regression fitted on the four development splits together
(``scripts/fit_combiner.py``), so it can only use a signal that points the same way on every set.
This probe measures, per set, the ranking power (ROC AUC, supported vs not on the set's headline
labels, as in ``fit_combiner.py``) of each signal on its own:

* v2's score, and the cosine and lexical coverage v5 records;
* the judge's P(entailed), and P(entailed) − P(contradicted), on the one window v5 gives it;
* the judge reading *every* window of the evidence (three sentences, stride two; each passage
  whole when it has three sentences or fewer) with the largest P(entailed) minus the largest
  P(contradicted) over them — what a reader of the whole abstract would see;
* v5's combiner, cross-fitted (each half scored by the combiner fitted on the other).

An AUC of 0.5 is chance; below 0.5 the signal points the wrong way on that set. Takes about four
minutes on a 2-core machine (the judge reads about 2,300 windows).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from _report import data_root, publish
from fit_combiner import END as COMBINER_END
from fit_combiner import auc, cross_fit, features_of, headline, score

from spanproof.bootstrap import build_embedder, build_judge
from spanproof.config import load_settings
from spanproof.core.checker import EntailmentChecker
from spanproof.evaluation.devdata import DEV_SETS, DevItem, dev_items
from spanproof.text.sentences import split_sentences
from spanproof.verify.judging import FEATURES
from spanproof.verify.scoring import SCORE_MODELS

BEGIN = "<!-- judge-signal:begin -->"
END = "<!-- judge-signal:end -->"
WINDOW, STRIDE = 3, 2
SIGNALS = (
    ("v2", "v2 score"),
    ("cosine", "cosine (v5's feature)"),
    ("lexical", "lexical coverage"),
    ("judge_entailed", "judge P(entailed), v5's window"),
    ("judge_margin", "judge P(ent) − P(con), v5's window"),
    ("judge_every_window", "judge max P(ent) − max P(con), every window"),
    ("v5_crossfit", "v5 combiner (cross-fitted)"),
)


def windows(evidence: Sequence[str]) -> list[str]:
    """Every window of ``WINDOW`` sentences (stride ``STRIDE``) of each passage."""
    out: list[str] = []
    for passage in evidence:
        sentences = [s.text for s in split_sentences(passage)] or [passage]
        if len(sentences) <= WINDOW:
            out.append(" ".join(sentences))
            continue
        for start in range(0, len(sentences) - WINDOW + STRIDE, STRIDE):
            out.append(" ".join(sentences[start : start + WINDOW]))
    return [w for w in out if w.strip()]


def every_window_margin(items: Sequence[DevItem], judge: EntailmentChecker) -> list[float]:
    zero = np.zeros(384, dtype=np.float32)
    out = []
    for item in items:
        texts = windows(item.evidence)
        probs = np.asarray(judge.check([(item.claim, w, zero, zero) for w in texts]))
        out.append(float(probs[:, 0].max() - probs[:, 1].max()) if len(texts) else 0.0)
    return out


def render(table: dict[str, dict[str, float]], counts: dict[str, int], meta: str) -> str:
    lines = [
        BEGIN,
        "### Where the judge carries signal (ranking power per set)",
        "",
        meta,
        "",
        "| signal | " + " | ".join(f"{s} ({counts[s]})" for s in DEV_SETS) + " |",
        "|---|" + "---:|" * len(DEV_SETS),
    ]
    for key, label in SIGNALS:
        cells = [f"{table[key][s]:.3f}" for s in DEV_SETS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="put the table into this markdown file")
    args = parser.parse_args(argv)
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    items = dev_items(root)
    embedder = build_embedder(load_settings())
    judge = build_judge()
    v2 = score(items, SCORE_MODELS["v2"], None, embedder)
    v5 = score(items, SCORE_MODELS["v5"], judge, embedder)
    x = np.array([features_of(v) for v in v5])
    y = np.array([1.0 if it.label == "supported" else 0.0 for it in items])
    sets = np.array([it.dataset for it in items])
    cross_p, _ = cross_fit(items, v5, x, y, sets)
    col = {name: x[:, FEATURES.index(name)] for name in FEATURES}
    signals = {
        "v2": [v.score for v in v2],
        "cosine": col["cosine"].tolist(),
        "lexical": col["lexical"].tolist(),
        "judge_entailed": col["p_entailed"].tolist(),
        "judge_margin": (col["p_entailed"] - col["p_contradicted"]).tolist(),
        "judge_every_window": every_window_margin(items, judge),
        "v5_crossfit": cross_p.tolist(),
    }
    table: dict[str, dict[str, float]] = {}
    for key, values in signals.items():
        table[key] = {}
        for name in DEV_SETS:
            idx = [i for i, it in enumerate(items) if it.dataset == name]
            table[key][name] = auc([items[i] for i in idx], [values[i] for i in idx])
    counts = {
        name: sum(1 for it in items if it.dataset == name and headline(it)) for name in DEV_SETS
    }
    seconds = time.perf_counter() - started
    meta = (
        "Measured by `python scripts/probe_judge_signal.py --write docs/quality.md` "
        f"({seconds:.0f} s; judge `{judge.model_id}`): ROC AUC of each signal alone, supported "
        "vs not on each development split's headline labels (the items of the table above; in "
        "brackets how many). 0.5 is chance; below 0.5 the signal points the wrong way."
    )
    text = render(table, counts, meta)
    publish(text, args.write, BEGIN, END, after=COMBINER_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
