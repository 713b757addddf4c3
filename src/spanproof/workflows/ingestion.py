"""Ingestion per source as a durable workflow (SPEC §3).

``spanproof.ingest_document`` takes a fetched document (its bytes travel in the journal, so any
worker on any machine can run it) and runs three steps: ``order`` (whether an ingestion of the
source enqueued after it has run already: then it is ``superseded`` and does nothing, so one
cancelled and resumed by hand never undoes a later change of its source), ``store`` (hash, raw
bytes, parse or quarantine, sections, chunks, measurements:
:func:`spanproof.services.ingestion.ingest`) and ``embed`` (vectors for that version's chunks).
``spanproof.fetch_and_ingest`` first fetches a ``pmc:…`` / ``pmid:…`` / ``doi:…`` source in a
``fetch`` step, on the rate-limited fetch queue; a source that cannot be fetched (after the
step's retries) ends it with a ``failed`` result that says why, so the batch it belongs to
reports it beside the sources that were ingested.

Each step's store writes carry their own progress marker, committed with them: a version's
state moves from ``pending`` to ``parsed`` in the transaction that stores its sections, and
embeddings are keyed by chunk id. A step the engine re-runs after a crash (its writes committed,
its checkpoint not yet) therefore finds its work done and does nothing twice.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dbos import DBOS
from dbos import error as dbos_error

from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError, SourceError
from spanproof.core.store import EvidenceStore
from spanproof.services.ingestion import (
    IngestOutcome,
    cache_chunk_sentences,
    content_hash,
    ingest,
)
from spanproof.workflows.runtime import current

INGEST_WORKFLOW = "spanproof.ingest_document"
FETCH_WORKFLOW = "spanproof.fetch_and_ingest"


def ingest_workflow_id(
    source_id: str, fetched: FetchedDocument, history: Sequence[str] = ()
) -> str:
    """One workflow per time a content becomes the source's current one.

    ``history`` is the hashes of the contents the source has read, oldest first
    (:func:`content_history`), followed by those of the ingestions enqueued for it and not yet
    run (:func:`with_queued`); a hash's first 16 hex digits are enough. Bytes that are the last
    of them already name the workflow that makes them current, so enqueueing them again attaches
    to it (or replays it) and does nothing; bytes that would change the content (new bytes, or
    an earlier version's coming back: A → B → A) name a new one, ``ingest:{source}:{sha[:16]}``
    the first time and ``…:{n}`` the n-th time. (A transition whose workflow failed or was
    cancelled is tried again under ``…~{k}``: :func:`plan_ingestions`.)
    """
    return _transition_id(source_id, content_hash(fetched.raw)[:16], history)


def _transition_id(source_id: str, sha16: str, history: Sequence[str]) -> str:
    seen = [h[:16] for h in history]
    times = seen.count(sha16)
    if not seen or seen[-1] != sha16:
        times += 1  # this ingestion makes it current
    base = f"ingest:{source_id}:{sha16}"
    return base if times <= 1 else f"{base}:{times}"


_SHA16 = re.compile(r"[0-9a-f]{16}")


def _ordinal(text: str) -> bool:
    return text.isdigit() and text[0] != "0"


def transition_of(source_id: str, workflow_id: str) -> tuple[str, int] | None:
    """What an ingestion workflow id of ``source_id`` names (:func:`ingest_workflow_id`): the
    content (its hash's first 16 hex digits) and the n-th time it becomes current; None for the
    id of another source or workflow. Every try of a transition (``…~{k}``) names the same."""
    prefix = f"ingest:{source_id}:"
    if not workflow_id.startswith(prefix):
        return None
    rest, tilde, k = workflow_id.removeprefix(prefix).partition("~")
    if tilde and not (_ordinal(k) and int(k) >= 2):
        return None
    sha, colon, n = rest.partition(":")
    if not _SHA16.fullmatch(sha) or (colon and not _ordinal(n)):
        return None
    return sha, int(n) if colon else 1


def try_of(workflow_id: str) -> int:
    """Which try of its transition an ingestion workflow id names: 1, or ``k`` for ``…~{k}``."""
    _, tilde, k = workflow_id.rpartition("~")
    return int(k) if tilde and _ordinal(k) else 1


def with_queued(history: Sequence[str], queued: Iterable[tuple[str, int]]) -> list[str]:
    """A source's ``history`` (:func:`content_history`) and then, in the order they will run,
    the contents its queued ingestions will make current (each :func:`transition_of` a workflow
    enqueued or running): the history an ingestion enqueued now follows. A running one whose
    n-th time is in the store already is not counted twice."""
    seen = [h[:16] for h in history]
    return seen + [sha for sha, n in queued if seen.count(sha) < n]


#: The engine's states of an ingestion that is still to run (ENQUEUED) or running (PENDING).
#: The others are final: SUCCESS, or an ingestion that made nothing current and never will
#: (ERROR, CANCELLED, MAX_RECOVERY_ATTEMPTS_EXCEEDED).
IN_FLIGHT = ("ENQUEUED", "PENDING")
#: Not an engine state: spanproof's name for an ingestion that ended SUCCESS with a
#: ``superseded`` result (:func:`superseded_by`). It made nothing current, like a failed one.
SUPERSEDED = "SUPERSEDED"


@dataclass(frozen=True, slots=True)
class Journalled:
    """An ingestion workflow of a source as the journal holds it: its id, state, and its place
    in the source's queue (``priority``: the source's ingestions run lowest first)."""

    workflow_id: str
    status: str
    priority: int = 0
    created_ms: int = 0


@dataclass(frozen=True, slots=True)
class Planned:
    """Where one enqueued document goes.

    Attributes:
        workflow_id: the workflow that makes its bytes current (:func:`ingest_workflow_id`).
        priority: its place in the source's queue, after every ingestion of the source still
            enqueued or running (used only when ``new``).
        new: False when it attaches to a workflow the journal holds already.
        finished: it attaches to one that finished: enqueueing it replays that run's result.
    """

    workflow_id: str
    priority: int
    new: bool
    finished: bool = False


def read_journal(
    list_workflows: Callable[..., Sequence[Any]], sources: Sequence[str]
) -> list[Journalled]:
    """The ingestion workflows of ``sources`` in the journal, through ``list_workflows`` (a
    ``DBOSClient``'s or ``DBOS``'s), each ``SUCCESS`` whose result is ``superseded`` read as
    :data:`SUPERSEDED`. (Outputs are small: the inputs, with their bytes, are not loaded.)"""
    rows = list_workflows(
        name=INGEST_WORKFLOW,
        workflow_id_prefix=[f"ingest:{s}:" for s in sources],
        load_input=False,
        load_output=True,
    )
    return [
        Journalled(w.workflow_id, _state(w.status, w.output), w.priority or 0, w.created_at or 0)
        for w in rows
    ]


def _state(status: str, output: Any) -> str:
    if status == "SUCCESS" and isinstance(output, dict) and output.get("status") == "superseded":
        return SUPERSEDED
    return status


def enqueue_order(j: Journalled) -> tuple[int, int]:
    """Where ``j`` stands among its source's ingestions in the order they were enqueued: its
    enqueue time, then, among those enqueued at the same time (one enqueue transaction; on
    SQLite, whose times here are whole seconds, the same second), its priority, which grows
    with every ingestion of the source enqueued (:func:`plan_ingestions`)."""
    return j.created_ms, j.priority


def superseded_by(source_id: str, workflow_id: str, journal: Iterable[Journalled]) -> str | None:
    """The last ingestion of ``source_id`` enqueued after ``workflow_id`` (:func:`enqueue_order`)
    that has run to the end (``SUCCESS``), or None: an ingestion cancelled in A, B, A and resumed
    by hand after the second A ran would otherwise make B current although A was enqueued last.

    One still queued or running, or one that failed or was cancelled, does not count; nor does a
    superseded one, as one enqueued after it ran. None too for an id ``journal`` does not hold.
    """
    mine = [j for j in journal if transition_of(source_id, j.workflow_id) is not None]
    me = next((j for j in mine if j.workflow_id == workflow_id), None)
    if me is None:
        return None
    later = [j for j in mine if j.status == "SUCCESS" and enqueue_order(j) > enqueue_order(me)]
    return max(later, key=enqueue_order).workflow_id if later else None


def _settled(source_id: str, journal: Iterable[Journalled]) -> list[Journalled]:
    """``source_id``'s ingestions in ``journal``, each one still queued that an ingestion enqueued
    after it has run before it (one resumed by hand) read as :data:`SUPERSEDED`: it will do
    nothing when it starts (:func:`order_step`)."""
    mine = [j for j in journal if transition_of(source_id, j.workflow_id) is not None]
    return [
        dataclasses.replace(j, status=SUPERSEDED)
        if j.status == "ENQUEUED" and superseded_by(source_id, j.workflow_id, mine)
        else j
        for j in mine
    ]


def plan_ingestions(
    source_id: str, shas: Sequence[str], stored: Sequence[str], journal: Iterable[Journalled]
) -> list[Planned]:
    """The workflow of each of ``shas`` (content hashes, in the order enqueued) for
    ``source_id``, read against the contents it has read (``stored``: :func:`content_history`)
    and its ingestion workflows in ``journal``.

    Ingestions of one source run one at a time, lowest ``priority`` first (the ingest queue is
    partitioned, a source on one partition), so each new one is placed after those still
    enqueued or running (its priority one more than any ingestion of the source has had), and
    its id follows the history they will leave (:func:`with_queued`). One that failed, was
    cancelled or was superseded (:data:`SUPERSEDED`; or is still queued, resumed by hand after
    an ingestion enqueued after it ran, so it will be) made nothing current: it is not counted,
    it holds back no later one, and the same transition enqueued again is tried again as
    ``{id}~{k}`` (the k-th try) rather than replaying the failure. A duplicate (the bytes the
    source reads or is queued to read last) attaches to the workflow that makes them current.
    """
    tries: dict[tuple[str, int], list[Journalled]] = {}
    in_flight: list[Journalled] = []
    for j in _settled(source_id, journal):
        transition = transition_of(source_id, j.workflow_id)
        if transition is None:
            continue
        tries.setdefault(transition, []).append(j)
        if j.status in IN_FLIGHT:
            in_flight.append(j)
    in_flight.sort(key=lambda j: (j.status != "PENDING", j.priority, j.created_ms, j.workflow_id))
    queued = [transition_of(source_id, j.workflow_id) for j in in_flight]
    history = with_queued(stored, [t for t in queued if t is not None])
    # One more than any ingestion of the source ever had, not only the unfinished ones: the
    # order enqueued is then the order of priorities, even where the journal's clock cannot
    # tell two enqueues apart (SQLite's whole seconds), which superseded_by relies on.
    priority = max((j.priority for known in tries.values() for j in known), default=0) + 1
    out: list[Planned] = []
    for sha in shas:
        sha16 = sha[:16]
        wid = _transition_id(source_id, sha16, history)
        transition = transition_of(source_id, wid)
        assert transition is not None
        known = tries.setdefault(transition, [])
        live = [j for j in known if j.status in IN_FLIGHT or j.status == "SUCCESS"]
        if live:
            latest = max(live, key=lambda j: try_of(j.workflow_id))
            out.append(Planned(latest.workflow_id, 0, False, latest.status == "SUCCESS"))
        else:
            if known:
                wid = f"{wid}~{max(try_of(j.workflow_id) for j in known) + 1}"
            out.append(Planned(wid, priority, True))
            known.append(Journalled(wid, "ENQUEUED", priority))
            priority += 1
        if not history or history[-1] != sha16:
            history.append(sha16)
    return out


def content_history(store: EvidenceStore, source_id: str) -> list[str]:
    """The hashes of the contents ``source_id`` has read as current, oldest first."""
    shas = {v.number: v.sha256 for v in store.versions(source_id)}
    return [shas[n] for n in store.current_history(source_id)]


def _retryable(exc: BaseException) -> bool:
    return bool(getattr(exc, "retryable", False))


@DBOS.step(name="spanproof.ingest.fetch", retries_allowed=True, should_retry=_retryable)
def fetch_step(target: str) -> tuple[str, FetchedDocument]:
    """Fetch through the connector (retried only on errors that say they are retryable)."""
    return current().fetch(target)


@DBOS.step(name="spanproof.ingest.order")
def order_step(source_id: str, workflow_id: str) -> str | None:
    """The ingestion of the source enqueued after this one that has run already
    (:func:`superseded_by`), read from the journal before anything is written. Journalled, so a
    re-run after a crash takes the decision its first run took."""
    return superseded_by(source_id, workflow_id, read_journal(DBOS.list_workflows, [source_id]))


def superseded(source_id: str, later: str) -> dict[str, Any]:
    """The result of an ingestion that did nothing because ``later``, an ingestion of its source
    enqueued after it, has run: ``status`` ``superseded``, ``superseded_by`` that workflow."""
    reason = f"an ingestion of the source enqueued after this one has run ({later})"
    outcome = dataclasses.asdict(IngestOutcome(source_id, 0, "superseded", reason))
    return {**outcome, "superseded_by": later, "chunks_embedded": 0}


@DBOS.step(name="spanproof.ingest.store")
def store_step(source_id: str, fetched: FetchedDocument) -> dict[str, Any]:
    """Store and parse one document: :func:`~spanproof.services.ingestion.ingest`."""
    rt = current()
    return dataclasses.asdict(ingest(rt.store, fetched, source_id, rt.parse))


@DBOS.step(name="spanproof.ingest.embed")
def embed_step(source_id: str, version: int) -> int:
    """Embed the chunks of one version, and their sentences into the embedding cache; returns
    how many chunks.

    Idempotent: vectors are keyed by chunk id (and the embedder caches by text), so a re-run
    rewrites the same rows.
    """
    rt = current()
    embedder = rt.get_embedder()
    chunks = rt.store.chunks(source_id, version)
    if not chunks:
        return 0
    vectors = embedder.embed([c.text for c in chunks])
    items = [(c.id, vectors[i]) for i, c in enumerate(chunks)]
    with rt.store.transaction():
        rt.store.put_embeddings(embedder.model_id, items)
    cache_chunk_sentences(rt.store, embedder, chunks)  # so that ask embeds only the question
    return len(chunks)


def _ingest(source_id: str, fetched: FetchedDocument, embed: bool) -> dict[str, Any]:
    later = order_step(source_id, DBOS.workflow_id or "")
    if later is not None:
        return superseded(source_id, later)
    outcome = store_step(source_id, fetched)
    outcome["chunks_embedded"] = 0
    # "duplicate" too: a re-run after a crash finds the version its first run parsed.
    if embed and outcome["status"] != "quarantined":
        outcome["chunks_embedded"] = embed_step(source_id, outcome["version"])
    return outcome


@DBOS.workflow(name=INGEST_WORKFLOW)
def ingest_document(source_id: str, fetched: FetchedDocument, embed: bool = True) -> dict[str, Any]:
    """Store, parse and (unless ``embed`` is false) embed one fetched document, unless an
    ingestion of the source enqueued after this one has run already (:func:`order_step`).

    Returns the :class:`~spanproof.services.ingestion.IngestOutcome` as a dict, plus
    ``chunks_embedded``; or, when a later one has run, :func:`superseded` (nothing is written).
    """
    return _ingest(source_id, fetched, embed)


def fetch_failure(target: str, exc: Exception) -> dict[str, Any]:
    """The result of a fetch that failed: ``status`` ``failed``, the ``target``, the ``error``'s
    type, the ``reason`` and whether a later try may succeed (``retryable``)."""
    if isinstance(exc, dbos_error.DBOSMaxStepRetriesExceeded) and exc.errors:
        exc = exc.errors[-1]  # the step's retries ran out: the last attempt says why
    return {
        "status": "failed",
        "target": target,
        "error": type(exc).__name__,
        "reason": str(exc),
        "retryable": bool(getattr(exc, "retryable", False)),
        "chunks_embedded": 0,
    }


@DBOS.step(name="spanproof.ingest.hand_off")
def hand_off_step(source_id: str, fetched: FetchedDocument, embed: bool) -> tuple[str, bool]:
    """Enqueue the ingestion of a fetched document on its source's partition of the ingest
    queue, in the source's order (:func:`~spanproof.workflows.client.enqueue_ingestions`);
    returns its workflow id and whether it had finished already. A re-run after a crash reads
    the same bytes as queued last, so it attaches to the ingestion its first run enqueued."""
    from spanproof.workflows.client import connect, enqueue_ingestions
    from spanproof.workflows.runtime import journal_url

    url = journal_url()
    with connect(url) as client:
        sent = enqueue_ingestions(client, url, [(source_id, fetched)], current().store, embed=embed)
    return sent.ids[0], bool(sent.finished)


@DBOS.workflow(name=FETCH_WORKFLOW)
def fetch_and_ingest(target: str, embed: bool = True) -> dict[str, Any]:
    """Fetch ``target`` through its connector, then ingest it through the ingest queue, after
    the source's ingestions queued before it (:func:`hand_off_step`), and return that
    ingestion's result (``duplicate`` for bytes an earlier ingestion made current).

    A source that cannot be fetched (not found, a network error, a reply the connector cannot
    read) returns :func:`fetch_failure` rather than failing the workflow.
    """
    try:
        source_id, fetched = fetch_step(target)
    except (SourceError, InvalidInputError, dbos_error.DBOSMaxStepRetriesExceeded) as exc:
        return fetch_failure(target, exc)
    workflow_id, finished = hand_off_step(source_id, fetched, embed)
    outcome: dict[str, Any] = dict(DBOS.retrieve_workflow(workflow_id).get_result())
    if finished and outcome.get("status") in ("new", "reverted"):
        outcome.update(status="duplicate", chunks_embedded=0)  # its bytes were current already
    return outcome
