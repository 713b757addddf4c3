"""JATS XML (PMC and Europe PMC full text) → a :class:`ParsedDocument`.

Section keys, in document order:

* ``abstract`` (the abstract with no ``abstract-type``; others ``abstract-<type>``). A structured
  abstract is one section whose parts read ``Heading: text`` in order.
* ``s0`` for body paragraphs outside any ``<sec>``; ``s1``, ``s1.2``… for nested body sections
  (title = label and title; text = the section's own paragraphs, lists, quotes and inline tables,
  not its subsections').
* ``table-<n>`` and ``fig-<n>`` for table wraps and figures (and their groups), numbered in
  reading order, emitted right after the section that holds them; title = the label, text =
  caption, table rows (``cell | cell``, rows joined by ``"; "``) and table footnotes.
* ``ack``, ``app<n>`` (appendices, nested as ``app1.1``) and ``b<n>`` (other back-matter sections).

Ids come from ``article-meta/article-id`` (``doi``, ``pmid``, ``pmcid`` from ``pmc``/``pmcid``);
metadata holds journal, year, article type, authors, keywords and other ids. Not read: the
reference list, footnote groups, ``trans-abstract`` and ``sub-article`` (peer-review material).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers._common import Sections, labelled
from spanproof.ingest.parsers._xml import (
    FLOATS,
    InlineText,
    child,
    children,
    inline,
    local,
    parse_xml,
    plain,
)

FORMAT = "jats"
_KEY_SAFE = re.compile(r"[^a-z0-9]+")
_PMCID = re.compile(r"(?:PMC)?(\d+)", re.IGNORECASE)


class JatsParser:
    """The JATS parser as an object, for callers that hold parsers by role."""

    format = FORMAT

    def parse(self, raw: bytes) -> ParsedDocument:
        """See :func:`parse`."""
        return parse(raw)


def parse(raw: bytes) -> ParsedDocument:
    """Parse one JATS ``<article>`` (also accepted inside a one-article ``<pmc-articleset>``).

    Raises:
        ParseFailure: ``too_large``, ``invalid_utf8``, ``forbidden_xml``, ``corrupt_xml``,
            ``malformed`` (not a JATS article) or ``no_text``.
    """
    article = _article(parse_xml(raw))
    meta = child(article, "front", "article-meta")
    builder = _Builder()
    for abstract in children(meta, "abstract"):
        builder.abstract(abstract)
    body = child(article, "body")
    if body is not None:
        builder.container(body, "s0", "", child_prefix="s")
    back = child(article, "back")
    if back is not None:
        builder.back(back)
    for group in children(article, "floats-group"):
        for kid in group:
            if local(kid.tag) in FLOATS:
                builder.float(kid)
    ids, other_ids = _ids(meta)
    title = inline(child(meta, "title-group", "article-title"))
    return builder.sections.document(
        title=title,
        format=FORMAT,
        external_ids=ids,
        metadata=_metadata(article, meta, other_ids),
    )


def _article(root: ET.Element) -> ET.Element:
    name = local(root.tag)
    if name == "article":
        return root
    if name == "pmc-articleset":
        articles = children(root, "article")
        if len(articles) == 1:
            return articles[0]
        raise ParseFailure(
            "malformed", f"<pmc-articleset> holds {len(articles)} articles; expected one"
        )
    raise ParseFailure("malformed", f"expected a JATS <article> root element, found <{name}>")


class _Builder:
    def __init__(self) -> None:
        self.sections = Sections()
        self._counts = {"table": 0, "fig": 0}

    def abstract(self, el: ET.Element) -> None:
        kind = _KEY_SAFE.sub("-", (el.get("abstract-type") or "").lower()).strip("-")
        key = f"abstract-{kind}" if kind else "abstract"
        floats: list[ET.Element] = []
        title = inline(child(el, "title")) or "Abstract"
        self.sections.add(key, title, self._flat(el, floats))
        self._floats(floats)

    def _flat(self, el: ET.Element, floats: list[ET.Element]) -> str:
        """Text of ``el`` with nested sections inline as ``Heading: text`` (abstracts)."""
        out = InlineText(floats.append)
        out.add(el.text)
        for kid in el:
            name = local(kid.tag)
            if name == "sec":
                out.add(f" {labelled(_heading(kid), self._flat(kid, floats))} ")
            elif name not in ("title", "label"):
                out.element(kid)
            out.add(kid.tail)
        return out.text()

    def container(self, el: ET.Element, key: str, title: str, *, child_prefix: str) -> None:
        """One section for ``el``'s own content, then its floats, then its subsections."""
        floats: list[ET.Element] = []
        subsections: list[ET.Element] = []
        out = InlineText(floats.append)
        out.add(el.text)
        for kid in el:
            name = local(kid.tag)
            if name == "sec":
                subsections.append(kid)
            elif name not in ("title", "label", "ref-list", "fn-group"):
                out.element(kid)
            out.add(kid.tail)
        self.sections.add(key, title, out.text())
        self._floats(floats)
        for i, sub in enumerate(subsections, 1):
            sub_key = f"{child_prefix}{i}"
            self.container(sub, sub_key, _heading(sub), child_prefix=f"{sub_key}.")

    def back(self, back: ET.Element) -> None:
        apps = secs = 0
        for kid in back:
            name = local(kid.tag)
            if name == "ack":
                self.container(kid, "ack", _heading(kid) or "Acknowledgements", child_prefix="ack.")
            elif name in ("app-group", "app"):
                for app in [kid] if name == "app" else children(kid, "app"):
                    apps += 1
                    key = f"app{apps}"
                    self.container(app, key, _heading(app), child_prefix=f"{key}.")
            elif name == "sec":
                secs += 1
                self.container(kid, f"b{secs}", _heading(kid), child_prefix=f"b{secs}.")

    def float(self, el: ET.Element) -> None:
        """A figure or table (or a group of them) as its own section."""
        kind = "table" if local(el.tag).startswith("table") else "fig"
        self._counts[kind] += 1
        out = InlineText()  # floats inside a float are read in place
        for kid in el:
            if local(kid.tag) != "label":
                out.element(kid)
            out.add(kid.tail)
        self.sections.add(f"{kind}-{self._counts[kind]}", inline(child(el, "label")), out.text())

    def _floats(self, floats: list[ET.Element]) -> None:
        for el in floats:
            self.float(el)


def _heading(sec: ET.Element) -> str:
    label = inline(child(sec, "label")).strip()
    title = inline(child(sec, "title")).strip()
    return f"{label} {title}".strip()


def _ids(meta: ET.Element | None) -> tuple[dict[str, str], dict[str, str]]:
    """``doi``/``pmid``/``pmcid`` from ``article-id``, and the other id types as found."""
    ids: dict[str, str] = {}
    other: dict[str, str] = {}
    for el in children(meta, "article-id"):
        kind, value = (el.get("pub-id-type") or "").lower(), plain(el)
        if not value:
            continue
        if kind == "doi":
            ids.setdefault("doi", value)
        elif kind == "pmid" and value.isdigit():
            ids.setdefault("pmid", value)
        elif kind in ("pmc", "pmcid") and (m := _PMCID.fullmatch(value)):
            ids.setdefault("pmcid", f"PMC{m.group(1)}")
        elif kind:
            other.setdefault(kind, value)
    return ids, other


def _metadata(
    article: ET.Element, meta: ET.Element | None, other_ids: dict[str, str]
) -> dict[str, Any]:
    journal_meta = child(article, "front", "journal-meta")
    facts: dict[str, Any] = {
        "article_type": article.get("article-type") or "",
        "journal": plain(child(journal_meta, "journal-title-group", "journal-title"))
        or plain(child(journal_meta, "journal-title")),
        "other_ids": other_ids,
    }
    years = [plain(child(d, "year")) for d in children(meta, "pub-date")]
    year = next((y for y in years if re.fullmatch(r"\d{4}", y)), "")
    if year:
        facts["year"] = int(year)
    authors = [
        _contributor(c)
        for g in children(meta, "contrib-group")
        for c in children(g, "contrib")
        if (c.get("contrib-type") or "author") == "author"
    ]
    facts["authors"] = [a for a in authors if a]
    keywords = [plain(k) for g in children(meta, "kwd-group") for k in children(g, "kwd")]
    facts["keywords"] = [k for k in keywords if k]
    return {k: v for k, v in facts.items() if v not in ("", [], {})}


def _contributor(contrib: ET.Element) -> str:
    name = child(contrib, "name")
    if name is not None:
        return f"{plain(child(name, 'given-names'))} {plain(child(name, 'surname'))}".strip()
    return plain(child(contrib, "collab")) or plain(child(contrib, "string-name"))
