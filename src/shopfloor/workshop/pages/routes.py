"""The workshop's pages: sign-in, the dashboard (composer and review panel), records, weavers, tags, runs.

Server-rendered with Jinja2; htmx (vendored) swaps the server's HTML for a card or a panel. Every page calls
the code the API calls: the agent run (``run_agent``), the approvals (``apply_decisions``), the repository.
Cookie-authenticated POSTs carry the session's CSRF token in ``x-csrf-token`` (htmx sends it from the body's
``hx-headers``), checked by the same ``current_actor`` as the API. See docs/workshop-pages.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import quote

import anyio.to_thread
from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.logs import get_logger, new_request_id, request_id_var
from shopfloor.web.errors import ApiError
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.provider_choice import choose_provider
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.approvals import ApplyRequest, CardResult, Decision, Fields, apply_decisions
from shopfloor.workshop.deps import current_actor, state_of
from shopfloor.workshop.pages import records, views
from shopfloor.workshop.pages.i18n import SPEECH_LANG, browser_locale, page_locale, translations
from shopfloor.workshop.pages.labels import GRADE_LABELS
from shopfloor.workshop.pages.render import render
from shopfloor.workshop.pages.tags import Tag, tags_pdf
from shopfloor.workshop.spend import spend as workshop_spend
from shopfloor.workshop.store import NotFound, Store, WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow

log = get_logger("shopfloor.workshop.pages")
router = APIRouter()
NOTE_MAX = 1000


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


# --- sign-in -------------------------------------------------------------------------------------------------


def _safe_next(value: str | None) -> str:
    """Only a path inside the workshop app is a place to go after sign-in."""
    if value and value.startswith("/workshop/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/workshop/"


@router.get("/signin", response_class=HTMLResponse)
def signin_form(request: Request, next: str | None = None) -> HTMLResponse:
    """The sign-in page, in the browser's language."""
    locale = browser_locale(request.headers.get("accept-language"))
    return HTMLResponse(render(locale, "signin.html", next=_safe_next(next), error=None, email=""))


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
            render(locale, "signin.html", next=next, error=error, email=email),
            status_code=429,
            headers={"Retry-After": str(exc.retry_after_s)},
        )
    if actor is None:
        log.info("workshop.auth.login_failed")
        error = gettext("Email or password is wrong.")
        return HTMLResponse(
            render(locale, "signin.html", next=next, error=error, email=email), status_code=401
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


# --- dashboard -----------------------------------------------------------------------------------------------


def _weaver_names(repo: WorkshopRepo) -> dict[str, str]:
    return {w.id: w.name for w in repo.weavers()}


def _run_view(p: Page, run_id: str) -> dict[str, Any]:
    """The run's summary, meta row and cards, read fresh from the store."""
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        run = repo.run(run_id)
        names = _weaver_names(repo)
        weavers = [w for w in repo.weavers(include_archived=False)]
        cards = [
            views.card_of(row, names)
            for row in sorted(repo.proposals(run_id=run_id), key=lambda r: r.position)
        ]
        tool_calls = sum(1 for step in run.steps or [] if step.get("kind") == "tool_call")
        return {
            "run": run,
            "cards": cards,
            "weavers": weavers,
            "meta": {
                "tool_calls": tool_calls,
                "latency_ms": run.latency_ms,
                "tokens_in": run.tokens_in,
                "tokens_out": run.tokens_out,
                "cost_usd": run.cost_usd,
            },
        }


def _composer(p: Page, note: str = "", error: str | None = None) -> dict[str, Any]:
    return {
        "note": note,
        "note_max": NOTE_MAX,
        "error": error,
        "speech_lang": SPEECH_LANG[p.locale],
        "steps": [
            p.gettext("Reading your note..."),
            p.gettext("Looking up weaver..."),
            p.gettext("Checking stage rules..."),
            p.gettext("Preparing proposals..."),
        ],
    }


@router.get("/", response_class=HTMLResponse)
def dashboard(p: PageDep, run: Annotated[str | None, Query(max_length=40)] = None) -> HTMLResponse:
    """The composer and, when a run is named (or the person has one), its review panel."""
    result = None
    run_id = run
    if run_id is None:
        with p.store.transaction(p.actor.workshop_id, write=False) as s:
            latest = WorkshopRepo(s, p.actor).runs(limit=1, user_id=p.actor.user_id)
            run_id = latest[0].id if latest else None
    if run_id is not None:
        try:
            result = _run_view(p, run_id)
        except NotFound:
            raise PageError(404, p.gettext("No such run in this workshop."), p.locale) from None
    return p.html("dashboard.html", composer=_composer(p), result=result)


@router.post("/notes", response_class=HTMLResponse)
def send_note(
    p: PageDep,
    note: Annotated[str, Form(max_length=4000)] = "",
    input_mode: Annotated[str, Form(max_length=10)] = "typed",
    hat_tag: Annotated[str, Form(max_length=40)] = "",
) -> HTMLResponse:
    """Run the agent on the note (the same run as the API) and answer with the result panel."""
    body: dict[str, Any] = {"note": note, "input_mode": input_mode}
    if hat_tag.strip():
        body["hat_tag"] = hat_tag.strip()
    state = state_of(p.request)
    request_id = getattr(p.request.state, "request_id", None) or request_id_var.get() or new_request_id()
    try:
        provider = choose_provider(None, state.settings)
        response = run_agent(
            StoreAgentStore(p.store),
            p.actor,
            body,
            provider,
            request_id,
            state.settings.workshop_rate_limit_per_hour,
            # The offline reader writes its summary in the page's language (docs/workshop-agent.md).
            language="es" if p.locale == "es" else "en",
        )
    except ProviderConfigError as error:
        return p.html(
            "_failed.html", error={"code": "model_not_configured", "message": str(error)}, run_id=None
        )
    except ApiError as error:
        if error.status in (400, 429):
            return p.html("_composer_error.html", message=error.message)
        return p.html(
            "_failed.html",
            error={"code": error.code, "message": error.message},
            run_id=error.extra.get("run_id"),
        )
    result = _run_view(p, str(response["run_id"]))
    html = p.html("_result.html", result=result)
    html.headers["HX-Push-Url"] = f"/workshop/?run={quote(str(response['run_id']))}"
    return html


# --- cards ---------------------------------------------------------------------------------------------------


def _card(p: Page, proposal_id: str) -> tuple[views.Card, list[m.Weaver]]:
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        try:
            row = repo.proposal(proposal_id)
        except NotFound:
            raise PageError(404, p.gettext("No such card in this workshop."), p.locale) from None
        return views.card_of(row, _weaver_names(repo)), list(repo.weavers(include_archived=False))


def _card_html(
    p: Page, proposal_id: str, result: CardResult | None = None, error: str | None = None
) -> HTMLResponse:
    card, weavers = _card(p, proposal_id)
    if result is not None:
        card.outcome, card.outcome_message = result.outcome, result.message
    if error is not None:
        card.outcome, card.outcome_message = "invalid", error
    return p.html("_card.html", card=card, weavers=weavers)


@router.get("/cards/{proposal_id}", response_class=HTMLResponse)
def card_view(p: PageDep, proposal_id: str, fix: bool = False) -> HTMLResponse:
    """One card; with ``fix``, a blocked card as its rule's fix would make it, ready to approve."""
    card, weavers = _card(p, proposal_id)
    if fix and card.fix:
        card = views.with_fix(card)
    return p.html("_card.html", card=card, weavers=weavers)


@router.post("/cards/{proposal_id}", response_class=HTMLResponse)
async def decide(p: PageDep, proposal_id: str, request: Request) -> HTMLResponse:
    """Approve (with edits), reject or answer one card; the card comes back with the outcome on it."""
    form = {k: str(v) for k, v in (await request.form()).items()}
    return await _run_sync(_decide, p, proposal_id, form)


async def _run_sync(fn: Callable[..., HTMLResponse], *args: Any) -> HTMLResponse:
    """Run a route's store work in a worker thread (the route itself had to await the form)."""
    return await anyio.to_thread.run_sync(lambda: fn(*args))


def _decide(p: Page, proposal_id: str, form: dict[str, str]) -> HTMLResponse:
    action = form.get("action", "")
    card, _ = _card(p, proposal_id)
    try:
        decision = _decision(proposal_id, action, form, card.type)
    except (ValidationError, ValueError) as error:
        return _card_html(p, proposal_id, error=_plain(error))
    [result] = apply_decisions(p.store, p.actor, ApplyRequest(decisions=[decision]))
    log.info("workshop.proposals.decided", extra={"user_id": p.actor.user_id, "outcomes": [result.outcome]})
    return _card_html(p, proposal_id, result)


def _plain(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()) if x not in ("edits", "value"))
        return f"{where}: {first.get('msg', 'invalid')}"
    return str(error)


def _decision(proposal_id: str, action: str, form: dict[str, str], kind: str) -> Decision:
    """The approvals' decision for a card form (the same model the API validates)."""
    if action == "reject":
        return Decision(proposal_id=proposal_id, action="reject", reason=form.get("reason") or None)
    if action == "answer":
        choice = form.get("choice")
        values = views.edit_values(form, kind)
        # "Someone else" (or "another hat"): a weaver or hat the card did not offer, named on purpose.
        other = form.get("other") == "1"
        return Decision(
            proposal_id=proposal_id,
            action="answer",
            choice=None if other or choice is None or not choice.isdigit() else int(choice),
            other=other,
            value=Fields.model_validate(values) if values else None,
        )
    if action in ("approve", "edit"):
        edits = views.edit_values(form, kind)
        return Decision(
            proposal_id=proposal_id, action="approve", edits=Fields.model_validate(edits) if edits else None
        )
    raise ValueError(f"Unknown action {action!r}.")


@router.post("/runs/{run_id}/approve-pending", response_class=HTMLResponse)
def approve_pending(p: PageDep, run_id: str) -> HTMLResponse:
    """Approve every pending card of the run; the panel comes back with each card's outcome."""
    try:
        view = _run_view(p, run_id)
    except NotFound:
        raise PageError(404, p.gettext("No such run in this workshop."), p.locale) from None
    pending = [c.id for c in view["cards"] if c.status == "pending"]
    outcomes: dict[str, CardResult] = {}
    if pending:
        decisions = [Decision(proposal_id=pid, action="approve") for pid in pending]
        outcomes = {
            r.proposal_id: r for r in apply_decisions(p.store, p.actor, ApplyRequest(decisions=decisions))
        }
    view = _run_view(p, run_id)
    for card in view["cards"]:
        if card.id in outcomes:
            card.outcome, card.outcome_message = outcomes[card.id].outcome, outcomes[card.id].message
    return p.html("_panel.html", result=view)


@router.get("/cards/{proposal_id}/tags.pdf", response_model=None)
def card_tags(p: PageDep, proposal_id: str) -> Response:
    """The printable tags of the hats an applied create card made (one tag per hat)."""
    card, _ = _card(p, proposal_id)
    if not card.new_codes:
        raise PageError(404, p.gettext("This card made no hats, so there are no tags to print."), p.locale)
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        names = _weaver_names(repo)
        hats = repo.hats(codes=card.new_codes)
    tags = [
        Tag(
            code=h.code,
            weaver=names.get(h.weaver_id or "", "—"),
            grade=p.gettext(GRADE_LABELS.get(h.grade, h.grade)),
            rows=str(h.rows_per_inch),
            day=h.created_at.astimezone(UTC).date(),
        )
        for h in hats
    ]
    labels = {
        "weaver": p.gettext("Weaver"),
        "grade": p.gettext("Grade"),
        "rows": p.gettext("Rows per inch"),
        "date": p.gettext("Date"),
    }
    pdf = tags_pdf(tags, p.gettext("Hat tags"), labels)
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"content-disposition": f'inline; filename="tags-{proposal_id}.pdf"'},
    )


# --- records -------------------------------------------------------------------------------------------------


@router.get("/hats", response_class=HTMLResponse)
def hats_page(
    p: PageDep,
    stage: Annotated[str, Query(max_length=12)] = "",
    weaver: Annotated[str, Query(max_length=40)] = "",
    grade: Annotated[str, Query(max_length=12)] = "",
    flagged: bool = False,
    q: Annotated[str, Query(max_length=20)] = "",
) -> HTMLResponse:
    """Hats with filters (stage, weaver, grade, open flags) and search by code."""
    error = None
    code = None
    if q.strip():
        code = domain.normalize_code(q)
        if code is None:
            error = p.gettext("Codes look like TQ-7F3K2.")
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        weavers = repo.weavers()
        rows = (
            []
            if error
            else repo.hat_list(
                stage=stage if domain.is_stage(stage) else None,
                weaver_id=weaver or None,
                grade=grade if grade in domain.GRADES else None,
                code=code,
                flagged=flagged,
            )
        )
        open_flags = repo.open_flag_counts()
        names = {w.id: w.name for w in weavers}
        return p.html(
            "hats.html",
            hats=rows,
            names=names,
            open_flags=open_flags,
            weavers=weavers,
            filters={"stage": stage, "weaver": weaver, "grade": grade, "flagged": flagged, "q": q},
            stages=domain.STAGES,
            grades=domain.GRADES,
            error=error,
        )


def _hat_context(p: Page, code: str) -> dict[str, Any]:
    normalized = domain.normalize_code(code)
    if normalized is None:
        raise PageError(404, p.gettext("Codes look like TQ-7F3K2."), p.locale)
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        try:
            hat = repo.hat_by_code(normalized)
        except NotFound:
            raise PageError(404, p.gettext("No such hat in this workshop."), p.locale) from None
        names = _weaver_names(repo)
        events = repo.events(hat.id, newest_first=True)
        proposals = [views.card_of(row, names) for row in repo.proposals_about_hat(hat.id, hat.code)]
        return {
            "hat": hat,
            "weaver_name": names.get(hat.weaver_id or ""),
            "stepper": views.hat_stepper(hat.stage),
            "events": events,
            "delivered": {e.id for e in events if views.delivered_woven(e.type, e.from_stage)},
            "flags": repo.flags([hat.id]),
            "anomalies": repo.anomalies(hat, utcnow()),
            "proposals": proposals,
            "names": {pr.id: pr.name for pr in repo.profiles()},
        }


@router.get("/hats/{code}", response_class=HTMLResponse)
def hat_page(p: PageDep, code: str) -> HTMLResponse:
    """One hat: stage stepper, events, flags (to resolve) and the cards that touched it."""
    return p.html("hat.html", **_hat_context(p, code), error=None)


@router.post("/hats/{code}/flags/{flag_id}/resolve", response_class=HTMLResponse)
def resolve_flag(
    p: PageDep, code: str, flag_id: str, note: Annotated[str, Form(max_length=1000)] = ""
) -> HTMLResponse:
    """Resolve an open flag with the person's note; the hat page comes back."""
    error = None
    try:
        records.resolve_flag(p.store, p.actor, domain.normalize_code(code) or code, flag_id, note)
    except ValueError as e:
        error = (
            p.gettext("Say in 1 to 200 characters how the problem was resolved.")
            if "200" in str(e)
            else str(e)
        )
    except NotFound:
        error = p.gettext("This flag is no longer open.")
    return p.html("_hat_body.html", **_hat_context(p, code), error=error)


@router.get("/weavers", response_class=HTMLResponse)
def weavers_page(p: PageDep, error: str | None = None) -> HTMLResponse:
    """Weavers with their open hats; admins add, edit and archive them here."""
    return p.html("weavers.html", **_weavers_context(p), error=None, grades=domain.GRADES)


def _weavers_context(p: Page) -> dict[str, Any]:
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        weavers = repo.weavers()
        open_hats: dict[str, list[str]] = {w.id: [] for w in weavers}
        for h in repo.hats(open_only=True):
            if h.weaver_id in open_hats:
                open_hats[h.weaver_id].append(h.code)
        return {"weavers": weavers, "open_hats": open_hats}


def _weaver_form(form: dict[str, str]) -> records.WeaverForm:
    return records.WeaverForm(
        name=form.get("name", ""),
        village=form.get("village", ""),
        province=form.get("province", ""),
        specialty=form.get("specialty") or None,
    )


@router.post("/weavers", response_class=HTMLResponse)
async def add_weaver(p: AdminDep, request: Request) -> HTMLResponse:
    """Add a weaver (admins)."""
    form = {k: str(v) for k, v in (await request.form()).items()}
    return await _run_sync(_weaver_change, p, None, form)


@router.post("/weavers/{weaver_id}", response_class=HTMLResponse)
async def change_weaver(p: AdminDep, weaver_id: str, request: Request) -> HTMLResponse:
    """Edit or archive a weaver (admins)."""
    form = {k: str(v) for k, v in (await request.form()).items()}
    return await _run_sync(_weaver_change, p, weaver_id, form)


def _weaver_change(p: Page, weaver_id: str | None, form: dict[str, str]) -> HTMLResponse:
    error = None
    try:
        if weaver_id is None:
            records.add_weaver(p.store, p.actor, _weaver_form(form))
        else:
            records.edit_weaver(p.store, p.actor, weaver_id, _weaver_form(form), form.get("archived") == "on")
    except ValueError as e:
        error = str(e)
    except NotFound:
        error = p.gettext("No such weaver in this workshop.")
    return p.html("_weavers_body.html", **_weavers_context(p), error=error, grades=domain.GRADES)


# --- API tokens --------------------------------------------------------------------------------------------


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
    if not 1 <= len(name) <= 120:
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


# --- runs (admins) -------------------------------------------------------------------------------------------


@router.get("/runs", response_class=HTMLResponse)
def runs_page(
    p: AdminDep,
    status: Annotated[str, Query(max_length=20)] = "",
    user: Annotated[str, Query(max_length=40)] = "",
) -> HTMLResponse:
    """Agent runs, newest first, with status and user filters (admins)."""
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        runs = repo.runs_where(limit=200, user_id=user or None, status=status or None)
        counts = repo.proposal_counts([r.id for r in runs])
        users = {pr.id: pr.name for pr in repo.profiles()}
        return p.html(
            "runs.html",
            runs=runs,
            counts=counts,
            users=users,
            filters={"status": status, "user": user},
            statuses=m.RUN_STATUSES,
        )


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(p: AdminDep, run_id: str) -> HTMLResponse:
    """One run's numbered timeline: model calls, tool calls, rule checks, proposals, errors (admins)."""
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        try:
            run = repo.run(run_id)
        except NotFound:
            raise PageError(404, p.gettext("No such run in this workshop."), p.locale) from None
        users = {pr.id: pr.name for pr in repo.profiles()}
        return p.html(
            "run.html",
            run=run,
            user_name=users.get(run.user_id, run.user_id),
            steps=views.timeline(list(run.steps or [])),
            started=run.created_at.astimezone(UTC) if isinstance(run.created_at, datetime) else None,
        )
