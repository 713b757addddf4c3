"""``spanproof`` command line.

Start-up stays cheap: the group knows every command by name and one line of help, and imports a
command's module only when that command runs (``spanproof --help`` imports none of them).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from spanproof import __version__

#: name → (module, attribute, the short help ``spanproof --help`` shows). The short help is the
#: command's own (a test checks each against the loaded command).
LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "artifacts": (
        "spanproof.cli.impact_commands",
        "artifacts_group",
        "Assessments, packages, approaches and designs built on records.",
    ),
    "ask": (
        "spanproof.cli.ask_commands",
        "ask_command",
        "Answer QUESTION from the store and verify every claim of the answer.",
    ),
    "bench": (
        "spanproof.cli.bench_commands",
        "bench_command",
        "Time the engine on this machine: the embedder against onnxruntime run directly on the "
        "same texts, and one verify of 10 claims against 64 evidence spans, uncached and cached.",
    ),
    "check": (
        "spanproof.cli.check_commands",
        "check_command",
        "Check a set of answers, each against its own contexts (RAG test sets, for CI).",
    ),
    "embed": (
        "spanproof.cli.embed_commands",
        "embed_command",
        "Embed what the store lacks: chunk vectors, and sentence vectors for the embedding cache.",
    ),
    "erase": (
        "spanproof.cli.store_commands",
        "erase_command",
        "Mask a character range of a section: no longer served, searchable or resolvable.",
    ),
    "faults": (
        "spanproof.cli.record_commands",
        "faults_group",
        "Fault injection: the six named mutations over the verified records.",
    ),
    "impact": (
        "spanproof.cli.impact_commands",
        "impact_command",
        "List what depends on REF (source:<id>:v<n>, record:<id>, assessment:<id>, …) and "
        "whether each dependent carries the flag for it.",
    ),
    "ingest": (
        "spanproof.cli.store_commands",
        "ingest_command",
        "Ingest files, folders, a SciFact corpus JSONL, or pmc:PMC… / pmid:… / doi:… sources.",
    ),
    "keys": (
        "spanproof.cli.key_commands",
        "keys_group",
        "Create, list and revoke the API keys `spanproof serve` accepts.",
    ),
    "queue": ("spanproof.cli.workflow_commands", "queue_group", "Watch the workflow queues."),
    "records": (
        "spanproof.cli.record_commands",
        "records_group",
        "Evidence records: extract findings with quotations, verify them, list and show them.",
    ),
    "reindex": (
        "spanproof.cli.store_commands",
        "reindex_command",
        "Build the optional approximate (HNSW) vector index of a SQLite store (opt-in: exact "
        "search is the default; see docs/store.md for when the index is worth it).",
    ),
    "retract": (
        "spanproof.cli.impact_commands",
        "retract_command",
        "Mark a source retracted (or withdrawn) and flag everything built on it.",
    ),
    "review": (
        "spanproof.cli.record_commands",
        "review_group",
        "The review queue: records the checks could not settle, and sole evidence of assessments.",
    ),
    "search": (
        "spanproof.cli.store_commands",
        "search_command",
        "Search the store (keyword + semantic, fused by reciprocal rank).",
    ),
    "serve": (
        "spanproof.cli.serve_commands",
        "serve_command",
        "Serve the HTTP API (/v1/..., /openapi.json, /healthz, /metrics) and the web UI.",
    ),
    "source": (
        "spanproof.cli.store_commands",
        "source_command",
        "Show a source: metadata, status, versions and the sections of its current version.",
    ),
    "sources": ("spanproof.cli.store_commands", "sources_command", "List sources, N of M."),
    "trace": (
        "spanproof.cli.trace_commands",
        "trace_group",
        "Stored traces: show one, or verify the hash chain and replay the scoring.",
    ),
    "verify": (
        "spanproof.cli.verify_commands",
        "verify",
        "Verify claims or a draft against evidence.",
    ),
    "walks": (
        "spanproof.cli.impact_commands",
        "walks_group",
        "Impact walks: list them, or finish the ones a crash (or --no-walk) left running.",
    ),
    "worker": (
        "spanproof.cli.workflow_commands",
        "worker_command",
        "Run workflows from the queues until stopped (SIGTERM or Ctrl-C).",
    ),
    "workflows": (
        "spanproof.cli.workflow_commands",
        "workflows_group",
        "Ingest, verify and walk impact through the durable workflow engine.",
    ),
}


class LazyGroup(click.Group):
    """A group whose subcommands load on first use (the click documentation's lazy group)."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, attribute, _ = self.lazy[cmd_name]
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{module}.{attribute} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the table (no import) plus any command added eagerly."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.commands:
                command = self.commands[name]
                if command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(limit)))
            else:
                rows.append((name, _shorten(self.lazy[name][2], limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters the way click cuts a short help."""
    return click.Command(None, help=text).get_short_help_str(limit)


@click.group(
    cls=LazyGroup, lazy=LAZY_COMMANDS, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="spanproof")
def cli() -> None:
    """Check every factual claim in a text against the exact source text it may rest on."""


#: The exit status when the reader of standard output went away (``spanproof check … | head
#: -1``): that of a process ended by SIGPIPE, as the shell reports it — never 1, which a failed
#: ``--fail-on`` check means.
EXIT_CLOSED_PIPE = 141


def _on_devnull() -> bool:
    """Whether standard output is the null device."""
    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.stat(os.devnull))
    except (OSError, ValueError, AttributeError):
        return False


def main() -> None:
    """The ``spanproof`` command. A reader of standard output that goes away (``| head``) ends
    it with :data:`EXIT_CLOSED_PIPE`: click (``echo``) and rich (tables, reports) both answer a
    closed pipe with status 1 — click after wrapping the streams, rich after pointing standard
    output at the null device — and 1 is the status of a failed check."""
    started_on_devnull = _on_devnull()
    try:
        cli(prog_name="spanproof")
    except SystemExit as exc:
        click_closed = type(sys.stdout).__name__.endswith("PacifyFlushWrapper")
        rich_closed = not started_on_devnull and _on_devnull()
        if exc.code == 1 and (click_closed or rich_closed):
            raise SystemExit(EXIT_CLOSED_PIPE) from None
        raise


if __name__ == "__main__":
    main()
