"""Ingestion on the real SQLite store: idempotence, quarantine, versions, spans, search, erasure,
and a real process killed mid-ingest that resumes with nothing lost or duplicated."""

from __future__ import annotations

import dataclasses
import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import process_kit
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument, ParsedDocument
from spanproof.core.store import MASK, SearchFilter
from spanproof.ingest.files import iter_path
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.search import search
from spanproof.services.spans import SpanAddress, find_quotation, resolve
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder

PARSE = build_parser()


def write_corpus(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "walking.txt").write_text(
        "Walking and blood pressure\n\nDaily walking for 30 minutes lowered systolic blood "
        "pressure by 5 mmHg after 12 weeks. The effect was larger in older adults.\n",
        encoding="utf-8",
    )
    (folder / "sleep.md").write_text(
        "# Sleep and cortisol\n\n## Results\n\nParticipants who slept fewer than 6 hours had "
        "higher evening cortisol.\n",
        encoding="utf-8",
    )
    (folder / "broken.xml").write_bytes(b"<article><front><title>Trunc")


def ingest_folder(store: SqliteEvidenceStore, folder: Path) -> list[str]:
    return [ingest(store, fetched, sid, PARSE).status for sid, fetched in iter_path(folder)]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    s = SqliteEvidenceStore(tmp_path / "store.sqlite")
    yield s
    s.close()


def test_ingest_is_idempotent_and_quarantines_with_raw_bytes_kept(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus)
    assert sorted(ingest_folder(store, corpus)) == ["new", "new", "quarantined"]
    before = store.stats()
    assert sorted(ingest_folder(store, corpus)) == ["duplicate", "duplicate", "duplicate"]
    assert store.stats() == before
    broken = store.get_source(f"file:{(corpus / 'broken.xml').resolve()}")
    assert broken is not None
    (version,) = store.versions(broken.id)
    assert version.state == "quarantined" and version.reason.startswith("corrupt_xml")
    assert store.get_blob(version.sha256) == b"<article><front><title>Trunc"
    assert store.measurements(f"file:{(corpus / 'walking.txt').resolve()}")


def test_of_two_ingests_of_the_same_bytes_at_once_one_is_new_the_other_a_duplicate(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    # While one ingest parses, another (a second process, or API request) ingests the same
    # bytes from start to end: both once reported "new" (or "quarantined"), and an API upload
    # answered 201 Created to each. The one that stores the version second is a duplicate.
    corpus = tmp_path / "corpus"
    write_corpus(corpus)
    for sid, fetched in iter_path(corpus):
        others: list[str] = []

        def parse_while_another_ingests(
            raw: bytes,
            media_type: str,
            sid: str = sid,
            fetched: FetchedDocument = fetched,
            others: list[str] = others,
        ) -> ParsedDocument:
            if not others:
                others.append(ingest(store, fetched, sid, PARSE).status)
            return PARSE(raw, media_type)

        late = ingest(store, fetched, sid, parse_while_another_ingests)
        assert others in (["new"], ["quarantined"])
        assert late.status == "duplicate"
        (version,) = store.versions(sid)
        assert version.state in ("parsed", "quarantined")
    assert store.stats()["versions"] == 3


def test_a_changed_file_adds_a_version_and_old_spans_still_resolve(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus)
    ingest_folder(store, corpus)
    sid = f"file:{(corpus / 'walking.txt').resolve()}"
    assert [v.number for v in store.versions(sid)] == [1]
    section = next(s for s in store.sections(sid, 1) if "5 mmHg" in s.text)
    quote = "lowered systolic blood\n pressure by 5 mmHg"
    match = find_quotation(section.text, quote)
    assert match.found
    span = SpanAddress(sid, 1, section.key, match.start, match.end, quote)
    assert resolve(store, span).ok
    (corpus / "walking.txt").write_text("Walking\n\nDaily walking changed nothing.\n")
    assert ingest_folder(store, corpus).count("new") == 1
    assert [v.number for v in store.versions(sid)] == [1, 2]
    assert resolve(store, span).ok  # v1 is never rewritten
    wrong = SpanAddress(sid, 1, section.key, match.start, match.end, "raised blood pressure")
    assert not resolve(store, wrong).ok


def test_one_article_under_several_source_ids_is_stored_under_each(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    # The same article as two files, then through a connector naming its DOI: every copy is
    # stored (nothing refused, the rest of the folder still ingested), and the first keeps the ids.
    jats = (Path(__file__).parents[1] / "fixtures" / "parsers" / "jats_article.xml").read_bytes()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.xml").write_bytes(jats)
    (corpus / "b.xml").write_bytes(jats)
    (corpus / "c.txt").write_text("Metformin lowered fat storage.\n", encoding="utf-8")
    assert ingest_folder(store, corpus) == ["new", "new", "new"]
    first = store.get_source(f"file:{(corpus / 'a.xml').resolve()}")
    second = store.get_source(f"file:{(corpus / 'b.xml').resolve()}")
    assert first is not None and second is not None
    assert first.external_ids["doi"] == "10.1016/j.jlr.2023.100342"
    assert second.external_ids == {}
    work = FetchedDocument(
        "crossref", {"doi": "10.1016/J.JLR.2023.100342"}, "text/plain", b"Metformin and fat.\n"
    )
    outcome = ingest(store, work, "doi:10.1016/j.jlr.2023.100342", PARSE)
    assert outcome.status == "new"
    holder = store.find_source("doi", "10.1016/j.jlr.2023.100342")
    assert holder is not None and holder.id == first.id


def test_a_new_version_renames_the_source_and_adds_the_ids_it_gained(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    note = tmp_path / "note.md"
    note.write_text("# Draft title\n\nAspirin eased pain.\n", encoding="utf-8")
    sid = f"file:{note.resolve()}"
    assert [o.status for o in (ingest(store, f, s, PARSE) for s, f in iter_path(note))] == ["new"]
    note.write_text("# Final title\n\nAspirin eased pain.\n", encoding="utf-8")
    assert [o.status for o in (ingest(store, f, s, PARSE) for s, f in iter_path(note))] == ["new"]
    assert (source := store.get_source(sid)) is not None and source.title == "Final title"
    # a JATS file that gains its DOI in a new version
    jats = (Path(__file__).parents[1] / "fixtures" / "parsers" / "jats_article.xml").read_text()
    paper = tmp_path / "paper.xml"
    doi_line = next(line for line in jats.splitlines(True) if 'pub-id-type="doi"' in line)
    paper.write_text(jats.replace(doi_line, ""), encoding="utf-8")
    for sid, fetched in iter_path(paper):
        assert ingest(store, fetched, sid, PARSE).status == "new"
    assert (source := store.get_source(sid)) is not None and "doi" not in source.external_ids
    paper.write_text(jats, encoding="utf-8")
    for sid, fetched in iter_path(paper):
        assert ingest(store, fetched, sid, PARSE).status == "new"
    assert (source := store.get_source(sid)) is not None
    assert source.external_ids["doi"] == "10.1016/j.jlr.2023.100342"
    # a title the fetching service gave stays
    work = FetchedDocument("crossref", {}, "text/markdown", b"# Parsed\n\nText.\n", title="Given")
    ingest(store, work, "doi:10.5555/given", PARSE)
    ingest(
        store, dataclasses.replace(work, raw=b"# Parsed 2\n\nText.\n"), "doi:10.5555/given", PARSE
    )
    assert (source := store.get_source("doi:10.5555/given")) is not None and source.title == "Given"


def test_a_pubmed_file_of_several_articles_gives_one_source_per_article(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    efetch = Path(__file__).parents[1] / "fixtures" / "parsers" / "pubmed_efetch.xml"
    export = tmp_path / "export.xml"
    export.write_bytes(efetch.read_bytes())
    outcomes = [ingest(store, f, sid, PARSE) for sid, f in iter_path(export)]
    where = f"file:{export.resolve()}"
    assert [(o.source_id, o.status) for o in outcomes] == [
        (f"{where}#pmid:37011223", "new"),
        (f"{where}#pmid:36100042", "new"),
        (f"{where}#pmid:35500777", "quarantined"),  # a letter: no abstract
    ]
    source = store.get_source(f"{where}#pmid:37011223")
    assert source is not None and source.external_ids["pmid"] == "37011223"
    assert source.title.startswith("Dietary restriction lowers hepatic triglycerides")
    again = [ingest(store, f, sid, PARSE).status for sid, f in iter_path(export)]
    assert again == ["duplicate"] * 3


def test_search_is_hybrid_filters_retracted_and_never_serves_erased_text(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus)
    ingest_folder(store, corpus)
    embedder = FakeEmbedder()
    assert embed_pending(store, embedder) == store.stats()["chunks"]
    assert embed_pending(store, embedder) == 0  # resumable: nothing left
    hits = search(store, "evening cortisol sleep", embedder=embedder, limit=3)
    assert hits and "cortisol" in hits[0].chunk.text
    sleep_id = hits[0].chunk.source_id
    store.set_status(sleep_id, "retracted")
    assert all(h.chunk.source_id != sleep_id for h in search(store, "cortisol", embedder=embedder))
    everything = SearchFilter(eligible_only=False)
    assert search(store, "cortisol", embedder=embedder, flt=everything)
    store.set_status(sleep_id, "active")
    chunk = hits[0].chunk
    at = chunk.text.index("cortisol")
    store.add_erasure(
        sleep_id, chunk.version, chunk.section_key, chunk.start + at, chunk.start + at + 8, "gdpr"
    )
    section = store.section(sleep_id, chunk.version, chunk.section_key)
    assert section is not None and "cortisol" not in section.text and MASK * 8 in section.text
    assert not search(store, "cortisol", embedder=embedder, mode="keyword")
    span = SpanAddress(
        sleep_id, chunk.version, chunk.section_key, chunk.start + at, chunk.start + at + 8, "x"
    )
    assert "erasure" in resolve(store, span).reason


def _scifact_line(doc_id: int, text: str) -> str:
    return json.dumps({"doc_id": doc_id, "title": "t", "abstract": [text]}) + "\n"


def test_a_jsonl_line_nested_too_deeply_is_quarantined_not_a_crash(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    deep = "[" * 100_000 + "\n"
    first = tmp_path / "deep-first.jsonl"
    first.write_text(deep + _scifact_line(1, "Aspirin eased pain."), encoding="utf-8")
    later = tmp_path / "deep-later.jsonl"
    later.write_text(_scifact_line(2, "Caffeine kept mice awake.") + deep, encoding="utf-8")
    outcomes = [ingest(store, f, sid, PARSE) for p in (first, later) for sid, f in iter_path(p)]
    assert [o.status for o in outcomes][-2:] == ["new", "quarantined"]
    assert outcomes[-1].source_id == "scifact:deep-later.jsonl:line-2"
    assert "nested too deeply" in outcomes[-1].reason


def test_a_corpus_whose_first_line_is_blank_or_broken_is_still_a_corpus(
    store: SqliteEvidenceStore, tmp_path: Path
) -> None:
    blank = tmp_path / "blank-first.jsonl"
    blank.write_text("\n" + _scifact_line(1, "Aspirin.") + _scifact_line(2, "Caffeine."))
    broken = tmp_path / "broken-first.jsonl"
    broken.write_text('{"doc_id": 3, "title": "cut\n' + _scifact_line(4, "Zinc."))
    outcomes = [ingest(store, f, sid, PARSE) for p in (blank, broken) for sid, f in iter_path(p)]
    assert [(o.source_id, o.status) for o in outcomes] == [
        ("scifact:1", "new"),
        ("scifact:2", "new"),
        ("scifact:broken-first.jsonl:line-1", "quarantined"),
        ("scifact:4", "new"),
    ]


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from spanproof.bootstrap import build_parser
    from spanproof.ingest.files import iter_path
    from spanproof.services.ingestion import embed_pending, ingest
    from spanproof.store.sqlite.store import SqliteEvidenceStore
    from spanproof.testing.fakes import FakeEmbedder

    store = SqliteEvidenceStore(sys.argv[1])
    parse = build_parser()
    for sid, fetched in iter_path(Path(sys.argv[2])):
        ingest(store, fetched, sid, parse)
        print("ingested", flush=True)
    def tick(n):
        print("embedded", flush=True)
    embed_pending(store, FakeEmbedder(), batch_size=8, progress=tick)
    print("done", flush=True)
    store.close()
    """
)


def run_ingest(db: Path, corpus: Path, kill_after: str | None = None, count: int = 1) -> None:
    process_kit.run_child([sys.executable, "-c", CHILD, str(db), str(corpus)],
                          kill_after=kill_after, count=count, timeout=120)  # fmt: skip


@pytest.mark.parametrize(("stage", "count"), [("ingested", 60), ("embedded", 5)])
def test_a_process_killed_mid_ingest_resumes_with_nothing_lost_or_duplicated(
    tmp_path: Path, stage: str, count: int
) -> None:
    corpus = process_kit.text_corpus(tmp_path / "corpus", 150)
    killed = tmp_path / "killed.sqlite"
    clean = tmp_path / "clean.sqlite"
    run_ingest(killed, corpus, kill_after=stage, count=count)
    partial = SqliteEvidenceStore(killed)
    stats = partial.stats()
    partial.close()
    if stage == "ingested":
        assert 0 < stats["sources"] < 150
    else:
        assert stats["sources"] == 150 and stats["embeddings"] < stats["chunks"]
    run_ingest(killed, corpus)
    run_ingest(clean, corpus)
    a, b = SqliteEvidenceStore(killed), SqliteEvidenceStore(clean)
    try:
        assert a.stats() == b.stats()
        assert a.stats()["embeddings"] == a.stats()["chunks"]
        ids = sorted(s.id for s in a.list_sources(limit=1000))
        assert ids == sorted(s.id for s in b.list_sources(limit=1000))
        for sid in ids[:20]:
            assert [v.sha256 for v in a.versions(sid)] == [v.sha256 for v in b.versions(sid)]
            assert json.dumps([c.text for c in a.chunks(sid)]) == json.dumps(
                [c.text for c in b.chunks(sid)]
            )
    finally:
        a.close()
        b.close()
