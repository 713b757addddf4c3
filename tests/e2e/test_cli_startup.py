"""A one-claim ``spanproof verify`` with a warm embedding cache loads only what it needs: no
model session, no tokenizer for short text, no settings framework, no other snowball languages,
no rich for ``--json``, no store (bench/bench_startup.py times it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.model

LAUNCH = """
import json, sys
from spanproof.cli.main import main
sys.argv[0] = "spanproof"
try:
    main()
except SystemExit:
    pass
tops = sorted({m.split(".")[0] for m in sys.modules})
mine = sorted(m for m in sys.modules if m.startswith("spanproof."))
print(json.dumps({"tops": tops, "spanproof": mine}), file=sys.stderr)
"""
NOT_NEEDED = {
    "onnxruntime", "tokenizers", "pydantic_settings", "snowballstemmer", "rich", "asyncio",
    "fastapi", "httpx", "pint",
}  # fmt: skip


def _verify(tmp_path: Path, cache: Path) -> tuple[dict[str, object], dict[str, list[str]]]:
    claims, evidence = tmp_path / "claims.jsonl", tmp_path / "evidence.jsonl"
    claims.write_text(json.dumps({"id": "c1", "text": "Daily walking lowered blood pressure."}))
    evidence.write_text(
        json.dumps({"id": "e1", "text": "In the trial, daily walking lowered blood pressure."})
    )
    env = {**os.environ, "SPANPROOF_EMBEDDER__CACHE_DIR": str(cache)}
    args = ["verify", "--claims", str(claims), "--evidence", str(evidence), "--json"]
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, *args], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout), json.loads(done.stderr.strip().splitlines()[-1])


def test_a_warm_one_claim_verify_loads_only_what_it_needs(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold, cold_modules = _verify(tmp_path, cache)  # fills the cache: loads the model
    assert "onnxruntime" in cold_modules["tops"]
    assert (cache / "model-hashes.json").is_file()
    warm, modules = _verify(tmp_path, cache)
    assert warm == cold and warm["outcome"] == "all_supported"
    assert NOT_NEEDED.isdisjoint(modules["tops"]), NOT_NEEDED & set(modules["tops"])
    assert not [
        m for m in modules["spanproof"] if m.startswith(("spanproof.store", "spanproof.api"))
    ]
