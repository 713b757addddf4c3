"""A loopback HTTP server that answers ``GET`` by path from a script, for connector tests that
must go through real HTTP (Crossref, Europe PMC and PubMed stand-ins).

``script`` maps a path (the query string left out) to ``(status, body, retry_after)``; a path
not in it gets ``default`` (404 "Resource not found." unless given). The script may change while
the server runs. Every path asked is recorded in :attr:`LoopbackPaths.asked` (with its query).
Use it as a context manager so the socket and thread are closed::

    with LoopbackPaths({"/works/10.1/x": (200, body, "")}) as server:
        settings.crossref_url = server.base_url
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from spanproof.providers.closing import ClosesOnExit

__all__ = ["NOT_FOUND", "LoopbackPaths", "Reply"]

#: (status, body, Retry-After header or "").
Reply = tuple[int, bytes, str]
NOT_FOUND: Reply = (404, b"Resource not found.", "")


class LoopbackPaths(ClosesOnExit):
    """Answers each ``GET`` with the scripted reply of its path (see the module docstring)."""

    def __init__(
        self,
        script: dict[str, Reply] | None = None,
        default: Reply = NOT_FOUND,
        content_type: str = "",
    ) -> None:
        self.script: dict[str, Reply] = {} if script is None else script
        self.default = default
        self.content_type = content_type
        self.asked: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.asked.append(self.path)
                status, body, retry_after = owner.script.get(
                    self.path.split("?", 1)[0], owner.default
                )
                self.send_response(status)
                if retry_after:
                    self.send_header("Retry-After", retry_after)
                if owner.content_type:
                    self.send_header("Content-Type", owner.content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``, no trailing slash."""
        return f"http://127.0.0.1:{self._server.server_port}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self
