"""The planner on a real SQLite store: budget, diversity cap, canonical markers, determinism,
graph expansion, cache-class hints and erased text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import ConfigurationError
from spanproof.core.models import Claim, Verdict
from spanproof.core.store import MASK
from spanproof.ingest.files import iter_path
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.planning import PLAN_MODEL, Plan, Planner, PlannerSettings
from spanproof.services.verification import score_all
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.text.tokens import token_texts
from spanproof.verify.scoring import V2

PARSE = build_parser()
CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
WALKING = "What did daily walking do to blood pressure?"


def load(store: SqliteEvidenceStore, files: list[Path]) -> None:
    for path in files:
        for source_id, fetched in iter_path(path):
            ingest(store, fetched, source_id, PARSE)
    embed_pending(store, FakeEmbedder())


def source_of(name: str) -> str:
    return f"file:{(CORPUS / name).resolve()}"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    s = SqliteEvidenceStore(tmp_path / "store.sqlite")
    load(s, sorted(CORPUS.iterdir()))
    yield s
    s.close()


def tokens_by_source(plan: Plan) -> Counter[str]:
    counts: Counter[str] = Counter()
    for span in plan.spans:
        counts[span.source["source_id"]] += len(token_texts(span.text))
    return counts


def test_the_plan_fits_the_budget_and_counts_its_tokens(store: SqliteEvidenceStore) -> None:
    for budget in (40, 80, 600):
        plan = Planner(store, FakeEmbedder(), PlannerSettings(budget_tokens=budget)).plan(WALKING)
        assert plan.spans
        assert plan.tokens == sum(tokens_by_source(plan).values()) <= budget
        assert plan.budget_tokens == budget


def test_no_source_takes_more_than_its_share_of_the_budget(store: SqliteEvidenceStore) -> None:
    settings = PlannerSettings(budget_tokens=100, max_source_share=0.4)
    plan = Planner(store, FakeEmbedder(), settings).plan(WALKING)
    per_source = tokens_by_source(plan)
    assert max(per_source.values()) <= 40
    assert len(per_source) >= 3  # the cap makes room for other sources
    # The best-ranked span is still from the source the question is about.
    assert plan.spans[0].source["source_id"] == source_of("walking.md")


def test_markers_follow_canonical_plan_order_whatever_the_ingestion_order(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    plan = Planner(store, FakeEmbedder()).plan(WALKING)
    assert [s.id for s in plan.spans] == [f"S{i}" for i in range(1, len(plan.spans) + 1)]
    assert [d["marker"] for d in plan.to_trace()] == [s.id for s in plan.spans]
    other = SqliteEvidenceStore(tmp_path / "reversed.sqlite")
    try:
        load(other, sorted(CORPUS.iterdir(), reverse=True))
        again = Planner(other, FakeEmbedder()).plan(WALKING)
    finally:
        other.close()
    assert again.to_trace() == plan.to_trace()
    assert again.plan_hash == plan.plan_hash


def test_the_same_store_and_question_give_an_identical_plan(store: SqliteEvidenceStore) -> None:
    first = Planner(store, FakeEmbedder()).plan(WALKING, hints=["A cached summary."])
    second = Planner(store, FakeEmbedder()).plan(WALKING, hints=["A cached summary."])
    assert first == second
    assert first.plan_hash == second.plan_hash and len(first.plan_hash) == 64
    assert first.plan_model == PLAN_MODEL
    changed = Planner(store, FakeEmbedder()).plan("How much cooler were tree-lined blocks?")
    assert changed.plan_hash != first.plan_hash


def test_spans_are_sentences_with_offsets_into_the_canonical_section_text(
    store: SqliteEvidenceStore,
) -> None:
    plan = Planner(store, FakeEmbedder()).plan(WALKING)
    for span in plan.spans:
        src = span.source
        assert set(src) == {"source_id", "version", "section_key", "start", "end", "title"}
        section = store.section(src["source_id"], src["version"], src["section_key"])
        assert section is not None
        assert section.text[src["start"] : src["end"]] == span.text
        assert span.truth_class
    texts = [s.text for s in plan.spans]
    assert (
        "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 weeks "
        "compared with usual care." in texts
    )


ZEBRAFISH = b"""# Zebrafish fin study

## Background

Regrowth of lost organs interests many biologists.

## Methods

Zebrafish larvae were amputated at the caudal fin.

## Results

Regenerated tissue reached full length within seven days.

## Discussion

Cartilage scaffolds could accelerate healing further.
"""


def test_graph_expansion_recalls_adjacent_sections_and_linked_sources(tmp_path: Path) -> None:
    store = SqliteEvidenceStore(tmp_path / "graph.sqlite")
    try:
        docs = [
            ("file:zebrafish", {"doi": "10.5555/zf.1"}, ZEBRAFISH),
            ("doi:10.5555/zf.1", {}, b"Published in the Journal of Fin Biology in 2021.\n"),
            ("file:volcano", {}, b"Basalt flows cooled over several decades.\n"),
        ]
        for source_id, ids, raw in docs:
            ingest(store, FetchedDocument("file", ids, "text/markdown", raw), source_id, PARSE)
        # Keyword recall only: the question shares words with the Methods section alone.
        plan = Planner(store, None).plan("How were zebrafish larvae amputated?")
    finally:
        store.close()
    texts = {s.text for s in plan.spans}
    assert "Zebrafish larvae were amputated at the caudal fin." in texts  # the hit
    assert "Regrowth of lost organs interests many biologists." in texts  # section before
    assert "Regenerated tissue reached full length within seven days." in texts  # section after
    assert "Published in the Journal of Fin Biology in 2021." in texts  # linked by its DOI
    assert "Cartilage scaffolds could accelerate healing further." not in texts  # two away
    assert "Basalt flows cooled over several decades." not in texts  # unrelated
    assert plan.spans[0].text == "Zebrafish larvae were amputated at the caudal fin."
    assert "semantic recall skipped: no embedder" in plan.notes


def test_cache_class_hints_ride_along_but_never_support_a_claim(
    store: SqliteEvidenceStore,
) -> None:
    hint = "Daily walking cures insomnia in 90% of adults."
    plan = Planner(store, FakeEmbedder()).plan(WALKING, hints=[hint])
    assert [h.id for h in plan.hints] == ["H1"]
    assert not plan.hints[0].truth_class
    assert all(s.truth_class for s in plan.spans)
    assert plan.evidence[-1] is plan.hints[0]
    assert plan.to_trace()[-1]["truth_class"] is False
    assert plan.span("H1") is None  # markers name truth-class spans only
    claims = [
        Claim("c1", hint, cited_markers=("H1",)),
        Claim("c2", "Daily walking cures insomnia", cited_markers=("S1",)),
    ]
    verdicts, status = score_all(claims, plan.evidence, FakeEmbedder(), V2)
    assert status == "verified"
    for verdict in verdicts:
        assert verdict.best_span is not None and verdict.best_span.id.startswith("S")
        assert verdict.verdict is not Verdict.SUPPORTED


def test_erased_text_never_enters_a_plan(store: SqliteEvidenceStore) -> None:
    source_id = source_of("walking.md")
    (version,) = store.versions(source_id)
    results = next(
        s for s in store.sections(source_id, version.number) if "lowered systolic" in s.text
    )
    start = results.text.index("lowered systolic")
    end = results.text.index("usual care") + len("usual care")
    store.add_erasure(source_id, version.number, results.key, start, end, "GDPR request 7")
    for budget in (600, 2000):
        settings = PlannerSettings(budget_tokens=budget, max_source_share=1.0)
        plan = Planner(store, FakeEmbedder(), settings).plan(WALKING)
        assert plan.spans
        for span in plan.spans:
            assert MASK not in span.text
            assert "lowered systolic" not in span.text
        walking = [s for s in plan.spans if s.source["source_id"] == source_id]
        assert walking  # the rest of the source is still planned


def test_ineligible_sources_are_not_planned(store: SqliteEvidenceStore) -> None:
    store.set_status(source_of("walking.md"), "retracted")
    plan = Planner(store, FakeEmbedder()).plan(WALKING)
    assert plan.spans
    assert all(s.source["source_id"] != source_of("walking.md") for s in plan.spans)


def test_an_empty_store_gives_an_empty_plan(tmp_path: Path) -> None:
    empty = SqliteEvidenceStore(tmp_path / "empty.sqlite")
    try:
        plan = Planner(empty, FakeEmbedder()).plan(WALKING)
    finally:
        empty.close()
    assert plan.spans == () and plan.tokens == 0 and plan.to_trace() == []


@pytest.mark.parametrize(
    "changes",
    [{"budget_tokens": 0}, {"max_source_share": 0.0}, {"max_source_share": 1.5}, {"depth": -1}],
)
def test_bad_planner_settings_say_what_is_wrong(changes: dict[str, float]) -> None:
    with pytest.raises(ConfigurationError):
        PlannerSettings(**changes)  # type: ignore[arg-type]
