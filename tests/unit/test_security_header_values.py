"""The security headers' one function: which headers a response of a content type gets, and
that a header the app set under the same name is replaced, not doubled."""

from __future__ import annotations

from spanproof.api.security_headers import (
    API_DOCS_CONTENT_SECURITY_POLICY,
    API_DOCS_PATH,
    CONTENT_SECURITY_POLICY,
    PAGE_HEADERS,
    SECURITY_HEADERS,
    security_headers,
    with_security_headers,
)


def test_only_html_gets_the_content_security_policy() -> None:
    for html in ("text/html", "text/html; charset=utf-8", "TEXT/HTML;charset=UTF-8"):
        assert security_headers(html) == {
            **SECURITY_HEADERS,
            **PAGE_HEADERS,
            "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        }
    for other in ("application/json", "text/css", "text/javascript", "text/plain", "", None):
        assert security_headers(other) == SECURITY_HEADERS
    assert SECURITY_HEADERS == {
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    }
    assert PAGE_HEADERS == {
        "Cross-Origin-Opener-Policy": "same-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    }


def test_the_api_docs_page_has_its_own_policy() -> None:
    assert API_DOCS_PATH == "/docs"
    docs = security_headers("text/html; charset=utf-8", "/docs")
    assert docs["Content-Security-Policy"] == API_DOCS_CONTENT_SECURITY_POLICY
    assert "img-src 'self' data:" in API_DOCS_CONTENT_SECURITY_POLICY
    for path in ("", "/", "/traces", "/docs/", "/docsx", "/static/docs", "/v1/docs"):
        assert security_headers("text/html", path)["Content-Security-Policy"] == (
            CONTENT_SECURITY_POLICY
        ), path
    assert "data:" not in CONTENT_SECURITY_POLICY
    assert security_headers("application/json", "/docs") == SECURITY_HEADERS
    raw = [(b"content-type", b"text/html")]
    assert dict(with_security_headers(raw, "/docs"))[b"content-security-policy"] == (
        API_DOCS_CONTENT_SECURITY_POLICY.encode()
    )


def test_a_header_of_the_same_name_is_replaced_and_the_rest_kept() -> None:
    raw = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"X-Frame-Options", b"SAMEORIGIN"),
        (b"content-security-policy", b"default-src *"),
        (b"x-request-id", b"rid-1"),
    ]
    out = with_security_headers(raw)
    names = [name for name, _ in out]
    assert len(names) == len(set(names))
    assert dict(out) == {
        b"content-type": b"text/html; charset=utf-8",
        b"x-request-id": b"rid-1",
        b"x-content-type-options": b"nosniff",
        b"x-frame-options": b"DENY",
        b"referrer-policy": b"same-origin",
        b"content-security-policy": CONTENT_SECURITY_POLICY.encode(),
        b"cross-origin-opener-policy": b"same-origin",
        b"permissions-policy": b"camera=(), microphone=(), geolocation=()",
    }
    assert dict(with_security_headers([])) == {
        name.lower().encode(): value.encode() for name, value in SECURITY_HEADERS.items()
    }
