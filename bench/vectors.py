"""Vector search on the SQLite store: exact brute force against the HNSW index, side by side.

    make bench-vectors    # = python bench/vectors.py --write bench/RESULTS.md

Random 384-dimensional unit vectors (the embedding model's width) at 10,000 and 100,000 chunks;
100 random queries each; recall@10 of the index against exact search in the same run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _results import write_section  # type: ignore[import-not-found]

from spanproof.core.documents import ParsedSection
from spanproof.core.store import Chunk, SearchFilter, Source
from spanproof.store.sqlite.store import SqliteEvidenceStore

DIM, MODEL = 384, "bench-model"


def fill(store: SqliteEvidenceStore, n: int, rng: np.random.Generator) -> None:
    words = [f"w{i:06d}" for i in range(n)]
    text = " ".join(words)
    sha = hashlib.sha256(text.encode()).hexdigest()
    with store.transaction():
        store.upsert_source(Source(id="bench", connector="file"))
        store.put_blob(sha, text.encode())
        store.add_version("bench", sha, "text/plain")
        store.add_sections("bench", 1, [ParsedSection("p1", "", text)])
        store.set_version_state("bench", 1, "parsed", format="text")
    chunks, pos = [], 0
    for i, w in enumerate(words):
        chunks.append(Chunk(f"c{i:06d}", "bench", 1, "p1", pos, pos + len(w), w))
        pos += len(w) + 1
    for start in range(0, n, 10_000):
        part = chunks[start : start + 10_000]
        vecs = rng.normal(size=(len(part), DIM)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        with store.transaction():
            store.add_chunks(part)
            store.put_embeddings(MODEL, [(c.id, vecs[i]) for i, c in enumerate(part)])


def timed(store: SqliteEvidenceStore, queries: np.ndarray) -> tuple[list[list[str]], list[float]]:
    flt = SearchFilter()
    store.vector_search(queries[0], MODEL, 10, flt)  # warm (matrix / index load)
    results, times = [], []
    for q in queries:
        t = time.perf_counter()
        hits = store.vector_search(q, MODEL, 10, flt)
        times.append(time.perf_counter() - t)
        results.append([h.chunk.id for h in hits])
    return results, times


def measure(n: int) -> dict[str, Any]:
    rng = np.random.default_rng(n)
    queries = rng.normal(size=(100, DIM)).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteEvidenceStore(Path(tmp) / "v.sqlite")
        fill(store, n, rng)
        exact, exact_t = timed(store, queries)
        t = time.perf_counter()
        indexed = store.rebuild_vector_index(MODEL)
        build_s = time.perf_counter() - t
        approx, approx_t = timed(store, queries)
        store.close()
    recall = statistics.mean(len(set(a) & set(e)) / 10 for a, e in zip(approx, exact, strict=True))
    return {
        "vectors": n,
        "exact_median_ms": round(1000 * statistics.median(exact_t), 2),
        "hnsw_indexed": indexed,
        "hnsw_build_s": round(build_s, 1),
        "hnsw_median_ms": round(1000 * statistics.median(approx_t), 2),
        "hnsw_recall_at_10": round(recall, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--sizes", default="10000,100000")
    args = parser.parse_args()
    rows = [measure(int(n)) for n in args.sizes.split(",")]
    lines = [
        "## Store: exact vs HNSW vector search (SQLite)",
        "",
        f"Measured by `make bench-vectors` (`python bench/vectors.py --write bench/RESULTS.md`) "
        f"on {time.strftime('%Y-%m-%d')}; random 384-d unit vectors, 100 queries, k = 10, "
        "search through the store (filters and chunk loading included).",
        "",
        "| vectors | exact median | HNSW median | HNSW recall@10 vs exact | HNSW build |",
        "|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['vectors']:,} | {r['exact_median_ms']} ms | {r['hnsw_median_ms']} ms | "
            f"{r['hnsw_recall_at_10']} | {r['hnsw_build_s']} s |"
        )
    lines += ["", "```json", json.dumps(rows, indent=1), "```", ""]
    text = "\n".join(lines)
    if args.write:
        write_section(args.write, "vectors", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
