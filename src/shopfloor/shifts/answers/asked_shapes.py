"""The headlines of a figure asked in its own unit or as a count (docs/shifts-agent.md, "The three rules", rule 3):
downtime in minutes or hours, stops, square feet, paper changes and MSF, for one shift or several with their sum.
Split from ``shapes`` by responsibility; ``shapes.build_sections`` chooses when one leads.
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.answers.coverage import window_named
from shopfloor.shifts.answers.findings import Citation, Figure, Section, fmt
from shopfloor.shifts.answers.sayings import N_, NN_, Phrase, phrase, say
from shopfloor.shifts.answers.shaping import is_ranked, stops_of
from shopfloor.shifts.planning.plans import Plan

# The tools whose rows are downtime by reason, place or kind (a share or a count of their stops is read there).
SHARE_TOOLS = ("get_downtime_breakdown", "get_downtime_pareto")


def over_window(env: dict[str, Any]) -> Phrase:
    """ " over <the window>" for a window's tiles (the window named in the page's language); nothing for one
    shift's."""
    if env["tool"] != "get_period_kpis":
        return phrase("")
    return phrase(N_(" over {window}"), window=window_named(env.get("window") or {}))


def tile_value(env: dict[str, Any], measure: str) -> Any:
    """A tile's value: a day's KPI row holds it as ``value``, a window's as ``current``."""
    row = next((r for r in env["rows"] if r.get("measure") == measure), None)
    return None if row is None else row.get("value", row.get("current"))


def asked_headline(plan: Plan, evidence: list[dict[str, Any]], asked: tuple[str, ...]) -> Section | None:
    """The figure asked in its unit or as a count, when one result holds it: the downtime's stops or hours
    listed ("how many stops", "downtime in hours"), a shift's gross area in MSF (docs/shifts-agent.md, rule
    3). A named reason or place leads with its own row instead."""
    if plan.reason or plan.place or plan.ask:
        return None
    tiles = [e for e in evidence if e["tool"] in ("get_shift_kpis", "get_period_kpis")]
    for headline in (
        _downtime_asked(evidence, asked),
        _area_asked(tiles, asked),
        _paper_changes_asked(tiles, asked),
        _msf_asked(evidence, asked),
    ):
        if headline is not None:
            return headline
    return None


def listed(items: list[Any]) -> Any:
    """Pieces of a sentence listed with commas ("12 stops on shift 1, 4 stops on shift 3")."""
    if len(items) == 1:
        return items[0]
    return phrase("{first}, {rest}", first=items[0], rest=listed(items[1:]))


def on_shift(shift: Any) -> Phrase:
    """ " on shift 2"."""
    return phrase(N_(" on shift {shift}"), shift=shift)


def _in_all(others: list[Any], total: Any) -> Phrase:
    """ "; <the other shifts' figures>; <their sum> in all"."""
    return phrase(N_("; {others}; {total} in all"), others=listed(others), total=total)


def _hours(value: Any) -> Phrase:
    """Hours as a sentence says them beside a figure ("2.50 hours")."""
    return phrase(N_("{value} hours"), value=fmt(value, ""))


def _downtime_asked(evidence: list[dict[str, Any]], asked: tuple[str, ...]) -> Section | None:
    """The downtime's hours or stops, when asked in hours or as a count."""
    downtime = [e for e in evidence if e["tool"] in SHARE_TOOLS and e.get("stops_total") is not None]
    if downtime and ("hours" in asked or "count" in asked):
        env = downtime[0]
        hours = "hours" in asked
        # Over several shifts the first shift's figure is the cited one; the others and the sum follow.
        on = on_shift(env["shift"]) if len(downtime) > 1 else phrase("")
        rest = phrase("")
        if len(downtime) > 1:
            others = [
                phrase(
                    N_("{amount} on shift {shift}"),
                    amount=_hours(e["hours_total"]) if hours else stops_of(e["stops_total"]),
                    shift=e["shift"],
                )
                for e in downtime[1:]
            ]
            total_h = round(sum(e["hours_total"] for e in downtime), 2)
            total_n = sum(e["stops_total"] for e in downtime)
            rest = _in_all(others, _hours(total_h) if hours else stops_of(total_n))
        minutes, stops = fmt(env["minutes_total"], "min"), env["stops_total"]
        if hours:
            return say(
                "headline",
                N_("Downtime came to {figure}{on} ({minutes} over {stops}){rest} {cite}."),
                figure=Figure(env["hours_total"], "hours"),
                on=on,
                minutes=minutes,
                stops=stops_of(stops),
                rest=rest,
                cite=Citation(env["query"]),
            )
        return say(
            "headline",
            N_("{figure} recorded{on}, {minutes} of downtime{rest} {cite}."),
            figure=Figure(stops, "stop" if stops == 1 else "stops"),
            on=on,
            minutes=minutes,
            rest=rest,
            cite=Citation(env["query"]),
        )
    return None


# The area asked in square feet: the estimated good area (after trim, shear and rejects) or the gross area.
AREA_LEADS = {
    "estimated_good_sqft": N_(
        "Estimated good area was {figure}{on} after trim, shear and rejects{rest} {cite}."
    ),
    "gross_sqft": N_("Gross area was {figure}{on}{rest} {cite}."),
}


def _area_asked(tiles: list[dict[str, Any]], asked: tuple[str, ...]) -> Section | None:
    """The gross area, or the estimated good area, in square feet, when asked in square feet."""
    if tiles and "sqft" in asked:
        # Square feet of good board is the estimated good area; otherwise the gross area. Over several
        # shifts the first shift's figure is the cited one; the others and the sum follow.
        key = "estimated_good_sqft" if "good" in asked else "gross_sqft"
        values = [tile_value(e, key) for e in tiles]
        env = tiles[0]
        index = next((i for i, r in enumerate(env["rows"]) if r.get("measure") == key), None)
        if index is not None and None not in values:
            # A window's tile is the window's own figure, said with its window.
            on, rest = over_window(env), phrase("")
            if len(tiles) > 1:
                on = on_shift(env["shift"])
                pairs = zip(values[1:], tiles[1:], strict=True)
                others = [
                    phrase(N_("{amount} on shift {shift}"), amount=fmt(v, "sq ft"), shift=e["shift"])
                    for v, e in pairs
                ]
                total = sum(v for v in values if v is not None)
                rest = _in_all(others, fmt(total, "sq ft"))
            return say(
                "headline",
                AREA_LEADS[key],
                figure=Figure(values[0], "sq ft"),
                on=on,
                rest=rest,
                cite=Citation(env["query"], index),
            )
    return None


def _paper_changes_asked(tiles: list[dict[str, Any]], asked: tuple[str, ...]) -> Section | None:
    """The paper changes (wet-end runs), when asked how many."""
    if tiles and "paper_changes" in asked:
        # "How many paper changes": the tiles' paper changes (wet-end runs), the first result's cited.
        counts = [tile_value(e, "paper_changes") for e in tiles]
        env = tiles[0]
        index = next((i for i, r in enumerate(env["rows"]) if r.get("measure") == "paper_changes"), None)
        if index is not None and None not in counts:
            rest = phrase("")
            if len(tiles) > 1:
                pairs = zip(counts[1:], tiles[1:], strict=True)
                others = [
                    phrase(N_("{amount} on shift {shift}"), amount=n, shift=e["shift"]) for n, e in pairs
                ]
                total = sum(n for n in counts if n is not None)
                rest = phrase(
                    N_("{on}; {others}; {total} in all"),
                    on=on_shift(env["shift"]),
                    others=listed(others),
                    total=total,
                )
            return say(
                "headline",
                NN_(
                    "{figure} paper change (wet-end runs){rest} {cite}.",
                    "{figure} paper changes (wet-end runs){rest} {cite}.",
                ),
                counts[0],
                figure=Figure(counts[0], ""),
                rest=rest,
                cite=Citation(env["query"], index),
            )
    return None


def _msf_asked(evidence: list[dict[str, Any]], asked: tuple[str, ...]) -> Section | None:
    """The gross board in MSF, when asked in MSF: a window's own (its tiles), else one shift's; over several
    shifts the first shift's figure is the cited one, the others and the sum beside it."""
    if "msf" not in asked:
        return None
    window = next(
        (e for e in evidence if e["tool"] == "get_period_kpis" and e.get("gross_msf") is not None), None
    )
    if window is not None:
        return say(
            "headline",
            N_("Gross board was {figure}{over} {cite}."),
            figure=Figure(window["gross_msf"], "MSF"),
            over=over_window(window),
            cite=Citation(window["query"]),
        )
    kpis = [e for e in evidence if e["tool"] == "get_shift_kpis" and e.get("gross_msf") is not None]
    if not kpis:
        return None
    env, rest = kpis[0], phrase("")
    if len(kpis) > 1:
        others = [
            phrase(N_("{amount} on shift {shift}"), amount=fmt(e["gross_msf"], "MSF"), shift=e["shift"])
            for e in kpis[1:]
        ]
        rest = _in_all(others, fmt(round(sum(e["gross_msf"] for e in kpis), 1), "MSF"))
    return say(
        "headline",
        N_("Shift {shift} ran {figure} of gross board{rest} {cite}."),
        shift=env["shift"],
        figure=Figure(env["gross_msf"], "MSF"),
        rest=rest,
        cite=Citation(env["query"]),
    )


# The KPI tile a plan's metric asks for ("dry end % on 3rd"), with what it is held against; a tile with an
# owner band says which side of it the figure is (the tool's flag: over the band, or within it). Each is said
# from its template: ``{over}`` the window (nothing for one shift's tile), ``{side}`` the band's side.


# The end of a comparison asked ("which shift had the most downtime", "which shift made the most board",
# "which crew had the least rejects"): that group leads, on the figure compared (docs/shifts-agent.md,
# "Comparisons over a window"; the plan's ``ask``, docs/URLS.md).
END_FIGURES = {
    "downtime": ("unplanned_downtime_pct", "%"),
    "quality": ("dry_end_pct", "%"),
    "lineal_ft": ("lineal_ft", "ft"),
}
END_HEADLINES = {
    ("downtime", "most"): NN_(
        "{group} had the most unplanned downtime {span} at {figure} of scheduled minutes {cite}.",
        "{group} had the most unplanned downtime {span} at {figure} of scheduled minutes each {cite}.",
    ),
    ("downtime", "least"): NN_(
        "{group} had the least unplanned downtime {span} at {figure} of scheduled minutes {cite}.",
        "{group} had the least unplanned downtime {span} at {figure} of scheduled minutes each {cite}.",
    ),
    ("quality", "most"): NN_(
        "{group} had the most dry-end waste {span} at {figure} of gross {cite}.",
        "{group} had the most dry-end waste {span} at {figure} of gross each {cite}.",
    ),
    ("quality", "least"): NN_(
        "{group} had the least dry-end waste {span} at {figure} of gross {cite}.",
        "{group} had the least dry-end waste {span} at {figure} of gross each {cite}.",
    ),
    ("lineal_ft", "most"): NN_(
        "{group} ran the most lineal feet {span} at {figure} {cite}.",
        "{group} ran the most lineal feet {span} at {figure} each {cite}.",
    ),
    ("lineal_ft", "least"): NN_(
        "{group} ran the fewest lineal feet {span} at {figure} {cite}.",
        "{group} ran the fewest lineal feet {span} at {figure} each {cite}.",
    ),
}


def _group_name(row: dict[str, Any], group_by: str) -> Phrase:
    """A group's name as a comparison's lines say it: "Shift 3", "Crew B"."""
    key = row.get(group_by)
    return (
        phrase(N_("Crew {crew}"), crew=key) if group_by == "crew" else phrase(N_("Shift {shift}"), shift=key)
    )


def end_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """The group with the most or the least of the figure compared, when the question asked that end
    (``plan.ask``) and the comparison is ranked (a partial window's groups are compared, not ranked); groups
    tied at that end are named together, the figure cited on the first of them."""
    if plan.ask not in ("most", "least") or plan.metric not in END_FIGURES:
        return None
    env = next((e for e in evidence if e["tool"] == "get_group_comparison"), None)
    if env is None or not is_ranked(env):
        return None
    column, unit = END_FIGURES[plan.metric]
    known = [(i, r) for i, r in enumerate(env["rows"]) if r.get(column) is not None]
    if not known:
        return None
    pick = max if plan.ask == "most" else min
    end = pick(r[column] for _i, r in known)
    # Tied as shown: the figure at the unit's precision, as the table compares them (answers/comparison.py).
    tied = [(i, r) for i, r in known if fmt(r[column], unit) == fmt(end, unit)]
    group_by = env.get("group_by", "shift")
    names = [_group_name(r, group_by) for _i, r in tied]
    group = names[0]
    for name in names[1:-1]:
        group = phrase(N_("{first}, {second}"), first=group, second=name)
    if len(names) > 1:
        group = phrase(N_("{first} and {second}"), first=group, second=names[-1])
    span = N_("of the day") if (env.get("window") or {}).get("period") == "day" else N_("of the window")
    i, row = tied[0]
    return say(
        "headline",
        END_HEADLINES[(plan.metric, plan.ask)],
        len(tied),
        group=group,
        span=phrase(span),
        figure=Figure(row[column], unit),
        cite=Citation(env["query"], i),
    )
