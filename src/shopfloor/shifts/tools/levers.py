"""Window tools about levers and speed: opportunities in $/yr, the downtime review, the speed opportunity.

Levers are ranked by their estimated dollars a year and never prescribed. Each priced row says controllable,
schedule-driven (planned maintenance) or external (a power outage); only the controllable ones are ranked.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.plant.metrics import FIGURE_DIGITS, ratio
from shopfloor.shifts.plant.money import COST_NOTE, RATES, board_usd, kind_class, machine_usd, per_year
from shopfloor.shifts.tools.context import (
    PeriodArgs,
    RunContext,
    Sql,
    args_window,
    envelope,
    scoped_shift,
    window_coverage,
)
from shopfloor.shifts.tools.sums import MAINT_BAND, OPERATOR_BAND, TRIM_FLAG, params

MIN_RUNNING_MIN = 2.0  # setups with less running time are too short to read a speed from


class OpportunityArgs(PeriodArgs):
    """Levers of a window ranked in dollars a year."""

    lens: Literal["all", "supervisor", "ownership"] = Field(
        description="all (default), supervisor (controllable first) or ownership (total cost of waste)."
    )


class SpeedOpportunityArgs(PeriodArgs):
    """Typical speed against the best fifth of setups."""

    slice_by: Literal["width", "crew"] = Field(description="Slice each grade by web width or by crew.")


def get_opportunities(ctx: RunContext, args: OpportunityArgs) -> dict[str, Any]:
    """The levers ranked in $/yr: run speed under the grade baseline, trim over the flag, each downtime
    reason, shear and each dry-end family, each with the records behind it."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    p = params(current.start, current.end, shift)
    days = cover.held_days  # a year is scaled from the days held, never the days expected
    speed, waste, stops, rejects = _lever_sums(ctx, sql, p)
    levers = _levers(speed, waste, stops, rejects)
    for lever in levers:
        lever["usd_per_year"] = per_year(lever["usd"], days)
    rows = _order(levers, args.lens, waste["trim"], days)
    controllable = [r for r in rows if r["class"] == "controllable"]
    total = round(sum(r["usd_per_year"] or 0 for r in controllable), 2)
    return envelope(
        ctx,
        "get_opportunities",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        lens=args.lens,
        levers_usd_per_year=total,
        ranked=cover.complete,
        rates=RATES.as_dict(),
        rates_line=RATES.line(),
        cost_note=COST_NOTE,
        contribution_status="margin not set" if RATES.margin_usd_per_msf is None else "margin set",
    )


def _lever_sums(
    ctx: RunContext, sql: Sql, p: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The window's sums behind the levers, in query order: the run speed lost under each grade's
    trailing-year speed, trim and shear, downtime by kind and reason, and rejects by family."""
    speed = sql.rows(
        ctx,
        """
        WITH base AS (
          SELECT grade, sum(gross_feet) / nullif(sum(elapsed_min - stop_min), 0) AS baseline_fpm
          FROM setups WHERE day >= $start - INTERVAL 365 DAY AND day < $start GROUP BY grade),
        runs AS (
          SELECT day, run_id, grade, sum(gross_feet) AS feet, sum(elapsed_min - stop_min) AS running_min
          FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
          GROUP BY day, run_id, grade)
        SELECT count(*) AS runs,
               coalesce(sum(greatest(0, running_min - feet / baseline_fpm)), 0) AS lost_min
        FROM runs JOIN base USING (grade)
        WHERE baseline_fpm > 0 AND feet / nullif(running_min, 0) < baseline_fpm
        """,
        p,
    )[0]
    waste = sql.rows(
        ctx,
        f"""
        SELECT count(*) AS setups,
               count(*) FILTER (WHERE trim_sqft * 100 > {TRIM_FLAG} * gross_sqft) AS trim_setups,
               coalesce(sum(greatest(0, trim_sqft - {TRIM_FLAG} / 100 * gross_sqft)), 0) AS trim_over,
               coalesce(sum(trim_sqft), 0) AS trim, coalesce(sum(shear_sqft), 0) AS shear
        FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        """,
        p,
    )[0]
    stops = sql.rows(
        ctx,
        """
        SELECT kind, reason, count(*) AS records, sum(minutes) AS minutes FROM stops
        WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        GROUP BY kind, reason ORDER BY minutes DESC, kind, reason
        """,
        p,
    )
    rejects = sql.rows(
        ctx,
        """
        SELECT family, count(*) AS records, sum(sqft) AS sqft FROM rejects
        WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        GROUP BY family ORDER BY sqft DESC, family
        """,
        p,
    )
    sql.source_rows += int(waste["setups"] or 0) + sum(int(r["records"]) for r in stops + rejects)
    return speed, waste, stops, rejects


def _levers(
    speed: dict[str, Any], waste: dict[str, Any], stops: list[dict[str, Any]], rejects: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One lever per sum, priced in dollars and classed; speed, trim and shear first, then each downtime
    reason and each dry-end family."""
    levers: list[dict[str, Any]] = [
        _lever(
            "run speed under its grade's trailing-year speed",
            "speed",
            speed["lost_min"],
            "min",
            machine_usd(speed["lost_min"]),
            "controllable",
            speed["runs"],
            "runs",
        ),
        _lever(
            f"trim over the {TRIM_FLAG} % flag",
            "trim",
            waste["trim_over"],
            "sq ft",
            board_usd(waste["trim_over"]),
            "controllable",
            waste["trim_setups"],
            "setups",
        ),
        _lever(
            "shear",
            "shear",
            waste["shear"],
            "sq ft",
            board_usd(waste["shear"]),
            "controllable",
            waste["setups"],
            "setups",
        ),
    ]
    for stop in stops:
        levers.append(
            _lever(
                stop["reason"],
                "downtime",
                stop["minutes"],
                "min",
                machine_usd(stop["minutes"]),
                kind_class(stop["kind"]),
                stop["records"],
                "stops",
                kind=stop["kind"],
            )
        )
    for reject in rejects:
        levers.append(
            _lever(
                f"dry-end {reject['family']}",
                "dry-end",
                reject["sqft"],
                "sq ft",
                board_usd(reject["sqft"]),
                "controllable",
                reject["records"],
                "reject records",
            )
        )
    return levers


def _lever(
    item: str,
    category: str,
    quantity: float,
    unit: str,
    usd: float,
    cls: str,
    records: int,
    record_unit: str,
    kind: str | None = None,
) -> dict[str, Any]:
    return {
        "item": item,
        "category": category,
        "kind": kind,
        "quantity": round(float(quantity or 0.0), 4),
        "unit": unit,
        "usd": usd,
        "class": cls,
        "records": int(records or 0),
        "record_unit": record_unit,
    }


def _order(levers: list[dict[str, Any]], lens: str, trim_total: float, days: int) -> list[dict[str, Any]]:
    """Order by lens; rank the controllable levers by $/yr, carry the rest apart without rank."""
    controllable = sorted(
        (lv for lv in levers if lv["class"] == "controllable"), key=lambda lv: (-lv["usd"], lv["item"])
    )
    apart = [lv for lv in levers if lv["class"] == "schedule-driven"] + [
        lv for lv in levers if lv["class"] == "external"
    ]
    if lens == "ownership":
        # The total cost of waste: side trim first, then the dry-end kinds as one tag-scrap subtotal.
        dry = [lv for lv in controllable if lv["category"] == "dry-end"]
        subtotal = _lever(
            "tag scrap (dry-end, all kinds)",
            "dry-end total",
            sum(lv["quantity"] for lv in dry),
            "sq ft",
            round(sum(lv["usd"] for lv in dry), 2),
            "controllable",
            sum(lv["records"] for lv in dry),
            "reject records",
        )
        subtotal["usd_per_year"] = round(sum(lv["usd_per_year"] or 0 for lv in dry), 2)
        trim = _lever(
            "side trim (all)",
            "trim total",
            trim_total,
            "sq ft",
            board_usd(trim_total),
            "controllable",
            0,
            "setups",
        )
        trim["usd_per_year"] = per_year(trim["usd"], days)
        rest = [lv for lv in controllable if lv["category"] in ("shear",)]
        ordered = [trim, subtotal, *dry, *rest]
        for row in ordered:
            row["rank"] = None
        return ordered
    for rank, lever in enumerate(controllable, 1):
        lever["rank"] = rank
    for lever in apart:
        lever["rank"] = None
    return controllable + apart


def get_downtime_review(ctx: RunContext, args: PeriodArgs) -> dict[str, Any]:
    """Maintenance and operator downtime against their bands; every reason by kind as % of scheduled
    minutes; external apart and planned maintenance last; flags per shift over a band."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    p = params(current.start, current.end, shift)
    scheduled = sql.rows(
        ctx,
        "SELECT coalesce(sum(scheduled_min), 0) AS minutes FROM shifts "
        "WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)",
        p,
    )[0]["minutes"]
    rows = sql.rows(
        ctx,
        """
        SELECT kind, reason, count(*) AS stops, sum(minutes) AS minutes FROM stops
        WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        GROUP BY kind, reason
        ORDER BY CASE kind WHEN 'External' THEN 1 WHEN 'PM' THEN 2 ELSE 0 END, minutes DESC, kind, reason
        """,
        p,
    )
    for row in rows:
        sql.source_rows += int(row["stops"])
        row["pct_of_scheduled"] = ratio(row["minutes"], scheduled, 100, digits=FIGURE_DIGITS)
        row["min_per_stop"] = ratio(row["minutes"], row["stops"], digits=FIGURE_DIGITS)
        row["class"] = kind_class(row["kind"])
    flags = _band_flags(ctx, sql, p)
    maint = sum(r["minutes"] for r in rows if r["kind"] == "Maintenance")
    oper = sum(r["minutes"] for r in rows if r["kind"] == "Operator")
    return envelope(
        ctx,
        "get_downtime_review",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        scheduled_min=scheduled,
        maintenance_pct=ratio(maint, scheduled, 100, digits=FIGURE_DIGITS),
        operator_pct=ratio(oper, scheduled, 100, digits=FIGURE_DIGITS),
        maintenance_band=MAINT_BAND,
        operator_band=OPERATOR_BAND,
        flags=flags,
        ranked=cover.complete,
        note="External downtime and planned maintenance are carried apart and never in a band.",
    )


def _band_flags(ctx: RunContext, sql: Sql, p: dict[str, Any]) -> list[dict[str, Any]]:
    """Each shift whose maintenance or operator downtime is over its band, with its supervisor slot, its
    leading reason and on how many days of the trailing year that reason recurred on that shift."""
    per_shift = sql.rows(
        ctx,
        """
        WITH sched AS (
          SELECT shift, sum(scheduled_min) AS scheduled, mode(supervisor_slot) AS supervisor_slot
          FROM shifts WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift) GROUP BY shift),
        kinds AS (
          SELECT shift, kind, sum(minutes) AS minutes, arg_max(reason, reason_min) AS leading_reason
          FROM (SELECT shift, kind, reason, sum(minutes) AS reason_min, sum(minutes) AS minutes FROM stops
                WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
                  AND kind IN ('Maintenance', 'Operator') GROUP BY shift, kind, reason)
          GROUP BY shift, kind)
        SELECT kinds.shift, kinds.kind, kinds.minutes, sched.scheduled, sched.supervisor_slot, kinds.leading_reason,
               (SELECT count(DISTINCT s.day) FROM stops s
                 WHERE s.shift = kinds.shift AND s.kind = kinds.kind AND s.reason = kinds.leading_reason
                   AND s.day > $end - INTERVAL 365 DAY AND s.day <= $end) AS recurrence_days
        FROM kinds JOIN sched USING (shift) ORDER BY kinds.shift, kinds.kind
        """,
        p,
    )
    flags = []
    bands = {"Maintenance": MAINT_BAND, "Operator": OPERATOR_BAND}
    for row in per_shift:
        pct = ratio(row["minutes"], row["scheduled"], 100, digits=FIGURE_DIGITS)
        if pct is not None and pct > bands[row["kind"]]:
            flags.append(
                {
                    "shift": row["shift"],
                    "kind": row["kind"],
                    "pct_of_scheduled": pct,
                    "band": bands[row["kind"]],
                    "supervisor_slot": row["supervisor_slot"],
                    "leading_reason": row["leading_reason"],
                    "recurrence_days_trailing_year": row["recurrence_days"],
                }
            )
    return flags


def get_speed_opportunity(ctx: RunContext, args: SpeedOpportunityArgs) -> dict[str, Any]:
    """Per grade and width (or crew): typical running speed against the best fifth of setups."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    slice_column = {"width": "width_in", "crew": "crew"}[args.slice_by]  # allowlisted by the argument model
    rows = sql.rows(
        ctx,
        f"""
        WITH s AS (
          SELECT grade, {slice_column} AS slice, target_fpm,
                 gross_feet, elapsed_min - stop_min AS running_min, reject_sqft, gross_sqft,
                 gross_feet / nullif(elapsed_min - stop_min, 0) AS fpm
          FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)),
        ok AS (SELECT * FROM s WHERE running_min >= {MIN_RUNNING_MIN}),
        cut AS (SELECT grade, slice, quantile_cont(fpm, 0.8) AS p80 FROM ok GROUP BY grade, slice)
        SELECT ok.grade, ok.slice, any_value(ok.target_fpm) AS target_fpm, count(*) AS setups,
               median(ok.fpm) AS typical_fpm,
               avg(ok.fpm) FILTER (WHERE ok.fpm >= cut.p80) AS best_fifth_fpm,
               sum(ok.running_min) FILTER (WHERE ok.fpm < cut.p80) AS rest_min,
               sum(ok.gross_feet) FILTER (WHERE ok.fpm < cut.p80) AS rest_feet,
               100 * sum(ok.reject_sqft) FILTER (WHERE ok.fpm >= cut.p80)
                   / nullif(sum(ok.gross_sqft) FILTER (WHERE ok.fpm >= cut.p80), 0) AS fast_dry_end_pct,
               100 * sum(ok.reject_sqft) FILTER (WHERE ok.fpm < cut.p80)
                   / nullif(sum(ok.gross_sqft) FILTER (WHERE ok.fpm < cut.p80), 0) AS rest_dry_end_pct
        FROM ok JOIN cut USING (grade, slice)
        GROUP BY ok.grade, ok.slice ORDER BY ok.grade, ok.slice
        """,
        params(current.start, current.end, shift),
    )
    short = sql.rows(
        ctx,
        f"""SELECT count(*) AS n FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
            AND elapsed_min - stop_min < {MIN_RUNNING_MIN}""",
        params(current.start, current.end, shift),
    )[0]["n"]
    for row in rows:
        sql.source_rows += int(row["setups"])
        row["slice"] = str(row["slice"])
        row["typical_pct_of_target"] = ratio(row["typical_fpm"], row["target_fpm"], 100, digits=FIGURE_DIGITS)
        row["best_pct_of_target"] = ratio(row["best_fifth_fpm"], row["target_fpm"], 100, digits=FIGURE_DIGITS)
        gap = (row["best_fifth_fpm"] or 0) - (row["typical_fpm"] or 0)
        row["gap_fpm"] = round(gap, 4)
        best = row["best_fifth_fpm"]
        saved = (row["rest_min"] or 0) - ((row["rest_feet"] or 0) / best if best else 0)
        row["opportunity_hours"] = round(max(0.0, saved) / 60, 4)
        row["usd"] = machine_usd(max(0.0, saved))
        row["usd_per_year"] = per_year(row["usd"], cover.held_days)
    return envelope(
        ctx,
        "get_speed_opportunity",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        slice_by=args.slice_by,
        short_setups_excluded=short,
        note=f"Setups with under {MIN_RUNNING_MIN:.0f} running minutes are excluded and counted; "
        "no temperatures are modelled.",
    )


class VarianceArgs(PeriodArgs):
    """Where the speed went: a reference speed against the window's speed with stops."""

    against: Literal["baseline", "previous", "shift"] = Field(
        description="baseline (grades at their trailing-year speed), previous window, or another shift."
    )
    against_shift: Literal[1, 2, 3] | None = Field(description="The other shift when against is shift.")


BUCKETS = (
    ("stops", "controllable"),
    ("planned maintenance", "schedule-driven"),
    ("external stops", "external"),
    ("setups", "controllable"),
    ("running under baseline", "controllable"),
    ("grade mix", "schedule-driven"),
)


def _speed_buckets(
    ctx: RunContext, sql: Sql, start: Any, end: Any, shift: int | None, base: Any
) -> dict[str, Any]:
    """Lineal feet lost to each bucket against the reference speed of the grades' trailing-year baselines
    up to ``base`` (they add up exactly to reference × scheduled minutes − feet)."""
    p = {**params(start, end, shift), "base": base}
    sched, grades, stops = _bucket_sums(ctx, sql, p)
    known = [g for g in grades if g["baseline_fpm"]]
    hist_total = sum(g["hist_min"] or 0 for g in known)
    reference = sum(g["baseline_fpm"] * g["hist_min"] for g in known) / hist_total if hist_total else None
    feet = sum(g["feet"] or 0 for g in grades)
    elapsed = sum(g["elapsed_min"] or 0 for g in grades)
    out: dict[str, Any] = {"scheduled_min": sched, "feet": feet, "reference_fpm": reference, "details": {}}
    if reference is None or not sched:
        out["buckets"] = None
        return out
    by_kind: dict[str, float] = {}
    for stop in stops:
        by_kind[stop["kind"]] = by_kind.get(stop["kind"], 0.0) + stop["minutes"]
    under, mix, grade_details = _grade_gaps(grades, reference)
    out["buckets"] = {
        "stops": reference * (by_kind.get("Maintenance", 0.0) + by_kind.get("Operator", 0.0)),
        "planned maintenance": reference * by_kind.get("PM", 0.0),
        "external stops": reference * by_kind.get("External", 0.0),
        "setups": reference * (sched - elapsed),
        "running under baseline": under,
        "grade mix": mix,
    }
    out["details"] = {
        "stops": _feet_by_reason(stops, reference, ("Maintenance", "Operator")),
        "planned maintenance": _feet_by_reason(stops, reference, ("PM",)),
        "external stops": _feet_by_reason(stops, reference, ("External",)),
        "running under baseline": grade_details,
        "grade mix": grade_details,
    }
    return out


def _bucket_sums(
    ctx: RunContext, sql: Sql, p: dict[str, Any]
) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """The window's scheduled minutes, each grade's feet and minutes beside its trailing-year baseline up
    to ``$base``, and the allocated stop minutes by kind and reason, in query order."""
    sched = sql.rows(
        ctx,
        "SELECT coalesce(sum(scheduled_min), 0) AS t FROM shifts "
        "WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)",
        p,
    )[0]["t"]
    grades = sql.rows(
        ctx,
        """
        WITH hist AS (
          SELECT grade, sum(gross_feet) / nullif(sum(elapsed_min - stop_min), 0) AS baseline_fpm,
                 sum(elapsed_min - stop_min) AS hist_min
          FROM setups WHERE day >= $base - INTERVAL 365 DAY AND day < $base GROUP BY grade),
        now AS (
          SELECT grade, sum(gross_feet) AS feet, sum(elapsed_min - stop_min) AS running_min,
                 sum(elapsed_min) AS elapsed_min
          FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift) GROUP BY grade)
        SELECT coalesce(now.grade, hist.grade) AS grade, now.feet, now.running_min, now.elapsed_min,
               hist.baseline_fpm, hist.hist_min
        FROM now FULL JOIN hist USING (grade) ORDER BY grade
        """,
        p,
    )
    stops = sql.rows(
        ctx,
        """
        SELECT kind, reason, sum(minutes) AS minutes FROM stop_allocations
        WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        GROUP BY kind, reason ORDER BY minutes DESC, kind, reason
        """,
        p,
    )
    return sched, grades, stops


def _grade_gaps(grades: list[dict[str, Any]], reference: float) -> tuple[float, float, list[dict[str, Any]]]:
    """The feet each running grade lost under its own baseline and the feet its baseline differs from the
    reference (the grade mix), summed and per grade."""
    under = mix = 0.0
    grade_details = []
    for g in grades:
        if not g["running_min"]:
            continue
        base = g["baseline_fpm"] or reference
        g_under = base * g["running_min"] - g["feet"]
        g_mix = (reference - base) * g["running_min"]
        under += g_under
        mix += g_mix
        grade_details.append(
            {"grade": g["grade"], "under_baseline_ft": round(g_under, 1), "mix_ft": round(g_mix, 1)}
        )
    return under, mix, grade_details


def _feet_by_reason(
    stops: list[dict[str, Any]], reference: float, kinds: tuple[str, ...]
) -> list[dict[str, Any]]:
    """The feet lost to each stop reason of ``kinds`` at the reference speed."""
    return [
        {"reason": s["reason"], "kind": s["kind"], "ft": round(reference * s["minutes"], 1)}
        for s in stops
        if s["kind"] in kinds
    ]


def get_speed_variance(ctx: RunContext, args: VarianceArgs) -> dict[str, Any]:
    """The gap between a reference speed and the window's speed with stops, split into buckets that add
    up to it: stops, planned maintenance, external stops, setups, running under baseline and grade mix."""
    shift = scoped_shift(ctx, args.shift)
    if args.against == "shift":
        if args.against_shift is None:
            raise ToolError("against_shift is required when against is shift.")
        scoped_shift(ctx, args.against_shift)  # the selected-shift scope refuses another shift
        if ctx.scope.include == "shift" or args.against_shift == shift:
            raise ToolError("Comparing with another shift needs the production-day scope.")
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    now = _speed_buckets(ctx, sql, current.start, current.end, shift, current.start)
    if now["buckets"] is None:
        raise ToolError("No trailing-year baseline or no scheduled time in that window.")
    t_now = now["scheduled_min"]
    speed_now = now["feet"] / t_now
    ref_rates: dict[str, float] | None = None
    reference_speed = now["reference_fpm"]
    if args.against != "baseline":
        other_shift = args.against_shift if args.against == "shift" else shift
        window = current if args.against == "shift" else previous
        # Both sides are held at the same baselines, so the buckets add up to the variance.
        other = _speed_buckets(ctx, sql, window.start, window.end, other_shift, current.start)
        if other["buckets"] is None:
            raise ToolError("The reference has no scheduled time or baseline.")
        ref_rates = {k: v / other["scheduled_min"] for k, v in other["buckets"].items()}
        reference_speed = other["feet"] / other["scheduled_min"]
    rows = []
    for bucket, cls in BUCKETS:
        rate = now["buckets"][bucket] / t_now
        variance_fpm = rate - (ref_rates[bucket] if ref_rates else 0.0)
        ft = variance_fpm * t_now
        priced = cls == "controllable" and ft > 0
        minutes = ft / now["reference_fpm"] if priced else 0.0
        rows.append(
            {
                "bucket": bucket,
                "class": cls,
                "fpm": round(variance_fpm, 4),
                "lineal_ft": round(ft, 1),
                "usd": machine_usd(minutes) if priced else None,
                "details": now["details"].get(bucket, []),
            }
        )
    return envelope(
        ctx,
        "get_speed_variance",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        against=args.against,
        against_shift=args.against_shift,
        reference_fpm=round(reference_speed, 4),
        shift_fpm=round(speed_now, 4),
        variance_fpm=round(reference_speed - speed_now, 4),
        note="The buckets add up to the variance; only controllable losses are priced, as machine time.",
    )
