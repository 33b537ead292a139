"""One workshop-agent run, step by step, shared by the HTTP route and the CLI (docs/workshop-agent.md, "One run").

Validate, rate-limit, insert the run row first (a crash still leaves a trace), run the bounded loop, map the
loop's outcome to a run status, and save the run with its proposals in one transaction. A failed or stopped
run saves no proposals; the ``finally`` block marks a run that crashed as failed. Every event is logged as a
JSON line and as an ``app_logs`` row with the same request id.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from shopfloor.agent.budget import Budget
from shopfloor.agent.loop import LoopLimits, LoopOutcome, Outcome, run_loop
from shopfloor.agent.providers.base import Provider
from shopfloor.agent.trace import Trace
from shopfloor.logs import get_logger
from shopfloor.web.errors import ApiError, BodyError
from shopfloor.workshop import domain
from shopfloor.workshop.agent.context import BufferedProposal, RunContext, SeenHat, WorkshopReads
from shopfloor.workshop.agent.prompt import (
    SYSTEM_PROMPT,
    Language,
    ReadsUserMessage,
    UserMessage,
    build_user_message,
)
from shopfloor.workshop.agent.tools import REGISTRY
from shopfloor.workshop.domain import Actor, Hat
from shopfloor.workshop.spend import run_budget

SOURCE = "edge:workshop-agent"
AGENT = "workshop"
# The run's bounds on the core loop (docs/workshop-agent.md, "One run", step 5).
LIMITS = LoopLimits(max_iterations=6, max_tokens=8000, call_timeout_s=25, run_budget_s=45)
# A run still `running` this long after it started has no process left to finish it (the server was killed
# mid-run): the run budget plus a margin for the final save, which may wait for the store
# (docs/security.md, "No half-saved runs"). Such a run becomes `failed` with this error and stops counting
# toward the hourly limit.
ORPHANED_AFTER = timedelta(seconds=LIMITS.run_budget_s + 75)
INTERRUPTED: dict[str, Any] = {
    "type": "interrupted",
    "message": "The server stopped during the run; nothing was saved.",
}

log = get_logger("shopfloor.workshop.agent")

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warn": logging.WARNING, "error": logging.ERROR}


def fallback_summary(count: int) -> str:
    """The code-written summary used when the model did not finish (docs/workshop-agent.md, "One run")."""
    return (
        f"I prepared {count} actions for you to review. I could not finish reading the whole note, "
        "so please check it."
    )


@dataclass(frozen=True)
class LogRow:
    """One ``app_logs`` row."""

    ts: datetime
    level: str
    event: str
    request_id: str
    user_id: str | None
    workshop_id: str | None
    run_id: str | None
    payload: dict[str, Any]
    source: str = SOURCE


@dataclass(frozen=True)
class RunRow:
    """What the run row starts with (status ``running``)."""

    run_id: str
    actor: Actor
    note: str
    input_mode: str
    hat_code: str | None
    request_id: str
    model: str
    created_at: datetime
    idempotency_key: str | None = None
    said_at: datetime | None = None


@dataclass(frozen=True)
class KeyedRun:
    """The run an idempotency key already names in the workshop (docs/workshop.md, "Idempotency keys")."""

    run_id: str
    user_id: str
    status: str
    note: str
    input_mode: str
    hat_code: str | None
    response: dict[str, Any] | None


@dataclass(frozen=True)
class RunResult:
    """What ``save_agent_run`` writes over the run row."""

    run_id: str
    status: str
    summary: str | None
    steps: list[dict[str, Any]]
    proposals: list[BufferedProposal]
    tokens_in: int
    tokens_out: int
    latency_ms: int
    cost_usd: float | None
    model: str | None
    error: dict[str, Any] | None
    # For a run sent with an idempotency key: the proposals' ids, chosen before the save, and the answer a
    # repeat of the key gets, saved in the same transaction as the run.
    proposal_ids: tuple[str, ...] = ()
    response: dict[str, Any] | None = None


class AgentStore(Protocol):
    """The persistence the agent needs: its own rows only (runs, proposals, logs) and read-only records."""

    def reads(self, actor: Actor) -> WorkshopReads:
        """A read-only view of the actor's workshop."""
        ...

    def insert_run(self, row: RunRow, logs: list[LogRow], limit: int, window: timedelta) -> bool | KeyedRun:
        """In ONE write transaction: count the user's workshop runs within ``window`` in the database and, when
        fewer than ``limit``, insert the run row (status running) and its first log rows. False (and nothing
        written) when the limit is reached; counting and inserting together means two requests of one user
        can never both take the last slot. A row with an idempotency key that a ``running`` or ``proposed``
        run of the workshop already holds inserts nothing and returns that run (before any counting); a
        ``failed`` or ``stopped`` run, which saved nothing, gives its key up to the new row."""
        ...

    def save_agent_run(self, actor: Actor, result: RunResult, logs: list[LogRow]) -> list[str]:
        """In ONE transaction: update the run row, insert its proposals and logs; returns proposal ids."""
        ...

    def write_logs(self, actor: Actor, logs: list[LogRow]) -> None:
        """Insert log rows (validation and rate-limit errors have no run)."""
        ...


@dataclass
class RunLogger:
    """Logs one run's events as JSON lines at once and buffers the ``app_logs`` rows for the final save."""

    request_id: str
    actor: Actor | None
    run_id: str | None = None
    rows: list[LogRow] = field(default_factory=list)

    def __call__(self, event: str, level: str, payload: dict[str, Any]) -> None:
        row = self.row(event, level, payload)
        self.echo(row)
        self.rows.append(row)

    def row(self, event: str, level: str, payload: dict[str, Any]) -> LogRow:
        """The ``app_logs`` row of an event, neither logged nor buffered yet."""
        user_id = self.actor.user_id if self.actor else None
        workshop_id = self.actor.workshop_id if self.actor else None
        return LogRow(
            datetime.now(UTC), level, event, self.request_id, user_id, workshop_id, self.run_id, payload
        )

    def echo(self, row: LogRow) -> None:
        """The JSON line of a row."""
        extra = {
            "source": row.source,
            "request_id": row.request_id,
            "user_id": row.user_id,
            "workshop_id": row.workshop_id,
            "run_id": row.run_id,
            "payload": row.payload,
        }
        log.log(_LEVELS.get(row.level, logging.INFO), row.event, extra=extra)

    def take(self) -> list[LogRow]:
        """The buffered rows (the buffer is emptied)."""
        rows, self.rows = self.rows, []
        return rows


def validate_body(body: Any) -> UserMessage:
    """The request body checked as the contract says (docs/workshop-agent.md, "Contract"), as the run's first
    user message; raises a 400 ``ApiError`` with a plain message (a ``BodyError`` naming the field when one
    field is wrong)."""
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "The body must be a JSON object with a note.")
    unknown = sorted(set(body) - {"note", "input_mode", "hat_tag", "idempotency_key", "said_at"})
    if unknown:
        raise ApiError(400, "bad_request", f"Unknown field(s): {', '.join(unknown)}.")
    note = body.get("note")
    if not isinstance(note, str):
        raise BodyError("note", "note must be a string.")
    note = note.strip()
    if not 1 <= len(note) <= domain.MAX_NOTE:
        raise BodyError("note", f"note must be 1 to {domain.MAX_NOTE} characters after trimming.")
    mode = body.get("input_mode", "typed")
    if mode not in ("voice", "typed"):
        raise BodyError("input_mode", 'input_mode must be "voice" or "typed".')
    tag = body.get("hat_tag")
    hat_tag: str | None = None
    if tag is not None and tag != "":
        hat_tag = domain.normalize_code(tag) if isinstance(tag, str) else None
        if hat_tag is None:
            raise BodyError("hat_tag", "hat_tag must be a hat code like TQ-7F3K2.")
    return UserMessage(note, "voice" if mode == "voice" else "typed", hat_tag)


# An idempotency key: what a client's random id (a UUID, a ULID) is made of, 8 to 80 characters.
_KEY = re.compile(r"[A-Za-z0-9._:-]{8,80}")
# How far ahead of the server's clock a said time may be (a phone's clock drifts), and how old a note kept on
# a phone may be when it is finally sent.
SAID_AHEAD = timedelta(minutes=5)
SAID_OLDEST = timedelta(days=30)


@dataclass(frozen=True)
class Delivery:
    """How a note reached the server: its idempotency key and when it was said (None: not given)."""

    idempotency_key: str | None = None
    said_at: datetime | None = None


def delivery_of(body: Any, header_key: str | None, now: datetime) -> Delivery:
    """The note's idempotency key (the ``Idempotency-Key`` header or the body's ``idempotency_key``; both
    given must agree) and its ``said_at`` (ISO 8601 with an offset, not ahead of ``now`` by more than
    ``SAID_AHEAD`` nor older than ``SAID_OLDEST``); raises a ``BodyError`` naming the field."""
    fields = body if isinstance(body, dict) else {}
    key = fields.get("idempotency_key")
    if key is not None and not isinstance(key, str):
        raise BodyError("idempotency_key", "idempotency_key must be a string.")
    header = header_key.strip() if header_key is not None else None
    if header is not None and key is not None and header != key:
        raise BodyError("idempotency_key", "The Idempotency-Key header and idempotency_key differ.")
    key = header if header is not None else key
    if key is not None and not _KEY.fullmatch(key):
        raise BodyError(
            "idempotency_key", "The idempotency key must be 8 to 80 letters, digits or . _ : - characters."
        )
    said = fields.get("said_at")
    said_at: datetime | None = None
    if said is not None:
        try:
            said_at = datetime.fromisoformat(said) if isinstance(said, str) else None
        except ValueError:
            said_at = None
        if said_at is None or said_at.tzinfo is None:
            raise BodyError("said_at", "said_at must be an ISO 8601 time with an offset.")
        said_at = said_at.astimezone(UTC)
        if said_at > now + SAID_AHEAD or said_at < now - SAID_OLDEST:
            raise BodyError("said_at", "said_at must be within the last 30 days.")
    return Delivery(key, said_at)


@dataclass(frozen=True)
class _Replayed:
    """A note whose idempotency key already made a run: the answer that run gave."""

    run_id: str
    response: dict[str, Any]


@dataclass(frozen=True)
class _Admitted:
    """A note past validation and the hourly limit, with its run row written."""

    run_id: str
    request: UserMessage
    reads: WorkshopReads
    tagged: Hat | None
    model_name: str
    keyed: bool = False


@dataclass(frozen=True)
class _Saved:
    """A finished run as saved: what the response (or the HTTP error) is made of."""

    status: str
    summary: str | None
    proposals: list[BufferedProposal]
    ids: list[str]
    latency_ms: int
    http_error: tuple[int, str, str] | None


def _admit(
    store: AgentStore,
    actor: Actor,
    body: Any,
    provider: Provider,
    request_id: str,
    rate_limit_per_hour: int,
    now: Callable[[], datetime],
    language: Language,
    logger: RunLogger,
    idempotency_key: str | None,
    client: str | None = None,
) -> _Admitted | _Replayed:
    """Validate the body, read the tagged hat and insert the run row within the hourly limit (steps 1 to 3 of
    docs/workshop-agent.md, "One run"). A refusal is logged and raised as ``ApiError``, with no run row; a key
    that already made a run gives that run's answer."""
    reads: WorkshopReads | None = None
    try:
        request = replace(validate_body(body), language="es" if language == "es" else "en")
        delivery = delivery_of(body, idempotency_key, now())
        reads = store.reads(actor)
        tagged = reads.hat_by_code(request.hat_tag) if request.hat_tag else None
        if request.hat_tag and tagged is None:
            raise BodyError("hat", f"No hat {request.hat_tag} in this workshop.")
        run_id = str(uuid.uuid4())
        logger.run_id = run_id
        model_name = str(getattr(provider, "model", None) or getattr(provider, "name", "unknown"))
        start = logger.row(
            "agent.run.start",
            "info",
            {
                "input_mode": request.input_mode,
                "hat_code": request.hat_tag,
                "model": model_name,
                "chars": len(request.note),
                # Who sent the note when it did not come from the page or the API (an MCP client).
                **({"client": client} if client else {}),
            },
        )
        row = RunRow(
            run_id,
            actor,
            request.note,
            request.input_mode,
            request.hat_tag,
            request_id,
            model_name,
            now(),
            delivery.idempotency_key,
            delivery.said_at,
        )
        admitted = store.insert_run(row, [start], rate_limit_per_hour, timedelta(hours=1))
        if isinstance(admitted, KeyedRun):
            replayed = _replay(admitted, actor, request)
            logger.run_id = admitted.run_id
            reads.close()
            logger("agent.run.replayed", "info", {"status": admitted.status})
            store.write_logs(actor, logger.take())
            return replayed
        if not admitted:
            logger.run_id = None  # no run row was written
            raise ApiError(
                429, "rate_limited", f"At most {rate_limit_per_hour} notes per hour. Try again later."
            )
    except ApiError as refused:
        if reads is not None:
            reads.close()
        logger(
            "agent.run.error", "warn", {"phase": "validate", "status": refused.status, "code": refused.code}
        )
        store.write_logs(actor, logger.take())
        raise
    logger.echo(start)  # its row was inserted with the run row
    return _Admitted(run_id, request, reads, tagged, model_name, delivery.idempotency_key is not None)


KEY_REUSED = "This idempotency key was already used for another note."
KEY_BUSY = "The note with this idempotency key is still being read; send it again in a moment."


def _replay(keyed: KeyedRun, actor: Actor, request: UserMessage) -> _Replayed:
    """The answer of the run a key already made, when the note is the same one sent again by the same
    person; a key reused for another note (or by another person) and a run still going are 409s."""
    same = (keyed.user_id, keyed.note, keyed.input_mode, keyed.hat_code) == (
        actor.user_id,
        request.note,
        request.input_mode,
        request.hat_tag,
    )
    if not same:
        raise ApiError(409, "idempotency_key_reused", KEY_REUSED)
    if keyed.status != "proposed" or keyed.response is None:
        raise ApiError(409, "idempotency_in_progress", KEY_BUSY, run_id=keyed.run_id)
    return _Replayed(keyed.run_id, keyed.response)


def _response(
    run_id: str,
    summary: str | None,
    proposals: list[BufferedProposal],
    ids: list[str],
    trace: Trace,
    latency_ms: int,
) -> dict[str, Any]:
    """The response body of a finished run (docs/workshop-agent.md, "Contract")."""
    return {
        "run_id": run_id,
        "summary": summary,
        "proposals": [p.to_json(pid) for p, pid in zip(proposals, ids, strict=True)],
        "meta": {
            "tool_calls": trace.tool_calls,
            "latency_ms": latency_ms,
            "tokens_in": trace.tokens_in,
            "tokens_out": trace.tokens_out,
            "cost_usd": trace.cost_usd,
        },
    }


def _context(
    run: _Admitted,
    actor: Actor,
    request_id: str,
    now: Callable[[], datetime],
    trace: Trace,
    logger: RunLogger,
) -> RunContext:
    """The run's context for the tools: the actor, the note, the reads, and the tagged hat as already seen."""
    request = run.request
    ctx = RunContext(
        run_id=run.run_id,
        request_id=request_id,
        actor=actor,
        workshop_id=actor.workshop_id,
        note=request.note,
        input_mode=request.input_mode,
        hat_tag=request.hat_tag,
        reads=run.reads,
        now=now(),
        trace=trace,
        on_event=logger,
    )
    if run.tagged is not None:
        ctx.seen_hats[run.tagged.code] = SeenHat(run.tagged, "tag")
    return ctx


def _result(
    run: _Admitted,
    status: str,
    summary: str | None,
    trace: Trace,
    proposals: list[BufferedProposal],
    latency_ms: int,
    error: dict[str, Any] | None,
    proposal_ids: tuple[str, ...] = (),
    response: dict[str, Any] | None = None,
) -> RunResult:
    """What the final save writes over the run row."""
    return RunResult(
        run.run_id,
        status,
        summary,
        trace.to_list(),
        proposals,
        trace.tokens_in,
        trace.tokens_out,
        latency_ms,
        trace.cost_usd,
        trace.model or run.model_name,
        error,
        proposal_ids,
        response,
    )


def _log_end(
    logger: RunLogger,
    outcome: LoopOutcome,
    status: str,
    error: dict[str, Any] | None,
    payload: dict[str, Any],
) -> None:
    """The run's last log event: an error for a failed run; a warning when a proposing run fell back."""
    if status == "failed":
        logger("agent.run.error", "error", {**payload, "phase": "loop", "error": error})
    else:
        fell_back = outcome.outcome is not Outcome.END_TURN or not outcome.text
        logger("agent.run.end", "warn" if fell_back and status == "proposed" else "info", payload)


def _loop_and_save(
    store: AgentStore,
    run: _Admitted,
    provider: Provider,
    ctx: RunContext,
    trace: Trace,
    logger: RunLogger,
    limits: LoopLimits,
    abort: threading.Event | None,
    started: float,
    budget: Budget | None,
) -> _Saved:
    """Run the bounded loop and save the run with its proposals in one transaction (steps 4 to 6); a run
    that crashed on the way is saved as failed, and the reads are closed whatever happens."""
    actor = ctx.actor
    saved = False
    try:
        outcome = run_loop(
            provider,
            SYSTEM_PROMPT,
            build_user_message(run.request),
            REGISTRY,
            ctx,
            trace,
            limits=limits,
            abort=abort,
            on_event=logger,
            tool_batch=run.reads.batch,
            # The workshop's monthly spend cap (docs/pricing.md), unless the caller holds the run to another.
            budget=budget if budget is not None else run_budget(store, actor),
        )
        status, summary, error, http_error = map_outcome(outcome, len(ctx.proposals))
        keep = ctx.proposals if status == "proposed" else []
        latency_ms = int((time.monotonic() - started) * 1000)
        end_payload = {
            "status": status,
            "outcome": outcome.outcome.value,
            "proposals": len(keep),
            "tool_calls": trace.tool_calls,
            "tokens_in": trace.tokens_in,
            "tokens_out": trace.tokens_out,
            "cost_usd": trace.cost_usd,
            "latency_ms": latency_ms,
        }
        _log_end(logger, outcome, status, error, end_payload)
        chosen: tuple[str, ...] = ()
        response = None
        if run.keyed and status == "proposed":
            # The answer is saved with the run, so a repeat of the key gets it (ids chosen here for that).
            chosen = tuple(secrets.token_hex(8) for _ in keep)
            response = _response(run.run_id, summary, keep, list(chosen), trace, latency_ms)
        result = _result(run, status, summary, trace, keep, latency_ms, error, chosen, response)
        ids = store.save_agent_run(actor, result, logger.take())
        saved = True
    finally:
        run.reads.close()
        if not saved:
            logger("agent.run.error", "error", {"phase": "crash", "status": "failed"})
            crash = {"type": "crash", "message": "The run stopped on an internal error."}
            latency = int((time.monotonic() - started) * 1000)
            store.save_agent_run(
                actor, _result(run, "failed", None, trace, [], latency, crash), logger.take()
            )
    return _Saved(status, summary, keep, ids, latency_ms, http_error)


def run_agent(
    store: AgentStore,
    actor: Actor,
    body: Any,
    provider: Provider,
    request_id: str,
    rate_limit_per_hour: int,
    abort: threading.Event | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    limits: LoopLimits = LIMITS,
    language: Language = "en",
    idempotency_key: str | None = None,
    client: str | None = None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Run the workshop agent for one note and return the response body (or raise ``ApiError``).

    ``language`` is the language of the page the note came from ("es" or "en"); the offline reader writes
    its summary in it. ``idempotency_key`` is the ``Idempotency-Key`` header's (the body may carry one as
    ``idempotency_key``): a note sent again with its key gets the first run's answer and makes no new run
    (docs/workshop.md, "Idempotency keys"). ``client`` tags the run's start event with the client that sent the
    note (the MCP server's ``mcp:<client name>``). ``budget`` holds the run's model calls (default: the monthly
    cap of the workshop whose store the run writes to; ``shopfloor record`` runs on a throwaway store and passes
    the real workshop's)."""
    started = time.monotonic()
    logger = RunLogger(request_id, actor)
    run = _admit(
        store,
        actor,
        body,
        provider,
        request_id,
        rate_limit_per_hour,
        now,
        language,
        logger,
        idempotency_key,
        client,
    )
    if isinstance(run, _Replayed):
        return run.response
    trace = Trace()
    ctx = _context(run, actor, request_id, now, trace, logger)
    if isinstance(provider, ReadsUserMessage):
        # The offline reader gets the message as data; a live model reads the rendered text.
        provider = provider.for_message(run.request)
    saved = _loop_and_save(store, run, provider, ctx, trace, logger, limits, abort, started, budget)
    if saved.http_error is not None:
        code, kind, message = saved.http_error
        raise ApiError(code, kind, message, run_id=run.run_id)
    return _response(run.run_id, saved.summary, saved.proposals, saved.ids, trace, saved.latency_ms)


MODEL_ERROR = "The assistant could not read this note. Nothing was saved; please try again."
TIMEOUT_ERROR = "The assistant took too long. Nothing was saved; please try again."
BUDGET_ERROR = (
    "This month's model budget for the workshop is spent. Nothing was saved; an admin can raise the cap."
)


def map_outcome(
    outcome: LoopOutcome, buffered: int
) -> tuple[str, str | None, dict[str, Any] | None, tuple[int, str, str] | None]:
    """(status, summary, error, http error) for a loop outcome, as the outcome table of docs/workshop-agent.md
    ("One run") says."""
    kind = outcome.outcome
    if kind is Outcome.END_TURN:
        return "proposed", (outcome.text or "").strip() or fallback_summary(buffered), None, None
    if kind in (Outcome.MAX_ITERATIONS, Outcome.TOOL_LIMIT):
        return "proposed", fallback_summary(buffered), None, None
    if kind in (Outcome.MAX_TOKENS, Outcome.REQUEST_TOO_LARGE):
        if buffered > 0:
            return "proposed", fallback_summary(buffered), None, None
        return "failed", None, outcome.error or {"type": kind.value}, (502, "model_error", MODEL_ERROR)
    if kind is Outcome.ABORTED:
        return "stopped", None, outcome.error or {"type": "aborted"}, None
    if kind is Outcome.BUDGET_EXHAUSTED:
        return "failed", None, outcome.error or {"type": kind.value}, (402, "budget_exhausted", BUDGET_ERROR)
    if kind is Outcome.TIMEOUT:
        return "failed", None, outcome.error or {"type": "timeout"}, (504, "timeout", TIMEOUT_ERROR)
    # REFUSAL, UNEXPECTED_STOP, PROVIDER_ERROR: the run failed and saves nothing (a retry never duplicates).
    return "failed", None, outcome.error or {"type": kind.value}, (502, "model_error", MODEL_ERROR)
