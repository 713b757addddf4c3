"""``scripts/answerability.py --title-probe`` on a real SQLite store (the demo corpus, each file
ingested under a suite-style source id): each answerable question's plan is made once and
answered at every title weight, and the probe counts the answers that quote a cited source."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from answerability import TITLE_WEIGHTS, title_probe

from spanproof.bootstrap import build_parser
from spanproof.evaluation.answerability import ANSWERABLE, UNANSWERABLE, Question
from spanproof.ingest.files import iter_path
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.relevance import RELEVANCE_V1_LEXICAL

CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[SqliteEvidenceStore, dict[str, int]]]:
    store = SqliteEvidenceStore(tmp_path / "suite.sqlite")
    parse = build_parser()
    ids: dict[str, int] = {}
    for n, (source_id, fetched) in enumerate(sorted(iter_path(CORPUS), key=lambda x: x[0]), 1):
        ingest(store, fetched, f"scifact:{n}", parse)
        ids[source_id.rsplit("/", 1)[-1]] = n
    embed_pending(store, FakeEmbedder())
    yield store, ids
    store.close()


def _question(n: int, text: str, cited: int, split: str, kind: str = ANSWERABLE) -> Question:
    return Question(
        id=f"{kind}:scifact:{n}",
        kind=kind,
        text=text,
        claim=text,
        origin=f"scifact:{n}",
        split=split,
        cited=(cited,),
    )


def test_the_probe_counts_answers_that_quote_a_cited_source(
    store: tuple[SqliteEvidenceStore, dict[str, int]],
) -> None:
    db, ids = store
    walking, sleep = ids["walking.md"], ids["sleep.md"]
    asked = "What is known about whether daily walking lowered systolic blood pressure?"
    questions = [
        _question(1, asked, walking, "report"),
        _question(2, asked, sleep, "calibration"),  # its answer quotes walking.md, not sleep.md
        _question(3, asked, walking, "report", UNANSWERABLE),  # not an answerable question
        _question(4, "What is the capital of France?", walking, "report"),  # abstains
    ]
    out = title_probe(questions, db, FakeEmbedder(), RELEVANCE_V1_LEXICAL)
    weights = {f"{w:g}" for w in TITLE_WEIGHTS}
    assert out["report"] == {"planned": 1, **dict.fromkeys(weights, 1)}
    assert out["calibration"] == {"planned": 1, **dict.fromkeys(weights, 0)}
