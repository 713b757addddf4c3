"""spanproof benchmarks: scoring throughput, embedding overhead, verify latency.

    make bench        # = python bench/run.py --write bench/RESULTS.md

Reports medians of repeated runs, and ratios measured side by side in the same run. Texts are
real SciFact sentences when ``../shared/data`` is present, else the shipped demo evidence.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _results import write_section  # type: ignore[import-not-found]

from spanproof.core.models import Claim, EvidenceSpan
from spanproof.evaluation.devdata import data_dir
from spanproof.services.benchmark import bench_embedding as compare_embedding
from spanproof.services.benchmark import median_time
from spanproof.services.verification import score_all
from spanproof.verify.scoring import (
    V1,
    V2,
    V3,
    V4,
    V5,
    V6,
    V8,
    V9,
    V10,
    V11,
    V12,
    V13,
    V14,
    V15,
    V16,
    V17,
    V18,
    V19,
    V20,
    V21,
    V22,
    V23,
    V24,
    V25,
    V26,
    V27,
    V28,
    V29,
    V30,
    V31,
    V32,
    V33,
    V34,
    V35,
    V36,
    V37,
    V38,
    V39,
    V40,
    V41,
    V42,
    V43,
    V44,
    V45,
    V46,
    V47,
    V48,
    V49,
    V50,
    V51,
    V52,
    V53,
    V54,
    V55,
    V56,
    V57,
    V58,
    V59,
    V60,
    V61,
    V62,
    V63,
    V64,
    V65,
    V66,
    V67,
    V68,
    V69,
    V70,
    V71,
    V72,
    V73,
    V74,
    V75,
    V76,
    V77,
    V78,
    V79,
    prepare_claim,
    prepare_plan,
    score_pair,
)


def sentences(limit: int) -> list[str]:
    root = data_dir()
    out: list[str] = []
    if root is not None:
        with (root / "scifact" / "corpus.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                out.extend(json.loads(line)["abstract"])
                if len(out) >= limit:
                    break
    else:
        demo = Path(__file__).resolve().parents[1] / "examples" / "demo" / "evidence.jsonl"
        base = [json.loads(x)["text"] for x in demo.read_text().splitlines() if x.strip()]
        out = [f"{t} (variant {i})" for i in range(limit) for t in base][:limit]
    return out[:limit]


def bench_pairs(texts: list[str], repeats: int) -> dict[str, Any]:
    """Pair scores per second on one core, embedding excluded (cosines are given)."""
    spans = [EvidenceSpan(id=f"S{i}", text=t) for i, t in enumerate(texts[:64])]
    out: dict[str, Any] = {}
    rng = np.random.default_rng(7)
    cos = rng.random((10, len(spans)))
    for model in (V1, V2):
        plan = prepare_plan(spans, model)
        claims = [prepare_claim(Claim(id=f"c{i}", text=texts[64 + i]), plan) for i in range(10)]
        pairs = [(c, s, float(cos[ci, s.index])) for ci, c in enumerate(claims) for s in plan.spans]

        def run(pairs: list[Any] = pairs, model: Any = model) -> None:
            for _ in range(50):
                for c, s, x in pairs:
                    score_pair(c, s, x, model)

        med, _ = median_time(run, repeats)
        out[model.name] = {"pairs_per_s": round(50 * len(pairs) / med), "pairs": 50 * len(pairs)}
    return out


def bench_embedding(texts: list[str], repeats: int) -> dict[str, Any]:
    """spanproof's embedder against the same model run through onnxruntime alone, interleaved."""
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
    from spanproof.providers.embeddings.reference import ReferenceMiniLM

    result = compare_embedding(
        texts, OnnxMiniLMEmbedder(batch_size=32).embed, ReferenceMiniLM(32).embed, repeats
    )
    return {
        "texts": result.texts,
        "spanproof_per_s": result.spanproof_per_s,
        "raw_onnxruntime_per_s": result.reference_per_s,
        "ratio": result.ratio,
    }


def bench_verify(texts: list[str], cached_repeats: int, uncached_repeats: int) -> dict[str, Any]:
    from spanproof.core.parser import ReadingChecker
    from spanproof.providers.checker.cross_encoder import CrossEncoderChecker
    from spanproof.providers.checker.judge import JudgeChecker
    from spanproof.providers.embeddings.cache import CachedEmbedder
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
    from spanproof.providers.parser import SpacyParser

    evidence = [EvidenceSpan(id=f"S{i + 1}", text=t) for i, t in enumerate(texts[200:264])]
    claims = [Claim(id=f"c{i}", text=texts[200 + 6 * i]) for i in range(10)]
    inner = OnnxMiniLMEmbedder(batch_size=32)
    out: dict[str, Any] = {"claims": len(claims), "evidence_spans": len(evidence)}
    with tempfile.TemporaryDirectory() as tmp:
        cached = CachedEmbedder(inner, Path(tmp) / "cache.sqlite")
        cross_encoder = CrossEncoderChecker()
        # v3 as shipped escalates only borderline claims; "v3-all" escalates every ungated one
        # (the worst case: one checker call per claim).
        every = dataclasses.replace(V3, name="v3-all", escalation_band=1.0)
        # v5 "cached": the judge remembers its batch outputs (a repeated verify of the same
        # claims runs no model, same probabilities bit for bit); "judge run": cached embeddings,
        # a judge that remembers nothing; "uncached": neither cached.
        judge = JudgeChecker()
        judge_uncached = JudgeChecker(cache_batches=0, cache_pairs=0)
        models = (
            V1, V2, V3, every, V4, V5, V6, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17, V18,
            V19, V20, V21, V22, V23, V24, V25, V26, V27, V28, V29, V30, V31, V32, V33, V34,
            V35, V36, V37, V38, V39, V40, V41, V42, V43, V44, V45, V46, V47, V48, V49, V50, V51,
            V52, V53, V54, V55, V56, V57, V58, V59, V60, V61, V62, V63, V64, V65, V66, V67, V68,
            V69, V70, V71, V72, V73, V74, V75, V76, V77, V78, V79,
        )  # fmt: skip
        # v71 reads roles with the parser beside the judge: "cached" remembers its parses too,
        # "judge run" and "uncached" parse every time.
        parser, parser_uncached = SpacyParser(), SpacyParser(cache=0)
        for model in models:
            judged = model.reads_judge  # v5's combiner and v57's veto read the judge
            checker: Any = judge if judged else cross_encoder
            cold_checker: Any = judge_uncached if judged else cross_encoder
            judge_run: Any = judge_uncached
            if model.role_bindings:
                checker = ReadingChecker(judge, parser)
                cold_checker = judge_run = ReadingChecker(judge_uncached, parser_uncached)
            score_all(claims, evidence, cached, model, checker)  # fill the caches

            def warm(model: Any = model, checker: Any = checker) -> None:
                score_all(claims, evidence, cached, model, checker)

            def cold(model: Any = model, checker: Any = cold_checker) -> None:
                score_all(claims, evidence, inner, model, checker)

            med_c, times_c = median_time(warm, cached_repeats)
            med_u, _times_u = median_time(cold, uncached_repeats)
            verdicts = score_all(claims, evidence, cached, model, checker)[0]
            out[model.name] = {
                "escalated": sum(v.escalated for v in verdicts),
                "cached_median_ms": round(1000 * med_c, 1),
                "cached_p95_ms": round(1000 * sorted(times_c)[int(0.95 * (len(times_c) - 1))], 1),
                "uncached_median_ms": round(1000 * med_u, 1),
            }
            if judged:
                if verdicts != score_all(claims, evidence, cached, model, judge_run)[0]:
                    raise SystemExit("remembered judge outputs changed a verdict")

                def run_judge(model: Any = model, checker: Any = judge_run) -> None:
                    score_all(claims, evidence, cached, model, checker)

                med_j, times_j = median_time(run_judge, uncached_repeats)
                out[model.name] |= {
                    "judged": sum(v.judge is not None for v in verdicts),
                    "judge_run_median_ms": round(1000 * med_j, 1),
                    "judge_run_p95_ms": round(
                        1000 * sorted(times_j)[int(0.95 * (len(times_j) - 1))], 1
                    ),
                }
    return out


def render(results: dict[str, Any]) -> str:
    p, e, v = results["pairs"], results["embedding"], results["verify"]
    lines = [
        "## Engine: scoring, embedding, verify latency",
        "",
        f"Measured by `make bench` (`python bench/run.py --write bench/RESULTS.md`) on "
        f"{results['machine']}, {results['date']}. Medians of repeated runs.",
        "",
        "| benchmark | v1 | v2 | goal |",
        "|---|---:|---:|---|",
        f"| pair scores/s, one core, embedding excluded | {p['v1']['pairs_per_s']:,} | "
        f"{p['v2']['pairs_per_s']:,} | ≥ 200,000 |",
        f"| verify 10 claims × 64 spans, cached embeddings, median | "
        f"{v['v1']['cached_median_ms']} ms | {v['v2']['cached_median_ms']} ms | ≤ 150 ms |",
        f"| verify 10 claims × 64 spans, cached, p95 | {v['v1']['cached_p95_ms']} ms | "
        f"{v['v2']['cached_p95_ms']} ms | |",
        f"| verify 10 claims × 64 spans, uncached, median | {v['v1']['uncached_median_ms']} ms |"
        f" {v['v2']['uncached_median_ms']} ms | |",
        "",
        "Score model v3 (v2 plus escalation to the cross-encoder), same 10 claims × 64 spans: "
        f"as shipped it escalated {v['v3']['escalated']} claims, cached median "
        f"{v['v3']['cached_median_ms']} ms (p95 {v['v3']['cached_p95_ms']} ms); with every "
        f"ungated claim escalated ({v['v3-all']['escalated']} checker calls) cached median "
        f"{v['v3-all']['cached_median_ms']} ms (p95 {v['v3-all']['cached_p95_ms']} ms), goal "
        "≤ 150 ms.",
        "",
        "Score model v4 (v2 plus the edit check), same claims and spans: cached median "
        f"{v['v4']['cached_median_ms']} ms (p95 {v['v4']['cached_p95_ms']} ms). Score model v5 "
        f"(v4 with every claim read by the judge, one batched call; {v['v5']['judged']} of "
        f"{v['claims']} claims judged): cached median {v['v5']['cached_median_ms']} ms (p95 "
        f"{v['v5']['cached_p95_ms']} ms), goal ≤ 150 ms — cached here means the embeddings and "
        "the judge's outputs: the judge remembers each onnxruntime batch's output by the SHA-256 "
        "of its exact input tensors, so a repeated verify of the same claims runs no model and "
        "gives the same verdicts bit for bit; with the judge run every time (embeddings cached) "
        f"median {v['v5']['judge_run_median_ms']} ms (p95 {v['v5']['judge_run_p95_ms']} ms), "
        f"nothing cached median {v['v5']['uncached_median_ms']} ms. "
        "Score model v6 (v4 reading two changed details): cached median "
        f"{v['v6']['cached_median_ms']} ms (p95 {v['v6']['cached_p95_ms']} ms). Score model v8 "
        "(v6 whose check reads only claims copied in stretches): cached median "
        f"{v['v8']['cached_median_ms']} ms (p95 {v['v8']['cached_p95_ms']} ms). Score model v9 "
        "(v8 reading two of the window's figures or names mixed up): cached median "
        f"{v['v9']['cached_median_ms']} ms (p95 {v['v9']['cached_p95_ms']} ms). Score model v10 "
        "(v9 whose shortened copies keep their figures in place): cached median "
        f"{v['v10']['cached_median_ms']} ms (p95 {v['v10']['cached_p95_ms']} ms). Score model v11 "
        "(v10 whose copied figures keep their units and whose claims' citation markers are no "
        f"words): cached median {v['v11']['cached_median_ms']} ms (p95 "
        f"{v['v11']['cached_p95_ms']} ms). Score model v12 (v11 whose compressions keep the "
        f"finding's strength): cached median {v['v12']['cached_median_ms']} ms (p95 "
        f"{v['v12']['cached_p95_ms']} ms). Score model v13 (v12 whose compressions keep what "
        f"inverts the finding): cached median {v['v13']['cached_median_ms']} ms (p95 "
        f"{v['v13']['cached_p95_ms']} ms). Score model v14 (v13 whose claims may not quote what "
        f"the window does not assert): cached median {v['v14']['cached_median_ms']} ms (p95 "
        f"{v['v14']['cached_p95_ms']} ms). Score model v15 (v14 whose compressions keep what "
        f"restricts the finding): cached median {v['v15']['cached_median_ms']} ms (p95 "
        f"{v['v15']['cached_p95_ms']} ms). Score model v16 (v15 whose kept qualifiers must "
        f"cover what was dropped, bounds kept): cached median "
        f"{v['v16']['cached_median_ms']} ms (p95 "
        f"{v['v16']['cached_p95_ms']} ms). Score model v17 (v16 reading figures, contractions, "
        "spellings and abbreviations written other ways): cached median "
        f"{v['v17']['cached_median_ms']} ms (p95 {v['v17']['cached_p95_ms']} ms). Score model "
        "v18 (v17 reading a word written together, with a hyphen or apart as one): cached "
        f"median {v['v18']['cached_median_ms']} ms (p95 {v['v18']['cached_p95_ms']} ms). "
        "Score model v19 (v18 reading signs, folds in words and bounds after figures): cached "
        "median "
        f"{v['v19']['cached_median_ms']} ms (p95 {v['v19']['cached_p95_ms']} ms). "
        "Score model v20 (v19 whose gates read a word's forms as the word): cached median "
        f"{v['v20']['cached_median_ms']} ms (p95 {v['v20']['cached_p95_ms']} ms). "
        "Score model v21 (v20 reading a name's figure written apart, a failed near copy "
        "dominant): cached median "
        f"{v['v21']['cached_median_ms']} ms (p95 {v['v21']['cached_p95_ms']} ms). "
        "Score model v22 (v21 whose polarity gate reads more direction and negation words): "
        "cached median "
        f"{v['v22']['cached_median_ms']} ms (p95 {v['v22']['cached_p95_ms']} ms). "
        "Score model v23 (v22 whose polarity gate also reads the sentences that cover a claim "
        "nearly as well): cached median "
        f"{v['v23']['cached_median_ms']} ms (p95 {v['v23']['cached_p95_ms']} ms). "
        "Score model v24 (v23 in which a span stating no direction cannot rescue a claim a "
        "close span reverses): cached median "
        f"{v['v24']['cached_median_ms']} ms (p95 {v['v24']['cached_p95_ms']} ms). "
        "Score model v25 (the default before v27: v23 whose entity gate reads a name written "
        "within a longer one as that name): cached median "
        f"{v['v25']['cached_median_ms']} ms (p95 {v['v25']['cached_p95_ms']} ms). "
        "Score model v26 (v25 with v24's rule): cached median "
        f"{v['v26']['cached_median_ms']} ms (p95 {v['v26']['cached_p95_ms']} ms). "
        "Score model v27 (the default before v29: v25 whose polarity gate counts only the "
        "negations that deny): "
        "cached median "
        f"{v['v27']['cached_median_ms']} ms (p95 {v['v27']['cached_p95_ms']} ms). "
        "Score model v28 (v27 reading a sentence's opposed clauses one by one): cached median "
        f"{v['v28']['cached_median_ms']} ms (p95 {v['v28']['cached_p95_ms']} ms). "
        "Score model v29 (the default before v33: v28 whose polarity gate also reads sentences "
        f"covering a claim less): cached median {v['v29']['cached_median_ms']} ms "
        f"(p95 {v['v29']['cached_p95_ms']} ms). "
        "Score model v30 (v29 whose polarity gate also reads the window it quotes): cached "
        f"median {v['v30']['cached_median_ms']} ms (p95 {v['v30']['cached_p95_ms']} ms). "
        "Score model v31 (v29 whose edit check reads words taken from an opposed clause): "
        f"cached median {v['v31']['cached_median_ms']} ms (p95 {v['v31']['cached_p95_ms']} ms). "
        "Score model v32 (v31 whose polarity gate also reads a comparison with its sides "
        f"traded): cached median {v['v32']['cached_median_ms']} ms "
        f"(p95 {v['v32']['cached_p95_ms']} ms). "
        "Score model v33 (the default before v34: v32 whose edit check reads what a deletion "
        f"carries on): cached median {v['v33']['cached_median_ms']} ms "
        f"(p95 {v['v33']['cached_p95_ms']} ms). "
        "Score model v34 (the default before v35: v33 whose numeric gate reads a figure written "
        f"after a name with a hyphen as the name's): cached median "
        f"{v['v34']['cached_median_ms']} ms (p95 {v['v34']['cached_p95_ms']} ms). "
        "Score model v35 (the default before v36: v34 whose edit check reads a dropped word of "
        f"extent): cached median {v['v35']['cached_median_ms']} ms "
        f"(p95 {v['v35']['cached_p95_ms']} ms). "
        "Score model v36 (the default before v37: v35 whose edit check reads what the window "
        f"only supposes): cached median {v['v36']['cached_median_ms']} ms "
        f"(p95 {v['v36']['cached_p95_ms']} ms). "
        "Score model v37 (the default before v38: v36 whose edit check reads what takes the "
        "finding "
        f"back): cached median {v['v37']['cached_median_ms']} ms "
        f"(p95 {v['v37']['cached_p95_ms']} ms). "
        "Score model v38 (the default before v39: v37 that also reads an effect claimed on a "
        f"window stating only an association): cached median {v['v38']['cached_median_ms']} ms "
        f"(p95 {v['v38']['cached_p95_ms']} ms). "
        "Score model v39 (the default before v40: v38 that reads each direction word with the "
        f"thing it acts on): cached median {v['v39']['cached_median_ms']} ms "
        f"(p95 {v['v39']['cached_p95_ms']} ms). "
        "Score model v40 (the default before v41: v39 that refuses a cure claimed on a window "
        f"stating none): cached median {v['v40']['cached_median_ms']} ms "
        f"(p95 {v['v40']['cached_p95_ms']} ms). "
        "Score model v41 (the default before v42: v40 that reads a comparison restated with its "
        f"sides traded and its direction turned round as agreeing): cached median "
        f"{v['v41']['cached_median_ms']} ms (p95 {v['v41']['cached_p95_ms']} ms). "
        "Score model v42 (the default before v45: v41 whose edit check reads a negation deleted "
        "past a comma): cached "
        f"median {v['v42']['cached_median_ms']} ms (p95 {v['v42']['cached_p95_ms']} ms). "
        "Score model v43 (v42, strict: `supported` only for a faithful near copy): cached "
        f"median {v['v43']['cached_median_ms']} ms (p95 {v['v43']['cached_p95_ms']} ms). "
        "Score model v44 (v42 whose edit check reads a dropped population where it was "
        f"dropped): cached median {v['v44']['cached_median_ms']} ms "
        f"(p95 {v['v44']['cached_p95_ms']} ms). "
        "Score model v45 (the default before v47: v44 that tells a comparison's sides apart "
        "by their figures): cached "
        f"median {v['v45']['cached_median_ms']} ms (p95 {v['v45']['cached_p95_ms']} ms). "
        "Score model v46 (v45, strict): cached "
        f"median {v['v46']['cached_median_ms']} ms (p95 {v['v46']['cached_p95_ms']} ms). "
        "Score model v47 (the default before v50: v45 that reads a cardinal number word as its "
        "figure): "
        f"cached median {v['v47']['cached_median_ms']} ms (p95 {v['v47']['cached_p95_ms']} ms). "
        "Score model v48 (v47, strict): cached "
        f"median {v['v48']['cached_median_ms']} ms (p95 {v['v48']['cached_p95_ms']} ms). "
        "Score model v49 (v47 that reads a sentence stating only a procedure as stating no "
        f"finding): cached median {v['v49']['cached_median_ms']} ms "
        f"(p95 {v['v49']['cached_p95_ms']} ms). "
        "Score model v50 (the default before v51: v47 whose edit check allows a faithful "
        "answer's rewordings): cached "
        f"median {v['v50']['cached_median_ms']} ms (p95 {v['v50']['cached_p95_ms']} ms). "
        "Score model v51 (the default before v52: v50 that refuses a thing joined to a copied "
        "one which the evidence states otherwise): cached "
        f"median {v['v51']['cached_median_ms']} ms (p95 {v['v51']['cached_p95_ms']} ms). "
        "Score model v52 (the default before v53: v51 that reads more of an answer's words): "
        f"cached median {v['v52']['cached_median_ms']} ms (p95 {v['v52']['cached_p95_ms']} ms). "
        "Score model v53 (the default before v54: v52 whose entity gate reads a name a letter "
        "tells from its kin): cached "
        f"median {v['v53']['cached_median_ms']} ms (p95 {v['v53']['cached_p95_ms']} ms). "
        "Score model v54 (the default before v55: v53 whose entity gate reads an abbreviation "
        "of words the span writes out): cached "
        f"median {v['v54']['cached_median_ms']} ms (p95 {v['v54']['cached_p95_ms']} ms). "
        "Score model v55 (the default before v56: v54 whose entity gate reads how a name is "
        "written): cached "
        f"median {v['v55']['cached_median_ms']} ms (p95 {v['v55']['cached_p95_ms']} ms). "
        "Score model v56 (the default before v57: v55 that reads a figure the claim marks as "
        f"approximate): cached median {v['v56']['cached_median_ms']} ms (p95 "
        f"{v['v56']['cached_p95_ms']} ms). Score model v57 (the default before v58: v56 with "
        f"the judge's veto on what it supports; the judge read {v['v57']['judged']} of "
        f"{v['claims']} claims, one batched call — these claims are evidence sentences, "
        "faithful copies it leaves to the edit check; a claim it reads costs what it costs v5, "
        "which reads every claim): cached median "
        f"{v['v57']['cached_median_ms']} ms (p95 {v['v57']['cached_p95_ms']} ms), the judge run "
        f"every time {v['v57']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v57']['uncached_median_ms']} ms. Score model v58 (the default before v59: v57 "
        f"whose judge also reads what the polarity gate calls contradicted; it read "
        f"{v['v58']['judged']} of {v['claims']} claims): cached median "
        f"{v['v58']['cached_median_ms']} ms (p95 {v['v58']['cached_p95_ms']} ms), nothing cached "
        f"{v['v58']['uncached_median_ms']} ms. Score model v59 (the default before v60: v58 "
        f"whose edit check lets a claim name what its window's opening pronoun stands for): "
        f"cached median {v['v59']['cached_median_ms']} ms (p95 {v['v59']['cached_p95_ms']} ms), "
        f"nothing cached {v['v59']['uncached_median_ms']} ms. Score model v60 (the default "
        f"before v61: v59 whose edit check also reads one phrase of up to six words put in for "
        f"another): cached median {v['v60']['cached_median_ms']} ms (p95 "
        f"{v['v60']['cached_p95_ms']} ms), nothing cached {v['v60']['uncached_median_ms']} ms. "
        f"Score model v61 (the default before v62: v60 that refuses a copied sentence with four "
        f"words of its own grafted on): cached median {v['v61']['cached_median_ms']} ms (p95 "
        f"{v['v61']['cached_p95_ms']} ms), nothing cached {v['v61']['uncached_median_ms']} ms. "
        f"Score model v62 (the default before v63: v61 that refuses three such words): cached "
        f"median {v['v62']['cached_median_ms']} ms (p95 {v['v62']['cached_p95_ms']} ms), "
        f"nothing cached {v['v62']['uncached_median_ms']} ms. Score model v63 (the default "
        f"before v64: v62 that reads business and news text: words of change, a name for 'the "
        f"company'): "
        f"cached median {v['v63']['cached_median_ms']} ms (p95 {v['v63']['cached_p95_ms']} "
        f"ms), nothing cached {v['v63']['uncached_median_ms']} ms. Score model v64 (the "
        f"default before v65: v63 that reads 'both … and' and 'as well as' as 'and'): cached "
        f"median {v['v64']['cached_median_ms']} ms (p95 {v['v64']['cached_p95_ms']} ms), "
        f"nothing cached {v['v64']['uncached_median_ms']} ms. Score model v65 (the default "
        f"before v66: v64 that reads a figure's unit, a splice across a semicolon, a name for "
        f"'it' or 'the company' from the sentence before, an opening frame the evidence "
        f"states): cached median {v['v65']['cached_median_ms']} ms (p95 "
        f"{v['v65']['cached_p95_ms']} ms), nothing cached {v['v65']['uncached_median_ms']} ms. "
        f"Score model v66 (the default before v67: v65 that reads who holds a title, a score "
        f"with its sides traded, a predicative 'non-'): cached median "
        f"{v['v66']['cached_median_ms']} ms (p95 {v['v66']['cached_p95_ms']} ms), nothing "
        f"cached {v['v66']['uncached_median_ms']} ms. Score model v67 (the default before "
        f"v69: v66 that reads evidence items cut from one source as that source's text): "
        f"cached median {v['v67']['cached_median_ms']} ms (p95 {v['v67']['cached_p95_ms']} "
        f"ms), nothing cached {v['v67']['uncached_median_ms']} ms. Score model v68 (v67 that "
        f"reads a bound on a figure turned round, 'before' and 'after' traded, plain words of "
        f"change): cached median {v['v68']['cached_median_ms']} ms (p95 "
        f"{v['v68']['cached_p95_ms']} ms), nothing cached {v['v68']['uncached_median_ms']} ms. "
        f"Score model v69 (the default before v70: v68 that reads more units of a figure): "
        f"cached median {v['v69']['cached_median_ms']} ms (p95 {v['v69']['cached_p95_ms']} "
        f"ms), nothing cached {v['v69']['uncached_median_ms']} ms. Score model v70 (the "
        f"default before v71: v69 that reads a figure converted to another unit as stated): "
        f"cached median {v['v70']['cached_median_ms']} ms (p95 {v['v70']['cached_p95_ms']} "
        f"ms), nothing cached {v['v70']['uncached_median_ms']} ms. Score model v71 (the "
        f"default before v72: v70 that reads who does what to whom with the bundled parser; "
        f"these claims are evidence sentences, copies it does not parse): cached median "
        f"{v['v71']['cached_median_ms']} ms (p95 {v['v71']['cached_p95_ms']} ms), parsing "
        f"and judging every time {v['v71']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v71']['uncached_median_ms']} ms. Score model v72 (the default before v73: v71 "
        f"that reads evidence without its invisible format characters; these spans hold "
        f"none): cached median {v['v72']['cached_median_ms']} ms (p95 "
        f"{v['v72']['cached_p95_ms']} ms), parsing and judging every time "
        f"{v['v72']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v72']['uncached_median_ms']} ms. Score model v73 (the default before v74: v72 "
        f"that reads a contrast spliced; these claims are copies it does not parse either): "
        f"cached median {v['v73']['cached_median_ms']} ms (p95 {v['v73']['cached_p95_ms']} "
        f"ms), parsing and judging every time {v['v73']['judge_run_median_ms']} ms, nothing "
        f"cached {v['v73']['uncached_median_ms']} ms. Score model v74 (the default before "
        f"v75: v73 that reads the sign of an association): cached median "
        f"{v['v74']['cached_median_ms']} ms (p95 {v['v74']['cached_p95_ms']} ms), parsing and "
        f"judging every time {v['v74']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v74']['uncached_median_ms']} ms. Score model v75 (the default before v76: v74 "
        f"that reads an association restated in a copy): cached median "
        f"{v['v75']['cached_median_ms']} ms (p95 {v['v75']['cached_p95_ms']} ms), parsing and "
        f"judging every time {v['v75']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v75']['uncached_median_ms']} ms. Score model v76 (the default before v77: v75 "
        f"that reads negations against the other side): cached median "
        f"{v['v76']['cached_median_ms']} ms (p95 {v['v76']['cached_p95_ms']} ms), parsing and "
        f"judging every time {v['v76']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v76']['uncached_median_ms']} ms. Score model v77 (the default before v78: v76 "
        f"that keeps a negation to its clause of a contrast): cached median "
        f"{v['v77']['cached_median_ms']} ms (p95 {v['v77']['cached_p95_ms']} ms), parsing and "
        f"judging every time {v['v77']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v77']['uncached_median_ms']} ms. Score model v78 (the default before v79: v77 "
        f"that reads a comparison whose other side a phrase names): cached median "
        f"{v['v78']['cached_median_ms']} ms (p95 {v['v78']['cached_p95_ms']} ms), parsing and "
        f"judging every time {v['v78']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v78']['uncached_median_ms']} ms. Score model v79 (the default: v78 that reads a "
        f"window stating only a procedure as stating no finding): cached median "
        f"{v['v79']['cached_median_ms']} ms (p95 {v['v79']['cached_p95_ms']} ms), parsing and "
        f"judging every time {v['v79']['judge_run_median_ms']} ms, nothing cached "
        f"{v['v79']['uncached_median_ms']} ms. "
        "Repeated runs "
        "also reuse the per-word caches of the gates (a word's direction class and entity "
        "shape), as a long-running process does.",
        "",
        "| embedding throughput | value |",
        "|---|---:|",
        f"| spanproof `OnnxMiniLMEmbedder`, texts/s ({e['texts']} SciFact sentences) | "
        f"{e['spanproof_per_s']} |",
        f"| raw onnxruntime on the same model and texts, texts/s | {e['raw_onnxruntime_per_s']} |",
        f"| ratio spanproof / raw (goal ≥ 0.9) | {e['ratio']} |",
        "",
        "Raw JSON of this run:",
        "",
        "```json",
        json.dumps(results, indent=1),
        "```",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    r = 3 if args.quick else 7
    texts = sentences(600)
    results: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
    }
    print("pair scoring…", file=sys.stderr)
    results["pairs"] = bench_pairs(texts, r)
    print("embedding…", file=sys.stderr)
    results["embedding"] = bench_embedding(texts[:512], max(3, r // 2))
    print("verify latency…", file=sys.stderr)
    results["verify"] = bench_verify(texts, 5 * r, max(3, r // 2))
    text = render(results)
    if args.write:
        write_section(args.write, "engine", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
