"""Pack the judge's training mix and dev split, tokenised, into one ``.npz`` file.

    SPANPROOF_DATA_DIR=../shared/data python training/pack_judge_pairs.py --out .judge-gpu

The pairs are :func:`judge_pairs.build_judge_pairs`' and the mix is
:func:`train_judge.training_mix`'s, exactly as ``train_judge.py`` builds them; each pair is
tokenised by the runtime's tokenizer (256 pieces, longest-first truncation), so the file holds
everything :mod:`train_judge_packed` needs and nothing else: word-piece ids (uint16, one flat
array with offsets), the segment boundary, the label (-1: the partial label ``not_entailed``),
the (dataset, label) cell weight of :func:`train_judge.cell_weights`, and the dataset. It is a
function of the data and the seed alone: the same data give the same bytes (``np.savez``, no
compression, no time stamps). ``dev_pairs.jsonl`` (the dev split as text, in the file's order)
and ``pairs_summary.json`` are written beside it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import LABELS, PARTIAL_LABEL
from judge_pairs import MAX_TOKENS, REAL_SETS, JudgePair, build_judge_pairs, summary, write_dev
from train_cross_encoder import encode, tokenizer
from train_judge import DEFAULT_CAPS, _parse_caps, cell_weights, mix_counts, training_mix


def pack(tok: object, pairs: list[JudgePair], datasets: list[str]) -> dict[str, np.ndarray]:
    encoded = encode(tok, pairs)
    lengths = np.array([len(ids) for ids, _ in encoded], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    ids = np.fromiter((i for e, _ in encoded for i in e), dtype=np.uint16, count=int(offsets[-1]))
    # the first piece of segment 1 (the evidence); the runtime's token_type_ids are 0 before it
    first_b = np.array([t.index(1) if 1 in t else len(t) for _, t in encoded], dtype=np.int32)
    index = {label: i for i, label in enumerate(LABELS)}
    labels = np.array([-1 if p.label == PARTIAL_LABEL else index[p.label] for p in pairs], np.int8)
    names = {d: i for i, d in enumerate(datasets)}
    return {
        "offsets": offsets,
        "ids": ids,
        "first_b": first_b,
        "labels": labels,
        "datasets": np.array([names[p.dataset] for p in pairs], dtype=np.int8),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(".judge-gpu"))
    parser.add_argument(
        "--substitutions", choices=("auto", "realistic", "phrase"), default="phrase"
    )
    parser.add_argument("--titles", action="store_true")
    parser.add_argument("--cap", action="append", default=[], help="DATASET=N (see DEFAULT_CAPS)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    caps = _parse_caps(args.cap)
    tok = tokenizer(MAX_TOKENS)
    pairs, notes = build_judge_pairs(substitutions=args.substitutions, titles=args.titles)
    train = training_mix(pairs, caps)
    dev = [p for p in pairs if p.split == "dev" and p.dataset in REAL_SETS]
    datasets = sorted({p.dataset for p in (*train, *dev)})
    arrays = {f"train_{k}": v for k, v in pack(tok, train, datasets).items()}
    arrays |= {f"dev_{k}": v for k, v in pack(tok, dev, datasets).items()}
    arrays["train_weights"] = cell_weights(train)
    arrays["dataset_names"] = np.array(datasets)
    arrays["label_names"] = np.array(LABELS)
    path = args.out / "judge_pairs.npz"
    with path.open("wb") as fh:
        np.savez(fh, **arrays)
    write_dev(dev, args.out / "dev_pairs.jsonl")
    record = {
        "pairs": summary(pairs),
        "pair_notes": notes,
        "substitutions": args.substitutions,
        "titles": args.titles,
        "caps": caps,
        "default_caps": DEFAULT_CAPS,
        "train_pairs": len(train),
        "train_pairs_by_dataset_label": mix_counts(train),
        "dev_pairs": len(dev),
        "packed_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }
    (args.out / "pairs_summary.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path} ({path.stat().st_size:,} bytes): {len(train)} training pairs, "
          f"{len(dev)} dev pairs; sha256 {record['packed_sha256'][:12]}")  # fmt: skip


if __name__ == "__main__":
    main()
