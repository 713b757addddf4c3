"""Artifacts built on records (SPEC §2, §5.5): assessments, packages, approaches, designs.

* :func:`create_assessment` makes an assessment of a question from verified records (only a
  verified record is eligible); its first version lists the records and the judgement made then.
* :func:`create_artifact` makes a package, approach or design that depends on other refs (each
  must exist); :func:`add_version` appends a version, :func:`approve` makes one final.
* :func:`judgement` is the live sufficiency judgement of an assessment version: ``insufficient``
  with no eligible record; ``requires_expert_review`` while a single record is the only
  affirmative evidence and no reviewer has looked at it (a review decision on the record), or
  while an eligible record's source was retracted since; ``sufficient`` otherwise.
* :func:`artifact_view` gathers an artifact, its versions, the judgement and its flags.

Every version's dependencies become edges, so the impact walk reaches the artifact when a record
or source under it changes; a flag never rewrites an approved version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spanproof.core.artifacts import (
    ARTIFACT_KINDS,
    Artifact,
    ArtifactVersion,
    Flag,
    parse_ref,
    record_ref,
)
from spanproof.core.clock import utc_now
from spanproof.core.errors import InvalidInputError
from spanproof.core.record_store import RecordStore, record_store_of
from spanproof.core.records import Record
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.services.impact import flags_for, graph, ref_exists

#: Directions that state a finding (``none`` states nothing to rest a judgement on).
AFFIRMATIVE = frozenset({"increase", "decrease", "no_effect", "association"})
_INELIGIBLE_SOURCE = frozenset({"retracted", "withdrawn"})
MAX_QUESTION_CHARS = 2_000


def _artifact_id(kind: str, content: object) -> str:
    return f"{kind[:3]}-{sha256_hex(canonical_json(content))[:16]}"


def _reviewed(records: RecordStore, record_id: str) -> bool:
    return any(a.outcome.startswith("review:") for a in records.attempts(record_id))


@dataclass(frozen=True, slots=True)
class Judgement:
    """An assessment's sufficiency: ``label`` (one of JUDGEMENTS) and why."""

    label: str
    reason: str
    eligible: tuple[str, ...]
    awaiting_review: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "reason": self.reason,
            "eligible": list(self.eligible),
            "awaiting_review": list(self.awaiting_review),
        }


def judgement(store: EvidenceStore, record_ids: Sequence[str]) -> Judgement:
    """The sufficiency judgement of an assessment resting on ``record_ids``, as things are now."""
    records = record_store_of(store)
    eligible: list[Record] = []
    retracted: list[str] = []
    for record_id in record_ids:
        record = records.get_record(record_id)
        if record is None or record.status != "verified":
            continue
        if record.fields.direction not in AFFIRMATIVE:
            continue
        source = store.get_source(record.source_id)
        if source is not None and source.status in _INELIGIBLE_SOURCE:
            retracted.append(record.id)
            continue
        eligible.append(record)
    ids = tuple(r.id for r in eligible)
    if retracted:
        return Judgement(
            "requires_expert_review",
            f"the source of {', '.join(retracted)} was retracted or withdrawn",
            ids,
        )
    if not eligible:
        return Judgement("insufficient", "no verified record states a finding", ids)
    if len(eligible) == 1 and not _reviewed(records, eligible[0].id):
        only = eligible[0].id
        return Judgement(
            "requires_expert_review",
            f"record {only} is the only affirmative evidence and no reviewer has looked at it",
            ids,
            (only,),
        )
    if len(eligible) == 1:
        return Judgement("sufficient", "one affirmative record, looked at by a reviewer", ids)
    return Judgement("sufficient", f"{len(eligible)} verified records state a finding", ids)


#: How deep an artifact's body may nest (objects and lists): deeper bodies could be stored but
#: not served back (JSON serialisers stop at a few hundred levels), so they are refused.
MAX_BODY_DEPTH = 32


def _check_body(body: object) -> None:
    """Refuse a body nested deeper than :data:`MAX_BODY_DEPTH` (iteratively: no recursion)."""
    stack: list[tuple[object, int]] = [(body, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_BODY_DEPTH:
                raise InvalidInputError(
                    f"an artifact's body may nest at most {MAX_BODY_DEPTH} levels deep"
                )
            items = value.values() if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in items)


def _check_depends_on(store: EvidenceStore, refs: Sequence[str]) -> None:
    for text in refs:
        if not ref_exists(store, text):
            raise InvalidInputError(f"{text} does not exist: an artifact depends on what exists")


def create_assessment(
    store: EvidenceStore, question: str, record_ids: Sequence[str], *, title: str = ""
) -> tuple[Artifact, ArtifactVersion]:
    """An assessment of ``question`` on verified records (version 1, a draft).

    Raises:
        InvalidInputError: an empty or oversized question, no records, an unknown record or
            one that is not verified, or an assessment with the same content exists.
    """
    question = question.strip()
    if not question or len(question) > MAX_QUESTION_CHARS:
        raise InvalidInputError(f"a question has 1..{MAX_QUESTION_CHARS} characters")
    ids = sorted(set(record_ids))
    if not ids:
        raise InvalidInputError("an assessment rests on at least one record")
    records = record_store_of(store)
    for record_id in ids:
        record = records.get_record(record_id)
        if record is None:
            raise InvalidInputError(f"unknown record {record_id!r}")
        if record.status != "verified":
            raise InvalidInputError(
                f"record {record_id!r} is {record.status}: only a verified record is eligible "
                "for assessment"
            )
    judged = judgement(store, ids)
    body = {"question": question, "records": ids, "judgement": judged.to_dict()}
    artifact = Artifact(
        _artifact_id("assessment", [question, ids]), "assessment", title or question, utc_now()
    )
    version = ArtifactVersion(artifact.id, 1, body, tuple(record_ref(r) for r in ids), utc_now())
    return _store_new(store, artifact, version)


def create_artifact(
    store: EvidenceStore,
    kind: str,
    title: str,
    depends_on: Sequence[str],
    body: dict[str, Any] | None = None,
) -> tuple[Artifact, ArtifactVersion]:
    """A package, approach or design (version 1, a draft) depending on ``depends_on``.

    Raises:
        InvalidInputError: an unknown kind (assessments come from :func:`create_assessment`),
            an empty title, a ref that does not exist, a body nested deeper than
            :data:`MAX_BODY_DEPTH`, or the same artifact exists.
    """
    _check_body(body)
    if kind not in ARTIFACT_KINDS or kind == "assessment":
        raise InvalidInputError("kind must be package, approach or design")
    title = title.strip()
    if not title:
        raise InvalidInputError("an artifact needs a title")
    refs = tuple(dict.fromkeys(depends_on))
    _check_depends_on(store, refs)
    content = dict(body or {})
    artifact = Artifact(_artifact_id(kind, [title, refs, content]), kind, title, utc_now())
    version = ArtifactVersion(artifact.id, 1, content, refs, utc_now())
    return _store_new(store, artifact, version)


def _store_new(
    store: EvidenceStore, artifact: Artifact, version: ArtifactVersion
) -> tuple[Artifact, ArtifactVersion]:
    graphs = graph(store)
    with store.transaction():
        graphs.create_artifact(artifact)
        graphs.add_artifact_version(version)
    return artifact, version


def add_version(
    store: EvidenceStore,
    artifact_id: str,
    body: dict[str, Any],
    depends_on: Sequence[str],
) -> ArtifactVersion:
    """Append a new draft version (earlier versions, approved or not, stay as they are)."""
    _check_body(body)
    graphs = graph(store)
    artifact_id = bare_artifact_id(artifact_id)
    refs = tuple(dict.fromkeys(depends_on))
    _check_depends_on(store, refs)
    with store.transaction():
        artifact = graphs.get_artifact(artifact_id)
        if artifact is None:
            raise InvalidInputError(f"unknown artifact {artifact_id!r}")
        number = len(graphs.artifact_versions(artifact_id)) + 1
        version = ArtifactVersion(artifact_id, number, dict(body), refs, utc_now())
        graphs.add_artifact_version(version)
    return version


def approve(store: EvidenceStore, artifact_id: str, number: int, approver: str) -> ArtifactVersion:
    """Approve a version: it is final from then on.

    Raises:
        InvalidInputError: unknown artifact, or it has no such version (or a blank approver).
    """
    artifact_id = bare_artifact_id(artifact_id)
    graphs = graph(store)
    if graphs.get_artifact(artifact_id) is None:
        raise InvalidInputError(f"unknown artifact {artifact_id!r}")
    return graphs.approve_artifact_version(artifact_id, number, approver.strip(), utc_now())


def bare_artifact_id(text: str) -> str:
    """An artifact id given bare (``ass-…``) or as the ref that lists show
    (``assessment:ass-…``): the bare id."""
    kind, sep, rest = text.partition(":")
    return rest if sep and kind in ARTIFACT_KINDS and rest else text


@dataclass(frozen=True, slots=True)
class ArtifactView:
    """An artifact with its versions, its flags and (for an assessment) the live judgement of
    its newest version."""

    artifact: Artifact
    versions: tuple[ArtifactVersion, ...]
    flags: tuple[Flag, ...]
    judgement: Judgement | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "artifact": self.artifact.to_dict(),
            "versions": [v.to_dict() for v in self.versions],
            "flags": [f.to_dict() for f in self.flags],
            "flagged": bool(self.flags),
            "judgement": None if self.judgement is None else self.judgement.to_dict(),
        }


def artifact_view(store: EvidenceStore, artifact_id: str) -> ArtifactView:
    """Everything about one artifact.

    Raises:
        InvalidInputError: unknown artifact.
    """
    graphs = graph(store)
    artifact_id = bare_artifact_id(artifact_id)
    artifact = graphs.get_artifact(artifact_id)
    if artifact is None:
        raise InvalidInputError(f"unknown artifact {artifact_id!r}")
    versions = tuple(graphs.artifact_versions(artifact_id))
    flags = tuple(flags_for(store, [artifact.ref]).get(artifact.ref, []))
    judged = None
    if artifact.kind == "assessment" and versions:
        ids = [parse_ref(r).id for r in versions[-1].depends_on if r.startswith("record:")]
        judged = judgement(store, ids)
    return ArtifactView(artifact, versions, flags, judged)


def list_views(
    store: EvidenceStore, *, kind: str | None = None, limit: int = 100, offset: int = 0
) -> list[ArtifactView]:
    """One page of artifacts with their versions, flags and judgements."""
    return [
        artifact_view(store, a.id)
        for a in graph(store).list_artifacts(kind=kind, limit=limit, offset=offset)
    ]


def expert_review_pending(store: EvidenceStore, limit: int = 500) -> dict[str, list[str]]:
    """Records awaiting an expert's look, each with the assessments that wait on it."""
    waiting: dict[str, list[str]] = {}
    for view in list_views(store, kind="assessment", limit=limit):
        if view.judgement is not None and view.judgement.label == "requires_expert_review":
            for record_id in view.judgement.awaiting_review:
                waiting.setdefault(record_id, []).append(view.artifact.id)
    return waiting
