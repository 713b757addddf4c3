"""``spanproof ingest | sources | source | search | erase``: the evidence store from the shell."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spanproof.cli.errors import handle_errors
from spanproof.cli.paging import command_line, echo_json, page_document, page_footer
from spanproof.cli.render import add_id_column, add_text_column, print_table, progress_bar
from spanproof.config import Settings, load_settings
from spanproof.core.errors import InvalidInputError, SourceError, SpanproofError
from spanproof.core.store import SOURCE_STATUSES, EvidenceStore, SearchFilter, postgres_url

if TYPE_CHECKING:
    from spanproof.core.documents import FetchedDocument
    from spanproof.services.ingestion import IngestOutcome

DB_OPTION = click.option(
    "--db",
    "db",
    default=None,
    help="Store: a SQLite file or a postgresql:// URL (default: spanproof.sqlite here, or "
    "SPANPROOF_STORE__URL).",
)


def _sqlite_file(settings: Settings, db: str | None) -> Path | None:
    """The SQLite file ``db`` (or the configured store) names; None for a URL or ``:memory:``."""
    target = db or settings.store.url
    if postgres_url(target) is not None:
        return None
    name = target.removeprefix("sqlite:///").removeprefix("sqlite://")
    if name in ("", ":memory:") or name.startswith("file:"):
        return None
    return Path(name)


def check_store(settings: Settings, db: str | None, *, create: bool = False) -> None:
    """Refuse a SQLite store path that is a folder, or (unless ``create``) names no file.

    Only commands that put things into a store (``ingest``, ``workflows ingest``, ``keys
    create``) may create one: anywhere else a mistyped ``--db`` would silently answer from a
    new, empty store. ``postgresql://`` URLs and ``:memory:`` are not checked here.
    """
    path = _sqlite_file(settings, db)
    if path is None:
        return
    given = "--db" if db else "the store (SPANPROOF_STORE__URL, default spanproof.sqlite)"
    if path.is_dir():
        raise InvalidInputError(f"{given} {path} is a folder, not a SQLite store file")
    if path.exists():
        if not _looks_like_sqlite(path):
            raise InvalidInputError(f"{given} {path} is not a SQLite store file")
        return
    if not create:
        raise InvalidInputError(
            f"no store at {path}: check {given}, or create one with "
            f"`spanproof ingest FILES --db {path}`"
        )
    if not path.parent.is_dir():
        raise InvalidInputError(f"cannot create the store {path}: {path.parent} is not a folder")


#: The first bytes of every SQLite database file.
_SQLITE_HEADER = b"SQLite format 3\x00"


def _looks_like_sqlite(path: Path) -> bool:
    """Whether ``path`` is empty (SQLite makes a database of it) or starts as a SQLite file."""
    try:
        with path.open("rb") as f:
            head = f.read(len(_SQLITE_HEADER))
    except OSError:
        return True  # unreadable: the store's own error says why
    return not head or head == _SQLITE_HEADER


#: The files SQLite may make beside a store file (write-ahead log, shared memory, rollback).
_SQLITE_SIBLINGS = ("", "-wal", "-shm", "-journal")


def _new_files(path: Path | None) -> list[Path]:
    """The store file and its SQLite siblings that do not exist yet (none if the store does)."""
    if path is None or path.exists():
        return []
    return [p for p in (Path(f"{path}{s}") for s in _SQLITE_SIBLINGS) if not p.exists()]


def _holds_nothing(store: EvidenceStore) -> bool:
    """Whether the store holds no row of any kind that ``stats`` counts (False if unreadable)."""
    try:
        return not any(store.stats().values())
    except SpanproofError:
        return False


def _remove(paths: list[Path]) -> None:
    for path in paths:
        path.unlink(missing_ok=True)


@contextmanager
def open_store(db: str | None, *, create: bool = False) -> Iterator[tuple[Settings, EvidenceStore]]:
    """The settings and the store; the store must exist unless ``create`` (see check_store).

    A SQLite store this call creates is removed again (with its ``-wal``/``-shm`` files) when the
    command fails before anything is stored in it, so a failed ``ingest`` never leaves a new,
    empty store behind. A store that existed before is never removed.
    """
    from spanproof.bootstrap import build_store

    settings = load_settings()
    check_store(settings, db, create=create)
    created = _new_files(_sqlite_file(settings, db)) if create else []
    try:
        store = build_store(settings, db)
    except BaseException:
        _remove(created)
        raise
    failed = False
    try:
        yield settings, store
    except BaseException:
        failed = True
        raise
    finally:
        discard = failed and bool(created) and _holds_nothing(store)
        store.close()
        if discard:
            _remove(created)


def store_files(settings: Settings, db: str | None) -> list[Path]:
    """The files and folder a SQLite store keeps (none for PostgreSQL or ``:memory:``)."""
    path = _sqlite_file(settings, db)
    if path is None:
        return []
    return [Path(f"{path}{suffix}") for suffix in (*_SQLITE_SIBLINGS, ".vectors")]


def _work(settings: Settings, targets: tuple[str, ...], db: str | None) -> list[Path | str]:
    """What ``targets`` name, in order, nothing fetched or read yet: each remote target
    (``pmc:…``, ``pmid:…``, ``doi:…``) as given, its id checked; each local file listed (a folder
    walk leaves out the store's own files).

    Raises:
        InvalidInputError: a missing path or a malformed id, before anything is fetched or stored.
    """
    from spanproof.bootstrap import is_remote, local_files, remote_source_id

    skip = store_files(settings, db)
    out: list[Path | str] = []
    for target in targets:
        if is_remote(target):
            remote_source_id(target)
            out.append(target)
        else:
            out.extend(local_files(Path(target), skip))
    return out


def read_targets(
    settings: Settings, targets: tuple[str, ...], db: str | None
) -> tuple[list[tuple[str, FetchedDocument]], list[dict[str, Any]]]:
    """What ``targets`` name, every local file read and every remote source fetched, and the
    targets that could not be read or fetched (each a :func:`failure_entry`; the rest are
    taken).

    Raises:
        InvalidInputError: a missing path or a malformed id, before anything is read.
    """
    failures: list[dict[str, Any]] = []
    documents = [
        document
        for item in _work(settings, targets, db)
        for document in _documents(settings, item, failures)
    ]
    return documents, failures


def failure_entry(target: str, exc: SpanproofError) -> dict[str, Any]:
    """A target that could not be ingested, as the summary lists it."""
    return {
        "target": target,
        "error": type(exc).__name__,
        "reason": str(exc),
        "retryable": bool(getattr(exc, "retryable", False)),
    }


def _documents(
    settings: Settings, item: Path | str, failures: list[dict[str, Any]]
) -> Iterator[tuple[str, FetchedDocument]]:
    """The documents of one item of :func:`_work`, a local file read and a remote source fetched
    only now; one that cannot be read or fetched is added to ``failures`` instead (after any of
    its documents already taken)."""
    from spanproof.bootstrap import fetch_remote, file_documents

    try:
        if isinstance(item, Path):
            yield from file_documents(item)
        else:
            yield fetch_remote(settings, item)
    except (SourceError, InvalidInputError) as exc:
        failures.append(failure_entry(str(item), exc))


def _ingest_work(
    settings: Settings, store: EvidenceStore, work: list[Path | str], err: Console
) -> tuple[list[IngestOutcome], list[dict[str, Any]]]:
    """Ingest each item of ``work`` on its own, in order: the outcomes, and the files that could
    not be read and remote sources that could not be fetched (each a :func:`failure_entry`; the
    rest of the batch goes on)."""
    from spanproof.bootstrap import build_parser
    from spanproof.services.ingestion import ingest

    parse = build_parser()
    outcomes: list[IngestOutcome] = []
    failures: list[dict[str, Any]] = []
    with progress_bar(err) as progress:
        total = len(work)
        task = progress.add_task("ingesting", total=total)
        for item in work:
            # read or fetched only now: a large folder is never in memory at once
            taken = 0
            for source_id, fetched in _documents(settings, item, failures):
                if taken:  # a corpus line or an article of a set beyond the file's first
                    total += 1
                    progress.update(task, total=total)
                outcomes.append(ingest(store, fetched, source_id, parse))
                progress.advance(task)
                taken += 1
            if not taken:
                progress.advance(task)
    return outcomes, failures


@click.command("ingest")
@click.argument("targets", nargs=-1, required=True)
@DB_OPTION
@click.option("--no-embed", is_flag=True, help="Store and index only; embed later.")
@click.option(
    "--no-sentences",
    is_flag=True,
    help="Embed chunks only, not each sentence (faster ingest; `ask` then embeds candidate "
    "sentences when it first meets them, or run `spanproof embed` later).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@handle_errors
def ingest_command(
    targets: tuple[str, ...], db: str | None, no_embed: bool, no_sentences: bool, as_json: bool
) -> None:
    """Ingest files, folders, a SciFact corpus JSONL, or pmc:PMC… / pmid:… / doi:… sources.

    Each source is ingested on its own: a file that cannot be read or a source that cannot be
    fetched is listed as failed, the rest are stored, and the command exits non-zero after its
    summary.
    """
    from spanproof.bootstrap import build_embedder
    from spanproof.services.impact import resume_walks
    from spanproof.services.ingestion import embed_pending

    err = Console(stderr=True)
    settings = load_settings()
    check_store(settings, db, create=True)
    work = _work(settings, targets, db)  # a missing path fails before the store is made
    with open_store(db, create=True) as (_, store):
        outcomes, failures = _ingest_work(settings, store, work, err)
        embedded = 0
        if not no_embed:
            embedder = build_embedder(settings)
            todo = store.stats().get("chunks", 0) - store.stats().get("embeddings", 0)
            with progress_bar(err) as progress:
                task = progress.add_task("embedding", total=max(todo, 0))
                embedded = embed_pending(
                    store,
                    embedder,
                    progress=lambda n: progress.advance(task, n),
                    sentences=not no_sentences,
                )
        walks = resume_walks(store)  # a retraction notice among them flags its dependents
        counts = Counter(o.status for o in outcomes)
        summary: dict[str, Any] = {
            "walks": [w.to_dict() for w in walks],
            "sources": len(outcomes),
            "new": counts.get("new", 0),
            "duplicate": counts.get("duplicate", 0),
            "reverted": counts.get("reverted", 0),
            "quarantined": counts.get("quarantined", 0),
            "failed": len(failures),
            "chunks_embedded": embedded,
            "reverts": [  # reason: why the version reverted to was quarantined, if it was
                {"source": o.source_id, "version": o.version, "reason": o.reason}
                for o in outcomes
                if o.status == "reverted"
            ],
            "quarantine": [
                {"source": o.source_id, "version": o.version, "reason": o.reason}
                for o in outcomes
                if o.status == "quarantined"
            ],
            "failures": failures,
        }
        _print_summary(summary, as_json)
        # still in the store's block: a run that stored nothing and fails leaves no new store
        fail_if_any_failed(summary, as_json)
        fail_if_all_quarantined(summary, as_json)


def _print_summary(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False))
        return
    # reverted documents are counted where there are some, so the counts add up to the sources
    reverted = f"{summary['reverted']} reverted, " if summary["reverted"] else ""
    click.echo(
        f"{summary['sources']} source{'s' * (summary['sources'] != 1)}: {summary['new']} new, "
        f"{summary['duplicate']} duplicate, {reverted}{summary['quarantined']} quarantined; "
        f"{summary['chunks_embedded']} chunks embedded{failed_note(summary['failed'])}"
    )
    for r in summary["reverts"][:20]:
        why = f", quarantined: {r['reason']}" if r["reason"] else ""
        click.echo(f"  reverted {r['source']} to the content of v{r['version']}{why}")
    echo_quarantine(summary["quarantine"])
    echo_failures(summary["failures"])


def echo_quarantine(quarantine: list[dict[str, Any]]) -> None:
    """Each quarantined document with its reason, one line each (the first 20)."""
    for q in quarantine[:20]:
        click.echo(f"  quarantined {q['source']} v{q['version']}: {q['reason']}")


def failed_note(n: int) -> str:
    """``; 2 targets failed`` for a summary line, or nothing."""
    return f"; {n} target{'s' * (n != 1)} failed" if n else ""


def echo_failures(failures: list[dict[str, Any]]) -> None:
    """Each target that could not be ingested with its reason, one line each (the first 20)."""
    for f in failures[:20]:
        click.echo(f"  failed {f['target']}: {f['reason']}")
    if len(failures) > 20:
        click.echo(f"  … and {len(failures) - 20} more (--json lists them all)")


def fail_if_any_failed(summary: dict[str, Any], as_json: bool) -> None:
    """Exit (after the summary) when a target could not be ingested: 4 (a runtime failure) when
    a source could not be fetched, 2 when every failure was bad input (a file that cannot be
    read, an id a service refuses)."""
    failures: list[dict[str, Any]] = summary["failures"]
    if not failures:
        return
    n = len(failures)
    what = "1 target failed and was" if n == 1 else f"{n} targets failed and were"
    where = "see the JSON's failures list" if as_json else "listed above"
    message = f"{what} not ingested ({where})"
    if any(f["error"] != InvalidInputError.__name__ for f in failures):
        raise SourceError(message, retryable=all(f["retryable"] for f in failures))
    raise InvalidInputError(message)


def fail_if_all_quarantined(summary: dict[str, Any], as_json: bool) -> None:
    """Exit 2 (after the summary) when documents were quarantined and none was stored: a
    document reverted to a quarantined version's bytes is quarantined again, not stored."""
    reverts = summary.get("reverts")
    if reverts is None:  # workflows ingest counts reverts without their reasons
        bad_reverts, stored_reverts = 0, int(summary.get("reverted", 0))
    else:
        bad_reverts = sum(1 for r in reverts if r["reason"])
        stored_reverts = len(reverts) - bad_reverts
    n = summary["quarantined"] + bad_reverts
    if not n or summary["new"] or summary["duplicate"] or stored_reverts:
        return
    what = "the document was" if n == 1 else f"all {n} documents were"
    where = "see the JSON's quarantine and reverts lists" if as_json else "listed above"
    raise InvalidInputError(f"nothing was ingested: {what} quarantined ({where})")


@click.command("sources")
@DB_OPTION
@click.option(
    "--status",
    default=None,
    type=click.Choice([*SOURCE_STATUSES, "quarantined"], case_sensitive=False),
    help="Only sources with this status (quarantined: the current version could not be parsed).",
)
@click.option("--limit", type=click.IntRange(1, 500), default=50, show_default=True)
@click.option("--offset", type=click.IntRange(0), default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the page as one JSON object.")
@handle_errors
def sources_command(
    db: str | None, status: str | None, limit: int, offset: int, as_json: bool
) -> None:
    """List sources, N of M.

    A source whose current version was quarantined (a corrupt or unreadable file) is listed as
    quarantined: nothing of it can be cited.
    """
    from spanproof.services.browse import browse_sources

    with open_store(db) as (_, store):
        page = browse_sources(store, status=status or "", limit=limit, offset=offset)
    rows = [r.to_dict() for r in page.items]
    footer = page_footer(
        "sources", shown=len(rows), total=page.total, offset=offset, limit=limit,
        command=command_line("sources", status=status, db=db), lower_bound=page.capped,
    )  # fmt: skip
    if as_json:
        echo_json(page_document(rows, total=page.total, offset=offset, limit=limit,
                                lower_bound=page.capped))  # fmt: skip
        return
    table = Table(title="sources")
    add_id_column(table, "id", (r["id"] for r in rows))
    table.add_column("status", no_wrap=True)
    table.add_column("versions", justify="right", no_wrap=True)
    table.add_column("connector", no_wrap=True)
    add_text_column(table, "title")
    for r in rows:
        status_text = r["status"]
        if r["status"] == "quarantined" and r["current_version"]:
            status_text += f" (v{r['current_version']['number']})"
        table.add_row(escape(r["id"]), status_text, str(r["versions"]), r["connector"],
                      escape(_cut(r["title"], 120)))  # fmt: skip
    console = Console()
    print_table(console, table)
    console.print(footer, markup=False, highlight=False, soft_wrap=True)


def _cut(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@click.command("source")
@click.argument("source_id")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def source_command(source_id: str, db: str | None, as_json: bool) -> None:
    """Show a source: metadata, status, versions and the sections of its current version."""
    from spanproof.services.browse import shown_status, source_document

    with open_store(db) as (_, store):
        source = store.get_source(source_id)
        if source is None:
            raise InvalidInputError(f"unknown source id {source_id!r} (see `spanproof sources`)")
        data = source_document(store, source)
        versions = store.versions(source_id)
        current = store.current_version(source_id)
        sections = store.sections(source_id, current.number) if current else []
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    console = Console()
    shown = shown_status(source, current, detail=True)
    console.print(f"[bold]{escape(source.id)}[/bold] — {escape(source.title)} ({escape(shown)})")
    for v in versions:
        mark = " (current)" if current is not None and v.number == current.number else ""
        console.print(
            f"  v{v.number}{mark} {v.state} {v.format} {v.sha256[:12]} {escape(v.reason)}"
        )
    for s in sections:
        # the key in brackets escaped whole: "[p1]" would otherwise be read as a markup tag
        console.print(f"  {escape(f'[{s.key}]')} {escape(s.title)}: {escape(s.text[:100])}")


@click.command("search")
@click.argument("query")
@DB_OPTION
@click.option("--mode", type=click.Choice(["hybrid", "keyword", "vector"]), default="hybrid")
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option("--source", "sources", multiple=True, help="Only these source ids.")
@click.option("--all-sources", is_flag=True, help="Include ineligible (retracted…) sources.")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def search_command(
    query: str,
    db: str | None,
    mode: str,
    limit: int,
    sources: tuple[str, ...],
    all_sources: bool,
    as_json: bool,
) -> None:
    """Search the store (keyword + semantic, fused by reciprocal rank)."""
    from spanproof.bootstrap import build_embedder
    from spanproof.services.search import hit_row
    from spanproof.services.search import search as run_search
    from spanproof.text.keywords import query_terms

    flt = SearchFilter(source_ids=sources or None, eligible_only=not all_sources)
    with open_store(db) as (settings, store):
        unknown = [s for s in sources if store.get_source(s) is None]
        if unknown:
            raise InvalidInputError(f"--source: no source {', '.join(map(repr, unknown))} here")
        embedder = build_embedder(settings) if mode != "keyword" else None
        hits = run_search(store, query, embedder=embedder, limit=limit, mode=mode, flt=flt)  # type: ignore[arg-type]
        unembedded = mode != "keyword" and not store.stats().get("embeddings", 0)
    if unembedded:
        how = "vector search finds nothing" if mode == "vector" else "only keywords were searched"
        click.echo(f"note: this store holds no embeddings, so {how}: run `spanproof embed`",
                   err=True)  # fmt: skip
    if mode != "vector" and not query_terms(query):
        # keyword search drops English stop words ("the", "and"), so such a query matches nothing
        click.echo(
            "note: the query has no keyword terms (only stop words or punctuation), so keyword "
            "search matches nothing" + ("; try --mode vector" if mode == "keyword" else ""),
            err=True,
        )
    rows: list[dict[str, Any]] = [hit_row(h) for h in hits]
    if as_json:
        # the ranking stops at --limit: when it is full, more may match (total is a lower bound)
        full = len(rows) == limit
        echo_json(page_document(rows, total=len(rows), limit=limit, lower_bound=full,
                                query=query, mode=mode))  # fmt: skip
        return
    for r in rows:
        click.echo(f"{r['rank']:>2}. {r['source']} v{r['version']} [{r['section']}] "
                   f"score {r['score']:.4f}")  # fmt: skip
        click.echo(f"    {_cut(r['text'], 160)}")
    more = " (the --limit: raise it for more)" if len(rows) == limit else ""
    click.echo(f"{len(rows)} result(s){more}" if rows else "no results")


@click.command("erase")
@click.argument("source_id")
@click.option("--version", "version", type=int, required=True)
@click.option("--section", "section_key", required=True)
@click.option("--start", type=int, required=True)
@click.option("--end", type=int, required=True)
@click.option("--reason", required=True, help="Why (for example a GDPR request reference).")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the erasure as JSON.")
@handle_errors
def erase_command(
    source_id: str,
    version: int,
    section_key: str,
    start: int,
    end: int,
    reason: str,
    db: str | None,
    as_json: bool,
) -> None:
    """Mask a character range of a section: no longer served, searchable or resolvable.

    Nor through the evidence records that quoted it: their copies are masked and they are
    quarantined, and what is built on a verified one is flagged. Nor through the traces that
    read it: their copies are masked, with digests that keep the hash chain checkable.
    """
    from spanproof.services.erasure import erase
    from spanproof.services.impact import resume_walks

    with open_store(db) as (_, store):
        outcome = erase(store, source_id, version, section_key, start, end, reason)
        resume_walks(store)  # a masked verified record flags what is built on it
    if as_json:
        echo_json(outcome.to_dict())
        return
    e = outcome.erasure
    click.echo(f"erased {source_id} v{version} [{section_key}] {e.start}..{e.end} (#{e.id})")
    if outcome.records:
        n = len(outcome.records)
        click.echo(f"{n} record{'s' * (n != 1)} quoted it: masked and quarantined "
                   f"({', '.join(outcome.records)})")  # fmt: skip
    if outcome.traces:
        n = len(outcome.traces)
        click.echo(f"{n} trace{'s' * (n != 1)} masked (the chain still checks; "
                   f"they no longer replay): {', '.join(outcome.traces)}")  # fmt: skip


def _rebuild_index(store: EvidenceStore, model_id: str) -> int:
    """Rebuild the backend's approximate vector index when it has one (SQLite + hnswlib)."""
    rebuild = getattr(store, "rebuild_vector_index", None)
    return int(rebuild(model_id)) if callable(rebuild) else 0


@click.command("reindex")
@DB_OPTION
@handle_errors
def reindex_command(db: str | None) -> None:
    """Build the optional approximate (HNSW) vector index of a SQLite store (opt-in: exact search
    is the default; see docs/store.md for when the index is worth it)."""
    from spanproof.bootstrap import build_embedder

    with open_store(db) as (settings, store):
        count = _rebuild_index(store, build_embedder(settings).model_id)
    if count:
        click.echo(f"indexed {count} vectors")
    else:
        click.echo("no index written (no vectors, not SQLite, or hnswlib not installed)")


COMMANDS = (
    ingest_command,
    sources_command,
    source_command,
    search_command,
    erase_command,
    reindex_command,
)
