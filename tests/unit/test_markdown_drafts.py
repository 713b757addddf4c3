"""rules-v3: a chat model's Markdown answer decomposed into the claims a reader sees."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from spanproof.core.models import ClaimVerdict, Verdict
from spanproof.text.markdown import (
    blank_markdown,
    markdown_lines,
    markdown_syntax,
    strip_markdown,
)
from spanproof.verify.decompose import RuleBasedDecomposer, clean_claim_text
from spanproof.verify.policy import flag

DECOMPOSER = RuleBasedDecomposer()


def claims(draft: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.text, c.cited_markers) for c in DECOMPOSER.decompose(draft)]


def texts(draft: str) -> list[str]:
    return [c.text for c in DECOMPOSER.decompose(draft)]


def test_emphasis_code_and_links_leave_the_claim_text_but_stay_in_its_span() -> None:
    draft = (
        "- **Daily walking** lowered *systolic* blood pressure [S1].\n"
        '- The `walk-5` arm followed [the protocol](https://example.org/p?a=1 "Protocol") '
        "for 12 weeks [S2].\n"
        "- __Aspirin__ reduced ~~fever~~ pain.[^1]\n"
    )
    found = DECOMPOSER.decompose(draft)
    assert [(c.text, c.cited_markers) for c in found] == [
        ("Daily walking lowered systolic blood pressure", ("S1",)),
        ("The walk-5 arm followed the protocol for 12 weeks", ("S2",)),
        ("Aspirin reduced fever pain", ()),
    ]
    for claim in found:
        assert claim.draft_span is not None
        start, end = claim.draft_span
        assert clean_claim_text(draft[start:end]) == claim.text
    # the span holds both halves of each pair, so the draft's own markup is kept whole
    first = found[0].draft_span
    assert first is not None and draft[first[0] : first[0] + 2] == "**"
    third = found[2].draft_span
    assert third is not None and draft[third[0] : third[1]].endswith("[^1]")


def test_inline_rules_leave_plain_text_alone() -> None:
    for text in ("2*3*4 = 24", "snake_case_name", "p < 0.05 and x > 3", "a * b", "IL_6 rose"):
        assert strip_markdown(text) == text
        assert blank_markdown(text) == text


def test_a_table_row_is_one_claim_and_the_header_is_none() -> None:
    draft = (
        "Results:\n\n"
        "| Outcome | Change |\n"
        "|:---|---:|\n"
        "| Systolic BP | -5 mmHg [S1] |\n"
        "| HDL cholesterol | no change |\n"
        "\n"
        "Walking lowered blood pressure.\n"
    )
    assert claims(draft) == [
        ("Systolic BP; -5 mmHg", ("S1",)),
        ("HDL cholesterol; no change", ()),
        ("Walking lowered blood pressure", ()),
    ]
    found = DECOMPOSER.decompose(draft)
    verdicts = [
        ClaimVerdict(
            id=c.id,
            text=c.text,
            draft_span=c.draft_span,
            verdict=Verdict.UNSUPPORTED,
            score=0.1,
            best_span=None,
            candidates_considered=1,
            cited_markers=c.cited_markers,
            numeric_gated=False,
        )
        for c in found
    ]
    marked = flag(draft, verdicts)
    # the flag stays inside the row's last cell, so the table still renders with two columns
    assert "| Systolic BP | -5 mmHg [S1] ⟦unsupported⟧ |" in marked
    assert "| HDL cholesterol | no change ⟦unsupported⟧ |" in marked


def test_code_headings_rules_and_footnote_definitions_are_not_claims() -> None:
    draft = (
        "**Key findings**\n"
        "Walking lowered blood pressure [S1].\n"
        "\n"
        "Setext heading\n"
        "==============\n"
        "```python\n"
        "x = 1  # Aspirin cured everything [S9].\n"
        "```\n"
        "---\n"
        "Aspirin reduced pain.\n"
        "* * *\n"
        "[^1]: Smith et al. found that aspirin cures cancer.\n"
    )
    assert claims(draft) == [
        ("Walking lowered blood pressure", ("S1",)),
        ("Aspirin reduced pain", ()),
    ]


def test_a_bold_sentence_is_a_claim_and_a_bold_label_is_kept() -> None:
    assert texts("**Walking lowered blood pressure.**") == ["Walking lowered blood pressure"]
    assert texts("- **Blood pressure:** walking lowered it by 5 mmHg.") == [
        "Blood pressure: walking lowered it by 5 mmHg"
    ]


def test_quotes_nested_numbers_and_task_boxes_lose_their_markers() -> None:
    draft = (
        "> Walking lowered blood pressure\n"
        "> in older adults [S1].\n"
        "- 1. The trial lasted 12 weeks.\n"
        "- [x] Aspirin reduced pain.\n"
        "Line one<br>continues here.\n"
    )
    assert claims(draft) == [
        ("Walking lowered blood pressure\nin older adults", ("S1",)),
        ("The trial lasted 12 weeks", ()),
        ("Aspirin reduced pain", ()),
        ("Line one continues here", ()),
    ]


def test_lines_are_classified() -> None:
    draft = "# H\ntext\n- item\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n```\ncode\n```"
    kinds = [line.kind for line in markdown_lines(draft)]
    assert kinds == ["skip", "text", "item", "quote", "blank", "skip", "skip", "row"] + ["skip"] * 3


_MARKDOWN = st.sampled_from(
    [
        "Aspirin", "reduced", "pain", "was", "and", ". ", "\n", "\n\n", "- ", "1. ", "# ", "> ",
        "**", "*", "_", "__", "`", "~~", "|", "|---|---|", "[^1]", "[a](http://x.org)",
        "<br>", "```", "---", "===", "[S1]", "[x] ", " ", "é",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_MARKDOWN, max_size=40).map("".join))
@example("**\n**Aspirin")  # emphasis marks around a line break were left on the claim
def test_spans_of_markdown_are_in_bounds_and_slice_to_the_claim(draft: str) -> None:
    for index, claim in enumerate(DECOMPOSER.decompose(draft), start=1):
        assert claim.id == f"c{index}"
        assert claim.draft_span is not None
        start, end = claim.draft_span
        assert 0 <= start < end <= len(draft)
        assert claim.text and clean_claim_text(draft[start:end]) == claim.text
        assert not claim.text.startswith(("**", "__", "|")) and not claim.text.endswith("|")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_blanking_keeps_every_offset(text: str) -> None:
    blanked = blank_markdown(text)
    assert len(blanked) == len(text)
    assert all(b in (t, " ") for b, t in zip(blanked, text, strict=True))


def test_the_modules_examples_hold() -> None:
    import doctest

    import spanproof.text.markdown as module

    assert doctest.testmod(module).failed == 0


def _marked(text: str) -> list[str]:
    return [text[a:b] for a, b in markdown_syntax(text).marks]


def test_the_syntax_a_display_dims_is_marks_bullets_pipes_and_fences() -> None:
    text = (
        "## Answer ##\n\n"
        "- **Walking** lowered it [1](https://x.org).\n"
        "> a _quoted_ line\n\n"
        "| Arm | Change |\n|---|---|\n| walking | -5 mmHg |\n\n"
        "```\nx = **not syntax in code**\n```\n"
        "[1]: https://x.org"
    )
    assert _marked(text) == [
        "##", "##", "-", "**", "**", "[", "](https://x.org)", ">", "_", "_",
        "|", "|", "|", "|---|---|", "|", "|", "|", "```", "```",
    ]  # fmt: skip
    syntax = markdown_syntax(text)
    assert [text[a:b] for a, b in syntax.headings] == ["## Answer ##", "| Arm | Change |"]


def test_setext_and_bold_headings_are_headings() -> None:
    text = "Results\n=======\n\n**Findings**\n\nWalking lowered it."
    syntax = markdown_syntax(text)
    assert [text[a:b] for a, b in syntax.headings] == ["Results", "**Findings**"]
    assert _marked(text) == ["=======", "**", "**"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab #*_-|>`[]()\n:.1", max_size=60))
def test_syntax_ranges_are_ordered_disjoint_and_never_whitespace_at_their_ends(text: str) -> None:
    syntax = markdown_syntax(text)
    previous = -1
    for start, end in syntax.marks:
        assert previous < start < end <= len(text)
        assert not text[start].isspace() and not text[end - 1].isspace()
        previous = end
    for start, end in syntax.headings:
        assert 0 <= start < end <= len(text) and "\n" not in text[start:end]
