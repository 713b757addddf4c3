"""``spanproof ask``: a verified answer from the store, with a verdict mark on every claim."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.markup import escape

from spanproof.cli.errors import handle_errors
from spanproof.cli.outcome import FAIL_ON_OPTION, exit_status, outcome_line
from spanproof.cli.render import STYLES
from spanproof.cli.store_commands import DB_OPTION
from spanproof.core.models import Policy, Verdict
from spanproof.services.answering import Answer

#: Verdict marks: always shown with the verdict's name, so colour is never the only signal.
MARKS = {
    Verdict.SUPPORTED: "✓",
    Verdict.PARTIAL: "~",
    Verdict.UNSUPPORTED: "✗",
    Verdict.CONTRADICTED: "⊘",
    Verdict.EVIDENCE_REDACTED: "▒",
}


def render_answer(answer: Answer, console: Console) -> None:
    """The outcome, the delivered answer, each claim with its mark, verdict and score, sources
    and trace."""
    console.print(f"[bold]Q:[/bold] {escape(answer.question)}")
    if answer.proposition is not None and answer.proposition.verdict is not None:
        # The question is a proposition: its own verdict comes first (the answer leads with it).
        verdict = answer.proposition.verdict
        console.print(
            f"[bold]verdict:[/bold] [{STYLES[verdict]}]{MARKS[verdict]} {verdict.value}"
            f"[/{STYLES[verdict]}] — {escape(answer.proposition.claim)}",
            highlight=False,
        )
    outcome = outcome_line(answer.outcome, answer.counts, answer.verification)
    # Under a proposition's verdict, the outcome is about the quoted evidence, not the question.
    label = (
        "evidence quoted"
        if answer.proposition is not None and answer.proposition.verdict is not None
        else "outcome"
    )
    console.print(f"[bold]{label}:[/bold] {outcome}", highlight=False)
    console.print(f"[bold]A[/bold] (policy {answer.policy.value}):")
    if answer.answer is None:
        console.print("  (withheld: verification unavailable under the redact policy)")
    else:
        console.print(answer.answer or "(no answer: nothing relevant in the store)", markup=False)
    if answer.claims:
        console.print("[bold]claims:[/bold]")
    for claim in answer.claims:
        style = STYLES[claim.verdict]
        mark = f"{MARKS[claim.verdict]} {claim.verdict.value}"
        cited = f" [{', '.join(claim.cited_markers)}]" if claim.cited_markers else ""
        console.print(
            f"  [{style}]{escape(mark):<14}[/{style}] {claim.score:.2f}  "
            f"{escape(claim.text)}{escape(cited)}"
        )
    if answer.citations:
        console.print("[bold]sources:[/bold]")
    for marker, ref in answer.citations.items():
        title = ref.get("title") or ref.get("source_id", "")
        where = f"{ref['source_id']} v{ref['version']} §{ref['section_key']}"
        console.print(
            f"  [{marker}] {escape(str(title))} — {escape(where)} [{ref['start']}:{ref['end']}]",
            highlight=False,
        )
    if not answer.answered:
        _render_closest(answer, console)
    if answer.trace_id:
        console.print(f"trace: {answer.trace_id}", highlight=False)
    else:
        console.print("trace: not stored (this store keeps no traces)")


def _render_closest(answer: Answer, console: Console) -> None:
    """An abstention's closest sources, each with its relevance (below the floor)."""
    floor = answer.plan.floor
    console.print(
        "[bold]closest sources[/bold] (none reaches the relevance floor"
        + (f" {floor:.2f}" if floor is not None else "")
        + "):",
        highlight=False,
    )
    for span in answer.plan.closest:
        ref = span.source
        title = ref.get("title") or ref.get("source_id", "")
        console.print(
            f"  {float(ref.get('relevance', 0.0)):.2f}  {escape(str(title))} — "
            f"{escape(str(ref.get('source_id', '')))}: {escape(span.text)}",
            highlight=False,
        )
    if not answer.plan.closest:
        console.print("  (none: the store holds nothing near the question)")


@click.command("ask")
@click.argument("question")
@click.option(
    "--policy",
    type=click.Choice(["flag", "redact"]),
    default=None,
    help="flag: deliver the answer with a ⟦verdict⟧ mark after each claim that is not "
    "supported; redact: remove unsupported claims (default: the configured policy, flag).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as one JSON object.")
@FAIL_ON_OPTION
@DB_OPTION
@handle_errors
def ask_command(
    question: str, policy: str | None, as_json: bool, fail_on: str, db: str | None
) -> None:
    """Answer QUESTION from the store and verify every claim of the answer.

    \b
    spanproof ask "What did daily walking do to blood pressure?" [--policy redact] [--json]

    When no span of the store is relevant enough to the question, the answer abstains ("The
    sources do not answer this question.", outcome abstained) and lists the closest sources.

    Exits 1 when the outcome reaches --fail-on, 5 when verification was unavailable (the reason
    is in the output).
    """
    from spanproof.bootstrap import build_engine
    from spanproof.cli.store_commands import check_store
    from spanproof.config import load_settings

    settings = load_settings()
    check_store(settings, db)  # a mistyped --db is an error, not a new empty store
    engine = build_engine(settings, db)
    try:
        answer = engine.ask(question, policy=Policy(policy) if policy else None)
    finally:
        engine.store.close()
    if as_json:
        click.echo(json.dumps(answer.to_dict(), ensure_ascii=False))
    else:
        render_answer(answer, Console(soft_wrap=True))
    status = exit_status(answer.verification, answer.outcome, fail_on)
    if status:
        sys.exit(status)


COMMANDS = (ask_command,)
