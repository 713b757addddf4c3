"""What the HTTP adapters share besides retries: base URLs, redaction, JSON replies, closing."""

from __future__ import annotations

import httpx
import pytest

from spanproof.core.errors import ConfigurationError, ProviderError, SourceError
from spanproof.providers.http_client import (
    HttpClientOwner,
    Redactor,
    check_base_url,
    json_object,
)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.org", "http(s) URL such as http://x.test"),
        ("https://", "http(s) URL"),
        ("https://user:pw@example.org", "credentials"),
        ("http://[::1", "is not a URL"),
    ],
)
def test_base_urls_must_be_http_with_a_host_and_no_credentials(url: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_base_url(url, given=url, example="http://x.test")


def test_a_good_base_url_comes_back_parsed() -> None:
    assert check_base_url("https://api.crossref.org", given="x", example="y").host == (
        "api.crossref.org"
    )


def test_the_redactor_removes_the_secret_as_sent_and_percent_encoded() -> None:
    redact = Redactor("k=y/z")
    assert redact("key k=y/z and k%3Dy%2Fz") == "key [redacted] and [redacted]"
    assert Redactor(None)("nothing to hide") == "nothing to hide"
    assert Redactor("")("nothing to hide") == "nothing to hide"


def test_json_object_decodes_an_object_or_names_what_is_wrong() -> None:
    assert json_object(b'{"a": 1}', where="w", error=SourceError, snippet=str) == {"a": 1}
    with pytest.raises(ProviderError, match=r"^w: the reply is not JSON \(.+\): \{oops") as bad:
        json_object(b"{oops", where="w", error=ProviderError, snippet=lambda: "{oops")
    assert bad.value.retryable is False
    assert bad.value.__cause__ is not None
    with pytest.raises(SourceError, match="JSON but not an object") as listed:
        json_object(b"[1, 2]", where="w", error=SourceError, snippet=str)
    assert listed.value.retryable is False


def test_leaving_a_with_block_closes_the_owned_client() -> None:
    class Owner(HttpClientOwner):
        def __init__(self) -> None:
            self._client = httpx.Client()

    with Owner() as owner:
        assert not owner._client.is_closed
    assert owner._client.is_closed
