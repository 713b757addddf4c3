"""The verifying proxy's overhead: the same chat request sent to the upstream directly and
through ``spanproof serve``'s ``POST /v1/chat/completions``, side by side in one run.

    make bench-proxy    # = python bench/bench_proxy.py --write bench/RESULTS.md

The upstream is the scripted loopback chat server (``spanproof.testing.scripted_server``) in
this process, always answering the same 5-claim answer; ``spanproof serve`` runs in a
subprocess on 127.0.0.1 over an empty SQLite store with the bundled ONNX embedder behind its
on-disk cache (warmed by a few requests first, so the vectors are cached), the rule-based
decomposer and the default score model. The real ``openai`` client makes every call. Each
round sends, in a rotating order, a completion and a stream directly and through the proxy;
the streams measure time to the first content chunk (TTFT) and to the end.

Two upstream speeds: chunks sent at once (the proxy's own cost), and one word every
``--chunk-delay`` seconds (a model generating ~50 words/s), where a streamed answer's first
sentence is held back until the upstream has begun the second.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _results import write_section  # type: ignore[import-not-found]
from _server import ROOT, SPANPROOF, free_port, pct, stop, wait_healthy  # type: ignore[import-not-found]
from openai import OpenAI

from spanproof.bootstrap import build_store
from spanproof.config import load_settings
from spanproof.services.chat_proxy import message_evidence
from spanproof.testing.scripted_server import ScriptedChatServer

CONTEXT = (
    "Daily walking lowered systolic blood pressure by 5 mmHg in older adults. "
    "Sodium restriction lowered diastolic blood pressure by 3 mmHg. "
    "Short sleep was linked to higher evening cortisol in shift workers. "
    "City blocks with more tree canopy were 2 degrees cooler in July. "
    "The trial enrolled 412 adults across four clinics. "
    "Adherence to the walking plan was 81 percent at twelve weeks. "
    "No serious adverse events were reported in either arm. "
    "Follow-up lasted 24 months."
)
ANSWER = (
    "Daily walking lowered systolic blood pressure by 5 mmHg in older adults. "
    "The trial enrolled 412 adults across four clinics. "
    "Adherence to the walking plan was 81 percent at twelve weeks. "
    "Green tea cured migraine in every child. "
    "Follow-up lasted 24 months."
)
MESSAGES: list[Any] = [
    {"role": "system", "content": "Answer from the context only."},
    {"role": "user", "content": f"Context: {CONTEXT}\n\nQuestion: what did the trial find?"},
]
WARMUP = 5
SECTION = "proxy"


def _serve(workdir: Path, upstream: str) -> tuple[subprocess.Popen[bytes], str]:
    env = os.environ.copy()
    env.update(
        {
            "SPANPROOF_EMBEDDER__CACHE_DIR": str(workdir / "cache"),
            "SPANPROOF_PROXY__UPSTREAM__KIND": "openai",
            "SPANPROOF_PROXY__UPSTREAM__BASE_URL": upstream,
        }
    )
    db = workdir / "proxy.sqlite"
    build_store(load_settings(), str(db)).close()  # `serve --db` needs an existing store
    port = free_port()
    args = [str(SPANPROOF), "serve", "--db", str(db), "--port", str(port)]
    with (workdir / "serve.log").open("wb") as log:
        proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_healthy(proc, base)
    return proc, base


def _complete(client: OpenAI) -> tuple[float, Any]:
    started = time.perf_counter()
    completion = client.chat.completions.create(model="bench", messages=MESSAGES)
    return time.perf_counter() - started, completion


def _stream(client: OpenAI) -> tuple[float, float, Any]:
    """(time to the first content chunk, time to the end, the last chunk)."""
    started = time.perf_counter()
    first = None
    last = None
    for chunk in client.chat.completions.create(model="bench", messages=MESSAGES, stream=True):
        if first is None and chunk.choices and chunk.choices[0].delta.content:
            first = time.perf_counter() - started
        last = chunk
    total = time.perf_counter() - started
    return first if first is not None else total, total, last


def _rounds(direct: OpenAI, proxy: OpenAI, n: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {
        key: []
        for key in (
            "direct",
            "proxy",
            "direct_ttft",
            "proxy_ttft",
            "direct_stream",
            "proxy_stream",
        )
    }

    def completion(client: OpenAI, key: str) -> Callable[[], None]:
        def run() -> None:
            seconds, reply = _complete(client)
            samples[key].append(seconds)
            if key == "proxy":
                claims = (reply.model_extra or {})["spanproof"]["claims"]
                assert len(claims) == 5, f"expected a 5-claim answer, got {len(claims)}"

        return run

    def stream(client: OpenAI, key: str) -> Callable[[], None]:
        def run() -> None:
            ttft, total, last = _stream(client)
            samples[f"{key}_ttft"].append(ttft)
            samples[f"{key}_stream"].append(total)
            if key == "proxy":
                assert len((last.model_extra or {})["spanproof"]["claims"]) == 5

        return run

    calls = [
        completion(direct, "direct"),
        completion(proxy, "proxy"),
        stream(direct, "direct"),
        stream(proxy, "proxy"),
    ]
    for i in range(n):
        for call in calls[i % 4 :] + calls[: i % 4]:  # rotate the order: no arm always first
            call()
    return samples


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _table(samples: dict[str, list[float]]) -> list[str]:
    rows = [
        "| measure | direct median | proxied median | overhead (median) | direct p90 "
        "| proxied p90 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, a, b in (
        ("completion, total", "direct", "proxy"),
        ("stream, time to first token", "direct_ttft", "proxy_ttft"),
        ("stream, total", "direct_stream", "proxy_stream"),
    ):
        da, db = samples[a], samples[b]
        over = statistics.median([y - x for x, y in zip(da, db, strict=True)])
        rows.append(
            f"| {label} | {_ms(statistics.median(da))} ms | {_ms(statistics.median(db))} ms | "
            f"**{_ms(over)} ms** | {_ms(pct(da, 0.9))} ms | {_ms(pct(db, 0.9))} ms |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40, help="rounds per upstream speed")
    parser.add_argument("--chunk-delay", type=float, default=0.02, help="s between words")
    parser.add_argument("--write", type=Path, help="write the results section to this file")
    args = parser.parse_args()
    per_speed = WARMUP + 4 * args.n
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    with (
        tempfile.TemporaryDirectory(prefix="spanproof-bench-proxy-") as tmp,
        ScriptedChatServer([ANSWER] * (2 * per_speed), usage=(120, 60)) as upstream,
    ):
        proc, base = _serve(Path(tmp), upstream.base_url)
        try:
            with (
                OpenAI(base_url=f"{upstream.base_url}/v1", api_key="x", max_retries=0) as direct,
                OpenAI(base_url=f"{base}/v1", api_key="x", max_retries=0) as proxy,
            ):
                for _ in range(WARMUP):  # loads the model and fills the embedding cache
                    _complete(proxy)
                results = {}
                for delay in (0.0, args.chunk_delay):
                    upstream.chunk_delay = delay
                    results[delay] = _rounds(direct, proxy, args.n)
        finally:
            stop(proc)
    elapsed = time.perf_counter() - started
    load = f"load average {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    lines = [
        "## Verifying proxy overhead (`POST /v1/chat/completions`)",
        "",
        f"Command: `python bench/bench_proxy.py --n {args.n} --chunk-delay {args.chunk_delay}` "
        "(`make bench-proxy`). The same request, directly to the scripted loopback upstream and "
        "through `spanproof serve`, with the real `openai` client, side by side in one run: "
        f"{args.n} rounds per upstream speed, each a completion and a stream per arm in a "
        "rotating order, after 5 warm-up requests (model loaded, embeddings cached). A 5-claim "
        f"answer (4 supported, 1 unsupported) against {len(message_evidence(MESSAGES))} evidence "
        "spans from the request's "
        "messages; rule-based decomposer, score model v2, bundled ONNX embedder behind its "
        "cache, SQLite trace store. Overhead is the median of the paired differences.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, {platform.system()}, {load}; run took {elapsed:.0f} s.",
        "",
    ]
    for delay, samples in results.items():
        speed = (
            "upstream sends its whole answer at once"
            if delay == 0
            else f"upstream sends one word every {delay * 1000:.0f} ms"
        )
        lines += [f"**{speed}**", "", *_table(samples), ""]
    body = "\n".join(lines)
    print(body)
    if args.write:
        write_section(args.write, SECTION, body)


if __name__ == "__main__":
    main()
