"""A period report as the /shifts page shows it: its title, tables, charts, the heatmap of production
days and the PDF link (the figures are the report's, answers/reports.py)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlencode

from shopfloor.shifts.pages.answer_view import table_of
from shopfloor.shifts.pages.chart_view import chart_views
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words
from shopfloor.shifts.pages.scope_view import window_of
from shopfloor.shifts.plant.scope import Scope


def heatmap_weeks(cells: list[dict[str, Any]], words: Words = ENGLISH) -> list[list[dict[str, Any] | None]]:
    """The heatmap's cells as Monday-to-Friday rows, one per week (None where a weekday is outside)."""
    weeks: list[list[dict[str, Any] | None]] = []
    last_monday: date | None = None
    for cell in cells:
        day = date.fromisoformat(cell["day"])
        monday = day - timedelta(days=day.weekday())
        if monday != last_monday:
            weeks.append([None] * 5)
            last_monday = monday
        if day.weekday() < 5:
            weeks[-1][day.weekday()] = {**cell, "tip": heat_tip(cell, words), "level": heat_level(cell)}
    return weeks


def heat_tip(cell: dict[str, Any], words: Words = ENGLISH) -> str:
    """A heatmap cell's tooltip, which is also its accessible label."""
    day = words.day(date.fromisoformat(cell["day"]))
    if cell.get("value") is None:
        return words._("{day}: missing or incomplete, no figure").format(day=day)
    return words._("{day}: {value} sq ft estimated good output").format(
        day=day, value=f"{cell['value']:,.0f}"
    )


def heat_level(cell: dict[str, Any]) -> int | None:
    """The cell's shade, 0–10, from the report's alpha (the stylesheet holds one rule per shade)."""
    alpha = cell.get("alpha")
    return None if alpha is None else round(float(alpha) * 10)


# The period report's fixed titles (answers/reports.py) as the page names them.
REPORT_TITLES = {
    "Recurring downtime, current vs previous": N_("Recurring downtime, current vs previous"),
    "Shift rankings (1 = best)": N_("Shift rankings (1 = best)"),
    "Daily matrix": N_("Daily matrix"),
    "Reported notes (untrusted text)": N_("Reported notes (untrusted text)"),
}


def report_title(report: Mapping[str, Any], shift: int | None, words: Words = ENGLISH) -> str:
    """A period report's title in the page's language: "Period report: September 2026, shift 2"."""
    title = words._("Period report: {window}").format(window=window_of(report.get("window") or {}, words))
    return title + (", " + words._("shift {shift}").format(shift=shift) if shift else "")


REPORT_TABLE_EMPTY = {
    "Shift rankings (1 = best)": N_("Rankings are withheld: the window is incomplete."),
}


def report_context(report: Mapping[str, Any], scope: Scope, root: str, words: Words) -> dict[str, Any]:
    """What the page adds to its template context for a period report: the heatmap, the title, the charts,
    the tables and the PDF link (``root``: the app's mount path)."""
    out: dict[str, Any] = {}
    out["heat"] = heatmap_weeks(report["heatmap"], words)
    out["report_title"] = report_title(report, scope.shift, words)
    # The report's sentences, each said from its template when it has one (answers/reports.py "said").
    said = report.get("said") or [None] * len(report["sections"])
    out["report_sections"] = [
        {"type": "text", "text": text, **({"say": say} if say else {})}
        for text, say in zip(report["sections"], said, strict=False)
    ]
    out["report_charts"] = chart_views(
        [{**c, "x": "day", "y": "value"} for c in report["charts"] if c["points"]],
        prefix="report-chart",
        words=words,
    )
    tables = []
    for table in report["tables"]:
        t = table_of(table["rows"], limit=50, words=words)
        t["title"] = words._(REPORT_TITLES.get(table["title"], table["title"]))
        empty = REPORT_TABLE_EMPTY.get(table["title"])
        t["empty"] = words._(empty) if empty else words._("No rows in this window.")
        t["open"] = table["title"].startswith("Shift rankings")
        tables.append(t)
    out["report_tables"] = tables
    out["report_pdf_href"] = (
        root
        + "/report?"
        + urlencode(
            {"period": scope.period, "day": scope.day.isoformat(), "format": "pdf"}
            | ({"shift": str(scope.shift)} if scope.shift else {})
        )
    )
    return out
