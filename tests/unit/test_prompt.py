"""The generation prompt: built from the plan alone, byte for byte, and hashed."""

from __future__ import annotations

from dataclasses import replace

from spanproof.core.models import EvidenceSpan
from spanproof.verify.prompt import (
    GENERATE_SYSTEM_PROMPT,
    PROMPT_MODEL,
    build_generation_messages,
    prompt_hash,
)

QUESTION = "What did daily walking do to blood pressure?"
PLAN = (
    EvidenceSpan(
        "S1",
        "Daily walking for 30 minutes lowered systolic blood pressure\nby 5 mmHg.",
        source={"source_id": "file:/w.md", "title": "Walking (demo)"},
    ),
    EvidenceSpan("S2", "Diastolic blood pressure fell by 2 mmHg.", source={"title": ""}),
    EvidenceSpan("H1", "A summary: walking is good for you.", truth_class=False),
)


def test_the_same_plan_gives_a_byte_identical_prompt_and_hash() -> None:
    first = build_generation_messages(QUESTION, PLAN)
    second = build_generation_messages(QUESTION, tuple(replace(s) for s in PLAN))
    assert [(m.role, m.content.encode()) for m in first] == [
        (m.role, m.content.encode()) for m in second
    ]
    assert prompt_hash(first) == prompt_hash(second)
    assert len(prompt_hash(first)) == 64
    assert PROMPT_MODEL == "prompt-v1"


def test_the_prompt_lists_each_span_with_its_marker_and_title_in_plan_order() -> None:
    system, user = build_generation_messages(QUESTION, PLAN)
    assert system.role == "system" and system.content == GENERATE_SYSTEM_PROMPT
    assert user.role == "user"
    lines = user.content.splitlines()
    assert lines[0] == f"Question: {QUESTION}"
    s1 = lines.index(
        "[S1] Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg. "
        "(Walking (demo))"
    )
    s2 = lines.index("[S2] Diastolic blood pressure fell by 2 mmHg.")
    assert s1 < s2


def test_cache_class_hints_are_background_that_cannot_be_cited() -> None:
    _, user = build_generation_messages(QUESTION, PLAN)
    assert "[H1]" not in user.content
    assert "- A summary: walking is good for you." in user.content
    background = user.content.index("Background notes")
    assert user.content.index("[S2]") < background


def test_the_hash_changes_when_the_plan_or_the_question_changes() -> None:
    base = prompt_hash(build_generation_messages(QUESTION, PLAN))
    reordered = (PLAN[1], PLAN[0], PLAN[2])
    edited = (replace(PLAN[0], text=PLAN[0].text.replace("5 mmHg", "6 mmHg")), *PLAN[1:])
    fewer = PLAN[:1]
    variants = [
        build_generation_messages(QUESTION, reordered),
        build_generation_messages(QUESTION, edited),
        build_generation_messages(QUESTION, fewer),
        build_generation_messages(QUESTION + " In older adults?", PLAN),
    ]
    hashes = {prompt_hash(v) for v in variants}
    assert base not in hashes and len(hashes) == len(variants)


def test_an_empty_plan_says_there_is_no_evidence() -> None:
    _, user = build_generation_messages(QUESTION, ())
    assert "Evidence:\n(none)" in user.content
