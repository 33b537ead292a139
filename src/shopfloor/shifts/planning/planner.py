"""The offline planner: a core Provider that turns a routed plan into tool calls, charts and a finish.

It reads the tool results so far from ``request.messages`` and returns the next turn: first the data calls of
the plan, then ``render_chart`` calls over the successful results (when charts were asked for, or the
overview's three components), then a finish turn whose text is JSON citing the evidence ids. It makes no
model call (model ``offline-reader``, zero usage), so it drives the same loop and dispatcher a live model does.
"""

from __future__ import annotations

import json
from typing import Any

from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    StopReason,
    ToolCall,
    ToolResults,
    Turn,
)
from shopfloor.shifts.planning.plans import Plan

MODEL = "offline-planner"  # priced at zero like every offline planner (docs/shifts-agent.md, Flow step 5)
Step = tuple[str, dict[str, Any]]

# Default chart per tool: (x column, y column, kind, title).
CHARTS: dict[str, tuple[str, str, str, str]] = {
    "get_shift_kpis": ("measure", "value", "bar", "Shift KPIs"),
    "get_downtime_breakdown": ("key", "minutes", "bar", "Downtime (min)"),
    "get_wet_end_performance": ("run_id", "pct_of_target", "bar", "Speed to target by wet-end run (%)"),
    "get_quality_breakdown": ("family", "sqft", "bar", "Rejected area (sq ft)"),
    "get_setup_matrix": ("record_id", "stop_min", "bar", "Allocated stop minutes by setup"),
    "get_rankings": ("record_id", "pct_of_target", "bar", "Setups by speed to target (%)"),
    "get_period_kpis": ("measure", "current", "bar", "Window KPIs"),
    "compare_periods": ("measure", "current", "bar", "Window KPIs"),
    "get_downtime_pareto": ("key", "minutes", "bar", "Downtime pareto (min)"),
    "get_waste_breakdown": ("item", "sqft", "bar", "Waste (sq ft)"),
    "get_stops_profile": ("day", "stops", "bar", "Unplanned stops per production day"),
    "get_trend": ("week_start", "value", "line", "Weekly trend"),
    "get_grade_totals": ("grade", "pct_of_target", "bar", "Speed to target by grade (%)"),
    "get_shift_dollars": ("item", "usd", "bar", "Where the money went ($)"),
    "get_day_dollars": ("item", "usd", "bar", "Where the money went on the day ($)"),
    "get_overrun": ("knife", "pct_of_nominal", "bar", "Cuts as % of nominal by knife"),
    "get_rollstock": ("grade", "lineal_ft", "bar", "Paper consumed (lineal ft)"),
    "get_downtime_review": ("reason", "pct_of_scheduled", "bar", "Downtime as % of scheduled minutes"),
    "get_speed_opportunity": ("grade", "opportunity_hours", "bar", "Speed opportunity (hours)"),
    "get_speed_variance": ("bucket", "fpm", "bar", "Where the speed went (ft/min)"),
    "get_opportunities": ("item", "usd_per_year", "bar", "Levers ($ a year)"),
}
# Measures whose tools are not built (none at present); the investigation answers them as unavailable.
NOT_BUILT: dict[str, str] = {}


def _window(plan: Plan) -> dict[str, str]:
    anchor = plan.anchor or plan.day
    return {"period": plan.window, "anchor": anchor.isoformat()}


def plan_steps(plan: Plan) -> list[Step]:
    """The data calls of a plan, in order (charts and the finish come after their results)."""
    if plan.measure in NOT_BUILT:
        return []
    shifts = [plan.shift] if plan.shift is not None else [1, 2, 3]
    one = plan.shift
    w = _window(plan)
    m = plan.measure
    if plan.window == "day":
        per_shift: dict[str, list[Step]] = {
            "overview": [
                ("get_shift_overview", {}),
                ("get_downtime_breakdown", {"kind": None, "group_by": "reason"}),
            ],
            "kpis": [("get_shift_kpis", {})],
            "downtime": [("get_downtime_breakdown", {"kind": plan.kind, "group_by": plan.by or "reason"})],
            "quality": [("get_quality_breakdown", {})],
            "fpm": [("get_wet_end_performance", {})],
            "volume": [("get_shift_kpis", {})],
            "setups": [("get_setup_matrix", {})],
            "orders": [("get_order_matrix", {})],
            "notes": [("get_shift_notes", {})],
            "rankings": [("get_rankings", {"metric": plan.metric or "speed"})],
            "dollars": [("get_shift_dollars", {})],
        }
        if m == "overview" and plan.shift is not None:
            per_shift["overview"].append(("get_wet_end_performance", {}))
        if m == "compare_shifts":
            return [
                ("get_shift_kpis", {"shift": plan.shift}),
                ("get_shift_kpis", {"shift": plan.other_shift}),
            ]
        if m in per_shift:
            steps = [(name, {"shift": s, **args}) for s in shifts for name, args in per_shift[m]]
            if m in ("fpm", "volume") and plan.by == "grade":
                measure = "speed" if m == "fpm" else "volume"
                steps.append(("get_grade_totals", {"window": w, "shift": one, "measure": measure}))
            if m == "dollars" and len(shifts) > 1:
                steps.append(("get_day_dollars", {"shifts": shifts}))
            return steps
    period: dict[str, list[Step]] = {
        "kpis": [("get_period_kpis", {"window": w, "compare": True, "shift": one})],
        "pareto": [
            (
                "get_downtime_pareto",
                {
                    "window": w,
                    "group_by": plan.by or "reason",
                    "measure": "count" if plan.count else "minutes",
                    "shift": one,
                },
            )
        ],
        "waste": [("get_waste_breakdown", {"window": w, "shift": one})],
        "stops": [("get_stops_profile", {"window": w, "shift": one})],
        "trend": [
            (
                "get_trend",
                {
                    "metric": plan.metric or "speed",
                    "weeks": plan.weeks or 8,
                    "anchor": w["anchor"],
                    "shift": one,
                },
            )
        ],
        "fpm": [
            ("get_period_kpis", {"window": w, "compare": True, "shift": one}),
            ("get_grade_totals", {"window": w, "shift": one, "measure": "speed"}),
        ],
        "volume": [("get_grade_totals", {"window": w, "shift": one, "measure": "volume"})],
        "overrun": [("get_overrun", {"window": w, "shift": one})],
        "rollstock": [("get_rollstock", {"window": w, "shift": one})],
        "review": [("get_downtime_review", {"window": w, "shift": one})],
        "speed_opportunity": [
            (
                "get_speed_opportunity",
                {"window": w, "shift": one, "slice_by": plan.by if plan.by == "crew" else "width"},
            )
        ],
        "variance": [
            ("get_speed_variance", {"window": w, "shift": one, "against": "baseline", "against_shift": None})
        ],
        "opportunities": [("get_opportunities", {"window": w, "shift": one, "lens": plan.lens or "all"})],
        "overview": [
            ("get_period_kpis", {"window": w, "compare": True, "shift": one}),
            ("get_grade_totals", {"window": w, "shift": one, "measure": "speed"}),
            ("get_downtime_pareto", {"window": w, "group_by": "place", "measure": "minutes", "shift": one}),
            ("get_speed_variance", {"window": w, "shift": one, "against": "baseline", "against_shift": None}),
        ],
    }
    if m == "compare":
        if plan.other_anchor is not None:
            other = {"period": plan.window, "anchor": plan.other_anchor.isoformat()}
            # The later window is the current one, whichever the question named first.
            later, earlier = (other, w) if plan.other_anchor > (plan.anchor or plan.day) else (w, other)
            return [("compare_periods", {"current_window": later, "previous_window": earlier, "shift": one})]
        return [("get_period_kpis", {"window": w, "compare": True, "shift": one})]
    if m == "fpm" and plan.by in ("crew", "width"):
        return [
            *period["fpm"],
            ("get_speed_opportunity", {"window": w, "shift": one, "slice_by": plan.by}),
        ]
    return period.get(m, [])


def chart_calls(plan: Plan, results: list[dict[str, Any]]) -> list[Step]:
    """render_chart calls: the overview's components always, one chart per result when charts were asked."""
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
        elif (plan.chart or plan.measure in ("overview", "fpm", "pareto", "trend")) and tool in CHARTS:
            if not result["rows"] or (plan.measure == "overview" and tool == "get_period_kpis"):
                continue
            x, y, kind, title = CHARTS[tool]
            if tool == "get_grade_totals" and result.get("measure") == "volume":
                y, title = "volume_msf", "Volume by grade (MSF)"
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

    def __init__(self, plan: Plan, steps: list[Step] | None = None) -> None:
        self.plan = plan
        self.steps = plan_steps(plan) if steps is None else steps

    def complete(self, request: ModelRequest) -> Turn:
        """Next turn: the data calls, then charts over their results, then the finish citing evidence."""
        turns = sum(1 for m in request.messages if isinstance(m, AssistantTurn))
        if turns == 0 and self.steps:
            return self._calls(self.steps, "d")
        results = successful_results(request.messages)
        if turns == 1 and self.steps:
            charts = chart_calls(self.plan, results)
            if charts:
                return self._calls(charts, "c")
        evidence = [r["result_id"] for r in results]
        return Turn(stop_reason=StopReason.END_TURN, text=json.dumps({"evidence": evidence}), model=MODEL)

    @staticmethod
    def _calls(steps: list[Step], prefix: str) -> Turn:
        calls = tuple(ToolCall(f"{prefix}{i}", name, args) for i, (name, args) in enumerate(steps, 1))
        return Turn(stop_reason=StopReason.TOOL_USE, tool_calls=calls, model=MODEL)
