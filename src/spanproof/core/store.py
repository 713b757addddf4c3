"""The evidence store: its records and the ``EvidenceStore`` port (SPEC §2, §3, §7, §8).

Every backend (SQLite by default, PostgreSQL at scale) implements :class:`EvidenceStore` and
passes the one contract suite in ``spanproof.testing.store_contract``.

Invariants every backend keeps:

* Versions and sections are never deleted or changed once written; the same raw bytes for a
  source never add a second version.
* Writes are idempotent: adding the same sections, chunks, embeddings or measurements twice
  stores them once, so an interrupted ingestion can simply run again.
* Erased ranges are masked on read (each masked character becomes ``MASK``, so offsets keep
  their meaning), are not searchable, and no span over them resolves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import ConfigurationError

MASK = "█"
SOURCE_STATUSES = ("active", "retracted", "withdrawn", "corrected")
#: How far each status takes a source out of use. Neither a service's notice (ingestion) nor an
#: operator's ``retract`` moves a source down this scale (the operator only when asked to).
SOURCE_SEVERITY = {"active": 0, "corrected": 1, "withdrawn": 2, "retracted": 3}
VERSION_STATES = ("pending", "parsed", "quarantined")


@dataclass(frozen=True, slots=True)
class Source:
    """A document from a connector, with its external ids and status."""

    id: str
    connector: str
    title: str = ""
    status: str = "active"
    external_ids: dict[str, str] = field(default_factory=dict)
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class Version:
    """One content of a source, identified by the SHA-256 of its raw bytes; ``number`` from 1."""

    source_id: str
    number: int
    sha256: str
    media_type: str
    state: str = "pending"
    reason: str = ""
    format: str = ""
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    """A stored section: canonical text (masked where erased) under a short stable key."""

    source_id: str
    version: int
    key: str
    title: str
    text: str
    ordinal: int


@dataclass(frozen=True, slots=True)
class Chunk:
    """A retrieval unit cut from a section: ``text == section.text[start:end]``."""

    id: str
    source_id: str
    version: int
    section_key: str
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Measurement:
    """A value with its unit found in a section, never converted, with its span."""

    source_id: str
    version: int
    section_key: str
    start: int
    end: int
    value: float
    unit: str
    quotation: str


@dataclass(frozen=True, slots=True)
class Erasure:
    """A masked range of one section of one version (SPEC §7)."""

    id: int
    source_id: str
    version: int
    section_key: str
    start: int
    end: int
    reason: str
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """Restricts searches. ``eligible_only``: chunks of active sources' current versions, parsed."""

    source_ids: tuple[str, ...] | None = None
    statuses: tuple[str, ...] | None = None
    eligible_only: bool = True


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A chunk and its score under one ranking (higher is better); ``rank`` from 1."""

    chunk: Chunk
    score: float
    rank: int


Vector = npt.NDArray[np.float32]


@runtime_checkable
class EvidenceStore(Protocol):
    """Storage of sources, versions, sections, chunks, embeddings and their indexes."""

    def transaction(self) -> AbstractContextManager[None]:
        """A unit of work: everything inside commits together or not at all (re-entrant)."""
        ...

    def close(self) -> None: ...

    # sources ---------------------------------------------------------------------------------
    def upsert_source(self, source: Source) -> Source:
        """Insert, or update title / external ids of an existing id; returns the stored row."""
        ...

    def get_source(self, source_id: str) -> Source | None: ...

    def find_source(self, id_kind: str, value: str) -> Source | None:
        """The source with external id ``id_kind`` (``doi``, ``pmid``, ``pmcid``) = ``value``."""
        ...

    def list_sources(
        self, *, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Source]:
        """Sources ordered by id."""
        ...

    def set_status(self, source_id: str, status: str) -> None: ...

    # raw bytes and versions ------------------------------------------------------------------
    def put_blob(self, sha256: str, raw: bytes) -> None:
        """Store raw bytes content-addressed (idempotent)."""
        ...

    def get_blob(self, sha256: str) -> bytes | None: ...

    def add_version(self, source_id: str, sha256: str, media_type: str) -> tuple[Version, bool]:
        """The version for these bytes, and whether it was created now (False: duplicate).

        A version created now becomes the source's current version.
        """
        ...

    def versions(self, source_id: str) -> list[Version]:
        """All versions of a source, oldest first."""
        ...

    def current_version(self, source_id: str) -> Version | None:
        """The version that is the source's content now: its newest, unless an earlier
        version's bytes came back since (:meth:`make_current`). None when it has no version."""
        ...

    def current_history(self, source_id: str) -> list[int]:
        """The version numbers the source has read as its content, oldest first: one entry each
        time the current version changed (``[1, 2, 1]`` for a file edited and then reverted).
        Empty for a source with no version."""
        ...

    def make_current(self, source_id: str, number: int) -> bool:
        """Make an earlier version the source's content again (a file reverted to bytes it had):
        True when the current version changed, False when it already was this one. Versions
        are never changed: the store records the change as history."""
        ...

    def set_version_state(
        self, source_id: str, number: int, state: str, *, reason: str = "", format: str = ""
    ) -> bool:
        """Move a ``pending`` version to ``parsed`` or ``quarantined`` (never back).

        True when this call moved it; False when it already was so (a repeat, or another
        process got there first).
        """
        ...

    # sections --------------------------------------------------------------------------------
    def add_sections(self, source_id: str, version: int, sections: Sequence[ParsedSection]) -> None:
        """Store a version's sections in order (idempotent by key)."""
        ...

    def sections(self, source_id: str, version: int) -> list[Section]: ...

    def section(self, source_id: str, version: int, key: str) -> Section | None: ...

    # chunks, keyword index and vectors -------------------------------------------------------
    def add_chunks(self, chunks: Sequence[Chunk]) -> None:
        """Store chunks and index them for keyword search (idempotent by id)."""
        ...

    def chunks(self, source_id: str, version: int | None = None) -> list[Chunk]: ...

    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        """Chunks by id, in the order asked (unknown ids are skipped)."""
        ...

    def chunks_missing_embedding(self, model_id: str, limit: int) -> list[Chunk]:
        """Chunks with no vector under ``model_id`` yet, ordered by id."""
        ...

    def put_embeddings(self, model_id: str, items: Sequence[tuple[str, Vector]]) -> None:
        """Store unit vectors for chunk ids under a model (idempotent)."""
        ...

    def keyword_search(self, query: str, limit: int, flt: SearchFilter) -> list[SearchHit]:
        """BM25-class keyword ranking."""
        ...

    def vector_search(
        self, vector: Vector, model_id: str, limit: int, flt: SearchFilter
    ) -> list[SearchHit]:
        """Cosine ranking over the chunks' vectors under ``model_id``."""
        ...

    # measurements and erasures ---------------------------------------------------------------
    def add_measurements(self, items: Sequence[Measurement]) -> None: ...

    def measurements(self, source_id: str, version: int | None = None) -> list[Measurement]: ...

    def add_erasure(
        self, source_id: str, version: int, section_key: str, start: int, end: int, reason: str
    ) -> Erasure:
        """Mask a range: from now on it is not served, searchable or resolvable."""
        ...

    def erasures(self, source_id: str, version: int | None = None) -> list[Erasure]: ...

    def stats(self) -> dict[str, int]:
        """Row counts: sources, versions, sections, chunks, embeddings, measurements, erasures."""
        ...


def iter_sources(store: EvidenceStore, page: int = 200) -> Iterator[Source]:
    """Every source of ``store`` by id, read ``page`` at a time."""
    offset = 0
    while batch := store.list_sources(limit=page, offset=offset):
        yield from batch
        if len(batch) < page:
            return
        offset += len(batch)


#: URL schemes that name a PostgreSQL store (compared without case); the rest of the URL is
#: passed on as ``postgresql://…``.
POSTGRES_SCHEMES = frozenset(
    {"postgresql", "postgres", "postgresql+psycopg", "postgresql+psycopg2"}
)


def postgres_url(target: str) -> str | None:
    """``target`` as the ``postgresql://`` URL of a PostgreSQL store, or None when it names a
    SQLite store (a file path, ``sqlite:///path``, ``:memory:``).

    Raises:
        ConfigurationError: a URL of another scheme ("mysql://…"), which would otherwise be
            taken for a file name.
    """
    scheme, sep, rest = target.partition("://")
    if not sep:
        return None
    kind = scheme.lower()
    if kind in POSTGRES_SCHEMES:
        return "postgresql://" + rest
    if kind == "sqlite":
        return None
    raise ConfigurationError(
        f"unsupported store URL scheme {scheme!r}: give a SQLite file path, sqlite:///PATH or "
        "a postgresql:// URL"
    )
