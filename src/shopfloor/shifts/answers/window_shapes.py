"""The answer builders of the window tools (docs/shifts-agent.md, "Flow", step 7): a day, week, month or
4-4-5 period, its headline (or None) and its findings; an incomplete window is listed, never ranked.
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.answers.comparison import ranked_headline, side_by_side
from shopfloor.shifts.answers.coverage import window_named
from shopfloor.shifts.answers.day_shapes import apart
from shopfloor.shifts.answers.findings import Citation, Figure, Section, fmt, said
from shopfloor.shifts.answers.sayings import N_, Phrase, phrase, say, say_text
from shopfloor.shifts.answers.shaping import (
    WITHHELD,
    contribution,
    count_of,
    finding,
    found,
    is_ranked,
    kpi_row,
    priced,
    priced_of,
    rates_lines,
    stops_of,
    term,
    withheld,
)


def period_kpis(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a period kpis result: its headline, if any, and its findings."""
    q = env["query"]
    head = None
    out: list[Section] = []
    kpi = kpi_row(env, "speed_to_target_pct")
    if kpi:
        i, row = kpi
        # A withheld comparison is not said at all: no "against X % the window before" (docs/METRICS.md).
        withheld = env.get("deltas_withheld") or row["previous"] is None
        if withheld:
            head = say(
                "headline",
                N_("Speed to target was {speed} {cite}."),
                speed=Figure(row["current"], "%"),
                cite=Citation(q, i),
            )
        elif _windows_named(env):
            # Two windows compared: each named by its dates, so "this week vs last week" says both weeks.
            head = say(
                "headline",
                N_("Speed to target was {speed} over {window} against {previous} over {other} {cite}."),
                speed=Figure(row["current"], "%"),
                window=window_named(env["window"]),
                previous=fmt(row["previous"], "%"),
                other=window_named(env["previous_window"]),
                cite=Citation(q, i),
            )
        else:
            head = say(
                "headline",
                N_("Speed to target was {speed} against {previous} the window before {cite}."),
                speed=Figure(row["current"], "%"),
                previous=fmt(row["previous"], "%"),
                cite=Citation(q, i),
            )
    for measure, label in (
        ("shift_fpm", N_("Shift speed {figure} including stops")),
        ("lineal_ft", N_("Lineal footage {figure}")),
        ("maintenance_pct", N_("Maintenance downtime {figure} of scheduled minutes")),
        ("operator_pct", N_("Operator downtime {figure} of scheduled minutes")),
        ("dry_end_pct", N_("Dry-end waste {figure} of gross")),
    ):
        kpi = kpi_row(env, measure)
        if kpi:
            i, row = kpi
            figure = Figure(row["current"], row["unit"])
            out.append(
                found(CHANGED, figure, Citation(q, i), what=phrase(label, figure=figure), change=_change(row))
            )
    if env.get("deltas_withheld"):
        out.append(say_text("text", N_("Deltas are withheld: both windows must be complete.")))
    if env.get("crews"):
        names = ", ".join(str(c["crew"]) for c in env["crews"])
        out.append(say_text("text", N_("Crews on duty in this window: {names}."), names=names))
    return head, out


def _windows_named(env: dict[str, Any]) -> bool:
    """Whether a KPI result names both its windows (a week, month or 4-4-5 period and the one compared)."""
    windows = (env.get("window"), env.get("previous_window"))
    return all(
        isinstance(w, dict) and w.get("period") not in (None, "day") and w.get("label") for w in windows
    )


# A window's figure, then how it changed from the window before (when it is better or worse).
CHANGED = "{what}{change}"


def _change(row: dict[str, Any]) -> Any:
    """ ", better than before" or ", worse than before" when the tool says so; nothing otherwise."""
    if row.get("change") == "better":
        return phrase(N_(", better than before"))
    if row.get("change") == "worse":
        return phrase(N_(", worse than before"))
    return ""


def window_volume(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """A volume question's window tiles: what the window made (lineal feet, gross and estimated good area,
    setups and paper changes) as findings beside the grades' volume; no headline of its own."""
    q = env["query"]
    out: list[Section] = []
    for measure, label in (
        ("lineal_ft", N_("Lineal footage {figure}")),
        ("gross_sqft", N_("Gross area {figure}")),
        ("estimated_good_sqft", N_("Estimated good area {figure} after trim, shear and rejects")),
        ("valid_setups", N_("{figure} setups")),
        ("paper_changes", N_("{figure} paper changes (wet-end runs)")),
    ):
        kpi = kpi_row(env, measure)
        if kpi:
            i, row = kpi
            unit = row["unit"] if row["unit"] in ("ft", "sq ft") else ""
            figure = Figure(row["current"], unit)
            out.append(
                found(CHANGED, figure, Citation(q, i), what=phrase(label, figure=figure), change=_change(row))
            )
    return None, out


def pareto(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a pareto result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = is_ranked(env)
    measure = "stops" if env.get("measure") == "count" else "minutes"
    unit = "stops" if measure == "stops" else "min"
    head = None
    out: list[Section] = []
    controllable = [(i, r) for i, r in enumerate(rows) if r["class"] == "controllable"]
    if controllable:
        i, top = controllable[0]
        group_by = env.get("group_by", "reason")
        lead = PARETO_LEADS.get((group_by, ranked))
        if lead is None:
            text = f"The top {group_by}" if ranked else f"The first {group_by} listed"
            head = said(
                "headline",
                f"{text} was {top['key']} at ",
                Figure(top[measure], unit),
                " ",
                Citation(q, i),
                ".",
            )
        else:
            head = say(
                "headline", lead, key=term(top["key"]), figure=Figure(top[measure], unit), cite=Citation(q, i)
            )
        out.append(say_text("label", N_("Most downtime") if ranked else N_("Recorded downtime")))
    for i, row in controllable[:4]:
        out.append(
            found(
                N_("{key}: {figure}, {stops}, {priced}"),
                Figure(row[measure] if measure == "minutes" else row["minutes"], "min"),
                Citation(q, i),
                key=term(row["key"]),
                stops=stops_of(row["stops"]),
                priced=priced_of(row),
            )
        )
    for i, row in enumerate(rows):
        if row["class"] != "controllable":
            out.append(apart(row["key"], row["class"], Figure(row["minutes"], "min"), Citation(q, i)))
    if not ranked:
        out.append(withheld())
    return head, out


# A pareto's headline by what it groups and whether it is ranked.
PARETO_LEADS = {
    ("reason", True): N_("The top reason was {key} at {figure} {cite}."),
    ("reason", False): N_("The first reason listed was {key} at {figure} {cite}."),
    ("place", True): N_("The top place was {key} at {figure} {cite}."),
    ("place", False): N_("The first place listed was {key} at {figure} {cite}."),
    ("kind", True): N_("The top kind was {key} at {figure} {cite}."),
    ("kind", False): N_("The first kind listed was {key} at {figure} {cite}."),
}


def waste(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a waste result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    head = None
    out: list[Section] = []
    for i, row in enumerate(rows):
        if row["item"] == "trim":
            # The grade or web width the waste was read for is said in the headline.
            of = f" of grade {row['grade']}" if row.get("grade") else ""
            if row.get("width_in") is not None:
                of += f" on the {row['width_in']:.0f} in web"
            # The owner's trim flag is the context a trim figure is read against ("compared to the flag").
            flag = f"; {row['band_text']}" if row.get("band_text") else ""
            head = said(
                "headline",
                f"Side trim{of} was ",
                Figure(row["pct_of_gross"], "%"),
                " of gross ",
                Citation(q, i),
                f"{flag}.",
            )
    for i, row in enumerate(rows):
        if row["item"] in ("shear", "dry-end total") or (
            row["group"] == "dry-end" and (row["sqft"] or 0) > 0
        ):
            if row["item"] == "dry-end total":
                continue
            out.append(
                found(
                    N_("{item}: {figure} of gross, {usd}"),
                    Figure(row["pct_of_gross"], "%"),
                    Citation(q, i),
                    item=term(row["item"]),
                    usd=f"${row['usd']:,.2f}",
                )
            )
    for i, row in enumerate(rows):
        if row["item"] == "dry-end total":
            out.append(
                found(
                    N_("Dry-end total {figure} of the yield after trim and shear"),
                    Figure(row["pct_of_yield"], "%"),
                    Citation(q, i),
                )
            )
    if env.get("details"):
        out.append(say_text("label", N_("Reported sub-reasons")))
        for j, d in enumerate(env["details"][:3]):
            out.append(
                found(
                    N_("{family} / {reason}: {figure}"),
                    Figure(d["sqft"], "sq ft"),
                    Citation(q, j, "detail"),
                    family=term(d["family"]),
                    reason=term(d["reason"]),
                )
            )
    return head, out


def stops(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a stops result: its headline, if any, and its findings."""
    q = env["query"]
    out: list[Section] = [{"type": "label", "text": "Weekday profile"}]
    for j, day in enumerate(env["weekday_profile"]):
        out.append(
            said(
                "finding",
                f"- {day['weekday']}: ",
                Figure(day["stops_per_day"], "stops"),
                " per day ",
                Citation(q, j, "weekday"),
            )
        )
    return None, out


# The trend metrics as a supervisor says them (the tool's identifiers stay in the evidence).
TREND_NAMES = {
    "speed": N_("speed with stops"),
    "speed_to_target": N_("speed to target"),
    "lineal_ft": N_("lineal footage"),
    "downtime_pct": N_("downtime"),
    "maintenance_pct": N_("maintenance downtime"),
    "operator_pct": N_("operator downtime"),
    "trim_pct": N_("side trim"),
    "dry_end_pct": N_("dry-end waste"),
}
# What a trend's series is of (tools/period.py get_trend's filters), as its sentences name it.
TREND_OF = {
    "reason": N_(" of reason {value}"),
    "place": N_(" of place {value}"),
    "grade": N_(" of grade {value}"),
}
# A week's coverage as a trend's finding says it.
WEEK_COVERAGE = {"complete": N_("complete"), "partial": N_("partial"), "unavailable": N_("unavailable")}


def _trend_what(metric: str, of: dict[str, Any]) -> Phrase:
    """The series of the thing named: "downtime of reason Knife jam", "speed to target of grade 275-BC"."""
    name = phrase(TREND_NAMES[metric]) if metric in TREND_NAMES else phrase("{metric}", metric=metric)
    pieces = [
        phrase(TREND_OF[k], value=term(v)) if k in TREND_OF else phrase(" of {k} {v}", k=k, v=v)
        for k, v in of.items()
    ]
    params: dict[str, Any] = {f"o{i}": p for i, p in enumerate(pieces)}
    return phrase("{name}" + "".join(f"{{o{i}}}" for i in range(len(pieces))), name=name, **params)


def trend(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a trend result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    unit = (
        "%"
        if env["metric"] != "speed" and env["metric"] != "lineal_ft"
        else ("ft/min" if env["metric"] == "speed" else "ft")
    )
    head = None
    out: list[Section] = []
    of = env.get("of") or {}
    what = _trend_what(env["metric"], of)
    stops = "stops" in (rows[0] if rows else {})
    if rows:
        i = len(rows) - 1
        head = say(
            "headline",
            N_("The week of {day} read {figure} for {what} {cite}."),
            day=rows[i]["week_start"],
            figure=Figure(rows[i]["value"], unit),
            what=what,
            cite=Citation(q, i),
        )
        for i, row in enumerate(rows[-5:], start=max(0, len(rows) - 5)):
            extra = phrase("")
            if stops and row.get("stops") is not None:
                extra = phrase(
                    " ({stops}, {minutes})", stops=stops_of(row["stops"]), minutes=fmt(row["stop_min"], "min")
                )
            coverage = row["coverage"]
            out.append(
                found(
                    N_("Week of {day} ({coverage}): {figure}{extra}"),
                    Figure(row["value"], unit),
                    Citation(q, i),
                    day=row["week_start"],
                    coverage=phrase(WEEK_COVERAGE[coverage]) if coverage in WEEK_COVERAGE else str(coverage),
                    extra=extra,
                )
            )
    return head, out


def grades(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a grades result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = is_ranked(env)
    head = None
    out: list[Section] = []
    if not rows:
        return None, out
    if env.get("measure") == "speed":
        order = (
            sorted(range(len(rows)), key=lambda i: rows[i]["pct_of_target"] or 0)
            if ranked
            else list(range(len(rows)))
        )
        i = order[0]
        lead = (
            N_("The slowest grade {grade} ran at {figure} of its {target} ft/min target {cite}.")
            if ranked
            else N_("Grade {grade} ran at {figure} of its {target} ft/min target {cite}.")
        )
        head = say(
            "headline",
            lead,
            grade=rows[i]["grade"],
            figure=Figure(rows[i]["pct_of_target"], "%"),
            target=f"{rows[i]['target_fpm']:,.0f}",
            cite=Citation(q, i),
        )
        for i in order[:3]:
            out.append(
                found(
                    N_(
                        "{grade}: {figure} of its {target} ft/min target, running {running} ft/min without stops"
                    ),
                    Figure(rows[i]["pct_of_target"], "%"),
                    Citation(q, i),
                    grade=rows[i]["grade"],
                    target=f"{rows[i]['target_fpm']:,.0f}",
                    running=f"{rows[i]['running_fpm'] or 0:,.0f}",
                )
            )
    else:
        i = 0
        head = say(
            "headline",
            N_("The largest volume was {grade} at {figure} {cite}.")
            if ranked
            else N_("Volume was {grade} at {figure} {cite}."),
            grade=rows[0]["grade"],
            figure=Figure(rows[0]["volume_msf"], "MSF"),
            cite=Citation(q, 0),
        )
        for i, row in enumerate(rows[:4]):
            out.append(
                found(
                    "{grade}: {figure}", Figure(row["volume_msf"], "MSF"), Citation(q, i), grade=row["grade"]
                )
            )
    if not ranked:
        out.append(withheld())
    return head, out


def overrun(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of an overrun result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    if not rows:
        return None, []
    last = len(rows) - 1
    head = say(
        "headline",
        N_("Across all knives, cuts ran at {figure} of nominal against the ±2 % band {cite}."),
        figure=Figure(rows[last]["pct_of_nominal"], "%"),
        cite=Citation(q, last),
    )
    out = [
        finding(
            f"{r['knife'] if r['knife'] == 'all knives' else r['knife'] + ' knife'}: {{}} closed, "
            f"{r['inside']} inside the band",
            r["closed_lines"],
            "lines",
            q,
            i,
        )
        for i, r in enumerate(rows)
    ]
    return head, out


def rollstock(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a rollstock result: its headline, if any, and its findings."""
    q = env["query"]
    out = [
        finding(
            f"{r['grade']} at {r['width_in']:.0f} in: {{}} over {r['runs']} runs", r["lineal_ft"], "ft", q, i
        )
        for i, r in enumerate(env["rows"][:5])
    ]
    if not is_ranked(env):
        out.append(withheld())
    out.append(
        say_text("caveat", N_("MSF is the paper footprint; the records carry no basis weight, so no tons."))
    )
    return None, out


def review(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a review result: its headline, if any, and its findings."""
    q = env["query"]
    head = say(
        "headline",
        N_("Maintenance downtime was {figure} of scheduled minutes against its 2.5 % band {cite}."),
        figure=Figure(env["maintenance_pct"], "%"),
        cite=Citation(q),
    )
    out: list[Section] = [
        found(
            N_("Operator downtime {figure} of scheduled minutes against its 2.5 % band"),
            Figure(env["operator_pct"], "%"),
            Citation(q, None),
        )
    ]
    for i, r in enumerate(env["rows"][:4]):
        out.append(
            found(
                N_("{kind} / {reason} ({cls}): {figure} of scheduled minutes"),
                Figure(r["pct_of_scheduled"], "%"),
                Citation(q, i),
                kind=term(r["kind"]),
                reason=term(r["reason"]),
                cls=term(r["class"]),
            )
        )
    for j, flag in enumerate(env.get("flags") or []):
        out.append(
            found(
                N_(
                    "Shift {shift} {kind} downtime {figure} over its band; supervisor slot {slot}, leading reason {reason}"
                ),
                Figure(flag["pct_of_scheduled"], "%"),
                Citation(q, j, "flag"),
                shift=flag["shift"],
                kind=term(flag["kind"].lower()),
                slot=flag["supervisor_slot"],
                reason=term(flag["leading_reason"]),
            )
        )
    return head, out


def speed_opportunity(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a speed opportunity result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = is_ranked(env)
    order = (
        sorted(range(len(rows)), key=lambda i: -(rows[i]["opportunity_hours"] or 0))
        if ranked
        else list(range(len(rows)))
    )
    out = [
        finding(
            f"{rows[i]['grade']} / {rows[i]['slice']}: typical {rows[i]['typical_fpm']:,.0f} ft/min, {{}} of "
            f"opportunity, {priced(rows[i])}",
            rows[i]["opportunity_hours"],
            "h",
            q,
            i,
        )
        for i in order[:4]
    ]
    if not ranked:
        out.append(withheld())
    out.append({"type": "caveat", "text": str(env.get("note"))})
    return None, out


def variance(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a variance result: its headline, if any, and its findings."""
    q = env["query"]
    head = said(
        "headline",
        "Speed with stops was ",
        Figure(env["shift_fpm"], "ft/min"),
        f" against a reference of {env['reference_fpm']:,.1f} ft/min ({env['against']}) ",
        Citation(q),
        ".",
    )
    out: list[Section] = [say_text("label", N_("Where the speed went"))]
    ranked = is_ranked(env)
    order = list(range(len(env["rows"])))
    if ranked:
        order.sort(key=lambda i: -abs(env["rows"][i]["fpm"]))
    for i in order:
        r = env["rows"][i]
        if abs(r["fpm"]) >= 0.05:
            # A stop bucket names its leading reason (the tool lists them by minutes), so "why slow" over a
            # window says which stop it was; an unranked window lists, never leads.
            reasons = [d for d in r.get("details") or [] if d.get("reason")]
            led = (
                phrase(N_(", led by {reason}"), reason=term(reasons[0]["reason"]))
                if ranked and reasons
                else ""
            )
            out.append(
                found(
                    N_("{bucket} ({cls}){led}: {figure}"),
                    Figure(r["fpm"], "ft/min"),
                    Citation(q, i),
                    bucket=term(r["bucket"]),
                    cls=term(r["class"]),
                    led=led,
                )
            )
    return head, out


def opportunities(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of an opportunities result: its headline, if any, and its findings."""
    q = env["query"]
    head = say(
        "headline",
        N_("The controllable levers come to {figure} a year {cite}."),
        figure=Figure(env["levers_usd_per_year"], "$"),
        cite=Citation(q),
    )
    out: list[Section] = [say_text("label", N_("Levers"))]
    for i, r in enumerate(env["rows"][:6]):
        line = (
            N_("{item}: {figure} a year from {records} {unit}")
            if r["class"] == "controllable"
            else N_("{item} ({cls}, carried apart): {figure} a year from {records} {unit}")
        )
        out.append(
            found(
                line,
                Figure(r["usd_per_year"], "$"),
                Citation(q, i),
                item=term(r["item"]),
                cls=term(r["class"]),
                records=r["records"],
                unit=term(r["record_unit"]),
            )
        )
    if not is_ranked(env):
        out.append(withheld())
    out += rates_lines()
    out.append(contribution(env.get("contribution_status")))
    return head, out


# What a comparison of shifts or crews is ranked on (the tool's ``rank_by``): the row's figure and its words.
GROUP_FIGURES = {
    "speed": ("speed_to_target_pct", "speed to target", ""),
    "downtime": ("unplanned_downtime_pct", "unplanned downtime", " of scheduled minutes"),
    "quality": ("dry_end_pct", "dry-end waste", " of gross"),
}


def group_comparison(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a shifts-or-crews comparison (``answers/comparison.py``) over a window or one production
    day: on a complete window the headline names the best and the worst group on speed to target and the
    points between them (the slowest crew leads a crews' comparison; ranked on downtime or quality, the best
    shift or the worst crew on that figure), then the side-by-side table, then every group best first,
    labelled with which end it is; on a partial window the groups are listed in their own order with no
    ranking, and the headline says why. On a day ranked on speed the table is the list: each shift's own
    findings follow it."""
    q = env["query"]
    rows = env["rows"]
    group = env.get("group_by", "shift")
    plural = f"{group}s"
    rank_by = env.get("rank_by", "speed")
    column = GROUP_FIGURES[rank_by][0]
    day = (env.get("window") or {}).get("period") == "day"
    out: list[Section] = []
    if not rows:
        return None, out
    table = side_by_side(env)
    if table is not None:
        out.append(table)
    listed = not day or table is None or rank_by != "speed"
    if not is_ranked(env):
        head = {"type": "headline", "text": f"The {plural} are compared, not ranked: {_why_unranked(env)}."}
        if listed:
            for i, row in enumerate(rows):
                out.append(finding(_group_text(row, None, len(rows), rank_by), row[column], "%", q, i))
        out.append({"type": "text", "text": WITHHELD})
        return head, out
    head = (ranked_headline(env) if rank_by == "speed" else None) or _one_end(env)
    if listed:
        out.append({"type": "label", "text": f"Ranked by {env.get('best', 'speed to target')}, best first"})
        for i, row in enumerate(rows):
            out.append(finding(_group_text(row, row["rank"], len(rows), rank_by), row[column], "%", q, i))
    return head, out


def _why_unranked(env: dict[str, Any]) -> str:
    """Why a comparison is not ranked: the window's complete days, or what a day lacks."""
    cov = env.get("coverage") or {}
    window = env.get("window") or {}
    if window.get("period") == "day":
        why = next(iter((cov.get("incomplete_why") or {}).values()), None)
        label = window.get("label", "the day")
        return f"{label} has {why}" if why else f"{label} is incomplete in the store"
    return f"the window is partial ({cov.get('valid_days')} of {cov.get('expected_days')} production days complete)"


def _one_end(env: dict[str, Any]) -> Section:
    """The headline of a ranked result led by one end: the best shift, or the slowest (worst) crew, on the
    figure ranked."""
    q, rows = env["query"], env["rows"]
    rank_by = env.get("rank_by", "speed")
    column, words, of = GROUP_FIGURES[rank_by]
    span = "day" if (env.get("window") or {}).get("period") == "day" else "window"
    on = "" if rank_by == "speed" else f" on {words}"
    said_of = " speed to target" if rank_by == "speed" else of
    if env.get("group_by", "shift") == "crew":
        i = len(rows) - 1
        while i > 0 and rows[i]["rank"] is None:
            i -= 1
        end = "slowest crew" if rank_by == "speed" else "worst crew"
        return said(
            "headline",
            f"{rows[i]['group']} was the {end} of the {span}{on} at ",
            Figure(rows[i][column], "%"),
            f"{said_of} ",
            Citation(q, i),
            ".",
        )
    return said(
        "headline",
        f"{rows[0]['group']} was the best shift of the {span}{on} at ",
        Figure(rows[0][column], "%"),
        f"{said_of} ",
        Citation(q, 0),
        ".",
    )


def _group_text(row: dict[str, Any], rank: int | None, count: int, rank_by: str = "speed") -> str:
    """One group's line: its name, its rank when ranked (with which end it is), the figure it is ranked on,
    then its other figures."""
    end = ""
    if rank is not None:
        end = " (best)" if rank == 1 else (" (worst)" if rank == count else "")
        end = f", rank {rank} of {count}{end}"
    figures = {
        "speed": f"speed to target {fmt(row['speed_to_target_pct'], '%')}",
        "downtime": f"unplanned downtime {fmt(row['unplanned_downtime_pct'], '%')}",
        "quality": f"dry-end waste {fmt(row['dry_end_pct'], '%')}",
    }
    shift_speed = f"shift speed {fmt(row['shift_fpm'], 'ft/min')}"
    if rank_by == "speed":
        others = [shift_speed, figures["downtime"], figures["quality"]]
    else:
        rest = (text for key, text in figures.items() if key not in ("speed", rank_by))
        others = [figures["speed"], shift_speed, *rest]
    lead = GROUP_FIGURES[rank_by][1]
    return (
        f"{row['group']}{end}: {{}} {lead}, {', '.join(others)} over {count_of(row['shifts_run'], 'shift')}"
    )
