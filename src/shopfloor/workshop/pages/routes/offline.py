"""What lets the pages open with no connection: the web app manifest (Spanish and English) and the service
worker, served from the app's root so its scope is every page (docs/workshop-pages.md, "Offline").

The service worker's script is ``static/sw.js`` with two constants put before it: the build's content hash
(every static file's bytes, so any change to a script, a style or the worker itself is a new worker whose
caches carry the new hash) and the static files to keep. A browser compares a worker's bytes on every
navigation (it is served ``no-cache``), so a new build takes over at the next visit.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from shopfloor.workshop.pages.i18n import browser_locale, translations
from shopfloor.workshop.pages.page import root_of

router = APIRouter()

STATIC = Path(__file__).resolve().parents[1] / "static"
VENDOR = Path(__file__).resolve().parents[3] / "web" / "static" / "vendor"
WORKER = STATIC / "sw.js"
# What the worker keeps of the static files: scripts, styles and images (not the vendor's README).
KEPT = (".js", ".css", ".svg", ".png")


@lru_cache(maxsize=1)
def build() -> tuple[str, tuple[str, ...]]:
    """The build's content hash (12 hex digits) and the static paths (under ``/static``) the worker keeps."""
    digest = hashlib.sha256()
    kept: list[str] = []
    for base, prefix in ((STATIC, "/static/"), (VENDOR, "/static/vendor/")):
        for path in sorted(p for p in base.rglob("*") if p.is_file()):
            relative = path.relative_to(base).as_posix()
            digest.update(f"{prefix}{relative}\0".encode())
            digest.update(path.read_bytes())
            if path.suffix in KEPT and path != WORKER:
                kept.append(prefix + relative)
    return digest.hexdigest()[:12], tuple(kept)


@router.get("/sw.js", include_in_schema=False)
def service_worker(request: Request) -> Response:
    """The service worker, with the build's hash and the static files to keep."""
    version, kept = build()
    root = root_of(request)
    head = (
        f"var BUILD = {json.dumps(version)};\n"
        f"var ROOT = {json.dumps(root)};\n"
        f"var SHELL = {json.dumps([root + path for path in kept])};\n"
    )
    return Response(
        head + WORKER.read_text(encoding="utf-8"),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": f"{root}/"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest(request: Request, lang: Annotated[Literal["es", "en"] | None, Query()] = None) -> Response:
    """The web app manifest in the page's language (``lang``; else the browser's)."""
    locale = lang or browser_locale(request.headers.get("accept-language"))
    gettext = translations(locale).gettext
    root = root_of(request)
    body = {
        "name": gettext("Toquilla Trace"),
        "short_name": gettext("Toquilla Trace"),
        "description": gettext("Notes from the workshop, kept on the phone until there is a signal."),
        "lang": "es-EC" if locale == "es" else "en",
        "dir": "ltr",
        "id": f"{root}/",
        "start_url": f"{root}/",
        "scope": f"{root}/",
        "display": "standalone",
        "background_color": "#fbf8f2",
        "theme_color": "#6b4a16",
        "icons": [
            {"src": f"{root}/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{root}/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": f"{root}/static/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )
