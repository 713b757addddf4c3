"""Artifacts, edges, flags and impact walks (SPEC §2, §5.7) as plain values.

An **artifact** is anything built on records: an ``assessment`` (a sufficiency judgement on a
question), a ``package``, an ``approach`` or a ``design``. Its content lives in numbered
**versions**; a version never changes once written, and an *approved* version is final (the
store refuses to rewrite or delete it). What a version depends on becomes one **edge** per
dependency, ``from_ref`` (depended on) → ``to_ref`` (dependent).

Refs are strings: ``source:<id>:v<n>``, ``record:<id>``, ``assessment:<id>``, ``package:<id>``,
``approach:<id>``, ``design:<id>``.

When something changes (a source retracted, a record rejected or re-proposed) an **impact walk**
follows the edges outward from the changed ref in small steps and sets one **flag** per
dependent and changed ref; flags are idempotent (a second walk from the same ref adds none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from spanproof.core.errors import InvalidInputError, check_choice

ARTIFACT_KINDS = ("assessment", "package", "approach", "design")
REF_KINDS = ("source", "record", *ARTIFACT_KINDS)
#: Sufficiency judgements of an assessment (SPEC §5.5).
JUDGEMENTS = ("sufficient", "insufficient", "requires_expert_review")
WALK_STATUSES = ("running", "done")
#: Why a walk started.
WALK_REASONS = ("retracted", "withdrawn", "rejected", "reproposed", "corrected")

#: Ids are any non-empty text on one line (file source ids carry paths, spaces and colons).
_ID = r".+"
_SOURCE_REF = re.compile(rf"source:(?P<id>{_ID}):v(?P<version>[1-9][0-9]*)")
_PLAIN_REF = re.compile(rf"(?P<kind>record|assessment|package|approach|design):(?P<id>{_ID})")
#: The longest ref accepted (ids are short; this bounds what a request can make us store).
MAX_REF_CHARS = 512


@dataclass(frozen=True, slots=True)
class Ref:
    """A parsed ref: its kind, id and (for sources) version number."""

    kind: str
    id: str
    version: int | None = None

    def __str__(self) -> str:
        if self.kind == "source":
            return f"source:{self.id}:v{self.version}"
        return f"{self.kind}:{self.id}"


def parse_ref(text: str) -> Ref:
    """``text`` as a :class:`Ref`.

    Raises:
        InvalidInputError: not one of the ref forms (with the forms in the message).
    """
    if len(text) > MAX_REF_CHARS:
        raise InvalidInputError(f"a ref is at most {MAX_REF_CHARS} characters")
    match = _SOURCE_REF.fullmatch(text)
    if match is not None:
        return Ref("source", match["id"], int(match["version"]))
    match = _PLAIN_REF.fullmatch(text)
    if match is not None:
        return Ref(match["kind"], match["id"])
    raise InvalidInputError(
        f"not a ref: {text!r} (expected source:<id>:v<n>, record:<id>, or "
        f"{'|'.join(ARTIFACT_KINDS)}:<id>)"
    )


def source_ref(source_id: str, version: int) -> str:
    return str(Ref("source", source_id, version))


def record_ref(record_id: str) -> str:
    return f"record:{record_id}"


def artifact_ref(kind: str, artifact_id: str) -> str:
    check_choice(kind, ARTIFACT_KINDS, "artifact kind")
    return f"{kind}:{artifact_id}"


@dataclass(frozen=True, slots=True)
class Artifact:
    """An artifact's identity: kind, id and title (its content is in its versions)."""

    id: str
    kind: str
    title: str
    created_at: str

    def __post_init__(self) -> None:
        check_choice(self.kind, ARTIFACT_KINDS, "artifact kind")
        parse_ref(f"{self.kind}:{self.id}")

    @property
    def ref(self) -> str:
        return artifact_ref(self.kind, self.id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "ref": self.ref,
            "created_at": self.created_at,
        }


@dataclass(frozen=True, slots=True)
class ArtifactVersion:
    """One version of an artifact: its body (JSON object), what it depends on, and — once
    approved — who approved it and when. ``number`` counts from 1."""

    artifact_id: str
    number: int
    body: dict[str, Any] = field(hash=False)
    depends_on: tuple[str, ...]
    created_at: str
    approved_by: str = ""
    approved_at: str = ""

    def __post_init__(self) -> None:
        if self.number < 1:
            raise InvalidInputError(f"a version number counts from 1, not {self.number}")
        for ref in self.depends_on:
            parse_ref(ref)
        if len(set(self.depends_on)) != len(self.depends_on):
            raise InvalidInputError("depends_on lists a ref twice")
        if bool(self.approved_by) != bool(self.approved_at):
            raise InvalidInputError("approved_by and approved_at are set together")

    @property
    def approved(self) -> bool:
        return bool(self.approved_at)

    def to_dict(self) -> dict[str, Any]:
        return {
            "artifact_id": self.artifact_id,
            "number": self.number,
            "body": self.body,
            "depends_on": list(self.depends_on),
            "created_at": self.created_at,
            "approved": self.approved,
            "approved_by": self.approved_by,
            "approved_at": self.approved_at,
        }


@dataclass(frozen=True, slots=True)
class Edge:
    """One dependency: ``to_ref`` is built on ``from_ref``."""

    from_ref: str
    to_ref: str

    def __post_init__(self) -> None:
        parse_ref(self.from_ref)
        parse_ref(self.to_ref)
        if self.from_ref == self.to_ref:
            raise InvalidInputError(f"an edge cannot join {self.from_ref} to itself")


@dataclass(frozen=True, slots=True)
class Flag:
    """``ref`` needs a look because ``changed_ref`` changed (``reason``); set by ``walk_id``."""

    ref: str
    changed_ref: str
    reason: str
    walk_id: str
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "changed_ref": self.changed_ref,
            "reason": self.reason,
            "walk_id": self.walk_id,
            "created_at": self.created_at,
        }


@dataclass(frozen=True, slots=True)
class Walk:
    """An impact walk's journal row: where it started, why, and how far it has come."""

    id: str
    changed_ref: str
    reason: str
    status: str
    steps: int
    edges: int
    flags: int
    started_at: str
    finished_at: str = ""

    def __post_init__(self) -> None:
        check_choice(self.status, WALK_STATUSES, "walk status")

    @property
    def done(self) -> bool:
        return self.status == "done"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "changed_ref": self.changed_ref,
            "reason": self.reason,
            "status": self.status,
            "steps": self.steps,
            "edges": self.edges,
            "flags": self.flags,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
        }


@dataclass(frozen=True, slots=True)
class WalkStep:
    """What one step did: edges followed, flags newly set, and whether the walk is now done."""

    walk_id: str
    done: bool
    edges: int
    flags: int
