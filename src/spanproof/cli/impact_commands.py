"""``spanproof impact REF``, ``spanproof retract``, ``spanproof walks`` and ``spanproof
artifacts`` (SPEC §2, §5.5, §5.7)."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from spanproof.cli.errors import handle_errors
from spanproof.cli.paging import command_line, page_document, page_footer
from spanproof.cli.render import add_id_column, add_text_column, print_table
from spanproof.cli.store_commands import DB_OPTION, open_store
from spanproof.core.artifacts import ARTIFACT_KINDS, Walk, WalkStep
from spanproof.core.graph_store import MAX_WALK_BATCH
from spanproof.services import artifacts as artifact_service
from spanproof.services import impact as impact_service

BATCH_OPTION = click.option(
    "--batch",
    type=click.IntRange(1, MAX_WALK_BATCH),
    default=impact_service.DEFAULT_BATCH,
    show_default=True,
    help="Edges followed per journalled step.",
)


#: The most walks ``walks list`` reads to page and count.
_WALK_SCAN = 10_000


def _echo_json(payload: object) -> None:
    click.echo(json.dumps(payload, ensure_ascii=False))


def _run_walks(store: object, walk_ids: list[str], batch: int, quiet: bool) -> list[Walk]:
    """Run walks to the end, with a progress line on stderr unless ``quiet``."""
    walks: list[Walk] = []
    console = Console(stderr=True)
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("{task.fields[flags]} flag(s), {task.completed:.0f} edge(s)"),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
        transient=True,
    ) as progress:
        for walk_id in walk_ids:
            task = progress.add_task(f"walk {walk_id}", total=None, flags=0)
            counted = {"flags": 0}

            def advance(
                step: WalkStep, task: Any = task, counted: dict[str, int] = counted
            ) -> None:
                counted["flags"] += step.flags
                progress.update(task, advance=step.edges, flags=counted["flags"])

            walks.append(impact_service.run_walk(store, walk_id, batch=batch, progress=advance))
    return walks


def _walks_table(walks: list[Walk], title: str) -> Table:
    table = Table(title=title)
    add_id_column(table, "walk", (w.id for w in walks))
    add_id_column(table, "changed ref", (w.changed_ref for w in walks))
    add_text_column(table, "reason")
    for name in ("status", "steps", "edges", "flags"):
        table.add_column(name, no_wrap=True)
    for w in walks:
        table.add_row(escape(w.id), escape(w.changed_ref), w.reason, w.status, str(w.steps),
                      str(w.edges), str(w.flags))  # fmt: skip
    return table


@click.command("impact")
@click.argument("ref")
@click.option("--limit", type=click.IntRange(1, 10_000), default=1000, show_default=True)
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the dependents as JSON.")
@handle_errors
def impact_command(ref: str, limit: int, db: str | None, as_json: bool) -> None:
    """List what depends on REF (source:<id>:v<n>, record:<id>, assessment:<id>, …) and whether
    each dependent carries the flag for it."""
    with open_store(db) as (_, store):
        report = impact_service.impact(store, ref, limit=limit)
    if as_json:
        _echo_json(report.to_dict())
        return
    console = Console()
    table = Table(title=f"{len(report.dependents)} dependent(s) of {escape(ref)}, "
                        f"{report.flagged} flagged")  # fmt: skip
    add_id_column(table, "dependent", (d.ref for d in report.dependents))
    table.add_column("flag", no_wrap=True)
    add_text_column(table, "other flags")
    for d in report.dependents:
        flag = "[red]flagged[/red]" if d.flagged else "[green]no flag[/green]"
        others = ", ".join(f"{f.changed_ref} ({f.reason})" for f in d.flags if f.changed_ref != ref)
        table.add_row(escape(d.ref), flag, escape(others or "—"))
    print_table(console, table)
    if report.truncated:
        console.print(f"(more than {limit} dependents: raise --limit)")
    running = [w for w in report.walks if not w.done]
    if running:
        console.print(f"{len(running)} walk(s) from this ref still running: spanproof walks resume")


@click.command("retract")
@click.argument("source_id")
@click.option("--status", type=click.Choice(["retracted", "withdrawn"]), default="retracted",
              show_default=True)  # fmt: skip
@click.option(
    "--downgrade",
    is_flag=True,
    help="Allow lowering the status (retracted → withdrawn), to correct a mistaken retraction.",
)
@BATCH_OPTION
@click.option("--no-walk", is_flag=True, help="Start the walks but leave them for a worker.")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the walks as JSON.")
@handle_errors
def retract_command(
    source_id: str,
    status: str,
    downgrade: bool,
    batch: int,
    no_walk: bool,
    db: str | None,
    as_json: bool,
) -> None:
    """Mark a source retracted (or withdrawn) and flag everything built on it.

    A status is never lowered (a retracted source stays retracted when asked to be withdrawn:
    exit 2) unless --downgrade is given.
    """
    with open_store(db) as (_, store):
        walk_ids = impact_service.retract(store, source_id, status, downgrade=downgrade)
        if no_walk:
            graph = impact_service.graph(store)
            walks = [w for w in (graph.get_walk(i) for i in walk_ids) if w is not None]
        else:
            walks = _run_walks(store, walk_ids, batch, quiet=as_json)
    if as_json:
        _echo_json({"source_id": source_id, "status": status,
                    "walks": [w.to_dict() for w in walks]})  # fmt: skip
        return
    print_table(Console(), _walks_table(walks, f"{escape(source_id)} is {status}"))


@click.group("walks")
def walks_group() -> None:
    """Impact walks: list them, or finish the ones a crash (or --no-walk) left running."""


@walks_group.command("list")
@click.option("--status", type=click.Choice(["running", "done"]), default=None)
@click.option("--limit", type=click.IntRange(1, 10_000), default=100, show_default=True)
@click.option("--offset", type=click.IntRange(0), default=0, show_default=True)
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the page as one JSON object.")
@handle_errors
def walks_list_command(
    status: str | None, limit: int, offset: int, db: str | None, as_json: bool
) -> None:
    """List impact walks, oldest first (N of M)."""
    with open_store(db) as (_, store):
        # Walks are read up to the scan limit, then paged here (the store pages by limit only).
        every = impact_service.graph(store).list_walks(status=status, limit=_WALK_SCAN)
    walks, total, capped = every[offset : offset + limit], len(every), len(every) >= _WALK_SCAN
    if as_json:
        _echo_json(page_document([w.to_dict() for w in walks], total=total, offset=offset,
                                 limit=limit, lower_bound=capped))  # fmt: skip
        return
    console = Console()
    print_table(console, _walks_table(walks, "walks"))
    command = command_line("walks", "list", status=status, db=db)
    console.print(page_footer("walks", shown=len(walks), total=total, offset=offset, limit=limit,
                              command=command, lower_bound=capped), markup=False,
                  highlight=False, soft_wrap=True)  # fmt: skip


@walks_group.command("resume")
@BATCH_OPTION
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def walks_resume_command(batch: int, db: str | None, as_json: bool) -> None:
    """Carry every running walk on from its last journalled step to the end."""
    with open_store(db) as (_, store):
        running = impact_service.graph(store).list_walks(status="running", limit=10_000)
        walks = _run_walks(store, [w.id for w in running], batch, quiet=as_json)
    if as_json:
        _echo_json(page_document([w.to_dict() for w in walks], total=len(walks)))
        return
    print_table(Console(), _walks_table(walks, f"{len(walks)} walk(s) finished"))


@click.group("artifacts")
def artifacts_group() -> None:
    """Assessments, packages, approaches and designs built on records."""


def _print_view(view: artifact_service.ArtifactView) -> None:
    console = Console()
    a = view.artifact
    flag = " · [red]flagged[/red]" if view.flags else ""
    console.print(f"[bold]{escape(a.ref)}[/bold] · {escape(a.title)}{flag}")
    if view.judgement is not None:
        console.print(f"  judgement: {view.judgement.label} — {view.judgement.reason}",
                      markup=False, highlight=False)  # fmt: skip
    for v in view.versions:
        state = f"approved by {v.approved_by} at {v.approved_at}" if v.approved else "draft"
        console.print(f"  v{v.number}: {state}; depends on {', '.join(v.depends_on) or '—'}",
                      markup=False, highlight=False)  # fmt: skip
    for f in view.flags:
        console.print(f"  flag: {f.changed_ref} {f.reason} (walk {f.walk_id})", markup=False,
                      highlight=False)  # fmt: skip


@artifacts_group.command("assess")
@click.argument("question")
@click.option("--record", "-r", "records", multiple=True, required=True,
              help="A verified record the assessment rests on (repeat).")  # fmt: skip
@click.option("--title", default="", help="A title (the question by default).")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def assess_command(
    question: str, records: tuple[str, ...], title: str, db: str | None, as_json: bool
) -> None:
    """Make an assessment of QUESTION on verified records, with its sufficiency judgement."""
    with open_store(db) as (_, store):
        artifact, _ = artifact_service.create_assessment(store, question, records, title=title)
        view = artifact_service.artifact_view(store, artifact.id)
    if as_json:
        _echo_json(view.to_dict())
        return
    _print_view(view)


@artifacts_group.command("create")
@click.argument("kind", type=click.Choice([k for k in ARTIFACT_KINDS if k != "assessment"]))
@click.argument("title")
@click.option("--depends-on", "-d", "depends_on", multiple=True, required=True,
              help="A ref the artifact is built on (repeat).")  # fmt: skip
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def create_command(
    kind: str, title: str, depends_on: tuple[str, ...], db: str | None, as_json: bool
) -> None:
    """Make a package, approach or design that depends on other refs."""
    with open_store(db) as (_, store):
        artifact, _ = artifact_service.create_artifact(store, kind, title, depends_on)
        view = artifact_service.artifact_view(store, artifact.id)
    if as_json:
        _echo_json(view.to_dict())
        return
    _print_view(view)


@artifacts_group.command("approve")
@click.argument("artifact_id")
@click.argument("version", type=click.IntRange(1))
@click.option("--approver", required=True, help="Who approves (kept with the version).")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def approve_command(
    artifact_id: str, version: int, approver: str, db: str | None, as_json: bool
) -> None:
    """Approve a version: it is final from then on."""
    with open_store(db) as (_, store):
        approved = artifact_service.approve(store, artifact_id, version, approver)
    if as_json:
        _echo_json(approved.to_dict())
        return
    click.echo(f"{artifact_id} v{version} approved by {approved.approved_by}")


@artifacts_group.command("list")
@click.option("--kind", type=click.Choice(ARTIFACT_KINDS), default=None)
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True)
@click.option("--offset", type=click.IntRange(0), default=0, show_default=True)
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the page as one JSON object.")
@handle_errors
def list_command(kind: str | None, limit: int, offset: int, db: str | None, as_json: bool) -> None:
    """List artifacts with their judgement and whether they are flagged (N of M)."""
    with open_store(db) as (_, store):
        views = artifact_service.list_views(store, kind=kind, limit=limit, offset=offset)
        total = _count_artifacts(store, kind)
    if as_json:
        _echo_json(page_document([v.to_dict() for v in views], total=total, offset=offset,
                                 limit=limit))  # fmt: skip
        return
    table = Table(title="artifacts")
    add_id_column(table, "ref", (v.artifact.ref for v in views))
    add_text_column(table, "title")
    for name in ("versions", "judgement", "flag"):
        table.add_column(name, overflow="fold")
    for v in views:
        approved = sum(1 for x in v.versions if x.approved)
        table.add_row(
            escape(v.artifact.ref),
            escape(v.artifact.title),
            f"{len(v.versions)} ({approved} approved)",
            v.judgement.label if v.judgement else "—",
            "[red]flagged[/red]" if v.flags else "—",
        )
    console = Console()
    print_table(console, table)
    command = command_line("artifacts", "list", kind=kind, db=db)
    console.print(page_footer("artifacts", shown=len(views), total=total, offset=offset,
                              limit=limit, command=command), markup=False,
                  highlight=False, soft_wrap=True)  # fmt: skip


def _count_artifacts(store: object, kind: str | None) -> int:
    """How many artifacts (of ``kind``) the store holds, counted a page at a time."""
    graph = impact_service.graph(store)
    total = 0
    while True:
        batch = graph.list_artifacts(kind=kind, limit=1000, offset=total)
        total += len(batch)
        if len(batch) < 1000:
            return total


@artifacts_group.command("show")
@click.argument("artifact_id")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def show_command(artifact_id: str, db: str | None, as_json: bool) -> None:
    """Show an artifact: versions, judgement and flags."""
    with open_store(db) as (_, store):
        view = artifact_service.artifact_view(store, artifact_id)
    if as_json:
        _echo_json(view.to_dict())
        return
    _print_view(view)


COMMANDS = (impact_command, retract_command, walks_group, artifacts_group)
