"""The connector clients against a real HTTP server on loopback, serving fabricated fixtures.

Nothing here touches the internet: every request goes to ``127.0.0.1`` (a redirect elsewhere is
refused before it is followed). Waiting goes through a fake clock, so nothing really sleeps
except the server in the timeout test.
"""

from __future__ import annotations

import json
import math
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from spanproof.core.errors import ConfigurationError, InvalidInputError, SourceError
from spanproof.ingest.clients import (
    CrossrefClient,
    EuropePmcClient,
    PoliteClient,
    PubMedClient,
    normalize_doi,
    normalize_pmcid,
    normalize_pmid,
    work_status,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "connectors"
EPMC = "/europepmc/webservices/rest"
EUTILS = "/entrez/eutils"
SECRET = "ncbi-SECRET-key-0123456789"


# -- a scripted loopback server ------------------------------------------------------------------


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class Seen:
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


class LoopbackServer:
    """Answers each path from its script: replies in order, the last one repeated."""

    def __init__(self) -> None:
        self.routes: dict[str, list[Reply]] = {}
        self.seen: list[Seen] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,))
        self._thread.start()

    @property
    def root(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def script(self, path: str, *replies: Reply) -> None:
        self.routes[path] = list(replies)

    def fixture(self, path: str, name: str, content_type: str, status: int = 200) -> None:
        body = (FIXTURES / name).read_bytes()
        self.script(path, Reply(status, body, {"Content-Type": content_type}))

    def next_reply(self, seen: Seen) -> Reply:
        with self._lock:
            self.seen.append(seen)
            script = self.routes.get(seen.path)
            if not script:
                return Reply(404, b"Resource not found.", {"Content-Type": "text/plain"})
            return script.pop(0) if len(script) > 1 else script[0]

    def close(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()  # joins the handler threads
        self._thread.join()


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins them, so no thread outlives a test

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out and hung up is expected here


def _handler(server: LoopbackServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = server.next_reply(Seen(parts.path, parse_qs(parts.query), headers))
            if reply.delay:
                server.stopping.wait(reply.delay)
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


class FakeTime:
    """A monotonic clock that only moves when something sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    running = LoopbackServer()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


def _json(data: Any) -> Reply:
    return Reply(200, json.dumps(data).encode(), {"Content-Type": "application/json"})


def _crossref(server: LoopbackServer, fake: FakeTime, **kwargs: Any) -> CrossrefClient:
    options: dict[str, Any] = {"mailto": "team@example.org", "rate_per_s": math.inf}
    options.update(kwargs)
    return CrossrefClient(base_url=server.root, sleep=fake.sleep, clock=fake.clock, **options)


def _europepmc(server: LoopbackServer, fake: FakeTime, **kwargs: Any) -> EuropePmcClient:
    options: dict[str, Any] = {"mailto": "team@example.org", "rate_per_s": math.inf}
    options.update(kwargs)
    return EuropePmcClient(
        base_url=server.root + EPMC, sleep=fake.sleep, clock=fake.clock, **options
    )


def _pubmed(server: LoopbackServer, fake: FakeTime, **kwargs: Any) -> PubMedClient:
    options: dict[str, Any] = {"email": "team@example.org", "rate_per_s": math.inf}
    options.update(kwargs)
    return PubMedClient(
        base_url=server.root + EUTILS, sleep=fake.sleep, clock=fake.clock, **options
    )


# -- Europe PMC ----------------------------------------------------------------------------------


def test_europepmc_search_sends_the_documented_parameters_and_returns_core_records(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.fixture(f"{EPMC}/search", "europepmc_search.json", "application/json")
    with _europepmc(server, fake) as client:
        records = client.search("walking HbA1c", page_size=10)

    assert [(r["pmid"], r.get("pmcid"), r["doi"]) for r in records] == [
        ("39000001", "PMC11000001", "10.5555/spanproof.2024.001"),
        ("38000002", None, "10.5555/spanproof.2023.042"),
    ]
    assert records[0]["title"].startswith("A structured walking programme")
    (seen,) = server.seen
    assert seen.path == f"{EPMC}/search"
    assert seen.query == {
        "query": ["walking HbA1c"],
        "format": ["json"],
        "resultType": ["core"],
        "pageSize": ["10"],
        "email": ["team@example.org"],
    }
    assert seen.headers["user-agent"].startswith("spanproof/")
    assert "mailto:team@example.org" in seen.headers["user-agent"]


def test_europepmc_fulltext_returns_the_jats_bytes_unchanged(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.fixture(f"{EPMC}/PMC11000001/fullTextXML", "europepmc_fulltext.xml", "application/xml")
    with _europepmc(server, fake) as client:
        document = client.fetch_fulltext("pmc11000001")

    assert document.connector == "europepmc"
    assert document.media_type == "application/jats+xml"
    assert document.external_ids == {"pmcid": "PMC11000001"}
    assert document.raw == (FIXTURES / "europepmc_fulltext.xml").read_bytes()
    assert document.status == "active"
    assert server.seen[0].headers["accept"] == "application/xml"


def test_europepmc_missing_fulltext_is_a_non_retryable_error_naming_the_pmcid(
    server: LoopbackServer, fake: FakeTime
) -> None:
    with _europepmc(server, fake) as client, pytest.raises(SourceError) as caught:
        client.fetch_fulltext("PMC999")

    assert caught.value.retryable is False
    assert "PMC999" in str(caught.value)
    assert "HTTP 404" in str(caught.value)
    assert len(server.seen) == 1  # a 404 is not retried


def test_europepmc_metadata_by_pmid_searches_medline_by_external_id(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.fixture(f"{EPMC}/search", "europepmc_search.json", "application/json")
    with _europepmc(server, fake) as client:
        record = client.fetch_metadata(pmid="pmid:39000001")

    assert record["pmcid"] == "PMC11000001"
    assert server.seen[0].query["query"] == ["EXT_ID:39000001 AND SRC:MED"]
    assert server.seen[0].query["pageSize"] == ["1"]


def test_europepmc_metadata_for_an_unknown_doi_is_not_found(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script(f"{EPMC}/search", _json({"hitCount": 0, "resultList": {"result": []}}))
    with _europepmc(server, fake) as client, pytest.raises(SourceError) as caught:
        client.fetch_metadata(doi="https://doi.org/10.5555/NOWHERE")

    assert caught.value.retryable is False
    assert "10.5555/nowhere" in str(caught.value)
    assert server.seen[0].query["query"] == ['DOI:"10.5555/nowhere"']


def test_europepmc_metadata_needs_exactly_one_id(server: LoopbackServer, fake: FakeTime) -> None:
    with _europepmc(server, fake) as client:
        with pytest.raises(InvalidInputError):
            client.fetch_metadata()
        with pytest.raises(InvalidInputError):
            client.fetch_metadata(pmcid="PMC1", pmid="1")
    assert server.seen == []


def test_europepmc_search_reply_without_a_result_list_is_malformed(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script(f"{EPMC}/search", _json({"hitCount": 3, "resultList": {"result": "oops"}}))
    with _europepmc(server, fake) as client, pytest.raises(SourceError) as caught:
        client.search("anything")
    assert caught.value.retryable is False
    assert "resultList.result" in str(caught.value)


# -- PubMed --------------------------------------------------------------------------------------


def test_pubmed_search_sends_tool_email_and_api_key_and_returns_pmids(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.fixture(f"{EUTILS}/esearch.fcgi", "pubmed_esearch.json", "application/json")
    with _pubmed(server, fake, api_key=SECRET) as client:
        pmids = client.search("walking AND hba1c", max_results=2)

    assert pmids == ["39000001", "38000002"]
    assert server.seen[0].query == {
        "db": ["pubmed"],
        "term": ["walking AND hba1c"],
        "retmode": ["json"],
        "retmax": ["2"],
        "tool": ["spanproof"],
        "email": ["team@example.org"],
        "api_key": [SECRET],
    }


def test_pubmed_fetch_returns_the_efetch_xml(server: LoopbackServer, fake: FakeTime) -> None:
    server.fixture(f"{EUTILS}/efetch.fcgi", "pubmed_efetch.xml", "text/xml; charset=UTF-8")
    with _pubmed(server, fake) as client:
        document = client.fetch("39000001")

    assert document.connector == "pubmed"
    assert document.media_type == "application/pubmed+xml"
    assert document.external_ids == {"pmid": "39000001"}
    assert document.raw == (FIXTURES / "pubmed_efetch.xml").read_bytes()
    query = server.seen[0].query
    assert (query["db"], query["id"], query["retmode"]) == (["pubmed"], ["39000001"], ["xml"])
    assert query["email"] == ["team@example.org"]
    assert "api_key" not in query


def test_pubmed_fetch_of_an_unknown_pmid_is_not_found(
    server: LoopbackServer, fake: FakeTime
) -> None:
    empty = b'<?xml version="1.0" ?>\n<PubmedArticleSet></PubmedArticleSet>\n'
    server.script(f"{EUTILS}/efetch.fcgi", Reply(200, empty, {"Content-Type": "text/xml"}))
    with _pubmed(server, fake) as client, pytest.raises(SourceError) as caught:
        client.fetch(12345)
    assert caught.value.retryable is False
    assert "PMID 12345" in str(caught.value)


def test_pubmed_esearch_error_field_is_reported(server: LoopbackServer, fake: FakeTime) -> None:
    server.script(
        f"{EUTILS}/esearch.fcgi", _json({"esearchresult": {"ERROR": "Invalid query syntax"}})
    )
    with _pubmed(server, fake) as client, pytest.raises(SourceError) as caught:
        client.search("((")
    assert "Invalid query syntax" in str(caught.value)
    assert caught.value.retryable is False


def test_api_key_never_appears_in_error_messages_even_when_the_server_echoes_it(
    server: LoopbackServer, fake: FakeTime
) -> None:
    echo = json.dumps({"error": "API rate limit exceeded", "api-key": SECRET}).encode()
    server.script(f"{EUTILS}/esearch.fcgi", Reply(429, echo, {"Retry-After": "1"}))
    server.script(f"{EUTILS}/efetch.fcgi", Reply(400, b"bad api_key=" + SECRET.encode()))
    with _pubmed(server, fake, api_key=SECRET, max_attempts=2) as client:
        with pytest.raises(SourceError) as rate_limited:
            client.search("walking")
        with pytest.raises(SourceError) as rejected:
            client.fetch("39000001")

    for caught in (rate_limited, rejected):
        message = str(caught.value)
        assert SECRET not in message
        assert "[redacted]" in message
        assert SECRET not in repr(caught.value.__cause__)
    assert rate_limited.value.retryable is True
    assert rejected.value.retryable is False
    assert all(seen.query["api_key"] == [SECRET] for seen in server.seen)


@pytest.mark.parametrize(("api_key", "interval"), [(None, 1 / 3), (SECRET, 1 / 10)])
def test_pubmed_paces_requests_at_ncbi_limits_by_default(
    server: LoopbackServer, fake: FakeTime, api_key: str | None, interval: float
) -> None:
    server.fixture(f"{EUTILS}/esearch.fcgi", "pubmed_esearch.json", "application/json")
    client = PubMedClient(
        base_url=server.root + EUTILS, api_key=api_key, sleep=fake.sleep, clock=fake.clock
    )
    with client:
        for _ in range(3):
            client.search("walking")

    assert fake.sleeps == [pytest.approx(interval), pytest.approx(interval)]
    assert len(server.seen) == 3


# -- Crossref ------------------------------------------------------------------------------------


def test_crossref_work_reads_title_and_doi_and_stays_active(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.fixture("/works/10.5555/spanproof.2024.001", "crossref_work.json", "application/json")
    with _crossref(server, fake) as client:
        document = client.work("https://doi.org/10.5555/SPANPROOF.2024.001")

    assert document.connector == "crossref"
    assert document.media_type == "application/vnd.crossref+json"
    assert document.external_ids == {"doi": "10.5555/spanproof.2024.001"}
    assert document.title.startswith("A structured walking programme and glycaemic control")
    assert (document.status, document.notices) == ("active", ())
    assert document.raw == (FIXTURES / "crossref_work.json").read_bytes()
    (seen,) = server.seen
    assert seen.query == {"mailto": ["team@example.org"]}
    assert "mailto:team@example.org" in seen.headers["user-agent"]
    assert seen.headers["accept"] == "application/json"


def test_crossref_work_updated_by_a_retraction_is_retracted_with_its_notices(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.fixture(
        "/works/10.5555/spanproof.2021.117", "crossref_work_retracted.json", "application/json"
    )
    with _crossref(server, fake) as client:
        document = client.work("doi:10.5555/spanproof.2021.117")

    assert document.status == "retracted"
    assert [(n["relation"], n["type"], n["doi"], n["date"]) for n in document.notices] == [
        ("updated-by", "expression_of_concern", "10.5555/spanproof.2022.eoc.03", "2022-06-01"),
        ("updated-by", "retraction", "10.5555/spanproof.2023.notice.07", "2023-11-14"),
        ("updated-by", "retraction", "10.5555/spanproof.2023.notice.07", "2023-11-14"),
    ]
    assert [n["source"] for n in document.notices] == [
        "publisher",
        "publisher",
        "retraction-watch",
    ]


def test_crossref_retraction_notice_is_active_and_records_what_it_retracts(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.fixture(
        "/works/10.5555/spanproof.2023.notice.07",
        "crossref_retraction_notice.json",
        "application/json",
    )
    with _crossref(server, fake) as client:
        document = client.work("10.5555/spanproof.2023.notice.07")

    assert document.status == "active"
    assert document.title.startswith("Retraction Note:")
    assert document.notices == (
        {
            "relation": "update-to",
            "type": "retraction",
            "doi": "10.5555/spanproof.2021.117",
            "date": "2023-11-14",
            "label": "Retraction",
            "source": "publisher",
        },
    )


def _updated_by(*types: str) -> dict[str, Any]:
    return {
        "DOI": "10.5555/work",
        "updated-by": [
            {"DOI": f"10.5555/notice.{i}", "type": kind, "updated": {"date-parts": [[2024, 1]]}}
            for i, kind in enumerate(types)
        ],
    }


@pytest.mark.parametrize(
    ("types", "status"),
    [
        (("retraction",), "retracted"),
        (("removal",), "retracted"),
        (("partial_retraction",), "retracted"),
        (("withdrawal",), "withdrawn"),
        (("correction",), "corrected"),
        (("erratum",), "corrected"),
        (("corrigendum",), "corrected"),
        (("expression_of_concern",), "active"),
        (("Expression of Concern",), "active"),
        (("addendum", "new_version"), "active"),
        (("correction", "retraction", "expression_of_concern"), "retracted"),
        (("withdrawal", "correction"), "withdrawn"),
    ],
)
def test_update_types_set_the_most_severe_status(types: tuple[str, ...], status: str) -> None:
    found, notices = work_status(_updated_by(*types))
    assert found == status
    assert len(notices) == len(types)
    assert all(n["date"] == "2024-01" for n in notices)


def test_expression_of_concern_is_kept_as_a_notice_without_changing_status() -> None:
    status, notices = work_status(_updated_by("expression-of-concern"))
    assert status == "active"
    assert notices[0]["type"] == "expression_of_concern"


def test_an_in_place_update_to_its_own_doi_counts_for_the_work() -> None:
    message = {
        "DOI": "10.5555/Work.1",
        "update-to": [{"DOI": "10.5555/work.1", "type": "correction"}],
    }
    assert work_status(message)[0] == "corrected"


def test_malformed_update_entries_are_skipped() -> None:
    message = {"DOI": "10.5555/w", "updated-by": [None, {"DOI": "10.5555/x"}, "retraction"]}
    assert work_status(message) == ("active", ())


def test_crossref_unknown_doi_is_a_non_retryable_error_naming_the_doi(
    server: LoopbackServer, fake: FakeTime
) -> None:
    with _crossref(server, fake) as client, pytest.raises(SourceError) as caught:
        client.work("10.5555/missing")
    assert caught.value.retryable is False
    assert "10.5555/missing" in str(caught.value)
    assert "Resource not found." in str(caught.value)


def test_a_doi_with_dot_segments_cannot_leave_the_works_path(
    server: LoopbackServer, fake: FakeTime
) -> None:
    with _crossref(server, fake) as client, pytest.raises(InvalidInputError):
        client.work("10.5555/../../admin")
    assert server.seen == []


def test_crossref_malformed_json_is_a_source_error(server: LoopbackServer, fake: FakeTime) -> None:
    truncated = Reply(200, b'{"status": "ok", "message-type": "work", "message": {', {})
    server.script("/works/10.5555/broken", truncated)
    with _crossref(server, fake) as client, pytest.raises(SourceError) as caught:
        client.work("10.5555/broken")
    assert caught.value.retryable is False
    assert "not JSON" in str(caught.value)


def test_crossref_reply_that_is_not_a_work_is_malformed(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script("/works/10.5555/list", _json({"status": "ok", "message-type": "work-list"}))
    with _crossref(server, fake) as client, pytest.raises(SourceError, match="message-type"):
        client.work("10.5555/list")


@pytest.mark.parametrize(
    ("raw", "doi"),
    [
        ("10.5555/ABC", "10.5555/abc"),
        ("  https://doi.org/10.1000/X.Y  ", "10.1000/x.y"),
        ("http://dx.doi.org/10.1000/xyz", "10.1000/xyz"),
        ("DOI: 10.1016/S0140-6736(97)11096-0", "10.1016/s0140-6736(97)11096-0"),
    ],
)
def test_normalize_doi_strips_prefixes_and_lowercases(raw: str, doi: str) -> None:
    assert normalize_doi(raw) == doi


@pytest.mark.parametrize("raw", ["", "10.1/x", "11.5555/x", "10.5555/", "10.5555/a b"])
def test_normalize_doi_rejects_what_is_not_a_doi(raw: str) -> None:
    with pytest.raises(InvalidInputError):
        normalize_doi(raw)


def test_ids_normalise_or_are_refused() -> None:
    assert normalize_pmcid("pmcid: pmc0123") == "PMC0123"
    assert normalize_pmid("PMID:00042") == "42"
    for bad in ("PMC", "PMC12a", "PMC0", "１２"):
        with pytest.raises(InvalidInputError):
            normalize_pmcid(bad)
    for bad_pmid in ("", "0", "-3", "12.5", "１２"):
        with pytest.raises(InvalidInputError):
            normalize_pmid(bad_pmid)


# -- retries, timeouts, redirects, limits ---------------------------------------------------------


def test_429_with_retry_after_zero_is_retried_at_once(
    server: LoopbackServer, fake: FakeTime
) -> None:
    body = (FIXTURES / "crossref_work.json").read_bytes()
    server.script(
        "/works/10.5555/spanproof.2024.001",
        Reply(429, b"slow down", {"Retry-After": "0"}),
        Reply(200, body, {"Content-Type": "application/json"}),
    )
    with _crossref(server, fake) as client:
        document = client.work("10.5555/spanproof.2024.001")
    assert document.raw == body
    assert fake.sleeps == [0.0]
    assert len(server.seen) == 2


def test_retry_after_seconds_are_honoured(server: LoopbackServer, fake: FakeTime) -> None:
    server.script(
        f"{EPMC}/search",
        Reply(429, b"", {"Retry-After": "7"}),
        Reply(503, b"", {"Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"}),  # in the past: 0
        _json({"resultList": {"result": []}}),
    )
    with _europepmc(server, fake) as client:
        assert client.search("x") == []
    assert fake.sleeps == [7.0, 0.0]


def test_a_retry_after_beyond_the_limit_fails_at_once_as_retryable(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script(f"{EPMC}/search", Reply(429, b"", {"Retry-After": "3600"}))
    with _europepmc(server, fake) as client, pytest.raises(SourceError) as caught:
        client.search("x")
    assert caught.value.retryable is True
    assert "3600" in str(caught.value)
    assert fake.sleeps == []
    assert len(server.seen) == 1


def test_503_twice_then_200_succeeds_after_exponential_backoff(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script(
        f"{EUTILS}/esearch.fcgi",
        Reply(503, b"busy"),
        Reply(503, b"busy"),
        Reply(200, (FIXTURES / "pubmed_esearch.json").read_bytes()),
    )
    with _pubmed(server, fake, backoff=0.5) as client:
        assert client.search("walking") == ["39000001", "38000002"]
    assert fake.sleeps == [0.5, 1.0]
    assert len(server.seen) == 3


def test_a_persistent_500_is_retryable_after_max_attempts(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script("/works/10.5555/flaky", Reply(500, b"internal error"))
    with _crossref(server, fake, max_attempts=3) as client, pytest.raises(SourceError) as caught:
        client.work("10.5555/flaky")
    assert caught.value.retryable is True
    assert "HTTP 500 after 3 attempts" in str(caught.value)
    assert "10.5555/flaky" in str(caught.value)
    assert len(server.seen) == 3
    assert fake.sleeps == [0.5, 1.0]


def test_a_slow_server_times_out_as_a_retryable_error(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script(f"{EPMC}/PMC1/fullTextXML", Reply(200, b"<article/>", delay=5.0))
    client = _europepmc(server, fake, timeout=0.05, max_attempts=2)
    with client, pytest.raises(SourceError) as caught:
        client.fetch_fulltext("PMC1")
    assert caught.value.retryable is True
    assert "Timeout after 2 attempts" in str(caught.value)
    assert len(server.seen) == 2


def test_a_refused_connection_is_retryable(fake: FakeTime) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = CrossrefClient(
        base_url=f"http://127.0.0.1:{port}", max_attempts=2, sleep=fake.sleep, clock=fake.clock
    )
    with client, pytest.raises(SourceError) as caught:
        client.work("10.5555/x")
    assert caught.value.retryable is True
    assert "ConnectError" in str(caught.value)


def test_a_redirect_to_another_host_is_refused(server: LoopbackServer, fake: FakeTime) -> None:
    server.script(
        "/works/10.5555/moved",
        Reply(302, b"", {"Location": "http://elsewhere.invalid/works/10.5555/moved"}),
    )
    with _crossref(server, fake) as client, pytest.raises(SourceError) as caught:
        client.work("10.5555/moved")
    assert caught.value.retryable is False
    assert "refused a redirect to http://elsewhere.invalid" in str(caught.value)
    assert len(server.seen) == 1


def test_a_redirect_out_of_the_base_path_is_refused(server: LoopbackServer, fake: FakeTime) -> None:
    server.script(f"{EPMC}/PMC1/fullTextXML", Reply(301, b"", {"Location": "/admin"}))
    with _europepmc(server, fake) as client, pytest.raises(SourceError, match="refused"):
        client.fetch_fulltext("PMC1")
    assert [seen.path for seen in server.seen] == [f"{EPMC}/PMC1/fullTextXML"]


def test_a_redirect_that_stays_under_the_base_url_is_followed(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script(
        f"{EPMC}/PMC1/fullTextXML", Reply(301, b"", {"Location": f"{EPMC}/PMC2/fullTextXML"})
    )
    server.script(f"{EPMC}/PMC2/fullTextXML", Reply(200, b"<article/>"))
    with _europepmc(server, fake) as client:
        assert client.fetch_fulltext("PMC1").raw == b"<article/>"
    assert [seen.path for seen in server.seen] == [
        f"{EPMC}/PMC1/fullTextXML",
        f"{EPMC}/PMC2/fullTextXML",
    ]


def test_a_reply_larger_than_max_bytes_is_refused(server: LoopbackServer, fake: FakeTime) -> None:
    server.script("/big", Reply(200, b"x" * 5000))
    client = PoliteClient(server.root, max_bytes=1000, sleep=fake.sleep, clock=fake.clock)
    with client, pytest.raises(SourceError, match="larger than 1000 bytes") as caught:
        client.get("/big", what="a big thing")
    assert caught.value.retryable is False


def test_a_body_that_does_not_decode_is_a_non_retryable_error(
    server: LoopbackServer, fake: FakeTime
) -> None:
    server.script("/gz", Reply(200, b"not gzip at all", {"Content-Encoding": "gzip"}))
    client = PoliteClient(server.root, sleep=fake.sleep, clock=fake.clock)
    with client, pytest.raises(SourceError, match="DecodingError") as caught:
        client.get("/gz", what="a compressed thing")
    assert caught.value.retryable is False


def test_requests_are_paced_by_the_injected_clock(server: LoopbackServer, fake: FakeTime) -> None:
    server.script("/ping", Reply(200, b"pong"))
    with PoliteClient(server.root, rate_per_s=2, sleep=fake.sleep, clock=fake.clock) as client:
        for _ in range(3):
            assert client.get("/ping", what="ping") == b"pong"
        fake.now += 10  # time passes on its own: the next request need not wait
        client.get("/ping", what="ping")
    assert fake.sleeps == [0.5, 0.5]


def test_paths_that_would_leave_the_base_url_are_refused(fake: FakeTime) -> None:
    with PoliteClient("http://127.0.0.1:9/api", sleep=fake.sleep, clock=fake.clock) as client:
        for path in ("../admin", "/x/%2e%2e/%2E%2E/admin", "/x?y=1", "/a\\b"):
            with pytest.raises(InvalidInputError):
                client.get(path, what="anything")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"base_url": "ftp://example.org"},
        {"base_url": "https://user:pw@example.org"},
        {"base_url": "https://example.org/?a=1"},
        {"base_url": "https://example.org", "mailto": "not an address"},
        {"base_url": "https://example.org", "api_key": "k"},
        {"base_url": "https://example.org", "rate_per_s": 0},
        {"base_url": "https://example.org", "max_attempts": 0},
    ],
)
def test_bad_client_settings_are_configuration_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError):
        PoliteClient(**kwargs)
