"""Period tools: a window of the record store (day, Mon–Fri week, calendar month or 4-4-5 period).

Each query is one set-based statement over the window with bound dates; the previous window is computed
the same way; coverage says whether every expected production day is present and valid. Deltas and rankings
are withheld unless the windows are complete (missing days are unavailable, never zero).
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.plant.calendar import (
    Coverage,
    Window,
    production_days,
    window_for,
    windows_back,
)
from shopfloor.shifts.plant.catalog import GRADE_TARGETS, PLACE_FAMILIES, STOP_PLACES
from shopfloor.shifts.plant.metrics import FIGURE_DIGITS, TrendMetric, ratio
from shopfloor.shifts.plant.money import RATES, board_usd, per_year
from shopfloor.shifts.tools.context import (
    ANY,
    EARLIEST,
    LATEST,
    PeriodArgs,
    Reason,
    RunContext,
    Sql,
    WindowArg,
    any_or,
    args_window,
    envelope,
    filters_of,
    one_of,
    reason_filter,
    scoped_shift,
    window_coverage,
)
from shopfloor.shifts.tools.rows import downtime_rows, downtime_totals
from shopfloor.shifts.tools.sums import (
    BETTER,
    DRY_END_BAND,
    SHEAR_GUIDE,
    TRIM_FLAG,
    UNITS,
    band,
    change_label,
    kpi_sums,
    kpis,
    params,
)

FAMILIES = ("bond", "warp", "misalignment", "moisture", "bale")


class PeriodKpiArgs(PeriodArgs):
    """KPI tiles of a window, optionally against the previous window."""

    compare: bool = Field(description="Also read the previous window and give deltas.")


class CompareArgs(BaseModel):
    """Two arbitrary windows side by side."""

    model_config = ConfigDict(extra="forbid")
    current_window: WindowArg
    previous_window: WindowArg
    shift: Literal[1, 2, 3] | None = Field(description="One shift, or null for all three.")


_PLACES = STOP_PLACES + tuple(PLACE_FAMILIES)  # a family ("Splicers") is every place of it
Place = Annotated[str, one_of(_PLACES, "place"), any_or(_PLACES)]


class ParetoArgs(PeriodArgs):
    """Downtime pareto of a window."""

    group_by: Literal["reason", "place", "kind"] = Field(description="Grouping of the rows.")
    measure: Literal["minutes", "count"] = Field(description="Order by minutes or by stop count.")
    reason: Reason = Field(default=ANY, description="Only stops of this reason (by place or kind), or any.")
    # The kind filter of the day's downtime, over a window ("maint downtime by place this month"): external
    # stops are always listed, as on a day (docs/shifts-agent.md, "Reading").
    kind: Literal["any", "Maintenance", "Operator", "PM"] = Field(
        default="any",
        description="Only this kind of downtime, by reason or place (external stops always listed), or any.",
    )


Grade = Annotated[str, one_of(tuple(GRADE_TARGETS), "grade"), any_or(tuple(GRADE_TARGETS))]
Width = Literal[
    "any", "98", "95", "92", "87"
]  # the web widths of plant/catalog.py, as the address spells them


class WasteArgs(PeriodArgs):
    """Waste of a window, optionally of one board grade or one web width."""

    grade: Grade = Field(default=ANY, description="Only setups of this board grade, or any.")
    width: Width = Field(default="any", description="Only setups on this web width in inches, or any.")


# The metrics each filter applies to: stops carry reason and place, setups carry the grade.
STOP_METRICS = ("downtime_pct", "maintenance_pct", "operator_pct")
SETUP_METRICS = ("speed_to_target", "lineal_ft", "trim_pct", "dry_end_pct")


class TrendArgs(BaseModel):
    """A weekly series of one metric, optionally of one stop reason, one place or one board grade."""

    model_config = ConfigDict(extra="forbid")
    metric: TrendMetric = Field(description="The metric of the series.")
    weeks: int = Field(description="Number of Mon–Fri weeks, 1 to 26, ending with the anchor's week.")
    anchor: date = Field(description="A date in the last week of the series, YYYY-MM-DD.")
    shift: Literal[1, 2, 3] | None = Field(description="One shift, or null for all three.")
    reason: Reason = Field(default=ANY, description="Only stops of this reason (downtime metrics), or any.")
    place: Place = Field(default=ANY, description="Only stops at this place (downtime metrics), or any.")
    grade: Grade = Field(
        default=ANY,
        description="Only setups of this grade (speed_to_target, lineal_ft, trim_pct, dry_end_pct), or any.",
    )

    def filters(self) -> dict[str, str]:
        """The filters set (``any`` is none), by name."""
        pairs = (("reason", self.reason), ("place", self.place), ("grade", self.grade))
        return {k: v for k, v in pairs if v != ANY}


class GradeArgs(PeriodArgs):
    """Per board grade totals of a window."""

    measure: Literal["volume", "speed"] = Field(description="Which measure leads: volume or speed.")


def _kpi_block(
    ctx: RunContext, sql: Sql, window: Window, shift: int | None
) -> tuple[dict[str, Any], Coverage]:
    cover = window_coverage(sql, ctx, window, shift)
    values = kpis(kpi_sums(ctx, sql, window.start, window.end, shift))
    if cover.status == "unavailable":
        # A window the store holds no day of has no figures: missing is not zero (docs/METRICS.md).
        values = dict.fromkeys(values)
    return values, cover


def _kpi_table(
    current: dict[str, Any], previous: dict[str, Any] | None, deltas: bool
) -> list[dict[str, Any]]:
    rows = []
    for measure, value in current.items():
        prev = None if previous is None else previous.get(measure)
        delta = None
        if deltas and value is not None and prev is not None:
            delta = round(value - prev, 4)
        band_value, band_text, flagged = band(measure, value)
        rows.append(
            {
                "measure": measure,
                "current": value,
                "previous": prev,
                "delta": delta,
                "unit": UNITS[measure],
                "better": BETTER[measure],
                "change": change_label(delta, BETTER[measure]),
                "band": band_value,
                "band_text": band_text,
                "flag": flagged,
            }
        )
    return rows


def _comparison(
    ctx: RunContext, tool: str, current: Window, previous: Window | None, shift: int | None
) -> dict[str, Any]:
    sql = Sql()
    values, cover = _kpi_block(ctx, sql, current, shift)
    prev_values: dict[str, Any] | None = None
    prev_cover: Coverage | None = None
    if previous is not None:
        prev_values, prev_cover = _kpi_block(ctx, sql, previous, shift)
    both = cover.complete and (prev_cover is not None and prev_cover.complete)
    rows = _kpi_table(values, prev_values, both)
    crews = sql.rows(
        ctx,
        """
        SELECT crew, count(*) AS shifts FROM shifts
        WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        GROUP BY crew ORDER BY shifts DESC, crew
        """,
        params(current.start, current.end, shift),
    )
    notes = []
    if previous is not None and not both:
        notes.append("Deltas are withheld: both windows must be complete.")
    unequal = previous is not None and len(production_days(current)) != len(production_days(previous))
    if unequal:
        notes.append("The windows hold unequal numbers of production days; compare rates, not totals.")
    return envelope(
        ctx,
        tool,
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        previous_coverage=prev_cover.as_dict() if prev_cover else None,
        deltas_withheld=previous is not None and not both,
        unequal_production_days=unequal,
        crews=crews,
        notes=notes,
        # The window's gross area in MSF (thousands of square feet), the unit a volume question may ask in.
        gross_msf=ratio(values["gross_sqft"], 1000, digits=FIGURE_DIGITS),
    )


def get_period_kpis(ctx: RunContext, args: PeriodKpiArgs) -> dict[str, Any]:
    """The dashboard tiles of a window with the previous window, deltas only when both are complete."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    return _comparison(ctx, "get_period_kpis", current, previous if args.compare else None, shift)


def compare_periods(ctx: RunContext, args: CompareArgs) -> dict[str, Any]:
    """The KPI table for two arbitrary windows."""
    shift = scoped_shift(ctx, args.shift)
    current, _ = args_window(args.current_window)
    other, _ = args_window(args.previous_window)
    return _comparison(ctx, "compare_periods", current, other, shift)


def get_downtime_pareto(ctx: RunContext, args: ParetoArgs) -> dict[str, Any]:
    """Downtime ordered by minutes or count with share and cumulative share; previous minutes alongside."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    only = reason_filter(args.reason)
    kind = reason_filter(args.kind)
    rows = downtime_rows(
        ctx,
        sql,
        params(current.start, current.end, shift),
        args.group_by,
        kind,
        days=cover.held_days,
        reason=only,
    )
    prev_sql = Sql()
    prev_cover = window_coverage(prev_sql, ctx, previous, shift)
    before = {
        (r["key"], r["class"]): r
        for r in downtime_rows(
            ctx, prev_sql, params(previous.start, previous.end, shift), args.group_by, kind, reason=only
        )
    }
    sort_key = "stops" if args.measure == "count" else "minutes"
    ranked = sorted((r for r in rows if r["class"] == "controllable"), key=lambda r: (-r[sort_key], r["key"]))
    apart = [r for r in rows if r["class"] != "controllable"]
    total = sum(r[sort_key] for r in ranked) or None
    cumulative = 0.0
    for row in ranked:
        cumulative += row[sort_key]
        row["share"] = ratio(row[sort_key], total, digits=FIGURE_DIGITS)
        row["cum_share"] = ratio(cumulative, total, digits=FIGURE_DIGITS)
    for row in apart:
        row["share"] = row["cum_share"] = None
    out = ranked + apart
    for row in out:
        prev = before.get((row["key"], row["class"]))
        # A reason absent from a covered previous window had zero minutes; an uncovered window is unknown.
        row["previous_minutes"] = (
            None if prev_cover.status == "unavailable" else (prev["minutes"] if prev else 0.0)
        )
    return envelope(
        ctx,
        "get_downtime_pareto",
        sql,
        out,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        group_by=args.group_by,
        measure=args.measure,
        **downtime_totals(out),
        **filters_of(args.reason, args.kind),
        previous_coverage=prev_cover.as_dict(),
        ranked=cover.complete,
        note=None if cover.complete else "The window is partial: rows are listed, rankings withheld.",
    )


# The setups a waste answer reads: the window and shift, and the grade and web width when one is named.
_WASTE_SETUPS = """
    SELECT * FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
      AND ($grade IS NULL OR grade = $grade) AND ($width IS NULL OR width_in = $width)
"""


def _waste_sums(
    ctx: RunContext, sql: Sql, window: Window, shift: int | None, filters: dict[str, Any] | None = None
) -> dict[str, Any]:
    p = {**params(window.start, window.end, shift), "grade": None, "width": None, **(filters or {})}
    total = sql.rows(
        ctx,
        f"""
        SELECT count(*) AS setups, sum(gross_sqft) AS gross, sum(trim_sqft) AS trim, sum(shear_sqft) AS shear,
               sum(reject_sqft) AS rejects
        FROM ({_WASTE_SETUPS})
        """,
        p,
    )[0]
    # A reject belongs to its setup's grade and web width (the reject's own width is the sheet's).
    families = sql.rows(
        ctx,
        f"""
        SELECT family, coalesce(reason, '(not reported)') AS reason, count(*) AS records, sum(sqft) AS sqft
        FROM rejects r
        WHERE r.day BETWEEN $start AND $end AND ($shift IS NULL OR r.shift = $shift)
          AND (($grade IS NULL AND $width IS NULL)
               OR (r.day, r.shift, r.record_id) IN (SELECT (day, shift, record_id) FROM ({_WASTE_SETUPS})))
        GROUP BY ALL ORDER BY sqft DESC, family, reason
        """,
        p,
    )
    sql.source_rows += int(total["setups"] or 0) + sum(int(r["records"]) for r in families)
    return {"total": total, "details": families}


def get_waste_breakdown(ctx: RunContext, args: WasteArgs) -> dict[str, Any]:
    """Trim, shear and each dry-end family as sq ft and % of gross, with the previous window; of one grade
    or web width when one is given (every row then carries it)."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    named: dict[str, Any] = {}
    if args.grade != ANY:
        named["grade"] = args.grade
    if args.width != "any":
        named["width"] = float(args.width)
    now = _waste_sums(ctx, sql, current, shift, named)
    before = _waste_sums(ctx, Sql(), previous, shift, named)
    rows, dry = _waste_rows(now, before, cover.held_days)
    # Each reported reason's part of the rejected area: a fraction, and the same share in percent.
    details = [
        {
            **r,
            "share_of_dry_end": ratio(r["sqft"], dry, digits=FIGURE_DIGITS),
            "share_pct": ratio(r["sqft"], dry, 100, digits=FIGURE_DIGITS),
        }
        for r in now["details"]
    ]
    shown = {k if k != "width" else "width_in": v for k, v in named.items()}
    rows = [{**row, **shown} for row in rows]
    return envelope(
        ctx,
        "get_waste_breakdown",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        details=details,
        rates=RATES.as_dict(),
    )


def _family_area(block: dict[str, Any]) -> dict[str, float]:
    """Dry-end sq ft by family of one window's waste sums, every family present."""
    area = dict.fromkeys(FAMILIES, 0.0)
    for row in block["details"]:
        area[row["family"]] = area.get(row["family"], 0.0) + row["sqft"]
    return area


def _waste_rows(now: dict[str, Any], before: dict[str, Any], days: int) -> tuple[list[dict[str, Any]], float]:
    """The waste rows (trim, shear, each dry-end family, the dry-end total, unexplained) of a window
    against the previous one, priced over ``days`` held days (a year is scaled from the days held, never
    the days expected); with the dry-end total."""
    fam_now, fam_before = _family_area(now), _family_area(before)
    gross, prev_gross = now["total"]["gross"], before["total"]["gross"]
    yield_sqft = None if gross is None else gross - (now["total"]["trim"] or 0) - (now["total"]["shear"] or 0)
    items: list[tuple[str, float | None, float | None, str]] = [
        ("trim", now["total"]["trim"], before["total"]["trim"], "side trim"),
        ("shear", now["total"]["shear"], before["total"]["shear"], "shear"),
    ]
    items += [(f, fam_now[f], fam_before[f], "dry-end") for f in FAMILIES]
    dry = sum(fam_now.values())
    rows = []
    for name, sqft, prev, group in items:
        row: dict[str, Any] = {
            "item": name,
            "group": group,
            "sqft": sqft,
            "pct_of_gross": ratio(sqft, gross, 100, digits=FIGURE_DIGITS),
            "previous_sqft": prev,
            "previous_pct_of_gross": ratio(prev, prev_gross, 100, digits=FIGURE_DIGITS),
            "pct_of_yield": ratio(sqft, yield_sqft, 100, digits=FIGURE_DIGITS)
            if group == "dry-end"
            else None,
            "usd": board_usd(sqft or 0.0),
            "usd_per_year": per_year(board_usd(sqft or 0.0), days),
            # A dry-end family's part of the rejected area ("what share of the rejects were warp").
            "share_pct": ratio(sqft, dry, 100, digits=FIGURE_DIGITS) if group == "dry-end" else None,
        }
        if name == "trim":
            row["band"], row["band_text"] = TRIM_FLAG, f"trim flags above {TRIM_FLAG} % per setup"
        if name == "shear":
            row["band"], row["band_text"] = SHEAR_GUIDE[1], "shear 0.4–1 % is guidance, not an alarm"
        rows.append(row)
    rows.append(
        {
            "item": "dry-end total",
            "group": "dry-end",
            "sqft": dry,
            "pct_of_gross": ratio(dry, gross, 100, digits=FIGURE_DIGITS),
            "previous_sqft": sum(fam_before.values()),
            "previous_pct_of_gross": ratio(sum(fam_before.values()), prev_gross, 100, digits=FIGURE_DIGITS),
            "pct_of_yield": ratio(dry, yield_sqft, 100, digits=FIGURE_DIGITS),
            "usd": board_usd(dry),
            "usd_per_year": per_year(board_usd(dry), days),
            "share_pct": ratio(dry, dry, 100, digits=FIGURE_DIGITS),
            "band": DRY_END_BAND,
            "band_text": f"dry-end waste flags above {DRY_END_BAND} % of gross",
        }
    )
    rows.append(
        {
            "item": "unexplained",
            "group": "unexplained",
            "sqft": None,
            "pct_of_gross": None,
            "previous_sqft": None,
            "previous_pct_of_gross": None,
            "pct_of_yield": None,
            "usd": None,
            "usd_per_year": None,
            "share_pct": None,
            "note": "The records hold no measured good output, so unexplained waste is unavailable.",
        }
    )
    return rows, dry


def get_stops_profile(ctx: RunContext, args: PeriodArgs) -> dict[str, Any]:
    """Stops, minutes and minutes per stop per production day, and the Mon–Fri weekday profile."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    rows = sql.rows(
        ctx,
        """
        SELECT day, count(*) AS stops, sum(minutes) AS minutes FROM stops
        WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift) AND kind IN ('Maintenance', 'Operator')
        GROUP BY day ORDER BY day
        """,
        params(current.start, current.end, shift),
    )
    sql.source_rows += sum(int(r["stops"]) for r in rows)
    for row in rows:
        row["min_per_stop"] = ratio(row["minutes"], row["stops"], digits=FIGURE_DIGITS)
    weekdays = []
    for index, name in enumerate(("Mon", "Tue", "Wed", "Thu", "Fri")):
        days = [r for r in rows if date.fromisoformat(r["day"]).weekday() == index]
        expected = [d for d in cover.expected if d.weekday() == index]
        stops = sum(r["stops"] for r in days)
        minutes = sum(r["minutes"] for r in days)
        weekdays.append(
            {
                "weekday": name,
                "days": len(expected),
                "stops": stops,
                "minutes": minutes,
                "stops_per_day": ratio(stops, len(expected), digits=FIGURE_DIGITS),
                "minutes_per_day": ratio(minutes, len(expected), digits=FIGURE_DIGITS),
            }
        )
    return envelope(
        ctx,
        "get_stops_profile",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        weekday_profile=weekdays,
        note="Unplanned stops (maintenance and operator); days without stops are not listed.",
    )


TREND_EXPR = {
    "speed": "sum(feet) / nullif(sum(scheduled), 0)",
    "speed_to_target": "100 * sum(feet) / nullif(sum(target_feet), 0)",
    "lineal_ft": "sum(feet)",
    "downtime_pct": "100 * sum(stop_min) / nullif(sum(scheduled), 0)",
    "maintenance_pct": "100 * sum(maint_min) / nullif(sum(scheduled), 0)",
    "operator_pct": "100 * sum(operator_min) / nullif(sum(scheduled), 0)",
    "trim_pct": "100 * sum(trim) / nullif(sum(gross), 0)",
    "dry_end_pct": "100 * sum(rejects) / nullif(sum(gross), 0)",
}


def get_trend(ctx: RunContext, args: TrendArgs) -> dict[str, Any]:
    """A weekly (Mon–Fri) series of one allowlisted metric, each week with its coverage."""
    named = _trend_filters(args)
    shift = scoped_shift(ctx, args.shift)
    weeks = windows_back(window_for("week", args.anchor), args.weeks)
    sql = Sql()
    expr = TREND_EXPR[args.metric]  # allowlisted: the argument model admits only these keys
    series = _trend_series(ctx, sql, expr, weeks, shift, named)
    rows = _trend_rows(sql, weeks, series, named)
    span = Window("week", weeks[0].start, weeks[-1].end)
    return envelope(
        ctx,
        "get_trend",
        sql,
        rows,
        window=span,
        cover={
            "status": "complete" if all(r["coverage"] == "complete" for r in rows) else "partial",
            "weeks": len(rows),
            "complete_weeks": sum(r["coverage"] == "complete" for r in rows),
        },
        shift=shift,
        metric=args.metric,
        of=named or None,
        unit=UNITS.get(
            {"speed": "shift_fpm", "speed_to_target": "speed_to_target_pct"}.get(args.metric, args.metric), ""
        ),
    )


def _trend_filters(args: TrendArgs) -> dict[str, str]:
    """The trend's filters (reason, place, grade) once its span and anchor are in bounds and each filter
    follows a metric it applies to; raises ``ToolError`` otherwise."""
    if not 1 <= args.weeks <= 26:
        raise ToolError("weeks must be 1 to 26.")
    if not EARLIEST <= args.anchor <= LATEST:
        raise ToolError("anchor must be a date between 2000 and 2100.")
    named = args.filters()
    if ("reason" in named or "place" in named) and args.metric not in STOP_METRICS:
        raise ToolError(f"A reason or place trend follows a downtime metric: {', '.join(STOP_METRICS)}.")
    if "grade" in named and args.metric not in SETUP_METRICS:
        raise ToolError(f"A grade trend follows a setup metric: {', '.join(SETUP_METRICS)}.")
    return named


def _trend_series(
    ctx: RunContext, sql: Sql, expr: str, weeks: list[Window], shift: int | None, named: dict[str, Any]
) -> list[dict[str, Any]]:
    """One row per week held: the metric ``expr`` over its production-day shifts, with the days, shift rows,
    stops and whether any shift is incomplete."""
    return sql.rows(
        ctx,
        f"""
        WITH per AS (
          SELECT sh.day, sh.shift, sh.scheduled_min AS scheduled,
                 (sh.coverage <> 'complete' OR sh.excluded > 0) AS incomplete,
                 coalesce(su.feet, 0) AS feet, coalesce(su.gross, 0) AS gross, coalesce(su.trim, 0) AS trim,
                 coalesce(su.rejects, 0) AS rejects, coalesce(su.target_feet, 0) AS target_feet,
                 coalesce(st.stop_min, 0) AS stop_min, coalesce(st.maint_min, 0) AS maint_min,
                 coalesce(st.operator_min, 0) AS operator_min, coalesce(st.stops, 0) AS stops
          FROM shifts sh
          LEFT JOIN (SELECT day, shift, sum(gross_feet) AS feet, sum(gross_sqft) AS gross, sum(trim_sqft) AS trim,
                            sum(reject_sqft) AS rejects, sum(target_fpm * elapsed_min) AS target_feet
                     FROM setups WHERE day BETWEEN $start AND $end AND ($grade IS NULL OR grade = $grade)
                     GROUP BY day, shift) su USING (day, shift)
          LEFT JOIN (SELECT day, shift, sum(minutes) AS stop_min, count(*) AS stops,
                            sum(minutes) FILTER (WHERE kind = 'Maintenance') AS maint_min,
                            sum(minutes) FILTER (WHERE kind = 'Operator') AS operator_min
                     FROM stops WHERE day BETWEEN $start AND $end
                       AND ($reason IS NULL OR reason = $reason) AND ($place IS NULL OR place = $place OR list_contains($family, place))
                     GROUP BY day, shift) st USING (day, shift)
          WHERE sh.day BETWEEN $start AND $end AND ($shift IS NULL OR sh.shift = $shift)
            AND isodow(sh.day) <= 5)
        SELECT date_trunc('week', day)::DATE AS week_start, count(DISTINCT day) AS days,
               bool_or(incomplete) AS any_incomplete, count(*) AS shift_rows, {expr} AS value,
               sum(stops) AS stops, sum(stop_min) AS stop_min
        FROM per GROUP BY week_start ORDER BY week_start
        """,
        {
            "start": weeks[0].start,
            "end": weeks[-1].end,
            "shift": shift,
            "reason": named.get("reason"),
            "place": named.get("place"),
            "family": list(PLACE_FAMILIES.get(named.get("place", ""), ())),
            "grade": named.get("grade"),
        },
    )


def _trend_rows(
    sql: Sql, weeks: list[Window], series: list[dict[str, Any]], named: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every week of the span with its value and coverage (``unavailable`` when none of it is held)."""
    # The filter of the series is on every row, so the thing named is shown where it was applied.
    by_week = {r["week_start"]: r for r in series}
    rows = []
    for week in weeks:
        found = by_week.get(week.start.isoformat())
        status = "unavailable"
        if found:
            sql.source_rows += int(found["shift_rows"])
            complete = found["days"] == len(production_days(week)) and not found["any_incomplete"]
            status = "complete" if complete else "partial"
        rows.append(
            {
                "week_start": week.start.isoformat(),
                "week_end": week.end.isoformat(),
                "value": found["value"] if found else None,
                "days": found["days"] if found else 0,
                "coverage": status,
                **(
                    {
                        "stops": found["stops"] if found else None,
                        "stop_min": found["stop_min"] if found else None,
                    }
                    if "reason" in named or "place" in named
                    else {}
                ),
                **named,
            }
        )
    return rows


def get_grade_totals(ctx: RunContext, args: GradeArgs) -> dict[str, Any]:
    """Per board grade: volume, speed with and without stops, % of target, stops, trim and dry-end."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    template = """
        SELECT grade, any_value(target_fpm) AS target_fpm, count(*) AS setups,
               count(DISTINCT (day, shift, run_id)) AS wet_ends, sum(gross_feet) AS lineal_ft,
               sum(gross_sqft) / 1000 AS volume_msf, sum(elapsed_min) AS elapsed_min, sum(stop_min) AS stop_min,
               sum(stop_count) AS stops, sum(target_fpm * elapsed_min) AS target_feet,
               sum(trim_sqft) AS trim, sum(reject_sqft) AS rejects, sum(gross_sqft) AS gross
        FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        GROUP BY grade ORDER BY volume_msf DESC, grade
    """
    rows = sql.rows(ctx, template, params(current.start, current.end, shift))
    before = {r["grade"]: r for r in sql.rows(ctx, template, params(previous.start, previous.end, shift))}
    total = sum(r["volume_msf"] for r in rows) or None
    out = []
    for r in rows:
        sql.source_rows += int(r["setups"])
        prev = before.get(r["grade"])
        out.append(
            {
                "grade": r["grade"],
                "target_fpm": r["target_fpm"],
                "setups": r["setups"],
                "wet_ends": r["wet_ends"],
                "lineal_ft": r["lineal_ft"],
                "volume_msf": r["volume_msf"],
                "share": ratio(r["volume_msf"], total, digits=FIGURE_DIGITS),
                "running_fpm": ratio(r["lineal_ft"], r["elapsed_min"] - r["stop_min"], digits=FIGURE_DIGITS),
                "elapsed_fpm": ratio(r["lineal_ft"], r["elapsed_min"], digits=FIGURE_DIGITS),
                "pct_of_target": ratio(r["lineal_ft"], r["target_feet"], 100, digits=FIGURE_DIGITS),
                "stops": r["stops"],
                "stop_min": r["stop_min"],
                "lineal_per_setup": ratio(r["lineal_ft"], r["setups"], digits=FIGURE_DIGITS),
                "lineal_per_paper_change": ratio(r["lineal_ft"], r["wet_ends"], digits=FIGURE_DIGITS),
                "trim_pct": ratio(r["trim"], r["gross"], 100, digits=FIGURE_DIGITS),
                "dry_end_pct": ratio(r["rejects"], r["gross"], 100, digits=FIGURE_DIGITS),
                "previous_volume_msf": prev["volume_msf"] if prev else None,
            }
        )
    return envelope(
        ctx,
        "get_grade_totals",
        sql,
        out,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        measure=args.measure,
        ranked=cover.complete,
        note="Stops are allocated to setups by overlap, so a stop spanning two setups counts in both.",
    )
