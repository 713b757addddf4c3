"""``spanproof check ANSWERS.jsonl``: every answer of a test set against its own contexts, for CI.

Reads and validates the whole file before loading a model (a bad line exits 2 with its line
number), checks each answer with the configured decomposer and score model, and reports each
answer, a summary, and optionally JSON and a JUnit XML file with one test case per answer.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape

from spanproof.cli.errors import handle_errors
from spanproof.cli.jsonl import iter_lines, parse_line, read_text
from spanproof.cli.outcome import (
    EXIT_FAIL_ON,
    EXIT_UNAVAILABLE,
    FAIL_ON_OPTION,
    OUTCOME_STYLES,
)
from spanproof.cli.render import progress_bar
from spanproof.core.errors import InvalidInputError
from spanproof.core.models import SCORE_MODEL_NAMES
from spanproof.core.outcome import FailOn
from spanproof.services.answer_check import (
    WORST_DEFAULT,
    AnswerCase,
    AnswerResult,
    CheckSummary,
    check_answers,
    parse_case,
    summarise,
)

if TYPE_CHECKING:
    from spanproof.verifier import Verifier

#: At most this many bad lines are named in the error message.
_BAD_LINES_SHOWN = 10


def read_cases(path: Path) -> list[AnswerCase]:
    """Every answer of ``path``; bad lines raise one error naming each line (up to ten)."""
    text = read_text(path, "answers")
    cases: list[AnswerCase] = []
    errors: list[str] = []
    seen: dict[str, int] = {}
    for number, line in iter_lines(text):
        where = f"{path}:{number}"
        try:
            case = parse_case(parse_line(line, where), where, number)
        except InvalidInputError as exc:
            errors.append(str(exc))
            continue
        if case.id in seen:
            errors.append(f"{where}: id {case.id!r} repeats line {seen[case.id]}")
            continue
        seen[case.id] = number
        cases.append(case)
    if errors:
        shown = "\n".join(errors[:_BAD_LINES_SHOWN])
        more = len(errors) - _BAD_LINES_SHOWN
        raise InvalidInputError(shown + (f"\n… and {more} more bad lines" if more > 0 else ""))
    if not cases:
        raise InvalidInputError(
            f"answers file {path} has no answers: give one JSON object per line, "
            '{"id", "question", "answer", "contexts": [...]}'
        )
    return cases


def _check_junit_path(path: Path) -> None:
    """Refuse a ``--junit`` path that cannot be written, before any model loads."""
    if path.is_dir():
        raise InvalidInputError(f"--junit {path} is a folder: give the XML file's path")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InvalidInputError(f"cannot write --junit {path}: the folder {folder} {what}")


#: How many over-large answers a size note names.
_LARGE_NAMED = 3


def _note_sizes(cases: Sequence[AnswerCase]) -> None:
    """A note on stderr naming the answers that, with their contexts, are larger than the API
    takes in one request (``limits.max_chars``): each is checked all the same, but may take
    minutes (as ``spanproof verify`` notes for its one input)."""
    from spanproof.config import load_settings

    limit = load_settings().limits.max_chars
    large = [c.id for c in cases if len(c.answer) + sum(len(s.text) for s in c.contexts) > limit]
    if not large:
        return
    named = ", ".join(large[:_LARGE_NAMED]) + (
        f" and {len(large) - _LARGE_NAMED} more" if len(large) > _LARGE_NAMED else ""
    )
    answers = "answer" if len(large) == 1 else "answers"
    click.echo(
        f"note: {len(large)} {answers} ({named}) with their contexts hold more characters than "
        f"the API takes in one request ({limit:,}, SPANPROOF_LIMITS__MAX_CHARS); this may take "
        "minutes",
        err=True,
    )


#: Answers per task sent to a worker process.
_CHUNK = 16
#: The verifier of this worker process (built on its first task).
_WORKER: Verifier | None = None


def _check_chunk(task: tuple[str | None, list[AnswerCase]]) -> list[AnswerResult]:
    """A worker's task: check a chunk of answers with this process's verifier."""
    global _WORKER  # noqa: PLW0603 -- one verifier per worker process, built once
    score_model, chunk = task
    if _WORKER is None:
        from spanproof.cli.verify_commands import build_verifier

        _WORKER = build_verifier(score_model)
    v = _WORKER
    return list(
        check_answers(
            chunk, decomposer=v.decomposer, embedder=v.embedder, model=v.model, checker=v.checker
        )
    )


def _run(cases: Sequence[AnswerCase], score_model: str | None, workers: int) -> list[AnswerResult]:
    """Every answer's result, in input order, checked here or across ``workers`` processes.

    Answers are independent, so the results do not depend on how they are split.
    """
    err = Console(stderr=True)
    with progress_bar(err, transient=True) as progress:
        task = progress.add_task("checking", total=len(cases))
        if workers <= 1:
            return _check_chunk_here(cases, score_model, lambda: progress.advance(task))
        chunks = [list(cases[i : i + _CHUNK]) for i in range(0, len(cases), _CHUNK)]
        results: list[AnswerResult] = []
        context = multiprocessing.get_context("spawn")  # no model state or threads inherited
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            for done in pool.map(_check_chunk, [(score_model, c) for c in chunks]):
                results.extend(done)
                progress.advance(task, len(done))
        return results


def _check_chunk_here(
    cases: Sequence[AnswerCase], score_model: str | None, advance: Callable[[], None]
) -> list[AnswerResult]:
    from spanproof.cli.verify_commands import build_verifier

    v = build_verifier(score_model)
    return list(
        check_answers(
            cases,
            decomposer=v.decomposer,
            embedder=v.embedder,
            model=v.model,
            checker=v.checker,
            on_done=lambda _: advance(),
        )
    )


def _quote(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _share(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def _gate(fail_on: FailOn, min_supported: float | None) -> str:
    parts = [f"--fail-on {fail_on.value}"] if fail_on is not FailOn.NEVER else []
    if min_supported is not None:
        parts.append(f"--min-supported {min_supported:g}")
    return " ".join(parts) or "no gate"


def render(
    results: Sequence[AnswerResult],
    summary: CheckSummary,
    fail_on: FailOn,
    min_supported: float | None,
    console: Console,
) -> None:
    """One line per answer, then the summary and the worst offenders with their claims."""
    for r in results:
        style = OUTCOME_STYLES[r.outcome]
        failed = " [bold red]FAIL[/bold red]" if r.failures(fail_on, min_supported) else ""
        console.print(
            f"[{style}]{escape(r.headline())}[/{style}]  {escape(r.case.id)}{failed}",
            highlight=False,
        )
    console.print()
    console.print(
        f"[bold]{summary.answers} answer{'s' * (summary.answers != 1)}[/bold] · "
        f"{summary.claims} claim{'s' * (summary.claims != 1)} · "
        f"{_share(summary.supported_share)} of claims supported · "
        f"{summary.contradicted_answers} with a contradicted claim · "
        f"{summary.unavailable} not checked · "
        f"{summary.failed} failed ({_gate(fail_on, min_supported)})",
        highlight=False,
    )
    by_id = {r.case.id: r for r in results}
    if summary.worst:
        console.print("[bold]worst offenders[/bold]")
    for ident in summary.worst:
        r = by_id[ident]
        console.print(
            f"  {escape(ident)} · {_share(r.supported_share)} supported · {escape(r.headline())}",
            highlight=False,
        )
        for claim in r.not_supported():  # plain text: no markup to escape (a trailing "\\")
            console.print(
                f"    {claim.verdict.value}: {_quote(claim.text)}", highlight=False, markup=False
            )
            closest = r.closest_text(claim)
            if closest:
                ref = claim.best_span
                where = f" ({ref.id})" if ref is not None else ""
                console.print(
                    f"      closest{where}: “{_quote(closest)}”", highlight=False, markup=False
                )


def to_json(
    results: Sequence[AnswerResult],
    summary: CheckSummary,
    fail_on: FailOn,
    min_supported: float | None,
) -> dict[str, Any]:
    """The ``check --json`` document."""
    first = results[0].report if results else None
    return {
        "score_model": first.score_model if first is not None else "",
        "embed_model": next((r.report.embed_model for r in results if r.checked), ""),
        "fail_on": fail_on.value,
        "min_supported": min_supported,
        "summary": summary.to_dict(),
        "answers": [r.to_dict(fail_on, min_supported) for r in results],
    }


def junit_xml(
    results: Sequence[AnswerResult],
    fail_on: FailOn,
    min_supported: float | None,
    suite: str,
) -> ET.Element:
    """The JUnit ``<testsuites>`` element, one ``<testcase>`` per answer.

    ``<failure>`` when the answer fails the gate, ``<error>`` when it could not be checked under
    a gate, the headline always in ``<system-out>``. No timings, so the same answers give the
    same file.
    """
    root = ET.Element("testsuites", name="spanproof check")
    cases = ET.SubElement(root, "testsuite", name=suite)
    failures = errors = 0
    for r in results:
        case = ET.SubElement(cases, "testcase", classname=suite, name=r.case.id)
        reasons = r.failures(fail_on, min_supported)
        if reasons and not r.checked:
            errors += 1
            node = ET.SubElement(case, "error", message=reasons[0], type="unavailable")
            node.text = reasons[0]
        elif reasons:
            failures += 1
            node = ET.SubElement(case, "failure", message="; ".join(reasons), type=r.outcome.value)
            node.text = _claims_text(r)
        out = ET.SubElement(case, "system-out")
        out.text = f"{r.headline()} · {_share(r.supported_share)} of claims supported"
    for node in (root, cases):
        node.set("tests", str(len(results)))
        node.set("failures", str(failures))
        node.set("errors", str(errors))
    _xml_safe(root)
    ET.indent(root)
    return root


#: Characters XML 1.0 does not allow, which ElementTree writes as they are (a form feed or a
#: vertical tab of text extracted from a PDF): a JUnit reader then refuses the whole file.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_safe(root: ET.Element) -> None:
    """Replace the characters XML 1.0 does not allow with U+FFFD, in every text and attribute."""
    for node in root.iter():
        if node.text:
            node.text = _NOT_XML.sub("\ufffd", node.text)
        for key, value in node.attrib.items():
            node.set(key, _NOT_XML.sub("\ufffd", value))


def _claims_text(r: AnswerResult) -> str:
    lines = []
    for claim in r.not_supported():
        lines.append(f"{claim.verdict.value}: {claim.text}")
        closest = r.closest_text(claim)
        if closest and claim.best_span is not None:
            lines.append(f"  closest ({claim.best_span.id}): {_quote(closest, 300)}")
    return "\n".join(lines)


@click.command("check")
@click.argument("answers_path", metavar="ANSWERS.jsonl", type=click.Path(path_type=Path))
@click.option(
    "--score-model",
    type=click.Choice(SCORE_MODEL_NAMES),
    default=None,
    help="Score model (default: the configured one, v79).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option(
    "--junit",
    "junit_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also write a JUnit XML file: one test case per answer.",
)
@FAIL_ON_OPTION
@click.option(
    "--min-supported",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    help="Exit 1 when an answer has a smaller share of supported claims (e.g. 0.9).",
)
@click.option(
    "--worst",
    type=click.IntRange(min=0),
    default=WORST_DEFAULT,
    show_default=True,
    help="How many worst offenders the summary lists.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes checking answers (each loads the model; worth it on idle cores and large "
    "sets).",
)
@handle_errors
def check_command(
    answers_path: Path,
    score_model: str | None,
    as_json: bool,
    junit_path: Path | None,
    fail_on: str,
    min_supported: float | None,
    worst: int,
    workers: int,
) -> None:
    """Check a set of answers, each against its own contexts (RAG test sets, for CI).

    \b
    spanproof check ANSWERS.jsonl
    spanproof check ANSWERS.jsonl --json
    spanproof check ANSWERS.jsonl --fail-on contradicted --min-supported 0.9 --junit report.xml

    Lines are {"id", "question", "answer", "contexts": ["...", ...]} (RAGAS and DeepEval field
    names are read too). Exits 1 when an answer reaches --fail-on or has a supported share under
    --min-supported, 2 on bad input (before any model loads), 5 when an answer could not be
    checked.
    """
    level = FailOn(fail_on)
    if min_supported is not None and math.isnan(min_supported):  # click's range lets it through
        raise InvalidInputError("--min-supported must be a number from 0 to 1, got nan")
    cases = read_cases(answers_path)
    if junit_path is not None:
        _check_junit_path(junit_path)
    _note_sizes(cases)
    results = _run(cases, score_model, min(workers, len(cases)))
    summary = summarise(results, level, min_supported, worst)
    if as_json:
        click.echo(json.dumps(to_json(results, summary, level, min_supported), ensure_ascii=False))
    else:
        # One line an item however narrow the terminal, and in a CI log or file (no terminal:
        # rich would wrap at 80 columns).
        render(results, summary, level, min_supported, Console(soft_wrap=True))
    if junit_path is not None:
        suite = f"spanproof.check.{answers_path.stem}"
        try:
            tree = ET.ElementTree(junit_xml(results, level, min_supported, suite))
            tree.write(junit_path, encoding="utf-8", xml_declaration=True)
        except OSError as exc:
            raise InvalidInputError(f"cannot write {junit_path}: {exc.strerror}") from None
    if summary.unavailable:
        sys.exit(EXIT_UNAVAILABLE)
    if summary.failed:
        sys.exit(EXIT_FAIL_ON)
