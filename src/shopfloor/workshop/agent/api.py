"""``POST /functions/v1/workshop-agent``: one note in, proposal cards out.

docs/workshop-agent.md, "Contract", is the request, the response and every error.

The route authenticates with the workshop app's ``deps.current_actor`` (bearer token or session), reads the JSON
body itself so every bad body gets the contract's plain 400 message, and runs the agent in a worker thread while
it watches the connection: a client that goes away sets the abort event and the run ends as ``stopped``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
from anyio.lowlevel import RunVar
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import JSONResponse

from shopfloor.agent.providers.base import Provider
from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.logs import get_logger
from shopfloor.settings import Settings
from shopfloor.web.dependencies import require_json
from shopfloor.web.errors import ApiError
from shopfloor.web.middleware import accept_request_id
from shopfloor.web.openapi import error_responses
from shopfloor.workshop import domain
from shopfloor.workshop.agent.persistence import StoreAgentStore, fail_orphaned_runs
from shopfloor.workshop.agent.provider_choice import choose_provider
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.deps import WorkshopState, current_actor, state_of

router = APIRouter()
log = get_logger("shopfloor.workshop.agent")

# An offline run is pure CPU for a few milliseconds: more threads than cores only queue on the interpreter
# lock and switch between each other, so offline runs take turns on a few threads. Live runs spend seconds
# waiting for a model and use the default thread pool.
LOCAL_RUN_THREADS = 2
_local_runs: RunVar[anyio.CapacityLimiter] = RunVar("shopfloor_local_runs")  # one per event loop


def _provider(settings: Settings) -> Provider | ApiError:
    """The configured model, or the error to answer once the caller is authenticated."""
    try:
        return choose_provider(None, settings)
    except ProviderConfigError as error:
        return ApiError(500, "model_not_configured", str(error))


def _limiter(provider: Provider | ApiError) -> anyio.CapacityLimiter | None:
    """The limiter of offline runs (None: the default thread pool)."""
    if not getattr(provider, "local", False):
        return None
    try:
        return _local_runs.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(LOCAL_RUN_THREADS)
        _local_runs.set(limiter)
        return limiter


def _request_id(request: Request) -> tuple[str, bool]:
    """The request id, and whether the shared middleware already echoes it in the response."""
    known = getattr(request.state, "request_id", None)
    if known:
        return str(known), True
    return accept_request_id(request.headers.get("x-request-id")), False


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: nesting the edge's depth limit did not stop (an app served without it).
        raise ApiError(400, "bad_request", "The body must be JSON.") from None


# The body the route reads itself (validated by `run.validate_body`), as the OpenAPI document shows it.
NOTE_BODY: dict[str, Any] = {
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "title": "AgentNote",
                "type": "object",
                "required": ["note"],
                "additionalProperties": False,
                "properties": {
                    "note": {"type": "string", "minLength": 1, "maxLength": domain.MAX_NOTE},
                    "input_mode": {"type": "string", "enum": ["voice", "typed"], "default": "typed"},
                    "hat_tag": {"type": ["string", "null"], "description": "A hat code like TQ-7F3K2"},
                    "idempotency_key": {
                        "type": "string",
                        "pattern": "^[A-Za-z0-9._:-]{8,80}$",
                        "description": "The same as the Idempotency-Key header: a repeat makes no new run",
                    },
                    "said_at": {
                        "type": "string",
                        "format": "date-time",
                        "description": "When the note was said (it may have waited on the phone)",
                    },
                },
            }
        }
    },
}


@router.post(
    "/functions/v1/workshop-agent",
    dependencies=[Depends(require_json)],
    openapi_extra={"requestBody": NOTE_BODY},
    responses=error_responses(401, 403, 409, 429, 499, 502, 503, 504, 507),
)
async def workshop_agent(request: Request) -> JSONResponse:
    """Turn one note into proposals (nothing is written to the records)."""
    request_id, echoed = _request_id(request)
    request.state.request_id = request_id
    raw = await request.body()
    state = state_of(request)
    abort = threading.Event()
    finished = threading.Event()

    async def watch() -> None:
        # The body is read, so the next ASGI message can only be the disconnect: waiting for it costs nothing,
        # where polling cost every waiting request a cancel scope ten times a second.
        while not finished.is_set():
            if (await request.receive())["type"] == "http.disconnect":
                abort.set()
                return

    provider = _provider(state.settings)

    def work() -> dict[str, Any]:
        # Authentication reads the database, so it runs in the worker thread with the run: the event loop
        # thread only moves bytes.
        actor = current_actor(request)
        if isinstance(provider, ApiError):
            raise provider  # after authentication: a stranger learns nothing about the setup
        return run_agent(
            StoreAgentStore(state.store),
            actor,
            _json(raw),
            provider,
            request_id,
            state.settings.workshop_rate_limit_per_hour,
            abort,
            idempotency_key=request.headers.get("idempotency-key"),
        )

    result: dict[str, Any] = {}
    refused: Exception | None = None
    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        try:
            result = await anyio.to_thread.run_sync(work, limiter=_limiter(provider))
        except Exception as error:
            # Raised outside the group (not wrapped in an exception group), so the app's handlers see it as
            # itself: an ApiError, or a store fault answered 503/507 (shopfloor.web.store_errors).
            refused = error
        finally:
            finished.set()
            group.cancel_scope.cancel()
    if refused is not None:
        raise refused
    if abort.is_set():
        raise ApiError(499, "client_closed_request", "The client went away; the run was stopped.")
    return JSONResponse(result, headers=None if echoed else {"x-request-id": request_id})


def sweep_orphaned_runs(state: WorkshopState) -> int:
    """One sweep of runs a crash left ``running`` (see ``fail_orphaned_runs``); a store that is down is logged
    and tried again at the next sweep."""
    try:
        count = fail_orphaned_runs(state.store)
    except Exception:
        log.warning("agent.runs.sweep_failed", exc_info=True)
        return 0
    if count:
        log.warning("agent.runs.interrupted", extra={"payload": {"runs": count}})
    return count


@asynccontextmanager
async def orphan_sweeps(app: FastAPI) -> AsyncIterator[None]:
    """The workshop app's lifespan: sweep orphaned runs at start-up, then every
    ``SHOPFLOOR_WORKSHOP_ORPHAN_SWEEP_S`` seconds, in a worker thread (docs/security.md, "No half-saved runs")."""
    state: WorkshopState = app.state.workshop

    async def sweeps() -> None:
        while True:
            await anyio.to_thread.run_sync(sweep_orphaned_runs, state)
            await anyio.sleep(state.settings.workshop_orphan_sweep_s)

    async with anyio.create_task_group() as group:
        group.start_soon(sweeps)
        try:
            yield
        finally:
            group.cancel_scope.cancel()
