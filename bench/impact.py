"""Impact walk over synthetic dependency graphs of 10k, 100k and 1M edges (SQLite store).

    make bench-impact    # = python bench/impact.py --write bench/RESULTS.md

Each size runs in a fresh process: build the graph (one source version → records → assessments →
packages, with shared targets so the walk meets diamonds), then walk it from the source in
journalled steps of ``--batch`` edges. Reported: edges, flags, steps, wall time of the walk,
edges/s, the peak of Python allocations during the walk (tracemalloc) and the process's peak
resident memory. The first two memory columns must stay flat as the graph grows: a step holds at
most one batch.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _results import write_section  # type: ignore[import-not-found]

from spanproof.core.artifacts import Edge
from spanproof.services import impact
from spanproof.store.sqlite import SqliteEvidenceStore

SIZES = (10_000, 100_000, 1_000_000)


def edges_for(total: int) -> list[Edge]:
    """About ``total`` edges: R records (R = total / 8) each feeding 5 of R/2 assessments, each
    assessment feeding 4 of R/8 packages, plus the source's R edges."""
    records = max(total // 8, 8)
    assessments = max(records // 2, 4)
    packages = max(records // 8, 2)
    edges = [Edge("source:paper:v1", f"record:r{i}") for i in range(records)]
    edges += [
        Edge(f"record:r{i}", f"assessment:a{(i * 7 + k * 13) % assessments}")
        for i in range(records)
        for k in range(5)
    ]
    edges += [
        Edge(f"assessment:a{j}", f"package:p{(j * 3 + k * 5) % packages}")
        for j in range(assessments)
        for k in range(4)
    ]
    return edges


def one(total: int, batch: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteEvidenceStore(Path(folder) / "graph.sqlite")
        edges = edges_for(total)
        for start in range(0, len(edges), 50_000):
            store.add_edges(edges[start : start + 50_000])
        n_edges = len(set((e.from_ref, e.to_ref) for e in edges))
        dependents = len({e.to_ref for e in edges})
        del edges
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        walk_id = impact.start_walk(store, "source:paper:v1", "retracted")
        tracemalloc.start()
        began = time.perf_counter()
        walk = impact.run_walk(store, walk_id, batch=batch)
        wall = time.perf_counter() - began
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        store.close()
    assert walk.edges == n_edges and walk.flags == dependents, (walk, n_edges, dependents)
    return {
        "edges": walk.edges,
        "flags": walk.flags,
        "steps": walk.steps,
        "wall_s": wall,
        "edges_per_s": walk.edges / wall,
        "traced_peak_mb": peak / 1e6,
        "rss_before_mb": rss_before / 1024,
        "rss_peak_mb": rss_after / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--batch", type=int, default=impact.DEFAULT_BATCH)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.batch)))
        return
    rows = []
    for size in args.sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--batch", str(args.batch)],
            check=True,
            capture_output=True,
            text=True,
        )
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(f"{size:>9,} requested: {json.dumps(row)}", flush=True)
    lines = [
        "## Impact walk (SPEC §5.7)",
        "",
        "Measured by `make bench-impact` (`python bench/impact.py --write bench/RESULTS.md`) on "
        f"this 2-core machine: SQLite store, batch {args.batch} edges per journalled step, each "
        "size in a fresh process. Graph: one source version → records → assessments (shared, "
        "so the walk meets diamonds) → packages. Memory: the peak of Python allocations during "
        "the walk (tracemalloc) and the process's peak resident set before and after the walk.",
        "",
        "| edges | flags | steps | walk wall time | edges/s | traced peak | RSS before walk | "
        "RSS peak |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['edges']:,} | {r['flags']:,} | {r['steps']:,} | {r['wall_s']:.1f} s | "
            f"{r['edges_per_s']:,.0f} | {r['traced_peak_mb']:.2f} MB | "
            f"{r['rss_before_mb']:.0f} MB | {r['rss_peak_mb']:.0f} MB |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        write_section(args.write, "impact", text)


if __name__ == "__main__":
    main()
