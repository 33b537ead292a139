"""A comparison as the /shifts page shows it: the side-by-side table (one column per shift or crew, one row
per measure, the best and worst of each row named in words) and, on a page in another language than English,
the comparison's headline said in it.

Both are drawn from the answer's data (``answers/comparison.py``: the ``comparison`` section, the headline's
``comparison``), never from its text; no figure is computed here.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from shopfloor.shifts.pages.answer_view import cited_link, figure_text
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words
from shopfloor.shifts.pages.scope_view import window_of

# The table's measures as the page names them (answers/comparison.py MEASURES).
MEASURE_LABELS = {
    "speed_to_target_pct": N_("Speed to target"),
    "shift_fpm": N_("Shift speed"),
    "unplanned_downtime_pct": N_("Unplanned downtime"),
    "dry_end_pct": N_("Dry-end waste"),
    "trim_pct": N_("Side trim"),
    "stops": N_("Stops"),
    "lineal_ft": N_("Lineal feet"),
    "shifts_run": N_("Shifts run"),
}
BETTER = {"higher": N_("higher is better"), "lower": N_("lower is better")}
# A cell's end of its row, in words (never by colour alone).
ENDS = {"best": N_("best"), "worst": N_("worst"), "level": N_("level")}
# Counted units the tools write in English: a figure of these says its number, the page says its unit.
COUNTED = ("stop", "stops", "shift", "shifts", "point", "points")


def group_name(group_by: str, key: Any, words: Words = ENGLISH) -> str:
    """A shift or crew as a header names it: "Shift 1", "Crew B"."""
    if group_by == "crew":
        return words._("Crew {crew}").format(crew=key)
    return words._("Shift {shift}").format(shift=key)


def named(group_by: str, key: Any, words: Words = ENGLISH, start: bool = False) -> str:
    """A shift or crew as a sentence names it, with the article its language puts before it ("shift 3",
    "el turno 3"); ``start``: at the start of a sentence ("Shift 1", "El turno 1")."""
    if group_by == "crew":
        if start:
            return words.pgettext("with its article", "Crew {crew}").format(crew=key)
        return words.pgettext("with its article", "crew {crew}").format(crew=key)
    if start:
        return words.pgettext("with its article", "Shift {shift}").format(shift=key)
    return words.pgettext("with its article", "shift {shift}").format(shift=key)


# Units a table row says once in its header, so its cells hold only their numbers and fit a phone's width.
HEADER_UNITS = ("ft", "ft/min")
# A number longer than this may break after a thousands separator in a narrow column (never mid-group).
LONG_NUMBER = 9


def _cell_figure(part: Mapping[str, Any], words: Words) -> Markup:
    """A table cell's figure: its number (and %), its unit said in the row's header or implied by it."""
    unit = str(part.get("unit", ""))
    text = str(part["figure"])
    if part.get("value") is not None and (unit in HEADER_UNITS or unit in COUNTED):
        text = text.removesuffix(unit).strip()
    escaped = html.escape(text, quote=False)
    if len(text) > LONG_NUMBER:
        escaped = escaped.replace(",", ",<wbr>")
    return Markup(escaped)


def table_view(
    section: Mapping[str, Any], numbers: set[int] | None = None, words: Words = ENGLISH
) -> dict[str, Any]:
    """The side-by-side table's caption, header cells and rows in the page's language."""
    group_by = str(section.get("group_by", "shift"))
    window = window_of(section.get("window") or {}, words)
    if group_by == "crew":
        caption = words._("Crews side by side, {window}").format(window=window)
    else:
        caption = words._("Shifts side by side, {window}").format(window=window)
    if section.get("ranked"):
        note = words._("Each row names its best and worst in words.")
    else:
        note = words._("Not ranked: the evidence is incomplete, so no row names a best or a worst.")
    columns = []
    for column in section["columns"]:
        cite = {"query": column["query"], "row": column["row"]}
        columns.append(
            {
                "name": group_name(group_by, column["key"], words),
                "cite": Markup(cited_link(cite, numbers, words)),
            }
        )
    rows = []
    for row in section["rows"]:
        measure = str(row["measure"])
        label = words._(MEASURE_LABELS[measure]) if measure in MEASURE_LABELS else measure
        units = {str(c.get("unit")) for c in row["cells"]} & set(HEADER_UNITS)
        better = row.get("better")
        rows.append(
            {
                "measure": measure,
                "label": f"{label} ({units.pop()})" if units else label,
                "better": words._(BETTER[better]) if better in BETTER else None,
                "cells": [
                    {
                        "figure": _cell_figure(cell, words),
                        "end": cell.get("end"),
                        "end_text": words._(ENDS[cell["end"]]) if cell.get("end") in ENDS else None,
                    }
                    for cell in row["cells"]
                ],
            }
        )
    return {"caption": caption, "note": note, "columns": columns, "rows": rows}


# How many groups a day's headline compares, in words (answers/comparison.py WORDS).
GROUPS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five")}
# The comparison's headline in each of its forms (answers/comparison.py), said by the page.
HEADLINES = {
    "better": N_(
        "{best} was better than {worst_in} on {window}: {best_figure} speed to target {best_cite} against "
        "{worst_figure}, {gap} lower {worst_cite}."
    ),
    "best_day": N_(
        "{best} was the best of the {groups} shifts on {window} at {best_figure} speed to target {best_cite}"
        "{level}; {worst_in} was the worst at {worst_figure}, {gap} lower {worst_cite}."
    ),
    "best": N_(
        "{best} was the best shift of the window at {best_figure} speed to target {best_cite}{level}; "
        "{worst_in} was the worst at {worst_figure}, {gap} lower {worst_cite}."
    ),
    "slowest": N_(
        "{worst} was the slowest crew of the window at {worst_figure} speed to target, {gap} below the best "
        "{worst_cite}; {best_in} was the best at {best_figure}{level} {best_cite}."
    ),
    "level_shift": N_(
        "The shifts were level on speed to target: {names} each ran {best_figure} {best_cite}."
    ),
    "level_crew": N_("The crews were level on speed to target: {names} each ran {best_figure} {best_cite}."),
}


def headline_markup(
    headline: Mapping[str, Any], numbers: set[int] | None = None, words: Words = ENGLISH
) -> Markup | None:
    """A comparison's headline said by the page in its language, from the headline's data; None for a
    headline that is not a comparison's."""
    data = headline.get("comparison")
    if not isinstance(data, Mapping):
        return None
    group_by = str(data.get("group_by", "shift"))
    form = str(data["form"])
    if form == "level":
        form = f"level_{group_by}"
    elif form == "best" and (data.get("window") or {}).get("period") == "day":
        form = "best_day"
    if form not in HEADLINES:
        return None

    def figure(part: Mapping[str, Any]) -> Markup:
        return Markup("<strong>{}</strong>").format(figure_text(part, words))

    def cite(part: Mapping[str, Any]) -> Markup:
        return Markup(cited_link({"query": part["query"], "row": part["row"]}, numbers, words))

    best, worst = data["best"], data["worst"]

    def joined(names: list[str]) -> str:
        if len(names) < 2:
            return "".join(names)
        return words._("{first} and {second}").format(first=", ".join(names[:-1]), second=names[-1])

    level = [named(group_by, key, words) for key in data.get("level") or []]
    pieces = {
        "best": named(group_by, best["key"], words, start=True),
        "best_in": named(group_by, best["key"], words),
        "worst": named(group_by, worst["key"], words, start=True),
        "worst_in": named(group_by, worst["key"], words),
        "window": window_of(data.get("window") or {}, words),
        "groups": words._(GROUPS[data["groups"]]) if data.get("groups") in GROUPS else data.get("groups"),
        "best_figure": figure(best),
        "best_cite": cite(best),
        "worst_figure": figure(worst),
        "worst_cite": cite(worst),
        "gap": figure(data["gap"]),
        "level": words._(", level with {names}").format(names=joined(level)) if level else "",
        "names": joined([named(group_by, k, words) for k in data.get("keys") or []]),
    }
    return Markup(html.escape(words._(HEADLINES[form]), quote=False)).format(**pieces)
