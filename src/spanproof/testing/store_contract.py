"""The one behaviour suite every ``EvidenceStore`` backend passes (SPEC §2, §3, §7, §8).

Subclass :class:`EvidenceStoreContract` in a test module and give it a ``store`` fixture that
yields an **empty** store and closes it afterwards::

    class TestSqliteEvidenceStore(EvidenceStoreContract):
        @pytest.fixture
        def store(self, tmp_path: Path) -> Iterator[EvidenceStore]:
            with SqliteEvidenceStore(tmp_path / "store.sqlite") as store:
                yield store

Beyond the docstrings of ``spanproof.core.store``, the suite pins these conventions:

* Caller mistakes raise ``InvalidInputError``: an unknown source, version or section, an unknown
  status, offsets outside a section, a chunk whose text is not its section's slice.
* Changing what is immutable raises ``StoreError``: a stored section with other content, a version
  state once ``parsed``/``quarantined``, an external id another source already holds.
* Section ordinals count from 0 in the order first given.
* External id kinds are compared lowercase and DOI values case-insensitively.
* Scores are higher-is-better and ranks count from 1; vector scores are cosines; equal scores
  rank by chunk id.
* Erasures are masked on every read (sections, chunks, search hits); an erased chunk is neither
  keyword- nor vector-searchable, needs no embedding, and measurements over erased text are not
  served.

Tests use real stores only (no mocks). This module imports pytest, so it is for test code only.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta

import numpy as np
import pytest

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import InvalidInputError, StoreError
from spanproof.core.store import (
    MASK,
    Chunk,
    EvidenceStore,
    Measurement,
    SearchFilter,
    SearchHit,
    Source,
    Vector,
    Version,
)

MODEL = "contract-model"
ANY = SearchFilter(eligible_only=False)
ELIGIBLE = SearchFilter(eligible_only=True)

HOSTILE_QUERIES = (
    'AND OR NEAR( * "',
    '"',
    '""',
    "'",
    "\x00",
    "a\x00b",
    "\ud800",
    "(((",
    ")",
    "*",
    "^aspirin",
    "aspirin*",
    "title:aspirin",
    "-aspirin",
    "NOT aspirin",
    "aspirin AND",
    "NEAR(aspirin reduced, 2)",
    "' OR 1=1; DROP TABLE chunks; --",
    "{aspirin}",
    "\\",
    "x" * 5000,
    " ".join(["aspirin"] * 500),
    "🧬 ∑ ∫ ©",
)


def sha(raw: bytes) -> str:
    """The SHA-256 hex digest that identifies ``raw``."""
    return hashlib.sha256(raw).hexdigest()


def vec(*values: float, dim: int = 4) -> Vector:
    """A float32 vector of ``dim`` components, the given ones first and zeros after."""
    out = np.zeros(dim, dtype=np.float32)
    out[: len(values)] = values
    return out


def chunk_id(source_id: str, version: int, key: str, part: int = 0) -> str:
    """The chunk ids :func:`add_document` uses."""
    return f"{source_id}/v{version}/{key}/{part}"


def add_document(
    store: EvidenceStore,
    source_id: str,
    sections: Sequence[tuple[str, str]],
    *,
    raw: bytes | None = None,
    state: str = "parsed",
    status: str = "active",
    external_ids: dict[str, str] | None = None,
) -> Version:
    """Store a source (if new), one version of ``raw`` bytes, its sections and one chunk each.

    Args:
        store: the store under test.
        source_id: the source.
        sections: ``(key, text)`` pairs; each section becomes one whole-section chunk.
        raw: the version's bytes (default: derived from the texts).
        state: the version's state; ``quarantined`` versions get no sections or chunks.
        status: the source's status.
        external_ids: the source's external ids.
    """
    raw = raw if raw is not None else "\n".join(text for _, text in sections).encode()
    store.upsert_source(Source(source_id, "text", external_ids=external_ids or {}))
    store.set_status(source_id, status)
    store.put_blob(sha(raw), raw)
    version, _ = store.add_version(source_id, sha(raw), "text/plain")
    if state == "quarantined":
        store.set_version_state(source_id, version.number, state, reason="no_text")
        return version
    store.add_sections(
        source_id, version.number, [ParsedSection(key, key.title(), text) for key, text in sections]
    )
    store.add_chunks(
        [
            Chunk(
                chunk_id(source_id, version.number, key),
                source_id,
                version.number,
                key,
                0,
                len(text),
                text,
            )
            for key, text in sections
        ]
    )
    if state == "parsed":
        store.set_version_state(source_id, version.number, "parsed", format="text")
    return version


def is_utc_iso(stamp: str) -> bool:
    """Whether ``stamp`` is an ISO-8601 timestamp in UTC."""
    try:
        parsed = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return False
    return parsed.utcoffset() == timedelta(0)


def ids(hits: Sequence[SearchHit]) -> list[str]:
    """The chunk ids of search hits, in order."""
    return [hit.chunk.id for hit in hits]


class EvidenceStoreContract:
    """Behaviour tests every ``EvidenceStore`` passes; subclasses provide the ``store`` fixture."""

    @pytest.fixture
    def store(self) -> Iterator[EvidenceStore]:
        """An empty store; subclasses override this fixture and close the store afterwards."""
        raise NotImplementedError("subclass EvidenceStoreContract and provide a `store` fixture")

    # the port --------------------------------------------------------------------------------
    def test_store_implements_the_evidence_store_protocol(self, store: EvidenceStore) -> None:
        assert isinstance(store, EvidenceStore)

    def test_a_new_store_is_empty(self, store: EvidenceStore) -> None:
        counts = store.stats()
        for name in (
            "sources",
            "versions",
            "sections",
            "chunks",
            "embeddings",
            "measurements",
            "erasures",
        ):
            assert counts[name] == 0, name
        assert store.list_sources() == []

    # sources ---------------------------------------------------------------------------------
    def test_upsert_source_stores_and_returns_the_row(self, store: EvidenceStore) -> None:
        stored = store.upsert_source(
            Source("src-1", "europepmc", title="Aspirin trial", external_ids={"doi": "10.1/abc"})
        )
        assert (stored.id, stored.connector, stored.title, stored.status) == (
            "src-1",
            "europepmc",
            "Aspirin trial",
            "active",
        )
        assert stored.external_ids == {"doi": "10.1/abc"}
        assert is_utc_iso(stored.created_at)
        assert store.get_source("src-1") == stored

    def test_get_source_of_an_unknown_id_is_none(self, store: EvidenceStore) -> None:
        assert store.get_source("nope") is None

    def test_upsert_again_updates_title_and_merges_ids_but_keeps_status(
        self, store: EvidenceStore
    ) -> None:
        store.upsert_source(Source("a", "crossref", title="Old", external_ids={"doi": "10.1/x"}))
        store.set_status("a", "retracted")
        again = store.upsert_source(
            Source("a", "crossref", title="New", status="active", external_ids={"pmid": "123"})
        )
        assert again.title == "New"
        assert again.status == "retracted"
        assert again.external_ids == {"doi": "10.1/x", "pmid": "123"}
        assert store.stats()["sources"] == 1

    def test_find_source_by_external_id_with_case_insensitive_doi(
        self, store: EvidenceStore
    ) -> None:
        store.upsert_source(Source("a", "crossref", external_ids={"doi": "10.1/AbC", "pmid": "7"}))
        store.upsert_source(Source("b", "pubmed", external_ids={"pmid": "8"}))
        found = store.find_source("doi", "10.1/abc")
        assert found is not None and found.id == "a"
        found = store.find_source("DOI", "10.1/ABC")
        assert found is not None and found.id == "a"
        found = store.find_source("pmid", "8")
        assert found is not None and found.id == "b"
        assert store.find_source("pmid", "9") is None
        assert store.find_source("pmcid", "7") is None

    def test_an_external_id_cannot_belong_to_two_sources(self, store: EvidenceStore) -> None:
        store.upsert_source(Source("a", "crossref", external_ids={"doi": "10.1/x"}))
        with pytest.raises(StoreError):
            store.upsert_source(Source("b", "crossref", external_ids={"doi": "10.1/X"}))
        found = store.find_source("doi", "10.1/x")
        assert found is not None and found.id == "a"

    def test_list_sources_orders_by_id_and_pages(self, store: EvidenceStore) -> None:
        for source_id in ("c", "a", "d", "b"):
            store.upsert_source(Source(source_id, "text"))
        assert [s.id for s in store.list_sources()] == ["a", "b", "c", "d"]
        assert [s.id for s in store.list_sources(limit=2)] == ["a", "b"]
        assert [s.id for s in store.list_sources(limit=2, offset=2)] == ["c", "d"]
        assert store.list_sources(offset=10) == []

    def test_list_sources_takes_pages_past_any_sql_integer(self, store: EvidenceStore) -> None:
        # Past a 64-bit integer SQLite's driver raised OverflowError and PostgreSQL said "bigint
        # out of range": both now read such a page as the page past the end, or as all rows.
        store.upsert_source(Source("a", "text"))
        assert store.list_sources(offset=2**63) == []
        assert store.list_sources(offset=2**64) == []
        assert [s.id for s in store.list_sources(limit=2**64)] == ["a"]

    def test_text_with_a_nul_character_is_a_caller_mistake(self, store: EvidenceStore) -> None:
        # PostgreSQL cannot hold NUL, so neither dialect stores or looks up text with one
        # (SQLite once stored such a title and PostgreSQL failed with its driver's message).
        with pytest.raises(InvalidInputError, match="NUL"):
            store.upsert_source(Source("a", "text", title="A\x00B"))
        with pytest.raises(InvalidInputError, match="NUL"):
            store.upsert_source(Source("b", "text", external_ids={"doi": "10.1/\x00"}))
        assert store.get_source("a") is None
        with pytest.raises(InvalidInputError, match="NUL"):
            store.get_source("a\x00")
        add_document(store, "c", [("s1", "Aspirin daily.")])
        only = SearchFilter(source_ids=("c\x00",), eligible_only=False)
        with pytest.raises(InvalidInputError, match="NUL"):
            store.keyword_search("aspirin", 10, only)

    def test_list_sources_filters_by_status(self, store: EvidenceStore) -> None:
        for source_id in ("a", "b", "c"):
            store.upsert_source(Source(source_id, "text"))
        store.set_status("b", "retracted")
        assert [s.id for s in store.list_sources(status="retracted")] == ["b"]
        assert [s.id for s in store.list_sources(status="active")] == ["a", "c"]
        assert store.list_sources(status="withdrawn") == []

    def test_unknown_statuses_and_sources_are_caller_mistakes(self, store: EvidenceStore) -> None:
        store.upsert_source(Source("a", "text"))
        with pytest.raises(InvalidInputError):
            store.set_status("a", "deleted")
        with pytest.raises(InvalidInputError):
            store.set_status("nope", "retracted")
        with pytest.raises(InvalidInputError):
            store.upsert_source(Source("b", "text", status="gone"))
        source = store.get_source("a")
        assert source is not None and source.status == "active"

    # blobs and versions ----------------------------------------------------------------------
    def test_blobs_are_content_addressed_and_idempotent(self, store: EvidenceStore) -> None:
        raw = b"\x00\xffraw bytes \xe2\x82\xac"
        store.put_blob(sha(raw), raw)
        store.put_blob(sha(raw), raw)
        assert store.get_blob(sha(raw)) == raw
        assert store.get_blob(sha(b"other")) is None

    def test_versions_are_numbered_from_one_in_arrival_order(self, store: EvidenceStore) -> None:
        store.upsert_source(Source("a", "file"))
        first, created_first = store.add_version("a", sha(b"one"), "text/plain")
        second, created_second = store.add_version("a", sha(b"two"), "application/jats+xml")
        assert (first.number, second.number) == (1, 2)
        assert created_first and created_second
        assert (first.state, first.sha256, first.media_type) == (
            "pending",
            sha(b"one"),
            "text/plain",
        )
        assert is_utc_iso(first.created_at)
        assert [v.number for v in store.versions("a")] == [1, 2]
        assert store.versions("a")[1].media_type == "application/jats+xml"

    def test_the_same_bytes_again_add_no_version(self, store: EvidenceStore) -> None:
        store.upsert_source(Source("a", "file"))
        store.upsert_source(Source("b", "file"))
        first, _ = store.add_version("a", sha(b"same"), "text/plain")
        again, created = store.add_version("a", sha(b"same"), "text/plain")
        assert not created
        assert again == first
        assert len(store.versions("a")) == 1
        other, created_other = store.add_version("b", sha(b"same"), "text/plain")
        assert created_other and other.number == 1

    def test_a_version_of_an_unknown_source_is_a_caller_mistake(self, store: EvidenceStore) -> None:
        with pytest.raises(InvalidInputError):
            store.add_version("nope", sha(b"x"), "text/plain")

    def test_a_version_state_moves_from_pending_once(self, store: EvidenceStore) -> None:
        store.upsert_source(Source("a", "file"))
        store.add_version("a", sha(b"one"), "text/plain")
        store.add_version("a", sha(b"two"), "text/plain")
        assert store.set_version_state("a", 1, "parsed", format="text") is True
        # a re-run is a no-op, and says so
        assert store.set_version_state("a", 1, "parsed", format="text") is False
        assert store.set_version_state("a", 2, "quarantined", reason="corrupt_xml") is True
        assert store.set_version_state("a", 2, "quarantined", reason="corrupt_xml") is False
        one, two = store.versions("a")
        assert (one.state, one.format) == ("parsed", "text")
        assert (two.state, two.reason) == ("quarantined", "corrupt_xml")
        with pytest.raises(StoreError):
            store.set_version_state("a", 1, "quarantined", reason="no_text")
        with pytest.raises(InvalidInputError):
            store.set_version_state("a", 1, "pending")
        with pytest.raises(InvalidInputError):
            store.set_version_state("a", 9, "parsed")
        assert store.versions("a")[0].state == "parsed"

    def test_of_concurrent_moves_of_a_version_exactly_one_moves_it(
        self, store: EvidenceStore
    ) -> None:
        # Two ingests of the same bytes at once both stored the version; each reported "new"
        # (an API upload answered 201 Created to several of them). The move tells them apart.
        store.upsert_source(Source("a", "file"))
        store.add_version("a", sha(b"one"), "text/plain")
        start = threading.Barrier(4)
        moved: list[bool] = []

        def move() -> None:
            start.wait(10)
            moved.append(store.set_version_state("a", 1, "parsed", format="text"))

        threads = [threading.Thread(target=move) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(moved) == [False, False, False, True]

    def test_a_new_version_is_current_and_an_earlier_one_can_be_current_again(
        self, store: EvidenceStore
    ) -> None:
        store.upsert_source(Source("a", "file"))
        assert store.current_version("a") is None
        assert store.current_version("nope") is None
        one, _ = store.add_version("a", sha(b"one"), "text/plain")
        assert store.current_version("a") == one
        two, _ = store.add_version("a", sha(b"two"), "text/plain")
        assert store.current_version("a") == two
        # finding an earlier version's bytes changes nothing by itself
        assert store.add_version("a", sha(b"one"), "text/plain") == (one, False)
        assert store.current_version("a") == two
        assert store.make_current("a", 1) is True
        assert store.make_current("a", 1) is False
        assert store.current_version("a") == one
        assert store.versions("a") == [one, two]  # no version changed, none was added
        three, _ = store.add_version("a", sha(b"three"), "text/plain")
        assert store.current_version("a") == three
        with pytest.raises(InvalidInputError):
            store.make_current("a", 9)
        with pytest.raises(InvalidInputError):
            store.make_current("nope", 1)
        assert store.current_version("a") == three
        assert store.current_history("a") == [1, 2, 1, 3]
        assert store.current_history("nope") == []

    def test_of_concurrent_reverts_to_a_version_exactly_one_makes_it_current(
        self, store: EvidenceStore
    ) -> None:
        store.upsert_source(Source("a", "file"))
        store.add_version("a", sha(b"one"), "text/plain")
        store.add_version("a", sha(b"two"), "text/plain")
        start = threading.Barrier(4)
        changed: list[bool] = []

        def revert() -> None:
            start.wait(10)
            changed.append(store.make_current("a", 1))

        threads = [threading.Thread(target=revert) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(changed) == [False, False, False, True]
        assert store.current_version("a") == store.versions("a")[0]

    # sections --------------------------------------------------------------------------------
    def test_sections_keep_their_order_with_ordinals_from_zero(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("title", "T."), ("abstract", "A."), ("s1", "B.")])
        sections = store.sections("a", 1)
        assert [(s.key, s.ordinal) for s in sections] == [("title", 0), ("abstract", 1), ("s1", 2)]
        assert [s.text for s in sections] == ["T.", "A.", "B."]
        assert sections[1].title == "Abstract"

    def test_adding_the_same_sections_again_changes_nothing(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Aspirin reduced pain."), ("s1", "More text.")])
        before = store.sections("a", 1)
        store.add_sections(
            "a",
            1,
            [
                ParsedSection("abstract", "Abstract", "Aspirin reduced pain."),
                ParsedSection("s1", "S1", "More text."),
            ],
        )
        assert store.sections("a", 1) == before
        assert store.stats()["sections"] == 2

    def test_a_stored_section_is_never_overwritten(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Aspirin reduced pain.")])
        with pytest.raises(StoreError):
            store.add_sections(
                "a", 1, [ParsedSection("abstract", "Abstract", "Aspirin increased pain.")]
            )
        with pytest.raises(StoreError):
            store.add_sections(
                "a", 1, [ParsedSection("abstract", "Other", "Aspirin reduced pain.")]
            )
        section = store.section("a", 1, "abstract")
        assert section is not None and section.text == "Aspirin reduced pain."

    def test_a_new_version_leaves_the_old_sections_untouched(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "First text.")])
        add_document(store, "a", [("abstract", "Second text.")])
        assert [s.text for s in store.sections("a", 1)] == ["First text."]
        assert [s.text for s in store.sections("a", 2)] == ["Second text."]

    def test_section_by_key_and_unknown_keys(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Text.")])
        section = store.section("a", 1, "abstract")
        assert section is not None
        assert (section.source_id, section.version, section.key) == ("a", 1, "abstract")
        assert store.section("a", 1, "s9") is None
        assert store.section("a", 2, "abstract") is None
        assert store.sections("nope", 1) == []

    def test_sections_of_an_unknown_version_are_a_caller_mistake(
        self, store: EvidenceStore
    ) -> None:
        store.upsert_source(Source("a", "file"))
        with pytest.raises(InvalidInputError):
            store.add_sections("a", 1, [ParsedSection("abstract", "", "Text.")])

    def test_unicode_text_round_trips_exactly(self, store: EvidenceStore) -> None:
        text = "Ünïcödé naïve café: 37 °C, β-catenin ↑, Ελληνικά, 中文, e\u0301, 🧬 done."
        store.upsert_source(Source("u", "text", title="Tïtle — 🧬"))
        add_document(store, "u", [("abstract", text)])
        section = store.section("u", 1, "abstract")
        assert section is not None and section.text == text
        assert store.chunks("u")[0].text == text
        source = store.get_source("u")
        assert source is not None and source.title == "Tïtle — 🧬"
        assert ids(store.keyword_search("catenin", 5, ANY)) == [chunk_id("u", 1, "abstract")]

    # chunks ----------------------------------------------------------------------------------
    def test_adding_chunks_again_is_idempotent(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Aspirin reduced pain.")])
        store.add_chunks(store.chunks("a"))
        store.add_chunks(store.chunks("a") * 2)
        assert store.stats()["chunks"] == 1
        assert ids(store.keyword_search("aspirin", 10, ANY)) == [chunk_id("a", 1, "abstract")]

    def test_chunks_list_by_version_section_order_and_offset(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("title", "Title."), ("abstract", "One. Two.")])
        add_document(store, "a", [("abstract", "Three.")])
        store.add_chunks(
            [
                Chunk("a/extra-2", "a", 1, "abstract", 5, 9, "Two."),
                Chunk("a/extra-1", "a", 1, "abstract", 0, 4, "One."),
            ]
        )
        order = [(c.version, c.section_key, c.start) for c in store.chunks("a")]
        assert order == [
            (1, "title", 0),
            (1, "abstract", 0),
            (1, "abstract", 0),
            (1, "abstract", 5),
            (2, "abstract", 0),
        ]
        assert [c.id for c in store.chunks("a", 2)] == [chunk_id("a", 2, "abstract")]
        assert store.chunks("nope") == []

    def test_get_chunks_keeps_the_order_asked_and_skips_unknown_ids(
        self, store: EvidenceStore
    ) -> None:
        add_document(store, "a", [("s1", "One."), ("s2", "Two."), ("s3", "Three.")])
        wanted = [chunk_id("a", 1, "s3"), "missing", chunk_id("a", 1, "s1")]
        got = store.get_chunks(wanted)
        assert [c.id for c in got] == [chunk_id("a", 1, "s3"), chunk_id("a", 1, "s1")]
        assert got[0] == Chunk(chunk_id("a", 1, "s3"), "a", 1, "s3", 0, 6, "Three.")
        assert store.get_chunks([]) == []

    def test_a_chunk_must_be_a_slice_of_its_section(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Aspirin reduced pain.")])
        with pytest.raises(InvalidInputError):
            store.add_chunks([Chunk("bad", "a", 1, "abstract", 0, 7, "Ibuprof")])
        with pytest.raises(InvalidInputError):
            store.add_chunks([Chunk("bad", "a", 1, "abstract", 0, 99, "Aspirin reduced pain.")])
        with pytest.raises(InvalidInputError):
            store.add_chunks([Chunk("bad", "a", 1, "s9", 0, 7, "Aspirin")])
        assert store.get_chunks(["bad"]) == []

    def test_chunks_missing_embedding_lists_unembedded_chunks_by_id(
        self, store: EvidenceStore
    ) -> None:
        add_document(store, "b", [("s1", "One."), ("s2", "Two.")])
        add_document(store, "a", [("s1", "Three.")])
        missing = store.chunks_missing_embedding(MODEL, 10)
        assert [c.id for c in missing] == sorted(c.id for c in missing)
        assert len(missing) == 3
        assert len(store.chunks_missing_embedding(MODEL, 2)) == 2
        store.put_embeddings(MODEL, [(chunk_id("a", 1, "s1"), vec(1.0))])
        left = [c.id for c in store.chunks_missing_embedding(MODEL, 10)]
        assert left == [chunk_id("b", 1, "s1"), chunk_id("b", 1, "s2")]
        assert len(store.chunks_missing_embedding("other-model", 10)) == 3

    # transactions ----------------------------------------------------------------------------
    def test_a_failed_transaction_leaves_nothing_behind(self, store: EvidenceStore) -> None:
        with pytest.raises(RuntimeError), store.transaction():
            add_document(store, "a", [("abstract", "Aspirin reduced pain.")])
            store.put_embeddings(MODEL, [(chunk_id("a", 1, "abstract"), vec(1.0))])
            raise RuntimeError("crash mid-ingest")
        assert store.get_source("a") is None
        assert all(count == 0 for name, count in store.stats().items() if name != "blobs")
        assert store.keyword_search("aspirin", 5, ANY) == []
        assert store.vector_search(vec(1.0), MODEL, 5, ANY) == []

    def test_nested_transactions_commit_together_at_the_outermost_exit(
        self, store: EvidenceStore
    ) -> None:
        with store.transaction():
            store.upsert_source(Source("a", "text"))
            with store.transaction():
                store.upsert_source(Source("b", "text"))
                with store.transaction():
                    store.upsert_source(Source("c", "text"))
            assert [s.id for s in store.list_sources()] == ["a", "b", "c"]
        assert [s.id for s in store.list_sources()] == ["a", "b", "c"]

    def test_an_exception_through_nested_transactions_undoes_all_of_them(
        self, store: EvidenceStore
    ) -> None:
        store.upsert_source(Source("kept", "text"))
        with pytest.raises(RuntimeError), store.transaction():
            store.upsert_source(Source("a", "text"))
            with store.transaction():
                store.upsert_source(Source("b", "text"))
            raise RuntimeError("outer fails after inner committed")
        assert [s.id for s in store.list_sources()] == ["kept"]

    # keyword search --------------------------------------------------------------------------
    def test_keyword_search_finds_chunks_by_word(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Aspirin reduced headache pain in adults.")])
        add_document(store, "b", [("abstract", "Ibuprofen had no effect on fever.")])
        hits = store.keyword_search("headache", 10, ELIGIBLE)
        assert ids(hits) == [chunk_id("a", 1, "abstract")]
        assert hits[0].rank == 1
        assert hits[0].chunk.text == "Aspirin reduced headache pain in adults."
        both = store.keyword_search("aspirin fever", 10, ELIGIBLE)
        assert sorted(ids(both)) == [chunk_id("a", 1, "abstract"), chunk_id("b", 1, "abstract")]
        assert [h.rank for h in both] == [1, 2]
        assert both[0].score >= both[1].score
        assert store.keyword_search("paracetamol", 10, ELIGIBLE) == []

    def test_keyword_search_ranks_the_more_relevant_chunk_first(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("s1", "Statins and statins again: statins lowered LDL.")])
        add_document(
            store,
            "b",
            [
                (
                    "s1",
                    "In a large cohort of older adults followed for ten "
                    "years, many outcomes were recorded, statins among "
                    "the drugs used, alongside diet and exercise data.",
                )
            ],
        )
        for other in ("c", "d", "e"):
            add_document(store, other, [("s1", f"Unrelated text about gardening, part {other}.")])
        hits = store.keyword_search("statins", 10, ANY)
        assert ids(hits) == [chunk_id("a", 1, "s1"), chunk_id("b", 1, "s1")]
        assert hits[0].score > hits[1].score

    def test_keyword_search_respects_the_limit(self, store: EvidenceStore) -> None:
        add_document(store, "a", [(f"s{i}", f"Aspirin note {i}.") for i in range(5)])
        assert len(store.keyword_search("aspirin", 3, ANY)) == 3
        assert store.keyword_search("aspirin", 0, ANY) == []

    @pytest.mark.parametrize("query", ["", "   ", "!!! ??? ...", "\n\t"])
    def test_a_query_without_words_finds_nothing(self, store: EvidenceStore, query: str) -> None:
        add_document(store, "a", [("abstract", "Aspirin reduced pain.")])
        assert store.keyword_search(query, 10, ANY) == []

    @pytest.mark.parametrize("query", HOSTILE_QUERIES)
    def test_keyword_search_never_errors_on_hostile_input(
        self, store: EvidenceStore, query: str
    ) -> None:
        add_document(store, "a", [("abstract", "Aspirin reduced pain; NEAR and NOT are words.")])
        hits = store.keyword_search(query, 10, ANY)
        assert all(hit.chunk.source_id == "a" for hit in hits)
        if "aspirin" in query.lower():
            assert ids(hits) == [chunk_id("a", 1, "abstract")]

    def test_keyword_search_filters_by_source_ids_and_statuses(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Aspirin one.")])
        add_document(store, "b", [("abstract", "Aspirin two.")])
        add_document(store, "c", [("abstract", "Aspirin three.")], status="corrected")
        only_b = SearchFilter(source_ids=("b",), eligible_only=False)
        assert [h.chunk.source_id for h in store.keyword_search("aspirin", 10, only_b)] == ["b"]
        corrected = SearchFilter(statuses=("corrected",), eligible_only=False)
        assert [h.chunk.source_id for h in store.keyword_search("aspirin", 10, corrected)] == ["c"]
        nothing = SearchFilter(source_ids=(), eligible_only=False)
        assert store.keyword_search("aspirin", 10, nothing) == []

    def test_keyword_search_fills_the_limit_past_filtered_chunks(
        self, store: EvidenceStore
    ) -> None:
        add_document(
            store,
            "bad",
            [(f"s{i}", f"Aspirin aspirin aspirin, retracted {i}.") for i in range(80)],
            status="retracted",
        )
        add_document(store, "good", [("s1", "Aspirin once in a longer kept sentence here.")])
        hits = store.keyword_search("aspirin", 3, ELIGIBLE)
        assert ids(hits) == [chunk_id("good", 1, "s1")]
        assert len(store.keyword_search("aspirin", 100, ANY)) == 81

    def test_keyword_search_breaks_ties_by_chunk_id(self, store: EvidenceStore) -> None:
        for n in range(90, 10, -1):
            add_document(store, f"dup-{n:03d}", [("s1", "Identical aspirin sentence.")])
        add_document(store, "other", [("s1", "Nothing to see.")])
        hits = store.keyword_search("aspirin", 5, ANY)
        assert ids(hits) == [chunk_id(f"dup-{n:03d}", 1, "s1") for n in range(11, 16)]
        assert len({hit.score for hit in hits}) == 1

    def test_eligible_only_excludes_retracted_and_withdrawn_sources(
        self, store: EvidenceStore
    ) -> None:
        add_document(store, "ok", [("abstract", "Aspirin works.")])
        add_document(store, "gone", [("abstract", "Aspirin works too.")], status="retracted")
        add_document(store, "out", [("abstract", "Aspirin works, withdrawn.")], status="withdrawn")
        eligible = store.keyword_search("aspirin", 10, ELIGIBLE)
        assert [h.chunk.source_id for h in eligible] == ["ok"]
        assert len(store.keyword_search("aspirin", 10, ANY)) == 3

    def test_eligible_only_excludes_a_source_whose_latest_version_is_not_parsed(
        self, store: EvidenceStore
    ) -> None:
        add_document(store, "q", [("abstract", "Aspirin, first version.")])
        add_document(store, "q", [], raw=b"<corrupt", state="quarantined")
        add_document(store, "p", [("abstract", "Aspirin, still pending.")], state="pending")
        add_document(store, "ok", [("abstract", "Aspirin, fine.")])
        eligible = store.keyword_search("aspirin", 10, ELIGIBLE)
        assert [h.chunk.source_id for h in eligible] == ["ok"]
        assert sorted(h.chunk.source_id for h in store.keyword_search("aspirin", 10, ANY)) == [
            "ok",
            "p",
            "q",
        ]

    def test_eligible_only_searches_only_the_latest_version(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("abstract", "Alpha was measured.")])
        add_document(store, "a", [("abstract", "Beta was measured.")])
        assert store.keyword_search("alpha", 10, ELIGIBLE) == []
        assert ids(store.keyword_search("beta", 10, ELIGIBLE)) == [chunk_id("a", 2, "abstract")]
        assert ids(store.keyword_search("alpha", 10, ANY)) == [chunk_id("a", 1, "abstract")]

    def test_eligible_only_searches_the_version_made_current_again(
        self, store: EvidenceStore
    ) -> None:
        add_document(store, "a", [("abstract", "Alpha was measured.")])
        add_document(store, "a", [("abstract", "Beta was measured.")])
        one, two = chunk_id("a", 1, "abstract"), chunk_id("a", 2, "abstract")
        store.put_embeddings(MODEL, [(one, vec(1.0)), (two, vec(0.9, 0.1))])
        assert ids(store.vector_search(vec(1.0), MODEL, 10, ELIGIBLE)) == [two]
        store.make_current("a", 1)
        assert ids(store.keyword_search("alpha", 10, ELIGIBLE)) == [one]
        assert store.keyword_search("beta", 10, ELIGIBLE) == []
        assert ids(store.vector_search(vec(1.0), MODEL, 10, ELIGIBLE)) == [one]
        by_source = SearchFilter(source_ids=("a",), eligible_only=True)
        assert ids(store.keyword_search("measured", 10, by_source)) == [one]
        assert ids(store.keyword_search("beta", 10, ANY)) == [two]

    # vector search ---------------------------------------------------------------------------
    def _four_chunks(self, store: EvidenceStore) -> list[str]:
        add_document(
            store, "a", [("s1", "One."), ("s2", "Two."), ("s3", "Three."), ("s4", "Four.")]
        )
        return [chunk_id("a", 1, f"s{i}") for i in range(1, 5)]

    def test_vector_search_ranks_by_exact_cosine(self, store: EvidenceStore) -> None:
        one, two, three, four = self._four_chunks(store)
        store.put_embeddings(
            MODEL,
            [(three, vec(0.0, 1.0)), (one, vec(-1.0)), (four, vec(0.6, 0.8)), (two, vec(1.0))],
        )
        hits = store.vector_search(vec(1.0), MODEL, 10, ELIGIBLE)
        assert ids(hits) == [two, four, three, one]
        assert [h.rank for h in hits] == [1, 2, 3, 4]
        assert [h.score for h in hits] == pytest.approx([1.0, 0.6, 0.0, -1.0], abs=1e-5)
        assert ids(store.vector_search(vec(0.0, 2.0), MODEL, 2, ELIGIBLE)) == [three, four]

    def test_vector_search_breaks_ties_by_chunk_id_and_returns_each_chunk_once(
        self, store: EvidenceStore
    ) -> None:
        one, two, three, four = self._four_chunks(store)
        same = vec(0.6, 0.8)
        store.put_embeddings(
            MODEL, [(four, same), (two, same), (three, same), (one, vec(0.0, 1.0))]
        )
        store.put_embeddings(MODEL, [(two, same), (four, same)])
        hits = store.vector_search(vec(1.0), MODEL, 10, ELIGIBLE)
        assert ids(hits) == [two, three, four, one]
        assert store.stats()["embeddings"] == 4

    def test_equal_vectors_score_equally_wherever_they_lie(self, store: EvidenceStore) -> None:
        # A sentence repeated in every source ("DEMO DATA, ...", a licence line) embeds to one
        # vector: its chunks must score exactly alike and rank by chunk id, as on PostgreSQL,
        # even where the last row of a matrix goes through another BLAS kernel than the rest.
        add_document(store, "a", [(f"s{i}", f"Same sentence {i}.") for i in range(5)])
        rng = np.random.default_rng(7)
        same = rng.standard_normal(384).astype(np.float32)
        same /= np.linalg.norm(same)
        store.put_embeddings(MODEL, [(chunk_id("a", 1, f"s{i}"), same) for i in range(5)])
        query = rng.standard_normal(384).astype(np.float32)
        query /= np.linalg.norm(query)
        for q in (query, -query):
            hits = store.vector_search(q, MODEL, 10, ELIGIBLE)
            assert ids(hits) == [chunk_id("a", 1, f"s{i}") for i in range(5)]
            assert len({h.score for h in hits}) == 1

    def test_vector_search_fills_the_limit_past_filtered_chunks(self, store: EvidenceStore) -> None:
        add_document(
            store, "bad", [(f"s{i}", f"Retracted {i}.") for i in range(40)], status="retracted"
        )
        add_document(store, "good", [("s1", "Kept one."), ("s2", "Kept two.")])
        vectors = [(chunk_id("bad", 1, f"s{i}"), vec(1.0, 0.01 * i)) for i in range(40)]
        vectors += [
            (chunk_id("good", 1, "s1"), vec(0.5, 1.0)),
            (chunk_id("good", 1, "s2"), vec(0.0, 1.0)),
        ]
        store.put_embeddings(MODEL, vectors)
        hits = store.vector_search(vec(1.0), MODEL, 2, ELIGIBLE)
        assert ids(hits) == [chunk_id("good", 1, "s1"), chunk_id("good", 1, "s2")]
        assert [h.rank for h in hits] == [1, 2]
        assert len(store.vector_search(vec(1.0), MODEL, 5, ANY)) == 5
        only_good = SearchFilter(source_ids=("good",), eligible_only=False)
        assert len(store.vector_search(vec(1.0), MODEL, 10, only_good)) == 2

    def test_vectors_are_kept_apart_by_model(self, store: EvidenceStore) -> None:
        one, two, _, _ = self._four_chunks(store)
        store.put_embeddings(MODEL, [(one, vec(1.0))])
        store.put_embeddings("other-model", [(two, vec(1.0, 0.0, 0.0, 0.0, 0.0, 0.0, dim=6))])
        assert ids(store.vector_search(vec(1.0), MODEL, 10, ANY)) == [one]
        other = store.vector_search(vec(1.0, dim=6), "other-model", 10, ANY)
        assert ids(other) == [two]
        assert store.vector_search(vec(1.0), "unknown-model", 10, ANY) == []

    # erasures --------------------------------------------------------------------------------
    TEXT = "Patient John Smith, aged 54, took aspirin daily."
    NAME = (8, 18)  # "John Smith"

    def _erased(self, store: EvidenceStore) -> str:
        add_document(store, "a", [("abstract", self.TEXT)])
        cid = chunk_id("a", 1, "abstract")
        store.put_embeddings(MODEL, [(cid, vec(1.0))])
        erasure = store.add_erasure("a", 1, "abstract", *self.NAME, reason="gdpr request 17")
        assert (erasure.section_key, erasure.start, erasure.end) == ("abstract", *self.NAME)
        assert erasure.reason == "gdpr request 17"
        assert is_utc_iso(erasure.created_at)
        return cid

    def masked(self) -> str:
        start, end = self.NAME
        return self.TEXT[:start] + MASK * (end - start) + self.TEXT[end:]

    def test_an_erasure_masks_section_text_keeping_its_length(self, store: EvidenceStore) -> None:
        self._erased(store)
        section = store.section("a", 1, "abstract")
        assert section is not None and section.text == self.masked()
        assert len(section.text) == len(self.TEXT)
        assert [s.text for s in store.sections("a", 1)] == [self.masked()]
        assert "John" not in section.text

    def test_an_erasure_masks_chunk_text_wherever_chunks_are_served(
        self, store: EvidenceStore
    ) -> None:
        cid = self._erased(store)
        assert [c.text for c in store.chunks("a")] == [self.masked()]
        assert [c.text for c in store.get_chunks([cid])] == [self.masked()]
        hits = store.keyword_search("aspirin", 10, ANY)
        assert ids(hits) == [cid]
        assert hits[0].chunk.text == self.masked()

    def test_an_erased_word_is_no_longer_keyword_searchable(self, store: EvidenceStore) -> None:
        self._erased(store)
        assert store.keyword_search("Smith", 10, ANY) == []
        assert store.keyword_search("john", 10, ANY) == []

    def test_an_erased_chunk_leaves_vector_search_for_good(self, store: EvidenceStore) -> None:
        cid = self._erased(store)
        assert store.vector_search(vec(1.0), MODEL, 10, ANY) == []
        assert store.chunks_missing_embedding(MODEL, 10) == []
        store.put_embeddings(MODEL, [(cid, vec(1.0))])  # a resumed ingestion re-embedding it
        assert store.vector_search(vec(1.0), MODEL, 10, ANY) == []
        assert store.stats()["embeddings"] == 0

    def test_chunks_added_after_an_erasure_are_masked_and_unsearchable(
        self, store: EvidenceStore
    ) -> None:
        add_document(store, "a", [("abstract", self.TEXT)])
        store.add_erasure("a", 1, "abstract", *self.NAME, reason="gdpr")
        late = Chunk("a/late", "a", 1, "abstract", 0, 18, self.TEXT[:18])
        store.add_chunks([late])
        (chunk,) = store.get_chunks(["a/late"])
        assert chunk.text == self.TEXT[:8] + MASK * 10
        assert "a/late" not in ids(store.keyword_search("smith", 10, ANY))
        assert "a/late" not in [c.id for c in store.chunks_missing_embedding(MODEL, 10)]

    def test_erasures_are_listed_and_must_lie_inside_a_section(self, store: EvidenceStore) -> None:
        self._erased(store)
        second = store.add_erasure("a", 1, "abstract", 25, 27, reason="age")
        listed = store.erasures("a")
        assert [(e.start, e.end) for e in listed] == [self.NAME, (25, 27)]
        assert listed[1] == second
        assert store.erasures("a", 2) == []
        assert store.stats()["erasures"] == 2
        for start, end in ((5, 5), (10, 5), (-1, 3), (0, len(self.TEXT) + 1)):
            with pytest.raises(InvalidInputError):
                store.add_erasure("a", 1, "abstract", start, end, reason="bad")
        with pytest.raises(InvalidInputError):
            store.add_erasure("a", 1, "s9", 0, 1, reason="no such section")

    # measurements ----------------------------------------------------------------------------
    def test_measurements_round_trip_in_order_and_are_idempotent(
        self, store: EvidenceStore
    ) -> None:
        add_document(store, "a", [("s1", "Dosed 12.5 mg/kg at 37 °C."), ("s2", "Then 5 mL.")])
        items = [
            Measurement("a", 1, "s2", 5, 9, 5.0, "mL", "5 mL"),
            Measurement("a", 1, "s1", 20, 25, 37.0, "°C", "37 °C"),
            Measurement("a", 1, "s1", 6, 16, 12.5, "mg/kg", "12.5 mg/kg"),
        ]
        store.add_measurements(items)
        store.add_measurements(items)
        got = store.measurements("a")
        assert got == [items[2], items[1], items[0]]
        assert store.measurements("a", 1) == got
        assert store.measurements("a", 2) == []
        assert store.stats()["measurements"] == 3

    def test_measurements_over_an_erased_range_are_not_served(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("s1", "Dosed 12.5 mg/kg at 37 °C.")])
        keep = Measurement("a", 1, "s1", 20, 25, 37.0, "°C", "37 °C")
        store.add_measurements(
            [Measurement("a", 1, "s1", 6, 16, 12.5, "mg/kg", "12.5 mg/kg"), keep]
        )
        store.add_erasure("a", 1, "s1", 6, 10, reason="dose is identifying")
        assert store.measurements("a") == [keep]

    # stats -----------------------------------------------------------------------------------
    def test_stats_counts_every_kind_of_row(self, store: EvidenceStore) -> None:
        add_document(store, "a", [("s1", "Dosed 5 mL."), ("s2", "Aspirin.")])
        add_document(store, "a", [("s1", "Dosed 6 mL.")])
        add_document(store, "b", [], raw=b"\x00garbage", state="quarantined")
        store.put_embeddings(MODEL, [(chunk_id("a", 1, "s1"), vec(1.0))])
        store.add_measurements([Measurement("a", 1, "s1", 6, 10, 5.0, "mL", "5 mL")])
        store.add_erasure("a", 1, "s2", 0, 3, reason="test")
        counts = store.stats()
        expected = {
            "sources": 2,
            "versions": 3,
            "sections": 3,
            "chunks": 3,
            "embeddings": 1,
            "measurements": 1,
            "erasures": 1,
        }
        assert {name: counts[name] for name in expected} == expected
