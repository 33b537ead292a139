"""The charts as the /shifts page shows them: their titles in the page's language and an inline SVG
(``answers/chart_inline.py``) with the number of the query each was drawn from."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from shopfloor.shifts.answers.cells import kpi_name
from shopfloor.shifts.answers.chart_inline import chart_inline
from shopfloor.shifts.pages.answer_view import column_headers, said_word
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words, translations

# The charts' fixed titles (the tools' components and default charts, shifts/catalog.py) as the page names
# them; a chart titled otherwise (a live planner's own title) keeps its title, marked as English.
CHART_TITLES = {
    "Speed to target by grade (%)": N_("Speed to target by grade (%)"),
    "Downtime by reason (min)": N_("Downtime by reason (min)"),
    "Rejected area by family (sq ft)": N_("Rejected area by family (sq ft)"),
    "Allocated stop minutes by setup": N_("Allocated stop minutes by setup"),
    "Cuts as % of nominal by knife": N_("Cuts as a share of nominal by knife"),
    "Downtime (min)": N_("Downtime (min)"),
    "Downtime as % of scheduled minutes": N_("Downtime as a share of scheduled minutes"),
    "Downtime pareto (min)": N_("Downtime pareto (min)"),
    "Levers ($ a year)": N_("Levers ($ a year)"),
    "Paper consumed (lineal ft)": N_("Paper consumed (lineal ft)"),
    "Rejected area (sq ft)": N_("Rejected area (sq ft)"),
    "Setups by speed to target (%)": N_("Setups by speed to target (%)"),
    "Shift KPIs": N_("Shift KPIs"),
    "Speed opportunity (hours)": N_("Speed opportunity (hours)"),
    "Speed to target (%)": N_("Speed to target (%)"),
    "Speed to target by wet-end run (%)": N_("Speed to target by wet-end run (%)"),
    "Unplanned stops per production day": N_("Unplanned stops per production day"),
    "Waste (sq ft)": N_("Waste (sq ft)"),
    "Weekly trend": N_("Weekly trend"),
    "Where the money went ($)": N_("Where the money went ($)"),
    "Where the money went on the day ($)": N_("Where the money went on the day ($)"),
    "Where the speed went (ft/min)": N_("Where the speed went (ft/min)"),
    "Window KPIs": N_("Window KPIs"),
    "Volume by grade (MSF)": N_("Volume by grade (MSF)"),
    "Lineal feet per production day": N_("Lineal feet per production day"),
    "Downtime minutes by place / reason": N_("Downtime minutes by place / reason"),
    # A comparison of shifts or crews drawn on the figure it was ranked on (planning/planner.py). A "% o"
    # in a message id reads as a %-format; the English catalogue says these two as the planner titles them.
    "Unplanned downtime (% of scheduled minutes)": N_("Unplanned downtime (share of scheduled minutes)"),
    "Dry-end waste (% of gross)": N_("Dry-end waste (share of gross)"),
}


_SHIFT_TITLE = re.compile(r"Shift ([123]): (.+)")


def chart_title(title: str, words: Words = ENGLISH) -> tuple[str, bool]:
    """A chart's title in the page's language, and whether it is (a title the page does not name stays as
    it is: False on a page in another language)."""
    if title in CHART_TITLES:
        return words._(CHART_TITLES[title]), True
    found = _SHIFT_TITLE.fullmatch(title)
    if found and found[2] in CHART_TITLES:
        shift = words._("Shift {shift}").format(shift=found[1])
        return f"{shift}: {words._(CHART_TITLES[found[2]])}", True
    return title, words.locale == "en"


def point_word(text: str, words: Words = ENGLISH, column: str | None = None) -> tuple[str, bool]:
    """A chart point's label in the page's language, and whether it shows English there: a record's word
    through the glossary, a tool's own word through its template (``said_word``), and a label of two joined
    by " / " (the period report's "Upper knife / Knife jam", a place and its reason) said word by word,
    English if either word is. A KPI row's measure ("lineal_ft") is named in words in every language
    (answers/cells.kpi_name)."""
    named = kpi_name(text, translations(words.locale)) if column == "measure" else None
    if named is not None:
        return named, False
    said, ok = said_word(text, words, column)
    if not ok and " / " in text:
        parts = [said_word(part, words, column) for part in text.split(" / ")]
        return " / ".join(part for part, _ in parts), not all(fine for _, fine in parts)
    return said, not ok


def chart_views(
    charts: list[dict[str, Any]],
    queries: Mapping[str, int] | None = None,
    prefix: str = "chart",
    words: Words = ENGLISH,
) -> list[dict[str, Any]]:
    """Each chart as the page shows it: an inline SVG element (``answers/chart_inline.py``: styled by the
    page's stylesheet, with its title and description; ids start with ``prefix``), its title in the page's
    language (``said``: whether it is), its points, and the number of the query it was drawn from
    (``queries``: each result id's query number in the trace; a person reads "query 2", never the result's
    id)."""
    out = []
    for index, chart in enumerate(charts):
        title, said = chart_title(str(chart["title"]), words)
        lang = words.locale if said and words.locale != "en" else None
        # The records' words among its points said through the glossary, a tool's own words in the x column
        # through their templates (answers/cells.py; a code or a grade as it is).
        points = []
        for p in chart["points"]:
            if isinstance(p.get("x"), str):
                x, en = point_word(p["x"], words, str(chart.get("x")))
                points.append({**p, "x": x, "en": en})
            else:
                points.append({**p, "en": False})
        chart = {**chart, "points": points, "points_en": any(p["en"] for p in points)}
        out.append(
            {
                **chart,
                "title": title,
                "said": said,
                # The data table's two columns, named in the page's language (pages/columns.py).
                "headers": column_headers([str(chart.get("x")), str(chart.get("y"))], words),
                "svg": Markup(chart_inline({**chart, "title": title}, f"{prefix}-{index + 1}", lang)),
                "query": (queries or {}).get(str(chart.get("source"))),
            }
        )
    return out
