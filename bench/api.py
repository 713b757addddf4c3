"""HTTP API under concurrent load on loopback; ``Engine.ask`` latency on the SciFact corpus.

    make bench-api    # = python bench/api.py --write bench/RESULTS.md

A real uvicorn server runs ``create_app(state)`` in a subprocess on 127.0.0.1 (a free port),
over a temporary SQLite store holding the demo corpus (``examples/demo/corpus``), ingested and
embedded with the bundled ``OnnxMiniLMEmbedder`` through a ``CachedEmbedder`` in a temporary
directory. An httpx ``AsyncClient`` load generator keeps 8 requests in flight for a fixed time
per route (bounded request count):

* ``POST /v1/verify``: 3 claims × 8 evidence spans (the demo evidence, then demo result
  paragraphs), the same body every time, so after the first request every vector is cached;
* ``POST /v1/generate``: the extractive generator, rotating 4 demo questions.

With ``SPANPROOF_BENCH_SCIFACT_DB`` naming an already ingested and embedded SQLite store of the
SciFact corpus (``spanproof ingest ../shared/data/scifact/corpus.jsonl --db PATH``), it also
measures ``Engine.ask`` latency for 30 SciFact train claims (the claim text as the question),
over a fresh embedding cache that holds the vectors of the store's sentences (what ``spanproof
ingest`` or ``spanproof embed`` leave in the cache) and nothing else, so the questions and claims
are embedded cold. ``SPANPROOF_BENCH_SCIFACT_CACHE`` names an embedding cache already back-filled
for that store (``spanproof embed --db PATH`` writes the configured one): its sentence rows are
copied in; any sentence missing there is embedded before measuring (all of them without it: on
2 cores that takes tens of minutes). ``SPANPROOF_BENCH_SCIFACT_SENTENCES=recalled`` caches only
the sentences of the chunks the measured questions recall: the same cache hits for them, minutes
instead of tens of minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from _results import write_section  # type: ignore[import-not-found]
from _server import (  # type: ignore[import-not-found]
    CORPUS,
    ROOT,
    free_port,
    pct,
    stop,
    verify_body,
    wait_healthy,
)

CONCURRENCY = 8
QUESTIONS = [
    "What did daily walking do to blood pressure?",
    "How much cooler were city blocks with more tree canopy?",
    "Did caffeine shorten reaction time?",
    "What happened to evening cortisol after short sleep?",
]


# --- the server (a subprocess: the load generator must not share its interpreter) -------------


def build_state(workdir: Path) -> Any:
    from spanproof.bootstrap import build_parser
    from spanproof.core.models import DEFAULT_SCORE_MODEL
    from spanproof.ingest.files import iter_path
    from spanproof.providers.embeddings.cache import CachedEmbedder
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
    from spanproof.services.ingestion import embed_pending, ingest
    from spanproof.store.sqlite.store import SqliteEvidenceStore
    from spanproof.testing.apps import app_state
    from spanproof.verify.scoring import score_model

    store = SqliteEvidenceStore(workdir / "demo.sqlite")
    embedder = CachedEmbedder(OnnxMiniLMEmbedder(), workdir / "embeddings.sqlite")
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(store, fetched, source_id, parse)
    embed_pending(store, embedder)
    return app_state(store, embedder=embedder, score_model=score_model(DEFAULT_SCORE_MODEL))


def serve(port: int, workdir: Path) -> int:
    import uvicorn

    from spanproof.api.app import create_app

    app = create_app(build_state(workdir))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    return 0


def start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), "--workdir", str(workdir)],
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    wait_healthy(proc, base)
    return proc, base


# --- the load generator -----------------------------------------------------------------------


async def load(
    base: str, path: str, bodies: list[dict[str, Any]], seconds: float, max_requests: int
) -> dict[str, Any]:
    """``CONCURRENCY`` workers post ``bodies`` (in rotation) to ``path`` for ``seconds``."""
    latencies: list[float] = []
    errors: dict[str, int] = {}
    issued = 0
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        for body in bodies:  # warm-up (not measured): caches, lazy imports, connections
            (await client.post(path, json=body)).raise_for_status()
        started = time.perf_counter()
        stop_at = started + seconds

        async def worker() -> None:
            nonlocal issued
            while time.perf_counter() < stop_at and issued < max_requests:
                body = bodies[issued % len(bodies)]
                issued += 1
                t = time.perf_counter()
                try:
                    response = await client.post(path, json=body)
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                    continue
                elapsed = time.perf_counter() - t
                if response.status_code != 200:
                    errors[str(response.status_code)] = errors.get(str(response.status_code), 0) + 1
                    continue
                latencies.append(elapsed)

        await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
        wall = time.perf_counter() - started
    return {
        "requests": issued,
        "ok": len(latencies),
        "errors": sum(errors.values()),
        "error_kinds": errors,
        "wall_s": round(wall, 2),
        "requests_per_s": round(len(latencies) / wall, 1),
        "median_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "p95_ms": round(1000 * pct(latencies, 0.95), 1) if latencies else None,
    }


# --- Engine.ask on SciFact ----------------------------------------------------------------------


def sentence_cache(
    store: Any, path: Path, seed: Path | None, questions: list[str] | None
) -> dict[str, Any]:
    """Fill the embedding cache at ``path`` with the store's sentence vectors and nothing else:
    rows copied from the cache ``seed`` when given, the rest embedded now. With ``questions``,
    only the sentences of the chunks their plans recall (the same cache hits for them)."""
    import sqlite3

    from spanproof.providers.embeddings.cache import CachedEmbedder
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
    from spanproof.providers.sqlite_cache import text_sha256
    from spanproof.services.ingestion import parsed_chunks
    from spanproof.services.planning import Planner, sentence_texts

    t = time.perf_counter()
    if questions is None:
        groups = parsed_chunks(store)
    else:  # recalled with an uncached embedder: the questions stay out of the cache
        planner = Planner(store, OnnxMiniLMEmbedder())
        groups = (planner.recall(q) for q in questions)
    texts = list(dict.fromkeys(x for chunks in groups for x in sentence_texts(store, chunks)))
    with CachedEmbedder(OnnxMiniLMEmbedder(), path) as cache:
        model = (cache.model_id, cache.model_hash)
    if seed is not None:
        db = sqlite3.connect(path)
        with db:
            db.execute("ATTACH DATABASE ? AS seed", (str(seed),))
            db.execute("CREATE TEMP TABLE wanted (k TEXT PRIMARY KEY)")
            db.executemany(
                "INSERT OR IGNORE INTO wanted VALUES (?)", [(text_sha256(x),) for x in texts]
            )
            db.execute(
                "INSERT OR IGNORE INTO main.embedding SELECT e.* FROM seed.embedding e "
                "JOIN wanted w ON e.text_sha256 = w.k WHERE e.model_id = ? AND e.model_hash = ?",
                model,
            )
        db.close()
    with CachedEmbedder(OnnxMiniLMEmbedder(), path) as cache:
        missing = cache.missing(texts)
        for at in range(0, len(missing), 256):
            cache.embed(missing[at : at + 256])
    return {
        "scope": "all" if questions is None else "recalled",
        "sentences": len(texts),
        "embedded_before_measuring": len(missing),
        "fill_s": round(time.perf_counter() - t, 1),
    }


def scifact_ask(
    db: Path,
    n: int,
    seed: Path | None = None,
    recalled_only: bool = False,
    title_weight: float | None = None,
) -> dict[str, Any]:
    """``Engine.ask`` over an ingested SciFact store, ``n`` train claims as questions; the
    extractive generator at ``title_weight`` (its default when None)."""
    from spanproof.bootstrap import build_checker_for
    from spanproof.core.models import DEFAULT_SCORE_MODEL
    from spanproof.evaluation.devdata import data_dir, scifact_claims
    from spanproof.providers.embeddings.cache import CachedEmbedder
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
    from spanproof.services.answering import Engine
    from spanproof.services.generation import ExtractiveGenerator
    from spanproof.store.sqlite.store import SqliteEvidenceStore
    from spanproof.verify.decompose import RuleBasedDecomposer
    from spanproof.verify.relevance import relevance_model_for
    from spanproof.verify.scoring import score_model

    root = data_dir()
    if root is None:
        raise SystemExit("SPANPROOF_BENCH_SCIFACT_DB is set but ../shared/data is not found")
    questions = [c.claim for c in scifact_claims(root)][:n]
    store = SqliteEvidenceStore(db)
    try:
        sources = store.stats()["sources"]
        with tempfile.TemporaryDirectory() as tmp:
            warm_up = "What is the effect of aspirin on fever?"
            scope = [warm_up, *questions] if recalled_only else None
            filled = sentence_cache(store, Path(tmp) / "embeddings.sqlite", seed, scope)
            embedder = CachedEmbedder(OnnxMiniLMEmbedder(), Path(tmp) / "embeddings.sqlite")
            engine = Engine(
                store=store,
                traces=store,
                embedder=embedder,
                decomposer=RuleBasedDecomposer(),
                generator=ExtractiveGenerator(embedder)
                if title_weight is None
                else ExtractiveGenerator(embedder, title_weight=title_weight),
                score_model=score_model(DEFAULT_SCORE_MODEL),
                # as build_engine does: the checker the model reads (v57: the judge)
                checker=build_checker_for(score_model(DEFAULT_SCORE_MODEL)),
                relevance=relevance_model_for(embedder.model_id),
            )
            engine.ask(warm_up)  # not measured
            times, verified, claims = [], 0, 0
            for question in questions:
                t = time.perf_counter()
                answer = engine.ask(question)
                times.append(time.perf_counter() - t)
                verified += answer.verification == "verified"
                claims += len(answer.claims)
    finally:
        store.close()
    return {
        "questions": len(questions),
        "sources": sources,
        "sentence_cache": filled,
        "verified": verified,
        "claims": claims,
        "median_ms": round(1000 * statistics.median(times), 1),
        "p95_ms": round(1000 * pct(times, 0.95), 1),
        "max_ms": round(1000 * max(times), 1),
    }


# --- report ---------------------------------------------------------------------------------


def render(r: dict[str, Any]) -> str:
    v, g, a = r["verify"], r["generate"], r.get("ask")
    lines = [
        "## HTTP API under load; `Engine.ask` on SciFact",
        "",
        f"Measured by `make bench-api` (`python bench/api.py --write bench/RESULTS.md`; with "
        f"`SPANPROOF_BENCH_SCIFACT_DB=<store>` for the SciFact part) on {r['machine']}, "
        f"{r['date']}. A real uvicorn server (one process) on 127.0.0.1 serving the demo corpus "
        f"in SQLite with the bundled MiniLM embedder behind the embedding cache; an httpx "
        f"`AsyncClient` load generator on the same machine keeps {CONCURRENCY} requests in "
        f"flight for {r['seconds']} s per route (at most {r['max_requests']} requests), after an "
        f"unmeasured warm-up. Every request writes a trace.",
        "",
        "| route | body | requests/s | median | p95 | errors (goal 0) |",
        "|---|---|---:|---:|---:|---:|",
        f"| `POST /v1/verify` | 3 claims × 8 spans | {v['requests_per_s']} | {v['median_ms']} ms "
        f"| {v['p95_ms']} ms | {v['errors']} of {v['requests']} |",
        f"| `POST /v1/generate` | extractive, 4 questions in rotation | {g['requests_per_s']} | "
        f"{g['median_ms']} ms | {g['p95_ms']} ms | {g['errors']} of {g['requests']} |",
        "",
    ]
    if a:
        lines += [
            f"`Engine.ask` (plan → extractive generate → decompose → verify → trace) over the "
            f"ingested SciFact corpus ({a['sources']} sources, SQLite), one question at a time, "
            f"{a['questions']} SciFact train claims as questions, in a warm process (one "
            "unmeasured warm-up question), over an embedding cache that holds the vectors of "
            f"{a['sentence_cache']['sentences']} sentences of the store "
            + (
                "(all of them, as `spanproof ingest` or `spanproof embed` leave it)"
                if a["sentence_cache"]["scope"] == "all"
                else "(those of the chunks the questions recall, "
                "`SPANPROOF_BENCH_SCIFACT_SENTENCES=recalled`: the same cache hits as all of them)"
            )
            + " and nothing else: each question and its claims are embedded cold:",
            "",
            "| measure | value |",
            "|---|---:|",
            f"| median latency | {a['median_ms']} ms |",
            f"| p95 latency | {a['p95_ms']} ms |",
            f"| max latency | {a['max_ms']} ms |",
            f"| answers verified | {a['verified']} of {a['questions']} ({a['claims']} claims) |",
            "",
        ]
    else:
        lines += [
            "`Engine.ask` latency on the ingested SciFact corpus: not measured in this run "
            "(set `SPANPROOF_BENCH_SCIFACT_DB` to a store built by `spanproof ingest "
            "../shared/data/scifact/corpus.jsonl --db PATH`).",
            "",
        ]
    lines += ["Raw JSON:", "", "```json", json.dumps(r, indent=1), "```", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--seconds", type=float, default=20.0, help="load time per route")
    parser.add_argument("--max-requests", type=int, default=5000, help="per route")
    parser.add_argument("--questions", type=int, default=30, help="SciFact ask questions")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve, args.workdir)
    results: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "seconds": args.seconds,
        "max_requests": args.max_requests,
        "concurrency": CONCURRENCY,
    }
    questions = [{"question": q} for q in QUESTIONS]
    with tempfile.TemporaryDirectory() as tmp:
        print("starting the server…", file=sys.stderr)
        proc, base = start_server(Path(tmp))
        try:
            print("POST /v1/verify…", file=sys.stderr)
            results["verify"] = asyncio.run(
                load(base, "/v1/verify", [verify_body()], args.seconds, args.max_requests)
            )
            print("POST /v1/generate…", file=sys.stderr)
            results["generate"] = asyncio.run(
                load(base, "/v1/generate", questions, args.seconds, args.max_requests)
            )
        finally:
            stop(proc)
    db = os.environ.get("SPANPROOF_BENCH_SCIFACT_DB")
    if db and Path(db).is_file():
        print("Engine.ask on SciFact…", file=sys.stderr)
        seed = os.environ.get("SPANPROOF_BENCH_SCIFACT_CACHE")
        recalled = os.environ.get("SPANPROOF_BENCH_SCIFACT_SENTENCES") == "recalled"
        results["ask"] = scifact_ask(
            Path(db), args.questions, Path(seed) if seed else None, recalled
        )
    elif db:
        print(f"warning: {db} is not a file; SciFact ask not measured", file=sys.stderr)
    text = render(results)
    if args.write:
        write_section(args.write, "api", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
