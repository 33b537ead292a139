"""The measures a plan can ask for: one row each, with its tool steps on a day and over a window.

A ``Measure`` row says everything the planning knows of a measure: the tool calls it makes on one production
day (``None``: it has no day form of its own and runs its window form over that day), the calls over a
window (``None``: day-only, so a window question refuses it), and which tool's headline leads the answer.
Adding a measure touches this table alone (docs/shifts-agent.md, "Flow").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

Step = tuple[str, dict[str, Any]]


class PlanView(Protocol):
    """The fields of a plan the steps read (``plans.Plan`` has them all)."""

    @property
    def measure(self) -> str: ...
    @property
    def day(self) -> date: ...
    @property
    def shift(self) -> int | None: ...
    @property
    def window(self) -> str: ...
    @property
    def anchor(self) -> date | None: ...
    @property
    def by(self) -> str | None: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def metric(self) -> str | None: ...
    @property
    def weeks(self) -> int | None: ...
    @property
    def lens(self) -> str | None: ...
    @property
    def count(self) -> bool: ...
    @property
    def ask(self) -> str | None: ...
    @property
    def other_shift(self) -> int | None: ...
    @property
    def other_anchor(self) -> date | None: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def place(self) -> str | None: ...
    @property
    def grade(self) -> str | None: ...
    @property
    def width(self) -> int | None: ...
    @property
    def crew(self) -> str | None: ...


Steps = Callable[[PlanView], list[Step]]


@dataclass(frozen=True)
class Measure:
    """One measure: its steps on a day and over a window, and the tool whose headline leads."""

    name: str
    day: Steps | None
    window: Steps | None
    headline: str | None = None

    @property
    def windowed(self) -> bool:
        """Whether the measure has a window form (otherwise it is day-only)."""
        return self.window is not None

    def steps(self, plan: PlanView) -> list[Step]:
        """The data calls of ``plan``, in order (charts and the finish come after their results)."""
        if plan.window == "day" and self.day is not None:
            return self.day(plan)
        return self.window(plan) if self.window is not None else []


def _shifts(plan: PlanView) -> list[int]:
    return [plan.shift] if plan.shift is not None else [1, 2, 3]


def _w(plan: PlanView) -> dict[str, str]:
    anchor = plan.anchor or plan.day
    return {"period": plan.window, "anchor": anchor.isoformat()}


def per_shift(*calls: Callable[[PlanView], Step]) -> Steps:
    """Day steps that run each call once per shift of the plan (the selected one, or all three)."""

    def steps(plan: PlanView) -> list[Step]:
        out: list[Step] = []
        for shift in _shifts(plan):
            for call in calls:
                name, args = call(plan)
                out.append((name, {"shift": shift, **args}))
        return out

    return steps


def _fixed(name: str, **args: Any) -> Callable[[PlanView], Step]:
    return lambda _plan: (name, dict(args))


def _kpis(plan: PlanView) -> Step:
    return "get_period_kpis", {"window": _w(plan), "compare": True, "shift": plan.shift}


def _grades(measure: str) -> Callable[[PlanView], Step]:
    return lambda plan: ("get_grade_totals", {"window": _w(plan), "shift": plan.shift, "measure": measure})


def _pareto(plan: PlanView, group: str | None = None) -> Step:
    group_by = group or plan.by or "reason"
    args: dict[str, Any] = {
        "window": _w(plan),
        "group_by": group_by,
        "measure": "count" if plan.count and group is None else "minutes",
        "shift": plan.shift,
    }
    if group is None:
        args.update(reason_filter(plan, group_by))
        # A kind named beside rows by reason or place filters them, as on a day ("maint downtime by place this
        # week"); by kind, the kind's own row is the answer; a share of one kind is its row among every kind.
        if plan.kind and group_by != "kind" and plan.ask != "share":
            args["kind"] = plan.kind
    return "get_downtime_pareto", args


def reason_filter(plan: PlanView, group_by: str) -> dict[str, str]:
    """A named reason on rows by place or kind is a filter ("how many times did the upper knife jam"); only
    a filter set is written ("any" is the tool's default), so a plain call is unchanged."""
    return {"reason": plan.reason} if plan.reason and group_by != "reason" else {}


def _variance(plan: PlanView) -> Step:
    args = {"window": _w(plan), "shift": plan.shift, "against": "baseline", "against_shift": None}
    return "get_speed_variance", args


def _window_tool(name: str) -> Steps:
    return lambda plan: [(name, {"window": _w(plan), "shift": plan.shift})]


# The KPI tiles a plan's metric may lead with (answers/shapes.TILE_LEADS): over every shift of a day the
# day's own tile leads, so the day is read as one window beside its shifts.
TILE_METRICS = ("dry_end_pct", "trim_pct", "maintenance_pct", "operator_pct")


def _kpis_day(plan: PlanView) -> list[Step]:
    out = per_shift(_fixed("get_shift_kpis"))(plan)
    if plan.shift is None and plan.metric in TILE_METRICS:
        day = {"period": "day", "anchor": plan.day.isoformat()}
        out.append(("get_period_kpis", {"window": day, "compare": False, "shift": None}))
    return out


def _overview_day(plan: PlanView) -> list[Step]:
    calls = [_fixed("get_shift_overview"), _fixed("get_downtime_breakdown", kind=None, group_by="reason")]
    if plan.shift is not None:
        # One shift's diagnosis: speed against grade target first, then downtime, wet-end speed and notes.
        calls += [_fixed("get_wet_end_performance"), _fixed("get_shift_notes")]
    return per_shift(*calls)(plan)


def _with_grades(measure: str, *calls: Callable[[PlanView], Step]) -> Steps:
    """Per-shift steps, then the grade rows when the question asked by grade."""

    def steps(plan: PlanView) -> list[Step]:
        out = per_shift(*calls)(plan)
        if plan.by == "grade":
            out.append(_grades(measure)(plan))
        return out

    return steps


def _dollars_day(plan: PlanView) -> list[Step]:
    out = per_shift(_fixed("get_shift_dollars"))(plan)
    if len(_shifts(plan)) > 1:
        out.append(("get_day_dollars", {"shifts": _shifts(plan)}))
    return out


def _compare_shifts(plan: PlanView) -> list[Step]:
    """KPIs, downtime by reason and wet-end speed of each compared shift (all three when none is named),
    then the shifts side by side on the day (the comparison's headline and table, docs/shifts-agent.md)."""
    shifts = [plan.shift, plan.other_shift] if plan.shift is not None else [1, 2, 3]
    calls: list[Step] = [
        ("get_shift_kpis", {}),
        ("get_downtime_breakdown", {"kind": None, "group_by": "reason"}),
        ("get_wet_end_performance", {}),
    ]
    steps = [(name, {"shift": shift, **args}) for name, args in calls for shift in shifts]
    compared = sorted({s for s in shifts if s is not None})
    if len(compared) < 2:
        return steps  # one shift named twice: nothing to set beside it
    side: dict[str, Any] = {"window": {"period": "day", "anchor": plan.day.isoformat()}, "shift": None}
    side["group_by"] = "shift"
    if len(compared) < 3:
        side["shifts"] = compared
    return [*steps, ("get_group_comparison", side)]


def _compare(plan: PlanView) -> list[Step]:
    if plan.other_anchor is None:
        return [_kpis(plan)]
    w = _w(plan)
    other = {"period": plan.window, "anchor": plan.other_anchor.isoformat()}
    # The later window is the current one, whichever the question named first.
    later, earlier = (other, w) if plan.other_anchor > (plan.anchor or plan.day) else (w, other)
    return [("compare_periods", {"current_window": later, "previous_window": earlier, "shift": plan.shift})]


def _fpm_window(plan: PlanView) -> list[Step]:
    out = [_kpis(plan), _grades("speed")(plan)]
    if plan.by in ("crew", "width"):
        out.append(("get_speed_opportunity", {"window": _w(plan), "shift": plan.shift, "slice_by": plan.by}))
    if plan.crew is not None:
        # A named crew's own speed to target over the window, which its yes/no is held to.
        out.append(("get_group_comparison", {"window": _w(plan), "shift": plan.shift, "group_by": "crew"}))
    return out


# The trend metrics a named reason or place filters (stops) and those a named grade filters (setups).
STOP_TREND_METRICS = ("downtime_pct", "maintenance_pct", "operator_pct")
SETUP_TREND_METRICS = ("speed_to_target", "lineal_ft", "trim_pct", "dry_end_pct")


def _trend(plan: PlanView) -> list[Step]:
    metric = plan.metric or "speed"
    stops = metric in STOP_TREND_METRICS
    args: dict[str, Any] = {
        "metric": metric,
        "weeks": plan.weeks or 8,
        "anchor": _w(plan)["anchor"],
        "shift": plan.shift,
    }
    # The trend of the thing named, not of the whole line (docs/shifts-agent.md, "Reading"); only the
    # filters set are written ("any" is the tool's default), so a plain trend's call is unchanged.
    if stops and plan.reason:
        args["reason"] = plan.reason
    if stops and plan.place:
        args["place"] = plan.place
    if metric in SETUP_TREND_METRICS and plan.grade:
        args["grade"] = plan.grade
    return [("get_trend", args)]


def _waste(plan: PlanView) -> list[Step]:
    """The waste breakdown, of the grade or web width named ("trim on 98 inch")."""
    args: dict[str, Any] = {"window": _w(plan), "shift": plan.shift}
    if plan.grade:
        args["grade"] = plan.grade
    if plan.width:
        args["width"] = str(plan.width)
    return [("get_waste_breakdown", args)]


def _groups(plan: PlanView) -> list[Step]:
    group = "crew" if plan.by == "crew" else "shift"
    args: dict[str, Any] = {"window": _w(plan), "shift": plan.shift, "group_by": group}
    if plan.metric in ("downtime", "quality"):
        args["rank_by"] = plan.metric  # ranked on the measure asked; speed to target is the tool's default
    return [("get_group_comparison", args)]


def _named_cost(plan: PlanView) -> list[Step]:
    """The pareto grouped by what is named: a reason's rows when a reason is named, else a place's."""
    by_place = plan.by == "place" or (plan.by is None and plan.place is not None and plan.reason is None)
    return [_pareto(plan, "place" if by_place else "reason")]


def _speed_opportunity(plan: PlanView) -> list[Step]:
    slice_by = plan.by if plan.by == "crew" else "width"
    return [("get_speed_opportunity", {"window": _w(plan), "shift": plan.shift, "slice_by": slice_by})]


def _opportunities(plan: PlanView) -> list[Step]:
    return [("get_opportunities", {"window": _w(plan), "shift": plan.shift, "lens": plan.lens or "all"})]


def _overview_window(plan: PlanView) -> list[Step]:
    return [_kpis(plan), _grades("speed")(plan), _pareto(plan, "place"), _variance(plan)]


def _downtime(plan: PlanView) -> Step:
    # A share of one kind is that kind's row among every kind, never the kind alone (100 % of itself).
    kind = None if plan.ask == "share" else plan.kind
    group = plan.by or "reason"
    return "get_downtime_breakdown", {"kind": kind, "group_by": group, **reason_filter(plan, group)}


def _rankings(plan: PlanView) -> list[Step]:
    """The setups ranked by the metric asked, or by speed, downtime and quality when none was; over every
    shift of the day, the day's shifts ranked against each other first, on the metric asked (speed to
    target when none was)."""
    # The lineal feet have no setup ranking: the day's shifts compared on them are the whole answer.
    metrics = (
        []
        if plan.metric == "lineal_ft"
        else [plan.metric]
        if plan.metric
        else ["speed", "downtime", "quality"]
    )
    out: list[Step] = []
    if plan.shift is None:
        day = {"period": "day", "anchor": plan.day.isoformat()}
        rank = {"rank_by": plan.metric} if plan.metric in ("downtime", "quality") else {}
        out.append(("get_group_comparison", {"window": day, "shift": None, "group_by": "shift", **rank}))
    return out + [("get_rankings", {"shift": s, "metric": m}) for s in _shifts(plan) for m in metrics]


_M = Measure
MEASURES: dict[str, Measure] = {
    m.name: m
    for m in (
        _M("overview", _overview_day, _overview_window),
        _M("kpis", _kpis_day, lambda p: [_kpis(p)]),
        _M("downtime", per_shift(_downtime), None),
        _M("quality", per_shift(_fixed("get_quality_breakdown")), None),
        _M("fpm", _with_grades("speed", _fixed("get_shift_kpis"), _fixed("get_wet_end_performance")), _fpm_window),
        # Over a window the grades' volume, and the window's own tiles (its lineal feet, gross and good area).
        _M("volume", _with_grades("volume", _fixed("get_shift_kpis")), lambda p: [_grades("volume")(p), _kpis(p)],
           headline="get_grade_totals"),
        _M("setups", per_shift(_fixed("get_shift_kpis"), _fixed("get_shift_notes"), _fixed("get_setup_matrix")), None, headline="get_setup_matrix"),
        _M("orders", per_shift(_fixed("get_shift_kpis"), _fixed("get_order_matrix")), None, headline="get_order_matrix"),
        _M("notes", per_shift(_fixed("get_shift_notes")), None),
        _M("rankings", _rankings, None, headline="get_group_comparison"),
        _M("dollars", _dollars_day, None, headline="get_day_dollars"),
        _M("compare_shifts", _compare_shifts, None, headline="get_group_comparison"),
        _M("compare", None, _compare),
        _M("pareto", None, lambda p: [_pareto(p)]),
        _M("waste", None, _waste),
        _M("stops", None, _window_tool("get_stops_profile")),
        _M("trend", None, _trend),
        _M("overrun", None, _window_tool("get_overrun")),
        _M("rollstock", None, _window_tool("get_rollstock")),
        _M("review", None, _window_tool("get_downtime_review")),
        _M("speed_opportunity", None, _speed_opportunity),
        _M("variance", None, lambda p: [_variance(p)]),
        _M("opportunities", None, _opportunities),
        _M("compare_groups", None, _groups, headline="get_group_comparison"),
        _M("named_cost", None, _named_cost),
    )
}  # fmt: skip
MEASURE_NAMES = tuple(MEASURES)
DAY_ONLY = frozenset(name for name, m in MEASURES.items() if not m.windowed)
WINDOWED = frozenset(name for name, m in MEASURES.items() if m.windowed)
