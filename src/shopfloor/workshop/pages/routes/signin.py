"""Sign-in, sign-out and the page language (docs/workshop-pages.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shopfloor.web.middleware import PRIVATE_REVALIDATED
from shopfloor.web.openapi import error_responses, page_errors, redirect
from shopfloor.workshop import accounts
from shopfloor.workshop.deps import state_of
from shopfloor.workshop.pages import records
from shopfloor.workshop.pages.i18n import browser_locale, translations
from shopfloor.workshop.pages.page import (
    SIGNED_IN,
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


def _form(
    request: Request, locale: str, status: int, next: str, error: str | None, email: str
) -> HTMLResponse:
    """The sign-in page with its form token, also kept in the sign-in cookie (docs/security.md, sessions)."""
    signer = state_of(request).signer
    token = signer.signin_token(request.cookies.get(accounts.SIGNIN_COOKIE))
    response = HTMLResponse(
        render(
            locale,
            "signin.html",
            root=root_of(request),
            next=next,
            error=error,
            email=email,
            signin_token=token,
        ),
        status_code=status,
    )
    response.set_cookie(
        accounts.SIGNIN_COOKIE,
        token,
        max_age=signer.max_age_s,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path=f"{root_of(request)}/signin",
    )
    return response


@router.get("/signin", response_class=HTMLResponse)
def signin_form(request: Request, next: str | None = None) -> HTMLResponse:
    """The sign-in page, in the browser's language."""
    locale = browser_locale(request.headers.get("accept-language"))
    response = _form(request, locale, 200, _safe_next(next), None, "")
    # Not no-store: see PRIVATE_REVALIDATED (the service worker keeps this page while the sign-in post leaves
    # it). The answers that set the session, or echo a typed email, stay no-store.
    response.headers["Cache-Control"] = PRIVATE_REVALIDATED.decode()
    return response


@router.post(
    "/signin",
    response_model=None,
    response_class=RedirectResponse,
    status_code=303,
    responses={
        **redirect("Signed in: to `next` (a page of this app), with the session cookie"),
        **page_errors(
            401,
            403,
            429,
            meanings={
                401: "Email or password is wrong: the form again, saying so",
                403: "A post from another site, or without the form's token: the form again (login CSRF)",
                429: "Too many failed sign-ins: the form again, saying when to try (`Retry-After`)",
            },
        ),
        **error_responses(503, 507),
    },
)
def signin(
    request: Request,
    email: Annotated[str, Form(max_length=254)] = "",
    password: Annotated[str, Form(max_length=1024)] = "",
    next: Annotated[str, Form(max_length=500)] = "/workshop/",
    signin_token: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """Check the form's token and origin, then email and password; set the session cookie and go to the
    dashboard.

    A post from another site (a foreign ``Origin``, or without the token this server put in the form and the
    sign-in cookie) is refused with 403 before any password is checked or counted: otherwise a foreign page
    could sign the browser into the attacker's account (login CSRF)."""
    state = state_of(request)
    locale = browser_locale(request.headers.get("accept-language"))
    gettext = translations(locale).gettext
    origin_ok = accounts.same_origin(request.headers.get("origin"), request.url.scheme, request.url.netloc)
    if not origin_ok or not state.signer.signin_allowed(
        request.cookies.get(accounts.SIGNIN_COOKIE), signin_token
    ):
        log.info("workshop.auth.login_csrf_refused", extra={"origin_ok": origin_ok})
        error = gettext("The form is out of date; reload the page and try again.")
        return _form(request, locale, 403, _safe_next(next), error, "")
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
        throttled = _form(request, locale, 429, _safe_next(next), error, email)
        throttled.headers["Retry-After"] = str(exc.retry_after_s)
        return throttled
    if actor is None:
        log.info("workshop.auth.login_failed")
        error = gettext("Email or password is wrong.")
        return _form(request, locale, 401, _safe_next(next), error, email)
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
    response.delete_cookie(accounts.SIGNIN_COOKIE, path=f"{root_of(request)}/signin")
    return response


@router.post("/signout", status_code=204, response_class=Response, responses=SIGNED_IN)
def signout(p: PageDep) -> Response:
    """End the session on the server (a copied cookie is refused from now on); htmx follows ``HX-Redirect``
    to the sign-in page."""
    session = getattr(p.request.state, "session", None)
    if session is not None:
        accounts.end_session(p.store, session)
    response = Response(status_code=204, headers={"HX-Redirect": "/workshop/signin"})
    response.delete_cookie(accounts.SESSION_COOKIE, path="/")
    return response


@router.post("/language", status_code=204, response_class=Response, responses=SIGNED_IN)
def language(p: PageDep, locale: Annotated[str, Form(max_length=5)]) -> Response:
    """Keep the person's page language and reload the page in it."""
    try:
        records.save_locale(p.store, p.actor, locale)
    except ValueError as error:
        raise PageError(400, str(error), p.locale) from None
    return Response(status_code=204, headers={"HX-Refresh": "true"})
