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


# --- Development splits (claim level) shared by the judge's training and the combiner's fit ---

#: The seed and share of the claim-level development split of the sets without an official
#: one (SciFact train claims, the HealthVer dev file, COVID-Fact, CLIMATE-FEVER, FEVER).
SPLIT_SEED = 20261130
DEV_SHARE = 0.15


def is_dev_group(group: str) -> bool:
    """Whether a claim group belongs to the development split (a seeded hash, ~15 %)."""
    import hashlib

    digest = hashlib.sha256(f"{SPLIT_SEED}:{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64 < DEV_SHARE


@dataclass(frozen=True, slots=True)
class DevItem:
    """One claim with the evidence it is judged against, from a development split.

    ``label`` is ``supported``, ``contradicted`` or ``neutral``; ``pair_label`` is the set's own
    name for it (``SUPPORT``, ``Refutes``, ``ACCURATE``...), which the per-set metrics use.
    """

    dataset: str
    group: str
    claim: str
    evidence: tuple[str, ...]
    label: str
    pair_label: str


DEV_SETS = ("scifact", "healthver", "citation_integrity", "check_covid")

_NLI = {"entailment": "supported", "contradiction": "contradicted", "neutral": "neutral"}


def _clean(text: str) -> str:
    return " ".join(text.split())


def dev_items(root: Path, split: str = "dev") -> list[DevItem]:
    """The claim-level items of the four scientific sets' ``dev`` (or ``train``) split.

    SciFact: each train claim in the development split against each abstract it cites (label
    from the rationale: SUPPORT or CONTRADICT; a cited abstract without one is ``neutral``);
    HealthVer: the dev file's claim groups in the development split, each pair's passage;
    Citation-Integrity and Check-COVID: their official ``dev.jsonl`` (``train.jsonl`` for
    ``split="train"``).
    """
    if split not in {"dev", "train"}:
        raise ValueError(f"split must be 'dev' or 'train', not {split!r}")
    want_dev = split == "dev"
    out: list[DevItem] = []
    corpus = scifact_corpus(root)
    sf_label = {"SUPPORT": "supported", "CONTRADICT": "contradicted"}
    for claim in scifact_claims(root):
        group = f"scifact:{claim.id}"
        if is_dev_group(group) != want_dev:
            continue
        for doc_id in sorted(set(claim.cited_doc_ids) | set(claim.evidence)):
            abstract = corpus.get(doc_id, {}).get("abstract", [])
            if not abstract:
                continue
            labels = [label for label, _ in claim.evidence.get(doc_id, [])]
            raw = labels[0] if labels else "NOT_ENOUGH_INFO"
            label = sf_label.get(raw, "neutral")
            text = _clean(" ".join(abstract))
            out.append(DevItem("scifact", group, _clean(claim.claim), (text,), label, raw))
    hv_label = {"Supports": "supported", "Refutes": "contradicted", "Neutral": "neutral"}
    with (root / "healthver" / "healthver_dev.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            group = f"healthver:{_clean(row['claim']).lower()}"
            if is_dev_group(group) != want_dev:
                continue
            out.append(
                DevItem(
                    "healthver",
                    group,
                    _clean(row["claim"]),
                    (_clean(row["evidence"]),),
                    hv_label[row["label"]],
                    row["label"],
                )
            )
    for name in ("citation_integrity", "check_covid"):
        for n, d in enumerate(_jsonl(root / name / f"{split}.jsonl")):
            out.append(
                DevItem(
                    name,
                    f"{name}:{split}:{n}",
                    _clean(d["hypothesis"]),
                    (_clean(d["premise"]),),
                    _NLI[d["label"]],
                    d["label"],
                )
            )
    return out
