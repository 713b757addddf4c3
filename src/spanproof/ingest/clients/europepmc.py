"""Europe PMC's REST API: search, article metadata, and open-access full text as JATS XML.

* ``GET /search?query=...&format=json&resultType=core&pageSize=N`` answers
  ``{"hitCount": ..., "resultList": {"result": [{"id", "source", "pmid", "pmcid", "doi",
  "title", ...}]}}``; a record has only the ids it is known by.
* ``GET /{PMCID}/fullTextXML`` answers the article as JATS XML (404 when there is no open-access
  full text); its bytes are returned unchanged, for the JATS parser to read or quarantine.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx

from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError
from spanproof.ingest.clients._polite import ConnectorClient, Params, PoliteClient
from spanproof.ingest.clients.crossref import normalize_doi
from spanproof.ingest.clients.pubmed import normalize_pmid

__all__ = ["EUROPE_PMC_URL", "EuropePmcClient", "normalize_pmcid"]

EUROPE_PMC_URL = "https://www.ebi.ac.uk/europepmc/webservices/rest"
MEDIA_TYPE = "application/jats+xml"
_MAX_PAGE_SIZE = 1000  # the service's own ceiling
_PMCID = re.compile(r"(?:PMC)?(\d+)", re.IGNORECASE)


def normalize_pmcid(pmcid: str) -> str:
    """``PMC`` followed by the digits (``pmc123``, ``123`` and ``pmcid:PMC123`` all work).

    Raises:
        InvalidInputError: it is not a PMCID.
    """
    text = pmcid.strip()
    if text.lower().startswith("pmcid:"):
        text = text[6:].strip()
    match = _PMCID.fullmatch(text) if text.isascii() else None
    if match is None or int(match.group(1)) == 0:
        raise InvalidInputError(f"{pmcid!r} is not a PMCID; expected PMC followed by digits")
    return f"PMC{match.group(1)}"


class EuropePmcClient(ConnectorClient):
    """Europe PMC: search, metadata by id, and full text by PMCID.

    Args:
        base_url: the REST root (``.../europepmc/webservices/rest``).
        mailto: a contact address, sent in the ``User-Agent`` and as ``email=``.
        rate_per_s: requests per second (Europe PMC publishes no limit; 5 is modest).
        timeout, max_attempts, backoff, transport, sleep, clock: as :class:`PoliteClient`.
    """

    def __init__(
        self,
        *,
        base_url: str = EUROPE_PMC_URL,
        mailto: str | None = None,
        rate_per_s: float = 5.0,
        timeout: float = 30.0,
        max_attempts: int = 4,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._http = PoliteClient(
            base_url,
            label="Europe PMC",
            mailto=mailto,
            mailto_param="email",
            rate_per_s=rate_per_s,
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff,
            transport=transport,
            sleep=sleep,
            clock=clock,
        )

    def search(self, query: str, page_size: int = 25) -> list[dict[str, Any]]:
        """The first ``page_size`` records matching ``query`` (Europe PMC query syntax).

        Each record is Europe PMC's ``core`` result as it came: ``pmid``, ``pmcid``, ``doi`` and
        ``title`` where known, with journal, authors, abstract and flags.

        Raises:
            InvalidInputError: an empty query, or ``page_size`` outside 1..1000.
            SourceError: the search failed or the reply is not a result list.
        """
        if not query.strip():
            raise InvalidInputError("the Europe PMC query is empty")
        if not 1 <= page_size <= _MAX_PAGE_SIZE:
            raise InvalidInputError(f"page_size must be 1..{_MAX_PAGE_SIZE}, got {page_size}")
        return self._search(query, page_size, what=f"search {query!r}")

    def fetch_metadata(
        self, *, pmcid: str | None = None, pmid: str | None = None, doi: str | None = None
    ) -> dict[str, Any]:
        """The ``core`` record of one article, named by exactly one of its ids.

        Raises:
            InvalidInputError: not exactly one id, or an id that is malformed.
            SourceError: the search failed, or Europe PMC has no such record (not retryable).
        """
        given = [(k, v) for k, v in (("pmcid", pmcid), ("pmid", pmid), ("doi", doi)) if v]
        if len(given) != 1:
            raise InvalidInputError("fetch_metadata needs exactly one of pmcid, pmid or doi")
        kind, value = given[0]
        if kind == "pmcid":
            ident = normalize_pmcid(value)
            query = f"PMCID:{ident}"
        elif kind == "pmid":
            ident = normalize_pmid(value)
            query = f"EXT_ID:{ident} AND SRC:MED"
        else:
            ident = normalize_doi(value)
            query = f'DOI:"{ident}"'
        what = f"record for {kind} {ident}"
        results = self._search(query, 1, what=what)
        if not results:
            raise self._http.not_found(what)
        return results[0]

    def fetch_fulltext(self, pmcid: str) -> FetchedDocument:
        """The open-access full text of ``pmcid`` as JATS XML bytes.

        Raises:
            InvalidInputError: ``pmcid`` is not a PMCID.
            SourceError: the fetch failed (404, not retryable, when there is no full text).
        """
        ident = normalize_pmcid(pmcid)
        raw = self._http.get(
            f"/{ident}/fullTextXML", what=f"full text of {ident}", accept="application/xml"
        )
        return FetchedDocument(
            connector="europepmc",
            external_ids={"pmcid": ident},
            media_type=MEDIA_TYPE,
            raw=raw,
        )

    def _search(self, query: str, page_size: int, *, what: str) -> list[dict[str, Any]]:
        params: Params = {
            "query": query,
            "format": "json",
            "resultType": "core",
            "pageSize": page_size,
        }
        reply = self._http.get_json("/search", params, what=what)
        result_list = reply.get("resultList")
        results = result_list.get("result") if isinstance(result_list, dict) else None
        if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
            raise self._http.malformed(what, "'resultList.result' is not a list of records")
        return results
