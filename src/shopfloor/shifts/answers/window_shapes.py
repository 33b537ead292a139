"""The answer builders of the window tools (docs/shifts-agent.md, "Flow", step 7): a day, week, month or
4-4-5 period, its headline (or None) and its findings; an incomplete window is listed, never ranked.
"""

from __future__ import annotations

import re
from typing import Any

from shopfloor.shifts.answers.bands import band_phrase
from shopfloor.shifts.answers.comparison import ranked_headline, side_by_side
from shopfloor.shifts.answers.coverage import why_phrase, window_named
from shopfloor.shifts.answers.day_shapes import apart
from shopfloor.shifts.answers.findings import Citation, Figure, Section, fmt, said
from shopfloor.shifts.answers.sayings import N_, Phrase, phrase, say, say_text
from shopfloor.shifts.answers.shaping import (
    contribution,
    found,
    is_ranked,
    kpi_row,
    priced_of,
    rates_lines,
    shifts_of,
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
            width = f"{row['width_in']:.0f}" if row.get("width_in") is not None else None
            if row.get("grade") and width:
                of = phrase(N_(" of grade {grade} on the {width} in web"), grade=row["grade"], width=width)
            elif row.get("grade"):
                of = phrase(N_(" of grade {grade}"), grade=row["grade"])
            else:
                of = phrase(N_(" on the {width} in web"), width=width) if width else phrase("")
            # The owner's trim flag is the context a trim figure is read against ("compared to the flag").
            flag = (
                phrase(N_("; {band}"), band=band_phrase(str(row["band_text"])))
                if row.get("band_text")
                else phrase("")
            )
            head = say(
                "headline",
                N_("Side trim{of} was {figure} of gross {cite}{flag}."),
                of=of,
                figure=Figure(row["pct_of_gross"], "%"),
                cite=Citation(q, i),
                flag=flag,
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
        found(
            N_("{grade} / {slice}: typical {typical} ft/min, {figure} of opportunity, {priced}"),
            Figure(rows[i]["opportunity_hours"], "h"),
            Citation(q, i),
            grade=rows[i]["grade"],
            slice=rows[i]["slice"],
            typical=f"{rows[i]['typical_fpm']:,.0f}",
            priced=priced_of(rows[i]),
        )
        for i in order[:4]
    ]
    if not ranked:
        out.append(withheld())
    out.append(short_setups_note(env.get("note")))
    return None, out


# What the speed variance is read against (tools/levers.py VarianceArgs ``against``), as its headline names it.
AGAINST_NAMES = {"baseline": N_("baseline"), "previous": N_("previous"), "shift": N_("shift")}


def variance(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a variance result: its headline, if any, and its findings."""
    q = env["query"]
    against = env["against"]
    head = say(
        "headline",
        N_("Speed with stops was {figure} against a reference of {reference} ft/min ({against}) {cite}."),
        figure=Figure(env["shift_fpm"], "ft/min"),
        reference=f"{env['reference_fpm']:,.1f}",
        against=phrase(AGAINST_NAMES[against]) if against in AGAINST_NAMES else str(against),
        cite=Citation(q),
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
    rows = env["rows"]
    group = env.get("group_by", "shift")
    plural = f"{group}s"
    rank_by = env.get("rank_by", "speed")
    day = (env.get("window") or {}).get("period") == "day"
    out: list[Section] = []
    if not rows:
        return None, out
    table = side_by_side(env)
    if table is not None:
        out.append(table)
    listed = not day or table is None or rank_by != "speed"
    if not is_ranked(env):
        head = _unranked_headline(env, plural)
        if listed:
            for i in range(len(rows)):
                out.append(_group_line(env, i, None, len(rows), rank_by))
        out.append(withheld())
        return head, out
    head = (ranked_headline(env) if rank_by == "speed" else None) or _one_end(env)
    if listed:
        out.append(_ranked_label(env))
        for i, row in enumerate(rows):
            out.append(_group_line(env, i, row["rank"], len(rows), rank_by))
    return head, out


# What a comparison is ranked on, as its label says it (tools/groups.py GROUP_RANKS, their words).
RANKED_LABELS = {
    "speed to target (highest is best)": N_("Ranked by speed to target (highest is best), best first"),
    "unplanned downtime, maintenance plus operator (lowest is best)": N_(
        "Ranked by unplanned downtime, maintenance plus operator (lowest is best), best first"
    ),
    "dry-end waste (lowest is best)": N_("Ranked by dry-end waste (lowest is best), best first"),
}


def _ranked_label(env: dict[str, Any]) -> Section:
    """The label over a ranked comparison's lines: what it is ranked on, best first."""
    best = str(env.get("best", "speed to target"))
    if best in RANKED_LABELS:
        return say_text("label", RANKED_LABELS[best])
    return {"type": "label", "text": f"Ranked by {best}, best first"}


def _unranked_headline(env: dict[str, Any], plural: str) -> Section:
    """Why the groups are compared, not ranked: the window's complete days (said from its template), or
    what a day lacks (the store's own words, in English)."""
    cov = env.get("coverage") or {}
    if (env.get("window") or {}).get("period") != "day":
        template = (
            N_(
                "The crews are compared, not ranked: the window is partial ({valid} of {expected} production days complete)."
            )
            if plural == "crews"
            else N_(
                "The shifts are compared, not ranked: the window is partial ({valid} of {expected} production days complete)."
            )
        )
        return say_text("headline", template, valid=cov.get("valid_days"), expected=cov.get("expected_days"))
    english = f"The {plural} are compared, not ranked: {_why_unranked(env)}."
    window = env.get("window") or {}
    why = next(iter((cov.get("incomplete_why") or {}).values()), None)
    day = window_named(window) if "label" in window else "the day"
    if why:
        said = say_text("headline", UNRANKED_DAY[plural == "crews"], day=day, why=why_phrase(str(why)))
    else:
        said = say_text("headline", UNRANKED_DAY_BARE[plural == "crews"], day=day)
    return said if said["text"] == english else {"type": "headline", "text": english}


# Why a day's comparison is not ranked: what the day has (the store's account, answers/coverage.py), or that
# it is incomplete; by whether crews or shifts are compared.
UNRANKED_DAY = {
    True: N_("The crews are compared, not ranked: {day} has {why}."),
    False: N_("The shifts are compared, not ranked: {day} has {why}."),
}
UNRANKED_DAY_BARE = {
    True: N_("The crews are compared, not ranked: {day} is incomplete in the store."),
    False: N_("The shifts are compared, not ranked: {day} is incomplete in the store."),
}


def _why_unranked(env: dict[str, Any]) -> str:
    """Why a comparison is not ranked: the window's complete days, or what a day lacks."""
    cov = env.get("coverage") or {}
    window = env.get("window") or {}
    if window.get("period") == "day":
        why = next(iter((cov.get("incomplete_why") or {}).values()), None)
        label = window.get("label", "the day")
        return f"{label} has {why}" if why else f"{label} is incomplete in the store"
    return f"the window is partial ({cov.get('valid_days')} of {cov.get('expected_days')} production days complete)"


# A one-end headline's pieces: the figure ranked on (after "on"), and what its figure is of.
ONE_END_ON = {"speed": "", "downtime": N_(" on unplanned downtime"), "quality": N_(" on dry-end waste")}
ONE_END_OF = {
    "speed": N_(" speed to target"),
    "downtime": N_(" of scheduled minutes"),
    "quality": N_(" of gross"),
}
ONE_END = {
    ("crew", "speed"): N_("Crew {key} was the slowest crew {span}{on} at {figure}{of} {cite}."),
    ("crew", "other"): N_("Crew {key} was the worst crew {span}{on} at {figure}{of} {cite}."),
    ("shift", "other"): N_("Shift {key} was the best shift {span}{on} at {figure}{of} {cite}."),
}


def _one_end(env: dict[str, Any]) -> Section:
    """The headline of a ranked result led by one end: the best shift, or the slowest (worst) crew, on the
    figure ranked."""
    q, rows = env["query"], env["rows"]
    rank_by = env.get("rank_by", "speed")
    column = GROUP_FIGURES[rank_by][0]
    span = N_("of the day") if (env.get("window") or {}).get("period") == "day" else N_("of the window")
    group_by = env.get("group_by", "shift")
    i = 0
    if group_by == "crew":
        i = len(rows) - 1
        while i > 0 and rows[i]["rank"] is None:
            i -= 1
    template = ONE_END[(group_by, "speed" if group_by == "crew" and rank_by == "speed" else "other")]
    return say(
        "headline",
        template,
        key=rows[i].get(group_by),
        span=phrase(span),
        on=phrase(ONE_END_ON[rank_by]),
        figure=Figure(rows[i][column], "%"),
        of=phrase(ONE_END_OF[rank_by]),
        cite=Citation(q, i),
    )


# One group's line by what it is ranked on: that figure first, then its other figures.
GROUP_LINES = {
    "speed": N_(
        "{group}{rank}: {figure} speed to target, shift speed {fpm}, unplanned downtime {downtime}, dry-end "
        "waste {dry_end} over {shifts}"
    ),
    "downtime": N_(
        "{group}{rank}: {figure} unplanned downtime, speed to target {speed}, shift speed {fpm}, dry-end "
        "waste {dry_end} over {shifts}"
    ),
    "quality": N_(
        "{group}{rank}: {figure} dry-end waste, speed to target {speed}, shift speed {fpm}, unplanned "
        "downtime {downtime} over {shifts}"
    ),
}


def _group_line(env: dict[str, Any], i: int, rank: int | None, count: int, rank_by: str = "speed") -> Section:
    """One group's line: its name, its rank when ranked (with which end it is), the figure it is ranked on,
    then its other figures, said from its template."""
    row, group_by = env["rows"][i], env.get("group_by", "shift")
    key = row.get(group_by)
    if key is None:
        name: Any = str(row["group"])
    elif group_by == "crew":
        name = phrase(N_("Crew {crew}"), crew=key)
    else:
        name = phrase(N_("Shift {shift}"), shift=key)
    place = phrase("")
    if rank is not None:
        end = phrase(N_(" (best)") if rank == 1 else (N_(" (worst)") if rank == count else ""))
        place = phrase(N_(", rank {rank} of {count}{end}"), rank=rank, count=count, end=end)
    return found(
        GROUP_LINES[rank_by],
        Figure(row[GROUP_FIGURES[rank_by][0]], "%"),
        Citation(env["query"], i),
        group=name,
        rank=place,
        speed=fmt(row["speed_to_target_pct"], "%"),
        fpm=fmt(row["shift_fpm"], "ft/min"),
        downtime=fmt(row["unplanned_downtime_pct"], "%"),
        dry_end=fmt(row["dry_end_pct"], "%"),
        shifts=shifts_of(row["shifts_run"]),
    )


# The speed opportunity's note (tools/levers.py): which setups are left out, and that no temperature is.
SHORT_SETUPS = N_(
    "Setups with under {minutes} running minutes are excluded and counted; no temperatures are modelled."
)


def short_setups_note(note: Any) -> Section:
    """The speed opportunity's note, said from its template when its English is the tool's word for word."""
    found_minutes = re.fullmatch(
        r"Setups with under (\d+) running minutes are excluded and counted; no temperatures are modelled\.",
        str(note),
    )
    if found_minutes is None:
        return {"type": "caveat", "text": str(note)}
    return say_text("caveat", SHORT_SETUPS, minutes=found_minutes[1])
