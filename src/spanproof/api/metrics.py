"""Prometheus metrics, written by hand in the text exposition format (no extra dependency).

Request counts by route template, method and status; a request latency histogram by route;
verdicts by kind (claims) and verification outcomes.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(pairs: Iterable[tuple[str, str]]) -> str:
    inner = ",".join(f'{k}="{_escape(v)}"' for k, v in pairs)
    return "{" + inner + "}" if inner else ""


class Metrics:
    """Thread-safe counters and one histogram for one app."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: dict[tuple[str, str, str], int] = defaultdict(int)
        self._latency_buckets: dict[str, list[int]] = {}
        self._latency_sum: dict[str, float] = defaultdict(float)
        self._latency_count: dict[str, int] = defaultdict(int)
        self._verdicts: dict[str, int] = defaultdict(int)
        self._verifications: dict[tuple[str, str], int] = defaultdict(int)

    def observe_request(self, route: str, method: str, status: int, seconds: float) -> None:
        with self._lock:
            self._requests[(route, method, str(status))] += 1
            buckets = self._latency_buckets.setdefault(route, [0] * len(BUCKETS))
            for i, bound in enumerate(BUCKETS):
                if seconds <= bound:
                    buckets[i] += 1
            self._latency_sum[route] += seconds
            self._latency_count[route] += 1

    def observe_verification(
        self, endpoint: str, verification: str, verdicts: Iterable[str]
    ) -> None:
        outcome = "verified" if verification == "verified" else "unavailable"
        with self._lock:
            self._verifications[(endpoint, outcome)] += 1
            for verdict in verdicts:
                self._verdicts[verdict] += 1

    def render(self) -> str:
        """The exposition text."""
        lines: list[str] = []
        with self._lock:
            lines += [
                "# HELP spanproof_http_requests_total HTTP requests by route, method and status.",
                "# TYPE spanproof_http_requests_total counter",
            ]
            for (route, method, status), n in sorted(self._requests.items()):
                labels = _labels((("route", route), ("method", method), ("status", status)))
                lines.append(f"spanproof_http_requests_total{labels} {n}")
            lines += [
                "# HELP spanproof_http_request_duration_seconds HTTP request latency by route.",
                "# TYPE spanproof_http_request_duration_seconds histogram",
            ]
            name = "spanproof_http_request_duration_seconds"
            for route in sorted(self._latency_buckets):
                for bound, n in zip(BUCKETS, self._latency_buckets[route], strict=True):
                    labels = _labels((("route", route), ("le", repr(bound))))
                    lines.append(f"{name}_bucket{labels} {n}")
                count = self._latency_count[route]
                lines.append(f"{name}_bucket{_labels((('route', route), ('le', '+Inf')))} {count}")
                lines.append(f"{name}_sum{_labels((('route', route),))} {self._latency_sum[route]}")
                lines.append(f"{name}_count{_labels((('route', route),))} {count}")
            lines += [
                "# HELP spanproof_verifications_total Verifications by endpoint and outcome.",
                "# TYPE spanproof_verifications_total counter",
            ]
            for (endpoint, outcome), n in sorted(self._verifications.items()):
                labels = _labels((("endpoint", endpoint), ("outcome", outcome)))
                lines.append(f"spanproof_verifications_total{labels} {n}")
            lines += [
                "# HELP spanproof_claim_verdicts_total Claim verdicts by verdict.",
                "# TYPE spanproof_claim_verdicts_total counter",
            ]
            for verdict, n in sorted(self._verdicts.items()):
                lines.append(
                    f"spanproof_claim_verdicts_total{_labels((('verdict', verdict),))} {n}"
                )
        return "\n".join(lines) + "\n"
