"""Do other signals tell an answerable question from one whose abstract is gone? (#15)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_gate_signals.py \\
        [--limit 300] [--workdir DIR] [--write docs/quality.md]

The answerability suite (``scripts/answerability.py``, same seed, stores and engine) asks each
SciFact claim as an open question of the suite store (answerable) and of the same store with
its cited abstracts withdrawn (unanswerable). The answerability gate (``answerability-v1``)
reads three signals of a question's plan: the best span relevance, the best share of the
claim's content words one planned source holds in its whole text (IDF over the plan), and the
claim's score against the plan. This probe measures, over the questions the gate reads (a
question about a claim whose plan passed the relevance floor), candidate signals besides them:

* ``corpus coverage``: the same share with IDF over the whole SciFact corpus, so a word common
  to the field weighs little even when the plan's sources all hold it;
* ``rarest missing``: the corpus IDF of the rarest claim word the best-covering source lacks
  (lower is better for an answerable question);
* ``pair coverage``: the share of the claim's adjacent content-word pairs that one source holds
  within three words of each other;
* ``verdict score`` and ``established``: the claim's score against the plan under the default
  score model, and whether its verdict is `supported` or `contradicted`.

Per half: each signal's ROC AUC, answerable against unanswerable; then a logistic gate fitted on
the calibration half (as ``--fit-gate`` fits the shipped one: the floor keeps 98 % of the
calibration half's answerable questions) over the three shipped signals, with each candidate
added, and with all of them, read on the report half. And where the extractive answer's source
comes from: how often, for an answered answerable question, the source it quotes first, the
plan's best-ranked source, and the source with the best corpus coverage is a cited abstract.
No model ships from it.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from _report import SECONDS, checker_for, data_root, publish_timed
from answerability import build_engines, build_stores, cited_sources
from fit_combiner import auc_of, fit_logistic

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import Claim, Verdict
from spanproof.evaluation.answerability import (
    ANSWERABLE,
    CALIBRATION,
    DEFAULT_SEED,
    REPORT,
    UNANSWERABLE,
    Question,
    build_suite,
)
from spanproof.services.answering import Engine
from spanproof.services.verification import score_all
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.text.tokens import token_texts
from spanproof.verify.relevance import (
    answerability_model_for,
    asked_claim,
    content_terms,
    relevance_model_for,
)

BEGIN, END = "<!-- gate-signals:begin -->", "<!-- gate-signals:end -->"
SHIPPED = ("relevance", "source coverage", "claim score")
#: Each candidate, and whether a higher value means answerable.
CANDIDATES = {
    "corpus coverage": True,
    "rarest missing": False,
    "pair coverage": True,
    "verdict score": True,
    "established": True,
}
#: The gate's sources (``answering.GATE_SOURCES``) and the pair window.
SOURCES, NEAR = 5, 3


@dataclass
class Row:
    """One question the gate reads: its kind, half and signals (``rarest missing`` negated so
    that higher means answerable everywhere below)."""

    question: Question
    signals: dict[str, float] = field(default_factory=dict)


def corpus_idf(root: Path) -> Callable[[str], float]:
    """IDF of a lowercased token over the SciFact corpus (title and abstract a document)."""
    import json

    df: Counter[str] = Counter()
    n = 0
    with (root / "scifact" / "corpus.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            df.update(set(token_texts(doc["title"] + " " + " ".join(doc["abstract"]))))
            n += 1
    return lambda t: math.log((n + 1) / (df.get(t, 0) + 1)) + 1.0


def pair_share(pairs: Sequence[tuple[str, str]], tokens: Sequence[str]) -> float:
    """The share of ``pairs`` whose two words stand within :data:`NEAR` words in ``tokens``."""
    if not pairs:
        return 0.0
    where: dict[str, list[int]] = {}
    for k, t in enumerate(tokens):
        where.setdefault(t, []).append(k)
    hits = 0
    for a, b in pairs:
        near = set(where.get(b, ()))
        hits += any(p + d in near for p in where.get(a, ()) for d in range(-NEAR, NEAR + 1) if d)
    return hits / len(pairs)


def signals_of(
    question: Question, engine: Engine, idf: Callable[[str], float], default_model: str
) -> dict[str, float] | None:
    """The shipped and candidate signals of ``question``'s plan, or None where the gate does
    not read it."""
    from spanproof.verify.scoring import SCORE_MODELS

    plan = engine.planner.plan(question.text)
    shipped = engine.answerability_signals(question.text, plan)
    if shipped is None:
        return None
    p = min(max(shipped.relevance, 1e-6), 1 - 1e-6)
    out = {
        "relevance": math.log(p / (1 - p)),
        "source coverage": shipped.source_coverage,
        "claim score": shipped.claim_score,
    }
    claim = asked_claim(question.text) or question.text
    terms = content_terms(token_texts(claim))
    texts = [
        [t for section in engine.store.sections(sid, v) for t in token_texts(section.text)]
        for sid, v in plan.ranked_sources()[:SOURCES]
    ]
    total = sum(idf(t) for t in terms) or 1.0
    shares = [sum(idf(t) for t in terms if t in set(text)) / total for text in texts]
    best = max(range(len(texts)), key=lambda k: (shares[k], -k))
    have = set(texts[best])
    out["corpus coverage"] = shares[best]
    out["rarest missing"] = -max((idf(t) for t in terms if t not in have), default=0.0)
    pairs = list(itertools.pairwise(terms))
    out["pair coverage"] = max(pair_share(pairs, text) for text in texts)
    model = SCORE_MODELS[default_model]
    verdicts, _ = score_all(
        [Claim(id="q1", text=claim.rstrip("."))],
        plan.spans,
        engine.embedder,
        model,
        checker_for(model),  # built once per model
    )
    out["verdict score"] = verdicts[0].score if verdicts else 0.0
    out["established"] = float(
        bool(verdicts) and verdicts[0].verdict in (Verdict.SUPPORTED, Verdict.CONTRADICTED)
    )
    return out


def answered_share(
    rows: Sequence[Row], all_report: Sequence[tuple[Question, bool]], names: Sequence[str]
) -> tuple[float, float]:
    """A gate over ``names`` fitted on the calibration rows (floor: 98 % of their answerable
    ones), read on the report half: the share of answerable questions answered and of
    unanswerable ones abstained from (a plan below the relevance floor abstains)."""
    cal = [r for r in rows if r.question.split == CALIBRATION]
    x = np.asarray([[r.signals[n] for n in names] for r in cal], dtype=np.float64)
    y = np.asarray([r.question.kind == ANSWERABLE for r in cal], dtype=np.float64)
    weights, bias = _fit(x, y)
    linear = x @ weights + bias
    answerable = np.sort(linear[y == 1])
    cut = float(answerable[math.floor(0.02 * len(answerable))])
    read = {r.question.id: r for r in rows}
    answered: dict[str, list[bool]] = {ANSWERABLE: [], UNANSWERABLE: []}
    for q, kept in all_report:
        row = read.get(q.id)
        ok = kept and (
            row is None
            or float(np.asarray([row.signals[n] for n in names]) @ weights) + bias >= cut
        )
        answered[q.kind].append(ok)
    a, u = answered[ANSWERABLE], answered[UNANSWERABLE]
    return sum(a) / len(a), 1 - sum(u) / len(u)


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """A logistic regression over standardised columns (``fit_combiner.fit_logistic``),
    returned in the columns' own units."""
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    w, b = fit_logistic((x - mu) / sd, y)
    return w / sd, b - float((w / sd) @ mu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=300, help="SciFact claims")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workdir", help="where the suite's stores are (built when absent)")
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    args.neighbours, args.distractors = 5, "200"
    root = data_root()
    if root is None:
        return 2
    started = time.perf_counter()
    settings = load_settings()
    embedder = build_embedder(settings)
    suite = build_suite(root, seed=args.seed, limit=args.limit)
    questions = [q for q in suite if q.kind in (ANSWERABLE, UNANSWERABLE)]
    idf = corpus_idf(root)
    with tempfile.TemporaryDirectory() as tmp:
        args.workdir = args.workdir or tmp
        Path(args.workdir).mkdir(parents=True, exist_ok=True)
        main_db, removed_db, _ = build_stores(root, suite, args, embedder)  # the suite's stores
        with SqliteEvidenceStore(main_db) as store, SqliteEvidenceStore(removed_db) as removed:
            model = relevance_model_for(embedder.model_id)
            engines = build_engines(
                {ANSWERABLE: store, UNANSWERABLE: removed},
                embedder,
                model,
                answerability_model_for(model.name),
            )
            rows, kept_report, sources = [], [], Counter[str]()
            for q in questions:
                engine = engines[q.kind]
                signals = signals_of(q, engine, idf, settings.verify.score_model)
                if signals is not None:
                    rows.append(Row(q, signals))
                if q.split == REPORT:
                    kept_report.append((q, not engine.planner.plan(q.text).abstains))
                if q.kind == ANSWERABLE:
                    _count_sources(q, engine, idf, sources)
    lines = _render(args, rows, kept_report, sources)
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


def _count_sources(
    q: Question, engine: Engine, idf: Callable[[str], float], out: Counter[str]
) -> None:
    """Where an answered answerable question's quoted source comes from, per half."""
    answer = engine.ask(q.text)
    if not answer.answered or not answer.claims or answer.claims[0].best_span is None:
        return
    cited = cited_sources(q)
    span = answer.plan.span(answer.claims[0].best_span.id)
    ranked = answer.plan.ranked_sources()[:SOURCES]
    terms = content_terms(token_texts(asked_claim(q.text) or q.text))
    total = sum(idf(t) for t in terms) or 1.0

    def share(sid: str, version: int) -> float:
        words = {t for s in engine.store.sections(sid, version) for t in token_texts(s.text)}
        return sum(idf(t) for t in terms if t in words) / total

    covered = max(ranked, key=lambda s: share(*s))[0]
    out[f"{q.split}:answered"] += 1
    out[f"{q.split}:quoted"] += span is not None and span.source.get("source_id") in cited
    out[f"{q.split}:ranked"] += ranked[0][0] in cited
    out[f"{q.split}:covered"] += covered in cited
    out[f"{q.split}:any"] += any(sid in cited for sid, _ in ranked)


def _render(
    args: argparse.Namespace,
    rows: Sequence[Row],
    kept_report: Sequence[tuple[Question, bool]],
    sources: Counter[str],
) -> list[str]:
    command = f"python scripts/probe_gate_signals.py --limit {args.limit} --seed {args.seed}"
    out = [
        BEGIN,
        f"Measured by `{command}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): the questions "
        "the answerability gate reads (about a claim, past the relevance floor), answerable "
        "against unanswerable; ROC AUC of each signal (`rarest missing` negated: higher means "
        "answerable).",
        "",
        "| half | answerable | unanswerable | " + " | ".join([*SHIPPED, *CANDIDATES]) + " |",
        "|---|---:|---:|" + "---:|" * (len(SHIPPED) + len(CANDIDATES)),
    ]
    for half in (CALIBRATION, REPORT):
        mine = [r for r in rows if r.question.split == half]
        pos = [r for r in mine if r.question.kind == ANSWERABLE]
        neg = [r for r in mine if r.question.kind == UNANSWERABLE]
        cells = [
            f"{auc_of([r.signals[n] for r in pos], [r.signals[n] for r in neg]):.3f}"
            for n in (*SHIPPED, *CANDIDATES)
        ]
        out.append(f"| {half} | {len(pos)} | {len(neg)} | " + " | ".join(cells) + " |")
    out += [
        "",
        "A gate refitted on the calibration half over the shipped signals and each candidate "
        "(floor: 98 % of that half's answerable questions), read on the report half (a plan "
        "below the relevance floor abstains):",
        "",
        "| signals | answerable answered | unanswerable abstained |",
        "|---|---:|---:|",
    ]
    for extra in ((), *((c,) for c in CANDIDATES), tuple(CANDIDATES)):
        answered, abstained = answered_share(rows, kept_report, [*SHIPPED, *extra])
        name = "the shipped three" + (f" + {', '.join(extra)}" if extra else "")
        out.append(f"| {name} | {100 * answered:.1f} % | {100 * abstained:.1f} % |")
    out += [
        "",
        "The source an answered answerable question quotes first, against two other choices "
        "(a cited abstract each time):",
        "",
        "| half | answered | quoted source cited | best-ranked source cited "
        "| best corpus coverage cited | a cited abstract among the 5 best-ranked |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for half in (CALIBRATION, REPORT):
        n = sources[f"{half}:answered"]
        cells = [str(sources[f"{half}:{k}"]) for k in ("quoted", "ranked", "covered", "any")]
        out.append(f"| {half} | {n} | " + " | ".join(cells) + " |")
    return out


if __name__ == "__main__":
    sys.exit(main())
