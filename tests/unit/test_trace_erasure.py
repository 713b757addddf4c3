"""An erasure masking a sealed trace (SPEC §7, ``core.trace_erasure``): what it masks, what it
leaves, and that the hash chain still checks the rest and catches a change to it."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np

from spanproof.core.store import MASK, Erasure
from spanproof.core.trace import (
    GENESIS,
    LEAF_SEAL,
    Trace,
    check_chain,
    encode_vector,
    erased_unchecked,
    plan_hash,
    sha256_hex,
)
from spanproof.core.trace_erasure import TraceErasure, erase_in_trace

SECTION = (
    "In a trial of 240 adults, John Q. Public reported that daily walking lowered systolic "
    "blood pressure by 5 mmHg. Sodium was not measured."
)
SPAN_START, SPAN_END = 0, SECTION.index(" Sodium")
SPAN = SECTION[SPAN_START:SPAN_END]
NAME = "John Q. Public"


def _trace(**changes: object) -> Trace:
    plan = [
        {
            "marker": "S1",
            "id": "S1",
            "text": SPAN,
            "truth_class": True,
            "source_id": "paper:1",
            "version": 1,
            "section_key": "abstract",
            "start": SPAN_START,
            "end": SPAN_END,
        },
        {
            "marker": "S2",
            "id": "S2",
            "text": "Unrelated passage naming John Q. Public elsewhere.",
            "truth_class": True,
            "source_id": "paper:2",
            "version": 1,
            "section_key": "abstract",
            "start": 0,
            "end": 50,
        },
    ]
    claim = SPAN.split(", ", 1)[1]
    vector = encode_vector(np.ones(4, dtype=np.float32))
    trace = Trace(
        kind="generation",
        request={"question": "What did John Q. Public report about walking?"},
        plan=plan,
        plan_hash=plan_hash(plan),
        prompt_hash="",
        models={"embed": "fake", "score_model": "v45"},
        draft=f"{claim} [S1].",
        claims=[
            {"id": "c1", "text": claim, "verdict": "supported", "score": 0.9},
            {"id": "c2", "text": "Walking is popular", "verdict": "unsupported", "score": 0.1},
        ],
        verification="verified",
        delivered=f"{claim} [S1].",
        embeddings={
            "claims": [vector, vector],
            "windows": [
                {"span": 0, "start": 0, "end": len(SPAN), "vector": vector},
                {"span": 1, "start": 0, "end": 50, "vector": vector},
            ],
        },
    )
    return replace(trace, **changes)  # type: ignore[arg-type]


def _sealed(trace: Trace | None = None) -> Trace:
    return (trace or _trace()).sealed(seq=1, prev_hash=GENESIS, created_at="2026-12-05T00:00:00Z")


def _range(start: int, end: int, erasure_id: int = 1) -> TraceErasure:
    erasure = Erasure(erasure_id, "paper:1", 1, "abstract", start, end, "GDPR #1")
    return TraceErasure(erasure, SECTION[start:end])


def test_a_new_trace_is_sealed_over_its_strings_digests() -> None:
    sealed = _sealed()
    assert sealed.seal == LEAF_SEAL
    assert sealed.compute_hash() == sealed.hash
    assert check_chain([sealed]) == []
    assert json.loads(sealed.to_json())["seal"] == LEAF_SEAL


def test_the_erased_name_is_masked_wherever_the_trace_that_read_it_holds_it() -> None:
    sealed = _sealed()
    start = SECTION.index(NAME)
    erased = erase_in_trace(sealed, _range(start, start + len(NAME)))
    assert erased is not None
    stored = erased.to_json()
    assert NAME not in stored
    assert MASK * len(NAME) in erased.plan[0]["text"]
    assert erased.plan[0]["text"].replace(MASK * len(NAME), NAME) == SPAN  # only the name
    assert MASK * len(NAME) in erased.draft and MASK * len(NAME) in erased.claims[0]["text"]
    assert MASK * len(NAME) in erased.plan[1]["text"]  # a copy in another passage
    assert MASK * len(NAME) in erased.request["question"]
    assert erased.claims[1]["text"] == "Walking is popular"  # no copy: untouched
    # the hash, the links and every identifier stay; the check passes
    assert (erased.hash, erased.id, erased.seq) == (sealed.hash, sealed.id, sealed.seq)
    assert erased.plan[0]["source_id"] == "paper:1" and erased.plan[1]["marker"] == "S2"
    assert erased.compute_hash() == sealed.hash
    assert check_chain([erased]) == []
    assert erased.erased["erasures"] == [1]
    assert "/plan/0/text" in erased.erased["leaves"]


def test_vectors_of_masked_passages_and_claims_are_emptied_the_rest_kept() -> None:
    sealed = _sealed()
    erased = erase_in_trace(sealed, _range(SPAN_START, SPAN_END))
    assert erased is not None
    windows = erased.embeddings["windows"]
    assert windows[0]["vector"] == "" and windows[1]["vector"] != ""
    assert erased.embeddings["claims"][0] == "" and erased.embeddings["claims"][1] != ""
    assert check_chain([erased]) == []


def test_a_trace_that_read_another_range_is_left_alone() -> None:
    sealed = _sealed()
    after = SECTION.index("Sodium")
    assert erase_in_trace(sealed, _range(after, len(SECTION))) is None
    other = TraceErasure(Erasure(1, "paper:3", 1, "abstract", 0, 20, "x"), SECTION[:20])
    assert erase_in_trace(sealed, other) is None


def test_a_part_of_a_copied_sentence_long_enough_is_masked_in_the_answer() -> None:
    # the erased range starts inside the span and runs past it: the answer's copy of the
    # overlap is masked though the erased text as a whole occurs nowhere in it
    start = SECTION.index("daily walking")
    erased = erase_in_trace(_sealed(), _range(start, len(SECTION)))
    assert erased is not None
    assert "daily walking lowered" not in erased.draft
    assert erased.draft.startswith(SPAN.split(", ", 1)[1][:20])
    assert check_chain([erased]) == []


def test_erasing_again_changes_nothing_and_a_second_erasure_keeps_the_first_digests() -> None:
    start = SECTION.index(NAME)
    first = erase_in_trace(_sealed(), _range(start, start + len(NAME)))
    assert first is not None
    again = replace(_range(start, start + len(NAME)), text=MASK * len(NAME))  # served masked
    assert erase_in_trace(first, again) is None
    walk = SECTION.index("daily walking")
    second = erase_in_trace(first, _range(walk, walk + len("daily walking"), erasure_id=2))
    assert second is not None
    assert second.erased["erasures"] == [1, 2]
    assert second.erased["leaves"]["/plan/0/text"] == first.erased["leaves"]["/plan/0/text"]
    assert check_chain([second]) == []


def test_a_change_to_unmasked_text_or_to_a_kept_digest_breaks_the_chain() -> None:
    start = SECTION.index(NAME)
    erased = erase_in_trace(_sealed(), _range(start, start + len(NAME)))
    assert erased is not None
    changed_verdict = replace(erased, claims=[{**erased.claims[0], "verdict": "contradicted"}])
    assert [p.problem for p in check_chain([changed_verdict])] == [
        "content does not match its hash"
    ]
    leaves = {**erased.erased["leaves"], "/draft": "0" * 64}
    forged = replace(erased, erased={**erased.erased, "leaves": leaves})
    assert [p.problem for p in check_chain([forged])] == ["content does not match its hash"]


def test_text_passed_off_as_erased_without_a_mask_is_a_chain_problem() -> None:
    sealed = _sealed()
    # a string replaced by other text while its sealed digest is kept: the hash still checks,
    # but an erasure only ever masks
    swapped = replace(
        sealed,
        delivered="Walking raised blood pressure.",
        erased={"erasures": [1], "leaves": {"/delivered": sha256_hex(sealed.delivered or "")}},
    )
    assert swapped.compute_hash() == sealed.hash
    assert [p.problem for p in check_chain([swapped])] == ["erased string /delivered holds no mask"]


def test_a_trace_sealed_before_leaf_seals_is_masked_and_reported_unchecked() -> None:
    placed = replace(_trace(), seq=1, prev_hash=GENESIS, created_at="2026-12-01T00:00:00Z")
    old = replace(placed, id="tr_old")
    old = replace(old, hash=old.compute_hash())  # the first seal: over the text itself
    assert old.seal == "" and "seal" not in json.loads(old.to_json())
    assert check_chain([old]) == []
    start = SECTION.index(NAME)
    erased = erase_in_trace(old, _range(start, start + len(NAME)))
    assert erased is not None and NAME not in erased.to_json()
    assert erased.compute_hash() != old.hash  # its content can no longer be checked ...
    assert check_chain([erased]) == []  # ... so it is not: its links are
    assert erased_unchecked([erased]) == [erased]
    assert erased_unchecked([_sealed()]) == []


def test_a_masked_trace_reads_back_from_its_json() -> None:
    start = SECTION.index(NAME)
    erased = erase_in_trace(_sealed(), _range(start, start + len(NAME)))
    assert erased is not None
    again = Trace.from_json(erased.to_json())
    assert again == erased
    assert check_chain([again]) == []
