"""PubMed E-utilities ``efetch`` XML (``PubmedArticleSet/PubmedArticle``) → documents.

Each article gives one section, ``abstract``: its ``AbstractText`` parts in order, a labelled
part written ``LABEL: text`` (``BACKGROUND: …``); ``CopyrightInformation`` goes to metadata, not
text. Ids: ``pmid`` (``MedlineCitation/PMID``), ``doi`` and ``pmcid`` (``PubmedData/ArticleIdList``,
else ``ELocationID``). Metadata: journal, journal abbreviation, year, authors, language,
publication types, and ``corrections`` (``CommentsCorrections`` of retraction, erratum and
expression-of-concern types, so callers can set a source's status).

A set holds many articles, but one version of a source is one article: :func:`parse` accepts
exactly one, :func:`parse_all` reads every article (one result or failure each), and
:func:`split` cuts a set into one-article documents to store separately. A citation with no
abstract (letters, editorials) fails with ``no_text``. ``PubmedBookArticle`` is not supported.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers._common import Sections, labelled
from spanproof.ingest.parsers._xml import child, children, inline, local, parse_xml, plain

FORMAT = "pubmed"
_CORRECTION_TYPES = frozenset(
    {
        "RetractionIn",
        "RetractionOf",
        "ErratumIn",
        "ErratumFor",
        "ExpressionOfConcernIn",
        "ExpressionOfConcernFor",
        "CorrectedandRepublishedIn",
        "CorrectedandRepublishedFrom",
        "RepublishedIn",
        "RepublishedFrom",
    }
)
_SET_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<PubmedArticleSet>'
_YEAR = re.compile(r"\b(1[89]\d\d|2\d\d\d)\b")


def parse(raw: bytes) -> ParsedDocument:
    """Parse a set holding exactly one ``PubmedArticle`` (or a bare ``PubmedArticle``).

    Raises:
        ParseFailure: the XML reasons of ``_xml.parse_xml``; ``malformed`` when the set holds no
            article or more than one (use :func:`parse_all` or :func:`split`); ``no_text``.
    """
    articles = _articles(parse_xml(raw))
    if len(articles) != 1:
        raise ParseFailure(
            "malformed",
            f"the set holds {len(articles)} articles; parse expects one "
            "(use pubmed.parse_all or pubmed.split)",
        )
    return _article(articles[0])


def parse_all(raw: bytes) -> list[ParsedDocument | ParseFailure]:
    """Every article of the set, in order: a document, or the failure of that one article.

    Raises:
        ParseFailure: when the set as a whole cannot be read (XML reasons, wrong root element).
    """
    results: list[ParsedDocument | ParseFailure] = []
    for el in _articles(parse_xml(raw)):
        try:
            results.append(_article(el))
        except ParseFailure as failure:
            results.append(failure)
    return results


def split(raw: bytes) -> list[bytes]:
    """One standalone UTF-8 ``PubmedArticleSet`` document per article, in order.

    The output is deterministic for the same input, so a content hash of each piece is stable.
    """
    pieces: list[bytes] = []
    for el in _articles(parse_xml(raw)):
        tail, el.tail = el.tail, None
        body = ET.tostring(el, encoding="unicode")
        el.tail = tail
        pieces.append(f"{_SET_OPEN}{body}</PubmedArticleSet>\n".encode())
    return pieces


def _articles(root: ET.Element) -> list[ET.Element]:
    name = local(root.tag)
    if name in ("PubmedArticle", "PubmedBookArticle"):
        return [root]
    if name != "PubmedArticleSet":
        raise ParseFailure(
            "malformed", f"expected a <PubmedArticleSet> root element, found <{name}>"
        )
    return [k for k in root if local(k.tag) in ("PubmedArticle", "PubmedBookArticle")]


def _article(el: ET.Element) -> ParsedDocument:
    if local(el.tag) == "PubmedBookArticle":
        raise ParseFailure("malformed", "PubmedBookArticle (NCBI Bookshelf) is not supported")
    citation = child(el, "MedlineCitation")
    article = child(citation, "Article")
    if citation is None or article is None:
        raise ParseFailure("malformed", "PubmedArticle without MedlineCitation/Article")
    abstract = child(article, "Abstract")
    parts = [labelled(p.get("Label") or "", inline(p)) for p in children(abstract, "AbstractText")]
    sections = Sections()
    sections.add("abstract", "Abstract", " ".join(parts))
    title = inline(child(article, "ArticleTitle")) or inline(child(article, "VernacularTitle"))
    ids = _ids(el, citation, article)
    try:
        return sections.document(
            title=title, format=FORMAT, external_ids=ids, metadata=_metadata(citation, article)
        )
    except ParseFailure as failure:  # name the article: a set may hold many
        raise ParseFailure(failure.reason, f"PMID {ids.get('pmid', '?')}: no abstract") from None


def _ids(el: ET.Element, citation: ET.Element, article: ET.Element) -> dict[str, str]:
    ids: dict[str, str] = {}
    pmid = plain(child(citation, "PMID"))
    if pmid.isdigit():
        ids["pmid"] = pmid
    for aid in children(child(el, "PubmedData", "ArticleIdList"), "ArticleId"):
        kind, value = (aid.get("IdType") or "").lower(), plain(aid)
        if kind == "doi" and value:
            ids.setdefault("doi", value)
        elif kind == "pmc" and value:
            ids.setdefault("pmcid", value if value.upper().startswith("PMC") else f"PMC{value}")
    for loc in children(article, "ELocationID"):
        if (loc.get("EIdType") or "").lower() == "doi" and plain(loc):
            ids.setdefault("doi", plain(loc))
    return ids


def _metadata(citation: ET.Element, article: ET.Element) -> dict[str, Any]:
    journal = child(article, "Journal")
    facts: dict[str, Any] = {
        "journal": plain(child(journal, "Title")),
        "journal_abbreviation": plain(child(journal, "ISOAbbreviation")),
        "language": plain(child(article, "Language")),
        "copyright": plain(child(article, "Abstract", "CopyrightInformation")),
    }
    year = _year(article)
    if year is not None:
        facts["year"] = year
    authors = [_author(a) for a in children(child(article, "AuthorList"), "Author")]
    facts["authors"] = [a for a in authors if a]
    types = children(child(article, "PublicationTypeList"), "PublicationType")
    facts["publication_types"] = [plain(t) for t in types]
    notices = children(child(citation, "CommentsCorrectionsList"), "CommentsCorrections")
    facts["corrections"] = [
        {
            "type": c.get("RefType", ""),
            "pmid": plain(child(c, "PMID")),
            "source": plain(child(c, "RefSource")),
        }
        for c in notices
        if c.get("RefType") in _CORRECTION_TYPES
    ]
    return {k: v for k, v in facts.items() if v not in ("", [])}


def _year(article: ET.Element) -> int | None:
    date = child(article, "Journal", "JournalIssue", "PubDate")
    for text in (
        plain(child(date, "Year")),
        plain(child(date, "MedlineDate")),
        plain(child(article, "ArticleDate", "Year")),
    ):
        match = _YEAR.search(text)
        if match:
            return int(match.group(1))
    return None


def _author(author: ET.Element) -> str:
    collective = plain(child(author, "CollectiveName"))
    if collective:
        return collective
    return f"{plain(child(author, 'ForeName'))} {plain(child(author, 'LastName'))}".strip()
