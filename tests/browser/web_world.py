"""The web UI tests' world: a small store with one answered question, and a FastAPI app that
serves only the web UI's router (not the HTTP API's ``create_app``), with the security headers
``create_app`` adds (the Content-Security-Policy above all)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI

from spanproof.api import errors
from spanproof.api.security_headers import SecurityHeaders
from spanproof.api.state import AppState
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.records import CheckResult, Record, Verdict
from spanproof.core.trace import Trace
from spanproof.services.answering import Engine
from spanproof.services.generation import ExtractiveGenerator
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.records import extract_records, verify_record
from spanproof.services.replay import RecordingEmbedder
from spanproof.services.verification_trace import verification_trace
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verifier import Verifier, to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.relevance import RELEVANCE_V1_LEXICAL
from spanproof.verify.scoring import score_model
from spanproof.web.routes import install

SOURCE_ID = "file:demo/walking study.md"
EVIL_ID = "file:demo/evil.md"
EVIL_TITLE = "<script>alert('x')</script> Evil"
QUESTION = "What did daily walking do to blood pressure?"
WALKING = b"""# Daily walking and blood pressure

## Methods

We randomised 240 adults aged 40 to 75 with mild hypertension to daily walking or usual care.
The walking group walked briskly for 30 minutes every day for 12 weeks.

## Results

Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 weeks compared
with usual care. Diastolic blood pressure fell by 2 mmHg. Eight percent of the walking group
dropped out.
"""
EVIL = b"""# Tree canopy

## Results

Blocks with more tree canopy were 2 degrees cooler <b>at noon</b> & quieter.
"""


@dataclass(frozen=True)
class WebFixture:
    state: AppState
    store: SqliteEvidenceStore
    app: FastAPI
    trace: Trace


@contextmanager
def web_world(tmp_path: Path) -> Iterator[WebFixture]:
    store = SqliteEvidenceStore(tmp_path / "store.sqlite")
    embedder = FakeEmbedder()
    parse = build_parser()
    ingest(
        store,
        FetchedDocument("file", {}, "text/markdown", WALKING, title="Walking"),
        SOURCE_ID,
        parse,
    )
    ingest(
        store, FetchedDocument("file", {}, "text/markdown", EVIL, title=EVIL_TITLE), EVIL_ID, parse
    )
    embed_pending(store, embedder)
    state = app_state(store, embedder=embedder)
    engine = state.engine
    answer = engine.ask(QUESTION)
    assert answer.trace_id is not None
    trace = store.get_trace(answer.trace_id)
    assert trace is not None and trace.claims
    app = FastAPI()
    app.state.spanproof = state
    errors.install(app)  # the error handlers create_app installs: pages answer HTML errors
    install(app)
    app.add_middleware(SecurityHeaders)  # as create_app: the pages run under their CSP
    yield WebFixture(state, store, app, trace)
    store.close()


CONTRADICTED_DRAFT = (
    "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 weeks [S1]. "
    "Sodium restriction to 1,500 mg per day reduced diastolic blood pressure [S2]. "
    "Walking also cured diabetes in 40% of participants."
)
CONTRADICTED_EVIDENCE = [
    {
        "id": "S1",
        "text": "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 "
        "weeks.",
    },
    {
        "id": "S2",
        "text": "Sodium restriction to 1,500 mg per day did not change diastolic blood pressure.",
    },
]


def contradicted_trace(draft: str | None = None, question: str = "") -> Trace:
    """The (unsealed) trace of a verification under flag: supported, contradicted, unsupported
    (of ``draft``, by default the one whose claims get those verdicts), answering ``question``
    when one is given."""
    model = score_model("v2")
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=RuleBasedDecomposer(), score_model=model)
    evidence = to_evidence(CONTRADICTED_EVIDENCE)
    report = verifier.verify(
        draft or CONTRADICTED_DRAFT, evidence, policy="flag", question=question
    )
    request = {"mode": "draft", "policy": "flag", **({"question": question} if question else {})}
    return verification_trace(report, evidence, report.claims, recorder, model, request)


def expected_mark(store: SqliteEvidenceStore, trace: Trace, claim_index: int = 0) -> str:
    """The exact source characters of a claim's best span, computed from the store."""
    best = trace.claims[claim_index]["best_span"]
    entry = next(e for e in trace.plan if e["id"] == best["id"])
    section = store.section(entry["source_id"], entry["version"], entry["section_key"])
    assert section is not None
    start = entry["start"] + best["start"]
    end = entry["start"] + best["end"]
    return section.text[start:end]


CLAIMS_EVIDENCE = [
    {
        "id": "trial-2024",
        "title": "Walking trial, results section",
        "text": "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 "
        "weeks.",
    },
    {
        "id": "sodium-review",
        "title": "Sodium review",
        "text": "Sodium restriction to 1,500 mg per day did not change diastolic blood pressure.",
    },
]
CLAIMS = [
    "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg.",
    "Walking cured diabetes in 40% of participants.",
]


def claims_trace() -> Trace:
    """The (unsealed) trace of claims sent without a draft, with titled evidence."""
    model = score_model("v2")
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=RuleBasedDecomposer(), score_model=model)
    evidence = to_evidence(CLAIMS_EVIDENCE)
    report = verifier.check_claims(CLAIMS, evidence)
    request = {"mode": "claims", "evidence": len(evidence), "claims": len(CLAIMS)}
    return verification_trace(report, evidence, report.claims, recorder, model, request)


def more_sources(store: SqliteEvidenceStore, n: int) -> list[str]:
    """``n`` small extra sources (``file:extra/NN.md``), ingested and unembedded."""
    parse = build_parser()
    ids = []
    for i in range(n):
        body = f"# Extra study {i:02d}\n\n## Results\n\nCohort {i} slept {i % 7 + 5} hours.\n"
        source_id = f"file:extra/{i:02d}.md"
        doc = FetchedDocument("file", {}, "text/markdown", body.encode(), title=f"Extra {i:02d}")
        ingest(store, doc, source_id, parse)
        ids.append(source_id)
    return ids


def corrupt_source(store: SqliteEvidenceStore) -> str:
    """A source whose only version is quarantined (bytes that are not UTF-8 text)."""
    source_id = "file:demo/broken.md"
    doc = FetchedDocument("file", {}, "text/markdown", b"\xff\xfe\x00\x00bad", title="Broken")
    ingest(store, doc, source_id, build_parser())
    return source_id


OFF_TOPIC = "What is the capital of France?"
PROPOSITION = "Is it true that daily walking raised systolic blood pressure?"


def relevance_engine(world: WebFixture) -> Engine:
    """The world's engine with the coverage-only relevance model: it abstains from questions
    the sources do not answer and records relevance in every trace."""
    embedder = FakeEmbedder()
    return Engine(
        store=world.store,
        traces=world.store,
        embedder=embedder,
        decomposer=RuleBasedDecomposer(),
        generator=ExtractiveGenerator(embedder),
        score_model=score_model("v2"),
        relevance=RELEVANCE_V1_LEXICAL,
    )


def asked(world: WebFixture, question: str) -> Trace:
    """The stored trace of ``question`` asked through :func:`relevance_engine`."""
    answer = relevance_engine(world).ask(question)
    assert answer.trace_id is not None
    trace = world.store.get_trace(answer.trace_id)
    assert trace is not None
    return trace


def _ambiguous(record: Record, passages: Sequence[str]) -> Verdict:
    """A record checker whose every check passes with the label ``ambiguous``: review."""
    names = ("negation", "scope", "species", "treatment", "endpoint")
    return Verdict("ambiguous", tuple(CheckResult(n, True, "", "q") for n in names), "fake")


def queue_for_review(store: SqliteEvidenceStore, n: int = 2) -> list[Record]:
    """The first ``n`` records extracted from the walking study, each sent to review."""
    records = extract_records(store, SOURCE_ID)[:n]
    assert len(records) == n
    for record in records:
        assert verify_record(store, record, checker=_ambiguous).outcome == "review"
    return records
