"""Toquilla Trace's pages (docs/workshop-pages.md): :func:`install` adds them to the workshop app."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shopfloor.web.errors import envelope
from shopfloor.workshop.pages.i18n import browser_locale
from shopfloor.workshop.pages.page import PageError, SignInRequired, root_of
from shopfloor.workshop.pages.render import STATIC_FILES, VENDOR_FILES, check_catalogues, render
from shopfloor.workshop.pages.routes import router


def install(app: FastAPI) -> None:
    """Mount the pages, their static files and their error pages on the workshop app."""
    check_catalogues()
    # Linked with their content hash and kept for good by the browser (src/shopfloor/web/static.py); the
    # server compresses every response of both apps (src/shopfloor/server/app.py).
    app.mount("/static/vendor", VENDOR_FILES, name="vendor")
    app.mount("/static", STATIC_FILES, name="static")
    app.include_router(router)

    @app.exception_handler(SignInRequired)
    async def _sign_in(request: Request, exc: SignInRequired) -> Response:
        target = "/workshop/signin?next=" + request.url.path
        if request.headers.get("hx-request"):
            # htmx follows HX-Redirect; the body is the envelope, as the OpenAPI document says (page.SIGNED_IN).
            return envelope(401, "unauthorized", "Sign in first.", headers={"HX-Redirect": target})
        return RedirectResponse(target, status_code=303)

    @app.exception_handler(PageError)
    async def _page_error(request: Request, exc: PageError) -> HTMLResponse:
        locale = exc.locale or browser_locale(request.headers.get("accept-language"))
        body = render(
            locale, "error.html", root=root_of(request), status=exc.status, message=exc.message, actor=None
        )
        return HTMLResponse(body, status_code=exc.status)
