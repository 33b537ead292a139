"""Dispatch: validate a tool call in code, run its handler, and always return a result.

A rule that says "no" is the handler's normal result. Unknown tools, arguments that fail the argument
model, and handler exceptions become ``is_error`` results with a plain message the model can act on.
Exception text from a handler is logged, never shown to the model. Dispatch never raises.

What an in-process planner attached to a call (``ToolCall.local``) reaches its handler only when the caller
passes it as ``local`` (the loop does, for a provider marked ``local``; nothing else does): the handler reads it
with :func:`planner_data`, which is empty for every call of a model, an MCP client or a test's scripted turn.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ValidationError

from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.tools import CtxT, Tool, ToolError, ToolRegistry, ToolResult
from shopfloor.agent.trace import ToolCallStep, Trace
from shopfloor.logs import get_logger

log = get_logger("shopfloor.agent.dispatch")

_NOTHING: Mapping[str, Any] = MappingProxyType({})
_PLANNER_DATA: ContextVar[Mapping[str, Any]] = ContextVar("planner_data", default=_NOTHING)

HANDLER_FAILED = (
    "The tool failed while running this call. Try a different call, or skip this event and say so."
)


def describe_validation_error(tool: str, error: ValidationError) -> str:
    """A short, plain description of what was wrong with the arguments."""
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        parts.append(f"{where}: {item['msg']}")
    return f"Invalid arguments for {tool}: " + "; ".join(parts) + ". Fix the call and try again."


def parse_arguments(tool: Tool[Any, Any], arguments: Any) -> BaseModel | str:
    """The validated argument model, or a message saying what is wrong."""
    if not isinstance(arguments, dict):
        return f"Invalid arguments for {tool.name}: expected a JSON object. Fix the call and try again."
    unknown = sorted(set(arguments) - set(tool.args.model_fields))
    if unknown:
        return f"Invalid arguments for {tool.name}: unknown field(s) {', '.join(unknown)}. Fix the call and try again."
    try:
        parsed: BaseModel = tool.args.model_validate(arguments, strict=False)
        return parsed
    except ValidationError as error:
        return describe_validation_error(tool.name, error)


def planner_data() -> Mapping[str, Any]:
    """What the in-process planner attached to the call being handled, as :func:`dispatch` was given it;
    empty outside a handler and for every call no local planner made."""
    return _PLANNER_DATA.get()


def dispatch(
    registry: ToolRegistry[CtxT],
    ctx: CtxT,
    call: ToolCall,
    trace: Trace | None = None,
    *,
    local: Mapping[str, Any] | None = None,
) -> ToolResult:
    """Run one tool call and return its result; records a ``tool_call`` step when ``trace`` is given.

    ``local`` is the call's planner data when a local planner made it (the loop passes ``call.local`` then);
    ``call.local`` itself is never read here."""
    started = time.perf_counter()
    tool = registry.get(call.name)
    args_json: Any = call.arguments
    access = tool.access if tool else "read"
    if tool is None:
        known = ", ".join(registry.names)
        result = ToolResult(call.id, call.name, f"Unknown tool {call.name!r}. Use one of: {known}.", True)
    else:
        parsed = parse_arguments(tool, call.arguments)
        if isinstance(parsed, str):
            result = ToolResult(call.id, call.name, parsed, True)
        else:
            args_json = parsed.model_dump(mode="json")
            result = _run_handler(tool, ctx, call, parsed, local or _NOTHING)
    if trace is not None:
        duration_ms = int((time.perf_counter() - started) * 1000)
        trace.add(ToolCallStep(call.name, access, args_json, result.content, result.is_error, duration_ms))
    return result


def _run_handler(
    tool: Tool[CtxT, Any], ctx: CtxT, call: ToolCall, args: BaseModel, local: Mapping[str, Any]
) -> ToolResult:
    token = _PLANNER_DATA.set(local)
    try:
        content = tool.handler(ctx, args)
    except ToolError as error:
        return ToolResult(call.id, call.name, str(error), True)
    except Exception:
        log.exception("agent.tool.call", extra={"tool": call.name, "phase": "handler"})
        return ToolResult(call.id, call.name, HANDLER_FAILED, True)
    finally:
        _PLANNER_DATA.reset(token)
    return ToolResult(call.id, call.name, content, False)
