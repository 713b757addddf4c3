"""Crossref works by DOI, with the update relations that set a source's status.

``GET /works/{doi}`` answers ``{"status": "ok", "message-type": "work", "message": {...}}``. Two
fields of the message say how the work stands (Crossmark updates):

* ``updated-by``: notices that update **this** work, e.g.
  ``{"DOI": "10.5555/notice", "type": "retraction", "source": "publisher",
  "updated": {"date-parts": [[2024, 3, 1]]}}``;
* ``update-to``: the works **this** record updates, when it is itself a notice (a retraction
  notice, a correction). A notice is an active source in its own right, unless it updates its
  own DOI (an in-place correction), which then counts as an update to this work.

Update types set the status (the most severe wins): ``retraction``, ``partial_retraction`` and
``removal`` make it ``retracted`` (a partial retraction may remove exactly the passage cited, so
it is treated as a retraction); ``withdrawal`` makes it ``withdrawn``; ``correction``,
``corrigendum`` and ``erratum`` make it ``corrected``. Every other type
(``expression_of_concern``, ``addendum``, ``clarification``, ``new_version``...) leaves it
``active`` and is kept as a notice.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import quote

import httpx

from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError
from spanproof.ingest.clients._polite import ConnectorClient, PoliteClient

__all__ = ["CROSSREF_URL", "CrossrefClient", "normalize_doi", "work_status"]

CROSSREF_URL = "https://api.crossref.org"
MEDIA_TYPE = "application/vnd.crossref+json"

_DOI = re.compile(r"10\.\d{4,9}/\S+")
_DOI_PREFIXES = ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/")
_STATUS_BY_TYPE = {
    "retraction": "retracted",
    "partial_retraction": "retracted",
    "removal": "retracted",
    "withdrawal": "withdrawn",
    "correction": "corrected",
    "corrigendum": "corrected",
    "erratum": "corrected",
}
_SEVERITY = {"active": 0, "corrected": 1, "withdrawn": 2, "retracted": 3}


def normalize_doi(doi: str) -> str:
    """``doi`` without a ``https://doi.org/`` or ``doi:`` prefix, lower-cased (DOIs ignore case).

    Raises:
        InvalidInputError: what is left is not a DOI (``10.<registrant>/<suffix>``).
    """
    text = doi.strip()
    lowered = text.lower()
    for prefix in (*_DOI_PREFIXES, "doi:"):
        if lowered.startswith(prefix):
            text = text[len(prefix) :].strip()
            break
    text = text.lower()
    if not _DOI.fullmatch(text):
        raise InvalidInputError(f"{doi!r} is not a DOI; expected 10.<registrant>/<suffix>")
    return text


def work_status(message: Mapping[str, Any]) -> tuple[str, tuple[dict[str, str], ...]]:
    """The status and the update notices of a Crossref work ``message`` (see the module doc).

    Each notice has ``relation`` (``updated-by`` or ``update-to``), ``type``, and where Crossref
    gives them ``doi``, ``date`` (``YYYY[-MM[-DD]]``), ``label`` and ``source``.
    """
    own = message.get("DOI")
    own_doi = own.lower() if isinstance(own, str) else ""
    status = "active"
    notices: list[dict[str, str]] = []
    for relation in ("updated-by", "update-to"):
        for notice in _notices(message.get(relation), relation):
            if notice in notices:
                continue
            notices.append(notice)
            if relation == "updated-by" or notice.get("doi") == own_doi:
                effect = _STATUS_BY_TYPE.get(notice["type"], "active")
                if _SEVERITY[effect] > _SEVERITY[status]:
                    status = effect
    return status, tuple(notices)


def _notices(entries: object, relation: str) -> Iterable[dict[str, str]]:
    if not isinstance(entries, list):
        return
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            continue
        notice = {"relation": relation, "type": _update_type(entry["type"])}
        if isinstance(entry.get("DOI"), str):
            notice["doi"] = entry["DOI"].lower()
        date = _date(entry.get("updated"))
        if date:
            notice["date"] = date
        for key in ("label", "source"):
            if isinstance(entry.get(key), str):
                notice[key] = entry[key]
        yield notice


def _update_type(value: str) -> str:
    """``Expression of Concern`` / ``expression-of-concern`` -> ``expression_of_concern``."""
    return "_".join(value.strip().lower().replace("-", " ").split())


def _date(updated: object) -> str:
    """``YYYY-MM-DD`` (or a shorter prefix) from a Crossref date object; "" when absent."""
    if not isinstance(updated, dict):
        return ""
    parts = updated.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        first = parts[0]
        if all(isinstance(p, int) for p in first):
            head = [f"{first[0]:04d}", *(f"{p:02d}" for p in first[1:3])]
            return "-".join(head)
    date_time = updated.get("date-time")
    return date_time[:10] if isinstance(date_time, str) else ""


class CrossrefClient(ConnectorClient):
    """Crossref's REST API (works by DOI), in its polite pool when given ``mailto``.

    Args:
        base_url: the API root.
        mailto: a contact address, sent in the ``User-Agent`` and as ``mailto=``.
        rate_per_s: requests per second; 5 stays under both the public and the polite pool's
            limits.
        timeout, max_attempts, backoff, transport, sleep, clock: as :class:`PoliteClient`.
    """

    def __init__(
        self,
        *,
        base_url: str = CROSSREF_URL,
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
            label="Crossref",
            mailto=mailto,
            mailto_param="mailto",
            rate_per_s=rate_per_s,
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff,
            transport=transport,
            sleep=sleep,
            clock=clock,
        )

    def work(self, doi: str) -> FetchedDocument:
        """The work ``doi`` as a document: the raw JSON, its title, status and notices.

        Raises:
            InvalidInputError: ``doi`` is not a DOI.
            SourceError: the fetch failed, or the reply is not a Crossref work.
        """
        doi = normalize_doi(doi)
        what = f"work {doi}"
        raw = self._http.get(f"/works/{quote(doi, safe='/')}", what=what, accept="application/json")
        message = _work_message(self._http, raw, what)
        found = message.get("DOI")
        title = message.get("title")
        status, notices = work_status(message)
        return FetchedDocument(
            connector="crossref",
            external_ids={"doi": found.lower() if isinstance(found, str) else doi},
            media_type=MEDIA_TYPE,
            raw=raw,
            title=_first_text(title),
            status=status,
            notices=notices,
        )


def _work_message(http: PoliteClient, raw: bytes, what: str) -> dict[str, Any]:
    try:
        envelope = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise http.malformed(what, f"the reply is not JSON ({exc})") from exc
    if not isinstance(envelope, dict) or envelope.get("message-type") != "work":
        raise http.malformed(what, "expected an object with message-type 'work'")
    message = envelope.get("message")
    if not isinstance(message, dict):
        raise http.malformed(what, "'message' is not an object")
    return message


def _first_text(value: object) -> str:
    """Crossref titles are lists of strings; the first, with whitespace collapsed."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), "")
    return " ".join(value.split()) if isinstance(value, str) else ""
