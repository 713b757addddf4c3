"""The API's outer layers (pure ASGI): request ids, API keys, body limits, metrics, the catch-all.

Checks run before any route sees the request, in this order: API key (every route but
``/healthz``, ``/metrics``, ``/openapi.json``, ``/docs`` and ``/static/*`` — the web UI's pages
included, which take the key as an HTTP Basic password — when keys are configured: the
``--api-key`` keys, which may do
anything, and the stored keys of ``spanproof keys``, whose scope decides: ``read`` keys may use
GET and HEAD only, anything else answers 403; unknown and revoked keys answer 401), declared
``Content-Length`` against the limit, content type of a body sent to ``/v1/*`` (JSON only), then
the body is read in full while counting (a streamed body over the limit stops reading at the
limit) and must be UTF-8 text (no JSON escape of a lone surrogate, ``"\\ud800"``: 400
``invalid_utf8``; a web form's body too). The route then parses the buffered body.

Two checks guard the web UI's forms and a keyless server against other sites: a form posted to
a page (not ``/v1``) from another site's page — ``Sec-Fetch-Site: cross-site`` or
``same-site``, or an ``Origin`` whose host is not the request's ``Host`` — answers 403 (a
browser would otherwise send it, with a stored Basic password, from any page the reviewer
opens); and with ``loopback_only`` (``spanproof serve`` without keys, which binds only to
loopback) a request whose ``Host`` names another machine answers 421, so a page whose name was
re-pointed at 127.0.0.1 (DNS rebinding) cannot read or write through the reviewer's browser.

Each refusal answers the API's JSON error shape, but on a web page's path (a page route matches
it: :func:`spanproof.api.errors.html_before_routing`) the HTML error page, with the same status
and headers (``WWW-Authenticate``, ``Connection: close``, the request id) and a message of its
own: what happened, and what to do in a browser. The decisions are the same either way.

The security headers (``api/security_headers.py``) are added by a layer outside this one, so
every answer given here carries them too. Outside that is :class:`Backstop`, the catch-all: an
exception raised by a route or by this layer itself answers 500 the same way (on a page's path
the HTML error page, showing the request id, never the exception), with the security headers;
and a HEAD request's answer, whoever gives it, goes out without its body.
"""

from __future__ import annotations

import base64
import hmac
import ipaddress
import re
import time
import uuid
from collections.abc import Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spanproof.api.errors import (
    error_response,
    html_before_routing,
    log,
    spanproof_status,
    unexpected,
)
from spanproof.api.metrics import Metrics
from spanproof.api.security_headers import SecurityHeaders
from spanproof.core.errors import SpanproofError
from spanproof.core.keys import ApiKey, KeyStore, hash_key, scope_allows

#: Open without a key even when keys are on: liveness, metrics, the API's description, styles.
_OPEN_PATHS = frozenset({"/healthz", "/metrics", "/openapi.json", "/docs", "/favicon.ico"})
_CONVERTER = re.compile(r":[a-z]+\}")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class _TooLarge(Exception):
    pass


def ensure_request_id(scope: Scope) -> str:
    """The request's id, kept in ``scope``: the client's ``X-Request-ID`` when it is short
    ASCII, else a new one. The first layer to ask sets it; every later one reads the same."""
    rid = scope.get("spanproof.request_id")
    if isinstance(rid, str) and rid:
        return rid
    given = _header(scope, b"x-request-id")
    rid = given if given and len(given) <= 64 and given.isascii() else uuid.uuid4().hex
    scope["spanproof.request_id"] = rid
    return rid


def _api_path(path: str) -> bool:
    """Whether ``path`` is the JSON API's (``/v1``), never answered with a page."""
    return path.startswith(("/v1/", "/api/v1/")) or path in ("/v1", "/api/v1")


class Backstop:
    """The outermost layer of the app (outside :class:`SecurityHeaders` and
    :class:`ApiMiddleware`; ``create_app`` adds it last). Two rules hold for every response,
    whichever layer gives it:

    * the answer to a HEAD request carries no body (its status and headers are those of the
      GET): a route's answer, a refusal made before routing, a 500 alike;
    * an exception raised anywhere inside — a route, the API middleware's own checks, its
      refusals and metrics, the security headers' layer — is the catch-all's: logged once under
      the request id (:func:`spanproof.api.errors.unexpected`) and, when no response has
      started, answered with a 500 in the project's shape — the HTML error page on a page's
      path, the JSON shape elsewhere — carrying the security headers and ``X-Request-ID``,
      never the exception. It is not raised further, so Starlette's ServerErrorMiddleware
      (whose plain-text "Internal Server Error" sits outside every layer of this project) and
      the server never see it, and it is logged once.

    Once a response has started it cannot be replaced: the failure is logged under the request
    id and raised on, so the server closes the connection (the client sees a cut-off answer,
    not a complete one). A failure after the response was sent in full (the request's metrics)
    is logged and goes no further: the client already has its answer.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = ensure_request_id(scope)
        head = scope["method"] == "HEAD"
        started = complete = False

        async def guarded_send(message: Message) -> None:
            nonlocal started, complete
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body":
                if head:
                    message = {**message, "body": b""}
                complete = not message.get("more_body", False)
            await send(message)

        try:
            await self.app(scope, receive, guarded_send)
        except Exception as exc:
            if complete:
                log.error("request %s failed after its answer was sent", rid, exc_info=exc)
                return
            if started:
                log.error(
                    "request %s failed after its answer started (%s); the connection is cut",
                    rid,
                    type(exc).__name__,
                )
                raise
            # a page's path: the HTML error page; /v1 and the rest: the JSON shape
            answer = unexpected(rid, exc, None if _api_path(scope["path"]) else scope)
            answer.headers["X-Request-ID"] = rid
            await SecurityHeaders(answer)(scope, receive, guarded_send)


class ApiMiddleware:
    """Wraps the FastAPI app; see the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        api_keys: Sequence[str],
        max_body_bytes: int,
        metrics: Metrics,
        key_store: KeyStore | None = None,
        loopback_only: bool = False,
    ) -> None:
        self.app = app
        self.loopback_only = loopback_only
        self.api_keys = tuple(k.encode("utf-8") for k in api_keys if k)
        # When given, keys are required and the store's keys are accepted by scope.
        self.key_store = key_store
        self.max_body_bytes = max_body_bytes
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = ensure_request_id(scope)
        started = time.perf_counter()
        status = {"code": 500}

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = int(message["status"])
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", rid.encode("ascii")))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self._handle(scope, receive, send_wrapper, rid)
        finally:
            route = scope.get("route")
            # the template as the OpenAPI document names it ("{id:path}" → "{id}")
            template = _CONVERTER.sub("}", getattr(route, "path", None) or "unmatched")
            self.metrics.observe_request(
                template, scope["method"], status["code"], time.perf_counter() - started
            )

    async def _handle(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        path: str = scope["path"]
        api = _api_path(path)
        foreign = self._foreign(scope, api, rid)
        if foreign is not None:
            await foreign(scope, receive, send)
            return
        guarded = not (path in _OPEN_PATHS or path.startswith("/static/"))
        if guarded and (self.api_keys or self.key_store is not None):
            refusal = await self._refusal(scope, rid, api=api)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        if scope["method"] in BODY_METHODS:
            buffered = await self._buffered(scope, receive, send, rid, api)
            if buffered is None:
                return  # refused, and answered
            receive = buffered
        if scope["method"] == "HEAD":
            # answered as GET (monitors probe /healthz with HEAD); Backstop drops the body
            scope = {**scope, "method": "GET"}
        # A failure of the route (or of anything here) is answered by Backstop, outside.
        await self.app(scope, receive, send)

    async def _buffered(
        self, scope: Scope, receive: Receive, send: Send, rid: str, api: bool
    ) -> Receive | None:
        """The body read in full (within the limit, as text) and replayed to the route; None
        when it was refused (the refusal is sent)."""
        problem = self._check_headers(scope, api)
        if problem is not None:
            status, message, page = problem
            await _refused(scope, api, rid, status, message, page=page)(scope, receive, send)
            return None
        try:
            body = await self._read_body(receive)
        except _TooLarge:
            await self._too_large(scope, receive, send, rid, api)
            return None
        problem_text = _text_problem(body) if body else None
        if problem_text is not None:
            page = f"{problem_text}, so nothing was changed: send the form again from its page"
            refusal = _refused(scope, api, rid, 400, problem_text, page=page, type="invalid_utf8")
            await refusal(scope, receive, send)
            return None
        return _replay(body, receive)

    def _foreign(self, scope: Scope, api: bool, rid: str) -> Response | None:
        """The 421 for a keyless server addressed by another name, or the 403 for a form
        posted from another site's page (see the module docstring); None otherwise."""
        if self.loopback_only and not _loopback_host(_header(scope, b"host")):
            return _refused(
                scope,
                api,
                rid,
                421,
                "this server answers only requests addressed to this machine (localhost, "
                "127.0.0.1, [::1]); serve with an API key to be reached by another name",
                page="this server answers only addresses that name this machine, and this page "
                "was asked for by another name: open it at localhost or 127.0.0.1 (same port) "
                "instead; to reach the server by another name, start it with an API key",
                type="misdirected_request",
            )
        if scope["method"] in BODY_METHODS and not api and _cross_site(scope):
            return _refused(
                scope,
                api,
                rid,
                403,
                "a form may be posted only from this server's own pages",
                page="this form was sent from another site's page, and this server takes forms "
                "only from its own pages, so nothing was changed: open the page on this server "
                "and send the form from there",
                type="cross_site",
            )
        return None

    async def _refusal(self, scope: Scope, rid: str, *, api: bool = True) -> Response | None:
        """None when the request's key may make it; else the 401, 403 or store failure to answer.

        The web UI's pages take the key as the password of HTTP Basic authentication (any user
        name), so a browser can ask for it; a 401 on a page says so.
        """
        web = not api
        given = _header(scope, b"x-api-key")
        auth = _header(scope, b"authorization")
        if auth and auth[:7].lower() == "bearer ":
            given = auth[7:].strip()
        elif auth and auth[:6].lower() == "basic ":
            given = _basic_password(auth[6:].strip())
        key_scope = "write" if given and self._configured(given) else None
        found: ApiKey | None = None
        if given and key_scope is None and self.key_store is not None:
            try:
                found = await run_in_threadpool(self.key_store.find_api_key, hash_key(given))
            except SpanproofError as exc:
                status, kind, message, extra = spanproof_status(exc)
                page = (
                    f"the API key could not be checked ({message}): try again in a moment; if "
                    "this goes on, the server's log says why"
                )
                return _refused(scope, api, rid, status, message, page=page, type=kind, **extra)
            key_scope = None if found is None or found.revoked else found.scope
        if key_scope is None:
            stored = self.key_store is not None
            return _refused(
                scope,
                api,
                rid,
                401,
                _refusal_message(given, found, web, stored=stored),
                page=_page_refusal_message(given, found, stored=stored),
                headers={"WWW-Authenticate": 'Basic realm="spanproof"' if web else "Bearer"},
            )
        if not scope_allows(key_scope, scope["method"]):
            return _refused(
                scope,
                api,
                rid,
                403,
                f"this API key has scope {key_scope!r}: it may use GET and HEAD only; "
                f"{scope['method']} needs a key with scope 'write'",
                page=f"this API key has scope {key_scope!r}: it may open pages but not send "
                "forms, so nothing was changed; sending this form needs a key with scope "
                "'write' (the browser keeps the key it was given until it is closed: open the "
                "page in a private window to give another)",
            )
        return None

    def _configured(self, given: str) -> bool:
        """Whether ``given`` is one of the ``--api-key`` keys."""
        candidate = given.encode("utf-8", "replace")
        # Compare against every key (no early exit) so timing says nothing about which matched.
        matched = False
        for key in self.api_keys:
            matched |= hmac.compare_digest(candidate, key)
        return matched

    def _check_headers(self, scope: Scope, api: bool) -> tuple[int, str, str] | None:
        """(status, message, a page's message) when the headers refuse the body, else None."""
        length = _header(scope, b"content-length")
        if length:
            if not length.isdigit():
                return (
                    400,
                    "Content-Length is not a number",
                    "the request's Content-Length header is not a number, so its body was not "
                    "read and nothing was changed: send the form again from its page",
                )
            if int(length) > self.max_body_bytes:
                return 413, self._over_limit, self._page_over_limit
        if api and (length is None or length != "0"):
            ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json" and not ctype.endswith("+json"):
                message = "send the request body as JSON (Content-Type: application/json)"
                return 415, message, message
        return None

    @property
    def _over_limit(self) -> str:
        return f"the request body is over the limit of {self.max_body_bytes} bytes"

    @property
    def _page_over_limit(self) -> str:
        return (
            f"what was sent is larger than this server takes ({self.max_body_bytes} bytes), so "
            "it was not read and nothing was changed: shorten it and send the form again"
        )

    async def _read_body(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            part: bytes = message.get("body", b"")
            size += len(part)
            if size > self.max_body_bytes:
                raise _TooLarge
            chunks.append(part)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _too_large(
        self, scope: Scope, receive: Receive, send: Send, rid: str, api: bool
    ) -> None:
        response = _refused(
            scope,
            api,
            rid,
            413,
            self._over_limit,
            page=self._page_over_limit,
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)


def _refused(
    scope: Scope,
    api: bool,
    rid: str,
    status: int,
    message: str,
    *,
    page: str,
    type: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A refusal made before routing: on a web page's path (a page route matches it) the HTML
    error page saying ``page`` (what happened, what to do), else the JSON error shape saying
    ``message``; the same ``status`` and ``headers`` either way (the request id is added to
    both on the way out)."""
    html = None if api else html_before_routing(scope, status, page)
    if html is None:
        return error_response(status, message, type=type, request_id=rid, headers=headers, **extra)
    html.headers.update(headers or {})
    return html


_ESCAPE = re.compile(rb"\\(?:u([0-9A-Fa-f]{4})|.)", re.DOTALL)


def _text_problem(body: bytes) -> str | None:
    """Why ``body`` is not text: not UTF-8, or a JSON escape of a lone UTF-16 surrogate.

    ``"\\ud800"`` is valid JSON but no character: it decodes to a lone surrogate, which cannot be
    encoded, hashed or stored, and failed deep inside a route (a 500). Escapes are read left to
    right, so an escaped backslash before ``u`` is not mistaken for one.
    """
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "the request body is not valid UTF-8"
    if b"\\u" in body and _lone_surrogate(body):
        return "the request body holds a lone UTF-16 surrogate escape (\\ud800-\\udfff): not text"
    return None


def _lone_surrogate(body: bytes) -> bool:
    pending_high = -1  # where an unpaired high-surrogate escape ends
    for match in _ESCAPE.finditer(body):
        unit = int(match.group(1), 16) if match.group(1) else -1
        low = 0xDC00 <= unit <= 0xDFFF
        if pending_high >= 0 and not (low and match.start() == pending_high):
            return True  # a high surrogate not followed by its low half
        if low and pending_high < 0:
            return True  # a low surrogate on its own
        pending_high = match.end() if 0xD800 <= unit <= 0xDBFF else -1
    return pending_high >= 0


def _refusal_message(
    given: str | None, found: ApiKey | None, web: bool, *, stored: bool = True
) -> str:
    """Why a request gets 401: no key, a key nobody issued, or a revoked key (never the key).
    ``stored``: whether the server reads stored keys (it does when one existed at its start)."""
    if not given:
        return "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key'" + (
            " (or, in a browser, the key as the password)" if web else ""
        )
    if found is not None and found.revoked:
        return (
            f"this API key ({found.id}) was revoked at {found.revoked_at}: "
            "use another key (spanproof keys create)"
        )
    if not stored:
        return (
            "this API key is not valid: it is not one of the keys this server was started with "
            "(--api-key, SPANPROOF_API_KEYS); a key made with 'spanproof keys create' after the "
            "server started counts once the server is restarted"
        )
    return "this API key is not valid: no such key is configured or stored (check it for typos)"


def _page_refusal_message(given: str | None, found: ApiKey | None, *, stored: bool) -> str:
    """:func:`_refusal_message` for a page, whose key a browser asks for as the password."""
    if not given:
        return (
            "this page needs an API key: reload it and give the key as the password when the "
            "browser asks (any user name will do)"
        )
    if found is not None and found.revoked:
        return (
            f"the API key given ({found.id}) was revoked at {found.revoked_at}: reload the page "
            "and enter another key as the password ('spanproof keys create' makes one)"
        )
    if not stored:
        return (
            "the API key given is not one of the keys this server was started with (--api-key, "
            "SPANPROOF_API_KEYS): reload the page and enter one of those as the password; a key "
            "made with 'spanproof keys create' after the server started counts once the server "
            "is restarted"
        )
    return (
        "the API key given is not valid (no such key is configured or stored): reload the page "
        "and enter the key again as the password, checking it for typos"
    )


def _loopback_host(host: str | None) -> bool:
    """Whether a ``Host`` header names this machine (no header: an HTTP/1.0 client; allowed)."""
    if not host:
        return True
    name = host.strip().lower()
    if name.startswith("["):  # [::1]:8000
        name = name[1 : name.find("]")] if "]" in name else name
    else:
        name = name.rsplit(":", 1)[0] if name.count(":") == 1 else name
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _cross_site(scope: Scope) -> bool:
    """Whether a browser says the request comes from another site's page: ``Sec-Fetch-Site``
    (``cross-site``, ``same-site``), else an ``Origin`` that is not this ``Host`` (``null``
    included). A request with neither (a script, curl) is no browser's forgery."""
    fetch_site = _header(scope, b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site.strip().lower() in ("cross-site", "same-site")
    origin = _header(scope, b"origin")
    if origin is None:
        return False
    host = (_header(scope, b"host") or "").strip().lower()
    return origin.strip().lower().split("://", 1)[-1].rstrip("/") != host


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _basic_password(token: str) -> str | None:
    """The password of an HTTP Basic credential (``user:password``, base64), or None."""
    try:
        decoded = base64.b64decode(token, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    return decoded.partition(":")[2] or None


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        message: dict[str, Any] = dict(await receive())
        return message

    return replay
