"""Concurrent ``upsert_source`` calls on PostgreSQL: a race for the same external id.

Two writers of one source with the same new external id must both succeed with the same
result (the second waits for the first and finds the id already its own); two different
sources racing for one external id leave it with the first, the second failing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from pg_fixtures import fresh_database
from spanproof.core.errors import StoreError
from spanproof.core.store import Source
from spanproof.store.postgres import PostgresEvidenceStore


@pytest.fixture
def store() -> Iterator[PostgresEvidenceStore]:
    with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=3) as store:
        yield store


def _race(
    store: PostgresEvidenceStore, first: Source, second: Source, *, existing: bool
) -> tuple[list[Source | Exception], bool]:
    """``first`` upserted in an open transaction while ``second`` is upserted by another
    thread; returns what the second call gave and whether it returned before the commit."""
    if existing:
        store.upsert_source(Source(first.id, first.connector))
        store.upsert_source(Source(second.id, second.connector))
    inside, release = threading.Event(), threading.Event()
    outcome: list[Source | Exception] = []
    done = threading.Event()

    def holder() -> None:
        with store.transaction():
            store.upsert_source(first)
            inside.set()
            release.wait(10)

    def racer() -> None:
        try:
            outcome.append(store.upsert_source(second))
        except StoreError as exc:
            outcome.append(exc)
        done.set()

    threads = [threading.Thread(target=holder), threading.Thread(target=racer)]
    threads[0].start()
    assert inside.wait(10)
    threads[1].start()
    early = done.wait(0.5)
    release.set()
    for thread in threads:
        thread.join(10)
    return outcome, early


@pytest.mark.parametrize("existing", [False, True], ids=["new source", "stored source"])
def test_the_same_source_and_external_id_from_two_writers_is_absorbed(
    store: PostgresEvidenceStore, existing: bool
) -> None:
    source = Source("s1", "text", "A title", external_ids={"doi": "10.1/X"})
    outcome, early = _race(store, source, source, existing=existing)
    assert not early  # the second writer waited for the first one's commit
    assert len(outcome) == 1
    found = store.find_source("doi", "10.1/x")
    assert found is not None and found.external_ids == {"doi": "10.1/x"}
    assert outcome[0] == found == store.get_source("s1")


@pytest.mark.parametrize("existing", [False, True], ids=["new sources", "stored sources"])
def test_two_sources_racing_for_one_external_id_leave_it_with_the_first(
    store: PostgresEvidenceStore, existing: bool
) -> None:
    outcome, _ = _race(
        store,
        Source("s1", "text", external_ids={"doi": "10.1/X"}),
        Source("s2", "text", external_ids={"doi": "10.1/x"}),
        existing=existing,
    )
    assert len(outcome) == 1
    assert isinstance(outcome[0], StoreError)
    found = store.find_source("doi", "10.1/X")
    assert found is not None and found.id == "s1"
    second = store.get_source("s2")
    assert second is None or second.external_ids == {}
