"""Timestamps as spanproof writes them on records, attempts, artifacts, flags and keys."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """Now, in UTC, as ISO 8601 with microseconds (``2026-11-30T12:00:00.000000+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")
