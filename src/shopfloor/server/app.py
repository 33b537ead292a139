"""The one ASGI app: a landing page that mounts each app at its prefix, behind the shared middleware.

Each app's ``create_app()`` (in ``shopfloor.workshop.api`` and ``shopfloor.shifts.api``) is imported plainly and
listed in :data:`MOUNTS`; this module sits above both apps and neither imports it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.types import ASGIApp

from shopfloor import __version__
from shopfloor.agent.providers import close_providers
from shopfloor.mcp.http import METHODS as MCP_METHODS
from shopfloor.mcp.http import McpEndpoint
from shopfloor.server import landing
from shopfloor.server.health import (
    HEALTH_RESPONSES,
    READY_RESPONSES,
    CachedChecks,
    shifts_store_check,
    workshop_store_check,
)
from shopfloor.server.landing import N_
from shopfloor.settings import Settings, get_settings
from shopfloor.shifts.api import create_app as create_shifts_app
from shopfloor.web.compression import CompressionMiddleware
from shopfloor.web.errors import ApiError, ErrorBoundaryMiddleware, install_error_handlers
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
        N_("Toquilla Trace"),
        N_("Hat records from spoken notes, approved by a person."),
    ),
    (
        "/shifts",
        create_shifts_app,
        N_("Shift Investigator"),
        N_("Why was this shift bad? Figures that cite rows."),
    ),
]


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server's app: landing page, ``/healthz``, ``/readyz`` and each mounted app, with the shared
    middleware."""
    settings = settings or get_settings()
    # The landing page's catalogues, as each app checks its own: missing or stale, the server does not start.
    landing.check_catalogues()
    subs: list[ASGIApp] = []
    # Both apps' tools for MCP clients (docs/mcp.md); the SDK is imported in the background at start.
    mcp_endpoint = McpEndpoint(settings)
    app = FastAPI(
        title="shopfloor",
        version=__version__,
        docs_url=None,
        redoc_url=None,
        lifespan=_lifespan(subs, mcp_endpoint),
    )
    install_error_handlers(app)
    mounted: list[tuple[str, str, str]] = []
    for prefix, factory, title, blurb in MOUNTS:
        sub = factory(settings)
        if sub is not None:
            app.mount(prefix, sub)
            subs.append(sub)
            mounted.append((prefix, title, blurb))
    _add_health_routes(app, settings, subs, [p for p, _, _ in mounted])
    _add_landing(app, settings, mounted)
    app.router.routes.append(Route("/mcp", endpoint=mcp_endpoint, methods=MCP_METHODS))
    _add_middleware(app, settings)
    return app


def _lifespan(
    subs: list[ASGIApp], mcp_endpoint: McpEndpoint
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The server's lifespan: each mounted app's own (``subs``, filled as they are mounted), the MCP
    endpoint's, and the shared model clients closed at the end."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # A mounted app's own lifespan (the workshop's sweep of orphaned runs) runs only if its parent runs it.
        async with AsyncExitStack() as stack:
            for sub in subs:
                if isinstance(sub, Starlette):
                    await stack.enter_async_context(sub.router.lifespan_context(sub))
            await stack.enter_async_context(mcp_endpoint.running())
            yield
        close_providers()  # the shared model clients and their connections (docs/providers.md)

    return lifespan


def _add_health_routes(app: FastAPI, settings: Settings, subs: list[ASGIApp], prefixes: list[str]) -> None:
    """``/healthz`` and ``/readyz`` over each store's check (the shifts store, the mounted workshop's)."""

    def run_store_checks() -> dict[str, str]:
        checks = {"shifts": shifts_store_check(settings)}
        for sub in subs:
            workshop = getattr(getattr(sub, "state", None), "workshop", None)
            if workshop is not None:
                checks["workshop"] = workshop_store_check(workshop.store)
        return checks

    # Kept a few seconds: a load balancer polling /readyz costs one round of reads per store in that time.
    store_checks = CachedChecks(run_store_checks, settings.health_cache_s)

    @app.get("/healthz", responses=HEALTH_RESPONSES)
    def healthz() -> dict[str, object]:
        """The process answers; ``ok`` says whether every store does too, ``stores`` which one is down."""
        stores = store_checks()
        return {
            "ok": all(v == "ok" for v in stores.values()),
            "version": __version__,
            "apps": prefixes,
            "stores": stores,
        }

    @app.get("/readyz", responses=READY_RESPONSES)
    def readyz() -> dict[str, object]:
        """For a load balancer: 200 when every store answers, else 503 naming the stores that do not."""
        stores = store_checks()
        down = sorted(name for name, state in stores.items() if state != "ok")
        if down:
            raise ApiError(
                503,
                "store_unavailable",
                f"Not ready: the {' and '.join(down)} store{'s' if len(down) > 1 else ''} did not answer.",
                stores=stores,
            )
        return {"ready": True, "stores": stores}


def _add_landing(app: FastAPI, settings: Settings, mounted: list[tuple[str, str, str]]) -> None:
    """The landing page at ``/`` (a link to each mounted app: prefix, title, blurb) in the visitor's language,
    and ``/language``, its switch (``server/landing.py``)."""

    @app.get("/", response_class=HTMLResponse)
    def landing_page(request: Request) -> HTMLResponse:
        locale = landing.page_locale(
            request.cookies.get(landing.COOKIE), request.headers.get("accept-language")
        )
        page = landing.render(locale, mounted, __version__, settings.model)
        # The page differs by these two headers: a cache keeps one copy per language.
        return HTMLResponse(page, headers={"Vary": "Accept-Language, Cookie"})

    @app.get("/language", response_class=RedirectResponse, status_code=303)
    def language(lang: str = "") -> RedirectResponse:
        """The landing page's switch: keep ``lang`` (``en`` or ``es``) a year in a cookie, back to ``/``."""
        if lang not in landing.LOCALES:
            raise ApiError(400, "bad_request", f"lang must be one of {', '.join(landing.LOCALES)}.")
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            landing.COOKIE, lang, max_age=landing.COOKIE_MAX_AGE_S, path="/", samesite="lax", httponly=True
        )
        return response


def _add_middleware(app: FastAPI, settings: Settings) -> None:
    """The shared middleware, innermost first (the last added runs first on a request)."""
    # The workshop functions also answer at the top level (docs/workshop-agent.md, "Contract").
    app.add_middleware(PathAliasMiddleware, aliases={"/functions/v1/": "/workshop/functions/v1/"})
    app.add_middleware(InputGuardMiddleware, max_json_depth=settings.max_json_depth)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeadersMiddleware)
    # Every response of both apps over 1,000 bytes travels compressed to phones on slow links, in Brotli where
    # the client accepts it, else gzip (docs/deploy.md, web/compression.py).
    app.add_middleware(CompressionMiddleware)
    app.add_middleware(RequestIdMiddleware)
    app.add_middleware(ErrorBoundaryMiddleware)  # outermost: an error in the middleware above is answered too
