"""``spanproof ask``: a verified answer from the store, with a verdict mark on every claim."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.markup import escape

from spanproof.cli.errors import handle_errors
from spanproof.cli.outcome import (
    EXIT_FAIL_ON,
    FAIL_ON_OPTION,
    OUTCOME_STYLES,
    exit_status,
    outcome_line,
)
from spanproof.cli.render import STYLES
from spanproof.cli.store_commands import DB_OPTION
from spanproof.core.models import Outcome, Policy, Verdict
from spanproof.core.outcome import FailOn
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
    if answer.proposition is not None and answer.proposition.verdict is not None:
        # Under a proposition's verdict, the outcome is about the sentences the answer quotes,
        # not the question: said so, so that "supported" there is not read as the verdict.
        console.print(f"[bold]quotes checked:[/bold] {_quotes_line(answer)}", highlight=False)
    else:
        outcome = outcome_line(answer.outcome, answer.counts, answer.verification)
        console.print(f"[bold]outcome:[/bold] {outcome}", highlight=False)
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


def _quotes_line(answer: Answer) -> str:
    """The outcome of a proposition's answer, in words about its quoted sentences."""
    n = sum(answer.counts.values())
    if answer.verification == "verified" and answer.outcome is Outcome.ALL_SUPPORTED:
        said = (
            "the quoted sentence matches its source"
            if n == 1
            else f"all {n} quoted sentences match their sources"
        )
        style = OUTCOME_STYLES[answer.outcome]
        return f"[{style}]✔ {said}[/{style}]"
    if answer.verification == "verified" and answer.outcome is Outcome.ABSTAINED:
        return "∅ none: no source bears on the question"
    return outcome_line(answer.outcome, answer.counts, answer.verification)


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

    Exits 1 when the outcome reaches --fail-on — or, for a statement or yes/no question, when
    its own verdict does (contradicted; or, under 'unsupported', not supported) — and 5 when
    verification was unavailable (the reason is in the output).
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
    if status == 0 and _proposition_fails(answer, FailOn(fail_on)):
        status = EXIT_FAIL_ON
    if status:
        sys.exit(status)


def _proposition_fails(answer: Answer, fail_on: FailOn) -> bool:
    """Whether a proposition's own verdict reaches ``fail_on``: ``contradicted`` when it is
    contradicted, ``unsupported`` when it is anything but supported (not established)."""
    verdict = answer.proposition.verdict if answer.proposition is not None else None
    if verdict is None or fail_on is FailOn.NEVER:
        return False
    return verdict is Verdict.CONTRADICTED or (
        fail_on is FailOn.UNSUPPORTED and verdict is not Verdict.SUPPORTED
    )


COMMANDS = (ask_command,)
