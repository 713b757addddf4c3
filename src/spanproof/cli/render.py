"""Human-readable output: a coloured verdict table (colour plus text, never colour alone)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spanproof.cli.outcome import outcome_line
from spanproof.core.models import Report, Verdict

STYLES = {
    Verdict.SUPPORTED: "green",
    Verdict.PARTIAL: "yellow",
    Verdict.UNSUPPORTED: "red",
    Verdict.CONTRADICTED: "bold red",
    Verdict.EVIDENCE_REDACTED: "magenta",
}


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
            )
            if on
        ]
        best = "—"
        if claim.best_span is not None:
            ref = claim.best_span
            best = f"{ref.id}[{ref.start}:{ref.end}]"
            if evidence is not None and ref.id in evidence:
                best += f"\n“{escape(_quote(evidence[ref.id][ref.start : ref.end]))}”"
        style = STYLES[claim.verdict]
        table.add_row(
            escape(f"{claim.id}: {claim.text}"),
            f"[{style}]{claim.verdict.value}[/{style}]",
            f"{claim.score:.3f}",
            best,
            ", ".join(gates) or "—",
        )
    console.print(table)
    summary = ", ".join(f"{n} {k}" for k, n in report.counts.items() if n) or "no claims"
    console.print(
        f"score model {report.score_model} · embed model {report.embed_model or '—'} · {summary}"
        f" · verification {escape(report.verification)}",
        highlight=False,
    )
    if report.delivered is not None and report.draft is not None:
        console.print("[bold]delivered:[/bold]")
        console.print(report.delivered, markup=False, highlight=False)
