"""Artifacts, the sufficiency judgement and the impact walk end to end on real stores."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.artifacts import record_ref, source_ref
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError
from spanproof.core.store import Source
from spanproof.services import artifacts, impact
from spanproof.services.ingestion import ingest
from spanproof.services.records import extract, verify_all, verify_record
from spanproof.services.review import decide_review
from spanproof.store.sqlite import SqliteEvidenceStore

PAPER_A = b"""Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""
PAPER_B = b"""A second metformin study

Results

Metformin at 250 mg/kg reduced hepatic triglyceride content in mice compared with vehicle \
(p < 0.05).
"""


def _fetched(raw: bytes, status: str = "active") -> FetchedDocument:
    return FetchedDocument("text", {}, "text/plain", raw, title="t", status=status)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(tmp_path / "store.sqlite") as s:
        for source_id, raw in (("paper-a", PAPER_A), ("paper-b", PAPER_B)):
            assert ingest(s, _fetched(raw), source_id, build_parser()).status == "new"
            extract(s, source_id)
        verify_all(s)
        yield s


def _verified(store: SqliteEvidenceStore, source_id: str) -> list[str]:
    return [r.id for r in store.list_records(status="verified", source_id=source_id)]


def test_extraction_links_each_record_to_its_source_version(store: SqliteEvidenceStore) -> None:
    records = store.list_records(source_id="paper-a")
    assert records
    linked = {e.to_ref for e in store.edges_from(source_ref("paper-a", 1))}
    assert linked == {record_ref(r.id) for r in records}


def test_sole_affirmative_record_requires_expert_review_until_looked_at(
    store: SqliteEvidenceStore,
) -> None:
    (only, *_) = _verified(store, "paper-a")
    artifact, version = artifacts.create_assessment(store, "Does metformin cut liver fat?", [only])
    assert version.body["judgement"]["label"] == "requires_expert_review"
    view = artifacts.artifact_view(store, artifact.id)
    assert view.judgement is not None and view.judgement.awaiting_review == (only,)
    assert artifacts.expert_review_pending(store) == {only: [artifact.id]}
    decide_review(store, only, reviewer="dr. ada", decision="approve", reason="read it")
    after = artifacts.artifact_view(store, artifact.id)
    assert after.judgement is not None and after.judgement.label == "sufficient"
    assert artifacts.expert_review_pending(store) == {}
    # the stored version keeps the judgement made when it was written
    assert after.versions[0].body["judgement"]["label"] == "requires_expert_review"


def test_two_records_are_sufficient_and_unverified_ones_are_refused(
    store: SqliteEvidenceStore,
) -> None:
    ids = _verified(store, "paper-a")[:1] + _verified(store, "paper-b")[:1]
    assert len(ids) == 2
    artifact, version = artifacts.create_assessment(store, "Metformin and liver fat?", ids)
    assert version.body["judgement"]["label"] == "sufficient"
    with pytest.raises(InvalidInputError, match="exists"):
        artifacts.create_assessment(store, "Metformin and liver fat?", ids)
    with pytest.raises(InvalidInputError, match="unknown record"):
        artifacts.create_assessment(store, "q", ["rec-nope"])
    record = store.get_record(ids[0])
    assert record is not None
    store.put_record(dataclasses.replace(record, status="in_review"))
    with pytest.raises(InvalidInputError, match="only a verified record"):
        artifacts.create_assessment(store, "another question", ids)
    with pytest.raises(InvalidInputError, match="does not exist"):
        artifacts.create_artifact(store, "package", "p", ["assessment:nope"])
    package, _ = artifacts.create_artifact(store, "package", "Liver pack", [artifact.ref])
    assert store.edges_to(package.ref)[0].from_ref == artifact.ref


def test_retraction_notice_flags_everything_built_on_the_source(
    store: SqliteEvidenceStore,
) -> None:
    ids = _verified(store, "paper-a")[:1] + _verified(store, "paper-b")[:1]
    assessment, _ = artifacts.create_assessment(store, "Metformin and liver fat?", ids)
    approved = artifacts.approve(store, assessment.id, 1, "dr. ada")
    package, _ = artifacts.create_artifact(store, "package", "Liver pack", [assessment.ref])
    design, _ = artifacts.create_artifact(store, "design", "Trial design", [package.ref])
    # a retraction notice arrives through the connector: same bytes, status retracted
    ingest(store, _fetched(PAPER_B, status="retracted"), "paper-b", build_parser())
    changed = source_ref("paper-b", 1)
    [walk] = store.list_walks(status="running")
    assert walk.changed_ref == changed and walk.reason == "retracted"
    report = impact.impact(store, changed)
    assert report.flagged == 0  # started, not yet walked
    done = impact.resume_walks(store, batch=1)
    assert [w.id for w in done] == [walk.id] and done[0].steps > 1
    report = impact.impact(store, changed)
    flagged = {d.ref for d in report.dependents if d.flagged}
    paper_b_records = {record_ref(r.id) for r in store.list_records(source_id="paper-b")}
    assert flagged == paper_b_records | {assessment.ref, package.ref, design.ref}
    assert all(d.flagged for d in report.dependents)
    # the approved version is untouched; the live judgement now asks for an expert
    view = artifacts.artifact_view(store, assessment.id)
    assert view.versions[0] == approved and view.flags
    assert view.judgement is not None and view.judgement.label == "requires_expert_review"
    # the same notice again starts nothing new and flags nothing twice
    ingest(store, _fetched(PAPER_B, status="retracted"), "paper-b", build_parser())
    assert impact.resume_walks(store) == []
    assert len(store.list_flags(changed_ref=changed)) == len(flagged)


def test_a_later_correction_notice_never_lowers_a_retraction(store: SqliteEvidenceStore) -> None:
    impact.retract(store, "paper-a")  # an operator acting on a notice Crossref lacks yet
    corrected = PAPER_A + b"\nCorrected.\n"  # the work again, its reply changed: a new version
    outcome = ingest(store, _fetched(corrected, status="corrected"), "paper-a", build_parser())
    assert outcome.status == "new"
    source = store.get_source("paper-a")
    assert source is not None and source.status == "retracted"
    # a withdrawal notice does not lower it either; a retraction of a withdrawn source raises it
    ingest(store, _fetched(corrected, status="withdrawn"), "paper-a", build_parser())
    assert (s := store.get_source("paper-a")) is not None and s.status == "retracted"
    impact.retract(store, "paper-b", "withdrawn")
    ingest(store, _fetched(PAPER_B, status="retracted"), "paper-b", build_parser())
    assert (s := store.get_source("paper-b")) is not None and s.status == "retracted"


def test_a_retraction_reaches_the_same_article_stored_under_another_id(
    store: SqliteEvidenceStore,
) -> None:
    # paper-a is the article whose DOI Crossref then reports retracted, fetched as doi:…
    store.upsert_source(Source("paper-a", "text", external_ids={"doi": "10.5555/a.1"}))
    work = FetchedDocument(
        "crossref", {"doi": "10.5555/A.1"}, "text/plain", b"The work.\n", status="retracted"
    )
    assert ingest(store, work, "doi:10.5555/a.1", build_parser()).status == "new"
    source = store.get_source("paper-a")
    assert source is not None and source.status == "retracted"
    walked = {w.changed_ref for w in impact.resume_walks(store)}
    assert source_ref("paper-a", 1) in walked
    report = impact.impact(store, source_ref("paper-a", 1))
    records = {record_ref(r.id) for r in store.list_records(source_id="paper-a")}
    assert records and {d.ref for d in report.dependents if d.flagged} == records
    paper_b = store.get_source("paper-b")
    assert paper_b is not None and paper_b.status == "active"


def test_a_copy_of_a_retracted_article_arriving_later_is_retracted_too(
    store: SqliteEvidenceStore,
) -> None:
    doi = "10.1016/j.jlr.2023.100342"  # the DOI the JATS fixture names
    work = FetchedDocument(
        "crossref", {"doi": doi}, "text/plain", b"The work.\n", status="retracted"
    )
    assert ingest(store, work, f"doi:{doi}", build_parser()).status == "new"
    jats = (Path(__file__).parents[1] / "fixtures" / "parsers" / "jats_article.xml").read_bytes()
    copy = FetchedDocument("file", {}, "application/xml", jats)
    assert ingest(store, copy, "file:copy.xml", build_parser()).status == "new"
    source = store.get_source("file:copy.xml")
    assert source is not None and source.status == "retracted"
    assert source_ref("file:copy.xml", 1) in {w.changed_ref for w in impact.resume_walks(store)}


def test_rejection_and_reproposal_start_walks(store: SqliteEvidenceStore) -> None:
    first, second = _verified(store, "paper-a")[:1] + _verified(store, "paper-b")[:1]
    assessment, _ = artifacts.create_assessment(store, "Metformin and liver fat?", [first, second])
    decide_review(store, first, reviewer="eve", decision="reject", reason="misread")
    [walk] = store.list_walks(changed_ref=record_ref(first))
    assert walk.reason == "rejected"
    impact.run_walk(store, walk.id)
    assert [f.ref for f in store.list_flags(changed_ref=record_ref(first))] == [assessment.ref]
    # re-proposing a verified record (verifying it again) starts a walk of its own
    record = store.get_record(second)
    assert record is not None
    changed = dataclasses.replace(record, statement=record.statement + " Really.")
    verify_record(store, changed)
    [walk] = store.list_walks(changed_ref=record_ref(second))
    assert walk.reason == "reproposed"
    impact.run_walk(store, walk.id)
    assert [f.ref for f in store.list_flags(changed_ref=record_ref(second))] == [assessment.ref]
    # verifying the same, unchanged record again is no change: no walk
    unchanged = store.get_record(second)
    assert unchanged is not None and unchanged.status == "verified"
    verify_record(store, unchanged)
    assert len(store.list_walks(changed_ref=record_ref(second))) == 1


def test_impact_rejects_bad_refs(store: SqliteEvidenceStore) -> None:
    for bad in ("source:x", "source:x:v0", "thing:1", "record:", ""):
        with pytest.raises(InvalidInputError, match="not a ref"):
            impact.impact(store, bad)
    with pytest.raises(InvalidInputError, match="limit"):
        impact.impact(store, "record:x", limit=0)
    with pytest.raises(InvalidInputError, match="reason"):
        impact.start_walk(store, "record:x", "because")
