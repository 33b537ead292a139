"""One's API tokens (admins: everyone's) and the month's model spending (admins) (docs/workshop-pages.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Path, Query
from fastapi.responses import HTMLResponse

from shopfloor.web.errors import ApiError
from shopfloor.workshop import accounts
from shopfloor.workshop.deps import state_of
from shopfloor.workshop.pages import views
from shopfloor.workshop.pages.page import (
    AdminDep,
    Page,
    PageDep,
    PageError,
    log,
)
from shopfloor.workshop.spend import spend as workshop_spend
from shopfloor.workshop.store import NotFound

router = APIRouter()


def _tokens_html(p: Page, error: str | None = None, secret: dict[str, str] | None = None) -> HTMLResponse:
    # An admin sees every token of the workshop (docs/workshop.md, "Accounts"); a member their own.
    everyone = p.actor.is_admin
    tokens = accounts.list_tokens(p.store, p.actor, everyone=everyone)
    template = "tokens.html" if not p.request.headers.get("hx-request") else "_tokens_body.html"
    return p.html(template, tokens=tokens, everyone=everyone, error=error, secret=secret)


@router.get("/tokens", response_class=HTMLResponse)
def tokens_page(p: PageDep) -> HTMLResponse:
    """One's API tokens (admins: everyone's in the workshop), to create and revoke."""
    return _tokens_html(p)


@router.post("/tokens", response_class=HTMLResponse)
def create_token(p: PageDep, name: Annotated[str, Form(max_length=500)] = "") -> HTMLResponse:
    """Create a token for the signed-in person; its secret is on the answer this once."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= accounts.TOKEN_NAME_MAX:
        return _tokens_html(p, error=p.gettext("Give the token a name of 1 to 120 characters."))
    settings = state_of(p.request).settings
    token, info = accounts.create_token(p.store, p.actor, name, settings.token_ttl_days)
    log.info("workshop.auth.token_created", extra={"user_id": p.actor.user_id, "token_id": info.id})
    return _tokens_html(p, secret={"token": token, "name": info.name})


@router.post("/tokens/{token_id}/revoke", response_class=HTMLResponse)
def revoke_token(p: PageDep, token_id: Annotated[str, Path(max_length=40)]) -> HTMLResponse:
    """Revoke one token: one's own, or (admins) anyone's in the workshop."""
    try:
        info = accounts.revoke_token(p.store, p.actor, token_id)
    except NotFound:
        return _tokens_html(p, error=p.gettext("No such token."))
    log.info("workshop.auth.token_revoked", extra={"user_id": p.actor.user_id, "token_id": info.id})
    return _tokens_html(p)


# --- spend (admins) -----------------------------------------------------------------------------------------


@router.get("/spending", response_class=HTMLResponse)
def spend_page(p: AdminDep, month: Annotated[str | None, Query(max_length=7)] = None) -> HTMLResponse:
    """The month's model spend by app, model and day, with the cap and what is left (admins). The figures
    are those of ``GET /workshop/spend``, read by the same function."""
    try:
        body = workshop_spend(p.actor, p.store, p.request, month or None)
    except ApiError as error:
        if error.status != 400:
            raise
        raise PageError(400, p.gettext("A month looks like 2026-05."), p.locale) from None
    return p.html("spend.html", spend=views.spend_view(body), bar_width=views.BAR_WIDTH)
