"""The investigator's tool catalog: one entry per tool, in catalog order, and the registries built from it.

An entry holds everything the investigation knows about a tool: its core ``Tool`` (name, description,
argument model, handler), its default chart, the answer builder that turns its result into sections, whether
it reads one production day or a window, whether it is offered to the offline planner only, and whether its
findings are labelled by shift when an answer spans several shifts. Adding a tool touches this file alone
(docs/shifts-agent.md, "Tools").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel

from shopfloor.agent.tools import Tool, ToolRegistry
from shopfloor.shifts.answers import day_shapes, material_shapes, window_shapes
from shopfloor.shifts.answers.shaping import Shaper
from shopfloor.shifts.tools import charts, daily, groups, levers, material, money, period
from shopfloor.shifts.tools.charts import DefaultChart
from shopfloor.shifts.tools.context import PeriodArgs, RunContext

Grain = Literal["day", "window", "chart"]


@dataclass(frozen=True)
class Entry:
    """One tool of the catalog and what the investigation does with its results."""

    tool: Tool[RunContext, Any]
    grain: Grain
    chart: DefaultChart | None = None
    shape: Shaper | None = None
    offline_only: bool = False
    shift_labelled: bool = False

    @property
    def name(self) -> str:
        """The tool's name."""
        return self.tool.name


def _entry(
    handler: Callable[[RunContext, Any], Any],
    args: type[BaseModel],
    description: str,
    grain: Grain,
    chart: tuple[str, str, str, str] | None = None,
    shape: Shaper | None = None,
    **flags: bool,
) -> Entry:
    tool: Tool[RunContext, Any] = Tool(handler.__name__, description, "read", args, handler)
    return Entry(tool, grain, DefaultChart(*chart) if chart else None, shape, **flags)


D: Grain = "day"
W: Grain = "window"
# Daily tools: the day is the scope's; each result is one shift's, so it is labelled by shift.
_DAY = {"shift_labelled": True}
ENTRIES: tuple[Entry, ...] = (
    _entry(daily.get_shift_kpis, daily.ShiftArgs, "KPIs of one shift of the selected day: output, downtime by kind, waste, speed, with owner bands.", D, ("measure", "value", "bar", "Shift KPIs"), day_shapes.shift_kpis, **_DAY),
    _entry(daily.get_downtime_breakdown, daily.DowntimeArgs, "Downtime of one shift grouped by reason, place or kind; external and planned maintenance last.", D, ("key", "minutes", "bar", "Downtime (min)"), day_shapes.downtime, **_DAY),
    _entry(daily.get_wet_end_performance, daily.ShiftArgs, "Per wet-end run: speed vs grade target and running speed vs the grade's trailing-year baseline.", D, ("run_id", "pct_of_target", "bar", "Speed to target by wet-end run (%)"), day_shapes.wet_end, **_DAY),
    _entry(daily.get_quality_breakdown, daily.ShiftArgs, "Rejected area of one shift by family and reported reason.", D, ("family", "sqft", "bar", "Rejected area (sq ft)"), day_shapes.quality, **_DAY),
    _entry(daily.get_shift_overview, daily.ShiftArgs, "KPI row, largest losses and three chart components of one shift.", D, None, day_shapes.overview, **_DAY),
    _entry(daily.get_order_matrix, daily.ShiftArgs, "Knife fragments of one shift: dimensions, outs, cuts and sheets.", D, None, day_shapes.count_rows(day_shapes.ORDER_RUNS), **_DAY),
    _entry(daily.get_setup_matrix, daily.ShiftArgs, "Every setup of one shift with allocated stops, trim flag and speed.", D, ("record_id", "stop_min", "bar", "Allocated stop minutes by setup"), day_shapes.count_rows(day_shapes.SETUPS), **_DAY),
    _entry(daily.get_shift_notes, daily.ShiftArgs, "The crew's notes of one shift (untrusted text).", D, None, day_shapes.notes, **_DAY),
    _entry(daily.get_rankings, daily.RankingArgs, "The shift's setups ranked by speed, downtime or quality.", D, ("record_id", "pct_of_target", "bar", "Setups by speed to target (%)"), day_shapes.rankings, **_DAY),
    _entry(charts.render_chart, charts.ChartArgs, "A bar or line chart over a successful result of this investigation.", "chart"),
    _entry(period.get_period_kpis, period.PeriodKpiArgs, "Dashboard tiles of a window (day, Mon–Fri week, month, 4-4-5 period) with the previous window.", W, ("measure", "current", "bar", "Window KPIs"), window_shapes.period_kpis),
    _entry(period.compare_periods, period.CompareArgs, "The KPI table for two windows.", W, ("measure", "current", "bar", "Window KPIs"), window_shapes.period_kpis),
    _entry(period.get_downtime_pareto, period.ParetoArgs, "Downtime of a window by reason, place or kind with share and cumulative share.", W, ("key", "minutes", "bar", "Downtime pareto (min)"), window_shapes.pareto),
    _entry(period.get_waste_breakdown, period.WasteArgs, "Trim, shear and each dry-end family of a window as sq ft and % of gross, of one grade or web width if given.", W, ("item", "sqft", "bar", "Waste (sq ft)"), window_shapes.waste),
    _entry(period.get_stops_profile, PeriodArgs, "Unplanned stops per production day and the Mon–Fri weekday profile of a window.", W, ("day", "stops", "bar", "Unplanned stops per production day"), material_shapes.stops),
    _entry(period.get_trend, period.TrendArgs, "Weekly series of one metric (1–26 weeks).", W, ("week_start", "value", "line", "Weekly trend"), window_shapes.trend),
    _entry(period.get_grade_totals, period.GradeArgs, "Per board grade totals of a window: volume, speed against target, stops, trim, dry-end.", W, ("grade", "pct_of_target", "bar", "Speed to target by grade (%)"), window_shapes.grades),
    # Planned by the offline router only (best and worst shift, crews compared over a window): not in a model's catalog.
    _entry(groups.get_group_comparison, groups.GroupArgs, "The shifts or the crews of a window side by side on speed to target, ranked only on a complete window.", W, ("group", "speed_to_target_pct", "bar", "Speed to target (%)"), window_shapes.group_comparison, offline_only=True),
    _entry(material.get_overrun, PeriodArgs, "Nominal versus actual cuts per knife with the share of lines inside, over and under ±2 %.", W, ("knife", "pct_of_nominal", "bar", "Cuts as % of nominal by knife"), material_shapes.overrun),
    _entry(material.get_rollstock, PeriodArgs, "Paper consumed per board grade and web width: lineal feet, MSF footprint, runs.", W, ("grade", "lineal_ft", "bar", "Paper consumed (lineal ft)"), material_shapes.rollstock),
    _entry(levers.get_downtime_review, PeriodArgs, "Maintenance and operator downtime of a window against the owner's bands, every reason by kind.", W, ("reason", "pct_of_scheduled", "bar", "Downtime as % of scheduled minutes"), window_shapes.review),
    _entry(levers.get_speed_opportunity, levers.SpeedOpportunityArgs, "Per grade and width or crew: typical running speed against the best fifth of setups.", W, ("grade", "opportunity_hours", "bar", "Speed opportunity (hours)"), window_shapes.speed_opportunity),
    _entry(levers.get_speed_variance, levers.VarianceArgs, "Where the speed went: reference speed vs the window's speed with stops, in buckets that add up.", W, ("bucket", "fpm", "bar", "Where the speed went (ft/min)"), window_shapes.variance),
    _entry(levers.get_opportunities, levers.OpportunityArgs, "The levers of a window ranked in dollars a year, each with the records behind it.", W, ("item", "usd_per_year", "bar", "Levers ($ a year)"), window_shapes.opportunities),
    _entry(money.get_shift_dollars, money.ShiftDollarArgs, "Where the money went on one shift: each loss priced at the assumed rates, ranked by dollars.", D, ("item", "usd", "bar", "Where the money went ($)"), day_shapes.dollars, **_DAY),
    # Planned by the offline router only, beside a dollars answer over several shifts: never in a model's catalog.
    _entry(money.get_day_dollars, money.DayDollarArgs, "The day's losses over the listed complete shifts, priced once on the day.", D, ("item", "usd", "bar", "Where the money went on the day ($)"), day_shapes.dollars, offline_only=True),
)  # fmt: skip
BY_NAME: dict[str, Entry] = {e.name: e for e in ENTRIES}
DAY_TOOLS = frozenset(e.name for e in ENTRIES if e.grain == "day")
OFFLINE_ONLY = frozenset(e.name for e in ENTRIES if e.offline_only)
CHARTS: dict[str, DefaultChart] = {e.name: e.chart for e in ENTRIES if e.chart is not None}


@lru_cache(maxsize=1)
def full_registry() -> ToolRegistry[RunContext]:
    """Every tool, in catalog order (the offline planner's registry); built once, its schemas with it."""
    return ToolRegistry(e.tool for e in ENTRIES)


@lru_cache(maxsize=1)
def model_registry() -> ToolRegistry[RunContext]:
    """The catalog offered to a live model: everything but the offline-only tools."""
    full = full_registry()
    return full.subset(n for n in full.names if n not in OFFLINE_ONLY)


@lru_cache(maxsize=64)
def plan_registry(names: tuple[str, ...]) -> ToolRegistry[RunContext]:
    """The offline planner's registry for one plan: its steps' tools and render_chart, in catalog order.

    The offline planner reads no tool specs, so a run need not copy the whole catalog's schemas; the plan was
    already checked against the full catalog, and a call outside it is refused by the dispatcher."""
    return full_registry().subset([*names, "render_chart"])
