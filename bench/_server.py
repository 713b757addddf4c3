"""What the HTTP benchmarks share: the demo request bodies, a free loopback port, waiting for a
server's ``/healthz``, stopping it, percentiles, and a real ``spanproof serve`` over a demo store.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "examples" / "demo" / "corpus"
EVIDENCE = ROOT / "examples" / "demo" / "evidence.jsonl"
SPANPROOF = Path(sys.executable).with_name("spanproof")
CLAIMS = [
    "Daily walking lowered systolic blood pressure by 5 mmHg.",
    "Sodium restriction lowered diastolic blood pressure.",
    "Short sleep was linked to higher evening cortisol.",
]


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def verify_body(claims: list[str] | None = None) -> dict[str, Any]:
    """``claims`` (default the 3 demo claims) × 8 spans: the 3 demo evidence spans, then 5 demo
    result paragraphs."""
    spans = [json.loads(line) for line in EVIDENCE.read_text().splitlines() if line.strip()]
    paragraphs: list[str] = []
    for path in sorted(CORPUS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        results = text.split("## Results", 1)[-1].split("\n## ", 1)[0]
        para = " ".join(results.split("\n\n")[1].split()) if "\n\n" in results else ""
        if para:
            paragraphs.append(para)
    for n, para in enumerate(paragraphs, start=len(spans) + 1):
        spans.append({"id": f"S{n}", "text": para})
    spans = spans[:8]
    if len(spans) != 8:
        raise SystemExit(f"expected 8 demo evidence spans, found {len(spans)}")
    return {"claims": claims or CLAIMS, "evidence": spans}


def wait_healthy(proc: subprocess.Popen[bytes], base: str, timeout: float = 180) -> None:
    """Wait until ``base/healthz`` answers 200; exit if ``proc`` dies or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    stop(proc)
    raise SystemExit(f"the server did not answer /healthz within {timeout:.0f} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM ``proc``, then SIGKILL it if it has not exited within 30 s."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def demo_env(workdir: Path) -> dict[str, str]:
    """The environment of the demo store's processes: the embedding cache in ``workdir``."""
    env = os.environ.copy()
    env["SPANPROOF_EMBEDDER__CACHE_DIR"] = str(workdir / "cache")
    return env


def spanproof_serve(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Ingest and embed the demo corpus into ``workdir/demo.sqlite`` with ``spanproof ingest``,
    then start ``spanproof serve`` on it (127.0.0.1, a free port; its log in
    ``workdir/serve.log``). Returns the process and the
    base URL once ``/healthz`` answers."""
    db = workdir / "demo.sqlite"
    env = demo_env(workdir)
    subprocess.run(
        [str(SPANPROOF), "ingest", str(CORPUS), "--db", str(db)],
        check=True,
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    port = free_port()
    with (workdir / "serve.log").open("wb") as log:  # the child keeps its own descriptor
        proc = subprocess.Popen(
            [str(SPANPROOF), "serve", "--db", str(db), "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    wait_healthy(proc, base)
    return proc, base
