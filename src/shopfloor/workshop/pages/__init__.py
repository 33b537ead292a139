"""Toquilla Trace's pages (docs/workshop-pages.md): :func:`install` adds them to the workshop app."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

from shopfloor.workshop.pages.i18n import browser_locale
from shopfloor.workshop.pages.page import PageError, SignInRequired, root_of
from shopfloor.workshop.pages.render import check_catalogues, render
from shopfloor.workshop.pages.routes import router

STATIC = Path(__file__).resolve().parent / "static"
VENDOR = Path(__file__).resolve().parents[2] / "web" / "static" / "vendor"


def install(app: FastAPI) -> None:
    """Mount the pages, their static files and their error pages on the workshop app."""
    check_catalogues()
    app.mount("/static/vendor", StaticFiles(directory=VENDOR), name="vendor")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(router)
    # Pages and their scripts travel compressed to phones on slow links (docs/workshop-pages.md).
    app.add_middleware(GZipMiddleware, minimum_size=1000)

    @app.exception_handler(SignInRequired)
    async def _sign_in(request: Request, exc: SignInRequired) -> Response:
        target = "/workshop/signin?next=" + request.url.path
        if request.headers.get("hx-request"):
            return Response(status_code=401, headers={"HX-Redirect": target})
        return RedirectResponse(target, status_code=303)

    @app.exception_handler(PageError)
    async def _page_error(request: Request, exc: PageError) -> HTMLResponse:
        locale = exc.locale or browser_locale(request.headers.get("accept-language"))
        body = render(
            locale, "error.html", root=root_of(request), status=exc.status, message=exc.message, actor=None
        )
        return HTMLResponse(body, status_code=exc.status)
