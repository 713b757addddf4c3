"""The one behaviour suite every ``GraphStore`` backend passes (SPEC §2, §5.7).

Subclass :class:`GraphStoreContract` and give it a ``graph_store`` fixture that yields an
**empty** store. The suite pins: artifacts and their versions read back exactly; versions
append in number order with one edge per dependency; approval happens once and an approved
version is final; edges are idempotent; ``dependents`` is the transitive closure (cycles
included); walks start once, follow at most ``batch`` edges per step, flag every dependent
exactly once per changed ref (diamonds and cycles included), resume from their journal row, and
a second walk from the same ref sets no new flag.

Tests use real stores only (no mocks). This module imports pytest, so it is for test code only.
"""

from __future__ import annotations

import pytest

from spanproof.core.artifacts import Artifact, ArtifactVersion, Edge
from spanproof.core.errors import InvalidInputError
from spanproof.core.graph_store import GraphStore

AT = "2026-11-30T12:00:00.000000+00:00"
UNICODE_TITLE = "Naïve β-blocker question 🧬 — 中文 e\u0301"


def make_artifact(n: int = 0, kind: str = "assessment") -> Artifact:
    return Artifact(f"a-{n:03d}", kind, f"{UNICODE_TITLE} {n}", AT)


def make_version(artifact_id: str, number: int, *depends_on: str) -> ArtifactVersion:
    body = {"question": UNICODE_TITLE, "n": number, "nested": {"list": [1, 2.5, None]}}
    return ArtifactVersion(artifact_id, number, body, tuple(depends_on), AT)


def _tree(store: GraphStore) -> None:
    """source:s:v1 → record:r1, record:r2; r1, r2 → assessment:q (a diamond); q → package:p;
    p → design:d; d → assessment:q (a cycle back)."""
    store.add_edges(
        [
            Edge("source:s:v1", "record:r1"),
            Edge("source:s:v1", "record:r2"),
            Edge("record:r1", "assessment:q"),
            Edge("record:r2", "assessment:q"),
            Edge("assessment:q", "package:p"),
            Edge("package:p", "design:d"),
            Edge("design:d", "assessment:q"),
        ]
    )


TREE_DEPENDENTS = ["assessment:q", "design:d", "package:p", "record:r1", "record:r2"]


class GraphStoreContract:
    """Behaviour every graph store backend must show."""

    # artifacts ---------------------------------------------------------------------------------
    def test_artifact_round_trip(self, graph_store: GraphStore) -> None:
        artifact = make_artifact(1)
        graph_store.create_artifact(artifact)
        assert graph_store.get_artifact("a-001") == artifact
        assert graph_store.get_artifact("nope") is None
        with pytest.raises(InvalidInputError, match="exists"):
            graph_store.create_artifact(artifact)

    def test_list_artifacts_filters_orders_and_pages(self, graph_store: GraphStore) -> None:
        for n, kind in ((3, "package"), (1, "assessment"), (2, "assessment"), (4, "design")):
            graph_store.create_artifact(make_artifact(n, kind))
        ids = [a.id for a in graph_store.list_artifacts()]
        assert ids == ["a-001", "a-002", "a-003", "a-004"]
        assert [a.id for a in graph_store.list_artifacts(kind="assessment")] == ["a-001", "a-002"]
        assert [a.id for a in graph_store.list_artifacts(limit=2, offset=1)] == ["a-002", "a-003"]

    def test_lists_take_pages_past_any_sql_integer(self, graph_store: GraphStore) -> None:
        graph_store.create_artifact(make_artifact(1))
        graph_store.add_edges([Edge("record:r", "assessment:a")])
        huge = 2**64
        assert graph_store.list_artifacts(offset=huge) == []
        assert [a.id for a in graph_store.list_artifacts(limit=huge)] == ["a-001"]
        assert graph_store.list_flags(offset=huge) == []
        assert [e.to_ref for e in graph_store.edges_from("record:r", limit=huge)] == [
            "assessment:a"
        ]
        assert [e.from_ref for e in graph_store.edges_to("assessment:a", limit=huge)] == [
            "record:r"
        ]
        assert graph_store.dependents("record:r", limit=huge) == ["assessment:a"]
        assert graph_store.list_walks(limit=huge) == []

    def test_text_with_a_nul_character_is_a_caller_mistake(self, graph_store: GraphStore) -> None:
        with pytest.raises(InvalidInputError, match="NUL"):
            graph_store.create_artifact(Artifact("a-001", "package", "P\x00", AT))
        with pytest.raises(InvalidInputError, match="NUL"):
            graph_store.get_artifact("a-\x00")
        with pytest.raises(InvalidInputError, match="NUL"):
            graph_store.dependents("record:\x00")

    def test_versions_append_with_their_edges(self, graph_store: GraphStore) -> None:
        graph_store.create_artifact(make_artifact(1))
        first = make_version("a-001", 1, "record:r1", "record:r2")
        graph_store.add_artifact_version(first)
        second = make_version("a-001", 2, "record:r2")
        graph_store.add_artifact_version(second)
        assert graph_store.artifact_versions("a-001") == [first, second]
        assert [e.from_ref for e in graph_store.edges_to("assessment:a-001")] == [
            "record:r1",
            "record:r2",
        ]
        with pytest.raises(InvalidInputError, match="next version is 3"):
            graph_store.add_artifact_version(make_version("a-001", 5))
        with pytest.raises(InvalidInputError, match="unknown artifact"):
            graph_store.add_artifact_version(make_version("ghost", 1))

    def test_approval_is_once_and_final(self, graph_store: GraphStore) -> None:
        graph_store.create_artifact(make_artifact(1))
        graph_store.add_artifact_version(make_version("a-001", 1, "record:r1"))
        approved = graph_store.approve_artifact_version("a-001", 1, "dr. ada", AT)
        assert approved.approved and approved.approved_by == "dr. ada"
        assert graph_store.artifact_versions("a-001") == [approved]
        with pytest.raises(InvalidInputError, match="is approved"):
            graph_store.approve_artifact_version("a-001", 1, "someone else", AT)
        with pytest.raises(InvalidInputError, match="no version 2"):
            graph_store.approve_artifact_version("a-001", 2, "dr. ada", AT)
        with pytest.raises(InvalidInputError, match="approver"):
            graph_store.add_artifact_version(make_version("a-001", 2))
            graph_store.approve_artifact_version("a-001", 2, "  ", AT)

    def test_a_new_version_cannot_arrive_approved(self, graph_store: GraphStore) -> None:
        graph_store.create_artifact(make_artifact(1))
        pre = ArtifactVersion("a-001", 1, {}, (), AT, approved_by="x", approved_at=AT)
        with pytest.raises(InvalidInputError, match="draft"):
            graph_store.add_artifact_version(pre)
        assert graph_store.artifact_versions("a-001") == []

    # edges -------------------------------------------------------------------------------------
    def test_edges_are_idempotent_and_paged(self, graph_store: GraphStore) -> None:
        edges = [Edge("record:r", f"assessment:a{n}") for n in range(5)]
        assert graph_store.add_edges(edges) == 5
        assert graph_store.add_edges([*edges, Edge("record:r", "assessment:a9")]) == 1
        assert graph_store.add_edges([]) == 0
        page = graph_store.edges_from("record:r", limit=2)
        assert [e.to_ref for e in page] == ["assessment:a0", "assessment:a1"]
        after = graph_store.edges_from("record:r", after="assessment:a1", limit=10)
        assert [e.to_ref for e in after] == [f"assessment:a{n}" for n in (2, 3, 4, 9)]

    def test_dependents_is_the_closure(self, graph_store: GraphStore) -> None:
        _tree(graph_store)
        assert graph_store.dependents("source:s:v1") == TREE_DEPENDENTS
        assert graph_store.dependents("package:p") == ["assessment:q", "design:d"]
        assert graph_store.dependents("source:s:v1", limit=2) == TREE_DEPENDENTS[:2]
        assert graph_store.dependents("record:unknown") == []

    # walks -------------------------------------------------------------------------------------
    def _walk_to_end(self, store: GraphStore, walk_id: str, batch: int) -> int:
        steps = 0
        while True:
            steps += 1
            step = store.walk_step(walk_id, batch, AT)
            assert step.edges <= batch
            if step.done:
                return steps
            assert steps < 1000, "the walk does not end"

    def test_walk_flags_each_dependent_once(self, graph_store: GraphStore) -> None:
        _tree(graph_store)
        walk = graph_store.start_walk("w1", "source:s:v1", "retracted", AT)
        assert walk.status == "running" and walk.flags == 0
        steps = self._walk_to_end(graph_store, "w1", batch=1)
        done = graph_store.get_walk("w1")
        assert done is not None and done.done and done.finished_at == AT
        assert done.edges == 7 and done.flags == 5 and done.steps == steps
        flags = graph_store.list_flags(changed_ref="source:s:v1")
        assert [f.ref for f in flags] == TREE_DEPENDENTS
        assert {f.reason for f in flags} == {"retracted"} and {f.walk_id for f in flags} == {"w1"}
        assert graph_store.walk_step("w1", 5, AT).done  # a done walk does nothing
        assert graph_store.get_walk("w1") == done

    def test_batch_bounds_each_step(self, graph_store: GraphStore) -> None:
        graph_store.add_edges([Edge("record:hub", f"assessment:x{n:02d}") for n in range(25)])
        graph_store.start_walk("w", "record:hub", "rejected", AT)
        first = graph_store.walk_step("w", 10, AT)
        assert (first.edges, first.flags, first.done) == (10, 10, False)
        steps = 1 + self._walk_to_end(graph_store, "w", batch=10)
        walk = graph_store.get_walk("w")
        assert walk is not None and walk.flags == 25 and walk.steps == steps
        with pytest.raises(InvalidInputError, match="batch"):
            graph_store.walk_step("w", 0, AT)
        with pytest.raises(InvalidInputError, match="unknown walk"):
            graph_store.walk_step("nope", 10, AT)

    def test_start_is_idempotent_and_flags_are_per_changed_ref(
        self, graph_store: GraphStore
    ) -> None:
        _tree(graph_store)
        graph_store.start_walk("w1", "source:s:v1", "retracted", AT)
        self._walk_to_end(graph_store, "w1", batch=3)
        again = graph_store.start_walk("w1", "source:s:v1", "retracted", AT)
        assert again.done and again.flags == 5
        # another walk from the same ref (a second event) sets no new flag
        graph_store.start_walk("w2", "source:s:v1", "retracted", AT)
        self._walk_to_end(graph_store, "w2", batch=3)
        second = graph_store.get_walk("w2")
        assert second is not None and second.flags == 0 and second.edges == 7
        # a walk from another changed ref flags the same dependents again, under its ref
        graph_store.start_walk("w3", "record:r1", "rejected", AT)
        self._walk_to_end(graph_store, "w3", batch=3)
        assert [f.changed_ref for f in graph_store.flags_on(["assessment:q"])] == [
            "record:r1",
            "source:s:v1",
        ]
        assert len(graph_store.list_flags()) == 5 + 3
        assert graph_store.list_flags(changed_ref="record:r1", limit=1, offset=1)[0].ref == (
            "design:d"
        )

    def test_walks_are_listed(self, graph_store: GraphStore) -> None:
        graph_store.add_edges([Edge("record:a", "assessment:b")])
        graph_store.start_walk("w1", "record:a", "rejected", AT)
        graph_store.start_walk("w2", "record:z", "reproposed", AT)
        self._walk_to_end(graph_store, "w1", batch=5)
        assert [w.id for w in graph_store.list_walks()] == ["w1", "w2"]
        assert [w.id for w in graph_store.list_walks(status="running")] == ["w2"]
        assert [w.id for w in graph_store.list_walks(changed_ref="record:a")] == ["w1"]
