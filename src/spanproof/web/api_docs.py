"""The API's interactive documentation (``/docs``, Swagger UI) with every asset served from this
process: the Swagger UI bundle comes from the installed ``fastapi-offline`` package, so the page
works with no internet (FastAPI's default loads it from a CDN). There is no ``/redoc``: ReDoc
fetches its logo from a CDN whatever its options.

The page is this package's own (``templates/api_docs.html``), not FastAPI's
``get_swagger_ui_html``, whose inline ``<script>`` the pages' Content-Security-Policy would
block: Swagger UI is started by ``static/swagger-init.js``, which reads the OpenAPI URL from the
page. Its own Content-Security-Policy (``api/security_headers.py``, by :data:`API_DOCS_PATH`)
allows the ``data:`` images Swagger UI's stylesheet draws its icons with; no other page's does."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from spanproof.api.security_headers import API_DOCS_PATH
from spanproof.web.templating import not_found, templates

#: The bundled assets, under /static/ (open without a key, like the UI's styles).
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon.png": "image/png",
}
#: The assets of this package (``static/``), served beside them.
OWN_ASSETS = {"swagger-init.js": "text/javascript"}
ASSET_PREFIX = "/static/api-docs/"

router = APIRouter(include_in_schema=False)


def _openapi_url(request: Request) -> str:
    url: Any = getattr(request.app, "openapi_url", None) or "/openapi.json"
    return str(request.scope.get("root_path", "")) + str(url)


@router.get(API_DOCS_PATH)
def swagger_ui(request: Request) -> Response:
    root = str(request.scope.get("root_path", ""))
    context = {
        "title": "spanproof API · Swagger UI",
        "openapi_url": _openapi_url(request),
        "assets": root + ASSET_PREFIX,
    }
    return templates.TemplateResponse(request, "api_docs.html", context)


@router.get(ASSET_PREFIX + "{name}")
def asset(name: str, request: Request) -> Response:
    if name in OWN_ASSETS:
        path = Path(__file__).parent / "static" / name
        return FileResponse(path, media_type=OWN_ASSETS[name])
    if name not in ASSETS:
        return not_found(request, f"documentation asset {name!r}")
    path = Path(str(files("fastapi_offline") / "static" / name))
    return FileResponse(path, media_type=ASSETS[name], headers={"Cache-Control": "max-age=86400"})
