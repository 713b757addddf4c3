"""Connector clients for literature services: Europe PMC, PubMed (E-utilities) and Crossref.

Owns: polite HTTP (identification, rate limits, retries, one fixed host) and the mapping of each
service's replies to :class:`~spanproof.core.documents.FetchedDocument`.
May import: ``spanproof.core``, the standard library, httpx, and the HTTP plumbing every adapter
shares (``spanproof.providers.retry``, ``spanproof.providers.http_client``).
Must not: parse documents, touch the store, read settings, or import services or entry points.
"""

from spanproof.ingest.clients._polite import PoliteClient
from spanproof.ingest.clients.crossref import CrossrefClient, normalize_doi, work_status
from spanproof.ingest.clients.europepmc import EuropePmcClient, normalize_pmcid
from spanproof.ingest.clients.pubmed import PubMedClient, normalize_pmid

__all__ = [
    "CrossrefClient",
    "EuropePmcClient",
    "PoliteClient",
    "PubMedClient",
    "normalize_doi",
    "normalize_pmcid",
    "normalize_pmid",
    "work_status",
]
