"""Period reports: a deterministic job over one week, calendar month or 4-4-5 period (no model).

Set-based SQL over the window (one statement per table, never a loop over days) gives the sections, the
tables (recurring downtime current vs previous, shift rankings, daily matrix, reported notes), heatmap data,
charts, coverage and the per-day dataset hashes. A partial window is reported, never ranked, and its deltas
are withheld; missing days are unavailable, never zero.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

import duckdb

from shopfloor.shifts.answers.coverage import coverage_said
from shopfloor.shifts.answers.findings import Section
from shopfloor.shifts.answers.sayings import N_, Named, Phrase, phrase, say_text
from shopfloor.shifts.answers.shaping import term
from shopfloor.shifts.plant.calendar import Coverage, Window, previous_window, window_for
from shopfloor.shifts.plant.metrics import FIGURE_DIGITS, ratio
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.tools.context import RunContext, Sql, window_coverage
from shopfloor.shifts.tools.sums import kpi_sums, kpis

ReportPeriod = Literal["week", "month", "fiscal", "year"]

DAILY_SQL = """
WITH su AS (
  SELECT day, shift, sum(gross_feet) AS feet, sum(target_fpm * elapsed_min) AS target_feet,
         sum(gross_sqft) AS gross, sum(gross_sqft - trim_sqft - shear_sqft - reject_sqft) AS good,
         sum(reject_sqft) AS rejects, count(*) AS setups
  FROM setups WHERE day BETWEEN $start AND $end GROUP BY day, shift),
st AS (
  SELECT day, shift, sum(minutes) FILTER (WHERE kind = 'Maintenance') AS maint_min
  FROM stops WHERE day BETWEEN $start AND $end GROUP BY day, shift)
SELECT sh.day, sh.shift, sh.crew, (sh.coverage = 'complete' AND sh.excluded = 0) AS complete,
       sh.scheduled_min, coalesce(su.feet, 0) AS feet, coalesce(su.target_feet, 0) AS target_feet,
       coalesce(su.gross, 0) AS gross, coalesce(su.good, 0) AS good, coalesce(su.rejects, 0) AS rejects,
       coalesce(su.setups, 0) AS setups, coalesce(st.maint_min, 0) AS maint_min
FROM shifts sh LEFT JOIN su USING (day, shift) LEFT JOIN st USING (day, shift)
WHERE sh.day BETWEEN $start AND $end AND ($shift IS NULL OR sh.shift = $shift)
ORDER BY sh.day, sh.shift
"""

RECURRING_SQL = """
SELECT kind, place, reason,
       count(*) FILTER (WHERE day BETWEEN $start AND $end) AS count,
       coalesce(sum(minutes) FILTER (WHERE day BETWEEN $start AND $end), 0) AS minutes,
       count(*) FILTER (WHERE day BETWEEN $pstart AND $pend) AS previous_count,
       coalesce(sum(minutes) FILTER (WHERE day BETWEEN $pstart AND $pend), 0) AS previous_minutes
FROM stops
WHERE day BETWEEN $pstart AND $end AND ($shift IS NULL OR shift = $shift)
GROUP BY kind, place, reason
ORDER BY minutes DESC, kind, place, reason
"""


def report_window(period: ReportPeriod, anchor: date) -> tuple[Window, Window]:
    """The report's window and the one before it (a "year" is the 52 weeks ending with the anchor's week)."""
    if period == "year":
        last = window_for("week", anchor)
        start = date.fromordinal(last.start.toordinal() - 51 * 7)
        current = Window("week", start, last.end)
        before = Window(
            "week", date.fromordinal(start.toordinal() - 52 * 7), date.fromordinal(start.toordinal() - 3)
        )
        return current, before
    window = window_for(period, anchor)
    return window, previous_window(window)


def period_report(
    conn: duckdb.DuckDBPyConnection, period: ReportPeriod, anchor: date, shift: int | None = None
) -> dict[str, Any]:
    """The whole report for the window of ``period`` containing ``anchor``."""
    ctx = RunContext(conn, Scope(day=anchor, shift=shift, include="shift" if shift else "day", period="day"))
    current, previous = report_window(period, anchor)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    prev_cover = window_coverage(sql, ctx, previous, shift)
    now = kpis(kpi_sums(ctx, sql, current.start, current.end, shift))
    before = kpis(kpi_sums(ctx, sql, previous.start, previous.end, shift))
    both = cover.complete and prev_cover.complete
    daily = sql.rows(ctx, DAILY_SQL, {"start": current.start, "end": current.end, "shift": shift})
    recurring = _recurring(ctx, sql, current, previous, shift, both, prev_cover.complete)
    notes = sql.rows(
        ctx,
        """SELECT day, shift, left(text, 1000) AS text FROM notes
           WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift) ORDER BY day, shift, seq""",
        {"start": current.start, "end": current.end, "shift": shift},
    )
    hashes = sql.rows(
        ctx,
        "SELECT day, sha256 FROM days WHERE day BETWEEN $start AND $end ORDER BY day",
        {"start": current.start, "end": current.end},
    )
    rankings = _rankings(daily) if cover.complete else []
    matrix = _matrix(daily)
    heatmap = _heatmap(daily, cover.expected)
    label = label_text(period, current)
    said = _sections(period, current, previous, cover, prev_cover, now, before if both else None, recurring)
    tables = [
        _table("Recurring downtime, current vs previous", recurring, RECURRING_COLUMNS),
        _table("Shift rankings (1 = best)", rankings, RANKING_COLUMNS),
        _table("Daily matrix", matrix, MATRIX_COLUMNS),
        _table("Reported notes (untrusted text)", notes, NOTE_COLUMNS),
    ]
    charts = _charts(daily, recurring)
    window = current.as_dict()
    title = f"Period report: {current.label}"
    if period == "year":
        window = {**window, "period": "year", "label": label}
        title = f"Year report: {label}"
    return {
        "title": title + (f", shift {shift}" if shift else ""),
        "status": "complete" if cover.complete else "partial",
        "window": window,
        "previous_window": previous.as_dict(),
        "coverage": cover.as_dict(),
        "previous_coverage": prev_cover.as_dict(),
        "kpis": {"current": now, "previous": before, "deltas_withheld": not both},
        # The sentences in English, and each one's template and params (answers/sayings.py) for a page or PDF
        # in another language (None: said only in English).
        "sections": [section["text"] for section in said],
        "said": [section.get("say") for section in said],
        "tables": tables,
        "heatmap": heatmap,
        "charts": charts,
        "dataset_hashes": hashes,
        "sql": sql.statements,
    }


def _recurring(
    ctx: RunContext,
    sql: Sql,
    current: Window,
    previous: Window,
    shift: int | None,
    both: bool,
    previous_complete: bool,
) -> list[dict[str, Any]]:
    """The downtime reasons of the window with their previous-window figures (withheld when that window is
    incomplete), unplanned reasons first, longest first."""
    recurring = sql.rows(
        ctx,
        RECURRING_SQL,
        {
            "start": current.start,
            "end": current.end,
            "pstart": previous.start,
            "pend": previous.end,
            "shift": shift,
        },
    )
    for row in recurring:
        row["minutes_change"] = round(row["minutes"] - row["previous_minutes"], 4) if both else None
        if not previous_complete:
            row["previous_count"] = row["previous_minutes"] = None
    recurring = [r for r in recurring if r["count"]]
    # Planned maintenance (schedule-driven) and power outages (external) sort after the unplanned reasons.
    recurring.sort(key=lambda r: (_CLASS_ORDER.get(str(r["kind"]), 0), -float(r["minutes"] or 0)))
    return recurring


def _matrix(daily: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The daily matrix: each day and shift with its feet, speed to target, maintenance and dry-end."""
    return [
        {
            "day": r["day"],
            "shift": r["shift"],
            "crew": r["crew"],
            "complete": r["complete"],
            "lineal_ft": r["feet"],
            "speed_to_target_pct": ratio(r["feet"], r["target_feet"], 100, digits=FIGURE_DIGITS),
            "maintenance_pct": ratio(r["maint_min"], r["scheduled_min"], 100, digits=FIGURE_DIGITS),
            "dry_end_pct": ratio(r["rejects"], r["gross"], 100, digits=FIGURE_DIGITS),
        }
        for r in daily
    ]


def _sections(
    period: ReportPeriod,
    current: Window,
    previous: Window,
    cover: Coverage,
    prev_cover: Coverage,
    now: dict[str, Any],
    before: dict[str, Any] | None,
    recurring: list[dict[str, Any]],
) -> list[Section]:
    """The report's sentences, said from templates (``answers/sayings.py``): the window and its coverage, why
    a comparison is withheld, the KPI lines against ``before`` (None when withheld), the most recorded
    downtime and planned maintenance."""
    label = _named(period, current)
    said = coverage_said(cover.as_dict(), "text")
    if said is None:
        sections = [
            say_text(
                "text",
                N_("{window}: all {days} production days complete."),
                window=label,
                days=len(cover.expected),
            )
        ]
    else:
        sections = [say_text("text", "{window}.", window=label), said]
    if said is None and not prev_cover.complete:
        # Say why the previous columns are empty, so a withheld comparison never reads as "none before".
        sections.append(
            say_text(
                "text",
                N_(
                    "The window before ({window}) is incomplete: comparisons with it are withheld, never zero."
                ),
                window=_named(period, previous),
            )
        )
    sections += report_lines(now, before)
    unplanned = [r for r in recurring if r["kind"] not in _CLASS_ORDER]
    if cover.complete and unplanned:
        top = unplanned[0]
        sections.append(
            say_text(
                "text",
                N_("Most recorded downtime: {place} / {reason}, {minutes} min."),
                place=term(top["place"]),
                reason=term(top["reason"]),
                minutes=f"{top['minutes']:.1f}",
            )
        )
    if now["pm_pct"] is not None:
        sections.append(
            say_text(
                "text",
                N_("Planned maintenance {pct} of scheduled minutes (schedule-driven)."),
                pct=f"{now['pm_pct']:.2f} %",
            )
        )
    return sections


def _named(period: ReportPeriod, window: Window) -> Named | Phrase:
    """A report's window as its sentences name it."""
    if period == "year":
        return phrase(YEAR_LABEL, day=window.end.isoformat())
    return Named(window.as_dict())


def label_text(period: ReportPeriod, window: Window) -> str:
    """A report's window in English words."""
    return year_label(window) if period == "year" else window.label


def _charts(daily: list[dict[str, Any]], recurring: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lineal feet per production day and the ten longest downtime reasons."""
    return [
        {
            "kind": "line",
            "title": "Lineal feet per production day",
            "points": _daily_points(daily),
        },
        {
            "kind": "bar",
            "title": "Downtime minutes by place / reason",
            "points": [{"x": f"{r['place']} / {r['reason']}", "y": r["minutes"]} for r in recurring[:10]],
        },
    ]


_CLASS_ORDER = {"External": 1, "PM": 2}


YEAR_LABEL = N_("The 52 weeks to {day} (Mon–Fri)")


def year_label(window: Window) -> str:
    """A year report's window in words: "the 52 weeks to 2026-11-27 (Mon–Fri)"."""
    return YEAR_LABEL.format(day=window.end.isoformat())


def _pct(value: Any) -> Phrase:
    return phrase(N_("Unavailable")) if value is None else phrase("{pct}", pct=f"{value:,.2f} %")


# A change on the window before, by its unit.
CHANGES = {
    "points": N_(" ({delta} points on the window before)"),
    "ft/min": N_(" ({delta} ft/min on the window before)"),
}


def _change(now: Any, before: Any, unit: str, digits: int) -> Phrase:
    if before is None or now is None:
        return phrase("")
    return phrase(CHANGES[unit], delta=f"{now - before:+,.{digits}f}")


def report_lines(now: dict[str, Any], before: dict[str, Any] | None) -> list[Section]:
    """The report's figures in words (docs/METRICS.md): speed to target and shift speed, lineal feet and MSF,
    maintenance and operator downtime, trim, shear and dry-end, setups and paper changes. ``before`` is the
    window before, only when both windows are complete (otherwise no change is said)."""
    prev = before or {}
    if now.get("lineal_ft") is None:
        return [
            say_text("text", N_("The window holds no production: its figures are unavailable, never zero."))
        ]
    speed = phrase(
        N_("Speed to target {pct} of grade target speed{change}"),
        pct=_pct(now["speed_to_target_pct"]),
        change=_change(now["speed_to_target_pct"], prev.get("speed_to_target_pct"), "points", 2),
    )
    shift = phrase("")
    if now["shift_fpm"] is not None:
        shift = phrase(
            N_("; shift speed {fpm} ft/min including stops{change}"),
            fpm=f"{now['shift_fpm']:,.1f}",
            change=_change(now["shift_fpm"], prev.get("shift_fpm"), "ft/min", 1),
        )
    msf = (
        phrase(N_("Unavailable"))
        if now["gross_sqft"] is None
        else phrase("{msf}", msf=f"{now['gross_sqft'] / 1000:,.1f} MSF")
    )
    return [
        say_text("text", "{speed}{shift}.", speed=speed, shift=shift),
        say_text(
            "text", N_("Lineal footage {ft} ft; gross area {msf}."), ft=f"{now['lineal_ft']:,.0f}", msf=msf
        ),
        say_text(
            "text",
            N_(
                "Maintenance downtime {maintenance}{maintenance_change} and operator downtime {operator}"
                "{operator_change} of scheduled minutes (band {band} each)."
            ),
            maintenance=_pct(now["maintenance_pct"]),
            maintenance_change=_change(now["maintenance_pct"], prev.get("maintenance_pct"), "points", 2),
            operator=_pct(now["operator_pct"]),
            operator_change=_change(now["operator_pct"], prev.get("operator_pct"), "points", 2),
            band="2.5 %",
        ),
        say_text(
            "text",
            N_("Side trim {trim}, shear {shear} and dry-end waste {dry_end} of gross."),
            trim=_pct(now["trim_pct"]),
            shear=_pct(now["shear_pct"]),
            dry_end=_pct(now["dry_end_pct"]),
        ),
        say_text(
            "text",
            N_("Setups {valid} valid ({above} above the 3.25 % trim flag), {paper} paper changes."),
            valid=f"{now['valid_setups']:,}",
            above=f"{now['setups_above_trim_flag']:,}",
            paper=f"{now['paper_changes']:,}",
        ),
    ]


# Each report table's columns: (row key, the words a person reads). Raw rows stay in the table's ``data``.
RECURRING_COLUMNS = (
    ("kind", "Kind"),
    ("place", "Place"),
    ("reason", "Reason"),
    ("count", "Stops"),
    ("minutes", "Minutes"),
    ("previous_count", "Stops, window before"),
    ("previous_minutes", "Minutes, window before"),
    ("minutes_change", "Change in minutes"),
)
RANKING_COLUMNS = (
    ("shift", "Shift"),
    ("speed_to_target_pct", "Speed to target (%)"),
    ("speed_to_target_pct_rank", "Speed rank"),
    ("maintenance_pct", "Maintenance downtime (%)"),
    ("maintenance_pct_rank", "Maintenance rank"),
    ("dry_end_pct", "Dry-end waste (%)"),
    ("dry_end_pct_rank", "Dry-end rank"),
)
MATRIX_COLUMNS = (
    ("day", "Day"),
    ("shift", "Shift"),
    ("crew", "Crew"),
    ("complete", "Complete"),
    ("lineal_ft", "Lineal feet"),
    ("speed_to_target_pct", "Speed to target (%)"),
    ("maintenance_pct", "Maintenance downtime (%)"),
    ("dry_end_pct", "Dry-end waste (%)"),
)
NOTE_COLUMNS = (("day", "Day"), ("shift", "Shift"), ("text", "Note"))


def display(value: Any) -> Any:
    """A report cell as a person reads it: "Unavailable" for a missing value, yes/no, two decimals."""
    if value is None:
        return "Unavailable"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return round(value, 2)
    return value


def _table(title: str, data: list[dict[str, Any]], columns: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """A report table: ``rows`` in words for people (the page, the PDF, the terminal), ``data`` the values."""
    rows = [{label: display(row.get(key)) for key, label in columns} for row in data]
    return {"title": title, "rows": rows, "data": data, "columns": [label for _key, label in columns]}


def _rankings(daily: list[dict[str, Any]]) -> list[dict[str, Any]]:
    per: dict[int, dict[str, float]] = {}
    for r in daily:
        agg = per.setdefault(
            r["shift"], {"feet": 0.0, "target": 0.0, "maint": 0.0, "sched": 0.0, "rej": 0.0, "gross": 0.0}
        )
        agg["feet"] += r["feet"]
        agg["target"] += r["target_feet"]
        agg["maint"] += r["maint_min"]
        agg["sched"] += r["scheduled_min"]
        agg["rej"] += r["rejects"]
        agg["gross"] += r["gross"]
    rows: list[dict[str, Any]] = [
        {
            "shift": shift,
            "speed_to_target_pct": ratio(a["feet"], a["target"], 100, digits=FIGURE_DIGITS),
            "maintenance_pct": ratio(a["maint"], a["sched"], 100, digits=FIGURE_DIGITS),
            "dry_end_pct": ratio(a["rej"], a["gross"], 100, digits=FIGURE_DIGITS),
        }
        for shift, a in sorted(per.items())
    ]
    for key, best_high in (("speed_to_target_pct", True), ("maintenance_pct", False), ("dry_end_pct", False)):
        values: list[float] = sorted({float(r[key]) for r in rows if r[key] is not None}, reverse=best_high)
        for r in rows:
            r[f"{key}_rank"] = values.index(float(r[key])) + 1 if r[key] is not None else None
    return rows


def _heatmap(daily: list[dict[str, Any]], expected: tuple[date, ...]) -> list[dict[str, Any]]:
    by_day: dict[str, dict[str, Any]] = {}
    for r in daily:
        cell = by_day.setdefault(r["day"], {"good": 0.0, "complete": True})
        cell["good"] += r["good"]
        cell["complete"] = cell["complete"] and bool(r["complete"])
    cells: list[dict[str, Any]] = []
    for d in expected:
        found = by_day.get(d.isoformat())
        value = float(found["good"]) if found is not None and found["complete"] else None
        cells.append({"day": d.isoformat(), "weekday": d.weekday(), "value": value})
    values: list[float] = [c["value"] for c in cells if c["value"] is not None]
    low, high = (min(values), max(values)) if values else (0.0, 0.0)
    for c in cells:
        if c["value"] is None:
            c["alpha"] = None
            c["hatched"] = True
            continue
        density = 1.0 if high == low else (c["value"] - low) / (high - low)
        c["alpha"] = round(0.22 + 0.78 * density, 3) if high != low else 1.0
        c["colour"] = f"rgba(8, 127, 117, {c['alpha']:.3f})"
        c["hatched"] = False
    return cells


def _daily_points(daily: list[dict[str, Any]]) -> list[dict[str, Any]]:
    per: dict[str, float] = {}
    for r in daily:
        per[r["day"]] = per.get(r["day"], 0.0) + r["feet"]
    return [{"x": d, "y": v} for d, v in sorted(per.items())]
