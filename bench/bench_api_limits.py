"""The worst request ``/v1/verify`` accepts under the default limits (SPANPROOF_LIMITS__*).

    python bench/bench_api_limits.py [--write bench/RESULTS.md]

Builds the app over a fresh SQLite store with the configured (default: bundled local) embedder
and score model, then sends, through the ASGI app, one request at every default limit at once:
the most evidence items, the most claims, and together the most characters (the evidence items
share what the claims leave). Reports the request's size, its latency, the stored trace's size,
and that one item more answers 413 at once.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.api.state import build_app_state
from spanproof.config import LimitSettings, Settings, load_settings

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _results import write_section  # noqa: E402

WORDS = [
    *("daily", "walking", "lowered", "systolic", "blood", "pressure", "in", "adults"),
    *("with", "hypertension", "while", "coffee", "intake", "was", "not", "associated"),
    *("with", "sleep", "duration", "and", "zinc", "shortened", "colds"),
]


def _text(n: int, chars: int) -> str:
    words = [WORDS[(n * 7 + i) % len(WORDS)] for i in range(chars)]
    return " ".join(words)[:chars]


def worst_body(limits: LimitSettings) -> tuple[list[str], list[dict[str, str]]]:
    """Claims and evidence at every limit at once (the evidence shares the characters left)."""
    claims = [_text(n, 60) for n in range(limits.max_claims)]
    room = limits.max_chars - sum(len(c) for c in claims)
    per_item = room // limits.max_evidence_items
    evidence = [{"id": f"E{n}", "text": _text(n + 3, per_item)}
                for n in range(limits.max_evidence_items)]  # fmt: skip
    return claims, evidence


def measure(settings: Settings, db: Path) -> dict[str, Any]:
    state = build_app_state(settings, str(db))
    claims, evidence = worst_body(settings.limits)
    payload = json.dumps({"claims": claims, "evidence": evidence}).encode()
    with TestClient(create_app(state)) as client:
        started = time.perf_counter()
        response = client.post("/v1/verify", content=payload,
                               headers={"content-type": "application/json"})  # fmt: skip
        latency = time.perf_counter() - started
        assert response.status_code == 200, response.text[:500]
        trace = client.get(f"/v1/traces/{response.json()['trace_id']}")
        over = {"claims": claims, "evidence": [*evidence, {"id": "X", "text": "x"}]}
        started = time.perf_counter()
        refused = client.post("/v1/verify", json=over)
        refused_s = time.perf_counter() - started
    state.store.close()
    return {
        "limits": settings.limits.model_dump(),
        "request_bytes": len(payload),
        "claims": len(claims),
        "evidence_items": len(evidence),
        "characters": sum(map(len, claims)) + sum(len(e["text"]) for e in evidence),
        "latency_s": round(latency, 2),
        "trace_bytes": len(trace.content),
        "one_more_item": {"status": refused.status_code, "latency_s": round(refused_s, 3)},
        "score_model": settings.verify.score_model,
    }


def render(result: dict[str, Any]) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    limits = result["limits"]
    assert isinstance(limits, dict)
    return "\n".join(
        [
            "## HTTP API: the worst accepted `/v1/verify` request",
            "",
            "Measured by `python bench/bench_api_limits.py --write bench/RESULTS.md` on "
            f"{machine}, {date.today().isoformat()} (one request through the ASGI app, bundled "
            f"local embedder, score model {result['score_model']}; load average "
            f"{os.getloadavg()[0]:.1f} at the end: the machine is shared).",
            "",
            "| limit (default) | value |",
            "|---|---:|",
            f"| `SPANPROOF_LIMITS__MAX_EVIDENCE_ITEMS` | {limits['max_evidence_items']:,} |",
            f"| `SPANPROOF_LIMITS__MAX_CLAIMS` | {limits['max_claims']:,} |",
            f"| `SPANPROOF_LIMITS__MAX_CHARS` | {limits['max_chars']:,} |",
            "",
            "| the request at every limit at once | value |",
            "|---|---:|",
            f"| body | {result['request_bytes']:,} bytes |",
            f"| claims × evidence items | {result['claims']} × {result['evidence_items']} |",
            f"| characters | {result['characters']:,} |",
            f"| latency | {result['latency_s']} s |",
            f"| stored trace | {result['trace_bytes']:,} bytes |",
            f"| one evidence item more | {result['one_more_item']['status']} in "
            f"{result['one_more_item']['latency_s']} s |",
            "",
            "```json",
            json.dumps(result, indent=1),
            "```",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(load_settings(), Path(tmp) / "bench.sqlite")
    body = render(result)
    print(body)
    if args.write:
        write_section(args.write, "api-limits", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
