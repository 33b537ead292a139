"""The shifts or the crews of a window side by side (``get_group_comparison``, docs/METRICS.md "Comparisons"):
each group's speed to target, shift speed, lineal feet, unplanned downtime and dry-end waste as ratios of sums
over its shift rows, ranked only on a complete window."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import Field

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.plant.calendar import Coverage, Window, coverage, production_days
from shopfloor.shifts.plant.metrics import FIGURE_DIGITS, ratio
from shopfloor.shifts.tools.context import (
    PeriodArgs,
    RunContext,
    Sql,
    args_window,
    envelope,
    scoped_shift,
    window_coverage,
)


class GroupArgs(PeriodArgs):
    """The shifts or the crews of a window (one production day included) side by side."""

    group_by: Literal["shift", "crew"] = Field(description="Compare the shifts or the crews.")
    rank_by: Literal["speed", "downtime", "quality"] = Field(
        default="speed",
        description="Rank on speed to target, unplanned downtime, or dry-end waste.",
    )
    shifts: list[Literal[1, 2, 3]] | None = Field(
        default=None,
        description="Only these shifts (two or more, compared by shift), or null for every shift.",
    )


# Allowlist: grouping name -> column of the shift rows (never a caller's string).
GROUP_BY_COLUMNS = {"shift": "sh.shift", "crew": "sh.crew"}
# What a comparison ranks on: the row's column, whether higher is better, and which end is best, in words.
GROUP_RANKS: dict[str, tuple[str, bool, str]] = {
    "speed": ("speed_to_target_pct", True, "speed to target (highest is best)"),
    "downtime": (
        "unplanned_downtime_pct",
        False,
        "unplanned downtime, maintenance plus operator (lowest is best)",
    ),
    "quality": ("dry_end_pct", False, "dry-end waste (lowest is best)"),
}
GROUP_BEST = GROUP_RANKS["speed"][2]


def get_group_comparison(ctx: RunContext, args: GroupArgs) -> dict[str, Any]:
    """The shifts or crews of a window side by side: speed to target, shift speed, lineal feet, unplanned
    downtime and dry-end waste, each a ratio of sums over the group's shift rows. Ranked by ``rank_by``
    (speed to target highest best, unplanned downtime or dry-end waste lowest best) only when the window is
    complete; a partial window lists them unranked. A day window ranks that day's shifts; ``shifts`` keeps
    only those shifts (a day's "3rd shift vs 1st"): their coverage alone decides the ranking."""
    shift = scoped_shift(ctx, args.shift)
    current, _previous = args_window(args.window)
    sql = Sql()
    chosen = _compared_shifts(ctx, args, shift)
    if chosen is None:
        cover = window_coverage(sql, ctx, current, shift)
    else:
        cover = joined_coverage(current, [window_coverage(sql, ctx, current, s) for s in chosen])
    column = GROUP_BY_COLUMNS[args.group_by]  # allowlisted: the argument model admits only these keys
    found = sql.rows(
        ctx,
        f"""
        WITH sh AS (SELECT day, shift, crew, scheduled_min FROM shifts
                    WHERE day BETWEEN $start AND $end AND list_contains($shifts, shift)),
        su AS (SELECT day, shift, sum(gross_feet) AS feet, sum(target_fpm * elapsed_min) AS target_feet,
                      sum(gross_sqft) AS gross, sum(reject_sqft) AS rejects, sum(trim_sqft) AS trim
               FROM setups WHERE day BETWEEN $start AND $end AND list_contains($shifts, shift)
               GROUP BY day, shift),
        st AS (SELECT day, shift, count(*) AS stops,
                      sum(minutes) FILTER (WHERE kind IN ('Maintenance', 'Operator')) AS unplanned_min
               FROM stops WHERE day BETWEEN $start AND $end AND list_contains($shifts, shift)
               GROUP BY day, shift)
        SELECT {column} AS grp, count(*) AS shift_rows, count(DISTINCT sh.day) AS days,
               sum(sh.scheduled_min) AS scheduled, coalesce(sum(su.feet), 0) AS feet,
               sum(su.target_feet) AS target_feet, sum(su.gross) AS gross, sum(su.rejects) AS rejects,
               sum(su.trim) AS trim, coalesce(sum(st.stops), 0) AS stops,
               coalesce(sum(st.unplanned_min), 0) AS unplanned_min
        FROM sh LEFT JOIN su USING (day, shift) LEFT JOIN st USING (day, shift)
        GROUP BY grp ORDER BY grp
        """,
        {"start": current.start, "end": current.end, "shifts": chosen or ([shift] if shift else [1, 2, 3])},
    )
    rows = []
    for r in found:
        sql.source_rows += int(r["shift_rows"])
        rows.append(
            {
                "group": f"{args.group_by.capitalize()} {r['grp']}",
                args.group_by: r["grp"],
                "shifts_run": r["shift_rows"],
                "days": r["days"],
                "speed_to_target_pct": ratio(r["feet"], r["target_feet"], 100, digits=FIGURE_DIGITS),
                "shift_fpm": ratio(r["feet"], r["scheduled"], digits=FIGURE_DIGITS),
                "lineal_ft": r["feet"],
                "unplanned_downtime_pct": ratio(
                    r["unplanned_min"], r["scheduled"], 100, digits=FIGURE_DIGITS
                ),
                "stops": r["stops"],
                "trim_pct": ratio(r["trim"], r["gross"], 100, digits=FIGURE_DIGITS),
                "dry_end_pct": ratio(r["rejects"], r["gross"], 100, digits=FIGURE_DIGITS),
                "rank": None,
            }
        )
    column, _higher, best = GROUP_RANKS[args.rank_by]
    if cover.complete:
        rows = rank_groups(rows, args.rank_by)
    # The gap to the best is said in points of speed to target, so only a ranking on speed has one.
    ranked_on_speed = cover.complete and args.rank_by == "speed"
    rows = behind_best(rows) if ranked_on_speed else [{**r, "points_behind_best": None} for r in rows]
    return envelope(
        ctx,
        "get_group_comparison",
        sql,
        rows,
        window=current,
        cover=cover,
        shift=shift,
        group_by=args.group_by,
        rank_by=args.rank_by,
        rank_column=column,
        best=best,
        ranked=cover.complete,
        note=None if cover.complete else "The window is partial: the groups are listed, not ranked.",
    )


def _compared_shifts(ctx: RunContext, args: GroupArgs, shift: int | None) -> list[int] | None:
    """The shifts ``args.shifts`` names, each checked against the scope, in shift order; None for every
    shift of the scope."""
    if args.shifts is None:
        return None
    if args.group_by != "shift":
        raise ToolError("shifts lists the shifts compared by shift; crews are compared over every shift.")
    chosen: list[int] = sorted(set(args.shifts))
    if len(chosen) < 2:
        raise ToolError("shifts must name two or more shifts.")
    if shift is not None and chosen != [shift]:
        raise ToolError(f"shifts {chosen} are outside the selected shift {shift}.")
    for s in chosen:
        scoped_shift(ctx, s)
    return chosen


def joined_coverage(window: Window, covers: list[Coverage]) -> Coverage:
    """One coverage of several shifts' own: a day is held when every shift's coverage holds it, and complete
    only when it is complete for each of them."""
    expected = set(production_days(window))
    missing = {d for c in covers for d in c.missing}
    invalid = {d for c in covers for d in c.invalid}
    why: dict[date, list[str]] = {}
    for c in covers:
        for day, text in c.why:
            if text not in why.setdefault(day, []):
                why[day].append(text)
    return coverage(window, expected - missing, invalid, {d: " and ".join(t) for d, t in why.items()})


def behind_best(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each ranked row with ``points_behind_best``: the best row's speed to target minus its own, both at the
    two decimals an answer shows them, so the gap said is the one a reader works out from the figures said
    (0 for the best and any row level with it); None for an unranked row."""
    best = next((r["speed_to_target_pct"] for r in rows if r["rank"] == 1), None)
    out = []
    for r in rows:
        gap = None
        if best is not None and r["rank"] is not None:
            gap = round(round(best, 2) - round(r["speed_to_target_pct"], 2), 2)
        out.append({**r, "points_behind_best": gap})
    return out


def rank_groups(rows: list[dict[str, Any]], rank_by: str = "speed") -> list[dict[str, Any]]:
    """The rows ordered best first on ``rank_by`` (speed to target highest first, unplanned downtime or
    dry-end waste lowest first; a tie keeps the groups' own order), each with its rank (1 = best); a group
    without that figure comes last, unranked."""
    column, higher, _best = GROUP_RANKS[rank_by]
    known = sorted(
        (r for r in rows if r[column] is not None), key=lambda r: -r[column] if higher else r[column]
    )
    unknown = [r for r in rows if r[column] is None]
    return [{**r, "rank": i} for i, r in enumerate(known, start=1)] + unknown
