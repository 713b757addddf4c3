"""PubMed through NCBI's E-utilities: ``esearch`` for PMIDs, ``efetch`` for PubMed XML records.

NCBI asks every caller to send ``tool`` and ``email`` and to stay under 3 requests per second,
or 10 with an API key (sent as ``api_key=``); those are the defaults here. ``esearch`` is asked
for JSON (``retmode=json``), ``efetch`` for XML (``retmode=xml``), which the PubMed parser reads.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import httpx

from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError
from spanproof.ingest.clients._polite import ConnectorClient, Params, PoliteClient

__all__ = ["EUTILS_URL", "PubMedClient", "normalize_pmid"]

EUTILS_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"
MEDIA_TYPE = "application/pubmed+xml"
RATE_WITHOUT_KEY = 3.0
RATE_WITH_KEY = 10.0
_MAX_RESULTS = 10_000  # esearch's retmax ceiling
_RECORD = re.compile(rb"<Pubmed(?:Book)?Article[\s>]")


def normalize_pmid(pmid: str | int) -> str:
    """A PMID as its digits (``pmid:`` prefix allowed, leading zeros dropped).

    Raises:
        InvalidInputError: it is not a positive integer.
    """
    text = str(pmid).strip()
    if text.lower().startswith("pmid:"):
        text = text[5:].strip()
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        raise InvalidInputError(f"{pmid!r} is not a PMID; expected digits such as 31452104")
    return str(int(text))


class PubMedClient(ConnectorClient):
    """PubMed records by PMID, and PMIDs by search.

    Args:
        base_url: the E-utilities root.
        email: a contact address for NCBI (``email=`` and the ``User-Agent``).
        tool: the tool name NCBI sees (``tool=``).
        api_key: an NCBI API key (``api_key=``); raises the default rate to 10/s. Never appears
            in messages.
        rate_per_s: requests per second; defaults to NCBI's limit (3, or 10 with a key).
        timeout, max_attempts, backoff, transport, sleep, clock: as :class:`PoliteClient`.
    """

    def __init__(
        self,
        *,
        base_url: str = EUTILS_URL,
        email: str | None = None,
        tool: str = "spanproof",
        api_key: str | None = None,
        rate_per_s: float | None = None,
        timeout: float = 30.0,
        max_attempts: int = 4,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate_per_s is None:
            rate_per_s = RATE_WITH_KEY if api_key else RATE_WITHOUT_KEY
        self._tool = tool
        self._http = PoliteClient(
            base_url,
            label="PubMed",
            mailto=email,
            mailto_param="email",
            api_key=api_key or None,
            api_key_param="api_key",
            rate_per_s=rate_per_s,
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff,
            transport=transport,
            sleep=sleep,
            clock=clock,
        )

    def search(self, term: str, max_results: int = 20) -> list[str]:
        """PMIDs matching ``term`` (PubMed query syntax), best match first.

        Raises:
            InvalidInputError: an empty term, or ``max_results`` outside 1..10000.
            SourceError: the search failed or NCBI reported an error.
        """
        if not term.strip():
            raise InvalidInputError("the PubMed search term is empty")
        if not 1 <= max_results <= _MAX_RESULTS:
            raise InvalidInputError(f"max_results must be 1..{_MAX_RESULTS}, got {max_results}")
        what = f"search {term!r}"
        params: Params = {
            "db": "pubmed",
            "term": term,
            "retmode": "json",
            "retmax": max_results,
            "tool": self._tool,
        }
        reply = self._http.get_json("/esearch.fcgi", params, what=what)
        if isinstance(reply.get("error"), str):
            raise self._http.malformed(what, f"NCBI reported: {reply['error']}")
        result = reply.get("esearchresult")
        if not isinstance(result, dict):
            raise self._http.malformed(what, "no 'esearchresult' object")
        if isinstance(result.get("ERROR"), str):
            raise self._http.malformed(what, f"NCBI reported: {result['ERROR']}")
        ids = result.get("idlist")
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise self._http.malformed(what, "'esearchresult.idlist' is not a list of ids")
        return list(ids)

    def fetch(self, pmid: str | int) -> FetchedDocument:
        """The PubMed XML record of ``pmid``.

        Raises:
            InvalidInputError: ``pmid`` is not a PMID.
            SourceError: the fetch failed, or PubMed has no record for it (not retryable).
        """
        pmid = normalize_pmid(pmid)
        params = {"db": "pubmed", "id": pmid, "retmode": "xml", "tool": self._tool}
        raw = self._http.get(
            "/efetch.fcgi", params, what=f"record PMID {pmid}", accept="application/xml"
        )
        # An unknown PMID answers 200 with an empty <PubmedArticleSet/>, or an <ERROR> element.
        if not _RECORD.search(raw):
            raise self._http.not_found(f"record for PMID {pmid}")
        return FetchedDocument(
            connector="pubmed",
            external_ids={"pmid": pmid},
            media_type=MEDIA_TYPE,
            raw=raw,
        )
