"""HTTP routes of Toquilla Trace, mounted at /workshop by the main app.

Sign-in (``/auth/*``), the read API for the pages (``/api/*``), and ``POST /functions/v1/apply-proposals``.
Every route that reads or writes records takes the actor from ``deps.current_actor`` (bearer token or signed
session cookie) and works inside the actor's workshop. Errors use the one envelope.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from shopfloor.logs import get_logger, request_id_var
from shopfloor.settings import Settings
from shopfloor.web.errors import ApiError, envelope, install_error_handlers
from shopfloor.web.openapi import error_responses
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent.api import orphan_sweeps
from shopfloor.workshop.agent.api import router as agent_router
from shopfloor.workshop.approvals import ApplyRequest, CardResult, apply_decisions
from shopfloor.workshop.deps import Actor, Admin, StoreDep, WorkshopState, state_of
from shopfloor.workshop.pages import install as install_pages
from shopfloor.workshop.pages.render import error_page
from shopfloor.workshop.spend import router as spend_router
from shopfloor.workshop.store import NotFound, Store, WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow

log = get_logger("shopfloor.workshop.api")


class LoginBody(BaseModel):
    """Sign-in form."""

    model_config = ConfigDict(extra="forbid")
    email: StrictStr = Field(min_length=3, max_length=254)
    password: StrictStr = Field(min_length=1, max_length=1024)


class TokenBody(BaseModel):
    """A new API token's label."""

    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(default="api", min_length=1, max_length=accounts.TOKEN_NAME_MAX)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def actor_json(actor: domain.Actor) -> dict[str, Any]:
    """The public view of an actor."""
    return {
        "user_id": actor.user_id,
        "workshop_id": actor.workshop_id,
        "role": actor.role,
        "name": actor.name,
    }


def weaver_json(row: m.Weaver, open_hats: int | None = None) -> dict[str, Any]:
    """A weaver for the pages."""
    data: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "village": row.village,
        "province": row.province,
        "specialty": row.specialty,
        "archived": row.archived,
    }
    if open_hats is not None:
        data["open_hats"] = open_hats
    return data


def hat_json(
    row: m.Hat, weavers: dict[str, m.Weaver], events: list[m.HatEvent], flags: list[m.HatFlag]
) -> dict[str, Any]:
    """A hat with its weaver, events (oldest first) and open flags."""
    weaver = weavers.get(row.weaver_id or "")
    return {
        "id": row.id,
        "code": row.code,
        "stage": row.stage,
        "grade": row.grade,
        "rows_per_inch": row.rows_per_inch,
        "straw": row.straw,
        "owner_type": row.owner_type,
        "owner_name": row.owner_name,
        "archived": row.archived,
        "version": row.version,
        "created_at": _iso(row.created_at),
        "updated_at": _iso(row.updated_at),
        "weaver": {"id": weaver.id, "name": weaver.name} if weaver else None,
        "events": [
            {
                "type": e.type,
                "from_stage": e.from_stage,
                "to_stage": e.to_stage,
                "actor_id": e.actor_id,
                "proposal_id": e.proposal_id,
                "created_at": _iso(e.created_at),
            }
            for e in events
        ],
        "open_flags": [
            {"id": f.id, "kind": f.kind, "message": f.message, "created_at": _iso(f.created_at)}
            for f in flags
        ],
    }


def proposal_json(row: m.Proposal) -> dict[str, Any]:
    """A proposal card."""
    return {
        "id": row.id,
        "run_id": row.run_id,
        "position": row.position,
        "type": row.type,
        "status": row.status,
        "payload": row.payload,
        "edited_payload": row.edited_payload,
        "why": row.why,
        "quote": row.quote,
        "confidence": row.confidence,
        "rule_result": row.rule_result,
        "decided_by": row.decided_by,
        "decided_at": _iso(row.decided_at),
        "applied": row.applied,
        "created_at": _iso(row.created_at),
    }


def run_json(row: m.AgentRun, steps: bool = False) -> dict[str, Any]:
    """An agent run (with its trace steps when asked)."""
    data: dict[str, Any] = {
        "id": row.id,
        "user_id": row.user_id,
        "agent": row.agent,
        "request_id": row.request_id,
        "input": row.input,
        "input_mode": row.input_mode,
        "hat_code": row.hat_code,
        "model": row.model,
        "status": row.status,
        "summary": row.summary,
        "tokens_in": row.tokens_in,
        "tokens_out": row.tokens_out,
        "latency_ms": row.latency_ms,
        "cost_usd": row.cost_usd,
        "error": row.error,
        "created_at": _iso(row.created_at),
    }
    if steps:
        data["steps"] = row.steps
    return data


def _not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"No {what} in this workshop.")


auth = APIRouter(prefix="/auth")


@auth.post("/login", response_model=None)
def login(body: LoginBody, request: Request, response: Response) -> dict[str, Any] | JSONResponse:
    """Check email and password; set the signed session cookie and return the CSRF token for forms.

    Failures are throttled per email and per client address (docs/security.md, throttles): while a counter
    makes the caller wait, the answer is 429 ``rate_limited`` with ``Retry-After``. An ``Origin``, when sent,
    must be this server's: a foreign one is 403 ``bad_origin`` before any password is checked or counted
    (a script sends none; a foreign page's JSON post also needs a CORS preflight this server never grants).
    """
    if not accounts.same_origin(request.headers.get("origin"), request.url.scheme, request.url.netloc):
        log.info("workshop.auth.login_origin_refused")
        raise ApiError(403, "bad_origin", "Requests from that origin are not accepted.")
    state = state_of(request)
    host = request.client.host if request.client else None
    try:
        actor = accounts.sign_in(state.store, state.throttle, body.email, body.password, host)
    except accounts.Throttled as exc:
        log.info("workshop.auth.login_throttled", extra={"retry_after_s": exc.retry_after_s})
        return envelope(
            429,
            "rate_limited",
            f"Too many failed sign-ins; try again in {exc.retry_after_s} seconds.",
            request_id_var.get(),
            headers={"Retry-After": str(exc.retry_after_s)},
        )
    if actor is None:
        log.info("workshop.auth.login_failed")
        raise ApiError(401, "invalid_credentials", "Email or password is wrong.")
    session = accounts.start_session(state.store, actor, state.signer.max_age_s)
    response.set_cookie(
        accounts.SESSION_COOKIE,
        state.signer.dumps(session),
        max_age=state.signer.max_age_s,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return {"user": actor_json(actor), "csrf_token": session.csrf}


@auth.post("/logout")
def logout(actor: Actor, request: Request, response: Response) -> dict[str, Any]:
    """End the browser session on the server (a copy of the cookie is refused from now on) and clear it."""
    session = getattr(request.state, "session", None)
    if session is not None:
        accounts.end_session(state_of(request).store, session)
    response.delete_cookie(accounts.SESSION_COOKIE, path="/")
    return {"ok": True}


@auth.get("/me")
def me(actor: Actor, request: Request) -> dict[str, Any]:
    """Who is signed in (and the CSRF token of a cookie session)."""
    session = getattr(request.state, "session", None)
    return {"user": actor_json(actor), "csrf_token": session.csrf if session else None}


@auth.post("/tokens")
def new_token(body: TokenBody, actor: Actor, request: Request) -> dict[str, Any]:
    """A new bearer token for the signed-in user: the secret, shown this once, and the token's details."""
    state = state_of(request)
    token, info = accounts.create_token(state.store, actor, body.name, state.settings.token_ttl_days)
    return {"token": token, **info.as_json()}


@auth.get("/tokens")
def list_tokens(
    actor: Actor, store: StoreDep, all: Annotated[bool, Query(alias="all")] = False
) -> dict[str, Any]:
    """The signed-in user's tokens, newest first; ``?all=true`` (admins): every token of the workshop.
    Never the secrets."""
    if all and not actor.is_admin:
        raise ApiError(403, "forbidden", "Only a workshop admin can see everyone's tokens.")
    tokens = accounts.list_tokens(store, actor, everyone=all)
    return {"scope": "workshop" if all else "mine", "tokens": [t.as_json() for t in tokens]}


@auth.post("/tokens/{token_id}/revoke")
def revoke_token(
    token_id: Annotated[str, Path(max_length=40)], actor: Actor, store: StoreDep
) -> dict[str, Any]:
    """Revoke one token: one's own, or (admins) anyone's in the workshop. A token one may not see is 404."""
    try:
        info = accounts.revoke_token(store, actor, token_id)
    except NotFound:
        raise _not_found("such token") from None
    log.info("workshop.auth.token_revoked", extra={"user_id": actor.user_id, "token_id": info.id})
    return {"revoked": info.as_json()}


api = APIRouter(prefix="/api")


@api.get("/hats")
def list_hats(
    actor: Actor,
    store: StoreDep,
    stage: Annotated[domain.Stage | None, Query()] = None,
    weaver_id: Annotated[str | None, Query(max_length=40)] = None,
    code: Annotated[str | None, Query(max_length=20)] = None,
    open_only: bool = False,
) -> dict[str, Any]:
    """Hats of the actor's workshop with events and open flags, filtered by stage, weaver or code."""
    normalized = None
    if code is not None:
        normalized = domain.normalize_code(code)
        if normalized is None:
            raise ApiError(400, "bad_request", "Codes look like TQ-7F3K2.")
    with store.transaction(actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, actor)
        rows = repo.hats(stage=stage, weaver_id=weaver_id, code=normalized, open_only=open_only)
        ids = [r.id for r in rows]
        events = repo.events_for(ids)
        flags: dict[str, list[m.HatFlag]] = {i: [] for i in ids}
        for f in repo.flags(ids):
            flags[f.hat_id].append(f)
        weavers = {w.id: w for w in repo.weavers()}
        return {"hats": [hat_json(r, weavers, events[r.id], flags[r.id]) for r in rows]}


@api.get("/hats/{code}")
def get_hat(code: str, actor: Actor, store: StoreDep) -> dict[str, Any]:
    """One hat with its events, open flags and anomalies."""
    normalized = domain.normalize_code(code)
    if normalized is None:
        raise ApiError(400, "bad_request", "Codes look like TQ-7F3K2.")
    with store.transaction(actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, actor)
        try:
            row = repo.hat_by_code(normalized)
        except NotFound:
            raise _not_found(f"hat {normalized}") from None
        weavers = {w.id: w for w in repo.weavers()}
        data = hat_json(row, weavers, repo.events(row.id), repo.flags([row.id]))
        data["anomalies"] = repo.anomalies(row, utcnow())
        return data


@api.get("/weavers")
def list_weavers(actor: Actor, store: StoreDep) -> dict[str, Any]:
    """Weavers of the actor's workshop with their open hat counts."""
    with store.transaction(actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, actor)
        counts = repo.open_hat_counts()
        return {"weavers": [weaver_json(w, counts.get(w.id, 0)) for w in repo.weavers()]}


@api.get("/proposals")
def list_proposals(
    actor: Actor,
    store: StoreDep,
    run_id: Annotated[str | None, Query(max_length=40)] = None,
    status: Annotated[list[domain.ProposalStatus] | None, Query()] = None,
) -> dict[str, Any]:
    """Proposal cards of the actor's workshop (of one run), newest run first."""
    with store.transaction(actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, actor)
        if run_id is not None:
            try:
                repo.run(run_id)
            except NotFound:
                raise _not_found("such run") from None
        rows = repo.proposals(run_id=run_id, statuses=status)
        return {"proposals": [proposal_json(p) for p in rows]}


@api.get("/runs")
def list_runs(
    actor: Admin, store: StoreDep, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> dict[str, Any]:
    """Agent runs of the workshop, newest first (admins)."""
    with store.transaction(actor.workshop_id, write=False) as s:
        return {"runs": [run_json(r) for r in WorkshopRepo(s, actor).runs(limit=limit)]}


@api.get("/runs/{run_id}")
def get_run(run_id: str, actor: Admin, store: StoreDep) -> dict[str, Any]:
    """One run with its trace steps, proposals and log rows (admins)."""
    with store.transaction(actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, actor)
        try:
            run = repo.run(run_id)
        except NotFound:
            raise _not_found("such run") from None
        data = run_json(run, steps=True)
        data["proposals"] = [proposal_json(p) for p in repo.proposals(run_id=run_id)]
        data["logs"] = [
            {
                "ts": _iso(x.ts),
                "level": x.level,
                "event": x.event,
                "request_id": x.request_id,
                "payload": x.payload,
            }
            for x in repo.logs(run_id=run_id)
        ]
        return data


@api.get("/users")
def list_users(actor: Admin, store: StoreDep) -> dict[str, Any]:
    """Users of the workshop (admins)."""
    with store.transaction(actor.workshop_id, write=False) as s:
        return {
            "users": [
                {"id": p.id, "name": p.name, "email": p.email, "role": p.role, "active": p.active}
                for p in WorkshopRepo(s, actor).profiles()
            ]
        }


functions = APIRouter(prefix="/functions/v1")


@functions.post("/apply-proposals", response_model=None)
def apply_proposals(body: ApplyRequest, actor: Actor, store: StoreDep) -> dict[str, Any] | JSONResponse:
    """Decide proposal cards: approve (with edits or an answer), reject, or answer a question.

    Each decision is its own transaction. The response lists every card's outcome; when no decision took
    effect the whole response carries the (shared) failure status in the error envelope.
    """
    results = apply_decisions(store, actor, body)
    cards = [r.to_dict() for r in results]
    log.info(
        "workshop.proposals.decided",
        extra={"user_id": actor.user_id, "outcomes": [r.outcome for r in results]},
    )
    if any(r.ok for r in results):
        return {"results": cards}
    return _failure(results, cards)


def _failure(results: list[CardResult], cards: list[dict[str, Any]]) -> JSONResponse:
    codes = {r.http_status for r in results}
    status = codes.pop() if len(codes) == 1 else 409
    first = results[0]
    code = first.code or first.outcome
    message = first.message if len(results) == 1 else f"No decision took effect; first: {first.message}"
    return envelope(status, code, message, request_id_var.get(), results=cards)


def create_app(settings: Settings, store: Store | None = None) -> FastAPI:
    """The Toquilla Trace sub-app (the store opens on first use, from ``settings.workshop_db_url()``)."""
    app = FastAPI(title="Toquilla Trace", docs_url=None, redoc_url=None, lifespan=orphan_sweeps)
    app.state.workshop = WorkshopState(settings, store)
    install_error_handlers(app, page=error_page)
    app.include_router(auth, responses=error_responses(401, 403, 429, 503, 507))
    app.include_router(api, responses=error_responses(401, 403, 404, 503, 507))
    app.include_router(functions, responses=error_responses(401, 403, 404, 409, 503, 507))
    app.include_router(agent_router)
    app.include_router(spend_router)
    install_pages(app)
    return app
