"""The one place the HTTP API maps errors to responses, in one JSON shape.

Every error, whatever raised it, answers::

    {"error": {"type": str, "message": str, "status": int, "request_id": str}}

plus ``"retryable": bool`` for runtime failures (provider or store). Messages never carry
internals of unexpected failures, request bodies, headers or secrets.

Statuses: a request that cannot be read at all (not JSON, not UTF-8, a bad ``Content-Length``)
is 400; a request that was read but is not valid — a schema violation, a value out of range,
an unknown status filter, an empty draft, any ``InvalidInputError`` — is 422, whatever found
it; a request over a work limit (``SPANPROOF_LIMITS__*``) or over the body size is 413.

The web pages are not the API: an error on a route :func:`serve_html_errors` names (a page's
query out of range, ``/records?offset=-1``) answers an HTML page with the same status and
message, not this JSON body; so does a refusal the middleware makes before routing (a key, a
form from another site, a body over the limit or not UTF-8, another ``Host``:
:func:`html_before_routing`), in words for a browser, and so does a page route's unexpected
failure (:func:`unexpected`: a 500 showing the request id, never the exception).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match
from starlette.types import Scope

from spanproof.core.errors import (
    ConfigurationError,
    DecomposeError,
    InvalidInputError,
    ProviderError,
    RuntimeFailure,
    SourceError,
    SpanproofError,
    StoreError,
)

log = logging.getLogger("spanproof.api")

# HTTP status → the error ``type`` used when nothing more specific applies.
STATUS_TYPES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    500: "internal_error",
    502: "upstream_error",
    503: "unavailable",
}

INTERNAL_MESSAGE = "internal error: the server failed to handle this request (see its log)"


class ApiError(Exception):
    """An error the API raises on purpose, with its status, type and a safe message."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        type: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.type = type or STATUS_TYPES.get(status, "error")
        self.message = message
        self.headers = headers


def request_id(request: Request) -> str:
    """The request's id (set by the outer middleware; empty outside it)."""
    return str(request.scope.get("spanproof.request_id", ""))


def error_body(
    status: int, message: str, *, type: str | None = None, request_id: str = "", **extra: Any
) -> dict[str, Any]:
    """The pinned error shape."""
    error: dict[str, Any] = {
        "type": type or STATUS_TYPES.get(status, "error"),
        "message": message,
        "status": status,
        "request_id": request_id,
    }
    error.update(extra)
    return {"error": error}


def error_response(
    status: int,
    message: str,
    *,
    type: str | None = None,
    request_id: str = "",
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body = error_body(status, message, type=type, request_id=request_id, **extra)
    return JSONResponse(body, status_code=status, headers=headers)


def spanproof_status(exc: SpanproofError) -> tuple[int, str, str, dict[str, Any]]:
    """(status, type, message, extra fields) for a spanproof error."""
    if isinstance(exc, InvalidInputError):
        return 422, "invalid_input", str(exc), {}
    if isinstance(exc, DecomposeError):
        return 502, "decompose_error", "the decomposer gave no valid claims", {"retryable": True}
    if isinstance(exc, ConfigurationError):
        # A server misconfiguration; its message may name settings, so it stays in the log.
        return 500, "configuration_error", "the server is misconfigured (see its log)", {}
    if isinstance(exc, RuntimeFailure):
        kind = {ProviderError: "provider_error", StoreError: "store_error"}.get(
            type(exc), "source_error" if isinstance(exc, SourceError) else "runtime_error"
        )
        status = 503 if exc.retryable else 502
        return status, kind, _runtime_message(exc), {"retryable": exc.retryable}
    return 500, "internal_error", INTERNAL_MESSAGE, {}


def _runtime_message(exc: RuntimeFailure) -> str:
    if isinstance(exc, StoreError):
        return "the evidence store failed"
    if isinstance(exc, ProviderError):
        return "a model provider call failed"
    return "an upstream source failed"


def _validation_message(exc: RequestValidationError) -> tuple[int, str, str]:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return 400, "malformed_json", "the request body is not valid JSON"
    if any(e.get("type") == "missing" and tuple(e.get("loc", ())) == ("body",) for e in errors):
        return 400, "malformed_json", "the request body is empty: send a JSON object"
    parts = []
    for e in errors[:10]:
        loc = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        # Only where and what: never the offending input (it may hold a secret).
        parts.append(f"{loc or 'body'}: {e.get('msg', 'invalid')}")
    return 422, "validation_error", "; ".join(parts) or "the request is invalid"


#: Renders an error as an HTML page: (request, status, message) → response.
HtmlErrorPage = Callable[[Request, int, str], Response]


def serve_html_errors(app: FastAPI, routes: Iterable[BaseRoute], page: HtmlErrorPage) -> None:
    """Answer errors of ``routes`` (the web pages, each served at its own path) with ``page``,
    the same status and message as the JSON shape, instead of the API's JSON body."""
    app.state.html_error_routes = tuple(routes)
    app.state.html_error_endpoints = frozenset(
        getattr(route, "endpoint", None) for route in app.state.html_error_routes
    )
    app.state.html_error_page = page


def _html(request: Request, status: int, message: str) -> Response | None:
    """The HTML error page when the request's route is a web page, else None."""
    page: HtmlErrorPage | None = getattr(request.app.state, "html_error_page", None)
    pages: frozenset[object] = getattr(request.app.state, "html_error_endpoints", frozenset())
    if page is None or request.scope.get("endpoint") not in pages:
        return None
    return page(request, status, message)


#: Paths of the API and of the operator's endpoints: never answered with a page.
_NOT_PAGES = ("/v1/", "/v1", "/healthz", "/metrics", "/openapi.json", "/static/")


def _html_unknown_page(request: Request, status: int) -> Response | None:
    """For an address no route serves, asked for by a browser (``Accept`` names
    ``text/html``) outside the API: the HTML error page, so a mistyped page address is not
    answered with the API's JSON; else None."""
    page: HtmlErrorPage | None = getattr(request.app.state, "html_error_page", None)
    path = request.url.path
    if page is None or status != 404 or request.scope.get("endpoint") is not None:
        return None
    if path.startswith(_NOT_PAGES) or "text/html" not in request.headers.get("accept", ""):
        return None
    return page(request, 404, "there is no page at this address")


def html_before_routing(scope: Scope, status: int, message: str) -> Response | None:
    """For a request the middleware refuses before any route sees it: the HTML error page when
    it is addressed to a web page (a page route :func:`serve_html_errors` names matches its path
    and method, or its path alone, as the router would), else None (the JSON shape is for the
    caller to answer)."""
    app = scope.get("app")
    routes: tuple[BaseRoute, ...] = getattr(getattr(app, "state", None), "html_error_routes", ())
    partial: Scope | None = None
    for route in routes:
        match, child = route.matches(scope)
        if match is Match.FULL:
            return _html(Request({**scope, **child}), status, message)
        if match is Match.PARTIAL and partial is None:
            partial = child
    return None if partial is None else _html(Request({**scope, **partial}), status, message)


async def _on_spanproof(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SpanproofError)
    status, kind, message, extra = spanproof_status(exc)
    if status >= 500:
        log.error("request %s failed: %r", request_id(request), exc)
    html = _html(request, status, message)
    if html is not None:
        return html
    return error_response(status, message, type=kind, request_id=request_id(request), **extra)


async def _on_api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    html = _html(request, exc.status, exc.message)
    if html is not None:
        return html
    return error_response(
        exc.status, exc.message, type=exc.type, request_id=request_id(request), headers=exc.headers
    )


async def _on_validation(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    status, kind, message = _validation_message(exc)
    html = _html(request, status, message)
    if html is not None:
        return html
    return error_response(status, message, type=kind, request_id=request_id(request))


#: What FastAPI says when the JSON parser itself fails (nesting past its recursion limit, a
#: number too long to convert): the body is not JSON this server can read.
_PARSE_FAILURE = "There was an error parsing the body"


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    if status == 400 and exc.detail == _PARSE_FAILURE:
        return error_response(
            400,
            "the request body is not JSON this server can read (nested too deep, or a number "
            "too long)",
            type="malformed_json",
            request_id=request_id(request),
        )
    message = exc.detail if isinstance(exc.detail, str) and status < 500 else None
    defaults = {404: "no such route", 405: "method not allowed on this route"}
    message = message or defaults.get(status, STATUS_TYPES.get(status, "error"))
    html = _html(request, status, message) or _html_unknown_page(request, status)
    if html is not None:
        return html
    return error_response(
        status,
        message,
        request_id=request_id(request),
        headers=dict(exc.headers) if exc.headers else None,
    )


#: What a web page says when it failed unexpectedly (the page shows the request id beside it).
PAGE_INTERNAL_MESSAGE = (
    "the server failed while handling this request; what went wrong is in the server's log, "
    "under the request id below. If you sent a form, open its page again to see whether the "
    "change was made"
)


def unexpected(request_id: str, exc: BaseException, scope: Scope | None = None) -> Response:
    """The 500 answer for an exception nothing else handled (logged, never echoed): the HTML
    error page when ``scope`` is given and addressed to a web page (as
    :func:`html_before_routing` decides), else the JSON shape."""
    log.error("request %s failed unexpectedly", request_id, exc_info=exc)
    if scope is not None:
        try:
            html = html_before_routing(scope, 500, PAGE_INTERNAL_MESSAGE)
        except Exception:  # the error page failed too: the JSON shape still answers
            log.exception("request %s: the error page failed", request_id)
            html = None
        if html is not None:
            return html
    return error_response(500, INTERNAL_MESSAGE, type="internal_error", request_id=request_id)


def install(app: FastAPI) -> None:
    """Register every handler on ``app`` (the catch-all is ``api/middleware.py``'s Backstop)."""
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(SpanproofError, _on_spanproof)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
