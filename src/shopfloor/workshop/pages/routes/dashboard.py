"""The dashboard: the composer, a note sent to the agent, its review panel and cards, and a card's printable
tags (docs/workshop-pages.md)."""

from __future__ import annotations

from datetime import UTC
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.logs import new_request_id, request_id_var
from shopfloor.web.errors import ApiError, BodyError
from shopfloor.web.openapi import answered_as
from shopfloor.workshop import domain
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.provider_choice import choose_provider
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.approvals import ApplyRequest, CardResult, Decision, Fields, apply_decisions
from shopfloor.workshop.deps import state_of
from shopfloor.workshop.pages import views
from shopfloor.workshop.pages.i18n import SPEECH_LANG
from shopfloor.workshop.pages.labels import GRADE_LABELS, OUTCOME_LABELS
from shopfloor.workshop.pages.messages import FIELD_LABELS, Say
from shopfloor.workshop.pages.page import (
    NO_SUCH,
    Page,
    PageDep,
    PageError,
    form_of,
    log,
    run_sync,
    weaver_names,
)
from shopfloor.workshop.pages.tags import Tag, tags_pdf
from shopfloor.workshop.store import NotFound, WorkshopRepo
from shopfloor.workshop.store import models as m

router = APIRouter()


def _run_view(p: Page, run_id: str) -> dict[str, Any]:
    """The run's summary, meta row and cards, read fresh from the store."""
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        run = repo.run(run_id)
        names = weaver_names(repo)
        weavers = [w for w in repo.weavers(include_archived=False)]
        cards = [
            views.card_of(row, names, run.said_at)
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
        "note_max": domain.MAX_NOTE,
        "error": error,
        "speech_lang": SPEECH_LANG[p.locale],
        # What the dictate button says when the browser's speech recognition fails, by its error code.
        "dictation_errors": {
            "not-allowed": p.gettext(
                "The browser may not use the microphone. Allow it in the browser's settings, or type the note."
            ),
            "audio-capture": p.gettext("No microphone was found. Type the note instead."),
            "no-speech": p.gettext("Nothing was heard. Tap Dictate and speak again, closer to the phone."),
            "network": p.gettext(
                "Dictation needs a connection to the internet. Type the note, or try again when online."
            ),
            "other": p.gettext("Dictation stopped. Type the note, or tap Dictate to try again."),
        },
        "steps": [
            p.gettext("Reading your note..."),
            p.gettext("Looking up weaver..."),
            p.gettext("Checking stage rules..."),
            p.gettext("Preparing proposals..."),
        ],
    }


@router.get("/", response_class=HTMLResponse, responses=NO_SUCH)
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
    idempotency_key: Annotated[str, Form(max_length=100)] = "",
    said_at: Annotated[str, Form(max_length=40)] = "",
    author: Annotated[str, Form(max_length=40)] = "",
) -> HTMLResponse:
    """Run the agent on the note (the same run as the API) and answer with the result panel."""
    if author and author != p.actor.user_id:
        # An outbox note of someone else who used this phone: never sent as the person signed in now.
        return _refused(p, p.gettext("This note is not yours."), "other_user")
    body: dict[str, Any] = {"note": note, "input_mode": input_mode}
    if hat_tag.strip():
        body["hat_tag"] = hat_tag.strip()
    # The page's outbox (static/outbox.js) keys every note, so a note sent again makes one run.
    body.update(_delivery(idempotency_key, said_at))
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
        if error.status in (400, 429) or error.code == "idempotency_key_reused":
            return _refused(p, _refusal(p, error, hat_tag), "refused")
        if error.code == "idempotency_in_progress":
            return _refused(p, _refusal(p, error, hat_tag), "busy")
        return p.html(
            "_failed.html",
            error={"code": error.code, "message": error.message},
            run_id=error.extra.get("run_id"),
        )
    result = _run_view(p, str(response["run_id"]))
    html = p.html("_result.html", result=result)
    html.headers["HX-Push-Url"] = f"/workshop/?run={quote(str(response['run_id']))}"
    return _outcome(html, "sent")


@router.get("/notes/{run_id}", response_class=HTMLResponse, responses=NO_SUCH)
def sent_note(p: PageDep, run_id: str) -> HTMLResponse:
    """A note already sent, as ``POST /notes`` answered it (its bubble and review panel, read fresh): the outbox
    shows this way a note the service worker sent while no page was open."""
    try:
        result = _run_view(p, run_id)
    except NotFound:
        raise PageError(404, p.gettext("No such run in this workshop."), p.locale) from None
    return p.html("_result.html", result=result)


def _delivery(idempotency_key: str, said_at: str) -> dict[str, str]:
    """The outbox's fields of a note, as the agent's body takes them (empty ones left out)."""
    fields = {"idempotency_key": idempotency_key.strip(), "said_at": said_at.strip()}
    return {name: value for name, value in fields.items() if value}


def _outcome(html: HTMLResponse, outcome: str) -> HTMLResponse:
    """Tell the outbox what became of a note: ``sent``, ``refused`` (kept with the reason), ``busy`` or
    ``other_user``."""
    html.headers["X-Note-Outcome"] = outcome
    return html


def _refused(p: Page, reason: str, outcome: str) -> HTMLResponse:
    """A note not run now: the composer's error line, and the same sentence in ``X-Note-Reason`` (UTF-8,
    percent-encoded: a header is Latin-1 at best) for the service worker, which has no DOM to read the line
    from (docs/workshop-pages.md, "Offline")."""
    html = _outcome(p.html("_composer_error.html", message=reason), outcome)
    html.headers["X-Note-Reason"] = quote(reason, safe="")
    return html


def _refusal(p: Page, error: ApiError, hat_tag: str) -> str:
    """A run's refusal of the note (by its code) in the page's language; the outbox keeps it beside the note."""
    if error.code == "rate_limited":
        per_hour = state_of(p.request).settings.workshop_rate_limit_per_hour
        return p.ngettext(
            "At most %(n)s note per hour. Try again later.",
            "At most %(n)s notes per hour. Try again later.",
            per_hour,
        ) % {"n": per_hour}
    if error.code == "idempotency_key_reused":
        return p.gettext("This note was already sent as another one.")
    if error.code == "idempotency_in_progress":
        return p.gettext("This note is still being read; it will be sent again in a moment.")
    # A body error names its field: the sentence is chosen by the field, never read from the message.
    field = error.field if isinstance(error, BodyError) else None
    if field == "note":
        return p.gettext("Write a note of 1 to %(max)s characters.") % {"max": domain.MAX_NOTE}
    if field == "hat_tag":
        return p.gettext("A hat tag looks like TQ-7F3K2.")
    if field == "hat":
        code = domain.normalize_code(hat_tag.strip()) or hat_tag.strip()
        return p.gettext("No hat %(code)s in this workshop.") % {"code": code}
    if field == "said_at":
        return p.gettext(
            "The time this note was said is not accepted: more than 30 days ago, or the phone's clock is wrong."
        )
    return p.gettext("This note could not be sent. Check it and try again.")


# --- cards ---------------------------------------------------------------------------------------------------


def _card(p: Page, proposal_id: str) -> tuple[views.Card, list[m.Weaver]]:
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        try:
            row = repo.proposal(proposal_id)
        except NotFound:
            raise PageError(404, p.gettext("No such card in this workshop."), p.locale) from None
        said_at = repo.run(row.run_id).said_at
        return views.card_of(row, weaver_names(repo), said_at), list(repo.weavers(include_archived=False))


def _card_html(
    p: Page, proposal_id: str, result: CardResult | None = None, error: str | None = None
) -> HTMLResponse:
    """A decided card with its outcome, and the panel's heading again (its counts and "approve all pending"
    follow the decision) and the sentence the live region says (docs/workshop-pages.md, "Cards")."""
    card, weavers = _card(p, proposal_id)
    if result is not None:
        _set_outcome(card, result)
    if error is not None:
        card.outcome, card.outcome_message, card.outcome_text = "invalid", error, error
    panel = _run_view(p, card.run_id)
    return p.html("_card.html", card=card, weavers=weavers, panel=panel, announce=_announce(p, [card]))


def _announce(p: Page, cards: list[views.Card]) -> str:
    """What a screen reader hears after a decision: each decided card's outcome, in the page's language."""
    say = Say(p.gettext, p.ngettext)
    said = []
    for card in cards:
        label = p.gettext(OUTCOME_LABELS.get(card.outcome or "", card.outcome or ""))
        detail = (
            ""
            if card.outcome == "rejected"
            else card.outcome_text
            or say.outcome(card.outcome, card.outcome_code, card.outcome_params, card.outcome_rule)
        )
        said.append(f"{label}: {detail}" if detail else label)
    return " ".join(said)


def _set_outcome(card: views.Card, result: CardResult) -> None:
    """The decision on the card: what the page says comes from its code and params (pages/messages.py)."""
    card.outcome, card.outcome_message = result.outcome, result.message
    card.outcome_code, card.outcome_params, card.outcome_rule = result.code, result.params, result.rule_result


@router.get("/cards/{proposal_id}", response_class=HTMLResponse, responses=NO_SUCH)
def card_view(p: PageDep, proposal_id: str, fix: bool = False) -> HTMLResponse:
    """One card; with ``fix``, a blocked card as its rule's fix would make it, ready to approve."""
    card, weavers = _card(p, proposal_id)
    if fix and card.fix:
        card = views.with_fix(card)
    return p.html("_card.html", card=card, weavers=weavers)


@router.post("/cards/{proposal_id}", response_class=HTMLResponse, responses=NO_SUCH)
async def decide(p: PageDep, proposal_id: str, request: Request) -> HTMLResponse:
    """Approve (with edits), reject or answer one card; the card comes back with the outcome on it."""
    form = await form_of(request)
    return await run_sync(_decide, p, proposal_id, form)


def _decide(p: Page, proposal_id: str, form: dict[str, str]) -> HTMLResponse:
    action = form.get("action", "")
    card, _ = _card(p, proposal_id)
    try:
        decision = _decision(proposal_id, action, form, card.type)
    except (ValidationError, ValueError) as error:
        return _card_html(p, proposal_id, error=_plain(p, error))
    [result] = apply_decisions(p.store, p.actor, ApplyRequest(decisions=[decision]))
    log.info("workshop.proposals.decided", extra={"user_id": p.actor.user_id, "outcomes": [result.outcome]})
    return _card_html(p, proposal_id, result)


def _plain(p: Page, error: Exception) -> str:
    """Why a card's form was not accepted, in the page's language: the field (by its label) whose value the
    approvals' ``Fields`` model refused, or an unknown action."""
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        names = [str(x) for x in first.get("loc", ()) if x not in ("edits", "value")]
        field = names[-1] if names else ""
        if field not in FIELD_LABELS:
            return p.gettext("Pick one of the answers, or fill in what the card asks.")
        return p.gettext("%(field)s: this value is not accepted.") % {"field": p.gettext(FIELD_LABELS[field])}
    return p.gettext("This action is not known.")


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


@router.post("/runs/{run_id}/approve-pending", response_class=HTMLResponse, responses=NO_SUCH)
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
            _set_outcome(card, outcomes[card.id])
    decided = [c for c in view["cards"] if c.id in outcomes]
    applied = sum(1 for c in decided if c.outcome == "applied")
    announce = p.ngettext("%(n)s card approved.", "%(n)s cards approved.", applied) % {"n": applied}
    if len(decided) > applied:
        others = len(decided) - applied
        announce += " " + p.ngettext(
            "%(n)s card was not approved; it says why.",
            "%(n)s cards were not approved; each says why.",
            others,
        ) % {"n": others}
    return p.html("_panel.html", result=view, announce=announce)


@router.get(
    "/cards/{proposal_id}/tags.pdf",
    response_model=None,
    response_class=Response,
    responses={**answered_as("application/pdf"), **NO_SUCH},
)
def card_tags(p: PageDep, proposal_id: str) -> Response:
    """The printable tags of the hats an applied create card made (one tag per hat)."""
    card, _ = _card(p, proposal_id)
    if not card.new_codes:
        raise PageError(404, p.gettext("This card made no hats, so there are no tags to print."), p.locale)
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        names = weaver_names(repo)
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
