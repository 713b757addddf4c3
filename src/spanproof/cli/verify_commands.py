"""``spanproof verify``: claims or a draft against evidence, one at a time or a batch."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from spanproof.cli.errors import error_object, handle_errors
from spanproof.cli.jsonl import (
    first_seen,
    iter_lines,
    parse_line,
    read_jsonl,
    read_text,
    require_fields,
)
from spanproof.cli.outcome import EXIT_FAIL_ON, FAIL_ON_OPTION, exit_status
from spanproof.core.errors import InvalidInputError, SpanproofError
from spanproof.core.models import SCORE_MODEL_NAMES
from spanproof.core.outcome import FailOn, fails

if TYPE_CHECKING:
    from spanproof.core.models import Outcome, Report
    from spanproof.verifier import Verifier


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=False)


def _load_evidence(path: Path) -> list[dict[str, Any]]:
    items = read_jsonl(path, "evidence")
    seen: dict[str, int] = {}
    for n, item in enumerate(items, start=1):
        require_fields(item, ("id", "text"), f"{path}: item {n}")
        ident = str(item["id"])
        if (first := first_seen(seen, ident, n)) is not None:
            raise InvalidInputError(
                f"{path}: item {n}: duplicate evidence id {ident!r} (first as item {first})"
            )
    if not items:
        raise InvalidInputError(f"evidence file {path} has no items: give at least one span")
    from spanproof.verifier import to_evidence

    try:  # the library's own checks ('id', 'erased', 'truth_class', text), before any model
        to_evidence(items)
    except InvalidInputError as exc:
        raise InvalidInputError(f"{path}: {exc}") from None
    return items


def _load_claims(path: Path) -> list[dict[str, Any]]:
    """Every claim of a claims file; a blank text, a repeated id or no claim at all is bad
    input, named with its line."""
    text = read_text(path, "claims")
    items = []
    seen: dict[str, int] = {}
    for n, line in iter_lines(text):
        obj = parse_line(line, f"{path}:{n}")
        require_fields(obj, ("id", "text"), f"{path}:{n}")
        if not obj["text"].strip():
            raise InvalidInputError(f"{path}:{n}: the claim's text is blank")
        if not isinstance(obj["id"], str | int) or isinstance(obj["id"], bool):
            raise InvalidInputError(f"{path}:{n}: 'id' must be a string or an integer")
        if isinstance(obj["id"], str) and not obj["id"].strip():
            raise InvalidInputError(f"{path}:{n}: the claim's 'id' is blank")
        ident = str(obj["id"])
        if (first := first_seen(seen, ident, n)) is not None:
            raise InvalidInputError(
                f"{path}:{n}: duplicate claim id {ident!r} (first on line {first})"
            )
        items.append(obj)
    if not items:
        raise InvalidInputError(f"claims file {path} has no claims: give at least one")
    return items


@click.command("verify")
@click.option(
    "--claims",
    "claims_path",
    type=click.Path(path_type=Path),
    help="JSONL of atomic claims {id, text}.",
)
@click.option(
    "--draft", "draft_path", type=click.Path(path_type=Path), help="A draft text file to decompose."
)
@click.option(
    "--evidence",
    "evidence_path",
    type=click.Path(path_type=Path),
    help="JSONL of evidence {id, text}.",
)
@click.option(
    "--batch",
    "batch_path",
    type=click.Path(path_type=Path),
    help="JSONL items {id, claims, evidence}; streams one result line per item.",
)
@click.option(
    "--question",
    default=None,
    help="With --draft: the question the draft answers. A draft that opens with a bare "
    "'Yes.' or 'No.' to a yes/no question has it checked as the question's proposition "
    "or its negation.",
)
@click.option(
    "--score-model",
    type=click.Choice(SCORE_MODEL_NAMES),
    default=None,
    help="Score model (default: v79).",
)
@click.option(
    "--policy",
    type=click.Choice(["flag", "redact"]),
    default=None,
    help="Delivery policy for drafts: flag marks each claim not supported inline, redact "
    "removes them (default: the configured policy, flag).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object (or one per batch line)."
)
@FAIL_ON_OPTION
@handle_errors
def verify(
    claims_path: Path | None,
    draft_path: Path | None,
    evidence_path: Path | None,
    batch_path: Path | None,
    question: str | None,
    score_model: str | None,
    policy: str | None,
    as_json: bool,
    fail_on: str,
) -> None:
    """Verify claims or a draft against evidence.

    \b
    spanproof verify --claims CLAIMS.jsonl --evidence EVIDENCE.jsonl --json
    spanproof verify --draft DRAFT.txt --evidence EVIDENCE.jsonl [--policy redact] [--json]
    spanproof verify --draft ANSWER.txt --evidence EVIDENCE.jsonl --question "Did X lower Y?"
    spanproof verify --batch ITEMS.jsonl --json
    spanproof verify --draft DRAFT.txt --evidence EVIDENCE.jsonl --fail-on contradicted  # CI

    Exits 1 when the outcome reaches --fail-on (with --batch: any item's), 5 when
    verification was unavailable, 2 on bad input (with --batch: after every line, when any
    line was bad or the file holds none).
    """
    modes = [p for p in (claims_path, draft_path, batch_path) if p is not None]
    if len(modes) != 1:
        raise InvalidInputError("give exactly one of --claims, --draft or --batch")
    if batch_path is None and evidence_path is None:
        raise InvalidInputError("--evidence EVIDENCE.jsonl is required with --claims or --draft")
    if batch_path is not None and evidence_path is not None:
        raise InvalidInputError("--batch items carry their own evidence; drop --evidence")
    if question is not None and draft_path is None:
        raise InvalidInputError("--question goes with --draft (the question the draft answers)")
    # Read and validate every input before loading the model.
    if batch_path is not None:
        batch_text = read_text(batch_path, "batch")
        if next(iter_lines(batch_text), None) is None:
            raise InvalidInputError(f"batch file {batch_path} has no items: give at least one")
        verifier = build_verifier(score_model)
        failed, bad = _run_batch(verifier, batch_path, batch_text, FailOn(fail_on))
        if bad:
            where = ", ".join(str(n) for n in bad[:10]) + (" …" if len(bad) > 10 else "")
            raise InvalidInputError(
                f"{len(bad)} batch line{'s' if len(bad) != 1 else ''} of {batch_path} "
                f"{'were' if len(bad) != 1 else 'was'} bad input and not checked "
                f"(line {where}); their error objects are in the output"
            )
        if failed:
            sys.exit(EXIT_FAIL_ON)
        return
    assert evidence_path is not None  # checked above; narrows the type
    # what is to be verified is read first: a wrong --draft or --claims is the first thing said
    if claims_path is not None:
        claims = _load_claims(claims_path)
        evidence = _load_evidence(evidence_path)
        _note_size(sum(len(c["text"]) for c in claims), evidence)
        verifier = build_verifier(score_model)
        report = verifier.check_claims(claims, evidence)
    else:
        assert draft_path is not None
        draft = read_text(draft_path, "draft")
        if not draft.strip():
            raise InvalidInputError(f"draft file {draft_path} is empty: give the text to verify")
        evidence = _load_evidence(evidence_path)
        _note_size(len(draft), evidence)
        verifier = build_verifier(score_model)
        report = verifier.verify(
            draft, evidence, policy=policy or verifier_policy(), question=question or ""
        )
    _emit(report, as_json, {str(e["id"]): e["text"] for e in evidence}, FailOn(fail_on))


def _note_size(text_chars: int, evidence: list[dict[str, Any]]) -> None:
    """A note on stderr when the input is larger than the API would take in one request
    (``limits.max_chars``): the CLI goes on, but the run may take minutes."""
    from spanproof.config import load_settings

    total = text_chars + sum(len(e["text"]) for e in evidence)
    limit = load_settings().limits.max_chars
    if total > limit:
        click.echo(
            f"note: {total:,} characters to verify, more than the API takes in one request "
            f"({limit:,}, SPANPROOF_LIMITS__MAX_CHARS); this may take minutes",
            err=True,
        )


def verifier_policy() -> str:
    from spanproof.config import load_settings

    return load_settings().verify.policy


def build_verifier(score_model: str | None) -> Verifier:
    """A verifier from the settings, with ``score_model`` (None: the configured one)."""
    from spanproof.bootstrap import build_decomposer, build_embedder, build_score_model
    from spanproof.config import load_settings
    from spanproof.verifier import Verifier

    settings = load_settings()
    return Verifier(
        embedder=build_embedder(settings),
        decomposer=build_decomposer(settings),
        score_model=build_score_model(settings, score_model),
    )


def _emit(report: Report, as_json: bool, evidence: dict[str, str], fail_on: FailOn) -> None:
    if as_json:
        click.echo(_dump(report.to_dict()))
    else:
        from rich.console import Console

        from spanproof.cli.render import render_report

        render_report(report, Console(), evidence)
    status = exit_status(report.verification, report.outcome, fail_on)
    if status:
        sys.exit(status)


def _run_batch(
    verifier: Verifier, path: Path, text: str, fail_on: FailOn
) -> tuple[bool, list[int]]:
    """One output line per input line; a bad line yields an error object, never a crash.

    A progress bar goes to stderr when stderr is a terminal (stdout stays pure JSON Lines).
    Returns whether any item's outcome reached ``fail_on``, and the numbers of the bad lines.
    """
    from rich.console import Console
    from rich.progress import Progress

    lines = list(iter_lines(text))
    err = Console(stderr=True)
    failed = False
    bad: list[int] = []
    seen: dict[str, int] = {}
    with Progress(console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task("verifying", total=len(lines))
        for number, line in lines:
            outcome = _batch_line(verifier, path, number, line, seen)
            if outcome is None:
                bad.append(number)
            failed = failed or (outcome is not None and fails(outcome, fail_on))
            progress.advance(task)
    return failed, bad


def _batch_line(
    verifier: Verifier, path: Path, number: int, line: str, seen: dict[str, int]
) -> Outcome | None:
    """Verify one batch line and print its result; returns its outcome (None for a bad line:
    also one whose id an earlier line has, ``seen`` mapping each id to its first line)."""
    from spanproof.verifier import to_claims, to_evidence

    ident: Any = None
    outcome: Outcome | None = None
    where = f"{path}:{number}"
    try:
        obj = parse_line(line, where)
        ident = obj.get("id")
        require_fields(obj, ("id", "claims", "evidence"), where)
        if (first := first_seen(seen, json.dumps(ident), number)) is not None:
            raise InvalidInputError(f"{where}: duplicate item id {ident!r} (first on line {first})")
        if not isinstance(obj["claims"], list) or not isinstance(obj["evidence"], list):
            raise InvalidInputError(f"{where}: 'claims' and 'evidence' must be lists")
        if not obj["evidence"]:
            raise InvalidInputError(f"{where}: 'evidence' is empty")
        claims = to_claims(obj["claims"])
        evidence = to_evidence(obj["evidence"])
        report = verifier.check_claims(claims, evidence)
        outcome = report.outcome
        result: dict[str, Any] = {"id": ident, "line": number, **report.to_dict()}
    except SpanproofError as exc:
        result = {"id": ident, "line": number, "error": error_object(exc)}
    click.echo(_dump(result))
    sys.stdout.flush()
    return outcome


COMMANDS = (verify,)
