"""``spanproof bench`` times the engine on this machine with the bundled model.

No timing is asserted: the test checks what was run and that the embedder and onnxruntime run
alone compute the same vectors (so the ratio compares like with like), and the store path.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from spanproof.bootstrap import build_parser
from spanproof.cli.main import cli
from spanproof.core.documents import FetchedDocument
from spanproof.services.benchmark import TEXTS_NEEDED, store_sentences
from spanproof.services.ingestion import ingest
from spanproof.store.sqlite import SqliteEvidenceStore


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_bench_json_reports_both_measurements_on_the_bundled_model(tmp_path: Path) -> None:
    code, out, err = run("bench", "--repeats", "1", "--score-model", "v2", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["texts"] == "synthetic" and result["repeats"] == 1
    embedding, verify = result["embedding"], result["verify"]
    assert embedding["texts"] == 256 and embedding["spanproof_per_s"] > 0
    assert embedding["reference_per_s"] > 0 and embedding["ratio"] > 0
    assert embedding["largest_difference"] < 1e-5  # the same model, the same vectors
    assert (verify["score_model"], verify["claims"], verify["spans"]) == ("v2", 10, 64)
    assert sum(verify["verdicts"].values()) == 10
    assert verify["uncached_median_ms"] > 0 and verify["cached_median_ms"] > 0
    assert result["machine"]["cpus"] >= 1


def _store(path: Path, documents: int) -> str:
    with SqliteEvidenceStore(path) as store:
        for n in range(documents):
            text = " ".join(
                f"In cohort {n}-{k}, daily walking lowered blood pressure by {k} mmHg."
                for k in range(1, 11)
            )
            raw = f"Walking {n}\n\n{text}\n".encode()
            ingest(store, FetchedDocument("file", {}, "text/plain", raw), f"src-{n:03d}",
                   build_parser())  # fmt: skip
    return str(path)


def test_bench_on_a_store_too_small_says_how_many_sentences_it_needs(tmp_path: Path) -> None:
    db = _store(tmp_path / "s.sqlite", 3)
    for args in (["--store", "--db", db], ["--db", db]):  # --db alone means the store's texts
        code, out, err = run("bench", *args)
        assert code == 2 and out == ""
        assert "holds 30 distinct sentences" in err and f"needs {TEXTS_NEEDED}" in err


def test_store_sentences_reads_distinct_sentences_in_source_order(tmp_path: Path) -> None:
    db = _store(tmp_path / "s.sqlite", 30)
    with SqliteEvidenceStore(Path(db)) as store:
        texts = store_sentences(store)
        assert len(texts) == TEXTS_NEEDED == len(set(texts))
        assert texts[0] == "In cohort 0-1, daily walking lowered blood pressure by 1 mmHg."
        assert len(store_sentences(store, 5)) == 5
