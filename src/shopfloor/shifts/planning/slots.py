"""The entities a question named, set on its plan: each grouped so that it can be shown where a tool breaks
down by it, or left on the plan for the answer to name as not applied (docs/shifts-agent.md, "Reading").
Split out of the router (planning/router.py) by role; pure, no store."""

from __future__ import annotations

from dataclasses import replace

from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.reading import Entities


def with_entities(plan: Plan, named: Entities) -> Plan:
    """The plan with the entities the question named, grouped so that each can be shown where possible.

    A place or reason beside downtime groups by it; two kinds group by kind; a grade beside speed or volume
    groups by grade; a crew or width beside a window's speed slices by it. An entity no tool can show
    stays on the plan and the answer names it as not applied."""
    grade = named.grades[0] if named.grades else None
    crew = named.crews[0] if named.crews else None
    reason = named.reasons[0] if named.reasons else None
    place = named.places[0] if named.places else None
    width = named.widths[0] if named.widths else None
    reject = named.rejects[0] if named.rejects else None
    by = plan.by
    if plan.measure in ("downtime", "pareto"):
        if len(named.kinds) > 1:
            by = "kind"
            plan = replace(plan, kind=None)
        elif place is not None:
            by = "place"
        elif reason is not None:
            by = "reason"
    elif plan.measure in ("fpm", "volume") and grade is not None:
        by = "grade"
    elif plan.measure == "fpm" and plan.window != "day" and (crew or width) and by is None:
        by = "crew" if crew else "width"
    metric = plan.metric
    if plan.measure == "trend":
        metric = trend_metric_for(metric, reason or place, grade)
    return replace(
        plan,
        by=by,
        metric=metric,
        grade=grade,
        crew=crew,
        reason=reason,
        place=place,
        width=width,
        reject=reject,
    )


def trend_metric_for(metric: str | None, stop_entity: str | None, grade: str | None) -> str | None:
    """The trend metric of a named thing: a reason or place follows its downtime, a grade its speed to
    target (a grade has no shift speed of its own); otherwise the metric asked."""
    if stop_entity and metric not in ("downtime_pct", "maintenance_pct", "operator_pct"):
        return "downtime_pct"
    if grade and metric == "speed":
        return "speed_to_target"
    return metric
