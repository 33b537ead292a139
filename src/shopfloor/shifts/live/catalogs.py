"""The tools each live planner is offered, held to its provider's strict limits and to the run's scope.

A live request offers one catalog chosen by the scope's Period control (docs/shifts-agent.md, "Live
planners"): under Day the daily tools, the chart and four window tools read for that day; under Week, Month
or 4-4-5 the window tools and the chart (a daily tool would only refuse there). The OpenAI loop leaves
``get_downtime_review`` and ``get_speed_variance`` out for its 24 KB request cap; no live catalog holds a
money tool (``get_shift_dollars``, ``get_day_dollars``), which the offline router alone plans.

Every offered tool is the catalog's own tool with two layers around its handler: the scope guard
(:func:`scope_problem`, in code, whatever the model asks) and the model's view of the result (no SQL, at
most :data:`PREVIEW_ROWS` rows with the count disclosed; the answer keeps the whole envelope). Each schema is
the provider profile's (``agent/providers/profiles/``): for Gemini, whose strict mode refuses enums on
integers, the shift enums become plain integers described in words; the argument model still refuses any
other value. The request cap is the profile's too.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from shopfloor.agent.loop import LoopLimits
from shopfloor.agent.providers.profiles import PROFILES, profile_named
from shopfloor.agent.tools import Tool, ToolError, ToolRegistry
from shopfloor.shifts.catalog import ENTRIES, full_registry
from shopfloor.shifts.plant.calendar import window_for
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.tools.context import RunContext

# The daily tools a live planner may call: every day tool but the money ones (tools/money.py), which the
# offline router alone plans.
DAILY = tuple(
    e.name for e in ENTRIES if e.grain == "day" and not e.tool.handler.__module__.endswith(".money")
)
# Window tools a Day-control question can use with a day window (speed by grade, the day's downtime against
# the bands, where the day's speed went) or anchored on the day (the weekly trend).
DAY_WINDOW_TOOLS = ("get_grade_totals", "get_trend", "get_downtime_review", "get_speed_variance")
WINDOW_TOOLS = (
    "get_period_kpis",
    "compare_periods",
    "get_downtime_pareto",
    "get_waste_breakdown",
    "get_stops_profile",
    "get_trend",
    "get_grade_totals",
    "get_overrun",
    "get_rollstock",
    "get_downtime_review",
    "get_speed_opportunity",
    "get_speed_variance",
    "get_opportunities",
)
# A request cap under 64 KB (OpenAI's 24 KB) leaves no room for the two widest window results.
WIDE_RESULTS = ("get_downtime_review", "get_speed_variance")
WIDE_RESULTS_BYTES = 64 * 1024
PREVIEW_ROWS = 12
LIVE_MAX_TOOL_CALLS = 10
LIVE_MAX_MODEL_CALLS = 10
LIVE_RUN_BUDGET_S = 60.0
LIVE_CALL_TIMEOUT_S = 25.0
LIVE_MAX_TOKENS = 4000


def live_limits(provider: str) -> LoopLimits:
    """The bounds of one live run on ``provider``."""
    return LoopLimits(
        max_iterations=LIVE_MAX_MODEL_CALLS,
        max_tokens=LIVE_MAX_TOKENS,
        call_timeout_s=LIVE_CALL_TIMEOUT_S,
        run_budget_s=LIVE_RUN_BUDGET_S,
        max_tool_calls=LIVE_MAX_TOOL_CALLS,
        max_request_bytes=profile_named(provider).max_request_bytes,
    )


def catalog_names(provider: str, period: str) -> tuple[str, ...]:
    """The tool names offered to ``provider`` under the Period control ``period``, in catalog order."""
    wanted = (
        (*DAILY, "render_chart", *DAY_WINDOW_TOOLS) if period == "day" else ("render_chart", *WINDOW_TOOLS)
    )
    if profile_named(provider).max_request_bytes < WIDE_RESULTS_BYTES:
        wanted = tuple(n for n in wanted if n not in WIDE_RESULTS)
    order = full_registry().names
    return tuple(n for n in order if n in wanted)


def scope_window(scope: Scope) -> tuple[date, date]:
    """The first and last day of the scope's window (the production day itself under Day)."""
    window = window_for(scope.period, scope.day)
    return window.start, window.end


def _anchor(value: Any) -> date | None:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None


def scope_problem(tool: str, args: dict[str, Any], scope: Scope) -> str | None:
    """Why a call of ``tool`` with ``args`` leaves the selected scope, or None when it stays inside.

    Windows: ``window`` and ``current_window`` must be the scope's own period with an anchor inside the
    scope's window; ``compare_periods``' ``previous_window`` the same period before it; ``get_trend``'s
    anchor inside the window. Shifts: under the selected-shift scope every shift argument (``shift``,
    ``shifts``, ``against_shift``) must be that shift or null. The tool handlers enforce the shift rules
    too; this check is what holds an analyst's plan to the scope before any step runs."""
    start, end = scope_window(scope)
    label = f"{scope.period} {start.isoformat()}..{end.isoformat()}"
    for key in ("window", "current_window", "previous_window"):
        value = args.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            return f"{tool}: {key} must be an object."
        anchor = _anchor(value.get("anchor"))
        if value.get("period") != scope.period or anchor is None:
            return f"{tool}: {key} must be the selected {scope.period} window ({label})."
        if key == "previous_window":
            if anchor >= start:
                return f"{tool}: previous_window must lie before the selected window ({label})."
        elif not start <= anchor <= end:
            return f"{tool}: {key} {anchor.isoformat()} is outside the selected window ({label})."
    if "anchor" in args:
        anchor = _anchor(args["anchor"])
        if anchor is None or not start <= anchor <= end:
            return f"{tool}: anchor must lie inside the selected window ({label})."
    if scope.include == "shift":
        asked = [args.get("shift"), args.get("against_shift"), *list(args.get("shifts") or [])]
        for shift in asked:
            if shift is not None and shift != scope.shift:
                return f"{tool}: shift {shift} is outside the selected shift {scope.shift}."
    return None


def model_view(content: Any) -> Any:
    """What the model sees of a result: the envelope without its SQL and with at most PREVIEW_ROWS rows
    (the count disclosed). The run keeps the whole envelope for the answer, charts and trace."""
    if not isinstance(content, dict):
        return content
    view = {k: v for k, v in content.items() if k != "sql"}
    rows = view.get("rows")
    if isinstance(rows, list) and len(rows) > PREVIEW_ROWS:
        view["rows"] = rows[:PREVIEW_ROWS]
        view["rows_shown"] = PREVIEW_ROWS
        view["rows_total"] = len(rows)
    return view


def _guarded(tool: Tool[RunContext, Any]) -> Callable[[RunContext, BaseModel], Any]:
    def handler(ctx: RunContext, args: BaseModel) -> Any:
        problem = scope_problem(tool.name, args.model_dump(mode="json"), ctx.scope)
        if problem is not None:
            raise ToolError(problem)
        return model_view(tool.handler(ctx, args))

    return handler


@lru_cache(maxsize=16)
def live_registry(provider: str, period: str) -> ToolRegistry[RunContext]:
    """The registry offered to ``provider`` under the Period control ``period`` (guarded, model view)."""
    if provider not in PROFILES:
        raise ValueError(f"no live catalog for provider {provider!r}")
    profile = profile_named(provider)
    full = full_registry()
    tools: list[Tool[RunContext, Any]] = []
    for name in catalog_names(provider, "day" if period == "day" else "window"):
        tool = full.get(name)
        assert tool is not None
        schema = profile.tool_schema(tool.parameters)
        tools.append(Tool(tool.name, tool.description, tool.access, tool.args, _guarded(tool), schema))
    return ToolRegistry(tools)
