"""The one ASGI app: a landing page that mounts each app at its prefix, behind the shared middleware.

Each app's ``create_app()`` (in ``shopfloor.workshop.api`` and ``shopfloor.shifts.api``) is imported plainly and
listed in :data:`MOUNTS`; this module sits above both apps and neither imports it.
"""

from __future__ import annotations

import html
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from starlette.types import ASGIApp

from shopfloor import __version__
from shopfloor.agent.providers import close_providers
from shopfloor.settings import Settings, get_settings
from shopfloor.shifts.api import create_app as create_shifts_app
from shopfloor.web.errors import ErrorBoundaryMiddleware, install_error_handlers
from shopfloor.web.input_guard import InputGuardMiddleware
from shopfloor.web.middleware import (
    BodyLimitMiddleware,
    PathAliasMiddleware,
    RequestIdMiddleware,
    SecurityHeadersMiddleware,
)
from shopfloor.workshop.api import create_app as create_workshop_app

AppFactory = Callable[[Settings], ASGIApp | None]

MOUNTS: list[tuple[str, AppFactory, str, str]] = [
    (
        "/workshop",
        create_workshop_app,
        "Toquilla Trace",
        "Hat records from spoken notes, approved by a person.",
    ),
    (
        "/shifts",
        create_shifts_app,
        "Shift Investigator",
        "Why was this shift bad? Figures that cite rows.",
    ),
]


@asynccontextmanager
async def _lifespan(_app: FastAPI) -> AsyncIterator[None]:
    yield
    close_providers()  # the shared model clients and their connections (docs/providers.md)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server's app: landing page, ``/healthz`` and each mounted app, with the shared middleware."""
    settings = settings or get_settings()
    app = FastAPI(title="shopfloor", version=__version__, docs_url=None, redoc_url=None, lifespan=_lifespan)
    install_error_handlers(app)
    mounted: list[tuple[str, str, str]] = []
    for prefix, factory, title, blurb in MOUNTS:
        sub = factory(settings)
        if sub is not None:
            app.mount(prefix, sub)
            mounted.append((prefix, title, blurb))

    @app.get("/healthz")
    def healthz() -> dict[str, object]:
        return {"ok": True, "version": __version__, "apps": [p for p, _, _ in mounted]}

    @app.get("/", response_class=HTMLResponse)
    def landing() -> str:
        items = "".join(
            f'<li><a href="{html.escape(p)}/">{html.escape(t)}</a> — {html.escape(b)}</li>'
            for p, t, b in mounted
        )
        return (
            "<!doctype html><html lang=en><head><meta charset=utf-8><title>shopfloor</title></head>"
            f"<body><h1>shopfloor</h1><p>Assistants that propose; people decide.</p><ul>{items}</ul>"
            f"<p><small>version {html.escape(__version__)} · model: {html.escape(settings.model)}</small></p>"
            "</body></html>"
        )

    # The workshop functions also answer at the top level (docs/workshop-agent.md, "Contract").
    app.add_middleware(PathAliasMiddleware, aliases={"/functions/v1/": "/workshop/functions/v1/"})
    app.add_middleware(InputGuardMiddleware, max_json_depth=settings.max_json_depth)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(RequestIdMiddleware)
    app.add_middleware(ErrorBoundaryMiddleware)  # outermost: an error in the middleware above is answered too
    return app
