"""Keyword ranking on PostgreSQL against SQLite: SciFact recall@10 and latency, then at 100k chunks.

    python bench/keyword_ranking.py --write bench/RESULTS.md

Ingests the SciFact corpus into both stores without embeddings and runs the 505 SciFact train
claims with evidence as keyword queries (a claim is found when a chunk of an evidence abstract is
in the top 10, as bench/ingest_scifact.py counts it). On PostgreSQL it also runs the ranking the
store used before bm25 (``ts_rank(tsv, query, 1)``) and other ``ts_rank`` normalisations
through the same search path, and bm25 with no pruning; it counts the claims whose top 10 is
the same, in the same order, on both dialects. Then it adds synthetic chunks to the PostgreSQL
store up to about 100k (terms drawn from SciFact's term frequencies, lengths from its chunk
lengths) and times the old and new ranking again.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _results import write_section  # type: ignore[import-not-found]
from ingest_scifact import postgres_with_corpus  # type: ignore[import-not-found]

from spanproof.bootstrap import build_parser
from spanproof.core.store import EvidenceStore, SearchFilter, SearchHit
from spanproof.evaluation.devdata import data_dir, scifact_claims
from spanproof.ingest.files import iter_path
from spanproof.services.ingestion import ingest
from spanproof.store import keyword_terms
from spanproof.store.postgres import search as pg_search
from spanproof.store.sql import POSTGRES, Where, clean_text, search_filter
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.store_contract import add_document
from spanproof.text.keywords import query_terms

Search = Callable[[str], list[SearchHit]]
#: Chunks added to the PostgreSQL store for the second part.
SYNTHETIC = 86_282


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(claims: list[Any], run: Search) -> tuple[dict[str, Any], list[list[str]]]:
    found, times, tops = 0, [], []
    for claim in claims:
        started = time.perf_counter()
        hits = run(claim.claim)
        times.append(time.perf_counter() - started)
        gold = {f"scifact:{d}" for d in claim.evidence}
        found += any(h.chunk.source_id in gold for h in hits)
        tops.append([h.chunk.id for h in hits])
    return {
        "recall_at_10": round(found / len(claims), 3),
        "median_ms": round(1000 * statistics.median(times), 1),
        "p95_ms": round(1000 * pct(times, 0.95), 1),
    }, tops


def ts_rank_search(store: Any, flags: int) -> Search:
    """The store's keyword search as it was before bm25, with ``ts_rank``'s ``flags``."""

    def run(query: str) -> list[SearchHit]:
        where: Where | None = search_filter(POSTGRES, SearchFilter())
        tsquery = keyword_terms.tsquery(query_terms(clean_text(query)))
        if not tsquery or where is None:
            return []
        rank = f"ts_rank(c.tsv, CAST(? AS tsquery), {flags}) AS score"
        with store._read("bench") as conn:
            return pg_search._ranked(
                conn,
                10,
                where,
                f"SELECT c.id, {rank} FROM chunks c WHERE c.tsv @@ CAST(? AS tsquery)"
                " ORDER BY score DESC, c.id LIMIT ?",
                (tsquery, tsquery),
                f"SELECT {pg_search.CHUNK_COLS}, {rank} FROM chunks c"
                " JOIN sources s ON s.id = c.source_id WHERE c.tsv @@ CAST(? AS tsquery)"
                " AND {where} ORDER BY score DESC, c.id LIMIT ?",
                (tsquery, tsquery),
                float,
            )

    return run


def store_search(store: EvidenceStore) -> Search:
    return lambda query: store.keyword_search(query, 10, SearchFilter())


def unpruned(run: Search) -> Search:
    """``run`` with PostgreSQL's first query matching every term (no pruning)."""

    def wrapped(query: str) -> list[SearchHit]:
        first, pg_search.FIRST_ROWS = pg_search.FIRST_ROWS, 2**62
        try:
            return run(query)
        finally:
            pg_search.FIRST_ROWS = first

    return wrapped


def postgres_variants(store: Any, claims: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    variants: dict[str, Search] = {
        "bm25 (the store)": store_search(store),
        "bm25, no pruning": unpruned(store_search(store)),
    }
    for flags in (1, 0, 16, 32):
        variants[f"ts_rank flags {flags}" + (" (before)" if flags == 1 else "")] = ts_rank_search(
            store, flags
        )
    for name, run in variants.items():
        out[name], tops = measure(claims, run)
        if name == "bm25 (the store)":
            out["_tops"] = tops
    return out


def add_synthetic(store: Any, count: int) -> None:
    """``count`` chunks of terms drawn from the store's own term and length distributions."""
    rng = random.Random(7)
    version = add_document(store, "synthetic", [("body", "synthetic")])
    with store.transaction(), store._write("bench") as conn:
        cf = POSTGRES.all(conn, "SELECT term, occurrences FROM keyword_stats WHERE term <> ''")
        lengths = [int(r[0]) for r in POSTGRES.all(conn, "SELECT term_count FROM chunks")]
        vocabulary, weights = [str(r[0]) for r in cf], [int(r[1]) for r in cf]
        ref = ("synthetic", version.number, "body")
        ids = []
        with conn.cursor().copy(
            "COPY chunks (id, source_id, version, section_key, start_pos, end_pos, text, masked,"
            " tsv, term_count) FROM STDIN"
        ) as copy:
            for n in range(count):
                words = rng.choices(vocabulary, weights=weights, k=rng.choice(lengths))
                literal, length = keyword_terms.tsvector_and_length(" ".join(words))
                ids.append(f"synthetic/{n:06d}")
                copy.write_row((ids[-1], *ref, 0, 0, "", False, literal, length))
        for start in range(0, len(ids), 5000):
            pg_search.count_terms(conn, ids[start : start + 5000], 1)
    with store._read("bench") as conn:
        conn.execute("VACUUM ANALYZE chunks")
        conn.execute("VACUUM ANALYZE keyword_stats")


def run_postgres(corpus: Path, claims: list[Any]) -> dict[str, Any] | None:
    try:
        import pgserver  # noqa: F401
    except ImportError:
        return None
    with postgres_with_corpus(corpus) as (store, ingest_s):
        out: dict[str, Any] = {"ingest_s": round(ingest_s, 1)}
        with store._read("bench") as conn:
            conn.execute("VACUUM ANALYZE")
        out["chunks"] = store.stats()["chunks"]
        out["scifact"] = postgres_variants(store, claims)
        add_synthetic(store, SYNTHETIC)
        out["scale_chunks"] = store.stats()["chunks"]
        out["scale"] = {
            "bm25 (the store)": measure(claims, store_search(store))[0],
            "ts_rank flags 1 (before)": measure(claims, ts_rank_search(store, 1))[0],
        }
        return out


def render(r: dict[str, Any]) -> str:
    pg = r["postgres"]
    rows = ["| ranking | recall@10 | median latency | p95 latency |", "|---|---:|---:|---:|"]

    def line(name: str, m: dict[str, Any]) -> str:
        return f"| {name} | {m['recall_at_10']} | {m['median_ms']} ms | {m['p95_ms']} ms |"

    lines = [
        "## Store: keyword ranking, PostgreSQL against SQLite (SciFact)",
        "",
        f"Measured by `python bench/keyword_ranking.py --write bench/RESULTS.md` on {r['date']}: "
        f"the SciFact corpus ({pg['chunks']} chunks) ingested without embeddings into each "
        f"store; keyword recall@10 over the {r['claims']} SciFact train claims with evidence, "
        "counted as bench/ingest_scifact.py counts it; PostgreSQL 16 (pgserver, default "
        f"settings), ingest {pg['ingest_s']} s. The `ts_rank` rows run the store's search path "
        "as it was before bm25 with each normalisation.",
        "",
        *rows,
        line("SQLite: FTS5 bm25", r["sqlite"]),
        *(
            line(f"PostgreSQL: {name}", m)
            for name, m in pg["scifact"].items()
            if not name.startswith("_")
        ),
        "",
        f"The same top 10, in the same order, on both dialects: {r['same_order']} of "
        f"{r['claims']} claims.",
        "",
        f"PostgreSQL with {SYNTHETIC} synthetic chunks added ({pg['scale_chunks']} in all; terms "
        "drawn from SciFact's term frequencies, lengths from its chunk lengths; vacuumed):",
        "",
        *rows,
        *(line(name, m) for name, m in pg["scale"].items()),
        "",
        "Raw JSON:",
        "",
        "```json",
        json.dumps({k: v for k, v in r.items() if k != "postgres"} | {"postgres": pg}, indent=1),
        "```",
        "",
    ]
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
    claims = [c for c in scifact_claims(root) if c.evidence]
    result: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "claims": len(claims)}
    with tempfile.TemporaryDirectory() as tmp:
        lite = SqliteEvidenceStore(Path(tmp) / "scifact.sqlite")
        parse = build_parser()
        for sid, fetched in iter_path(corpus):
            ingest(lite, fetched, sid, parse)
        result["sqlite"], lite_tops = measure(claims, store_search(lite))
        lite.close()
    pg = run_postgres(corpus, claims)
    if pg is None:
        print("error: pgserver is not installed", file=sys.stderr)
        return 2
    pg_tops = pg["scifact"].pop("_tops")
    result["same_order"] = sum(a == b for a, b in zip(lite_tops, pg_tops, strict=True))
    result["postgres"] = pg
    text = render(result)
    if args.write:
        write_section(args.write, "keyword-ranking", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
