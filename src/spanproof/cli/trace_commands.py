"""``spanproof trace show | verify``: read stored traces, check the hash chain, replay the scoring.

``verify`` exits with :data:`EXIT_TRACE` (6) on any problem: a broken chain (a changed, removed or
reordered trace), a stored trace that cannot be read, or a trace whose replayed scoring differs
from its stored verdicts.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spanproof.cli.errors import handle_errors
from spanproof.cli.outcome import outcome_line
from spanproof.cli.render import (
    STYLES,
    add_id_column,
    add_text_column,
    print_table,
)
from spanproof.cli.store_commands import DB_OPTION, open_store
from spanproof.core.checker import EntailmentChecker
from spanproof.core.errors import ConfigurationError, InvalidInputError, SpanproofError, StoreError
from spanproof.core.models import Verdict
from spanproof.core.outcome import edit_reasons, trace_outcome
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import (
    ChainProblem,
    Trace,
    TraceStore,
    check_chain,
    erased_unchecked,
)
from spanproof.services.replay import ReplayResult, replay

#: Exit status of ``spanproof trace verify`` when the chain or a replay fails.
EXIT_TRACE = 6
#: Problem lines print whole, one per line (easy to grep), never wrapped or highlighted.
_PLAIN: dict[str, Any] = {"markup": False, "highlight": False, "soft_wrap": True}


@click.group("trace")
def trace_group() -> None:
    """Stored traces: show one, or verify the hash chain and replay the scoring."""


def _trace_store(store: EvidenceStore) -> TraceStore:
    if not isinstance(store, TraceStore):
        raise ConfigurationError(f"{type(store).__name__} keeps no traces")
    return store


def _quote(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _verdict(value: Any) -> str:
    try:
        style = STYLES[Verdict(value)]
    except ValueError:
        return escape(str(value))
    return f"[{style}]{escape(str(value))}[/{style}]"


def _source_ref(entry: dict[str, Any]) -> str:
    if "source_id" not in entry:
        return "—"
    ref = f"{entry['source_id']} v{entry.get('version', '?')}"
    if "section_key" in entry:
        ref += f" §{entry['section_key']}"
    if "start" in entry and "end" in entry:
        ref += f" [{entry['start']}:{entry['end']}]"
    return ref


@trace_group.command("show")
@click.argument("trace_id")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the stored trace JSON.")
@handle_errors
def show_command(trace_id: str, db: str | None, as_json: bool) -> None:
    """Show a trace: verification, models, plan and every claim with its best span."""
    with open_store(db) as (_, store):
        trace = _trace_store(store).get_trace(trace_id)
    if trace is None:
        raise InvalidInputError(f"unknown trace id {trace_id!r}")
    if as_json:
        click.echo(trace.to_json())
        return
    _render(trace, Console())


def _render(trace: Trace, console: Console) -> None:
    console.print(
        f"[bold]{escape(trace.id)}[/bold] · seq {trace.seq} · {escape(trace.kind)} · "
        f"{escape(trace.created_at)}"
    )
    outcome, counts = trace_outcome(trace)
    if outcome is not None:
        line = outcome_line(outcome, counts, trace.verification)
        console.print(f"outcome: {line}", highlight=False)
    status = "green" if trace.verification == "verified" else "red"
    console.print(f"verification: [{status}]{escape(trace.verification)}[/{status}]")
    models = " · ".join(f"{k} {_short(v)}" for k, v in sorted(trace.models.items()) if v)
    console.print(f"models: {escape(models) or '—'}")
    if trace.usage:
        console.print("usage: " + ", ".join(f"{k} {v}" for k, v in sorted(trace.usage.items())))
    console.print(f"plan {trace.plan_hash[:16]} · prompt {trace.prompt_hash[:16] or '—'}")
    plan = Table(title="plan", show_lines=False)
    plan.add_column("marker", no_wrap=True)
    plan.add_column("source", overflow="fold", ratio=1)
    plan.add_column("text", overflow="fold", ratio=3)
    texts: dict[str, str] = {}
    for entry in trace.plan:
        texts[str(entry.get("id", ""))] = str(entry.get("text", ""))
        marker = str(entry.get("marker", entry.get("id", "")))
        if not entry.get("truth_class", True):
            marker += " (hint)"
        plan.add_row(
            escape(marker), escape(_source_ref(entry)), escape(_quote(str(entry.get("text", ""))))
        )
    console.print(plan)
    claims = Table(title="claims", show_lines=True)
    claims.add_column("claim", overflow="fold", ratio=2)
    claims.add_column("verdict", no_wrap=True)
    claims.add_column("score", justify="right", no_wrap=True)
    claims.add_column("best span", overflow="fold", ratio=3)
    claims.add_column("gates", no_wrap=True)
    for claim in trace.claims:
        claims.add_row(
            escape(f"{claim.get('id')}: {claim.get('text')}"),
            _verdict(claim.get("verdict")),
            _score(claim.get("score")),
            _best_span(claim.get("best_span"), texts),
            ",\n".join(
                [g for g in ("numeric", "entity", "polarity") if claim.get(f"{g}_gated")]
                + edit_reasons(str(e.get("judgement", "")) for e in claim.get("edits") or ())
            )
            or "—",
        )
    console.print(claims)
    console.print("[bold]draft:[/bold]")
    console.print(trace.draft, markup=False, highlight=False)
    if trace.delivered is not None and trace.delivered != trace.draft:
        console.print("[bold]delivered:[/bold]")
        console.print(trace.delivered, markup=False, highlight=False)
    console.print(f"hash {trace.hash} · previous {trace.prev_hash}", highlight=False)


def _short(value: Any) -> str:
    """Long hashes shortened to 16 characters; everything else as is."""
    text = str(value)
    return (
        text[:16] + "…" if len(text) == 64 and all(c in "0123456789abcdef" for c in text) else text
    )


def _score(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, int | float) else escape(str(value))


def _best_span(ref: Any, texts: dict[str, str]) -> str:
    if not isinstance(ref, dict):
        return "—"
    span_id, start, end = str(ref.get("id")), ref.get("start"), ref.get("end")
    out = escape(f"{span_id}[{start}:{end}]")
    text = texts.get(span_id)
    if text is not None and isinstance(start, int) and isinstance(end, int):
        out += f"\n“{escape(_quote(text[start:end]))}”"
    return out


@trace_group.command("verify")
@click.argument("trace_id", required=False)
@click.option("--all", "all_traces", is_flag=True, help="Replay every trace, not one.")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@handle_errors
def verify_command(trace_id: str | None, all_traces: bool, db: str | None, as_json: bool) -> None:
    """Check the whole hash chain and replay the scoring of one trace (or of --all).

    Exits with status 6 on any problem: a changed, removed or reordered trace, or a trace whose
    replayed scoring differs from its stored verdicts.
    """
    if (trace_id is None) == (not all_traces):
        raise InvalidInputError("give one TRACE_ID or --all")
    with open_store(db) as (_, store):
        try:
            chain = _trace_store(store).chain()
        except StoreError as exc:
            if exc.retryable:
                raise
            message = f"the trace chain cannot be read: {exc}"
            _fail(message, {"ok": False, "error": message} if as_json else None)
    problems = check_chain(chain)
    targets = chain if all_traces else [t for t in chain if t.id == trace_id]
    if not all_traces and not targets:
        raise InvalidInputError(f"unknown trace id {trace_id!r}")
    checkers = _ReplayCheckers()
    results = [(trace, replay(trace, checkers.for_trace(trace))) for trace in targets]
    failed = [r for _, r in results if not r.ok]
    report = _report(chain, problems, results)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
    else:
        _render_verify(chain, problems, results, Console())
    if problems or failed:
        parts = []
        if problems:
            parts.append(f"{len(problems)} chain problem{'s' * (len(problems) != 1)}")
        if failed:
            n = len(failed)
            parts.append(f"{n} trace does not replay" if n == 1 else f"{n} traces do not replay")
        _fail(f"trace verification failed: {', '.join(parts)}")


def _fail(message: str, json_report: dict[str, Any] | None = None) -> NoReturn:
    """Print ``message`` (and the JSON report, if any) and exit with :data:`EXIT_TRACE`."""
    if json_report is not None:
        click.echo(json.dumps(json_report, ensure_ascii=False))
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_TRACE)


def _report(
    chain: list[Trace], problems: list[ChainProblem], results: list[tuple[Trace, ReplayResult]]
) -> dict[str, Any]:
    return {
        "ok": not problems and all(r.ok for _, r in results),
        "traces": len(chain),
        "chain_problems": [
            {"seq": p.seq, "trace_id": p.trace_id, "problem": p.problem} for p in problems
        ],
        "content_unchecked": [t.id for t in erased_unchecked(chain)],
        "replayed": [
            {
                "id": t.id,
                "seq": t.seq,
                "kind": t.kind,
                "ok": r.ok,
                "claims_checked": r.claims_checked,
                "differences": r.differences,
                **({"skipped": r.skipped} if r.skipped else {}),
            }
            for t, r in results
        ],
    }


def _render_verify(
    chain: list[Trace],
    problems: list[ChainProblem],
    results: list[tuple[Trace, ReplayResult]],
    console: Console,
) -> None:
    by_seq: dict[int, list[str]] = {}
    for p in problems:
        by_seq.setdefault(p.seq, []).append(p.problem)
    table = Table(title=f"trace chain: {len(chain)} trace{'s' * (len(chain) != 1)}")
    table.add_column("seq", justify="right", no_wrap=True)
    add_id_column(table, "trace", (trace.id for trace, _ in results))
    table.add_column("kind", no_wrap=True)
    add_text_column(table, "chain", ratio=None)
    add_text_column(table, "replay", ratio=None)
    for trace, result in results:
        link = "; ".join(by_seq.get(trace.seq, [])) or "ok"
        claims = f"{result.claims_checked} claim{'s' * (result.claims_checked != 1)}"
        replayed = f"ok ({claims})" if result.ok else "DIFFERS"
        colour = "green" if result.ok else "red"
        if result.skipped:
            replayed, colour = result.skipped, "yellow"
        table.add_row(
            str(trace.seq),
            escape(trace.id),
            escape(trace.kind),
            f"[red]{escape(link)}[/red]" if link != "ok" else "[green]ok[/green]",
            f"[{colour}]{escape(replayed)}[/{colour}]",
        )
    print_table(console, table)
    for p in problems:
        console.print(f"chain: seq {p.seq} {p.trace_id}: {p.problem}", **_PLAIN)
    for trace, result in results:
        for difference in result.differences:
            console.print(f"replay: {trace.id}: {difference}", **_PLAIN)
    for trace in erased_unchecked(chain):
        console.print(
            f"chain: seq {trace.seq} {trace.id}: content masked by an erasure after sealing"
            " (sealed before erasures kept digests): its links are checked, its content is not",
            **_PLAIN,
        )
    if not problems and all(r.ok for _, r in results):
        skipped = sum(1 for _, r in results if r.skipped)
        n_replayed = len(results) - skipped
        line = f"chain of {len(chain)} trace{'s' * (len(chain) != 1)} intact; {n_replayed} replayed"
        if n_replayed:
            line += ", each reproduces its stored verdicts"
        if skipped:
            they = "it" if skipped == 1 else "they"
            line += f"; {skipped} not replayed (an erasure masked text {they} read)"
        console.print(line, soft_wrap=True)


COMMANDS = (trace_group,)


class _ReplayCheckers:
    """The local checker a trace's score model read, each loaded once: the cross-encoder for
    v3, the local judge for v5 (an LLM judge's v5 trace replays from its stored judgements),
    and for v71 the judge with the bundled sentence parser (the parser reads the roles again
    whichever judge the trace recorded)."""

    def __init__(self) -> None:
        self._loaded: dict[str, EntailmentChecker] = {}

    def for_trace(self, trace: Trace) -> EntailmentChecker | None:
        from spanproof.services.replay import LLM_JUDGE_PREFIX
        from spanproof.verify.scoring import score_model

        recorded = str(trace.models.get("checker_model", ""))
        if not recorded:
            return None
        try:
            model = score_model(str(trace.models.get("score_model", "")))
        except SpanproofError:
            return None  # replay reports the unknown model
        if recorded.startswith(LLM_JUDGE_PREFIX) and not model.role_bindings:
            return None
        kind = "judge" if model.reads_judge else "cross-encoder"
        if kind not in self._loaded:
            from spanproof.bootstrap import build_checker, build_judge

            self._loaded[kind] = build_judge() if kind == "judge" else build_checker()
        if not model.role_bindings:
            return self._loaded[kind]
        if "judge and parser" not in self._loaded:
            from spanproof.bootstrap import build_sentence_parser
            from spanproof.core.parser import ReadingChecker

            parser = build_sentence_parser()
            self._loaded["judge and parser"] = ReadingChecker(self._loaded[kind], parser)
        return self._loaded["judge and parser"]
