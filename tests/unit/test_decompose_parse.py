"""parse_claims: the LLM decomposer's reply format (SPEC §4.3)."""

from __future__ import annotations

import json

import pytest

from spanproof.core.errors import InvalidInputError
from spanproof.core.models import Claim
from spanproof.verify.decompose import (
    DECOMPOSE_SYSTEM_PROMPT,
    build_decompose_messages,
    parse_claims,
    prompt_hash,
)

DRAFT = "Aspirin reduced pain [S1]. Ibuprofen lowered fever [S2, S3]."
ITEMS = [
    {"claimText": "Aspirin reduced pain", "draftSpan": [0, 26], "citedMarkers": ["S1"]},
    {"claimText": "Ibuprofen lowered fever", "draftSpan": [27, 60], "citedMarkers": ["S2", "S3"]},
]
EXPECTED = [
    Claim("c1", "Aspirin reduced pain", (0, 26), ("S1",)),
    Claim("c2", "Ibuprofen lowered fever", (27, 60), ("S2", "S3")),
]


def _reply(items: object = ITEMS) -> str:
    return json.dumps(items)


def test_bare_json_array_parses_to_claims_with_ids_in_order() -> None:
    assert parse_claims(_reply(), DRAFT) == EXPECTED


def test_json_code_fence_is_accepted() -> None:
    assert parse_claims(f"```json\n{_reply()}\n```", DRAFT) == EXPECTED


def test_plain_code_fence_and_surrounding_whitespace_are_accepted() -> None:
    assert parse_claims(f"\n  ```\n{_reply()}\n```  \n", DRAFT) == EXPECTED


def test_object_with_claims_key_is_accepted() -> None:
    assert parse_claims(json.dumps({"claims": ITEMS}), DRAFT) == EXPECTED


def test_empty_array_means_no_claims() -> None:
    assert parse_claims("[]", DRAFT) == []


@pytest.mark.parametrize(
    "raw",
    [
        f"Here are the claims:\n```json\n{_reply()}\n```",
        f"```json\n{_reply()}\n```\nHope this helps!",
        f"Claims: {_reply()}",
        f"{_reply()} done",
        f"```json\n{_reply()}\n```\n```json\n[]\n```",
        f"```json\n{_reply()}",
    ],
)
def test_text_around_the_json_or_fence_is_rejected(raw: str) -> None:
    with pytest.raises(InvalidInputError):
        parse_claims(raw, DRAFT)


def test_fence_in_another_language_is_rejected() -> None:
    with pytest.raises(InvalidInputError, match="'python'"):
        parse_claims(f"```python\n{_reply()}\n```", DRAFT)


def test_empty_reply_is_rejected() -> None:
    with pytest.raises(InvalidInputError, match="empty"):
        parse_claims("  \n", DRAFT)


def test_object_with_other_keys_is_rejected() -> None:
    with pytest.raises(InvalidInputError, match="exactly one key 'claims'"):
        parse_claims(json.dumps({"claims": ITEMS, "note": "x"}), DRAFT)


def test_non_array_payload_is_rejected() -> None:
    with pytest.raises(InvalidInputError, match="got string"):
        parse_claims('"claims"', DRAFT)


@pytest.mark.parametrize(
    ("span", "message"),
    [
        ([0, 999], r"claims\[0\]\.draftSpan \[0, 999\] is out of bounds or empty"),
        ([-1, 5], "out of bounds"),
        ([5, 5], "out of bounds or empty"),
        ([9, 4], "out of bounds or empty"),
        ([7, 8], "covers only whitespace"),
        ([0], "two integers"),
        ([0, 1.5], "two integers"),
        (["0", "5"], "two integers"),
        ([True, 5], "two integers"),
        (None, "two integers"),
    ],
)
def test_invalid_draft_spans_are_rejected_with_the_reason(span: object, message: str) -> None:
    item = {"claimText": "Aspirin reduced pain", "draftSpan": span, "citedMarkers": []}
    with pytest.raises(InvalidInputError, match=message):
        parse_claims(_reply([item]), DRAFT)


def test_error_names_the_failing_item() -> None:
    bad = {"claimText": "x", "draftSpan": [0, 200], "citedMarkers": []}
    with pytest.raises(InvalidInputError, match=r"claims\[1\]"):
        parse_claims(_reply([ITEMS[0], bad]), DRAFT)


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("a claim", r"claims\[0\] must be an object, got string"),
        ({"draftSpan": [0, 5]}, "claimText must be a non-empty string"),
        ({"claimText": 3, "draftSpan": [0, 5]}, "claimText must be a non-empty string"),
        ({"claimText": "  ", "draftSpan": [0, 5]}, "claimText must be a non-empty string"),
        ({"claimText": "[S1]", "draftSpan": [0, 5]}, "no text besides citation markers"),
        ({"claimText": "x", "draftSpan": [0, 5], "citedMarkers": "S1"}, "array of strings"),
        ({"claimText": "x", "draftSpan": [0, 5], "citedMarkers": [1]}, r"citedMarkers\[0\]"),
        ({"claimText": "x", "draftSpan": [0, 5], "citedMarkers": ["ref1"]}, "like 'S1'"),
    ],
)
def test_items_with_wrong_types_are_rejected(item: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        parse_claims(_reply([item]), DRAFT)


def test_markers_are_normalised_deduplicated_and_taken_from_the_claim_text() -> None:
    item = {
        "claimText": "Aspirin reduced pain [S4].",
        "draftSpan": [0, 26],
        "citedMarkers": ["[S1]", "s2", " S03 ", "S1"],
    }
    [claim] = parse_claims(_reply([item]), DRAFT)
    assert claim.cited_markers == ("S1", "S2", "S3", "S4")
    assert claim.text == "Aspirin reduced pain"


def test_missing_cited_markers_means_none() -> None:
    [claim] = parse_claims(_reply([{"claimText": "Aspirin", "draftSpan": [0, 7]}]), DRAFT)
    assert claim.cited_markers == ()


def test_spans_are_code_point_offsets() -> None:
    draft = "Ölçüm 😀 arttı [S1]."
    [claim] = parse_claims(_reply([{"claimText": "Ölçüm arttı", "draftSpan": [0, 19]}]), draft)
    assert claim.draft_span == (0, 19)
    with pytest.raises(InvalidInputError, match="out of bounds"):
        parse_claims(_reply([{"claimText": "x", "draftSpan": [0, 20]}]), draft)


def test_messages_are_byte_stable_and_carry_the_fixed_system_prompt() -> None:
    first = build_decompose_messages(DRAFT)
    assert first == build_decompose_messages(DRAFT)
    assert [m.role for m in first] == ["system", "user"]
    assert first[0].content == DECOMPOSE_SYSTEM_PROMPT
    assert f"<draft>\n{DRAFT}\n</draft>" in first[1].content
    assert prompt_hash(first) == prompt_hash(build_decompose_messages(DRAFT))
    assert prompt_hash(first) != prompt_hash(build_decompose_messages(DRAFT + " "))


def test_system_prompt_states_the_contract() -> None:
    for phrase in ("ONLY a JSON array", "claimText", "draftSpan", "citedMarkers", "code-point"):
        assert phrase in DECOMPOSE_SYSTEM_PROMPT
    for phrase in ("compound sentences", "hedges", "transitions", "questions"):
        assert phrase in DECOMPOSE_SYSTEM_PROMPT
