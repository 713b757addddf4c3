"""Build the checker's (claim, evidence, label, group) pairs from the development data.

Reads ``../shared/data`` through :func:`spanproof.evaluation.devdata.data_dir` (or
``SPANPROOF_DATA_DIR``); nothing is copied into the repository. Labels:

* ``entailed`` — the evidence states the claim;
* ``contradicted`` — the evidence states the opposite;
* ``neutral`` — the evidence is on the topic but settles nothing;
* ``not_entailed`` — FEVER's ``not_entailment``, which mixes refuted and not-enough-info pairs.
  It is kept as its own partial label: training uses it only for "entailed vs the rest" (its loss is
  ``-log(p_contradicted + p_neutral)``), never as evidence for either of the two other classes,
  and validation scores it only in the binary metric.

Sources and mappings (see ``docs/model-card.md``):

* SciFact train: each rationale set (the sentences, in abstract order, joined by a space) of a
  SUPPORT claim → entailed, of a CONTRADICT claim → contradicted. Neutral: sentences of cited
  abstracts that are in no rationale set — per claim and cited abstract, the one that shares most
  words with the claim (a hard negative) and one other picked at random (seeded) — and the same
  for the cited abstracts of claims without evidence. Group: the claim id.
* HealthVer dev: Supports / Refutes / Neutral. Group: the claim text.
* COVID-Fact: SUPPORTED → entailed, REFUTED → contradicted; the evidence is the claim's evidence
  sentences joined by a space. Group: the source article (``gold_source``), so that a claim and
  the word-swapped counterfactuals made from it fall on the same side of the split.
* CLIMATE-FEVER: each labelled evidence sentence: SUPPORTS / REFUTES / NOT_ENOUGH_INFO. Group: the
  claim id.
* FEVER dev pairs: entailment → entailed, not_entailment → not_entailed (above). FEVER's
  tokenisation (``-LRB-``, `` `` ``) is undone. Group: the hypothesis (claim) text.

Synthetic pairs (dataset ``synthetic``): edited copies of every entailed pair, made with the
engine's adversarial builders (``spanproof.evaluation.adversarial``) — a polarity flip of the claim
or of a one-sentence evidence → contradicted; a number swap or an entity swap of the claim →
not_entailed. They keep their source's group and are reported apart from the real data.

The validation split is by group, never by pair: a group is held out when
``sha256(f"{SEED}:{dataset}:{group}")`` read as a number in [0, 1) is below ``VALIDATION_SHARE``,
so the split is the same on every run and does not move when other groups are added.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spanproof.evaluation.adversarial import entities_of, entity_swap, negation_flip, number_swap
from spanproof.evaluation.devdata import data_dir, healthver, scifact_claims, scifact_corpus
from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import token_texts

SEED = 20261130
VALIDATION_SHARE = 0.15
LABELS = ("entailed", "contradicted", "neutral")
PARTIAL_LABEL = "not_entailed"
DATASETS = ("scifact", "healthver", "covidfact", "climate_fever", "fever")
SYNTHETIC = "synthetic"
#: Neutral sentences drawn per SciFact claim and cited abstract: the closest, plus random ones.
SCIFACT_NEUTRAL_PER_DOC = 2


@dataclass(frozen=True, slots=True)
class Pair:
    claim: str
    evidence: str
    label: str  # one of LABELS, or PARTIAL_LABEL
    group: str  # claim-level group id, unique across datasets
    dataset: str

    @property
    def split(self) -> str:
        return "validation" if is_validation(self.group) else "train"


def is_validation(group: str) -> bool:
    digest = hashlib.sha256(f"{SEED}:{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64 < VALIDATION_SHARE


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _clean(text: str) -> str:
    return " ".join(text.split())


def _overlap(claim: set[str], sentence: str) -> int:
    return len(claim & set(token_texts(sentence)))


def scifact_pairs(root: Path, rng: random.Random) -> list[Pair]:
    corpus = scifact_corpus(root)
    out: list[Pair] = []
    label_of = {"SUPPORT": "entailed", "CONTRADICT": "contradicted"}
    for claim in scifact_claims(root):
        group = f"scifact:{claim.id}"
        claim_words = set(token_texts(claim.claim))
        docs = sorted(set(claim.cited_doc_ids) | set(claim.evidence))
        for doc_id in docs:
            abstract = corpus.get(doc_id, {}).get("abstract", [])
            if not abstract:
                continue
            used: set[int] = set()
            for label, sentences in claim.evidence.get(doc_id, []):
                indices = sorted(i for i in sentences if 0 <= i < len(abstract))
                if not indices:
                    continue
                used.update(indices)
                text = _clean(" ".join(abstract[i] for i in indices))
                out.append(Pair(_clean(claim.claim), text, label_of[label], group, "scifact"))
            rest = [i for i in range(len(abstract)) if i not in used]
            if not rest:
                continue
            closest = max(rest, key=lambda i: (_overlap(claim_words, abstract[i]), -i))
            picked = [closest]
            others = [i for i in rest if i != closest]
            picked += rng.sample(others, min(SCIFACT_NEUTRAL_PER_DOC - 1, len(others)))
            out.extend(
                Pair(_clean(claim.claim), _clean(abstract[i]), "neutral", group, "scifact")
                for i in sorted(picked)
            )
    return out


def healthver_pairs(root: Path) -> list[Pair]:
    label_of = {"supported": "entailed", "refuted": "contradicted", "neutral": "neutral"}
    return [
        Pair(
            _clean(p.claim),
            _clean(" ".join(p.evidence)),
            label_of[p.label],
            f"healthver:{_clean(p.claim).lower()}",
            "healthver",
        )
        for p in healthver(root)
    ]


def covidfact_pairs(root: Path) -> list[Pair]:
    label_of = {"SUPPORTED": "entailed", "REFUTED": "contradicted"}
    out = []
    for d in _jsonl(root / "covidfact" / "COVIDFACT_dataset.jsonl"):
        evidence = _clean(" ".join(d["evidence"]))
        if not evidence:
            continue
        group = f"covidfact:{d.get('gold_source') or d['claim']}"
        out.append(Pair(_clean(d["claim"]), evidence, label_of[d["label"]], group, "covidfact"))
    return out


def climate_fever_pairs(root: Path) -> list[Pair]:
    label_of = {"SUPPORTS": "entailed", "REFUTES": "contradicted", "NOT_ENOUGH_INFO": "neutral"}
    out = []
    for d in _jsonl(root / "climate_fever" / "climate-fever.jsonl"):
        group = f"climate_fever:{d['claim_id']}"
        for ev in d["evidences"]:
            label = label_of.get(ev.get("evidence_label", ""))
            if label is None or not ev.get("evidence", "").strip():
                continue
            out.append(
                Pair(_clean(d["claim"]), _clean(ev["evidence"]), label, group, "climate_fever")
            )
    return out


_FEVER_TOKENS = (
    ("-LRB-", "("),
    ("-RRB-", ")"),
    ("-LSB-", "["),
    ("-RSB-", "]"),
    ("-LCB-", "{"),
    ("-RCB-", "}"),
    ("-COLON-", ":"),
    ("``", '"'),
    ("''", '"'),
)
_SPACE_BEFORE = re.compile(r" ([,.;:!?%)\]}]|'s\b|n't\b)")
_SPACE_AFTER = re.compile(r"([(\[{]) ")


def detokenize_fever(text: str) -> str:
    """Undo FEVER's PTB-style tokenisation well enough for a word tokenizer and an embedder."""
    for token, plain in _FEVER_TOKENS:
        text = text.replace(token, plain)
    text = _SPACE_BEFORE.sub(r"\1", text)
    text = _SPACE_AFTER.sub(r"\1", text)
    return _clean(text)


def fever_pairs(root: Path) -> list[Pair]:
    label_of = {"entailment": "entailed", "not_entailment": PARTIAL_LABEL}
    out = []
    for d in _jsonl(root / "fever_nli_dev" / "fever_dev_pairs.jsonl"):
        claim = detokenize_fever(d["hypothesis"])
        out.append(
            Pair(
                claim,
                detokenize_fever(d["premise"]),
                label_of[d["label"]],
                f"fever:{claim.lower()}",
                "fever",
            )
        )
    return out


def _hash_bit(text: str) -> bool:
    return hashlib.sha256(f"{SEED}:flip:{text}".encode()).digest()[0] % 2 == 0


def synthetic_pairs(pairs: list[Pair]) -> list[Pair]:
    """Edited copies of the entailed pairs, made with the engine's adversarial builders.

    For each entailed pair: a polarity flip (a negation added or removed, or a direction word
    reversed) of the claim — or, for one pair in two whose evidence is a single sentence, of the
    evidence — labelled ``contradicted``; a number swap and an entity swap of the claim (values the
    evidence lacks), labelled ``not_entailed`` (a different number or entity is not always a
    contradiction). Each copy keeps its source pair's group, so it stays on the same side of the
    split. Deterministic: the builders choose their edit by a hash of the sentence.
    """
    pool = sorted(
        {(surface, shape) for p in pairs for _, _, surface, shape in entities_of(p.claim)}
    )
    out: list[Pair] = []
    for p in pairs:
        if p.label != "entailed":
            continue
        single = len(split_sentences(p.evidence)) == 1
        if single and _hash_bit(p.claim + p.evidence):
            flipped = negation_flip(p.evidence)
            if flipped and flipped != p.evidence:
                out.append(Pair(p.claim, flipped, "contradicted", p.group, SYNTHETIC))
        else:
            flipped = negation_flip(p.claim)
            if flipped and flipped != p.claim:
                out.append(Pair(flipped, p.evidence, "contradicted", p.group, SYNTHETIC))
        swapped = number_swap(p.claim, avoid=p.evidence)
        if swapped and swapped != p.claim:
            out.append(Pair(swapped, p.evidence, PARTIAL_LABEL, p.group, SYNTHETIC))
        swapped = entity_swap(p.claim, pool, avoid=p.evidence)
        if swapped and swapped != p.claim:
            out.append(Pair(swapped, p.evidence, PARTIAL_LABEL, p.group, SYNTHETIC))
    return out


IDENTITY = "identity"


def identity_pairs(pairs: list[Pair]) -> list[Pair]:
    """Pairs that teach a sentence entails itself, against its polarity flip.

    For the first real pair of every group: (claim, claim) → entailed and (flipped claim, claim) →
    contradicted; and, for the first pair of the group whose evidence is one sentence, (evidence,
    evidence) → entailed. Without them the cross-encoder, trained on flips that differ from their
    source by one word, reads near-identical sentences as contradictions — including identical
    ones, which is exactly what a record's quoted statement and its source sentence are.
    Dataset ``identity``, reported apart; same groups as their source, so the same side of the
    split.
    """
    out: list[Pair] = []
    seen_groups: set[str] = set()
    evidence_groups: set[str] = set()
    for p in pairs:
        if p.dataset == SYNTHETIC:
            continue
        if p.group not in seen_groups:
            seen_groups.add(p.group)
            out.append(Pair(p.claim, p.claim, "entailed", p.group, IDENTITY))
            flipped = negation_flip(p.claim)
            if flipped and flipped != p.claim:
                out.append(Pair(flipped, p.claim, "contradicted", p.group, IDENTITY))
        if p.group not in evidence_groups and len(split_sentences(p.evidence)) == 1:
            evidence_groups.add(p.group)
            out.append(Pair(p.evidence, p.evidence, "entailed", p.group, IDENTITY))
    return out


def build_pairs(root: Path | None = None, *, synthetic: bool = True) -> list[Pair]:
    """Every pair of every dataset, in a fixed order (dataset, then file order), then the
    synthetic edits of the entailed ones (:func:`synthetic_pairs`)."""
    root = root or data_dir()
    if root is None:
        raise SystemExit(
            "no development data: set SPANPROOF_DATA_DIR to the folder of ../shared/data"
        )
    rng = random.Random(SEED)
    pairs = [
        *scifact_pairs(root, rng),
        *healthver_pairs(root),
        *covidfact_pairs(root),
        *climate_fever_pairs(root),
        *fever_pairs(root),
    ]
    # The same claim/evidence/label can occur twice in a source; keep its first occurrence.
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for p in pairs:
        key = (p.claim, p.evidence, p.label)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    if synthetic:
        for p in synthetic_pairs(unique):
            key = (p.claim, p.evidence, p.label)
            if key not in seen:
                seen.add(key)
                unique.append(p)
    return unique


def summary(pairs: list[Pair]) -> dict[str, dict[str, dict[str, int]]]:
    """Counts per dataset, split and label."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for dataset in (*DATASETS, SYNTHETIC):
        out[dataset] = {}
        for split in ("train", "validation"):
            subset = [p for p in pairs if p.dataset == dataset and p.split == split]
            counts = Counter(p.label for p in subset)
            row = {label: counts[label] for label in (*LABELS, PARTIAL_LABEL) if counts[label]}
            row["pairs"] = len(subset)
            row["groups"] = len({p.group for p in subset})
            out[dataset][split] = row
    return out


def main() -> None:
    pairs = build_pairs()
    print(json.dumps(summary(pairs), indent=1))
    print("total", len(pairs))


if __name__ == "__main__":
    main()
