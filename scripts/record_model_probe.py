"""How the cross-encoder reads verified records' statements against their own source sentence.

    python scripts/record_model_probe.py /tmp/sf300.sqlite [model.onnx]

The store is one made by the "Fault injection" reproduce steps of docs/quality.md (records
extracted and verified by the rules). For every verified record, the checker reads the record's
statement against the sentence the rules relied on (``focus_sentence``, the record model check's
input) with no word-for-word skip; prints how many statements are quotations of their passages
(the model check skips those) and the counts of the model's labels (docs/records.md).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from spanproof.bootstrap import build_store
from spanproof.config import Settings
from spanproof.core.checker import CHECKER_LABELS
from spanproof.core.record_store import record_store_of
from spanproof.providers.checker.cross_encoder import CrossEncoderChecker
from spanproof.services.record_checking import _quoted, focus_sentence
from spanproof.services.records import _all, _passages, _sections


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", help="a SQLite store with verified records")
    parser.add_argument("model", nargs="?", type=Path, help="another cross-encoder .onnx")
    args = parser.parse_args()
    store = build_store(Settings(), args.db)
    model = CrossEncoderChecker(args.model)
    labels: Counter[str] = Counter()
    quoted = 0
    none = np.zeros(0, dtype=np.float32)
    try:
        records = _all(record_store_of(store), "verified")
        for record in records:
            texts = {s.key: s.text for s in _sections(store, record.source_id, record.version)}
            passages = _passages(record, texts)
            quoted += _quoted(record.statement, passages)
            sentence = focus_sentence(record, passages)
            probs = model.check([(record.statement, sentence, none, none)])[0]
            labels[CHECKER_LABELS[int(np.argmax(probs))]] += 1
    finally:
        store.close()
    summary = {"model_id": model.model_id, "verified": len(records), "quoted": quoted}
    print(json.dumps({**summary, **labels}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
