"""The offline planner: a core Provider that turns a routed plan into tool calls, charts and a finish.

It reads the tool results so far from ``request.messages`` and returns the next turn: first the data calls of
the plan, then ``render_chart`` calls over the successful results (when charts were asked for, or the
overview's three components), then a finish turn whose text is JSON citing the evidence ids. It makes no
model call (model ``offline-reader``, zero usage), so it drives the same loop and dispatcher a live model does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    StopReason,
    ToolCall,
    ToolResults,
    Turn,
)
from shopfloor.shifts.planning.measures import MEASURES, Step
from shopfloor.shifts.planning.plans import Plan

MODEL = "offline-planner"  # priced at zero like every offline planner (docs/shifts-agent.md, Flow step 5)
# Measures whose answers carry their charts unasked (docs/shifts-agent.md, "Flow", step 5).
ALWAYS_CHARTED = ("overview", "fpm", "pareto", "trend", "downtime", "quality", "compare_shifts", "rankings")
# A tool's default chart (x column, y column, kind, title), from the tool catalog.
Chart = tuple[str, str, str, str]
# A comparison of shifts or crews is drawn on the figure it was ranked on (its envelope's ``rank_by``).
GROUP_CHART_TITLES = {
    "downtime": "Unplanned downtime (% of scheduled minutes)",
    "quality": "Dry-end waste (% of gross)",
}


def plan_steps(plan: Plan) -> list[Step]:
    """The data calls of a plan, in order (its measure's row, planning/measures.py)."""
    return MEASURES[plan.measure].steps(plan)


def chart_calls(plan: Plan, results: list[dict[str, Any]], charts: Mapping[str, Chart]) -> list[Step]:
    """render_chart calls: the overview's components always, one chart per result when charts were asked
    (each tool's default chart from ``charts``)."""
    steps: list[Step] = []
    for result in results:
        tool = result["tool"]
        if tool == "get_shift_overview":
            for comp in result.get("components") or []:
                if comp["rows"]:
                    steps.append(
                        (
                            "render_chart",
                            {
                                "result_id": result["result_id"],
                                "component": comp["id"],
                                "kind": "bar",
                                "x": comp["x"],
                                "y": comp["y"],
                                "title": f"Shift {result['shift']}: {comp['title']}",
                            },
                        )
                    )
        elif plan.measure == "overview" and plan.window == "day":
            continue  # the overview brings exactly its three component charts
        elif (plan.chart or plan.measure in ALWAYS_CHARTED) and tool in charts:
            if not result["rows"] or (plan.measure == "overview" and tool == "get_period_kpis"):
                continue
            if plan.measure == "compare_shifts" and tool == "get_group_comparison":
                # The side-by-side table draws it; nine results and their charts stay within 20 calls.
                continue
            x, y, kind, title = charts[tool]
            if plan.measure == "compare_shifts" and result.get("shift") is not None:
                # One chart per compared shift: its title says whose (the page says "Turno 2: …" in Spanish).
                title = f"Shift {result['shift']}: {title}"
            if tool == "get_grade_totals" and result.get("measure") == "volume":
                y, title = "volume_msf", "Volume by grade (MSF)"
            if tool == "get_group_comparison" and result.get("rank_by") in GROUP_CHART_TITLES:
                y, title = str(result["rank_column"]), GROUP_CHART_TITLES[result["rank_by"]]
            steps.append(
                (
                    "render_chart",
                    {
                        "result_id": result["result_id"],
                        "component": None,
                        "kind": kind,
                        "x": x,
                        "y": y,
                        "title": title,
                    },
                )
            )
    return steps


def successful_results(messages: list[Any]) -> list[dict[str, Any]]:
    """The envelopes of the successful data results so far, in call order."""
    out = []
    for message in messages:
        if isinstance(message, ToolResults):
            for result in message.results:
                content = result.content
                usable = not result.is_error and isinstance(content, dict) and "result_id" in content
                if usable and result.name != "render_chart":
                    out.append(content)
    return out


class OfflinePlanner:
    """A Provider that plays a routed plan through the core loop."""

    name = "offline"
    local = True  # computes its turn in process: the loop calls it directly

    def __init__(self, plan: Plan, charts: Mapping[str, Chart], steps: list[Step] | None = None) -> None:
        self.plan = plan
        self.charts = charts
        self.steps = plan_steps(plan) if steps is None else steps

    def complete(self, request: ModelRequest) -> Turn:
        """Next turn: the data calls, then charts over their results, then the finish citing evidence."""
        turns = sum(1 for m in request.messages if isinstance(m, AssistantTurn))
        if turns == 0 and self.steps:
            return self._calls(self.steps, "d")
        results = successful_results(request.messages)
        if turns == 1 and self.steps:
            charts = chart_calls(self.plan, results, self.charts)
            if charts:
                return self._calls(charts, "c")
        evidence = [r["result_id"] for r in results]
        return Turn(stop_reason=StopReason.END_TURN, text=json.dumps({"evidence": evidence}), model=MODEL)

    @staticmethod
    def _calls(steps: list[Step], prefix: str) -> Turn:
        calls = tuple(ToolCall(f"{prefix}{i}", name, args) for i, (name, args) in enumerate(steps, 1))
        return Turn(stop_reason=StopReason.TOOL_USE, tool_calls=calls, model=MODEL)
