"""An erasure reaches the traces that read the erased text (SPEC §7: "no longer served"), on
both store dialects: their passages, answers and claims are masked in the erasure's
transaction, the hash chain still checks, the masked traces say why they no longer replay, and
neither the API nor the web page serves the erased text any more."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from pg_fixtures import dialect_store
from spanproof.api.app import create_app
from spanproof.bootstrap import build_parser
from spanproof.cli.main import cli
from spanproof.core.documents import FetchedDocument
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import check_chain, erased_unchecked
from spanproof.services.answering import Engine
from spanproof.services.erasure import erase
from spanproof.services.generation import ExtractiveGenerator
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.replay import replay
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import V45

PAPER = b"""Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle.
Exercise increased insulin sensitivity in obese mice compared with sedentary controls.
"""
SOURCE = "paper-1"
SECRET = "Metformin at 250 mg/kg"
QUESTION = "What did metformin do to hepatic triglyceride content in mice?"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EvidenceStore]:
    with dialect_store(request.param, tmp_path) as s:
        yield s


def _asked(store: EvidenceStore) -> tuple[str, str, int, int]:
    """The paper ingested and asked about twice (an answer quoting SECRET, then one that does
    not): (the first trace's id, the section key, the range of SECRET)."""
    ingest(store, FetchedDocument("text", {}, "text/plain", PAPER, title="Metformin"), SOURCE,
           build_parser())  # fmt: skip
    embedder = FakeEmbedder()
    embed_pending(store, embedder)
    engine = Engine(
        store=store,
        traces=store,  # type: ignore[arg-type]
        embedder=embedder,
        decomposer=RuleBasedDecomposer(),
        generator=ExtractiveGenerator(embedder),
        score_model=V45,
    )
    answer = engine.ask(QUESTION)
    assert SECRET in (answer.answer or "") and answer.trace_id
    engine.ask("What did exercise do to insulin sensitivity in obese mice?")
    section = next(s for s in store.sections(SOURCE, 1) if SECRET in s.text)
    start = section.text.index(SECRET)
    return answer.trace_id, section.key, start, start + len(SECRET)


def test_an_erasure_masks_the_traces_that_read_it_and_the_chain_still_checks(
    store: EvidenceStore,
) -> None:
    trace_id, key, start, end = _asked(store)
    before = store.chain()  # type: ignore[attr-defined]
    assert any(SECRET in t.to_json() for t in before)
    outcome = erase(store, SOURCE, 1, key, start, end, "GDPR #18")
    assert trace_id in outcome.traces
    assert outcome.to_dict()["traces_masked"] == list(outcome.traces)
    after = store.chain()  # type: ignore[attr-defined]
    assert [t.hash for t in after] == [t.hash for t in before]
    assert all(SECRET not in t.to_json() for t in after)
    assert check_chain(after) == [] and erased_unchecked(after) == []
    masked = store.get_trace(trace_id)  # type: ignore[attr-defined]
    assert masked.erased["erasures"] == [outcome.erasure.id]
    result = replay(masked)
    assert result.ok and "not replayed" in result.skipped
    untouched = [t for t in after if t.id not in outcome.traces]
    assert all(not t.erased and replay(t).ok for t in untouched)
    # the same range again: nothing more changes
    assert erase(store, SOURCE, 1, key, start, end, "GDPR #18").traces == ()
    assert store.chain() == after  # type: ignore[attr-defined]


def test_the_api_and_the_web_page_of_a_masked_trace_hold_no_erased_text(
    store: EvidenceStore,
) -> None:
    trace_id, key, start, end = _asked(store)
    with TestClient(create_app(app_state(store))) as client:
        assert SECRET in client.get(f"/v1/traces/{trace_id}").text
        erase(store, SOURCE, 1, key, start, end, "GDPR #18")
        for url in (f"/v1/traces/{trace_id}", f"/traces/{trace_id}", "/v1/traces", "/traces"):
            shown = client.get(url)
            assert shown.status_code == 200 and SECRET not in shown.text, url
        page = client.get(f"/traces/{trace_id}").text
        assert "was erased afterwards (erasure #1)" in page and "its hash still checks" in page


def test_trace_verify_passes_and_says_which_traces_it_did_not_replay(tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite"
    with SqliteEvidenceStore(db) as store:
        trace_id, key, start, end = _asked(store)
        read = sum(SECRET in t.to_json() for t in store.chain())
        total = len(store.chain())
    assert 0 < read < total + 1
    runner = CliRunner()
    args = ["erase", SOURCE, "--version", "1", "--section", key, "--start", str(start)]
    erased = runner.invoke(cli, [*args, "--end", str(end), "--reason", "GDPR #18", "--db", str(db)])
    assert erased.exit_code == 0, erased.output
    masked = f"{read} trace{'s' * (read != 1)} masked"
    assert masked in erased.output and trace_id in erased.output
    shown = runner.invoke(cli, ["trace", "show", trace_id, "--db", str(db)])
    assert shown.exit_code == 0 and SECRET not in shown.output and "█" in shown.output
    verified = runner.invoke(cli, ["trace", "verify", "--all", "--db", str(db)])
    assert verified.exit_code == 0, verified.output
    assert f"{total - read} replayed" in verified.output
    assert f"{read} not replayed" in verified.output
