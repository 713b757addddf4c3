"""The answerability suite: does ``ask`` answer what the store answers and abstain otherwise?

    python scripts/answerability.py --limit 60 --json --write docs/quality.md

Questions (``spanproof.evaluation.answerability``, seeded): SciFact train claims with a rationale
turned into open questions (``answerable``, asked of the suite store), the same questions asked
of the store with their cited abstracts removed (``unanswerable``), and CLIMATE-FEVER claims and
FEVER hypotheses as questions (``off_topic``). ``--limit N`` takes N SciFact claims (so 2N
questions) and N off-topic questions.

The suite store holds, from the SciFact corpus: every abstract a suite claim cites, the
``--neighbours`` abstracts keyword search ranks first for each question over the whole corpus
(so the abstracts closest to an unanswerable question stay in its store: the hard cases), and
``--distractors`` more drawn at random (``all``: the whole corpus; embedding all of it takes
minutes on a small machine unless the embedding cache already holds it). The removed store is a
copy with the cited abstracts withdrawn (never searched or planned from).

Two passes:

1. **fit**: every ranked candidate span of every calibration-half question, with its coverage of
   the question's content words and its cosine (``Planner.relevance_features``); a grid search
   over the direction of the two weights and the floor maximises the balanced accuracy of the
   question-level decision (answer when some span reaches the floor). Printed, to pin in
   ``spanproof/verify/relevance.py``.
2. **evaluate**: every question through the same engine as ``spanproof ask`` (the pinned
   relevance model and answerability gate, the configured score model, the bundled embedder,
   the extractive generator; no traces): abstention on unanswerable and off-topic questions,
   answers to answerable ones, and how many claims of the answers are supported with their
   best span in a cited abstract; per half. ``--no-gate`` turns the answerability gate off.

``--fit-gate`` only fits the answerability gate (``spanproof.verify.relevance.
AnswerabilityModel``: logistic regression of answerable vs not on the calibration half's
questions that ask about a claim and pass the relevance floor, over the best relevance, the
best whole-source coverage of the claim and the claim's score against the plan; the floor
keeps ``--gate-keep`` of the answerable ones) and prints it, to pin in
``spanproof/verify/relevance.py``; it never reads the report half.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spanproof.core.models import Verdict
from spanproof.core.ports import Embedder
from spanproof.core.store import SearchFilter
from spanproof.evaluation.answerability import (
    ANSWERABLE,
    CALIBRATION,
    DEFAULT_SEED,
    KINDS,
    OFF_TOPIC,
    REPORT,
    UNANSWERABLE,
    Question,
    as_question,
    build_suite,
)
from spanproof.evaluation.devdata import data_dir
from spanproof.services.answering import Engine
from spanproof.services.planning import Planner
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.verify.relevance import (
    AnswerabilityModel,
    AnswerabilitySignals,
    RelevanceModel,
    answerability_model_for,
    relevance_model_for,
)
from spanproof.verify.scoring import SCORE_MODELS

BEGIN, END = "<!-- answerability:begin -->", "<!-- answerability:end -->"
#: Logistic scale of a fitted model: relevance 0.5 at the floor, ~0.92 at 0.2 above it.
SCALE = 12.0


# ---------------------------------------------------------------------------------- stores


def build_stores(
    root: Path, questions: Sequence[Question], args: argparse.Namespace, embedder: Embedder
) -> tuple[Path, Path, dict[str, Any]]:
    """The suite store and its copy with the cited abstracts withdrawn; what went in and how
    long it took."""
    from spanproof.bootstrap import build_parser
    from spanproof.ingest.files import iter_path
    from spanproof.services.ingestion import embed_pending, ingest

    corpus = root / "scifact" / "corpus.jsonl"
    work = Path(args.workdir)
    parse = build_parser()
    started = time.perf_counter()
    full_db = work / "corpus-keywords.sqlite"
    with SqliteEvidenceStore(full_db) as full:
        if full.stats()["sources"] == 0:
            for sid, fetched in iter_path(corpus):
                ingest(full, fetched, sid, parse)
        all_ids = sorted(s.id for s in full.list_sources(limit=1_000_000))
        cited = {source for q in questions for source in cited_sources(q)}
        selected = set(cited) & set(all_ids)
        for q in questions:
            hits = full.keyword_search(q.text, 50, SearchFilter())
            near = list(dict.fromkeys(h.chunk.source_id for h in hits))
            selected.update(near[: args.neighbours])
    rest = sorted(set(all_ids) - selected)
    if args.distractors == "all":
        selected.update(rest)
    else:
        selected.update(
            random.Random(args.seed).sample(rest, min(int(args.distractors), len(rest)))
        )
    key = f"{args.seed}-{args.limit}-{args.neighbours}-{args.distractors}"
    main_db = work / f"suite-{key}.sqlite"
    with SqliteEvidenceStore(main_db) as store:
        if store.stats()["sources"] == 0:
            for sid, fetched in iter_path(corpus):
                if sid in selected:
                    ingest(store, fetched, sid, parse)
        embed_pending(store, embedder)
        stats = store.stats()
    removed_db = work / f"suite-{key}-removed.sqlite"
    if not removed_db.exists():
        src, dst = sqlite3.connect(main_db), sqlite3.connect(removed_db)
        src.backup(dst)
        src.close()
        dst.close()
        with SqliteEvidenceStore(removed_db) as removed:
            for sid in sorted(cited & selected):
                removed.set_status(sid, "withdrawn")
    info = {
        "sources": stats["sources"],
        "chunks": stats.get("chunks"),
        "cited": len(cited & selected),
        "neighbours_per_question": args.neighbours,
        "distractors": args.distractors,
        "corpus": len(all_ids),
        "build_s": round(time.perf_counter() - started, 1),
    }
    return main_db, removed_db, info


# ------------------------------------------------------------------------------------- fit


Features = list[tuple[Question, list[tuple[float, float]], list[str]]]


def collect_features(
    questions: Sequence[Question], stores: dict[str, SqliteEvidenceStore], embedder: Embedder
) -> Features:
    """Each question's candidate spans as (coverage, cosine), and their texts."""
    out = []
    for q in questions:
        store = stores[UNANSWERABLE if q.kind == UNANSWERABLE else ANSWERABLE]
        feats = Planner(store, embedder).relevance_features(q.text)
        spans = [(cov, cos if cos is not None else 0.0) for _, cov, cos in feats]
        out.append((q, spans, [s.text for s, _, _ in feats]))
    return out


def tradeoff(data: Features, a: float, b: float, floors: Sequence[float]) -> list[dict[str, Any]]:
    """Answer and abstention rates at each floor of the decision a·coverage + b·cosine."""
    decisions = [
        (q.kind, best) for (q, _, _), (_, best) in zip(data, _decisions(data, a, b), strict=True)
    ]
    rows = []
    for floor in floors:
        row: dict[str, Any] = {"floor": floor}
        for kind in KINDS:
            mine = [s for k, s in decisions if k == kind]
            share = sum(s >= floor for s in mine) / len(mine) if mine else None
            row[kind] = share if kind == ANSWERABLE or share is None else 1 - share
        rows.append(row)
    return rows


def judge_probe(data: Features, a: float, b: float, top: int = 3) -> dict[str, Any]:
    """Whether the judge, reading question → span for each question's ``top`` spans, adds to
    the decision: the best balanced accuracy of ``best ≥ f1 and judge ≥ f2`` against ``f2 = 0``,
    and how often its preferred span is in a cited abstract against the best-ranked span's."""
    import numpy as np

    from spanproof.bootstrap import build_judge

    judge = build_judge()
    zero = np.zeros(1, dtype=np.float32)
    tops = []
    for _, spans, texts in data:
        order = sorted(range(len(spans)), key=lambda i: -(a * spans[i][0] + b * spans[i][1]))
        tops.append([(a * spans[i][0] + b * spans[i][1], texts[i]) for i in order[:top]])
    pairs = [
        (q.text, text, zero, zero) for (q, _, _), t in zip(data, tops, strict=True) for _, text in t
    ]
    started = time.perf_counter()
    probs = judge.check(pairs)
    seconds = time.perf_counter() - started
    feats, at = [], 0
    for t in tops:
        rows = probs[at : at + len(t)]
        at += len(t)
        feats.append((max((s for s, _ in t), default=-1.0), float(max(1 - rows[:, 2], default=0))))
    best = {"with_judge": (0.0, 0.0, 0.0), "without": (0.0, 0.0, 0.0)}
    labels = [q.kind == ANSWERABLE for q, _, _ in data]
    for f1 in sorted({round(s, 3) for s, _ in feats}):
        for f2 in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
            pos = [s >= f1 and j >= f2 for (s, j), y in zip(feats, labels, strict=True) if y]
            neg = [
                not (s >= f1 and j >= f2) for (s, j), y in zip(feats, labels, strict=True) if not y
            ]
            ba = (sum(pos) / max(len(pos), 1) + sum(neg) / max(len(neg), 1)) / 2
            key = "without" if f2 == 0.0 else "with_judge"
            if ba > best[key][0]:
                best[key] = (round(ba, 4), f1, f2)
    return {
        "pairs": len(pairs),
        "pairs_per_s": round(len(pairs) / seconds, 1),
        "best_balanced_accuracy": {
            k: {"ba": v[0], "floor": v[1], "judge_floor": v[2]} for k, v in best.items()
        },
    }


def _decisions(data: Features, a: float, b: float) -> list[tuple[bool, float]]:
    """(answerable?, best a·coverage + b·cosine) per question."""
    return [
        (q.kind == ANSWERABLE, max((a * cov + b * cos for cov, cos in spans), default=-1.0))
        for q, spans, _ in data
    ]


def _balanced(decisions: Sequence[tuple[bool, float]], floor: float) -> float:
    pos = [s for y, s in decisions if y]
    neg = [s for y, s in decisions if not y]
    if not pos or not neg:
        return 0.0
    answered = sum(s >= floor for s in pos) / len(pos)
    abstained = sum(s < floor for s in neg) / len(neg)
    return (answered + abstained) / 2


def fit(data: Features, lexical: bool) -> dict[str, Any]:
    """Weights (a unit direction over coverage and cosine) and floor with the best balanced
    accuracy of the question-level decision; ties go to the first in grid order."""
    best: tuple[float, float, float, float] = (-1.0, 0.0, 0.0, 0.0)
    angles = [0.0] if lexical else [i * math.pi / 40 for i in range(21)]
    for angle in angles:
        a, b = round(math.cos(angle), 4), round(math.sin(angle), 4)
        decisions = _decisions(data, a, b)
        for floor in sorted({round(s, 3) for _, s in decisions}):
            score = _balanced(decisions, floor)
            if score > best[0]:
                best = (score, a, b, floor)
    score, a, b, floor = best
    return {"balanced_accuracy": round(score, 4), "coverage": a, "cosine": b, "floor": floor}


def as_model(fitted: dict[str, Any], name: str, embed_model: str) -> RelevanceModel:
    """The fitted decision as a :class:`RelevanceModel` with floor 0.5 (logistic scale
    :data:`SCALE`)."""
    return RelevanceModel(
        name=name,
        embed_model=embed_model,
        coverage_weight=round(SCALE * fitted["coverage"], 3),
        cosine_weight=round(SCALE * fitted["cosine"], 3),
        bias=round(-SCALE * fitted["floor"], 3),
        floor=0.5,
    )


# ------------------------------------------------------------------------ answerability gate


GateRow = tuple[Question, AnswerabilitySignals | None, bool]


def build_engines(
    stores: dict[str, SqliteEvidenceStore],
    embedder: Embedder,
    model: RelevanceModel,
    gate: AnswerabilityModel | None,
    second_weight: float | None = None,
    title_weight: float | None = None,
    read_sources: int | None = None,
) -> dict[str, Engine]:
    """One engine per store, as ``spanproof ask`` builds it (extractive generator, the
    configured score model and the checker it reads, no traces), with ``gate`` as its
    answerability gate, the generator's ``second_weight`` and ``title_weight`` and the sources
    a proposition is read against in full, ``read_sources`` (their defaults where None)."""
    from spanproof.bootstrap import build_checker_for, build_score_model
    from spanproof.config import load_settings
    from spanproof.services.generation import ExtractiveGenerator
    from spanproof.verify.decompose import RuleBasedDecomposer

    settings = load_settings()
    score_model = build_score_model(settings)
    checker = build_checker_for(score_model, settings)  # the judge of v57's veto
    weights = {
        name: value
        for name, value in (("second_weight", second_weight), ("title_weight", title_weight))
        if value is not None
    }
    engines = {}
    for kind, store in stores.items():
        engine = Engine(
            store=store,
            traces=None,
            embedder=embedder,
            decomposer=RuleBasedDecomposer(),
            generator=ExtractiveGenerator(embedder, **weights),
            score_model=score_model,
            checker=checker,
            relevance=model,
        )
        engine.answerability = gate
        if read_sources is not None:
            engine.read_sources = read_sources
        engines[kind] = engine
    return engines


def collect_gate(questions: Sequence[Question], engines: dict[str, Engine]) -> list[GateRow]:
    """Each question's gate signals (None where the gate does not apply) and whether its plan
    kept a span (passed the relevance floor)."""
    out: list[GateRow] = []
    for q in questions:
        engine = engines[UNANSWERABLE if q.kind == UNANSWERABLE else ANSWERABLE]
        plan = engine.planner.plan(q.text)
        out.append((q, engine.answerability_signals(q.text, plan), not plan.abstains))
    return out


def _gate_x(s: AnswerabilitySignals) -> list[float]:
    p = min(max(s.relevance, 1e-6), 1 - 1e-6)
    return [math.log(p / (1 - p)), s.source_coverage, s.claim_score]


def fit_gate(rows: Sequence[GateRow], keep: float, iterations: int = 4000) -> dict[str, Any]:
    """A logistic regression (numpy, full-batch gradient descent from zero, L2 0.01 on
    standardised features: deterministic) of answerable vs not over the questions the gate
    applies to; the floor keeps ``keep`` of the answerable ones that passed the relevance floor.
    """
    import numpy as np

    xs = [_gate_x(s) for _, s, _ in rows if s is not None]
    ys = [q.kind == ANSWERABLE for q, s, _ in rows if s is not None]
    x, y = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    xs_ = (x - mu) / sd
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(xs_ @ w + b)))
        w -= 0.5 * (xs_.T @ (p - y) / len(y) + 0.01 * w)
        b -= 0.5 * float((p - y).mean())
    weights = w / sd
    bias = b - float(weights @ mu)
    linear = x @ weights + bias
    answerable = np.sort(linear[y == 1])
    cut = float(answerable[math.floor((1 - keep) * len(answerable))])
    return {
        "relevance_weight": round(float(weights[0]), 4),
        "coverage_weight": round(float(weights[1]), 4),
        "claim_weight": round(float(weights[2]), 4),
        "bias": round(bias - cut + 1e-4, 4),
        "keep": keep,
        "questions": len(ys),
        "answerable": int(y.sum()),
    }


def fit_gate_only(
    questions: Sequence[Question],
    stores: dict[str, SqliteEvidenceStore],
    embedder: Embedder,
    model: RelevanceModel,
    keep: float,
    score_model: str | None = None,
) -> int:
    """``--fit-gate``: the gate fitted on the calibration half, printed with its trade-off on
    that half (the report half is not read); its claim score comes from ``score_model`` (the
    shipped gate's when None)."""
    shipped = answerability_model_for(model.name)
    assert shipped is not None, f"no answerability gate is pinned for {model.name}"
    score_model = score_model or shipped.score_model
    reading = dataclasses.replace(shipped, score_model=score_model)
    calibration = [q for q in questions if q.split == CALIBRATION]
    rows = collect_gate(calibration, build_engines(stores, embedder, model, reading))
    fitted = fit_gate(rows, keep)
    for other in (0.95, 0.97, 0.98, 0.99):
        print(f"keep {other}: bias {fit_gate(rows, other)['bias']}", file=sys.stderr)
    gate = gate_model(fitted, model, score_model)
    curve = gate_tradeoff(rows, gate, (-1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0))
    print(json.dumps({"fit": fitted, "model": repr(gate), "calibration_tradeoff": curve}, indent=1))
    return 0


def gate_model(
    fitted: dict[str, Any], relevance: RelevanceModel, score_model: str
) -> AnswerabilityModel:
    return AnswerabilityModel(
        name="fitted",
        relevance_model=relevance.name,
        score_model=score_model,
        relevance_weight=fitted["relevance_weight"],
        coverage_weight=fitted["coverage_weight"],
        claim_weight=fitted["claim_weight"],
        bias=fitted["bias"],
    )


def gate_tradeoff(
    rows: Sequence[GateRow], gate: AnswerabilityModel, shifts: Sequence[float]
) -> list[dict[str, Any]]:
    """Answer and abstention rates with the gate's floor raised by each shift (in units of the
    logistic function's argument; 0 is the model's floor, < 0 lowers it), from the signals
    alone (a plan that kept no span abstains; a question the gate does not read is answered)."""
    out = []
    for shift in shifts:
        row: dict[str, Any] = {"shift": shift}
        for kind in KINDS:
            mine = [(s, kept) for q, s, kept in rows if q.kind == kind]
            answered = [
                kept and (s is None or gate.score(s) >= 1 / (1 + math.exp(-shift)))
                for s, kept in mine
            ]
            share = sum(answered) / len(mine) if mine else None
            row[kind] = share if kind == ANSWERABLE or share is None else 1 - share
        out.append(row)
    return out


def cited_sources(q: Question) -> set[str]:
    """The store's source ids of the abstracts ``q``'s claim cites."""
    return {f"scifact:{d}" for d in q.cited}


#: The title weights ``--title-probe`` tries (0 is ``extractive-v3``).
TITLE_WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)


def title_probe(
    questions: Sequence[Question],
    store: SqliteEvidenceStore,
    embedder: Embedder,
    model: RelevanceModel,
) -> dict[str, dict[str, int]]:
    """``--title-probe``: per half, how many answerable questions have a plan that kept a span,
    and for each title weight how many of them the extractive generator answers from a cited
    abstract (the source of its first quoted span). The plans are made once, before any gate,
    so only the generator's choice of source differs between weights."""
    from spanproof.services.generation import ExtractiveGenerator

    planner = Planner(store, embedder, relevance=model)
    generators = {w: ExtractiveGenerator(embedder, title_weight=w) for w in TITLE_WEIGHTS}
    out: dict[str, dict[str, int]] = {}
    for q in questions:
        if q.kind != ANSWERABLE:
            continue
        plan = planner.plan(q.text)
        if plan.abstains:
            continue
        row = out.setdefault(q.split, {"planned": 0, **{f"{w:g}": 0 for w in TITLE_WEIGHTS}})
        row["planned"] += 1
        cited = cited_sources(q)
        for w, generator in generators.items():
            markers = re.findall(r"\[([^\]]+)\]", generator.generate(q.text, plan).text)
            span = plan.span(markers[0]) if markers else None
            row[f"{w:g}"] += span is not None and span.source.get("source_id") in cited
    return out


# -------------------------------------------------------------------------------- evaluate


def asked_text(q: Question, form: str) -> str:
    """What is asked for ``q``: the suite's open question, or its claim as a proposition (the
    claim itself, or "Is it true that <claim>?")."""
    if form == "statement":
        return q.claim
    if form == "whether":
        return as_question(q.claim, "Is it true that {}?")
    return q.text


def evaluate(
    questions: Sequence[Question], engines: dict[str, Engine], form: str = "question"
) -> list[dict[str, Any]]:
    """Each question asked through the engine (in ``form``, :func:`asked_text`); what came
    back, with the verdict a proposition's answer leads with (``abstained`` when it abstained,
    None for a question that is no proposition)."""
    rows = []
    for q in questions:
        engine = engines[UNANSWERABLE if q.kind == UNANSWERABLE else ANSWERABLE]
        started = time.perf_counter()
        answer = engine.ask(asked_text(q, form))
        elapsed = time.perf_counter() - started
        cited = cited_sources(q)
        claims = []
        for c in answer.claims:
            span = answer.plan.span(c.best_span.id) if c.best_span is not None else None
            source = span.source.get("source_id") if span is not None else None
            claims.append(
                {"supported": c.verdict is Verdict.SUPPORTED, "in_cited": source in cited}
            )
        rows.append(
            {
                "id": q.id,
                "kind": q.kind,
                "split": q.split,
                "answered": answer.answered,
                "lead": "abstained"
                if not answer.answered
                else (answer.proposition.verdict if answer.proposition else None),
                "relevance": answer.relevance,
                "claims": claims,
                "seconds": elapsed,
            }
        )
    return rows


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        answered = [r for r in mine if r["answered"]]
        claims = [c for r in answered for c in r["claims"]]
        out[kind] = {
            "questions": len(mine),
            "answered": len(answered),
            "abstained": len(mine) - len(answered),
            "claims": len(claims),
            "claims_supported": sum(c["supported"] for c in claims),
            "claims_supported_in_cited": sum(c["supported"] and c["in_cited"] for c in claims),
            "leads": dict(sorted(Counter(str(r["lead"]) for r in mine).items())),
        }
    a, u, o = (out[k] for k in KINDS)
    neg = u["questions"] + o["questions"]
    out["rates"] = {
        "answered_answerable": _rate(a["answered"], a["questions"]),
        "abstained_unanswerable": _rate(u["abstained"], u["questions"]),
        "abstained_off_topic": _rate(o["abstained"], o["questions"]),
        "abstained_unanswerable_and_off_topic": _rate(u["abstained"] + o["abstained"], neg),
        "answered_claims_supported_in_cited": _rate(a["claims_supported_in_cited"], a["claims"]),
        "answered_claims_supported": _rate(a["claims_supported"], a["claims"]),
    }
    times = [r["seconds"] for r in rows]
    out["ask_median_ms"] = round(1000 * statistics.median(times), 1) if times else None
    return out


def _rate(n: int, d: int) -> float | None:
    return round(n / d, 3) if d else None


# -------------------------------------------------------------------------------- report


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def _flag(name: str, value: object) -> str:
    return "" if value is None else f" {name} {value}"


def render(result: dict[str, Any]) -> str:
    s = result["store"]
    model = result["model"]
    lines = [
        "## Answerability: relevance and abstention (issue 15)",
        "",
        BEGIN,
        "",
        f"Measured by `python scripts/answerability.py --limit {result['limit']} --seed "
        f"{result['seed']}{' --judge-probe' if result.get('judge_probe') else ''}"
        f"{' --no-gate' if not result.get('gate') else ''}"
        f"{_flag('--second-weight', result.get('second_weight'))}"
        f"{_flag('--title-weight', result.get('title_weight'))}"
        " --write "
        f"docs/quality.md` on {result['date']} "
        f"({result['seconds']:.0f} s on this machine). Questions: {result['questions']} — "
        f"{result['limit']} SciFact train claims with a rationale as open questions "
        '("What is known about whether …?"), each asked of the suite store (answerable) and of '
        "the same store with its cited abstracts withdrawn (unanswerable), and "
        f"{result['limit']} CLIMATE-FEVER claims and FEVER hypotheses as questions (off-topic). "
        f"Suite store: {s['sources']} SciFact abstracts ({s['cited']} cited by the suite's "
        f"claims, the {s['neighbours_per_question']} nearest by keyword search over the whole "
        f"corpus of {s['corpus']} for each question, and {s['distractors']} drawn at random). "
        "Everything goes through the engine of `spanproof ask` (extractive generator "
        f"`{result.get('generator', 'extractive')}`, "
        f"score model {result['score_model']}, no LLM) with the relevance model "
        f"`{model['name']}` (coverage weight {model['coverage_weight']}, cosine weight "
        f"{model['cosine_weight']}, bias {model['bias']}, floor {model['floor']}).",
        "",
        "| half | answerable answered (goal ≥ 90 %) | unanswerable abstained | off-topic "
        "abstained | unanswerable + off-topic abstained (goal ≥ 95 %) | answered claims "
        "supported in a cited abstract (goal ≥ 90 %) | supported at all |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for half in (CALIBRATION, REPORT):
        r = result["halves"][half]["rates"]
        n = result["halves"][half]
        lines.append(
            f"| {half} ({n[ANSWERABLE]['questions']}/{n[UNANSWERABLE]['questions']}/"
            f"{n[OFF_TOPIC]['questions']}) | {_pct(r['answered_answerable'])} | "
            f"{_pct(r['abstained_unanswerable'])} | {_pct(r['abstained_off_topic'])} | "
            f"{_pct(r['abstained_unanswerable_and_off_topic'])} | "
            f"{_pct(r['answered_claims_supported_in_cited'])} | "
            f"{_pct(r['answered_claims_supported'])} |"
        )
    f = result["fit"]
    lines += [
        "",
        "The fit on the calibration half (grid over the weights' direction and the floor, "
        f"balanced accuracy of answer vs abstain): coverage {f['coverage']}, cosine "
        f"{f['cosine']}, floor {f['floor']} (balanced accuracy {f['balanced_accuracy']}); "
        f"coverage alone (`relevance-v1-lexical`, any other embedder): floor "
        f"{result['fit_lexical']['floor']} (balanced accuracy "
        f"{result['fit_lexical']['balanced_accuracy']}). Median `ask` time in the run: "
        f"{result['halves'][REPORT]['ask_median_ms']} ms (report half).",
        "",
        "Where other floors of the same decision land on the report half (from the ranking "
        "signals alone, before packing; the table above is the engine's own run):",
        "",
        "| floor (linear score) | answerable answered | unanswerable abstained | "
        "off-topic abstained |",
        "|---:|---:|---:|---:|",
    ]
    for row in result["tradeoff_report_half"]:
        lines.append(
            f"| {row['floor']} | {_pct(row[ANSWERABLE])} | {_pct(row[UNANSWERABLE])} | "
            f"{_pct(row[OFF_TOPIC])} |"
        )
    gate = result.get("gate")
    if gate:
        lines += [
            "",
            f"The answerability gate `{gate['name']}` (in the table above): an open question "
            'that asks about a claim ("What is known about whether X?") and passed the relevance '
            "floor is answered only when "
            f"{gate['bias']} + {gate['relevance_weight']}·logit(best relevance) + "
            f"{gate['coverage_weight']}·source coverage + {gate['claim_weight']}·claim score ≥ 0 "
            "(answerability ≥ 0.5), where source coverage is the largest IDF-weighted share of "
            "X's content words one planned source holds in its whole text and claim score is X's "
            f"support score against the plan under score model {gate['score_model']}. Fitted "
            "with `--fit-gate` on the calibration half only. Moving its floor (report half, from "
            'the signals; + is stricter). A proposition ("X.", "Is it true that X?", '
            '"Does X …?") is not gated: its own verdict leads the answer.',
            "",
            "| floor shift | answerable answered | unanswerable abstained | off-topic abstained |",
            "|---:|---:|---:|---:|",
        ]
        for row in result["gate_tradeoff_report_half"]:
            lines.append(
                f"| {row['shift']:+.1f} | {_pct(row[ANSWERABLE])} | {_pct(row[UNANSWERABLE])} | "
                f"{_pct(row[OFF_TOPIC])} |"
            )
    probe = result.get("judge_probe")
    if probe:
        w, wo = (
            probe["best_balanced_accuracy"]["with_judge"],
            probe["best_balanced_accuracy"]["without"],
        )
        lines += [
            "",
            f"The judge as a further signal (`--judge-probe`: the judge reads question → span for "
            f"each calibration question's 3 best spans, {probe['pairs']} pairs, "
            f"{probe['pairs_per_s']} pairs/s): the best balanced accuracy of `best span ≥ floor "
            f"and judge's not-neutral ≥ judge floor` is {w['ba']} (floor {w['floor']}, judge "
            f"floor {w['judge_floor']}) against {wo['ba']} without it (floor {wo['floor']}).",
        ]
    lines += ["", END, ""]
    return "\n".join(lines)


def write_section(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    heading = text.split("\n", 1)[0]
    if BEGIN in old and END in old:
        before, rest = old.split(BEGIN, 1)
        _, after = rest.split(END, 1)
        body = text.split(BEGIN, 1)[1].split(END, 1)[0]
        new = before + BEGIN + body + END + after
    else:
        new = old.rstrip("\n") + "\n\n" + text
    if heading not in new:
        new = new.rstrip("\n") + "\n\n" + text
    path.write_text(new, encoding="utf-8")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=60, help="SciFact claims (and off-topic)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--neighbours", type=int, default=5, help="nearest abstracts kept")
    parser.add_argument("--distractors", default="200", help="random abstracts, or 'all'")
    parser.add_argument("--workdir", help="where stores go (kept, and reused); default: temp")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--judge-probe", action="store_true", help="also measure the judge as a relevance signal"
    )
    parser.add_argument("--write", type=Path, help="write the section into this markdown file")
    parser.add_argument(
        "--no-gate", action="store_true", help="evaluate without the answerability gate"
    )
    parser.add_argument(
        "--fit-gate",
        action="store_true",
        help="only fit the answerability gate on the calibration half and print it",
    )
    parser.add_argument(
        "--gate-keep",
        type=float,
        default=0.95,
        help="share of calibration answerable questions past the relevance floor the fitted "
        "gate keeps",
    )
    parser.add_argument(
        "--second-weight",
        type=float,
        help="the extractive generator's second_weight (default: its own; 0 with "
        "--title-weight 0 gives extractive-v2)",
    )
    parser.add_argument(
        "--title-weight",
        type=float,
        help="the extractive generator's title_weight (default: its own; 0 gives extractive-v3)",
    )
    parser.add_argument(
        "--form",
        choices=("question", "statement", "whether"),
        default="question",
        help="ask each claim as the suite's open question (default), as a statement, or as "
        '"Is it true that …?" (with --json: the verdicts the answers lead with, per kind)',
    )
    parser.add_argument(
        "--gate-score-model",
        choices=list(SCORE_MODELS),
        help="score model of the fitted gate's claim score (default: the shipped gate's)",
    )
    parser.add_argument(
        "--read-sources",
        type=int,
        metavar="K",
        help="read a proposition against its plan's K most relevant sources in full, for a "
        "reversal (default: the engine's; 0: the plan's spans alone); matters with --form",
    )
    parser.add_argument(
        "--title-probe",
        action="store_true",
        help="only print, per half and title_weight, how often the extractive generator quotes a "
        "cited abstract for an answerable question whose plan kept a span",
    )
    parser.add_argument(
        "--coverage",
        choices=("tokens", "stems"),
        default="tokens",
        help="a probe: the question coverage the relevance signals read, over the question's "
        "tokens as shipped or over its keyword terms (folded, stop words dropped, stemmed); "
        "the shipped relevance model's weights are for tokens",
    )
    return parser.parse_args()


def _stemmed_coverage(
    question_tokens: Sequence[str], span_tokens: Sequence[Sequence[str]]
) -> list[float]:
    """Question coverage over keyword terms (``--coverage stems``)."""
    from spanproof.text.keywords import terms
    from spanproof.verify.relevance import question_coverage

    return question_coverage(
        terms(" ".join(question_tokens)), [terms(" ".join(t)) for t in span_tokens]
    )


def main() -> int:
    args = _arguments()
    root = data_dir()
    if root is None:
        print("the data folder (../shared/data) is absent: nothing to measure", file=sys.stderr)
        return 2
    if args.write and args.form != "question":
        print("--write reports the suite's open questions: leave out --form", file=sys.stderr)
        return 2
    from spanproof.bootstrap import build_embedder
    from spanproof.config import load_settings

    if args.coverage == "stems":  # a probe: the planner reads the other coverage
        from spanproof.services import planning

        planning.question_coverage = _stemmed_coverage  # type: ignore[attr-defined]
    settings = load_settings()
    embedder = build_embedder(settings)
    started = time.perf_counter()
    questions = build_suite(root, seed=args.seed, limit=args.limit)
    with tempfile.TemporaryDirectory() as tmp:
        args.workdir = args.workdir or tmp
        Path(args.workdir).mkdir(parents=True, exist_ok=True)
        main_db, removed_db, store_info = build_stores(root, questions, args, embedder)
        print(f"stores ready: {store_info}", file=sys.stderr, flush=True)
        with SqliteEvidenceStore(main_db) as main_store, SqliteEvidenceStore(removed_db) as rem:
            stores = {ANSWERABLE: main_store, UNANSWERABLE: rem}
            model = relevance_model_for(embedder.model_id)
            shipped = answerability_model_for(model.name)
            if args.fit_gate:
                return fit_gate_only(
                    questions, stores, embedder, model, args.gate_keep, args.gate_score_model
                )
            if args.title_probe:
                print(json.dumps(title_probe(questions, stores[ANSWERABLE], embedder, model)))
                return 0
            data = collect_features(questions, stores, embedder)
            cal = [d for d in data if d[0].split == CALIBRATION]
            fitted = fit(cal, lexical=False)
            fitted_lexical = fit(cal, lexical=True)
            print(f"fit: {fitted}; coverage alone: {fitted_lexical}", file=sys.stderr, flush=True)
            a, b, f = fitted["coverage"], fitted["cosine"], fitted["floor"]
            floors = [round(f + d, 3) for d in (-0.1, -0.05, 0.0, 0.05, 0.1, 0.15)]
            curve = tradeoff([d for d in data if d[0].split == REPORT], a, b, floors)
            probe = judge_probe(cal, a, b) if args.judge_probe else None
            gate = None if args.no_gate else shipped
            engines = build_engines(
                stores,
                embedder,
                model,
                gate,
                args.second_weight,
                args.title_weight,
                args.read_sources,
            )
            gate_curve = None
            if gate is not None:
                gate_rows = collect_gate([q for q in questions if q.split == REPORT], engines)
                gate_curve = gate_tradeoff(gate_rows, gate, (-1.0, -0.5, 0.0, 0.5, 1.0))
            rows = evaluate(questions, engines, args.form)
    result = {
        "limit": args.limit,
        "seed": args.seed,
        "form": args.form,
        "questions": len(questions),
        "date": time.strftime("%Y-%m-%d"),
        "store": store_info,
        "score_model": settings.verify.score_model,
        "generator": engines[ANSWERABLE].generator.model_id,
        "second_weight": args.second_weight,
        "title_weight": args.title_weight,
        "model": {
            "name": model.name,
            "coverage_weight": model.coverage_weight,
            "cosine_weight": model.cosine_weight,
            "bias": model.bias,
            "floor": model.floor,
        },
        "gate": None
        if gate is None
        else {
            "name": gate.name,
            "relevance_weight": gate.relevance_weight,
            "coverage_weight": gate.coverage_weight,
            "claim_weight": gate.claim_weight,
            "bias": gate.bias,
            "floor": gate.floor,
            "score_model": gate.score_model,
        },
        "gate_tradeoff_report_half": gate_curve,
        "fit": fitted,
        "fit_lexical": fitted_lexical,
        "tradeoff_report_half": curve,
        "judge_probe": probe,
        "fitted_model": as_model(fitted, "fitted", embedder.model_id).__repr__(),
        "halves": {
            half: summarise([r for r in rows if r["split"] == half])
            for half in (CALIBRATION, REPORT)
        },
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(render(result))
    if args.write:
        write_section(args.write, render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
