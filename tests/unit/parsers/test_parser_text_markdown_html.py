"""Plain text, Markdown and HTML: keys from paragraphs and heading hierarchies, exact text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers import html, markdown, text

FIXTURES = Path(__file__).parents[2] / "fixtures" / "parsers"


def outline(doc: ParsedDocument) -> list[tuple[str, str, str]]:
    return [(s.key, s.title, s.text) for s in doc.sections]


def test_text_paragraphs_split_on_blank_lines_and_first_short_line_is_title() -> None:
    doc = text.parse((FIXTURES / "letter.txt").read_bytes())
    assert doc.format == "text"
    assert doc.title == "Statins and muscle pain"
    assert outline(doc) == [
        ("p1", "", "Statins and muscle pain"),
        (
            "p2",
            "",
            "Muscle symptoms were reported by 9.4% of participants on atorvastatin and 9.2% on "
            "placebo.",
        ),
        ("p3", "", "The difference was not significant (p = 0.62)."),
    ]


def test_text_with_a_long_first_line_has_no_title_and_crlf_is_a_line_break() -> None:
    long_line = "word " * 60
    doc = text.parse(f"{long_line}\r\n\r\nsecond".encode())
    assert doc.title == ""
    assert [s.key for s in doc.sections] == ["p1", "p2"]


def test_markdown_headings_make_hierarchical_keys_and_markup_is_removed() -> None:
    doc = markdown.parse((FIXTURES / "notes.md").read_bytes())
    assert doc.format == "markdown"
    assert doc.title == "Sleep deprivation and memory consolidation"
    assert outline(doc) == [
        ("s0", "", "Notes compiled for the journal club."),
        (
            "s1",
            "Sleep deprivation and memory consolidation",
            "One night without sleep impaired recall by 19% in a recent trial.",
        ),
        (
            "s1.1",
            "Methods",
            "Participants (n = 42) were randomised: sleep as usual; one night awake, monitored by "
            "actigraphy. # not a heading recall = correct / total",
        ),
        ("s1.1.1", "Scoring", "Group | Recall; Sleep | 0.71; Awake | 0.52"),
        ("s1.2", "Results", "Recall fell with deprivation_time, see Figure 2."),
        ("s1.3", "Limitations", "Small sample; single site."),
    ]


def test_markdown_title_falls_back_to_front_matter_and_skipped_levels_leave_no_gap() -> None:
    raw = b"---\ntitle: 'From YAML'\n---\n## Two\n\ntext a\n\n#### Four\n\ntext b\n"
    doc = markdown.parse(raw)
    assert doc.title == "From YAML"
    assert outline(doc) == [("s1", "Two", "text a"), ("s1.1", "Four", "text b")]


def test_markdown_unclosed_fence_keeps_the_rest_verbatim() -> None:
    doc = markdown.parse(b"# T\n\n```\n# kept *as is*\n")
    assert outline(doc) == [("s1", "T", "# kept *as is*")]


def test_html_sections_tables_and_dropped_elements() -> None:
    doc = html.parse((FIXTURES / "page.html").read_bytes())
    assert doc.format == "html"
    assert doc.title == "Vitamin D and fracture risk – a review"
    assert outline(doc) == [
        ("s0", "", "Home"),
        ("s1", "Vitamin D and fracture risk", "Supplementation is widely used in older adults."),
        (
            "s1.1",
            "Evidence",
            "Daily doses of 800 IU reduced hip fractures by 18%1, and serum levels above 10^2 "
            "nmol/L were rare. Trials: 11 Participants: 31,022 Pooled estimates "
            "Outcome | RR | 95% CI; Hip fracture | 0.82 | 0.69–0.97; Any fracture | 0.93 |",
        ),
        ("s1.1.1", "Dose", "Doses below 400 IU showed no effect."),
        (
            "s1.2",
            "Conclusion",
            "Vitamin D with calcium lowers fracture risk in institutionalised adults. "
            "© 2024 Example Review",
        ),
    ]
    everything = " ".join(s.text for s in doc.sections)
    for dropped in ("dataLayer", "font-family", "JavaScript", "build 2024"):
        assert dropped not in everything


def test_html_quoted_attributes_may_hold_angle_brackets() -> None:
    raw = b"<p title=\"a > b\" data-x='q'>Kept <b>bold</b> text</p><script>if (a<b) {}</script>"
    assert outline(html.parse(raw)) == [("s0", "", "Kept bold text")]


def test_html_without_title_uses_first_h1_and_eof_inside_a_tag_drops_the_rest() -> None:
    doc = html.parse(b"<h1>Heading &amp; more</h1><p>Body text.</p><a href='unterminated")
    assert doc.title == "Heading & more"
    assert outline(doc) == [("s1", "Heading & more", "Body text.")]


@pytest.mark.parametrize(
    ("parse", "raw"),
    [
        (text.parse, b"\n \n\t\n"),
        (markdown.parse, b"---\n\n#\n```\n```\n"),
        (html.parse, b"<html><!-- note --><script>x()</script><p> </p></html>"),
    ],
)
def test_text_formats_without_text_fail_with_no_text(
    parse: Callable[[bytes], ParsedDocument], raw: bytes
) -> None:
    with pytest.raises(ParseFailure) as err:
        parse(raw)
    assert err.value.reason == "no_text"
