"""The analyst: a Claude model plans once, as one JSON plan, and code checks it whole before any step runs.

The model call goes through the core loop with no tools (one model call, the live bounds otherwise); its
answer must be ``{"steps": [{"tool": name, "arguments": {...}}, ...]}`` (at most ten steps). The whole plan
is checked against the analyst's catalog (the Claude catalog for the scope, ``live/catalogs.py``) and
the scope before any step runs; one step outside them refuses the plan whole as ``plan_rejected``. An
accepted plan runs through the same loop, dispatcher, done condition and shapes as the offline planner's.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from shopfloor.agent.loop import Outcome, run_loop
from shopfloor.agent.tools import ToolRegistry
from shopfloor.agent.trace import Trace
from shopfloor.shifts.answers import refusals
from shopfloor.shifts.answers.answer import Answer
from shopfloor.shifts.answers.tool_errors import run_error_section
from shopfloor.shifts.investigation import (
    OUTCOME_STATUS,
    PREFACE,
    History,
    Run,
    check_plan,
    investigate_plan,
    parse_plan_text,
    trace_list,
)
from shopfloor.shifts.live.catalogs import live_limits, live_registry, scope_problem
from shopfloor.shifts.live.prompts import PROCESS_REFERENCE, scope_sentence
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.tools.context import RunContext

if TYPE_CHECKING:
    import duckdb

    from shopfloor.agent.providers.base import Provider
    from shopfloor.shifts.planning.plans import Plan

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def analyst_system(scope: Scope, moved: bool, registry: ToolRegistry[RunContext]) -> str:
    """The analyst's prompt: the task, the process reference, the scope, the catalog and the plan format."""
    catalog = "\n".join(
        json.dumps(
            {"tool": s["name"], "description": s["description"], "arguments": s["parameters"]},
            separators=(",", ":"),
        )
        for s in registry.specs()
    )
    parts = [
        "You plan one investigation of a corrugator's synthetic production records. You do not see any "
        "data: write the plan of read-only tool calls that answers the question, and application code runs "
        "it, computes every number and writes the answer.",
        PROCESS_REFERENCE,
        scope_sentence(scope),
    ]
    if moved:
        parts.append(
            "The question named its own day, shift or window; the scope above is already moved to it."
        )
    parts += [
        "Tools you may plan (one JSON object per line; arguments follow the schema exactly):\n" + catalog,
        'Answer with only this JSON and nothing else: {"steps": [{"tool": "<name>", "arguments": {...}}]}, '
        "at most 10 steps. A plan with one step outside the tools or the scope is refused whole.",
    ]
    return "\n\n".join(parts)


def plan_text(text: str | None) -> str:
    """The plan's JSON text, without the code fence a model may wrap it in."""
    raw = text or ""
    fenced = _FENCE.match(raw)
    return fenced.group(1) if fenced else raw.strip()


def plan_problem(
    steps: list[tuple[str, dict[str, Any]]], scope: Scope, registry: ToolRegistry[RunContext]
) -> str | None:
    """Why the plan is refused whole (a tool outside the catalog, or a step outside the scope), or None."""
    rejected = check_plan(steps, scope, registry)
    if rejected is not None:
        return rejected
    for name, args in steps:
        problem = scope_problem(name, args, scope)
        if problem is not None:
            return problem
    return None


def investigate_analyst(
    question: str,
    scope: Scope,
    conn: duckdb.DuckDBPyConnection,
    provider: Provider,
    plan: Plan,
    tool_scope: Scope,
    *,
    routed: bool,
    moved: bool,
    history: History | None = None,
    budget: Any = None,
    abort: threading.Event | None = None,
) -> Answer:
    """Ask the analyst for one plan, check it whole, and run it (or refuse it whole); ``abort`` (the asking
    client left) stops the planning call and the plan's run."""
    registry = live_registry("anthropic", tool_scope.period)
    trace = Trace()
    limits = replace(live_limits("anthropic"), max_iterations=1)
    outcome = run_loop(
        provider,
        analyst_system(tool_scope, moved, registry),
        question,
        ToolRegistry[RunContext]([]),
        RunContext(conn, tool_scope),
        trace,
        limits=limits,
        abort=abort,
        **({"budget": budget} if budget is not None else {}),
    )
    planning = trace_list(trace)
    usage: dict[str, Any] = {
        "model": trace.model,
        "tokens_in": trace.tokens_in,
        "tokens_out": trace.tokens_out,
        "cost_usd": trace.cost_usd,
    }
    address = plan.address() if routed else None

    def stopped(status: str, reason: str, text: str) -> Answer:
        return Answer(
            status,
            question,
            tool_scope.as_dict(),
            address,
            # Said in the page's language: a stopped run's preface from its template, a plan refused whole by
            # its code's sentence (answers/refusals.py, answers/tool_errors.py).
            [refusals.reason(text) if status != "plan_rejected" else run_error_section(text)],
            trace=planning,
            usage={**usage, "tool_calls": 0},
            reason=reason,
            errors=[reason],
        )

    if outcome.outcome is not Outcome.END_TURN:
        status = OUTCOME_STATUS.get(outcome.outcome, "planner_error")
        error = outcome.error or {}
        reason = f"{error.get('type', outcome.outcome.value)}: {error.get('message', '')}".rstrip(": ")
        return stopped(status, reason, PREFACE.get(status, PREFACE["planner_error"]))
    parsed = parse_plan_text(plan_text(outcome.text))
    rejected = parsed if isinstance(parsed, str) else plan_problem(parsed, tool_scope, registry)
    if rejected is not None or isinstance(parsed, str):
        why = rejected or "The plan could not be read."
        return stopped("plan_rejected", why, f"The plan was refused whole before any step ran: {why}")
    run = Run(conn, scope, history, steps=parsed, tool_scope=tool_scope)
    answer = investigate_plan(question, plan, run)
    offset = len(planning)
    answer.trace = planning + [{**step, "i": step["i"] + offset} for step in answer.trace]
    cost = trace.cost_usd
    answer.usage = {
        **answer.usage,
        **usage,
        "cost_usd": None if cost is None else round(cost + (answer.usage.get("cost_usd") or 0.0), 8),
    }
    answer.plan = {**(answer.plan or {}), "analyst_steps": [{"tool": n, "arguments": a} for n, a in parsed]}
    return answer
