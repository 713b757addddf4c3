"""Sustained load (and a soak with ingestion) against a real ``spanproof serve`` on loopback.

    make soak         # both variants, 600 s each, sections "load" and "soak" of bench/RESULTS.md
    make load-smoke   # both variants, 20 s each, printed only

``spanproof ingest`` builds a demo store (``examples/demo/corpus``, bundled MiniLM embedder, the
embedding cache in a temporary folder), then ``spanproof serve`` serves it on 127.0.0.1. An httpx
``AsyncClient`` load generator then runs for ``--duration`` seconds:

* default: ``POST /v1/verify`` (3 claims × 8 demo spans, a number in the first claim varying per
  request, so claim vectors are not all cached) and ``GET /v1/search`` (hybrid, 4 demo
  questions in rotation), alternating;
* ``--soak``: ``POST /v1/sources`` with generated small plain-text documents (every one new, so
  each is parsed, chunked, stored and embedded) and ``POST /v1/verify`` together.

Closed loop by default (``--concurrency`` requests always in flight); with ``--rate R`` open loop
(R requests/s on a fixed schedule, at most ``--concurrency`` in flight; latency counted from the
scheduled start, so a stalled server is not hidden). Records per route the throughput, median,
p99 and max latency and the errors (goal 0), and the server's RSS every ``--rss-every`` seconds
(goal flat: first, last, max and the least-squares slope). Afterwards ``spanproof trace verify``
checks the hash chain of every trace the run wrote.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
from _results import write_section  # type: ignore[import-not-found]
from _server import (  # type: ignore[import-not-found]
    CLAIMS,
    ROOT,
    SPANPROOF,
    demo_env,
    pct,
    spanproof_serve,
    stop,
    verify_body,
)

QUERIES = [
    "daily walking blood pressure",
    "tree canopy cooler city blocks",
    "caffeine reaction time",
    "short sleep evening cortisol",
]
WARMUP_S = 5.0  # RSS samples in the first seconds (lazy imports, first caches) are not trended

# One request: (method, path, keyword arguments for httpx).
Request = tuple[str, str, dict[str, Any]]


@dataclass
class Route:
    """One kind of request, its generator, and what came back."""

    name: str
    make: Callable[[int], Request]
    expect: int = 200
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    issued: int = 0

    def summary(self, wall: float) -> dict[str, Any]:
        lat = self.latencies
        return {
            "requests": self.issued,
            "ok": len(lat),
            "errors": sum(self.errors.values()),
            "error_kinds": self.errors,
            "ok_per_s": round(len(lat) / wall, 1),
            "median_ms": round(1000 * statistics.median(lat), 1) if lat else None,
            "p99_ms": round(1000 * pct(lat, 0.99), 1) if lat else None,
            "max_ms": round(1000 * max(lat), 1) if lat else None,
        }


def verify_request(evidence: list[dict[str, Any]]) -> Callable[[int], Request]:
    def make(n: int) -> Request:
        first = f"Daily walking lowered systolic blood pressure by {n % 97} mmHg."
        body = {"claims": [first, *CLAIMS[1:]], "evidence": evidence}
        return "POST", "/v1/verify", {"json": body}

    return make


def search_request(n: int) -> Request:
    return "GET", "/v1/search", {"params": {"q": QUERIES[n % len(QUERIES)]}}


def ingest_request(run: str) -> Callable[[int], Request]:
    def make(n: int) -> Request:
        text = (
            f"Soak study {run}-{n}\n\nIn cohort {n} of run {run}, treatment {n % 7} lowered "
            f"marker {n % 13} by {n % 50} mg/dL over {n % 9 + 1} weeks. A second sentence about "
            f"cohort {n} follows here, with {n % 31} participants lost to follow-up.\n"
        )
        return "POST", "/v1/sources", {"json": {"text": text, "title": f"soak {run}-{n}"}}

    return make


# --- the load generator -----------------------------------------------------------------------


async def send(client: httpx.AsyncClient, route: Route, started: float) -> None:
    """Send ``route``'s next request; latency counts from ``started`` (perf_counter)."""
    method, path, kwargs = route.make(route.issued)
    route.issued += 1
    try:
        response = await client.request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        route.errors[type(exc).__name__] = route.errors.get(type(exc).__name__, 0) + 1
        return
    if response.status_code != route.expect:
        key = str(response.status_code)
        route.errors[key] = route.errors.get(key, 0) + 1
        return
    route.latencies.append(time.perf_counter() - started)


async def closed_loop(
    client: httpx.AsyncClient, routes: list[Route], concurrency: int, stop_at: float
) -> None:
    """``concurrency`` workers, each sending the routes in turn until ``stop_at``."""

    async def worker(offset: int) -> None:
        turn = offset
        while time.perf_counter() < stop_at:
            await send(client, routes[turn % len(routes)], time.perf_counter())
            turn += 1

    await asyncio.gather(*(worker(i) for i in range(concurrency)))


async def open_loop(
    client: httpx.AsyncClient, routes: list[Route], rate: float, concurrency: int, stop_at: float
) -> int:
    """``rate`` requests/s on a fixed schedule (routes in turn), at most ``concurrency`` in
    flight. Returns how many scheduled requests started late (the server could not keep up)."""
    gate = asyncio.Semaphore(concurrency)
    tasks: set[asyncio.Task[None]] = set()
    late, n, first = 0, 0, time.perf_counter()

    async def one(route: Route, due: float) -> None:
        async with gate:
            await send(client, route, due)

    while (due := first + n / rate) < stop_at:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        elif delay < -0.1:
            late += 1
        task = asyncio.create_task(one(routes[n % len(routes)], due))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        n += 1
    await asyncio.gather(*tasks)
    return late


async def sample_rss(pid: int, every: float, out: list[tuple[float, float]]) -> None:
    """Append (seconds since start, RSS MiB) of ``pid`` every ``every`` seconds until cancelled."""
    proc, start = psutil.Process(pid), time.perf_counter()
    while True:
        out.append((time.perf_counter() - start, proc.memory_info().rss / 2**20))
        await asyncio.sleep(every)


def rss_summary(samples: list[tuple[float, float]]) -> dict[str, Any]:
    """First, last and max RSS, and the least-squares slope after the warm-up (MiB/min)."""
    trend = [s for s in samples if s[0] >= WARMUP_S] or samples
    slope = 0.0
    if len(trend) >= 2:
        xs, ys = [s[0] for s in trend], [s[1] for s in trend]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = 60 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return {
        "samples": len(samples),
        "first_mib": round(samples[0][1], 1),
        "last_mib": round(samples[-1][1], 1),
        "max_mib": round(max(s[1] for s in samples), 1),
        "slope_mib_per_min": round(slope, 2),
        "series_mib": [round(m, 1) for _, m in samples],
    }


async def drive(
    base: str, pid: int, routes: list[Route], args: argparse.Namespace
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=args.concurrency, max_keepalive_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        for route in routes:  # warm-up (not measured): lazy imports, first vectors, connections
            method, path, kwargs = route.make(-1)
            (await client.request(method, path, **kwargs)).raise_for_status()
        samples: list[tuple[float, float]] = []
        sampler = asyncio.create_task(sample_rss(pid, args.rss_every, samples))
        started = time.perf_counter()
        stop_at = started + args.duration
        late = None
        if args.rate:
            late = await open_loop(client, routes, args.rate, args.concurrency, stop_at)
        else:
            await closed_loop(client, routes, args.concurrency, stop_at)
        wall = time.perf_counter() - started
        sampler.cancel()
        samples.append((wall, psutil.Process(pid).memory_info().rss / 2**20))
        traces = (await client.get("/v1/traces", params={"limit": 1})).json()
    return {
        "wall_s": round(wall, 1),
        "routes": {r.name: r.summary(wall) for r in routes},
        "errors": sum(sum(r.errors.values()) for r in routes),
        "late_starts": late,
        "rss": rss_summary(samples),
        "last_trace": traces[0]["id"] if traces else None,
    }


def trace_chain(workdir: Path, last_trace: str | None) -> dict[str, Any]:
    """``spanproof trace verify`` on the store the server wrote (after it stopped): the whole
    hash chain, and a replay of the last trace."""
    if last_trace is None:
        return {"exit_status": None, "ok": False, "traces": 0}
    db = str(workdir / "demo.sqlite")
    done = subprocess.run(
        [str(SPANPROOF), "trace", "verify", last_trace, "--db", db, "--json"],
        check=False,
        env=demo_env(workdir),
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    try:
        traces = json.loads(done.stdout.splitlines()[0])["traces"]
    except (IndexError, KeyError, ValueError):
        traces = None
    return {"exit_status": done.returncode, "ok": done.returncode == 0, "traces": traces}


# --- report ---------------------------------------------------------------------------------


def render(r: dict[str, Any]) -> str:
    soak = r["variant"] == "soak"
    shape = (
        f"open loop at {r['rate']} requests/s (at most {r['concurrency']} in flight)"
        if r["rate"]
        else f"closed loop, {r['concurrency']} requests always in flight"
    )
    mix = (
        "`POST /v1/sources` (a new generated small document each time: parse, store, embed) and "
        "`POST /v1/verify` (3 claims × 8 spans), in turn"
        if soak
        else "`POST /v1/verify` (3 claims × 8 spans, one claim varying) and `GET /v1/search` "
        "(hybrid, 4 queries in rotation), in turn"
    )
    rss = r["rss"]
    lines = [
        f"## {'Soak: ingestion and verification together' if soak else 'Sustained load'}"
        f"{' (smoke run)' if r['smoke'] else ''}",
        "",
        f"Measured by `{r['command']}` on {r['machine']}, {r['date']}: a real `spanproof serve` "
        f"(one process, SQLite demo store, bundled MiniLM embedder behind the embedding cache) on "
        f"127.0.0.1; an httpx `AsyncClient` on the same machine, {shape}, for {r['duration_s']} s "
        f"after an unmeasured warm-up; {mix}. Server RSS sampled every {r['rss_every_s']} s.",
        "",
        "| route | ok/s | median | p99 | max | errors (goal 0) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, s in r["routes"].items():
        lines.append(
            f"| `{name}` | {s['ok_per_s']} | {s['median_ms']} ms | {s['p99_ms']} ms | "
            f"{s['max_ms']} ms | {s['errors']} of {s['requests']} |"
        )
    tc = r["trace_chain"]
    chain = f"intact, {tc['traces']} traces" if tc["ok"] else f"BROKEN (exit {tc['exit_status']})"
    lines += [
        "",
        f"Server RSS (goal flat): first {rss['first_mib']} MiB, last {rss['last_mib']} MiB, max "
        f"{rss['max_mib']} MiB, slope {rss['slope_mib_per_min']} MiB/min after the first "
        f"{WARMUP_S:.0f} s ({rss['samples']} samples). Trace hash chain after the run "
        f"(`spanproof trace verify`): {chain}.",
        "",
        f"RSS series (MiB, every {r['rss_every_s']} s, the last at the end of the run): "
        + ", ".join(str(m) for m in rss["series_mib"]),
        "",
        "Raw JSON:",
        "",
        "```json",
        json.dumps({**r, "rss": {k: v for k, v in rss.items() if k != "series_mib"}}, indent=1),
        "```",
        "",
    ]
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of load")
    parser.add_argument("--soak", action="store_true", help="ingestion and verification together")
    parser.add_argument("--rate", type=float, help="requests/s (open loop); default closed loop")
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight (at most)")
    parser.add_argument("--rss-every", type=float, default=5.0, help="seconds between RSS samples")
    parser.add_argument("--write", type=Path, help="write the section to this RESULTS.md")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    variant = "soak" if args.soak else "load"
    results: dict[str, Any] = {
        "variant": variant,
        "smoke": args.duration < 60,
        "command": "python bench/load.py " + " ".join(sys.argv[1:]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "duration_s": args.duration,
        "rate": args.rate,
        "concurrency": args.concurrency,
        "rss_every_s": args.rss_every,
    }
    evidence = verify_body()["evidence"]
    if args.soak:
        routes = [
            Route("POST /v1/sources", ingest_request(str(os.getpid())), expect=201),
            Route("POST /v1/verify", verify_request(evidence)),
        ]
    else:
        routes = [
            Route("POST /v1/verify", verify_request(evidence)),
            Route("GET /v1/search", search_request),
        ]
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        print("building the demo store and starting spanproof serve…", file=sys.stderr)
        proc, base = spanproof_serve(workdir)
        try:
            print(f"{variant}: {args.duration:.0f} s…", file=sys.stderr)
            results.update(asyncio.run(drive(base, proc.pid, routes, args)))
        finally:
            stop(proc)
        results["trace_chain"] = trace_chain(workdir, results.get("last_trace"))
    text = render(results)
    if args.write:
        write_section(args.write, variant, text)
    print(text)
    return 0 if results["errors"] == 0 and results["trace_chain"]["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
