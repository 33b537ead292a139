"""What every workshop page stands on: the signed-in person and page language (:class:`Page`, the ``PageDep``
and ``AdminDep`` dependencies), the error page and sign-in redirect, and small helpers the route modules share
(docs/workshop-pages.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import anyio.to_thread
from fastapi import Depends, Request
from fastapi.responses import HTMLResponse

from shopfloor.logs import get_logger
from shopfloor.web.errors import ApiError
from shopfloor.web.openapi import Responses, error_responses, page_errors, redirect
from shopfloor.workshop import domain
from shopfloor.workshop.deps import current_actor, state_of
from shopfloor.workshop.pages import records
from shopfloor.workshop.pages.i18n import page_locale, translations
from shopfloor.workshop.pages.render import render
from shopfloor.workshop.store import Store, WorkshopRepo

log = get_logger("shopfloor.workshop.pages")


class PageError(Exception):
    """A page that cannot be shown: rendered as an HTML error page with this status (never a JSON body)."""

    def __init__(self, status: int, message: str, locale: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.locale = locale


class SignInRequired(Exception):
    """No valid session: the browser goes to the sign-in page."""


@dataclass
class Page:
    """The signed-in person, the page language and what every page's header shows."""

    actor: domain.Actor
    locale: str
    csrf: str
    workshop: str
    store: Store
    request: Request

    def html(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render ``template`` for this person."""
        body = render(
            self.locale,
            template,
            root=root_of(self.request),
            actor=self.actor,
            csrf=self.csrf,
            workshop=self.workshop,
            path=self.request.url.path,
            **context,
        )
        return HTMLResponse(body, status_code=status)

    def gettext(self, message: str) -> str:
        """``message`` in the page language."""
        return translations(self.locale).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """``singular`` or ``plural`` in the page's language, as ``n`` asks."""
        return translations(self.locale).ngettext(singular, plural, n)


def page(request: Request) -> Page:
    """FastAPI dependency: the signed-in person for a page (sign-in page when there is none)."""
    try:
        actor = current_actor(request)
    except ApiError as error:
        if error.status == 401:
            raise SignInRequired() from None
        raise PageError(error.status, error.message) from None
    session = getattr(request.state, "session", None)
    if session is None:  # a bearer token is for scripts; pages are for a browser session
        raise SignInRequired()
    store: Store = state_of(request).store
    saved, workshop = records.header_facts(store, actor)
    locale = page_locale(saved, actor.role, request.headers.get("accept-language"))
    return Page(actor, locale, session.csrf, workshop, store, request)


def admin_page(p: Annotated[Page, Depends(page)]) -> Page:
    """FastAPI dependency: the signed-in admin (a 403 page for a member)."""
    if not p.actor.is_admin:
        raise PageError(403, p.gettext("Only a workshop admin can see this page."), p.locale)
    return p


PageDep = Annotated[Page, Depends(page)]
AdminDep = Annotated[Page, Depends(admin_page)]

SIGNED_IN: Responses = {
    **redirect("No session (a bearer token is not one): to the sign-in page, `next` naming this page"),
    **error_responses(
        401,
        503,
        507,
        meanings={401: "No session, asked by htmx (`unauthorized`): `HX-Redirect` names the sign-in page"},
    ),
    **page_errors(
        403,
        meanings={403: "A form without the session's CSRF token, or a page for admins only (an error page)"},
    ),
}
"""What every route on ``PageDep`` or ``AdminDep`` may answer besides its own (its OpenAPI ``responses=``)."""
NO_SUCH = page_errors(404, meanings={404: "No such row in this workshop (an error page)"})
"""The error page of a route that names a row the workshop does not have."""


def root_of(request: Request) -> str:
    """Where the workshop app is mounted ("/workshop"), as the request says: every page link starts there."""
    return str(request.scope.get("root_path", ""))


def weaver_names(repo: WorkshopRepo) -> dict[str, str]:
    """Every weaver's name by id, archived ones included (old cards and hats still name them)."""
    return {w.id: w.name for w in repo.weavers()}


async def form_of(request: Request) -> dict[str, str]:
    """The request's form fields as strings."""
    return {k: str(v) for k, v in (await request.form()).items()}


async def run_sync(fn: Callable[..., HTMLResponse], *args: Any) -> HTMLResponse:
    """Run a route's store work in a worker thread (the route itself had to await the form)."""
    return await anyio.to_thread.run_sync(lambda: fn(*args))
