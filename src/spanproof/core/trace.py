"""Traces (SPEC §4.7): the immutable record of one generation or verification, in a hash chain.

A trace is stored as its canonical JSON (sorted keys, no spaces, UTF-8, floats as Python's
shortest round-trip repr). ``hash`` is the SHA-256 of the canonical JSON of every field but
``hash``; it covers ``prev_hash``, the previous trace's hash, so changing, removing or reordering
any stored trace breaks every later link. Vectors are kept (as base64 float32) so the
deterministic scoring can be replayed from the trace alone.
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

GENESIS = "0" * 64
#: Fields added after traces were first stored: left out of the body while empty, so older
#: traces keep their exact JSON and hash.
_ADDED_LATER = ("outcome", "counts", "proposition", "relevance")
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
        for key in _ADDED_LATER:
            if not data[key]:
                data.pop(key)
        return data

    def compute_hash(self) -> str:
        return sha256_hex(canonical_json(self.body()))

    def sealed(self, *, seq: int, prev_hash: str, created_at: str) -> Trace:
        """This trace placed in the chain: id, seq, previous hash and its own hash set."""
        placed = replace(self, seq=seq, prev_hash=prev_hash, created_at=created_at, id="", hash="")
        provisional = placed.compute_hash()
        placed = replace(placed, id=f"tr_{provisional[:24]}")
        return replace(placed, hash=placed.compute_hash())

    def to_json(self) -> str:
        return canonical_json({**self.body(), "hash": self.hash})

    @classmethod
    def from_json(cls, text: str) -> Trace:
        return cls(**json.loads(text))


def plan_hash(plan: Sequence[dict[str, Any]]) -> str:
    """Hash of a plan's canonical JSON (same plan → same hash)."""
    return sha256_hex(canonical_json(list(plan)))


@dataclass(frozen=True, slots=True)
class ChainProblem:
    seq: int
    trace_id: str
    problem: str


def check_chain(traces: Sequence[Trace]) -> list[ChainProblem]:
    """Problems in a chain given in ``seq`` order: bad hashes, broken links, gaps."""
    problems: list[ChainProblem] = []
    previous = GENESIS
    for expected_seq, trace in enumerate(traces, start=1):
        if trace.seq != expected_seq:
            problems.append(ChainProblem(trace.seq, trace.id, f"expected seq {expected_seq}"))
        if trace.prev_hash != previous:
            problems.append(
                ChainProblem(trace.seq, trace.id, "prev_hash does not match the previous trace")
            )
        if trace.compute_hash() != trace.hash:
            problems.append(ChainProblem(trace.seq, trace.id, "content does not match its hash"))
        previous = trace.hash
    return problems


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
