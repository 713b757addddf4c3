"""Local files as fetched documents: one source per file, one per line of a SciFact corpus.

Source ids are stable across runs: ``file:<absolute path>`` for a file (a changed file becomes a
new version of the same source), ``file:<absolute path>#pmid:<PMID>`` for each article of a
PubMed XML file holding several (``#article-<n>`` without a PMID), ``scifact:<doc_id>`` for a
corpus line.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Collection, Iterator
from pathlib import Path

from spanproof.core.documents import FetchedDocument, ParseFailure
from spanproof.core.errors import InvalidInputError
from spanproof.ingest.parsers import pubmed
from spanproof.ingest.parsers._common import bom_encoding
from spanproof.ingest.parsers.detect import detect_format

MEDIA_TYPES = {
    ".xml": "application/xml",
    ".nxml": "application/jats+xml",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".html": "text/html",
    ".htm": "text/html",
    ".csv": "text/csv",
    ".tsv": "text/csv",
    ".jsonl": "application/x-scifact+json",
}
SCIFACT_MEDIA_TYPE = "application/x-scifact+json"
PUBMED_MEDIA_TYPE = "application/pubmed+xml"


def _wide_encoding(path: Path) -> str | None:
    """``utf-16`` or ``utf-32`` when the file opens with that byte-order mark, else None."""
    with path.open("rb") as fh:
        head = fh.read(4)
    found = bom_encoding(head)
    return found[0] if found is not None and found[0] != "utf-8" else None


def _raw_lines(path: Path) -> Iterator[bytes]:
    """The file's lines as UTF-8 bytes (with their line ends).

    A UTF-16/32 file (its byte-order mark says so) is decoded and each line re-encoded, so a
    line is one JSON document whatever the file's encoding; bytes that do not decode become
    U+FFFD and fail as that line's JSON. Anything else is read as is, line by line.
    """
    wide = _wide_encoding(path)
    if wide is None:
        with path.open("rb") as fh:
            yield from fh
        return
    with path.open(encoding=wide, errors="replace", newline="") as fh:
        for line in fh:
            yield line.encode("utf-8")


def _within(path: Path, folders: Collection[Path]) -> bool:
    """Whether ``path`` is one of ``folders`` or lies under one."""
    return any(p in folders for p in (path, *path.parents))


#: How many lines are read, at most, for the first one that is JSON (a corpus's first line may
#: be blank or broken: that line is quarantined, the rest of the corpus still ingested).
_SNIFF_LINES = 100


def _is_scifact_corpus(path: Path) -> bool:
    """Whether ``path`` is a ``.jsonl`` file whose first JSON line is a SciFact document."""
    if path.suffix.lower() != ".jsonl":
        return False
    for number, line in enumerate(_raw_lines(path), start=1):
        if number > _SNIFF_LINES:
            return False
        raw = line.removeprefix(codecs.BOM_UTF8) if number == 1 else line
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            continue
        return isinstance(obj, dict) and "doc_id" in obj and "abstract" in obj
    return False


def _scifact_lines(path: Path) -> Iterator[tuple[str, FetchedDocument]]:
    for number, line in enumerate(_raw_lines(path), start=1):
        raw = line.rstrip(b"\r\n")
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        if not raw.strip():
            continue
        try:
            doc_id = str(json.loads(raw)["doc_id"])
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, KeyError, TypeError):
            doc_id = f"{path.name}:line-{number}"
        yield (
            f"scifact:{doc_id}",
            FetchedDocument("file", {"scifact": doc_id}, SCIFACT_MEDIA_TYPE, raw),
        )


def iter_path(path: Path, skip: Collection[Path] = ()) -> Iterator[tuple[str, FetchedDocument]]:
    """``(source id, fetched document)`` for a file, a SciFact corpus, or every file of a folder
    (recursively, sorted, hidden files skipped): :func:`file_documents` of each of
    :func:`list_files`.

    Raises:
        InvalidInputError: as :func:`list_files` (at once), or a file cannot be read.
    """
    for file in list_files(path, skip):
        yield from file_documents(file)


def list_files(path: Path, skip: Collection[Path] = ()) -> list[Path]:
    """The files ``path`` names: itself, or every file of a folder (recursively, sorted, hidden
    files skipped), without reading any of them.

    ``skip``: absolute paths of files and folders a folder walk leaves out (the store's own
    files, so that a store kept inside the folder is never ingested into itself); naming one of
    them as ``path`` is refused.

    Raises:
        InvalidInputError: ``path`` does not exist, or is one of ``skip``.
    """
    if not path.exists():
        raise InvalidInputError(f"no such file or folder: {path}")
    skipped = {p.resolve() for p in skip}
    if _within(path.resolve(), skipped):
        raise InvalidInputError(f"{path} is the evidence store's own file, not a document")
    if not path.is_dir():
        return [path]
    return [
        child
        for child in sorted(p for p in path.rglob("*") if p.is_file())
        if not any(part.startswith(".") for part in child.relative_to(path).parts)
        and not _within(child.resolve(), skipped)
    ]


def file_documents(path: Path) -> Iterator[tuple[str, FetchedDocument]]:
    """``(source id, fetched document)`` for one file: one per line of a SciFact corpus, one per
    article of a PubMed set, else the file; read only as the documents are taken.

    Raises:
        InvalidInputError: the file cannot be read.
    """
    try:
        yield from _file_documents(path)
    except OSError as exc:  # unreadable: permissions, an I/O error, a file gone meanwhile
        raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _file_documents(path: Path) -> Iterator[tuple[str, FetchedDocument]]:
    if _is_scifact_corpus(path):
        yield from _scifact_lines(path)
        return
    media_type = MEDIA_TYPES.get(path.suffix.lower(), "application/octet-stream")
    connector = "csv" if media_type == "text/csv" else "file"
    resolved = path.resolve()
    raw = resolved.read_bytes()
    articles = _pubmed_articles(raw) if media_type == "application/xml" else []
    if len(articles) > 1:
        for key, piece in articles:
            yield f"file:{resolved}#{key}", FetchedDocument("file", {}, PUBMED_MEDIA_TYPE, piece)
        return
    yield f"file:{resolved}", FetchedDocument(connector, {}, media_type, raw, title="")


_PMID = re.compile(rb"<PMID\b[^>]*>\s*(\d+)\s*</PMID>")


def _pubmed_articles(raw: bytes) -> list[tuple[str, bytes]]:
    """A PubMed set's articles as ``(key, one-article set)``, keyed ``pmid:<PMID>`` (or
    ``article-<n>`` without a PMID, or when the set repeats one); [] when ``raw`` is not a
    readable PubMed set (the whole file is then parsed, or quarantined, as one document)."""
    try:
        if detect_format(raw, "application/xml") != "pubmed":
            return []
        pieces = pubmed.split(raw)
    except ParseFailure:
        return []
    out: list[tuple[str, bytes]] = []
    keys: set[str] = set()
    for number, piece in enumerate(pieces, start=1):
        found = _PMID.search(piece)
        key = f"pmid:{found.group(1).decode()}" if found else ""
        if not key or key in keys:
            key = f"article-{number}"
        keys.add(key)
        out.append((key, piece))
    return out
