"""Human-readable output: a coloured verdict table (colour plus text, never colour alone)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from spanproof.cli.outcome import outcome_line
from spanproof.core.models import Report, Verdict
from spanproof.core.outcome import edit_reasons, judge_doubt
from spanproof.verify.scoring import marker_position

STYLES = {
    Verdict.SUPPORTED: "green",
    Verdict.PARTIAL: "yellow",
    Verdict.UNSUPPORTED: "red",
    Verdict.CONTRADICTED: "bold red",
    Verdict.EVIDENCE_REDACTED: "magenta",
}


#: The narrowest a wrapping column gets before ids give up their full width.
_TEXT_MIN = 8


def add_id_column(table: Table, header: str, ids: Iterable[str]) -> None:
    """A column of ids a user copies: never cut, never word-wrapped, as wide as its longest id
    so the wrapping text columns give way first (see :func:`print_table`)."""
    width = max((len(i) for i in ids), default=0)
    table.add_column(header, no_wrap=True, overflow="fold", min_width=max(width, len(header)))


def add_text_column(table: Table, header: str, *, ratio: int | None = 1) -> None:
    """A column of text that wraps to the room the id columns leave."""
    table.add_column(header, overflow="fold", ratio=ratio)


def print_table(console: Console, table: Table) -> None:
    """Print ``table`` within the console's width without cutting an id.

    Id columns keep their full width while the other columns can still have a few characters
    each; on a terminal too narrow for that, the widest id columns fold instead (the whole id
    stays on screen, over two lines), never an ellipsis.
    """
    columns = table.columns
    ids = [c for c in columns if c.no_wrap and c.min_width and c.overflow == "fold"]
    others = len(columns) - len(ids)
    budget = console.width - (3 * len(columns) + 1) - _TEXT_MIN * others
    for column in sorted(ids, key=lambda c: c.min_width or 0, reverse=True):
        if sum(c.min_width or 0 for c in ids) <= budget:
            break
        column.min_width = None
        column.no_wrap = False  # a long id folds (whole) rather than push the table off-screen
    console.print(table)


def _quote(text: str, limit: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def render_report(
    report: Report, console: Console, evidence: Mapping[str, str] | None = None
) -> None:
    """A verdict table; with ``evidence`` (id → text) each best span is quoted."""
    title = outcome_line(report.outcome, report.counts, report.verification)
    table = Table(title=f"spanproof verify — {title}", show_lines=False)
    table.add_column("claim", overflow="fold", ratio=3)
    table.add_column("verdict", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("best span", overflow="fold", ratio=2)
    table.add_column("gates", no_wrap=True)
    for claim in report.claims:
        gates = [
            name
            for name, on in (
                ("numeric", claim.numeric_gated),
                ("entity", claim.entity_gated),
                ("polarity", claim.polarity_gated),
                ("no finding", claim.finding_gated),
            )
            if on
        ]
        gates += edit_reasons(edit.judgement for edit in claim.edits)
        doubt = judge_doubt(claim.judge.to_dict() if claim.judge is not None else None)
        gates += [doubt] if doubt else []
        best = "—"
        if claim.best_span is not None:
            ref = claim.best_span
            best = f"{ref.id}[{ref.start}:{ref.end}]"
            if evidence is not None and ref.id in evidence:
                best += f"\n“{escape(_quote(evidence[ref.id][ref.start : ref.end]))}”"
        style = STYLES[claim.verdict]
        text = f"{claim.id}: {claim.text}"
        if claim.negates:  # a bare "No.": read as the proposition, its verdict turned round
            text += f"\n(a “No”: “{claim.negates}” checked, its verdict turned round)"
        table.add_row(
            escape(text),
            f"[{style}]{claim.verdict.value}[/{style}]",
            f"{claim.score:.3f}",
            best,
            ",\n".join(gates) or "—",
        )
    console.print(table)
    if evidence is not None:
        for claim_id, marker in uncited_markers(report, evidence):
            console.print(
                f"⚠ {escape(claim_id)} cites [{escape(marker)}], which no evidence item has: a "
                "citation to nothing (its verdict was read against all the evidence)",
                highlight=False,
            )
    summary = ", ".join(f"{n} {k}" for k, n in report.counts.items() if n) or "no claims"
    console.print(
        f"score model {report.score_model} · embed model {report.embed_model or '—'} · {summary}"
        f" · verification {escape(report.verification)}",
        highlight=False,
    )
    if report.delivered is not None and report.draft is not None:
        console.print("[bold]delivered:[/bold]")
        console.print(report.delivered, markup=False, highlight=False)


def uncited_markers(report: Report, evidence: Mapping[str, str]) -> list[tuple[str, str]]:
    """(claim id, marker) for each citation marker of a claim that names no evidence item: not
    an evidence id, nor ``S<k>`` with ``k`` an item's position (from 1, in ``evidence``'s
    order), as scoring resolves markers (``[1]`` in a draft is ``S1``)."""
    return [
        (claim.id, marker)
        for claim in report.claims
        for marker in claim.cited_markers
        if marker not in evidence and marker_position(marker, len(evidence)) is None
    ]


def progress_bar(console: Console, *, transient: bool = False) -> Progress:
    """The progress bar of long commands: description, bar, done of total, elapsed time; shown
    only on a terminal (``transient``: erased when done)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=transient,
    )
