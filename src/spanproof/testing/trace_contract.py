"""The one behaviour suite every ``TraceStore`` backend passes (SPEC §4.7).

Subclass :class:`TraceStoreContract` in a test module and give it a ``trace_store`` fixture that
yields an **empty** store, and optionally an ``other_trace_store`` fixture that yields a second
handle on the same database (another connection, as another process would have); by default
it is the same object::

    class TestSqliteTraceStore(TraceStoreContract):
        @pytest.fixture
        def trace_store(self, tmp_path: Path) -> Iterator[TraceStore]:
            with SqliteEvidenceStore(tmp_path / "store.sqlite") as store:
                yield store

The suite pins: seq counts from 1 with no gaps, the first trace follows :data:`GENESIS`, each
later one the previous trace's hash, and the store (not the caller) sets ``id``, ``seq``,
``prev_hash`` and ``hash``; what ``append`` returns is exactly what ``get_trace``, ``list_traces``
(newest first) and ``chain`` (oldest first) read back, floats and vectors bit for bit and text
without any normalisation; a trace canonical JSON cannot carry is refused and leaves nothing
behind; concurrent appends never fork the chain; ``traces_citing`` finds traces by a source's
exact id, and ``store_erased`` replaces a trace's text with an erasure's masking of it (same
id, seq and hash) and nothing else.

Tests use real stores only (no mocks). This module imports pytest, so it is for test code only.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from spanproof.core.errors import InvalidInputError
from spanproof.core.trace import (
    GENESIS,
    Trace,
    TraceStore,
    check_chain,
    decode_vector,
    encode_vector,
    plan_hash,
    scrub,
)

UNICODE_TEXT = (
    "Naïve β-blocker use (n = 1,204; 95 % CI 0.71–0.88) 🧬 — 中文 العربية "
    "e\u0301 (decomposed, kept as given) \u2028 tab\there \x00 nul"
)


def make_trace(n: int = 0, **changes: Any) -> Trace:
    """A small verification trace (unsealed); ``n`` varies its text, ``changes`` any field."""
    span_text = f"Aspirin reduced the risk of stroke by {20 + n}% in the trial."
    plan = [
        {
            "marker": "S1",
            "id": "S1",
            "text": span_text,
            "truth_class": True,
            "source_id": "demo:1",
            "version": 1,
            "section_key": "abstract",
            "start": 0,
            "end": len(span_text),
        }
    ]
    claim = f"Aspirin reduced stroke risk by {20 + n}%."
    trace = Trace(
        kind="verification",
        request={"question": f"does aspirin prevent stroke? #{n}"},
        plan=plan,
        plan_hash=plan_hash(plan),
        prompt_hash="",
        models={"embed": "fake-bow", "score_model": "v2", "decompose": "rules-v1"},
        draft=f"{claim} [S1]",
        claims=[
            {
                "id": "c1",
                "text": claim,
                "draft_span": [0, len(claim)],
                "verdict": "supported",
                "score": 0.1 + 0.2 + n,  # not a short decimal: must round-trip bit for bit
                "best_span": {"id": "S1", "start": 0, "end": len(span_text)},
                "candidates_considered": 1,
                "cited_markers": ["S1"],
                "numeric_gated": False,
                "entity_gated": False,
                "polarity_gated": False,
            }
        ],
        verification="verified",
        delivered=f"{claim} [S1]",
        usage={"input_tokens": 10 + n, "output_tokens": 5},
    )
    return replace(trace, **changes)


class TraceStoreContract:
    """Behaviour every trace store must have. Subclasses provide the ``trace_store`` fixture."""

    @pytest.fixture
    def trace_store(self) -> Iterator[TraceStore]:  # pragma: no cover - always overridden
        raise NotImplementedError("provide a trace_store fixture yielding an empty store")
        yield

    @pytest.fixture
    def other_trace_store(self, trace_store: TraceStore) -> TraceStore:
        """A second handle on the same database; override to give a separate connection."""
        return trace_store

    # append and read back ----------------------------------------------------------------------
    def test_an_empty_store_has_no_traces(self, trace_store: TraceStore) -> None:
        assert isinstance(trace_store, TraceStore)
        assert trace_store.chain() == []
        assert trace_store.list_traces() == []
        assert trace_store.get_trace("tr_missing") is None

    def test_the_first_trace_follows_genesis(self, trace_store: TraceStore) -> None:
        stored = trace_store.append(make_trace())
        assert stored.seq == 1
        assert stored.prev_hash == GENESIS
        assert stored.id.startswith("tr_")
        assert stored.created_at
        assert stored.hash == stored.compute_hash()
        assert check_chain([stored]) == []

    def test_each_trace_links_to_the_previous_ones_hash(self, trace_store: TraceStore) -> None:
        stored = [trace_store.append(make_trace(n)) for n in range(3)]
        assert [t.seq for t in stored] == [1, 2, 3]
        assert [t.prev_hash for t in stored] == [GENESIS, stored[0].hash, stored[1].hash]
        assert len({t.id for t in stored}) == 3
        assert trace_store.chain() == stored
        assert check_chain(trace_store.chain()) == []

    def test_get_trace_reads_back_exactly_what_append_returned(
        self, trace_store: TraceStore
    ) -> None:
        stored = trace_store.append(make_trace())
        again = trace_store.get_trace(stored.id)
        assert again == stored
        assert again is not None and again.to_json() == stored.to_json()
        assert again.claims[0]["score"] == 0.1 + 0.2  # bit for bit, not 0.3
        assert trace_store.get_trace(stored.hash) is None  # looked up by id only

    def test_list_traces_is_newest_first_one_page_at_a_time(self, trace_store: TraceStore) -> None:
        for n in range(5):
            trace_store.append(make_trace(n))
        assert [t.seq for t in trace_store.list_traces()] == [5, 4, 3, 2, 1]
        assert [t.seq for t in trace_store.list_traces(limit=2)] == [5, 4]
        assert [t.seq for t in trace_store.list_traces(limit=2, offset=2)] == [3, 2]
        assert trace_store.list_traces(limit=2, offset=10) == []
        assert trace_store.list_traces(limit=0) == []
        with pytest.raises(InvalidInputError):
            trace_store.list_traces(limit=-1)
        with pytest.raises(InvalidInputError):
            trace_store.list_traces(offset=-1)

    def test_list_traces_takes_pages_past_any_sql_integer(self, trace_store: TraceStore) -> None:
        trace_store.append(make_trace(0))
        assert trace_store.list_traces(offset=2**64) == []
        assert [t.seq for t in trace_store.list_traces(limit=2**64)] == [1]

    def test_a_trace_id_with_a_nul_character_is_a_caller_mistake(
        self, trace_store: TraceStore
    ) -> None:
        with pytest.raises(InvalidInputError, match="NUL"):
            trace_store.get_trace("tr_\x00")

    def test_chain_is_oldest_first(self, trace_store: TraceStore) -> None:
        ids = [trace_store.append(make_trace(n)).id for n in range(4)]
        assert [t.id for t in trace_store.chain()] == ids
        assert [t.id for t in trace_store.list_traces()] == ids[::-1]

    def test_the_store_places_the_trace_whatever_the_caller_set(
        self, trace_store: TraceStore
    ) -> None:
        first = trace_store.append(make_trace())
        forged = make_trace(1, id="tr_mine", seq=99, prev_hash="f" * 64, hash="e" * 64)
        stored = trace_store.append(forged)
        assert (stored.seq, stored.prev_hash) == (2, first.hash)
        assert stored.id != "tr_mine" and stored.hash == stored.compute_hash()
        assert trace_store.get_trace("tr_mine") is None

    def test_a_created_at_given_by_the_caller_is_kept(self, trace_store: TraceStore) -> None:
        stamped = trace_store.append(make_trace(created_at="2025-01-02T03:04:05.000006Z"))
        assert stamped.created_at == "2025-01-02T03:04:05.000006Z"
        assert trace_store.append(make_trace(1)).created_at  # else the store's clock

    # content ------------------------------------------------------------------------------------
    def test_unicode_round_trips_without_normalisation(self, trace_store: TraceStore) -> None:
        trace = make_trace(
            request={"question": UNICODE_TEXT, UNICODE_TEXT: [UNICODE_TEXT]},
            draft=UNICODE_TEXT,
            delivered=None,
        )
        stored = trace_store.append(trace)
        again = trace_store.get_trace(stored.id)
        assert again is not None
        assert again.draft == UNICODE_TEXT
        assert again.request == {"question": UNICODE_TEXT, UNICODE_TEXT: [UNICODE_TEXT]}
        assert again.delivered is None
        assert again.compute_hash() == stored.hash

    def test_vectors_round_trip_bit_for_bit(self, trace_store: TraceStore) -> None:
        rng = np.random.default_rng(7)
        vectors = rng.standard_normal((3, 384)).astype(np.float32)
        embeddings = {
            "claims": [encode_vector(v) for v in vectors[:1]],
            "windows": [
                {"span": 0, "start": 0, "end": 10, "vector": encode_vector(v)} for v in vectors[1:]
            ],
        }
        stored = trace_store.append(make_trace(embeddings=embeddings))
        again = trace_store.get_trace(stored.id)
        assert again is not None
        decoded = [decode_vector(again.embeddings["claims"][0])] + [
            decode_vector(w["vector"]) for w in again.embeddings["windows"]
        ]
        assert np.array_equal(np.stack(decoded), vectors)

    def test_secrets_scrubbed_by_the_caller_are_not_stored(self, trace_store: TraceStore) -> None:
        request = {
            "question": "does aspirin prevent stroke?",
            "api_key": "sk-SECRET-1",
            "headers": {"Authorization": "Bearer SECRET-2", "accept": "application/json"},
            "llm": [{"password": "SECRET-3", "model": "m"}],
        }
        stored = trace_store.append(make_trace(request=scrub(request)))
        again = trace_store.get_trace(stored.id)
        assert again is not None
        assert "SECRET" not in again.to_json()
        assert again.request == {
            "question": "does aspirin prevent stroke?",
            "headers": {"accept": "application/json"},
            "llm": [{"model": "m"}],
        }

    @pytest.mark.parametrize(
        "bad",
        [
            {"draft": "lone \ud800 surrogate"},
            {"usage": {"input_tokens": float("nan")}},
            {"request": {"when": object()}},
        ],
        ids=["lone-surrogate", "nan", "not-json"],
    )
    def test_a_trace_canonical_json_cannot_carry_is_refused_and_leaves_nothing(
        self, trace_store: TraceStore, bad: dict[str, Any]
    ) -> None:
        with pytest.raises(InvalidInputError):
            trace_store.append(make_trace(**bad))
        assert trace_store.chain() == []
        assert trace_store.append(make_trace()).seq == 1

    # erasure ----------------------------------------------------------------------------------
    def test_traces_citing_a_source_are_found_by_its_exact_id(
        self, trace_store: TraceStore
    ) -> None:
        def citing(source_id: str, n: int) -> Trace:
            trace = make_trace(n)
            return replace(trace, plan=[{**trace.plan[0], "source_id": source_id}])

        odd = 'doi:10.1/a_b%c!"d'  # LIKE's wildcards, its escape and a JSON escape
        first = trace_store.append(citing(odd, 0))
        trace_store.append(citing('doi:10.1/aXb%c!"d', 1))  # "_" would match "X" unescaped
        third = trace_store.append(citing(odd, 2))
        trace_store.append(citing('doi:10.1/a_b%c!"d-2', 3))  # a longer id: not the same
        found = trace_store.traces_citing(odd)
        assert [t.id for t in found] == [first.id, third.id]
        assert trace_store.traces_citing("nothing:here") == []

    def test_an_erasures_masking_replaces_the_text_and_keeps_the_chain(
        self, trace_store: TraceStore
    ) -> None:
        from spanproof.core.store import Erasure
        from spanproof.core.trace_erasure import TraceErasure, erase_in_trace

        stored = [trace_store.append(make_trace(n)) for n in range(3)]
        text = stored[1].plan[0]["text"]
        erasure = Erasure(1, "demo:1", 1, "abstract", 0, 7, "GDPR #1")
        erased = erase_in_trace(stored[1], TraceErasure(erasure, text[:7]))
        assert erased is not None
        trace_store.store_erased(erased)
        assert trace_store.get_trace(erased.id) == erased
        assert "Aspirin" not in trace_store.get_trace(erased.id).to_json()  # type: ignore[union-attr]
        chain = trace_store.chain()
        assert chain[1] == erased and chain[0] == stored[0] and chain[2] == stored[2]
        assert check_chain(chain) == []
        with pytest.raises(InvalidInputError):
            trace_store.store_erased(replace(erased, hash="0" * 64))
        with pytest.raises(InvalidInputError):
            trace_store.store_erased(replace(erased, id="tr_missing"))
        assert trace_store.chain() == chain

    # concurrency --------------------------------------------------------------------------------
    def test_concurrent_appends_never_fork_the_chain(
        self, trace_store: TraceStore, other_trace_store: TraceStore
    ) -> None:
        per_thread = 12
        errors: list[BaseException] = []
        start = threading.Barrier(2)

        def writer(store: TraceStore, offset: int) -> None:
            try:
                start.wait(timeout=30)
                for n in range(per_thread):
                    store.append(make_trace(offset + n))
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [
            threading.Thread(target=writer, args=(trace_store, 0)),
            threading.Thread(target=writer, args=(other_trace_store, 1000)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert errors == []
        chain = trace_store.chain()
        assert [t.seq for t in chain] == list(range(1, 2 * per_thread + 1))
        assert check_chain(chain) == []
        assert len({t.prev_hash for t in chain}) == len(chain)  # no two traces share a parent
        assert other_trace_store.chain() == chain
