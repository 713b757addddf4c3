"""Follow docs/deploy.md end to end on this machine: one PostgreSQL, two workers, one API.

    python scripts/deploy_rehearsal.py [--docs 40]

A local PostgreSQL 16 + pgvector (the ``pgserver`` wheel, a dev dependency) stands in for the
database server. Then, as the document says: two ``spanproof worker`` processes with stable
executor ids; documents enqueued from the shell (``workflows ingest --enqueue-only``); an API
process that only enqueues (``SPANPROOF_WORKFLOWS__API_ENQUEUE=true spanproof serve``) taking an
upload and a retraction; a worker killed with SIGKILL while it has work and its workflows handed
to the live one (``workflows recover``); ``queue status`` throughout. Each step prints what it
checked; any failed check exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]


def spanproof(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spanproof.cli.main", *args],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip


def check(ok: bool, what: str) -> None:
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        sys.exit(1)


def worker(env: dict[str, str], executor: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "spanproof.cli.main", "worker", "--executor-id", executor],
        stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    check(proc.stdout.readline().strip() == f"worker {executor} ready", f"worker {executor} up")
    return proc


def status(env: dict[str, str]) -> dict[str, Any]:
    out = spanproof(env, "queue", "status", "--json", "--recent", "200")
    check(out.returncode == 0, "queue status answers")
    view: dict[str, Any] = json.loads(out.stdout)
    return view


def wait_done(env: dict[str, str], workflow: str, count: int, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        counts = status(env)["by_workflow"].get(workflow, {})
        if counts.get("SUCCESS", 0) >= count and set(counts) == {"SUCCESS"}:
            return
        time.sleep(1)
    check(False, f"{count} {workflow} workflows finished in {timeout:.0f} s")


def corpus(folder: Path, n: int) -> Path:
    folder.mkdir(parents=True)
    for i in range(n):
        (folder / f"study{i:03d}.txt").write_text(
            f"Study {i}\n\nResults\n\nIn {40 + i} adults, drug {i % 5} at {10 + i} mg reduced "
            f"systolic blood pressure by {i % 9 + 2} mmHg compared with placebo (p < 0.05).\n",
            encoding="utf-8",
        )
    return folder


def start_api(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """An API process that only enqueues, and its base URL once it answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    api = subprocess.Popen(
        [sys.executable, "-m", "spanproof.cli.main", "serve", "--port", str(port)],
        env={**env, "SPANPROOF_WORKFLOWS__API_ENQUEUE": "true"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=2)
            check(True, "the API came up")
            return api, base
        except OSError:
            if time.monotonic() > deadline:
                check(False, "the API came up")
            time.sleep(0.5)


def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read())


def shell_ingest(env: dict[str, str], docs: Path, n: int) -> None:
    """Enqueue from the shell; the two workers drain the queue together."""
    out = spanproof(env, "workflows", "ingest", str(docs), "--enqueue-only", "--no-embed")
    check(out.returncode == 0, f"enqueued {n} documents from the shell")
    wait_done(env, "spanproof.ingest_document", n)
    executors = {r["executor"] for r in status(env)["recent"] if r["executor"]}
    check(executors == {"worker-1", "worker-2"}, f"both workers ran ingestion: {executors}")


def api_upload(env: dict[str, str], base: str, done_before: int) -> None:
    text = "Upload\n\nResults\n\nZinc at 20 mg reduced cold duration by 2 days (p < 0.05).\n"
    code, queued = post(base, "/v1/sources", {"text": text, "media_type": "text/plain"})
    check(code == 202 and queued["status"] == "queued", "the API enqueued an upload (202)")
    wait_done(env, "spanproof.ingest_document", done_before + 1)
    shown = spanproof(env, "source", queued["source_id"], "--json")
    check(shown.returncode == 0, "a worker ingested the upload")


def verify_through_queue(env: dict[str, str]) -> list[dict[str, Any]]:
    sources: list[dict[str, Any]] = json.loads(
        spanproof(env, "sources", "--json", "--limit", "500").stdout
    )["items"]
    for s in sources:
        spanproof(env, "records", "extract", s["id"], "--json")
    out = spanproof(env, "workflows", "verify", "--enqueue-only", "--json")
    check(out.returncode == 0, "verification enqueued from the shell")
    n_verify = len(json.loads(out.stdout)["workflow_ids"])
    wait_done(env, "spanproof.verify_record", n_verify)
    check(n_verify > 0, f"{n_verify} records verified by the workers")
    return sources


def api_retraction(env: dict[str, str], base: str, source_id: str) -> None:
    code, retracted = post(base, f"/v1/sources/{source_id}/retract", {})
    check(code == 202, "the API took a retraction (202)")
    ref = retracted["walks"][0]["changed_ref"]
    deadline = time.monotonic() + 120
    while True:
        report = json.loads(spanproof(env, "impact", ref, "--json").stdout)
        if report["walks"] and all(w["status"] == "done" for w in report["walks"]):
            break
        check(time.monotonic() < deadline, "a worker walked the retraction")
        time.sleep(1)
    flagged = report["flagged"] == report["count"] > 0
    check(flagged, f"every dependent of {ref} flagged ({report['flagged']})")


def lost_worker(env: dict[str, str], victim: subprocess.Popen[str], more: Path, total: int) -> None:
    """Kill -9 worker-2 with work queued; hand its workflows to worker-1."""
    spanproof(env, "workflows", "ingest", str(more), "--enqueue-only", "--no-embed")
    time.sleep(1.0)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    out = spanproof(env, "workflows", "recover", "--executor-id", "worker-2", "--json")
    check(out.returncode == 0, "recover handed worker-2's workflows on")
    print(f"     re-enqueued: {len(json.loads(out.stdout)['workflow_ids'])}", flush=True)
    wait_done(env, "spanproof.ingest_document", total)
    sources = json.loads(spanproof(env, "sources", "--json", "--limit", "500").stdout)["items"]
    check(len(sources) == total, f"{len(sources)} sources, none lost or doubled")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=40)
    args = parser.parse_args()
    import pgserver  # type: ignore[import-untyped]

    work = Path(tempfile.mkdtemp(prefix="spanproof-deploy-"))
    server = pgserver.get_server(work / "pgdata", cleanup_mode="stop")
    server.psql("CREATE DATABASE spanproof;")
    url = f"postgresql://postgres@/spanproof?host={quote(str(work / 'pgdata'))}"
    env = {
        **os.environ,
        "SPANPROOF_STORE__URL": url,
        "SPANPROOF_WORKFLOWS__POLLING_INTERVAL": "0.2",
        "SPANPROOF_EMBEDDER__CACHE_DIR": str(work / "cache"),
    }
    procs: list[subprocess.Popen[str]] = []
    try:
        procs = [worker(env, "worker-1"), worker(env, "worker-2")]
        shell_ingest(env, corpus(work / "corpus", args.docs), args.docs)
        api, base = start_api(env)
        procs.append(api)
        api_upload(env, base, args.docs)
        sources = verify_through_queue(env)
        api_retraction(env, base, sources[0]["id"])
        lost_worker(env, procs[1], corpus(work / "more", args.docs), 2 * args.docs + 1)
        print(json.dumps(status(env)["queues"], indent=1))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=30)
        server.cleanup()


if __name__ == "__main__":
    main()
