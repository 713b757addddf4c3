"""Traces (SPEC §4.7): the immutable record of one generation or verification, in a hash chain.

A trace is stored as its canonical JSON (sorted keys, no spaces, UTF-8, floats as Python's
shortest round-trip repr). ``hash`` is the SHA-256 of the canonical JSON of every field but
``hash``; it covers ``prev_hash``, the previous trace's hash, so changing, removing or reordering
any stored trace breaks every later link. Vectors are kept (as base64 float32) so the
deterministic scoring can be replayed from the trace alone.

Traces sealed since erasure reached them (``seal`` = :data:`LEAF_SEAL`) hash the body with every
string replaced by its own SHA-256. An erasure (SPEC §7) can then mask the text a trace copied
from the erased range and keep each masked string's digest in ``erased`` (outside the hash): the
hash still checks, and nothing else in the trace can change unseen. Older traces hash the body
as it is; one masked by an erasure keeps its links checked, not its content
(:func:`erased_unchecked`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from spanproof.core.store import MASK

GENESIS = "0" * 64
#: Fields added after traces were first stored: left out of the body while empty, so older
#: traces keep their exact JSON and hash.
_ADDED_LATER = ("outcome", "counts", "proposition", "relevance", "seal")
#: The seal of traces written since erasure could reach them: the hash covers each string's
#: SHA-256, not the string (see the module docstring).
LEAF_SEAL = "leaves-v1"
SECRET_KEYS = frozenset(
    {"api_key", "apikey", "authorization", "password", "secret", "token", "x-api-key"}
)


def canonical_json(value: Any) -> str:
    """The one serialisation traces are hashed and stored in."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def encode_vector(vector: npt.NDArray[np.float32]) -> str:
    """Base64 of little-endian float32: exact and compact."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode_vector(text: str) -> npt.NDArray[np.float32]:
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float32)


def scrub(value: Any) -> Any:
    """A copy of a request with secret-looking keys removed, at any depth."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if str(k).lower() not in SECRET_KEYS}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Trace:
    """One judgement, as stored.

    Attributes:
        kind: ``generation`` or ``verification``.
        request: the caller's request with secrets removed.
        plan: the packed evidence, in marker order: dicts with ``marker``, ``id``, ``text``,
            ``truth_class`` and source fields (``source_id``, ``version``, ``section_key``,
            ``start``, ``end``) when the span came from the store.
        models: ``gen``, ``decompose``, ``embed``, ``embed_hash``, ``score_model``,
            ``plan_model``, ``prompt_model``.
        claims: the claim verdicts as in the verify JSON contract.
        embeddings: what replay needs: ``claims`` (one base64 vector per claim) and ``windows``
            (dicts with ``span`` index, ``start``, ``end``, ``vector``).
        outcome, counts: what the report found (``Outcome``) and how many claims got each
            verdict. Traces written before they existed lack both; :meth:`body` leaves them out
            while empty, so such a trace's hash is what it always was (read one's outcome with
            ``core.outcome.trace_outcome``).
        proposition: for a question that is a proposition, the claim it asks about and its
            verdict (``services.propositions.PropositionCheck.to_dict``); empty otherwise, and
            then left out of :meth:`body` like ``outcome``.
        relevance: with a relevance model, how relevant the plan's spans were to the question
            (``services.planning.Plan.relevance_record``: model, floor, best score, answered,
            each span's score, the closest dropped spans); empty otherwise, left out likewise.
        seal: how ``hash`` is computed: :data:`LEAF_SEAL` for traces sealed since erasure could
            reach them, empty for older ones (left out of :meth:`body` while empty).
        erased: what erasures masked after sealing (not covered by the hash): ``erasures`` (their
            ids) and ``leaves`` (JSON pointer of each masked string → SHA-256 of the string as
            sealed). Empty for a trace no erasure reached.
        seq: position in the chain (from 1), assigned on append; ``id`` likewise.
    """

    kind: str
    request: dict[str, Any]
    plan: list[dict[str, Any]]
    plan_hash: str
    prompt_hash: str
    models: dict[str, str]
    draft: str
    claims: list[dict[str, Any]]
    verification: str
    delivered: str | None
    usage: dict[str, int] = field(default_factory=dict)
    embeddings: dict[str, Any] = field(default_factory=dict)
    outcome: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    proposition: dict[str, Any] = field(default_factory=dict)
    relevance: dict[str, Any] = field(default_factory=dict)
    seal: str = ""
    erased: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""
    id: str = ""
    seq: int = 0
    prev_hash: str = ""
    hash: str = ""

    def body(self) -> dict[str, Any]:
        """Every field but ``hash`` (what the hash covers)."""
        # Shallow: the fields hold plain JSON values, and a deep copy (``asdict``) of a trace's
        # vectors took ~10 ms a call, three calls a stored trace.
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.pop("hash")
        data.pop("erased")
        for key in _ADDED_LATER:
            if not data[key]:
                data.pop(key)
        return data

    def compute_hash(self) -> str:
        if self.seal == LEAF_SEAL:
            leaves = self.erased.get("leaves", {}) if self.erased else {}
            return sha256_hex(canonical_json(_digested(self.body(), "", leaves)))
        return sha256_hex(canonical_json(self.body()))

    def sealed(self, *, seq: int, prev_hash: str, created_at: str) -> Trace:
        """This trace placed in the chain (under :data:`LEAF_SEAL`): id, seq, previous hash and
        its own hash set."""
        placed = replace(
            self,
            seq=seq,
            prev_hash=prev_hash,
            created_at=created_at,
            id="",
            hash="",
            seal=LEAF_SEAL,
            erased={},
        )
        provisional = placed.compute_hash()
        placed = replace(placed, id=f"tr_{provisional[:24]}")
        return replace(placed, hash=placed.compute_hash())

    def to_json(self) -> str:
        stored = {**self.body(), "hash": self.hash}
        if self.erased:
            stored["erased"] = self.erased
        return canonical_json(stored)

    @classmethod
    def from_json(cls, text: str) -> Trace:
        return cls(**json.loads(text))


def pointer_part(key: str | int) -> str:
    """One step of a JSON pointer (RFC 6901): ``~`` and ``/`` escaped."""
    return "/" + str(key).replace("~", "~0").replace("/", "~1")


def _digested(value: Any, pointer: str, leaves: dict[str, str]) -> Any:
    """``value`` with every string replaced by its SHA-256 (an erased one by the digest
    ``leaves`` kept for its pointer); keys, numbers, booleans and nulls as they are."""
    if isinstance(value, str):
        return leaves.get(pointer) or sha256_hex(value)
    if isinstance(value, dict):
        return {k: _digested(v, pointer + pointer_part(k), leaves) for k, v in value.items()}
    if isinstance(value, list):
        return [_digested(v, pointer + pointer_part(i), leaves) for i, v in enumerate(value)]
    return value


def plan_hash(plan: Sequence[dict[str, Any]]) -> str:
    """Hash of a plan's canonical JSON (same plan → same hash)."""
    return sha256_hex(canonical_json(list(plan)))


@dataclass(frozen=True, slots=True)
class ChainProblem:
    seq: int
    trace_id: str
    problem: str


def erased_unchecked(traces: Sequence[Trace]) -> list[Trace]:
    """Traces sealed before leaf seals that an erasure masked: their hash covers the text the
    erasure removed, so their content can no longer be checked (their links still are)."""
    return [t for t in traces if t.erased and t.seal != LEAF_SEAL]


def check_chain(traces: Sequence[Trace]) -> list[ChainProblem]:
    """Problems in a chain given in ``seq`` order: bad hashes, broken links, gaps, and an
    erased string that holds no mask (only an erasure may replace a sealed string).

    The content of a trace in :func:`erased_unchecked` is not checked: see there.
    """
    problems: list[ChainProblem] = []
    previous = GENESIS
    for expected_seq, trace in enumerate(traces, start=1):
        if trace.seq != expected_seq:
            problems.append(ChainProblem(trace.seq, trace.id, f"expected seq {expected_seq}"))
        if trace.prev_hash != previous:
            problems.append(
                ChainProblem(trace.seq, trace.id, "prev_hash does not match the previous trace")
            )
        unchecked = bool(trace.erased) and trace.seal != LEAF_SEAL
        if not unchecked and trace.compute_hash() != trace.hash:
            problems.append(ChainProblem(trace.seq, trace.id, "content does not match its hash"))
        for pointer in _unmasked_erasures(trace):
            problems.append(
                ChainProblem(trace.seq, trace.id, f"erased string {pointer} holds no mask")
            )
        previous = trace.hash
    return problems


def _unmasked_erasures(trace: Trace) -> list[str]:
    """Pointers the trace says an erasure masked whose string holds no :data:`MASK`."""
    leaves = trace.erased.get("leaves", {}) if trace.erased else {}
    body = trace.body() if leaves else {}
    out = []
    for pointer in sorted(leaves):
        value = resolve_pointer(body, pointer)
        if isinstance(value, str) and value and MASK not in value:
            out.append(pointer)
    return out


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at a JSON pointer, or None when there is none."""
    value = document
    for raw in pointer.split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value


@runtime_checkable
class TraceStore(Protocol):
    """Append-only storage of traces in one hash chain."""

    def append(self, trace: Trace) -> Trace:
        """Seal ``trace`` after the current last one (atomically) and store it; returns it."""
        ...

    def get_trace(self, trace_id: str) -> Trace | None: ...

    def list_traces(self, *, limit: int = 50, offset: int = 0) -> list[Trace]:
        """Newest first."""
        ...

    def chain(self) -> list[Trace]:
        """Every trace in ``seq`` order (for verification)."""
        ...

    def traces_citing(self, source_id: str) -> list[Trace]:
        """Every trace whose text names ``source_id`` as a source, in ``seq`` order (a superset
        of those whose plan read it: the caller checks)."""
        ...

    def store_erased(self, trace: Trace) -> None:
        """Replace a stored trace's text by ``trace``, an erasure's masking of it: the same id,
        seq and hash (raises ``InvalidInputError`` for an unknown id or another hash)."""
        ...
