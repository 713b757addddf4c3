"""The outcome on the command line: its styled headline, and ``--fail-on`` with its exit status."""

from __future__ import annotations

from collections.abc import Mapping

import click

from spanproof.core.models import Outcome
from spanproof.core.outcome import FailOn, fails, headline

#: Exit status when the outcome reaches ``--fail-on``.
EXIT_FAIL_ON = 1
#: Exit status when verification was unavailable (whatever ``--fail-on`` says).
EXIT_UNAVAILABLE = 5
#: Colour on top of the icon and words, never instead of them.
OUTCOME_STYLES = {
    Outcome.ALL_SUPPORTED: "bold green",
    Outcome.NOT_ALL_SUPPORTED: "bold yellow",
    Outcome.CONTRADICTED: "bold red",
    Outcome.NO_CLAIMS: "bold",
    Outcome.ABSTAINED: "bold",
    Outcome.UNAVAILABLE: "bold red",
}
FAIL_ON_OPTION = click.option(
    "--fail-on",
    type=click.Choice([level.value for level in FailOn]),
    default=FailOn.NEVER.value,
    show_default=True,
    help="Exit 1 when the outcome reaches this level, for CI: 'contradicted' (a claim is "
    "contradicted) or 'unsupported' (a claim is partial, unsupported, contradicted or evidence "
    "redacted).",
)


def outcome_line(outcome: Outcome, counts: Mapping[str, int], verification: str) -> str:
    """The outcome's headline as rich markup (``✖ 1 claim contradicted, 1 unsupported``)."""
    from rich.markup import escape  # here: `--json` output never loads rich

    style = OUTCOME_STYLES[outcome]
    return f"[{style}]{escape(headline(outcome, counts, verification))}[/{style}]"


def exit_status(verification: str, outcome: Outcome, fail_on: FailOn | str) -> int:
    """5 when verification was unavailable, 1 when ``outcome`` reaches ``fail_on``, else 0."""
    if verification != "verified":
        return EXIT_UNAVAILABLE
    return EXIT_FAIL_ON if fails(outcome, fail_on) else 0
