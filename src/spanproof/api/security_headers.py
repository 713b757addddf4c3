"""The security headers of every response, the one place their values are written.

Every response — the API's JSON, the web UI's pages and files, error pages and bodies, the
middleware's refusals made before routing, 404s — carries:

* ``X-Content-Type-Options: nosniff``: a browser takes each response as its declared type (a
  JSON body or an uploaded source's text is never run as a script or drawn as HTML);
* ``X-Frame-Options: DENY``: no page of this server is drawn inside another page's frame, so no
  other site can overlay its forms (review decisions, retractions) and trick a click;
* ``Referrer-Policy: same-origin``: a link to another site is followed without this server's
  URLs (which name traces, sources and searches) in ``Referer``. ``same-origin`` rather than
  ``no-referrer``: under ``no-referrer`` a browser sends ``Origin: null`` with the UI's own form
  posts, and a browser that sends no ``Sec-Fetch-Site`` would then have every form refused as
  cross-site (see ``api/middleware.py``).

An HTML response also carries :data:`CONTENT_SECURITY_POLICY`. The pages load nothing from
another origin, run no inline script and set no inline style (the trace viewer's script and the
stylesheet are files under ``/static/``; ``/docs`` starts Swagger UI from a file too), so
``default-src 'self'`` holds for every page, images included (``img-src 'self'``, said outright).
``frame-ancestors 'none'`` is the modern form of ``X-Frame-Options: DENY``; ``base-uri 'none'``
and ``object-src 'none'`` take away a base URL and plug-ins; ``form-action 'self'`` keeps every
form posting to this server.

The API's documentation (:data:`API_DOCS_PATH`, Swagger UI) gets
:data:`API_DOCS_CONTENT_SECURITY_POLICY` instead: the same policy with one widening, ``img-src
data:``, because Swagger UI's stylesheet draws its icons as ``data:`` images. No other page
needs it, so no other page has it.

An HTML response carries :data:`PAGE_HEADERS` too:

* ``Cross-Origin-Opener-Policy: same-origin``: a page of another site that opens one of these
  pages in a window (or that one of them opens) gets no handle on it (no ``window.opener``, no
  navigating or counting its frames), and the page gets its own browsing-context group;
* ``Permissions-Policy: camera=(), microphone=(), geolocation=()``: no page, and nothing a page
  loads, may ask for the camera, the microphone or the location; the UI needs none of them.

No ``Strict-Transport-Security``: the server may be served on plain HTTP on loopback, and HSTS
belongs to whatever terminates TLS in front of it.

:class:`SecurityHeaders` is the pure ASGI middleware that adds them on the way out, outside the
API middleware, so its refusals get them too. The one layer outside it, the catch-all
(``api/middleware.py``'s ``Backstop``), sends its own 500 through this middleware, so no
response escapes them.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def _policy(img_src: str) -> str:
    return "; ".join(
        (
            "default-src 'self'",
            f"img-src {img_src}",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "object-src 'none'",
        )
    )


#: The Content-Security-Policy of every HTML response but the API's documentation (see the
#: module docstring).
CONTENT_SECURITY_POLICY = _policy("'self'")

#: The path of the API's documentation page (Swagger UI; ``web/api_docs.py``).
API_DOCS_PATH = "/docs"

#: The Content-Security-Policy of :data:`API_DOCS_PATH`: Swagger UI's stylesheet draws its icons
#: as ``data:`` images.
API_DOCS_CONTENT_SECURITY_POLICY = _policy("'self' data:")

#: The headers of every response, whatever its type.
SECURITY_HEADERS: dict[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


#: The headers of every HTML response besides the Content-Security-Policy (see the module
#: docstring).
PAGE_HEADERS: dict[str, str] = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def security_headers(content_type: str | None, path: str = "") -> dict[str, str]:
    """The security headers of a response of ``content_type`` (its ``Content-Type``, or None)
    to a request for ``path`` (below the app's root path)."""
    headers = dict(SECURITY_HEADERS)
    if content_type and content_type.split(";")[0].strip().lower() == "text/html":
        headers.update(PAGE_HEADERS)
        docs = path == API_DOCS_PATH
        headers["Content-Security-Policy"] = (
            API_DOCS_CONTENT_SECURITY_POLICY if docs else CONTENT_SECURITY_POLICY
        )
    return headers


class SecurityHeaders:
    """Adds :func:`security_headers` to every HTTP response of ``app``; a header of the same name
    the app set is replaced, so no route weakens them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        path = _app_path(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = with_security_headers(message.get("headers", []), path)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _app_path(scope: Scope) -> str:
    """The request's path below the app's root path (``/docs`` when served under ``/x``)."""
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def with_security_headers(
    raw: Iterable[tuple[bytes, bytes]], path: str = ""
) -> list[tuple[bytes, bytes]]:
    """ASGI response headers ``raw`` of a response to ``path`` with :func:`security_headers`
    added (replacing any of the same name)."""
    raw = [(bytes(name), bytes(value)) for name, value in raw]
    content_type = next(
        (value.decode("latin-1") for name, value in raw if name.lower() == b"content-type"), None
    )
    added = {
        name.lower().encode("latin-1"): value.encode("latin-1")
        for name, value in security_headers(content_type, path).items()
    }
    kept = [(name, value) for name, value in raw if name.lower() not in added]
    return kept + list(added.items())
