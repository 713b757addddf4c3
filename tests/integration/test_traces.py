"""Traces end to end: written through the store, tampered with in SQL, caught by the chain check,
the replay and ``spanproof trace verify``; ``trace show`` on a real SQLite file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from pg_fixtures import fresh_database
from spanproof.cli.main import cli
from spanproof.core.errors import StoreError
from spanproof.core.models import Claim, ErasedRange, EvidenceSpan
from spanproof.core.ports import Embedder
from spanproof.core.trace import Trace, check_chain, plan_hash, scrub
from spanproof.services.replay import RecordingEmbedder, replay, trace_embeddings
from spanproof.services.verification import score_all
from spanproof.store.postgres import PostgresEvidenceStore
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.scoring import ScoreModel, score_model

SPANS = (
    EvidenceSpan(
        "S1",
        "Aspirin reduced the risk of stroke by 20% in the 2019 trial. It did not change "
        "overall mortality. Bleeding was more common with aspirin.",
        source={"source_id": "demo:aspirin", "version": 1, "section_key": "abstract"},
    ),
    EvidenceSpan(
        "S2",
        "Vitamin D supplements did not prevent fractures in older adults.",
        source={"source_id": "demo:vitd", "version": 2, "section_key": "results"},
    ),
    EvidenceSpan(
        "S3",
        "Metformin lowered HbA1c by 1.1 points over a year.",
        erased=(ErasedRange(0, 9),),
    ),
    EvidenceSpan("H1", "Summary: aspirin is good for everything.", truth_class=False),
)
DRAFT = (
    "Aspirin reduced stroke risk by 20% [S1]. Aspirin reduced stroke risk by 35% [S1]. "
    "Vitamin D prevented fractures in older adults [S2]. Metformin lowered HbA1c by 1.1 points."
    " Cats sleep most of the day."
)


def _claims() -> list[Claim]:
    texts = [
        ("Aspirin reduced stroke risk by 20%.", ("S1",)),
        ("Aspirin reduced stroke risk by 35%.", ("S1",)),
        ("Vitamin D prevented fractures in older adults.", ("S2",)),
        ("Metformin lowered HbA1c by 1.1 points.", ()),
        ("Cats sleep most of the day.", ()),
    ]
    out = []
    for n, (text, markers) in enumerate(texts, start=1):
        start = DRAFT.index(text[:-1])
        out.append(Claim(f"c{n}", text, (start, start + len(text) - 1), markers))
    return out


def _plan(spans: Sequence[EvidenceSpan]) -> list[dict[str, object]]:
    plan: list[dict[str, object]] = []
    for span in spans:
        entry: dict[str, object] = {
            "marker": span.id,
            "id": span.id,
            "text": span.text,
            "truth_class": span.truth_class,
            **span.source,
        }
        if span.erased:
            entry["erased"] = [[r.start, r.end] for r in span.erased]
        plan.append(entry)
    return plan


def scored_trace(
    embedder: Embedder,
    model: ScoreModel,
    *,
    spans: Sequence[EvidenceSpan] = SPANS,
    claims: Sequence[Claim] | None = None,
    record: bool = True,
) -> Trace:
    """A verification trace written the way the engine writes one."""
    claims = _claims() if claims is None else list(claims)
    scorer: Embedder = RecordingEmbedder(embedder) if record else embedder
    verdicts, status = score_all(claims, spans, scorer, model)
    plan = _plan(spans)
    return Trace(
        kind="verification",
        request=scrub({"draft": DRAFT, "api_key": "sk-never-stored"}),
        plan=plan,
        plan_hash=plan_hash(plan),
        prompt_hash="",
        models={
            "embed": embedder.model_id,
            "embed_hash": embedder.model_hash,
            "score_model": model.name,
            "decompose": "given",
        },
        draft=DRAFT,
        claims=[v.to_dict() for v in verdicts],
        verification=status,
        delivered=DRAFT,
        embeddings=trace_embeddings(claims, spans, scorer, model),
    )


class WindowedFakeEmbedder(FakeEmbedder):
    """The fake embedder with overlapping 48-character windows, like a model with a short input."""

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        if len(text) <= 48:
            return [(0, len(text))]
        return [(start, min(start + 48, len(text))) for start in range(0, len(text) - 24, 24)]


def run(*args: str) -> tuple[int, str, str]:
    # A wide terminal, so rich wraps no table cell and the output reads as printed.
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, env={"COLUMNS": "250"})
    return result.exit_code, result.stdout, result.stderr


# replay ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("model_name", ["v1", "v2"])
@pytest.mark.parametrize("embedder", [FakeEmbedder(), WindowedFakeEmbedder()], ids=["one", "many"])
@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_trace_written_with_trace_embeddings_replays_exactly(
    embedder: Embedder, model_name: str, record: bool
) -> None:
    trace = scored_trace(embedder, score_model(model_name), record=record)
    verdicts = {c["verdict"] for c in trace.claims}
    assert {"supported", "unsupported", "evidence_redacted"} <= verdicts
    assert trace.verification == "verified"
    result = replay(trace)
    assert result.differences == []
    assert result.ok and result.claims_checked == 5


def test_windows_are_recorded_per_span_and_hints_are_never_embedded() -> None:
    trace = scored_trace(WindowedFakeEmbedder(), score_model("v2"))
    spans = {w["span"] for w in trace.embeddings["windows"]}
    assert spans == {0, 1, 2}  # H1 (index 3) is a cache-class hint
    assert len(trace.embeddings["windows"]) > 3
    assert len(trace.embeddings["claims"]) == 5


def test_a_recording_embedder_spares_the_second_embedding_call() -> None:
    embedder = FakeEmbedder()
    scored_trace(embedder, score_model("v2"))
    assert embedder.calls == 1


@pytest.mark.model
@pytest.mark.parametrize("model_name", ["v1", "v2"])
def test_replay_reproduces_the_minilm_scoring_bit_for_bit(model_name: str) -> None:
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder

    embedder = OnnxMiniLMEmbedder()
    filler = (
        "The committee met on a rainy afternoon to review the building plans. "
        "Several members asked about the parking arrangements near the library. "
    ) * 16
    long_span = EvidenceSpan(
        "S4", filler + "Participants who took the iron supplement had higher haemoglobin levels."
    )
    assert len(embedder.window_ranges(long_span.text)) > 1
    claims = [*_claims()[:3], Claim("c6", "The iron supplement raised haemoglobin levels.")]
    trace = scored_trace(
        embedder, score_model(model_name), spans=(*SPANS, long_span), claims=claims
    )
    assert any(w["span"] == 4 for w in trace.embeddings["windows"])
    result = replay(trace)
    assert result.differences == []
    assert result.ok and result.claims_checked == 4


def test_a_trace_sealed_with_a_wrong_verdict_fails_replay() -> None:
    trace = scored_trace(FakeEmbedder(), score_model("v2"))
    assert trace.claims[0]["verdict"] == "supported"
    claims = [dict(c) for c in trace.claims]
    claims[0]["verdict"] = "unsupported"
    claims[1]["score"] = claims[1]["score"] + 1e-12
    result = replay(replace(trace, claims=claims))
    assert not result.ok
    assert result.differences == [
        "claim c1: verdict stored 'unsupported', replay gives 'supported'",
        f"claim c2: score stored {claims[1]['score']!r}, replay gives {trace.claims[1]['score']!r}",
    ]


def test_a_trace_without_vectors_or_with_other_texts_does_not_replay() -> None:
    trace = scored_trace(FakeEmbedder(), score_model("v1"))
    bare = replay(replace(trace, embeddings={}))
    assert not bare.ok and "holds no vectors" in bare.differences[0]
    plan = [dict(entry) for entry in trace.plan]
    plan[0]["text"] = str(plan[0]["text"]).replace("20%", "twenty percent")
    moved = replay(replace(trace, plan=plan))
    assert not moved.ok
    assert moved.differences[0] == "the plan does not match its plan_hash"
    assert "first differ at text 5" in moved.differences[1]
    unknown = replay(replace(trace, models={**trace.models, "score_model": "v99"}))
    assert not unknown.ok and "v99" in unknown.differences[0]


def test_an_unavailable_verification_replays_when_it_scored_nothing() -> None:
    trace = scored_trace(FakeEmbedder(), score_model("v2"))
    unavailable = replace(trace, verification="unavailable: no embedder configured", claims=[])
    assert replay(unavailable).ok
    assert not replay(replace(unavailable, claims=trace.claims)).ok


# tampering in SQLite ---------------------------------------------------------------------------
@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    """A SQLite store file holding three traces written through ``append``."""
    path = tmp_path / "traces.sqlite"
    embedder = FakeEmbedder()
    with SqliteEvidenceStore(path) as store:
        for model_name in ("v1", "v2", "v2"):
            store.append(scored_trace(embedder, score_model(model_name)))
    yield path


def _traces(path: Path) -> list[Trace]:
    with SqliteEvidenceStore(path) as store:
        return store.chain()


#: What a body must hold for the triggers to let it change (an erasure's record).
_ERASURE_MARK = '"erased":{"erasures":[1]}'


def _tamper(path: Path, seq: int, trace: Trace, *, hash_column: str | None = None) -> None:
    """Rewrite row ``seq`` with ``trace``'s JSON, with the immutability triggers dropped."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TRIGGER traces_no_update")
        conn.execute(
            "UPDATE traces SET body = ?, hash = coalesce(?, hash) WHERE seq = ?",
            (trace.to_json(), hash_column, seq),
        )
        conn.commit()
    finally:
        conn.close()


def test_rows_cannot_be_changed_or_deleted_while_the_triggers_stand(db: Path) -> None:
    conn = sqlite3.connect(db)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="never changed or deleted"):
            conn.execute("UPDATE traces SET kind = 'x' WHERE seq = 1")
        # the body changes only to record an erasure, and then nothing else may change
        with pytest.raises(sqlite3.IntegrityError, match="never changed or deleted"):
            conn.execute("UPDATE traces SET body = replace(body, 'supported', 'x') WHERE seq = 1")
        with pytest.raises(sqlite3.IntegrityError, match="never changed or deleted"):
            conn.execute(
                "UPDATE traces SET body = body || ?, created_at = 'x' WHERE seq = 1",
                (_ERASURE_MARK,),
            )
        with pytest.raises(sqlite3.IntegrityError, match="never changed or deleted"):
            conn.execute("DELETE FROM traces WHERE seq = 3")
    finally:
        conn.close()
    assert check_chain(_traces(db)) == []


def test_a_verdict_changed_in_sql_breaks_the_chain_and_trace_verify_fails(db: Path) -> None:
    second = _traces(db)[1]
    conn = sqlite3.connect(db)
    try:
        (body,) = conn.execute("SELECT body FROM traces WHERE seq = 2").fetchone()
        conn.execute("DROP TRIGGER traces_no_update")
        changed = body.replace('"verdict":"supported"', '"verdict":"unsupported"', 1)
        assert changed != body
        conn.execute("UPDATE traces SET body = ? WHERE seq = 2", (changed,))
        conn.commit()
    finally:
        conn.close()
    problems = check_chain(_traces(db))
    assert [(p.seq, p.trace_id, p.problem) for p in problems] == [
        (2, second.id, "content does not match its hash")
    ]
    code, out, err = run("trace", "verify", "--all", "--db", str(db))
    assert code == 6
    assert "content does not match its hash" in out
    assert "verdict stored 'unsupported', replay gives 'supported'" in out
    assert "error: trace verification failed: 1 chain problem, 1 trace does not replay" in err


def test_a_tampered_score_with_its_hash_recomputed_breaks_the_next_link(db: Path) -> None:
    second = _traces(db)[1]
    claims = [dict(c) for c in second.claims]
    claims[0]["score"] = 0.99
    forged = replace(second, claims=claims)
    forged = replace(forged, hash=forged.compute_hash())
    _tamper(db, 2, forged, hash_column=forged.hash)
    traces = _traces(db)
    assert traces[1].hash == traces[1].compute_hash()  # consistent on its own
    problems = check_chain(traces)
    assert [(p.seq, p.problem) for p in problems] == [
        (3, "prev_hash does not match the previous trace")
    ]
    code, out, err = run("trace", "verify", second.id, "--db", str(db), "--json")
    assert code == 6
    report = json.loads(out)
    assert report["ok"] is False
    assert report["chain_problems"] == [
        {
            "seq": 3,
            "trace_id": traces[2].id,
            "problem": "prev_hash does not match the previous trace",
        }
    ]
    (replayed,) = report["replayed"]
    assert replayed["id"] == second.id and replayed["ok"] is False
    assert replayed["differences"][0].startswith("claim c1: score stored 0.99, replay gives ")
    assert "trace verification failed" in err


def test_a_deleted_trace_breaks_the_chain(db: Path) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute("DROP TRIGGER traces_no_delete")
        conn.execute("DELETE FROM traces WHERE seq = 2")
        conn.commit()
    finally:
        conn.close()
    problems = {p.problem for p in check_chain(_traces(db))}
    assert problems == {"expected seq 2", "prev_hash does not match the previous trace"}
    code, _, err = run("trace", "verify", "--all", "--db", str(db))
    assert code == 6 and "2 chain problems" in err


def test_a_body_that_is_not_a_trace_fails_verify_with_the_reason(db: Path) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute("DROP TRIGGER traces_no_update")
        conn.execute("UPDATE traces SET body = '{\"kind\": ' WHERE seq = 1")
        conn.commit()
    finally:
        conn.close()
    with SqliteEvidenceStore(db) as store, pytest.raises(StoreError, match="seq 1 is corrupt"):
        store.chain()
    code, _, err = run("trace", "verify", "--all", "--db", str(db))
    assert code == 6
    assert "the trace chain cannot be read" in err and "seq 1 is corrupt" in err


# the CLI on an intact chain --------------------------------------------------------------------
def test_trace_verify_passes_on_an_intact_chain(db: Path) -> None:
    code, out, err = run("trace", "verify", "--all", "--db", str(db))
    assert (code, err) == (0, "")
    assert "chain of 3 traces intact; 3 replayed" in out
    first = _traces(db)[0]
    code, out, _ = run("trace", "verify", first.id, "--db", str(db), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["ok"] is True and report["traces"] == 3 and report["chain_problems"] == []
    assert report["replayed"] == [
        {
            "id": first.id,
            "seq": 1,
            "kind": "verification",
            "ok": True,
            "claims_checked": 5,
            "differences": [],
        }
    ]


def test_trace_verify_needs_an_id_or_all_and_knows_its_ids(db: Path, tmp_path: Path) -> None:
    assert run("trace", "verify", "--db", str(db))[0] == 2
    assert run("trace", "verify", "tr_x", "--all", "--db", str(db))[0] == 2
    code, _, err = run("trace", "verify", "tr_missing", "--db", str(db))
    assert code == 2 and "unknown trace id 'tr_missing'" in err
    SqliteEvidenceStore(tmp_path / "empty.sqlite").close()
    code, out, _ = run("trace", "verify", "--all", "--db", str(tmp_path / "empty.sqlite"))
    assert code == 0 and "chain of 0 traces intact" in out
    code, _, err = run("trace", "verify", "--all", "--db", str(tmp_path / "missing.sqlite"))
    assert code == 2 and "no store at" in err


def test_trace_show_prints_the_plan_and_each_claim_with_its_best_span(db: Path) -> None:
    trace = _traces(db)[1]
    code, out, _ = run("trace", "show", trace.id, "--db", str(db))
    assert code == 0
    flat = " ".join(out.split())
    assert trace.id in flat and "verification: verified" in flat
    assert "score_model v2" in flat and "embed fake-bow" in flat
    assert "demo:aspirin v1 §abstract" in flat
    assert "(hint)" in flat
    assert "c1: Aspirin reduced stroke risk by 20%." in flat
    assert "supported" in flat and "evidence_redacted" in flat
    assert "“Aspirin reduced the risk of stroke by 20% in the 2019 trial." in flat
    assert "sk-never-stored" not in out


def test_trace_show_json_prints_the_stored_trace_exactly(db: Path) -> None:
    trace = _traces(db)[0]
    code, out, _ = run("trace", "show", trace.id, "--db", str(db), "--json")
    assert code == 0
    conn = sqlite3.connect(db)
    try:
        (body,) = conn.execute("SELECT body FROM traces WHERE id = ?", (trace.id,)).fetchone()
    finally:
        conn.close()
    assert out == body + "\n"
    assert "api_key" not in json.loads(out)["request"]
    code, _, err = run("trace", "show", "tr_missing", "--db", str(db))
    assert code == 2 and "unknown trace id" in err


# PostgreSQL ------------------------------------------------------------------------------------
def test_postgres_refuses_changes_and_tampering_is_detected() -> None:
    with fresh_database() as dsn:
        with PostgresEvidenceStore(dsn, pool_size=1) as store:
            for model_name in ("v1", "v2"):
                store.append(scored_trace(FakeEmbedder(), score_model(model_name)))
        with psycopg.connect(dsn, autocommit=True) as conn:
            for statement in (
                "UPDATE traces SET kind = 'x' WHERE seq = 1",
                "UPDATE traces SET body = replace(body, 'supported', 'partial') WHERE seq = 1",
                f"UPDATE traces SET body = body || '{_ERASURE_MARK}', hash = prev_hash"
                " WHERE seq = 2",
                "DELETE FROM traces WHERE seq = 2",
                "TRUNCATE traces",
            ):
                with pytest.raises(psycopg.errors.RestrictViolation, match="never changed"):
                    conn.execute(statement)
            conn.execute("ALTER TABLE traces DISABLE TRIGGER traces_immutable")
            conn.execute(
                'UPDATE traces SET body = replace(body, \'"verdict":"supported"\', '
                '\'"verdict":"partial"\') WHERE seq = 1'
            )
        with PostgresEvidenceStore(dsn, pool_size=1) as store:
            traces = store.chain()
        assert [(p.seq, p.problem) for p in check_chain(traces)] == [
            (1, "content does not match its hash")
        ]
        assert not replay(traces[0]).ok and replay(traces[1]).ok
