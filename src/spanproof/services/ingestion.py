"""Ingestion of one source version (SPEC §3): hash, store raw bytes, parse or quarantine, sections,
chunks, keyword index, measurements; then embeddings for every chunk that lacks one and, when
the embedder keeps an embedding cache, for every sentence span the planner can break those chunks
down to (so that ``ask`` finds the sentences' vectors cached instead of embedding them).

Idempotent and resumable. The steps commit in two transactions — (source, raw bytes, pending
version) and then (sections, chunks, measurements, parsed state) — so a crash anywhere leaves
either a pending version, which the next run parses again, or a complete one, which it skips.
Embedding is its own resumable loop over chunks that have no vector yet; :func:`cache_sentences`
back-fills the sentence vectors of a whole store.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from spanproof.core.documents import FetchedDocument, ParsedDocument, ParseFailure
from spanproof.core.ports import Embedder
from spanproof.core.store import (
    SOURCE_SEVERITY,
    Chunk,
    EvidenceStore,
    Measurement,
    Source,
    iter_sources,
)
from spanproof.services.impact import on_source_status
from spanproof.services.planning import sentence_texts
from spanproof.text.chunks import MAX_TOKENS, chunk_ranges
from spanproof.text.measurements import find_measurements

Parser = Callable[[bytes, str], ParsedDocument]
Progress = Callable[[int], None]
#: How far a source status takes it out of use: ingestion never moves a source down this scale.
_SEVERITY = SOURCE_SEVERITY


@runtime_checkable
class EmbeddingCache(Embedder, Protocol):
    """An embedder that keeps the vectors it computes (the on-disk embedding cache)."""

    def missing(self, texts: Sequence[str]) -> list[str]:
        """The distinct texts with no kept vector yet, in first-seen order."""
        ...


@dataclass(frozen=True, slots=True)
class SentenceFill:
    """What :func:`cache_sentences` did: ``sentences`` distinct sentence texts seen,
    ``embedded`` of them embedded now (the rest were cached already)."""

    sentences: int = 0
    embedded: int = 0


@dataclass(frozen=True, slots=True)
class IngestOutcome:
    """What happened to one fetched document.

    ``status``: ``new`` (a new parsed version), ``duplicate`` (these bytes are the source's
    current version already), ``reverted`` (these bytes are an earlier version's, ``version``,
    which is the source's content again: a file edited and then reverted), ``quarantined``
    (stored, not parsed: ``reason`` says why).
    """

    source_id: str
    version: int
    status: str
    reason: str = ""
    sections: int = 0
    chunks: int = 0


def content_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def chunk_id(source_id: str, version: int, section_key: str, start: int, end: int) -> str:
    """A deterministic chunk id, so re-running ingestion writes the same rows."""
    key = f"{source_id}\x1f{version}\x1f{section_key}\x1f{start}\x1f{end}"
    return "ch_" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]


def unclaimed_ids(
    store: EvidenceStore, source_id: str, ids: dict[str, str], held: dict[str, str] | None = None
) -> dict[str, str]:
    """``ids`` less those another source holds already.

    One article often arrives under several source ids (``pmc:…``, ``pmid:…``, ``doi:…``, a
    file): the first source to name an external id keeps it, and the others are stored without
    it rather than refused. ``held``: the external ids ``source_id`` holds (kept unread).
    """
    found = _holders(store, source_id, ids, held)
    return {kind: ids[kind] for kind, holder in found if holder is None}


def _holders(
    store: EvidenceStore, source_id: str, ids: dict[str, str], held: dict[str, str] | None
) -> list[tuple[str, Source | None]]:
    """Each kind of ``ids`` with the other source that holds its id, or None (no source, or
    ``source_id`` itself, which holds ``held`` already: those are not looked up)."""
    out: list[tuple[str, Source | None]] = []
    for kind, value in ids.items():
        mine = held is not None and held.get(kind) == value
        holder = store.find_source(kind, value) if value.strip() and not mine else None
        out.append((kind, holder if holder is not None and holder.id != source_id else None))
    return out


def _spread_status(store: EvidenceStore, source_id: str, fetched: FetchedDocument) -> None:
    """A service's status for a work (a Crossref retraction) reaches every other source that holds
    one of the work's ids (the same article stored as ``pmc:…`` or a file), raising theirs too and
    starting their impact walks, in the caller's transaction."""
    rank = _SEVERITY.get(fetched.status, 0)
    for kind, value in fetched.external_ids.items():
        holder = store.find_source(kind, value) if value.strip() else None
        if holder is not None and holder.id != source_id and rank > _SEVERITY.get(holder.status, 0):
            store.set_status(holder.id, fetched.status)
            on_source_status(store, holder.id, fetched.status)


def _inherit_status(store: EvidenceStore, source: Source, holders: Sequence[Source | None]) -> None:
    """A source whose document names an article another source holds with a graver status (a
    DOI Crossref reported retracted before this copy arrived) takes that status, with its impact
    walks, in the caller's transaction. ``holders``: the other sources holding the document's
    ids (:func:`_holders`)."""
    rank = _SEVERITY.get(source.status, 0)
    for holder in holders:
        if holder is not None and _SEVERITY.get(holder.status, 0) > rank:
            rank = _SEVERITY[holder.status]
            store.set_status(source.id, holder.status)
            on_source_status(store, source.id, holder.status)


def ingest(
    store: EvidenceStore,
    fetched: FetchedDocument,
    source_id: str,
    parse: Parser,
    *,
    chunk_tokens: int = MAX_TOKENS,
) -> IngestOutcome:
    """Store and process one fetched document as a version of ``source_id``."""
    sha = content_hash(fetched.raw)
    with store.transaction():
        existing = store.get_source(source_id)
        held = existing.external_ids if existing else {}
        store.upsert_source(
            Source(
                id=source_id,
                connector=fetched.connector,
                title=fetched.title or (existing.title if existing else ""),
                status=existing.status if existing else "active",
                external_ids=unclaimed_ids(store, source_id, fetched.external_ids, held),
            )
        )
        # A service's status never lowers the one the source has (an operator's retraction
        # stays when Crossref later lists only a correction).
        current = _SEVERITY.get(existing.status if existing else "active", 0)
        said = fetched.status != "active" and _SEVERITY.get(fetched.status, 0) >= current
        if said:
            store.set_status(source_id, fetched.status)
        store.put_blob(sha, fetched.raw)
        version, created = store.add_version(source_id, sha, fetched.media_type)
        # Bytes an earlier version holds (a file reverted): that version is the content again.
        reverted = not created and store.make_current(source_id, version.number)
        if said:  # the impact event commits with the status change
            on_source_status(store, source_id, fetched.status)
            _spread_status(store, source_id, fetched)
    again = "reverted" if reverted else "duplicate"
    titled = bool(fetched.title)
    if version.state == "parsed":
        if reverted:  # the source is named by this version's document again
            _rename_reverted(store, source_id, version.number, fetched, parse, titled)
        return IngestOutcome(source_id, version.number, again)
    if version.state == "quarantined":
        return IngestOutcome(source_id, version.number, again, version.reason)
    try:
        document = parse(fetched.raw, fetched.media_type)
    except ParseFailure as failure:
        if not store.set_version_state(
            source_id, version.number, "quarantined", reason=str(failure)
        ):  # another process ingesting the same bytes quarantined it first
            return IngestOutcome(source_id, version.number, again, str(failure))
        return IngestOutcome(source_id, version.number, "quarantined", str(failure))
    outcome = _store_document(store, source_id, version.number, document, chunk_tokens, titled)
    return dataclasses.replace(outcome, status="reverted") if reverted else outcome


def _rename_reverted(
    store: EvidenceStore,
    source_id: str,
    version: int,
    fetched: FetchedDocument,
    parse: Parser,
    titled: bool,
) -> None:
    """Give a source whose parsed ``version`` is current again the title its document names
    (parsed again: only metadata is read, nothing of the version is written)."""
    try:
        document = parse(fetched.raw, fetched.media_type)
    except ParseFailure:  # the parser has changed since; the version stays as it was judged
        return
    with store.transaction():
        _name_source(store, source_id, version, document, titled)


def _store_document(
    store: EvidenceStore,
    source_id: str,
    version: int,
    document: ParsedDocument,
    chunk_tokens: int,
    titled: bool,
) -> IngestOutcome:
    """Store the parsed ``document`` as ``version``; ``titled``: the fetch named the source."""
    chunks: list[Chunk] = []
    measurements: list[Measurement] = []
    for section in document.sections:
        for start, end in chunk_ranges(section.text, chunk_tokens):
            cid = chunk_id(source_id, version, section.key, start, end)
            chunks.append(
                Chunk(cid, source_id, version, section.key, start, end, section.text[start:end])
            )
        measurements.extend(
            Measurement(
                source_id,
                version,
                section.key,
                m.start,
                m.end,
                m.value,
                m.unit,
                section.text[m.start : m.end],
            )
            for m in find_measurements(section.text)
        )
    with store.transaction():
        _name_source(store, source_id, version, document, titled)
        store.add_sections(source_id, version, document.sections)
        store.add_chunks(chunks)
        store.add_measurements(measurements)
        moved = store.set_version_state(source_id, version, "parsed", format=document.format)
    if not moved:  # another process ingesting the same bytes stored them first (same rows)
        return IngestOutcome(source_id, version, "duplicate")
    return IngestOutcome(
        source_id, version, "new", sections=len(document.sections), chunks=len(chunks)
    )


def _name_source(
    store: EvidenceStore, source_id: str, version: int, document: ParsedDocument, titled: bool
) -> None:
    """The current version names the source, unless the service that fetched it did; ids the
    document names that the source lacks are added (a DOI a new version gained)."""
    source = store.get_source(source_id)
    if source is None:
        return
    current = store.current_version(source_id)
    title = source.title
    if document.title and (
        not title or (current is not None and current.number == version and not titled)
    ):
        title = document.title
    # The document's ids are looked up once: for the ids to keep, and for a graver status.
    found = _holders(store, source_id, document.external_ids, source.external_ids)
    taken = {kind for kind, holder in found if holder is not None}
    ids = {k: v for k, v in document.external_ids.items() if k not in taken}
    ids.update(source.external_ids)
    if title != source.title or ids.keys() != source.external_ids.keys():
        store.upsert_source(
            Source(
                id=source.id,
                connector=source.connector,
                title=title,
                status=source.status,
                external_ids=ids,
            )
        )
    _inherit_status(store, source, [holder for _, holder in found])


def embed_pending(
    store: EvidenceStore,
    embedder: Embedder,
    *,
    batch_size: int = 256,
    progress: Progress | None = None,
    sentences: bool = False,
) -> int:
    """Embed every chunk with no vector under ``embedder``'s model; returns how many.

    Each batch commits on its own, so an interrupted run resumes where it stopped. With
    ``sentences`` and an embedder that is an :class:`EmbeddingCache`, each batch's sentence
    spans (:func:`~spanproof.services.planning.sentence_texts`) are embedded into the cache too.
    """
    done = 0
    while True:
        pending: Sequence[Chunk] = store.chunks_missing_embedding(embedder.model_id, batch_size)
        if not pending:
            return done
        vectors = embedder.embed([c.text for c in pending])
        with store.transaction():
            store.put_embeddings(
                embedder.model_id, [(c.id, vectors[i]) for i, c in enumerate(pending)]
            )
        if sentences:
            cache_chunk_sentences(store, embedder, pending, batch_size=batch_size)
        done += len(pending)
        if progress is not None:
            progress(len(pending))


def cache_sentences(
    store: EvidenceStore,
    embedder: Embedder,
    *,
    batch_size: int = 256,
    progress: Progress | None = None,
) -> SentenceFill:
    """Embed into ``embedder``'s cache every sentence span the planner can break the chunks of
    the store's parsed versions down to, unless cached already; ``progress`` gets the number of
    sources done. Each batch is kept on its own, so an interrupted run resumes where it stopped.

    An embedder that keeps no cache (not an :class:`EmbeddingCache`) would throw every vector
    away: nothing is embedded, and the texts are still counted.
    """
    seen: set[str] = set()
    embedded = 0
    todo: list[str] = []
    for source_chunks in parsed_chunks(store):
        texts = [t for t in sentence_texts(store, source_chunks) if t not in seen]
        seen.update(texts)
        if isinstance(embedder, EmbeddingCache):
            todo.extend(texts)
            if len(todo) >= batch_size:
                embedded += _embed_missing(embedder, todo, batch_size)
                todo = []
        if progress is not None:
            progress(1)
    if todo and isinstance(embedder, EmbeddingCache):
        embedded += _embed_missing(embedder, todo, batch_size)
    return SentenceFill(len(seen), embedded)


def parsed_chunks(store: EvidenceStore, page: int = 500) -> Iterator[list[Chunk]]:
    """The chunks of each source's parsed versions, one list a source, sources by id."""
    for source in iter_sources(store, page):
        chunks: list[Chunk] = []
        for version in store.versions(source.id):
            if version.state == "parsed":
                chunks.extend(store.chunks(source.id, version.number))
        yield chunks


def cache_chunk_sentences(
    store: EvidenceStore, embedder: Embedder, chunks: Sequence[Chunk], *, batch_size: int = 256
) -> int:
    """Embed into ``embedder``'s cache the sentence spans of ``chunks`` it lacks (what the planner
    embeds when one of them is recalled); returns how many. Nothing to do, and 0, when
    ``embedder`` keeps no cache."""
    if not isinstance(embedder, EmbeddingCache):
        return 0
    return _embed_missing(embedder, sentence_texts(store, chunks), batch_size)


def _embed_missing(cache: EmbeddingCache, texts: Sequence[str], batch_size: int) -> int:
    """Embed the texts ``cache`` lacks, ``batch_size`` at a time; returns how many."""
    missing = cache.missing(texts)
    for start in range(0, len(missing), batch_size):
        cache.embed(missing[start : start + batch_size])
    return len(missing)
