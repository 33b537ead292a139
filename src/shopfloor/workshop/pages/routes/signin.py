"""Sign-in, sign-out and the page language (docs/workshop-pages.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shopfloor.workshop import accounts
from shopfloor.workshop.deps import state_of
from shopfloor.workshop.pages import records
from shopfloor.workshop.pages.i18n import browser_locale, translations
from shopfloor.workshop.pages.page import (
    PageDep,
    PageError,
    log,
    root_of,
)
from shopfloor.workshop.pages.render import render

router = APIRouter()


def _safe_next(value: str | None) -> str:
    """Only a path inside the workshop app is a place to go after sign-in."""
    if value and value.startswith("/workshop/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/workshop/"


@router.get("/signin", response_class=HTMLResponse)
def signin_form(request: Request, next: str | None = None) -> HTMLResponse:
    """The sign-in page, in the browser's language."""
    locale = browser_locale(request.headers.get("accept-language"))
    return HTMLResponse(
        render(locale, "signin.html", root=root_of(request), next=_safe_next(next), error=None, email="")
    )


@router.post("/signin", response_model=None)
def signin(
    request: Request,
    email: Annotated[str, Form(max_length=254)] = "",
    password: Annotated[str, Form(max_length=1024)] = "",
    next: Annotated[str, Form(max_length=500)] = "/workshop/",
) -> Response:
    """Check email and password, set the session cookie and go to the dashboard."""
    state = state_of(request)
    locale = browser_locale(request.headers.get("accept-language"))
    gettext = translations(locale).gettext
    host = request.client.host if request.client else None
    try:
        # The one sign-in path, throttled as the API's is (docs/security.md, throttles).
        actor = (
            accounts.sign_in(state.store, state.throttle, email, password, host)
            if email and password
            else None
        )
    except accounts.Throttled as exc:
        error = gettext("Too many failed sign-ins; try again in %(seconds)s seconds.") % {
            "seconds": exc.retry_after_s
        }
        return HTMLResponse(
            render(locale, "signin.html", root=root_of(request), next=next, error=error, email=email),
            status_code=429,
            headers={"Retry-After": str(exc.retry_after_s)},
        )
    if actor is None:
        log.info("workshop.auth.login_failed")
        error = gettext("Email or password is wrong.")
        return HTMLResponse(
            render(locale, "signin.html", root=root_of(request), next=next, error=error, email=email),
            status_code=401,
        )
    response = RedirectResponse(_safe_next(next), status_code=303)
    response.set_cookie(
        accounts.SESSION_COOKIE,
        state.signer.dumps(accounts.start_session(state.store, actor, state.signer.max_age_s)),
        max_age=state.signer.max_age_s,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


@router.post("/signout")
def signout(p: PageDep) -> Response:
    """End the session on the server (a copied cookie is refused from now on); htmx follows ``HX-Redirect``
    to the sign-in page."""
    session = getattr(p.request.state, "session", None)
    if session is not None:
        accounts.end_session(p.store, session)
    response = Response(status_code=204, headers={"HX-Redirect": "/workshop/signin"})
    response.delete_cookie(accounts.SESSION_COOKIE, path="/")
    return response


@router.post("/language")
def language(p: PageDep, locale: Annotated[str, Form(max_length=5)]) -> Response:
    """Keep the person's page language and reload the page in it."""
    try:
        records.save_locale(p.store, p.actor, locale)
    except ValueError as error:
        raise PageError(400, str(error), p.locale) from None
    return Response(status_code=204, headers={"HX-Refresh": "true"})
