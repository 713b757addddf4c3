"""``spanproof records extract | verify | list | show`` and ``spanproof faults run`` (SPEC §5)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spanproof.cli.errors import handle_errors
from spanproof.cli.paging import command_line, echo_json, page_document, page_footer
from spanproof.cli.render import add_id_column, add_text_column, print_table
from spanproof.cli.store_commands import DB_OPTION, open_store
from spanproof.core.errors import ConfigurationError, InvalidInputError
from spanproof.core.record_store import RecordStore
from spanproof.core.records import RECORD_STATUSES, Record
from spanproof.core.store import EvidenceStore
from spanproof.services.erasure import shown_attempts
from spanproof.services.impact import resume_walks
from spanproof.services.records import (
    extract,
    faults_run,
    status_after,
    verify_all,
    verify_record,
)
from spanproof.services.review import (
    decide_review,
    record_document,
    review_queue,
    source_note,
    source_status_of,
)

_STATUS_STYLE = {
    "verified": "green",
    "rejected": "red",
    "in_review": "yellow",
    "quarantined": "magenta",
    "proposed": "cyan",
}

#: Attempts per record, for `records verify` and `workflows verify`.
BUDGET_OPTION = click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Attempts per record.",
)


def _record_store(store: EvidenceStore) -> RecordStore:
    if not isinstance(store, RecordStore):
        raise ConfigurationError(f"{type(store).__name__} keeps no evidence records")
    return store


def _status(status: str) -> str:
    style = _STATUS_STYLE.get(status, "white")
    return f"[{style}]{escape(status)}[/{style}]"


def _records_table(records: list[Record], title: str) -> Table:
    table = Table(title=title)
    add_id_column(table, "id", (r.id for r in records))
    add_id_column(table, "source", (f"{r.source_id} v{r.version}" for r in records))
    table.add_column("status", no_wrap=True)
    add_text_column(table, "statement")
    for r in records:
        table.add_row(escape(r.id), escape(f"{r.source_id} v{r.version}"), _status(r.status),
                      escape(r.statement))  # fmt: skip
    return table


@click.group("records")
def records_group() -> None:
    """Evidence records: extract findings with quotations, verify them, list and show them."""


@records_group.command("extract")
@click.argument("source_id")
@click.option("--version", "version", type=int, default=None, help="Source version (newest).")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print records and defects as JSON.")
@handle_errors
def extract_command(source_id: str, version: int | None, db: str | None, as_json: bool) -> None:
    """Extract records from a source's sections (rule-based extractor) and store them."""
    with open_store(db) as (_, store):
        result = extract(store, source_id, version)
    if as_json:
        payload = {"records": [r.to_dict() for r in result.records], "defects": result.defects}
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    console = Console()
    print_table(console, _records_table(result.records, f"records of {source_id}"))
    for defect in result.defects:
        console.print(f"defect: {defect}", markup=False, highlight=False)


@records_group.command("verify")
@click.argument("record_id", required=False)
@click.option("--all", "all_", is_flag=True, help="Verify every proposed record.")
@BUDGET_OPTION
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the decisions as JSON.")
@handle_errors
def verify_command(
    record_id: str | None, all_: bool, budget: int, db: str | None, as_json: bool
) -> None:
    """Verify one record (gate, check, decision) or, with --all, every proposed record.

    The checker is the configured LLM (SPANPROOF_LLM__*), else the deterministic one.
    """
    if all_ == (record_id is not None):
        raise InvalidInputError("give either a RECORD_ID or --all")
    from spanproof.bootstrap import build_record_checker

    with open_store(db) as (settings, store):
        checker = build_record_checker(settings)
        if all_:
            results = verify_all(store, budget=budget, checker=checker)
        else:
            assert record_id is not None
            record = _record_store(store).get_record(record_id)
            if record is None:
                raise InvalidInputError(f"unknown record id {record_id!r}")
            results = [(record, verify_record(store, record, budget=budget, checker=checker))]
        resume_walks(store)  # rejections and re-proposals flag what is built on the record
    rows: list[dict[str, Any]] = [
        {
            "id": r.id,
            "outcome": d.outcome,
            "status": status_after(d),
            "reason": d.reason,
            "failed": list(d.failed),
        }
        for r, d in results
    ]
    outcomes = dict(sorted(Counter(row["outcome"] for row in rows).items()))
    if as_json:
        echo_json(page_document(rows, total=len(rows), outcomes=outcomes))
        return
    table = Table(title=_decided(len(rows), outcomes))
    add_id_column(table, "id", (row["id"] for row in rows))
    table.add_column("outcome", no_wrap=True)
    add_text_column(table, "reason")
    for row in rows:
        table.add_row(escape(row["id"]), _status(row["outcome"]), escape(row["reason"]))
    print_table(Console(), table)


def _decided(total: int, outcomes: dict[str, int]) -> str:
    """``15 record(s) checked: 6 verified, 9 quarantined`` (what each record's decision was)."""
    if not total:
        return "no records to verify"
    parts = ", ".join(f"{n} {outcome}" for outcome, n in outcomes.items())
    return f"{total} record(s) checked: {parts}"


@records_group.command("list")
@click.option("--status", type=click.Choice(RECORD_STATUSES), default=None)
@click.option("--source", "source_id", default=None, help="Only this source's records.")
@click.option("--limit", type=click.IntRange(1, 500), default=100, show_default=True)
@click.option("--offset", type=click.IntRange(0), default=0, show_default=True)
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the page as one JSON object.")
@handle_errors
def list_command(
    status: str | None, source_id: str | None, limit: int, offset: int, db: str | None,
    as_json: bool,
) -> None:  # fmt: skip
    """List records, by id, filtered by status or source (N of M)."""
    from spanproof.services.browse import browse_records, check_record_filter

    with open_store(db) as (_, store):
        check_record_filter(store, source_id=source_id or "")
        page = browse_records(_record_store(store), status=status or "",
                              source_id=source_id or "", limit=limit, offset=offset)  # fmt: skip
    if as_json:
        echo_json(page_document([r.to_dict() for r in page.items], total=page.total,
                                offset=offset, limit=limit, lower_bound=page.capped))  # fmt: skip
        return
    console = Console()
    print_table(console, _records_table(page.items, "records"))
    command = command_line("records", "list", status=status, source=source_id, db=db)
    console.print(page_footer("records", shown=len(page.items), total=page.total, offset=offset,
                              limit=limit, command=command, lower_bound=page.capped),
                  markup=False, highlight=False, soft_wrap=True)  # fmt: skip


@records_group.command("show")
@click.argument("record_id")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the record and attempts as JSON.")
@handle_errors
def show_command(record_id: str, db: str | None, as_json: bool) -> None:
    """Show a record: fields, quotations and every attempt."""
    with open_store(db) as (_, store):
        records = _record_store(store)
        record = records.get_record(record_id)
        if record is None:
            raise InvalidInputError(f"unknown record id {record_id!r}")
        attempts = shown_attempts(records.attempts(record_id))
        source_status = source_status_of(store, record)
        payload = record_document(store, record)
    if as_json:
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    console = Console()
    console.print(f"[bold]{escape(record.id)}[/bold] · {escape(record.source_id)} "
                  f"v{record.version} · {_status(record.status)}")  # fmt: skip
    if source_status != "active":
        console.print(f"⚑ {source_note(record, source_status)}", markup=False, highlight=False)
    console.print(record.statement, markup=False, highlight=False)
    for name, value in record.fields.to_dict().items():
        console.print(f"  {name}: {value or '—'}", markup=False, highlight=False)
    for q in record.quotations:
        console.print(f"  “{q.text}” ({q.section_key} [{q.start}:{q.end}])", markup=False,
                      highlight=False)  # fmt: skip
    table = Table(title="attempts")
    for name in ("#", "stage", "outcome", "label"):
        table.add_column(name, no_wrap=True)
    for name in ("failed / notes", "model", "finished"):
        add_text_column(table, name)
    for a in attempts:
        label = a.verdict.label if a.verdict else "—"
        if a.verdict:
            failed = ", ".join(a.verdict.failed())
        elif a.outcome.startswith("review:"):  # a reviewer's decision keeps its reason there
            failed = "reason: " + "; ".join(a.defects)
        else:
            failed = "; ".join(a.defects)
        table.add_row(str(a.number), a.stage, escape(a.outcome), label, escape(failed or "—"),
                      escape(a.model_id), escape(a.finished_at))  # fmt: skip
    print_table(console, table)


@click.group("faults")
def faults_group() -> None:
    """Fault injection: the six named mutations over the verified records."""


@faults_group.command("run")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the catch table as JSON.")
@handle_errors
def faults_run_command(db: str | None, as_json: bool) -> None:
    """Run all six mutations on every verified record and print the catch table.

    Exits 1 when the table is not ok (its JSON says "ok": false): a mutation that applied was
    not caught at its expected check, or a mutation applied to no record at all (nothing shows
    that it would be caught).
    """
    with open_store(db) as (_, store):
        table = faults_run(store)
    if as_json:
        click.echo(json.dumps(table.to_dict(), ensure_ascii=False))
    else:
        out = Table(title=f"fault injection over {table.records} verified record(s)")
        for name in ("mutation", "caught by", "expected", "applied", "n/a", "caught", "ok"):
            out.add_column(name, overflow="fold")
        for row in table.rows:
            caught_by = ", ".join(f"{k} {v}" for k, v in sorted(row.caught_by.items()))
            out.add_row(row.mutation, caught_by or "—", row.expected, str(row.applied),
                        str(row.not_applicable), str(row.ok),
                        "[green]yes[/green]" if row.all_ok else "[red]no[/red]")  # fmt: skip
        console = Console()
        console.print(out)
        for row in table.rows:
            if row.applied == 0:
                console.print(f"{row.mutation}: applied to no record (not ok: nothing was tested)",
                              markup=False, highlight=False)  # fmt: skip
            elif row.ok < row.applied:
                missed = f"{row.applied - row.ok} of {row.applied} not caught at {row.expected}"
                console.print(f"{row.mutation}: {missed}", markup=False, highlight=False)
    if not table.all_ok:
        sys.exit(1)


@click.group("review")
def review_group() -> None:
    """The review queue: records the checks could not settle, and sole evidence of assessments."""


@review_group.command("list")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the items with passages as JSON.")
@handle_errors
def review_list_command(db: str | None, as_json: bool) -> None:
    """List what waits for a reviewer (the web page /review shows it beside the passages)."""
    with open_store(db) as (_, store):
        items = review_queue(store)
    if as_json:
        echo_json(page_document([i.to_dict() for i in items], total=len(items)))
        return
    table = _records_table([i.record for i in items], f"{len(items)} waiting for review")
    print_table(Console(), table)
    for item in items:
        if item.assessments:
            click.echo(f"{item.record.id}: only evidence of {', '.join(item.assessments)}")
        if item.source_status != "active":
            record = item.record
            click.echo(
                f"{record.id}: its source {record.source_id} is {item.source_status}: "
                "approved, it is still no eligible evidence"
            )


@review_group.command("decide")
@click.argument("record_id")
@click.option("--approve", is_flag=True, help="It becomes (stays) verified.")
@click.option("--reject", is_flag=True, help="It becomes rejected.")
@click.option("--reviewer", required=True, help="Who decides (kept on the record).")
@click.option("--reason", required=True, help="Why (kept on the record).")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def review_decide_command(
    record_id: str, approve: bool, reject: bool, reviewer: str, reason: str, db: str | None,
    as_json: bool,
) -> None:  # fmt: skip
    """Approve or reject a record in review, or give a verified record an expert's look."""
    if approve == reject:
        given = "both" if approve else "neither"
        raise InvalidInputError(f"give --approve or --reject, one of them ({given} given)")
    decision = "approve" if approve else "reject"
    with open_store(db) as (_, store):
        record = decide_review(store, record_id, reviewer=reviewer, decision=decision,
                               reason=reason)  # fmt: skip
        resume_walks(store)  # a rejection flags what is built on the record
        payload = record_document(store, record)
    if as_json:  # what POST /v1/review/{id} answers: the record with its attempts
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    click.echo(f"{record.id}: {record.status} ({decision} by {reviewer})")


COMMANDS: tuple[click.Command, ...] = (records_group, faults_group, review_group)
