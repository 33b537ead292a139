"""The answer builders of the stops profile and the material tools (docs/shifts-agent.md, "Flow", step 7):
the weekday profile of a window's unplanned stops, the knife overrun against the order quantities and the
rollstock consumed, each line said from its template (``answers/sayings.py``).
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.answers.findings import Citation, Figure, Section
from shopfloor.shifts.answers.sayings import N_, NN_, Phrase, phrase, say, say_text
from shopfloor.shifts.answers.shaping import found, is_ranked, withheld

# The weekdays as the stops profile names them (tools/period.py get_stops_profile).
WEEKDAY_NAMES = {"Mon": N_("Mon"), "Tue": N_("Tue"), "Wed": N_("Wed"), "Thu": N_("Thu"), "Fri": N_("Fri")}


def _weekday(name: Any) -> Phrase | str:
    """A weekday of the profile said from its template, any other name as the tool wrote it."""
    return phrase(WEEKDAY_NAMES[name]) if name in WEEKDAY_NAMES else str(name)


def stops(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a stops result: its headline, if any, and its findings."""
    q = env["query"]
    out: list[Section] = [say_text("label", N_("Weekday profile"))]
    for j, day in enumerate(env["weekday_profile"]):
        out.append(
            found(
                N_("{day}: {figure} per day"),
                Figure(day["stops_per_day"], "stops"),
                Citation(q, j, "weekday"),
                day=_weekday(day["weekday"]),
            )
        )
    return None, out


# The knives as the overrun's lines name them (tools/material.py OVERRUN_SQL: each knife, then the total).
KNIFE_NAMES = {"upper": N_("upper knife"), "lower": N_("lower knife"), "all knives": N_("all knives")}


def _knife(knife: Any) -> Phrase:
    """A knife of the overrun said from its template ("upper knife", "all knives")."""
    if knife in KNIFE_NAMES:
        return phrase(KNIFE_NAMES[knife])
    return phrase(N_("{knife} knife"), knife=str(knife))


# A knife's line: its closed lines (the figure) and those inside the band; English says "closed" for any
# count, another language chooses its form by the count.
OVERRUN_LINE = NN_(
    "{knife}: {figure} closed, {inside} inside the band", "{knife}: {figure} closed, {inside} inside the band"
)


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
        found(
            OVERRUN_LINE,
            Figure(r["closed_lines"], "lines"),
            Citation(q, i),
            n=r["closed_lines"],
            knife=_knife(r["knife"]),
            inside=r["inside"],
        )
        for i, r in enumerate(rows)
    ]
    return head, out


# A grade's paper at a web width over its runs; English says "runs" for any count (as it always has), another
# language chooses its form by the count.
ROLLSTOCK_LINE = NN_(
    "{grade} at {width} in: {figure} over {n} runs", "{grade} at {width} in: {figure} over {n} runs"
)


def rollstock(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a rollstock result: its headline, if any, and its findings."""
    q = env["query"]
    out = [
        found(
            ROLLSTOCK_LINE,
            Figure(r["lineal_ft"], "ft"),
            Citation(q, i),
            n=r["runs"],
            grade=r["grade"],
            width=f"{r['width_in']:.0f}",
        )
        for i, r in enumerate(env["rows"][:5])
    ]
    if not is_ranked(env):
        out.append(withheld())
    out.append(
        say_text("caveat", N_("MSF is the paper footprint; the records carry no basis weight, so no tons."))
    )
    return None, out
