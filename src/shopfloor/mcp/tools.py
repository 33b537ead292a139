"""The MCP server's tools and resources, built from each app's own registry (docs/mcp.md, "Tools").

Nothing here imports the MCP SDK: these are plain functions over the apps' public faces, run in a worker
thread by :mod:`shopfloor.mcp.server`. Two kinds of "no" come back, as at the apps' own edges:

- an :class:`~shopfloor.web.errors.ApiError` is what the HTTP envelope would answer (bad input, a hat of
  another workshop, the hourly limit, the spend cap); the server sends it as an MCP error with the same
  status, code and message;
- a :class:`Refused` is a tool's own refusal, the ``is_error`` result the planners see (a shift outside the
  scope, a window a daily tool does not read); the server sends it as an ``is_error`` tool result.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from threading import Lock
from typing import Any

from fastapi.encoders import jsonable_encoder

from shopfloor import shifts, workshop
from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.agent.tools import Tool, ToolRegistry
from shopfloor.settings import Settings
from shopfloor.web.errors import ApiError
from shopfloor.workshop.domain import MAX_NOTE, Actor, normalize_code

# The router's question limit (shopfloor.shifts' ask, docs/URLS.md).
MAX_QUESTION_CHARS = 500
# A chart is drawn over the results of one investigation; one MCP call is not one, so it is not offered.
NOT_OFFERED = frozenset({"render_chart"})
WORKSHOP_READS = ("find_weaver", "find_hats", "get_hat")
REPORT_PERIODS = ("week", "month", "fiscal")
ANSWER_PREFIX = "shopfloor://shifts/a?"
REPORT_PREFIX = "shopfloor://shifts/report/"


class Refused(Exception):
    """A tool's own refusal (its ``is_error`` result), for the client's model to read and act on."""


@dataclass(frozen=True)
class Caller:
    """Who calls: the workshop user (their workshop and role scope every call) and the MCP client's name."""

    actor: Actor
    client: str | None
    request_id: str


class Backend:
    """The stores every call reads: the workshop store (opened on first use) and the shifts record store."""

    def __init__(self, settings: Settings, store: workshop.Store | None = None) -> None:
        self.settings = settings
        self._store = store
        self._lock = Lock()

    @property
    def store(self) -> workshop.Store:
        """The workshop store (the app's URL: on PostgreSQL, the non-owner app role)."""
        with self._lock:
            if self._store is None:
                self._store = workshop.open_store(self.settings.workshop_db_url())
            return self._store

    def dispose(self) -> None:
        """Close the workshop store's pooled connections, if it was opened (it reopens on next use)."""
        with self._lock:
            if self._store is not None:
                self._store.dispose()

    @property
    def records(self) -> Path:
        """The shifts record store's file."""
        return self.settings.shifts_db_path()


Run = Callable[[Backend, Caller, dict[str, Any], threading.Event], Any]


@dataclass(frozen=True)
class McpTool:
    """One tool as MCP lists it: its input schema (the app's own, unchanged), its hints and what runs it."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool
    open_world: bool
    run: Run


def _records(backend: Backend) -> Any:
    """A read-only connection to the record store; missing or held, the 503 the /shifts routes answer."""
    path = backend.records
    if not path.is_file():
        raise ApiError(503, "no_store", "The record store is not prepared; run `shopfloor prepare`.")
    try:
        return shifts.open_records(path)
    except shifts.StoreUnavailable:
        raise ApiError(
            503, "store_unavailable", "The record store cannot be opened now; try again shortly."
        ) from None


def _object(arguments: Any, allowed: set[str], required: set[str]) -> dict[str, Any]:
    """The arguments as an object with only ``allowed`` keys and every ``required`` one (400 otherwise)."""
    if not isinstance(arguments, dict):
        raise ApiError(400, "bad_request", "The arguments must be a JSON object.")
    unknown = sorted(set(arguments) - allowed)
    if unknown:
        raise ApiError(400, "bad_request", f"Unknown field(s): {', '.join(unknown)}.")
    missing = sorted(required - set(arguments))
    if missing:
        raise ApiError(400, "bad_request", f"Missing field(s): {', '.join(missing)}.")
    return arguments


SCOPE_FIELDS: dict[str, Any] = {
    "day": {"type": "string", "description": "The production day, YYYY-MM-DD."},
    "shift": {"anyOf": [{"type": "integer", "enum": [1, 2, 3]}, {"type": "null"}]},
    "include": {
        "type": "string",
        "enum": ["shift", "day"],
        "description": "This shift only, or every shift.",
    },
    "period": {"type": "string", "enum": ["day", "week", "month", "fiscal"]},
}
SCOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["day"],
    "properties": SCOPE_FIELDS,
    "description": "The scope code holds the tools to, as the page's controls: day, shift, include, period.",
}


def parse_scope(raw: Any) -> Any:
    """The scope given as the /shifts controls give it; a field outside its rule is 400 ``bad_scope``."""
    fields = _object(raw, set(SCOPE_FIELDS), {"day"})
    day, shift = fields.get("day"), fields.get("shift")
    if not isinstance(day, str) or (shift is not None and (not isinstance(shift, int) or shift is True)):
        raise ApiError(400, "bad_scope", "day must be a date (YYYY-MM-DD) and shift 1, 2 or 3.")
    include, period = fields.get("include"), fields.get("period", "day")
    if shift is None and include == "shift":
        include = "day"  # "this shift" with every shift selected is every shift, as on the page
    try:
        return shifts.Scope.parse(day, shift, include, period if isinstance(period, str) else "")
    except shifts.ScopeError as error:
        raise ApiError(400, "bad_scope", f"{error}.") from None


def _shifts_tool(tool: Tool[Any, Any], registry: ToolRegistry[Any]) -> McpTool:
    """A Shift Investigator tool: its own argument schema under ``arguments``, the scope beside it; the core
    dispatcher validates and runs it in that scope, so its caps, checks and evidence envelope are the
    planners' own."""

    def run(backend: Backend, caller: Caller, arguments: dict[str, Any], abort: threading.Event) -> Any:
        given = _object(arguments, {"scope", "arguments"}, {"scope", "arguments"})
        scope = parse_scope(given["scope"])
        conn = _records(backend)
        try:
            call = ToolCall(caller.request_id, tool.name, given["arguments"])
            result = dispatch(registry, shifts.ToolContext(conn, scope), call)
        finally:
            conn.close()
        if result.is_error:
            raise Refused(str(result.content))
        return result.content

    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["scope", "arguments"],
        "properties": {"scope": SCOPE_SCHEMA, "arguments": tool.parameters},
    }
    return McpTool(tool.name, tool.name.replace("_", " "), tool.description, schema, True, False, run)


def answer_json(answer: Any) -> dict[str, Any]:
    """An answer as the client gets it: the status, the canonical address and its URL, the text, and each
    citation (the evidence envelopes with their rows), as ``GET /shifts/a.json`` has them."""
    data: dict[str, Any] = jsonable_encoder(answer.as_dict())
    address = data.get("address")
    return {
        "status": data["status"],
        "question": data["question"],
        "scope": data["scope"],
        "address": address,
        "url": f"/shifts{address}" if address else None,
        "resource": ANSWER_PREFIX + address.removeprefix("/a?") if address else None,
        "text": answer.text(),
        "citations": data["evidence"],
        "reason": data.get("reason"),
        "examples": data.get("examples", []),
    }


ASK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["question", "day"],
    "properties": {
        "question": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION_CHARS},
        **SCOPE_FIELDS,
    },
}


def _ask(backend: Backend, caller: Caller, arguments: dict[str, Any], abort: threading.Event) -> Any:
    """One investigation by the offline router and planner, as ``GET /shifts/q`` reads the question."""
    given = _object(arguments, {"question", *SCOPE_FIELDS}, {"question", "day"})
    question = given["question"]
    if not isinstance(question, str) or not question.strip():
        raise ApiError(400, "bad_request", "Ask a question (the question parameter is empty).")
    if len(question) > MAX_QUESTION_CHARS:
        raise ApiError(400, "question_too_long", f"Questions are limited to {MAX_QUESTION_CHARS} characters.")
    scope = parse_scope({k: v for k, v in given.items() if k != "question"})
    conn = _records(backend)
    try:
        return answer_json(shifts.investigate(question, scope, conn))
    finally:
        conn.close()


def _workshop_read(tool: Tool[Any, Any], registry: ToolRegistry[Any]) -> McpTool:
    """A Toquilla Trace read tool: the agent's own schema and handler, over reads scoped to the caller's
    workshop; a hat another workshop holds is 404, as ``GET /workshop/api/hats/{code}`` answers."""

    def run(backend: Backend, caller: Caller, arguments: dict[str, Any], abort: threading.Event) -> Any:
        reads = workshop.AgentStore(backend.store).reads(caller.actor)
        try:
            if (
                tool.name == "get_hat"
                and isinstance(arguments, dict)
                and isinstance(arguments.get("code"), str)
            ):
                code = normalize_code(arguments["code"])
                if code is None:
                    raise ApiError(400, "bad_request", "Codes look like TQ-7F3K2.")
                if reads.hat_by_code(code) is None:
                    raise ApiError(404, "not_found", f"No hat {code} in this workshop.")
            ctx = workshop.ToolContext(
                run_id="",
                request_id=caller.request_id,
                actor=caller.actor,
                workshop_id=caller.actor.workshop_id,
                note="",
                input_mode="typed",
                hat_tag=None,
                reads=reads,
                now=datetime.now(UTC),
            )
            result = dispatch(registry, ctx, ToolCall(caller.request_id, tool.name, arguments))
        finally:
            reads.close()
        if result.is_error:
            raise Refused(str(result.content))
        return result.content

    return McpTool(
        tool.name, tool.name.replace("_", " "), tool.description, tool.parameters, True, False, run
    )


NOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["note"],
    "properties": {
        "note": {"type": "string", "minLength": 1, "maxLength": MAX_NOTE},
        "input_mode": {"type": "string", "enum": ["voice", "typed"], "default": "typed"},
        "hat_tag": {"type": ["string", "null"], "description": "A hat code like TQ-7F3K2"},
    },
}
PROPOSE_DESCRIPTION = (
    "Read one workshop note with the workshop agent and return its proposal cards. Nothing is written to the "
    "records: the cards wait on the workshop dashboard until a person approves, edits or rejects them."
)


def _propose(backend: Backend, caller: Caller, arguments: dict[str, Any], abort: threading.Event) -> Any:
    """One workshop-agent run, as ``POST /workshop/functions/v1/workshop-agent`` runs it: the same checks,
    hourly limit, spend cap, trace and stored run; tagged with the MCP client's name."""
    settings = backend.settings
    try:
        provider = workshop.choose_provider(None, settings)
    except ProviderConfigError as error:
        raise ApiError(500, "model_not_configured", str(error)) from None
    return workshop.run_agent(
        workshop.AgentStore(backend.store),
        caller.actor,
        arguments,
        provider,
        caller.request_id,
        settings.workshop_rate_limit_per_hour,
        abort,
        client=f"mcp:{caller.client or 'unnamed'}",
    )


def catalog() -> dict[str, McpTool]:
    """Every tool the MCP server offers, by name: the investigator's read tools and ``ask``, the workshop's
    read tools and ``propose_from_note``. There is no tool that approves, edits or deletes."""
    tools: list[McpTool] = []
    registry = shifts.tool_registry()
    tools += [_shifts_tool(t, registry) for t in registry if t.name not in NOT_OFFERED]
    tools.append(
        McpTool(
            "ask",
            "ask the shift investigator",
            "Answer a question about the corrugator's shift records in a scope: the answer with its citations "
            "(the rows behind every figure) and its canonical address. Read only.",
            ASK_SCHEMA,
            True,
            False,
            _ask,
        )
    )
    reads = workshop.tool_registry
    tools += [_workshop_read(t, reads) for t in reads if t.name in WORKSHOP_READS]
    # Not read-only: the run, its trace and its pending cards are stored; not destructive: no record changes.
    tools.append(
        McpTool(
            "propose_from_note",
            "propose from a note",
            PROPOSE_DESCRIPTION,
            NOTE_SCHEMA,
            False,
            True,
            _propose,
        )
    )
    return {t.name: t for t in tools}


def new_request_id() -> str:
    """A request id for one MCP call (the runs and logs it writes carry it)."""
    return f"mcp-{uuid.uuid4().hex[:24]}"


def read_answer(backend: Backend, uri: str) -> dict[str, Any]:
    """The answer at ``shopfloor://shifts/a?...``: the same plan, tools and sections as ``/shifts/a.json``."""
    try:
        plan = shifts.parse_address("/a?" + uri.removeprefix(ANSWER_PREFIX))
    except shifts.AddressError as error:
        raise ApiError(400, "bad_address", str(error)) from None
    conn = _records(backend)
    try:
        return answer_json(shifts.investigate_address(plan.address(), conn))
    finally:
        conn.close()


def read_report(backend: Backend, uri: str) -> dict[str, Any]:
    """The period report at ``shopfloor://shifts/report/{period}/{day}``, as ``/shifts/report`` has it."""
    period, _, day = uri.removeprefix(REPORT_PREFIX).partition("/")
    if period not in REPORT_PERIODS:
        raise ApiError(400, "bad_scope", "period must be week, month or fiscal.")
    scope = parse_scope({"day": day})
    conn = _records(backend)
    try:
        chosen: Any = period  # one of REPORT_PERIODS, checked above
        report: dict[str, Any] = jsonable_encoder(shifts.period_report(conn, chosen, scope.day))
        return report
    finally:
        conn.close()


def latest_day(backend: Backend) -> date | None:
    """The last production day in the record store (None when it holds none or cannot be read)."""
    try:
        conn = _records(backend)
    except ApiError:
        return None
    try:
        found = conn.execute("SELECT max(day) FROM days").fetchone()
    except Exception:
        return None
    finally:
        conn.close()
    return found[0] if found and isinstance(found[0], date) else None
