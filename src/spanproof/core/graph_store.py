"""Storage of artifacts, edges, flags and impact walks (SPEC §2, §5.7): the port.

Artifact versions are append-only and an approved version is final; edges are one row per
dependency (adding one twice is a no-op); flags are unique per (dependent, changed ref) and never
changed or deleted. A walk's progress — which frontier ref it is expanding and the last edge it
followed — is a row updated in the same transaction as the flags each step sets, so a step
re-run after a crash does nothing twice and the walk resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from spanproof.core.artifacts import Artifact, ArtifactVersion, Edge, Flag, Walk, WalkStep

#: Most edges one walk step may follow (a step is one transaction; keep it short).
MAX_WALK_BATCH = 10_000


@runtime_checkable
class GraphStore(Protocol):
    """Artifacts with immutable approved versions, the dependency edges, flags and walks."""

    # artifacts ---------------------------------------------------------------------------------
    def create_artifact(self, artifact: Artifact) -> None:
        """Store a new artifact.

        Raises:
            InvalidInputError: an artifact with this id exists.
        """
        ...

    def get_artifact(self, artifact_id: str) -> Artifact | None: ...

    def list_artifacts(
        self, *, kind: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Artifact]:
        """Artifacts ordered by id, optionally of one kind."""
        ...

    def add_artifact_version(self, version: ArtifactVersion) -> None:
        """Append ``version`` (its number must be the next one) and one edge per ``depends_on``
        ref, in one transaction.

        Raises:
            InvalidInputError: unknown artifact, a number that is not the next, or a version
                that claims to be approved already.
        """
        ...

    def artifact_versions(self, artifact_id: str) -> list[ArtifactVersion]:
        """The artifact's versions by number."""
        ...

    def approve_artifact_version(
        self, artifact_id: str, number: int, approver: str, at: str
    ) -> ArtifactVersion:
        """Mark a version approved (once; it is final from then on) and return it.

        Raises:
            InvalidInputError: no such version, it is approved already, or ``approver`` is empty.
        """
        ...

    # edges -------------------------------------------------------------------------------------
    def add_edges(self, edges: Sequence[Edge]) -> int:
        """Add edges that are not there yet; returns how many were new."""
        ...

    def edges_from(self, ref: str, *, after: str = "", limit: int = 1000) -> list[Edge]:
        """Edges out of ``ref`` ordered by ``to_ref``, those after ``after`` only."""
        ...

    def edges_to(self, ref: str, *, limit: int = 1000) -> list[Edge]:
        """Edges into ``ref`` (what it depends on) ordered by ``from_ref``."""
        ...

    def dependents(self, ref: str, *, limit: int = 1000) -> list[str]:
        """Every ref reachable from ``ref`` along edges (not ``ref`` itself), sorted, at most
        ``limit`` of them."""
        ...

    # flags -------------------------------------------------------------------------------------
    def flags_on(self, refs: Sequence[str]) -> list[Flag]:
        """Every flag set on any of ``refs``, ordered by (ref, changed ref)."""
        ...

    def list_flags(
        self, *, changed_ref: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Flag]:
        """Flags ordered by (ref, changed ref), optionally those of one changed ref."""
        ...

    # walks -------------------------------------------------------------------------------------
    def start_walk(self, walk_id: str, changed_ref: str, reason: str, at: str) -> Walk:
        """Create the walk (status ``running``, frontier = ``changed_ref``); when a walk with
        this id exists it is returned unchanged, so starting twice starts once."""
        ...

    def walk_step(self, walk_id: str, batch: int, at: str) -> WalkStep:
        """Follow at most ``batch`` edges of the walk's frontier, flag their targets and advance
        the walk, all in one transaction; a walk that is done returns ``done`` with no work.

        Raises:
            InvalidInputError: unknown walk, or ``batch`` outside 1..MAX_WALK_BATCH.
        """
        ...

    def get_walk(self, walk_id: str) -> Walk | None: ...

    def list_walks(
        self, *, status: str | None = None, changed_ref: str | None = None, limit: int = 100
    ) -> list[Walk]:
        """Walks ordered by start time then id, filtered by status and changed ref."""
        ...
