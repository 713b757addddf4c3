"""Loaders for the labelled development data (``../shared/data``; see its README).

The folder is found from ``SPANPROOF_DATA_DIR`` or ``<repo>/../shared/data``. Nothing is copied.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def data_dir() -> Path | None:
    """The data folder, or None when it is absent."""
    env = os.environ.get("SPANPROOF_DATA_DIR")
    candidates = [Path(env)] if env else []
    candidates.append(Path(__file__).resolve().parents[3] / ".." / "shared" / "data")
    for path in candidates:
        if (path / "scifact" / "corpus.jsonl").is_file():
            return path.resolve()
    return None


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


@dataclass(frozen=True, slots=True)
class SciFactClaim:
    id: int
    claim: str
    # doc id → list of (label, sentence indices)
    evidence: dict[int, list[tuple[str, tuple[int, ...]]]]
    cited_doc_ids: tuple[int, ...]

    @property
    def labels(self) -> set[str]:
        return {label for sets in self.evidence.values() for label, _ in sets}


def scifact_corpus(root: Path) -> dict[int, dict[str, Any]]:
    return {int(d["doc_id"]): d for d in _jsonl(root / "scifact" / "corpus.jsonl")}


def scifact_claims(root: Path) -> list[SciFactClaim]:
    out = []
    for d in _jsonl(root / "scifact" / "claims_train.jsonl"):
        evidence = {
            int(doc): [(s["label"], tuple(s["sentences"])) for s in sets]
            for doc, sets in d.get("evidence", {}).items()
        }
        out.append(
            SciFactClaim(int(d["id"]), d["claim"], evidence, tuple(d.get("cited_doc_ids", ())))
        )
    return out


@dataclass(frozen=True, slots=True)
class LabelledPair:
    """A claim with its evidence passages and a three-way label."""

    claim: str
    evidence: tuple[str, ...]
    label: str  # "supported" | "refuted" | "neutral"
    group: str  # claim-level group id (splits are by claim, never by pair)


def covidfact(root: Path) -> list[LabelledPair]:
    labels = {"SUPPORTED": "supported", "REFUTED": "refuted"}
    return [
        LabelledPair(d["claim"], tuple(d["evidence"]), labels[d["label"]], d["claim"])
        for d in _jsonl(root / "covidfact" / "COVIDFACT_dataset.jsonl")
    ]


def healthver(root: Path) -> list[LabelledPair]:
    labels = {"Supports": "supported", "Refutes": "refuted", "Neutral": "neutral"}
    with (root / "healthver" / "healthver_dev.csv").open(encoding="utf-8", newline="") as fh:
        return [
            LabelledPair(row["claim"], (row["evidence"],), labels[row["label"]], row["claim"])
            for row in csv.DictReader(fh)
        ]
