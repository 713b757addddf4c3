"""Ingest the SciFact corpus from scratch and measure it; recall@10 of the three retrieval modes.

    make bench-ingest    # = python bench/ingest_scifact.py --write bench/RESULTS.md

Measures, in one run: ingestion wall time and sections/s (parse, chunk, index, measurements),
embedding throughput against the raw model's throughput on a sample of the same chunks (ratio),
search latency (median, p95) per mode and backend, database size, and document recall@10 on the
SciFact train claims that have evidence (a claim counts as found when a chunk of one of its
evidence abstracts is in the top 10).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from _results import write_section  # type: ignore[import-not-found]

from spanproof.bootstrap import build_parser
from spanproof.core.store import EvidenceStore, SearchFilter
from spanproof.evaluation.devdata import data_dir, scifact_claims
from spanproof.ingest.files import iter_path
from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from spanproof.providers.embeddings.reference import ReferenceMiniLM
from spanproof.services.benchmark import median_time
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.search import search
from spanproof.store.sqlite.store import SqliteEvidenceStore


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ingest_corpus(
    store: EvidenceStore, corpus: Path, embedder: OnnxMiniLMEmbedder
) -> dict[str, Any]:
    parse = build_parser()
    started = time.perf_counter()
    statuses: dict[str, int] = {}
    for sid, fetched in iter_path(corpus):
        status = ingest(store, fetched, sid, parse).status
        statuses[status] = statuses.get(status, 0) + 1
    ingest_s = time.perf_counter() - started
    stats = store.stats()
    started = time.perf_counter()
    embedded = embed_pending(store, embedder, batch_size=256)
    embed_s = time.perf_counter() - started
    return {
        "statuses": statuses,
        "ingest_s": round(ingest_s, 1),
        "sections_per_s": round(stats["sections"] / ingest_s, 1),
        "embed_s": round(embed_s, 1),
        "chunks_embedded": embedded,
        "chunks_per_s": round(embedded / embed_s, 1),
        "stats": store.stats(),
    }


def recall_and_latency(
    store: EvidenceStore, embedder: OnnxMiniLMEmbedder, root: Path
) -> dict[str, Any]:
    claims = [c for c in scifact_claims(root) if c.evidence]
    out: dict[str, Any] = {"claims": len(claims)}
    flt = SearchFilter()
    for mode in ("keyword", "vector", "hybrid"):
        found, times = 0, []
        for c in claims:
            t = time.perf_counter()
            hits = search(store, c.claim, embedder=embedder, limit=10, mode=mode, flt=flt)  # type: ignore[arg-type]
            times.append(time.perf_counter() - t)
            gold = {f"scifact:{d}" for d in c.evidence}
            found += any(h.chunk.source_id in gold for h in hits)
        out[mode] = {
            "recall_at_10": round(found / len(claims), 3),
            "median_ms": round(1000 * statistics.median(times), 1),
            "p95_ms": round(1000 * pct(times, 0.95), 1),
        }
    return out


def render(r: dict[str, Any]) -> str:
    i, s = r["ingest"], r["search"]
    lines = [
        "## Store: SciFact corpus ingestion and retrieval (SQLite, then PostgreSQL)",
        "",
        f"Measured by `make bench-ingest` (`python bench/ingest_scifact.py --write "
        f"bench/RESULTS.md`) on {r['date']}; {r['documents']} SciFact abstracts from scratch.",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| ingest wall time (parse, chunk, index, measurements) | {i['ingest_s']} s |",
        f"| sections/s | {i['sections_per_s']} |",
        f"| chunks | {i['stats']['chunks']} |",
        f"| embedding wall time | {i['embed_s']} s ({i['chunks_per_s']} chunks/s) |",
        f"| raw model on 512 of the same chunks | {r['raw_chunks_per_s']} chunks/s |",
        f"| achieved / raw embedding throughput (goal ≥ 0.8) | {r['embedding_ratio']} |",
        f"| database size on disk (file + WAL + vector sidecar) | {r['db_mb']} MB |",
        "",
        f"Retrieval over the ingested corpus for the {s['claims']} SciFact train claims with "
        "evidence (a claim is found when an evidence abstract has a chunk in the top 10):",
        "",
        "| mode | recall@10 | median latency | p95 latency |",
        "|---|---:|---:|---:|",
    ]
    for mode in ("keyword", "vector", "hybrid"):
        m = s[mode]
        lines.append(f"| {mode} | {m['recall_at_10']} | {m['median_ms']} ms | {m['p95_ms']} ms |")
    pg = r.get("postgres")
    if pg:
        lines += [
            "",
            f"PostgreSQL 16 + pgvector (pgserver, default settings), same corpus: ingest "
            f"{pg['ingest_s']} s ({pg['sections_per_s']} sections/s; vectors copied from the "
            "SQLite run).",
            "",
            "| mode | recall@10 | median latency | p95 latency |",
            "|---|---:|---:|---:|",
        ]
        for mode in ("keyword", "vector", "hybrid"):
            m = pg["search"][mode]
            lines.append(
                f"| {mode} | {m['recall_at_10']} | {m['median_ms']} ms | {m['p95_ms']} ms |"
            )
    lines += ["", "Raw JSON:", "", "```json", json.dumps(r, indent=1), "```", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    root = data_dir()
    if root is None:
        print("error: ../shared/data not found (set SPANPROOF_DATA_DIR)", file=sys.stderr)
        return 2
    corpus = root / "scifact" / "corpus.jsonl"
    embedder = OnnxMiniLMEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "scifact.sqlite"
        store = SqliteEvidenceStore(db)
        result: dict[str, Any] = {"date": time.strftime("%Y-%m-%d")}
        result["ingest"] = ingest_corpus(store, corpus, embedder)
        result["documents"] = result["ingest"]["stats"]["sources"]
        result["raw_chunks_per_s"] = round(raw_chunks_per_s(store), 1)
        result["search"] = recall_and_latency(store, embedder, root)
        result["embedding_ratio"] = round(
            result["ingest"]["chunks_per_s"] / result["raw_chunks_per_s"], 3
        )
        store.close()
        result["db_mb"] = round(
            sum(p.stat().st_size for p in Path(tmp).rglob("*") if p.is_file()) / 1e6, 1
        )
        result["postgres"] = postgres_part(corpus, db, embedder, root)
    text = render(result)
    if args.write:
        write_section(args.write, "ingest", text)
    print(text)
    return 0


def postgres_part(
    corpus: Path, sqlite_db: Path, embedder: OnnxMiniLMEmbedder, root: Path
) -> dict[str, Any] | None:
    """The same corpus in PostgreSQL (pgserver): ingest time and search latency.

    Vectors are copied from the SQLite run (same model, same chunk ids) rather than embedded a
    second time.
    """
    try:
        import pgserver  # noqa: F401
    except ImportError:
        return None
    with postgres_with_corpus(corpus) as (store, ingest_s):
        with sqlite3.connect(sqlite_db) as con:
            rows = con.execute(
                "SELECT chunk_id, vector FROM embeddings WHERE model_id = ? ORDER BY chunk_id",
                (embedder.model_id,),
            ).fetchall()
        for start in range(0, len(rows), 1000):
            batch = rows[start : start + 1000]
            with store.transaction():
                store.put_embeddings(
                    embedder.model_id,
                    [(cid, np.frombuffer(blob, dtype="<f4")) for cid, blob in batch],
                )
        return {
            "ingest_s": round(ingest_s, 1),
            "sections_per_s": round(store.stats()["sections"] / ingest_s, 1),
            "search": recall_and_latency(store, embedder, root),
        }


@contextmanager
def postgres_with_corpus(corpus: Path) -> Iterator[tuple[Any, float]]:
    """A throwaway PostgreSQL 16 (pgserver) store holding ``corpus`` ingested without
    embeddings, and the ingest's seconds; the store is closed and the server stopped on exit.
    Needs the ``pgserver`` wheel."""
    import pgserver

    from spanproof.store.postgres.store import PostgresEvidenceStore

    server = pgserver.get_server(tempfile.mkdtemp(prefix="spg", dir="/tmp"), cleanup_mode="stop")
    try:
        store = PostgresEvidenceStore(server.get_uri())
        try:
            parse = build_parser()
            started = time.perf_counter()
            for sid, fetched in iter_path(corpus):
                ingest(store, fetched, sid, parse)
            yield store, time.perf_counter() - started
        finally:
            store.close()
    finally:
        server.cleanup()


def raw_chunks_per_s(store: EvidenceStore) -> float:
    """The bare model (onnxruntime run alone: ``ReferenceMiniLM``) on 512 of the stored chunks."""
    sources = store.list_sources(limit=200)
    texts = [c.text for s in sources for c in store.chunks(s.id)][:512]
    reference = ReferenceMiniLM(32)
    reference.embed(texts)
    seconds, _ = median_time(lambda: reference.embed(texts), 3)
    return len(texts) / seconds


if __name__ == "__main__":
    sys.exit(main())
