"""The API's interactive documentation (``/docs``, Swagger UI) with every asset served from this
process: the Swagger UI bundle comes from the installed ``fastapi-offline`` package, so the page
works with no internet (FastAPI's default loads it from a CDN). There is no ``/redoc``: ReDoc
fetches its logo from a CDN whatever its options."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, Response

from spanproof.web.templating import not_found

#: The bundled assets, under /static/ (open without a key, like the UI's styles).
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon.png": "image/png",
}
ASSET_PREFIX = "/static/api-docs/"

router = APIRouter(include_in_schema=False)


def _openapi_url(request: Request) -> str:
    url: Any = getattr(request.app, "openapi_url", None) or "/openapi.json"
    return str(request.scope.get("root_path", "")) + str(url)


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    root = str(request.scope.get("root_path", ""))
    return get_swagger_ui_html(
        openapi_url=_openapi_url(request),
        title="spanproof API · Swagger UI",
        swagger_js_url=f"{root}{ASSET_PREFIX}swagger-ui-bundle.js",
        swagger_css_url=f"{root}{ASSET_PREFIX}swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSET_PREFIX}favicon.png",
    )


@router.get(ASSET_PREFIX + "{name}")
def asset(name: str, request: Request) -> Response:
    if name not in ASSETS:
        return not_found(request, f"documentation asset {name!r}")
    path = Path(str(files("fastapi_offline") / "static" / name))
    return FileResponse(path, media_type=ASSETS[name], headers={"Cache-Control": "max-age=86400"})
