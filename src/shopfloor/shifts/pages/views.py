"""What the /shifts page shows: small pure functions over an answer, a report and a scope, and the templates.

No figure is computed here: cards, tables and the heatmap show values the tools and the period report
returned; these functions only choose, order and label them (docs/shifts-agent.md, "Flow", step 7).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from shopfloor.settings import Settings
from shopfloor.shifts.answers.chart_inline import chart_inline
from shopfloor.shifts.answers.findings import parts_of
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words, translations
from shopfloor.shifts.planning.plans import AddressError, parse_address
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS
from shopfloor.shifts.plant.calendar import Window, window_for
from shopfloor.shifts.plant.catalog import SHIFT_MINUTES, SHIFT_STARTS
from shopfloor.shifts.plant.scope import Scope
from shopfloor.web.static import StaticAllowlist, vendor_files

# The reference's example questions, in its order (the page's buttons). "Compare all shifts" also
# switches the include control to every shift. A button sends the English question (what the reader reads)
# and shows it in the page's language; an answer to one shows the question as its button did.
EXAMPLES: tuple[str, ...] = (
    N_("Why was this shift slow? Chart downtime by reason."),
    N_("Compare all shifts"),
    N_("Show downtime by equipment"),
    N_("Was it maintenance or operator downtime?"),
    N_("Summarize performance, downtime and waste. Show supporting charts."),
    N_("Show orders and quantities"),
    N_("Show speed to target"),
    N_("Show setup matrix"),
    N_("Show rankings"),
    N_("Show shift and downtime notes"),
    N_("Show dry-end quality waste"),
    N_("How can we improve profit on this shift?"),
    N_("Please investigate the stopping causes"),
)
DAY_SCOPE_EXAMPLES = frozenset({"Compare all shifts"})
PLACEHOLDER = N_("Which equipment caused the most downtime?")
PERIODS = (("day", N_("Day")), ("week", N_("Week")), ("month", N_("Month")), ("fiscal", N_("4-4-5 period")))

# The eleven cards of the reference, in its order: (measure, label).
CARDS: tuple[tuple[str, str], ...] = (
    ("shift_fpm", N_("Speed")),
    ("speed_to_target_pct", N_("Speed / target")),
    ("valid_setups", N_("Setups")),
    ("paper_changes", N_("Paper changes")),
    ("maintenance_pct", N_("Maintenance")),
    ("operator_pct", N_("Operator")),
    ("dry_end_pct", N_("Dry-end waste")),
    ("trim_pct", N_("Trim")),
    ("shear_pct", N_("Shear")),
    ("throughput_in", N_("Throughput")),
    ("lineal_per_setup", N_("Lineal / setup")),
)
# An answer's status as the page names it.
STATUS_LABELS = {
    "complete": N_("complete"),
    "partial": N_("partial"),
    "unavailable": N_("unavailable"),
    "failed": N_("failed"),
    "budget_exhausted": N_("model budget spent"),
}
ROWS_SHOWN = 200
_QUALITY = re.compile(r"\b(excluded|incomplete|withheld|partial|unavailable)\b", re.I)


def shift_hours(shift: int) -> str:
    """A shift's clock hours, "15:00–23:00"."""
    start = datetime.combine(date(2026, 1, 1), SHIFT_STARTS[shift])
    end = start + timedelta(minutes=SHIFT_MINUTES)
    return f"{start:%H:%M}–{end:%H:%M}"


def window_label(window: Window, words: Words = ENGLISH) -> str:
    """A window as the page names it: "Week of 2026-09-14 (Mon–Fri)", "September 2026", "4-4-5 P1 FY2026
    (4 weeks)", in the page's language."""
    if window.period == "day":
        return words.day(window.start)
    if window.period == "week":
        return words._("Week of {day} (Mon–Fri)").format(day=window.start.isoformat())
    if window.period == "month":
        return words.month(window.start)
    weeks = ((window.end - window.start).days + 1) // 7
    return words.ngettext(
        "4-4-5 P{period} FY{year} ({n} week)",
        "4-4-5 P{period} FY{year} ({n} weeks)",
        weeks,
        period=window.fiscal_period,
        year=window.fiscal_year,
    )


def scope_line(day: date, shift: int | None, include: str, period: str, words: Words = ENGLISH) -> str:
    """The live scope line: "Mon 2026-09-14 · 15:00–23:00 · shift 2 only"."""
    where = words.day(day) if period == "day" else window_label(window_for(period, day), words)  # type: ignore[arg-type]
    if shift is None:
        return words._("{where} · every shift").format(where=where)
    if include == "day":
        return words._("{where} · shift {shift} selected · every shift of the day").format(
            where=where, shift=shift
        )
    return words._("{where} · {hours} · shift {shift} only").format(
        where=where, hours=shift_hours(shift), shift=shift
    )


def marked(
    section: Mapping[str, Any], numbers: set[int] | None = None, bullet: bool = False, words: Words = ENGLISH
) -> Markup:
    """A section as markup, drawn from its parts (``answers/findings.py``): the text escaped, each figure
    bold, each citation of a result's row a link to its trace row, in the page's language; a ``bullet``
    without its "- "."""
    out = []
    for index, part in enumerate(parts_of(dict(section))):
        if isinstance(part, str):
            text = part[2:] if index == 0 and bullet and part.startswith("- ") else part
            out.append(html.escape(text, quote=True))
        elif "figure" in part:
            out.append(f"<strong>{html.escape(part['figure'], quote=True)}</strong>")
        else:
            out.append(_cited(part, numbers, words))
    return Markup("".join(out))


# What a citation counts in, by its "of" (answers/findings.py): a result's row, or another list's item.
CITED_OF = {"row": N_("row"), "detail": N_("detail"), "weekday": N_("weekday")}


def cited_text(part: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """A citation as the page shows it: "(query 1 · row 4)", in the page's language."""
    query = words._("query {number}").format(number=part["query"])
    if "row" not in part:
        return f"({query})"
    of = part.get("of", "row")
    return f"({query} · {words._(CITED_OF.get(of, of))} {part['row']})"


def _cited(part: dict[str, Any], numbers: set[int] | None, words: Words = ENGLISH) -> str:
    """A citation, a link to the query's trace row (or its row) unless ``numbers`` leaves the query out."""
    text = html.escape(cited_text(part, words), quote=True)
    query, row = part["query"], part.get("row")
    if part.get("of", "row") != "row" or (numbers is not None and query not in numbers):
        return text
    target = f"q{query}-r{row}" if row else f"q{query}"
    if row:
        label = words._("Evidence: query {query}, row {row}").format(query=query, row=row)
    else:
        label = words._("Evidence: query {query}").format(query=query)
    return f"<a class='cite' href='#{target}' aria-label='{html.escape(label, quote=True)}'>{text}</a>"


@dataclass
class Parts:
    """An answer's sections in page order: lead (headline, findings, their labels and data-quality lines),
    then the charts, then the rest (plain sentences, caveats), and "Where to look"."""

    preface: list[dict[str, Any]]
    lead: list[dict[str, Any]]
    rest: list[dict[str, Any]]
    where: list[dict[str, Any]]


def split_sections(sections: list[dict[str, Any]], status: str) -> Parts:
    """Order the sections as the page shows them (the chart follows the findings directly)."""
    preface: list[dict[str, Any]] = []
    lead: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    where: list[dict[str, Any]] = []
    # The "Read as" section is drawn on its own line above the answer, so it is not repeated here; the
    # preface is the first section after it.
    shown = [section for section in sections if section["type"] != "read_as"]
    for index, section in enumerate(shown):
        kind = section["type"]
        if kind == "label" and section["text"] == "Where to look":
            continue
        if kind == "where":
            where.append(section)
            continue
        if index == 0 and kind == "text" and status not in ("complete", "partial", "unavailable"):
            preface.append(section)
        elif kind in ("headline", "finding", "label"):
            lead.append(section)
        elif kind == "text" and _QUALITY.search(section["text"]):
            lead.append(section)  # a data-quality warning stays with the findings
        else:
            rest.append(section)
    return Parts(preface, lead, rest, where)


def finding_groups(lead: list[dict[str, Any]], shown: int = 5) -> list[dict[str, Any]]:
    """The lead sections grouped under their labels; each group shows ``shown`` findings and folds the rest."""
    groups: list[dict[str, Any]] = [{"label": None, "items": []}]
    for section in lead:
        if section["type"] == "label":
            groups.append({"label": section["text"], "items": []})
        else:
            groups[-1]["items"].append(section)
    out = []
    for group in groups:
        if not group["items"] and group["label"] is None:
            continue
        findings = [s for s in group["items"] if s["type"] == "finding"]
        fold = {id(s) for s in findings[shown:]}
        group["shown"] = [s for s in group["items"] if id(s) not in fold]
        group["more"] = [s for s in group["items"] if id(s) in fold]
        out.append(group)
    return out


def asked(answer: dict[str, Any], words: Words = ENGLISH) -> str | None:
    """The question the answer was asked with, or None when it was opened from its address (an address
    answers without its question: the same address answers every question that resolves to it). An
    example button's question reads as the button did, in the page's language."""
    question = answer.get("question")
    if not question or question == answer.get("address"):
        return None
    return words._(question) if question in EXAMPLES else str(question)


# What a plan measures, as the page's own "Read as" line says it in a language other than the reader's
# English (the keys are the reader's measures: planning/reading.py MEASURE_WORDS).
MEASURE_LABELS = {
    "overview": N_("diagnosis"),
    "kpis": N_("KPIs"),
    "downtime": N_("downtime"),
    "quality": N_("dry-end rejects"),
    "fpm": N_("speed to target"),
    "volume": N_("volume"),
    "setups": N_("setup matrix"),
    "orders": N_("order matrix"),
    "notes": N_("shift and stop notes"),
    "rankings": N_("rankings"),
    "dollars": N_("where the money went"),
    "compare_shifts": N_("shift comparison"),
    "compare": N_("window comparison"),
    "pareto": N_("downtime pareto"),
    "waste": N_("waste breakdown"),
    "stops": N_("stops profile"),
    "trend": N_("weekly trend"),
    "overrun": N_("knife overrun"),
    "rollstock": N_("rollstock consumed"),
    "review": N_("downtime review against the bands"),
    "speed_opportunity": N_("speed opportunity"),
    "variance": N_("where the speed went"),
    "opportunities": N_("levers in $ a year"),
    "compare_groups": N_("shifts compared on speed to target"),
    "named_cost": N_("cost at the assumed rates"),
}
# A plan's breakdown ("by reason"), as the page's own "Read as" line says it (planning/plans.py BY).
BY_LABELS = {
    "reason": N_("by reason"),
    "place": N_("by equipment"),
    "kind": N_("by kind"),
    "grade": N_("by grade"),
    "width": N_("by web width"),
    "crew": N_("by crew"),
    "shift": N_("by shift"),
}
# Downtime kinds (planning/plans.py KINDS) as the page names them.
KIND_LABELS = {"Maintenance": N_("Maintenance"), "Operator": N_("Operator"), "PM": N_("PM")}


def read_as(answer: dict[str, Any], words: Words = ENGLISH) -> str | None:
    """The "Read as" line: in English the reader's own when the answer carries one, else (and in every
    other language) what the plan asked for, said by the page."""
    own = answer.get("read_as")
    if own and words.locale == "en":
        return str(own)
    plan = answer.get("plan")
    if not plan:
        scope = answer.get("scope") or {}
        if not scope.get("day"):
            return None
        line = scope_line(
            date.fromisoformat(scope["day"]),
            scope.get("shift"),
            scope.get("include") or "day",
            scope.get("period") or "day",
            words,
        )
        return words._("Read as a question the offline planner does not support · {scope}").format(scope=line)
    measure = plan["measure"]
    what = words._(MEASURE_LABELS[measure]) if measure in MEASURE_LABELS else measure.replace("_", " ")
    if measure == "overview" and plan.get("shift") is not None and (plan.get("window") or "day") == "day":
        what = words._("shift diagnosis")
    extra = (
        [words._(BY_LABELS[plan["by"]]) if plan["by"] in BY_LABELS else plan["by"]] if plan.get("by") else []
    )
    if plan.get("kind"):
        kind = words._(KIND_LABELS[plan["kind"]]) if plan["kind"] in KIND_LABELS else plan["kind"]
        extra.append(words._("{kind} only").format(kind=kind))
    if plan.get("other_shift"):
        extra.append(words._("against shift {shift}").format(shift=plan["other_shift"]))
    if plan.get("chart"):
        extra.append(words._("with a chart"))
    day = date.fromisoformat(plan.get("anchor") or plan["day"])
    line = scope_line(
        day, plan.get("shift"), plan.get("include") or "shift", plan.get("window") or "day", words
    )
    what = f"{what} {', '.join(extra)}" if extra else what
    return words._("Read as {what} · {scope}").format(what=what, scope=line)


# A card's band as the page says it, from the band's value (the tools' own band text is English).
BAND_TEXTS = {
    "speed_to_target_pct": N_("speed to target below {band} is highlighted"),
    "maintenance_pct": N_("maintenance band {band} of scheduled minutes"),
    "operator_pct": N_("operator band {band} of scheduled minutes"),
    "trim_pct": N_("trim flags above {band} per setup (guidance for the total)"),
    "dry_end_pct": N_("dry-end waste flags above {band} of gross"),
    "shear_pct": N_("shear {band} is guidance, not an alarm"),
}


def band_text(row: Mapping[str, Any], words: Words = ENGLISH) -> str | None:
    """A KPI row's band in the page's language (the tool's own text for a band the page does not name)."""
    text = row.get("band_text")
    template = BAND_TEXTS.get(str(row.get("measure")))
    if text is None or template is None:
        return None if text is None else str(text)
    # The band's figure is read from the tool's own sentence; a sentence in another shape stays as it is.
    before, _, after = template.partition("{band}")
    text = str(text)
    if not (text.startswith(before) and text.endswith(after) and len(text) > len(before) + len(after)):
        return text
    return words._(template).format(band=text[len(before) : len(text) - len(after)])


def kpi_groups(answer: dict[str, Any], words: Words = ENGLISH) -> list[dict[str, Any]]:
    """The eleven cards for each KPI result of ``answer`` (one group per shift or window)."""
    groups = []
    for env in answer.get("evidence", []):
        rows = {r.get("measure"): (i, r) for i, r in enumerate(env.get("rows", [])) if isinstance(r, dict)}
        if not all(m in rows for m, _ in CARDS):
            continue
        cards = []
        for measure, label in CARDS:
            index, row = rows[measure]
            value = row.get("value", row.get("current"))
            cards.append(
                {
                    "measure": measure,
                    "label": words._(label),
                    "value": value,
                    "text": card_value(value, row.get("unit", ""), words),
                    "flag": bool(row.get("flag")),
                    "band_text": band_text(row, words),
                    "delta": row.get("delta"),
                    "cite": cited_text({"query": env["query"], "row": index + 1}, words),
                    "anchor": f"q{env['query']}-r{index + 1}",
                }
            )
        shift = env.get("shift")
        title = words._("Shift {shift}").format(shift=shift) if shift else words._("Every shift")
        groups.append(
            {
                "title": f"{title} · {_window_of(env.get('window') or {}, words)}",
                "cards": cards,
                "coverage": env.get("coverage") or {},
            }
        )
    return groups


def _window_of(window: Mapping[str, Any], words: Words) -> str:
    """A result's window (its ``as_dict()``) named in the page's language; its own label otherwise."""
    try:
        period, start = window["period"], date.fromisoformat(window["start"])
    except (KeyError, TypeError, ValueError):
        return str(window.get("label", ""))
    if period == "day":
        return words.day(start)
    return window_label(window_for(period, start), words)


# A card's unit as the page writes it (the tools' units; a unit not listed is written as it is).
UNITS = {"setups": N_("setups"), "runs": N_("runs"), "stops": N_("stops")}


def card_value(value: Any, unit: str, words: Words = ENGLISH) -> str:
    """A card's figure with its unit, or "Incomplete" when the figure is withheld."""
    if value is None:
        return words._("Incomplete")
    unit = words._(UNITS[unit]) if unit in UNITS else unit
    if unit == "%":
        return f"{value:,.2f} %"
    if unit in ("ft/min", "in", "ft"):
        return f"{value:,.1f} {unit}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f} {unit}"
    return f"{value:,.0f} {unit}"


def trace_steps(answer: dict[str, Any], words: Words = ENGLISH) -> list[dict[str, Any]]:
    """Each tool call of the answer's trace, numbered as the citations number them, with its SQL and rows."""
    out = []
    number = 0
    for step in answer.get("trace", []):
        if step.get("kind") == "model_call":
            out.append({"kind": "model", "step": step})
            continue
        if step.get("kind") != "tool_call":
            continue
        number += 1
        output = step.get("output")
        rows = output.get("rows", []) if isinstance(output, dict) else []
        rows = rows if isinstance(rows, list) else []
        columns = _columns(rows)
        out.append(
            {
                "kind": "tool",
                "number": number,
                "tool": step.get("tool"),
                "input": step.get("input"),
                "is_error": step.get("is_error"),
                "error": output if step.get("is_error") else None,
                "duration_ms": step.get("duration_ms"),
                "sql": output.get("sql", []) if isinstance(output, dict) else [],
                "columns": columns,
                "rows": [
                    [_cell(r.get(c), words) for c in columns]
                    for r in rows[:ROWS_SHOWN]
                    if isinstance(r, dict)
                ],
                "total": len(rows),
                "result_id": output.get("result_id") if isinstance(output, dict) else None,
            }
        )
    return out


def table_of(rows: list[dict[str, Any]], limit: int = ROWS_SHOWN, words: Words = ENGLISH) -> dict[str, Any]:
    """A collapsible table: labelled columns, at most ``limit`` rows, and how many there were."""
    columns = _columns(rows)
    return {
        "columns": columns,
        "rows": [[_cell(r.get(c), words) for c in columns] for r in rows[:limit]],
        "total": len(rows),
    }


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


def _columns(rows: list[Any]) -> list[str]:
    columns: list[str] = []
    for row in rows[:50]:
        if isinstance(row, dict):
            for key in row:
                if key not in columns and not isinstance(row[key], (dict, list)):
                    columns.append(key)
    return columns


def _cell(value: Any, words: Words = ENGLISH) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return words._("yes") if value else words._("no")
    if isinstance(value, float):
        return f"{value:,.4f}".rstrip("0").rstrip(".") if not value.is_integer() else f"{value:,.0f}"
    return str(value)


# --- the page's scope, form and rendering -----------------------------------------------------------------

HERE = Path(__file__).resolve().parent
# The static allowlist (shopfloor.web.static): nothing else under /shifts/static is served.
STATIC = StaticAllowlist(
    {
        "shifts.css": (HERE / "static" / "shifts.css", "text/css"),
        "shifts.js": (HERE / "static" / "shifts.js", "text/javascript"),
        "favicon.svg": (HERE / "static" / "favicon.svg", "image/svg+xml"),
        **vendor_files("htmx-2.0.11.min.js"),
    }
)


def records_line(days: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """Which days the records hold, on the first screen: "Records: Mon 2026-09-07 – Mon 2026-09-21,
    11 production days, Mon–Fri" (``days``: the record store's span, ``work.days``)."""
    first, last = date.fromisoformat(days["first"]), date.fromisoformat(days["last"])
    count = int(days.get("count") or 0)
    line = words.ngettext(
        "Records: {first} – {last}, {n} production day",
        "Records: {first} – {last}, {n} production days",
        count,
        first=words.day(first),
        last=words.day(last),
    )
    if days.get("weekdays_only"):
        line += ", " + words._("Mon–Fri")
    return line


def nearest_day(day: date, held: list[str]) -> date | None:
    """The production day in the records nearest ``day`` (the earlier of two as near), or None if none."""
    days = [date.fromisoformat(d) for d in held]
    if not days:
        return None
    return min(days, key=lambda d: (abs((d - day).days), d > day))


def day_notice(
    scope: Scope, days: Mapping[str, Any], root: str = "", words: Words = ENGLISH
) -> dict[str, Any] | None:
    """What the page says when the chosen production day has no records, in words (never a tool's error): a
    weekend is not a production day; a day outside the records or missing from them has none; with a link to
    the nearest production day the records hold, in the same shift and include."""
    held = days.get("held")
    if scope.period != "day" or held is None or scope.day.isoformat() in held:
        return None
    nearest = nearest_day(scope.day, held)
    if scope.day.weekday() >= 5:
        text = words._("{day} is not a production day: the plant runs Monday to Friday.")
    elif not scope.day.isoformat() >= days["first"] or not scope.day.isoformat() <= days["last"]:
        text = words._("The records hold no {day}: they run from {first} to {last}.")
    else:
        text = words._("The records hold no {day}: that production day is missing.")
    text = text.format(
        day=words.day(scope.day),
        first=words.day(date.fromisoformat(days["first"])),
        last=words.day(date.fromisoformat(days["last"])),
    )
    if nearest is None:
        return {"text": text, "href": None, "link": None}
    target = Scope(day=nearest, shift=scope.shift, include=scope.include, period="day")
    return {
        "text": text,
        "lead": words._("The nearest production day in the records:"),
        "link": words.day(nearest),
        "href": reset_href(target, root),
    }


def weekday_names(words: Words = ENGLISH) -> list[str]:
    """Monday to Friday, abbreviated in the page's language (the heatmap's head)."""
    monday = date(2026, 9, 14)
    return [words.day(monday + timedelta(days=i)).split(" ")[0] for i in range(5)]


# What an error says in a language other than English, by its code (docs/errors.md); the envelope's own
# message is English and names the detail, and an English page shows it as it is.
ERROR_TEXTS = {
    "bad_scope": N_("The day, shift or period cannot be read; pick them with the controls."),
    "bad_address": N_("This answer's address cannot be read."),
    "bad_request": N_("The request cannot be read."),
    "question_too_long": N_("The question is too long."),
    "bad_format": N_("That format is not offered: the page, PDF or JSON."),
    "bad_planner": N_("That planner cannot run here."),
    "busy": N_("The investigator is busy; try again in a moment."),
    "no_store": N_("The record store is not prepared; run `shopfloor prepare`."),
    "store_unavailable": N_("The record store cannot be opened now; try again shortly."),
    "not_found": N_("There is nothing at this address."),
    "rate_limited": N_("Too many requests in a minute; try again shortly."),
    "rounds_exhausted": N_(
        "Today's live rounds of this demo are used; ask with the offline planner, or tomorrow."
    ),
    "internal_error": N_("Something failed on the server; it is logged."),
}


def error_text(code: str, message: str, words: Words = ENGLISH) -> str:
    """An error's message as the page shows it: the envelope's in English, the code's in another language."""
    if words.locale == "en" or code not in ERROR_TEXTS:
        return message
    return words._(ERROR_TEXTS[code])


def scope_text(scope: Scope, words: Words = ENGLISH) -> str:
    """The scope line of a parsed scope."""
    return scope_line(scope.day, scope.shift, scope.include, scope.period, words)


def kpis_address(scope: Scope) -> str | None:
    """The address of the KPI tiles for ``scope`` (the cards when the answer has none of its own)."""
    if scope.period == "day":
        text = f"/a?day={scope.day.isoformat()}"
    else:
        text = f"/a?window={scope.period}&anchor={scope.day.isoformat()}"
    if scope.shift is not None:
        text += f"&shift={scope.shift}" + ("&include=day" if scope.include == "day" else "")
    try:
        return parse_address(text + "&measure=kpis").address()
    except AddressError:
        return None


def form_state(scope: Scope, question: str, address: str | None) -> dict[str, Any]:
    """The controls' values as the page shows them (``after``: the answer a follow-up refers to)."""
    return {
        "day": scope.day.isoformat(),
        "shift": scope.shift,
        "include": scope.include,
        "period": scope.period,
        "question": question,
        "after": address,
    }


def reset_href(scope: Scope, root: str = "") -> str:
    """The reset control: the same scope, no question, no follow-up chain (``root``: the app's mount path)."""
    params = {"day": scope.day.isoformat(), "period": scope.period, "include": scope.include}
    if scope.shift is not None:
        params["shift"] = str(scope.shift)
    else:
        params["shift"] = ""
    return root + "/?" + urlencode(params)


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
        out.append(
            {
                **chart,
                "title": title,
                "said": said,
                "svg": Markup(chart_inline({**chart, "title": title}, f"{prefix}-{index + 1}", lang)),
                "query": (queries or {}).get(str(chart.get("source"))),
            }
        )
    return out


# The period report's fixed titles (answers/reports.py) as the page names them.
REPORT_TITLES = {
    "Recurring downtime, current vs previous": N_("Recurring downtime, current vs previous"),
    "Shift rankings (1 = best)": N_("Shift rankings (1 = best)"),
    "Daily matrix": N_("Daily matrix"),
    "Reported notes (untrusted text)": N_("Reported notes (untrusted text)"),
}


def report_title(report: Mapping[str, Any], shift: int | None, words: Words = ENGLISH) -> str:
    """A period report's title in the page's language: "Period report: September 2026, shift 2"."""
    title = words._("Period report: {window}").format(window=_window_of(report.get("window") or {}, words))
    return title + (", " + words._("shift {shift}").format(shift=shift) if shift else "")


REPORT_TABLE_EMPTY = {
    "Shift rankings (1 = best)": N_("Rankings are withheld: the window is incomplete."),
}


# Stands in for the request token in a kept page; each response gets a fresh token in its place.
TOKEN_SLOT = "@@request-token@@"


PLANNER_LABELS = {
    "offline": N_("Offline planner (rule-based, no model)"),
    "loop": N_("tool loop"),
    "analyst": N_("analyst plan"),
}


def planner_choices(
    available: list[dict[str, Any]], default: str, public: bool, public_rounds: int = 0
) -> list[dict[str, Any]]:
    """The planner control's options: each planner ``available_planners`` lists, enabled when its key is set
    on the server (in public mode only when a daily round guard is configured, ``public_rounds`` > 0), with
    why a disabled one is; ``default`` is selected when it can run, else the offline planner."""
    out = []
    for planner in available:
        offline = planner["kind"] == "offline"
        if offline:
            why = None
        elif public and public_rounds == 0:
            why = "public demo: offline only"
        elif not planner["ready"]:
            why = f"needs {planner['needs']} on the server"
        else:
            why = None
        label = (
            PLANNER_LABELS["offline"]
            if offline
            else f"{planner['model']} · {PLANNER_LABELS[planner['kind']]}"
        )
        out.append({"name": planner["name"], "label": label, "enabled": why is None, "why": why})
    names = {c["name"] for c in out if c["enabled"]}
    chosen = default if default in names else "offline"
    for choice in out:
        choice["selected"] = choice["name"] == chosen
    return out


def page_view(settings: Settings) -> dict[str, Any]:
    """What every page shows of the server's settings (plain data, for the worker processes): the planner
    control's choices and the one in use, and the mode."""
    from shopfloor.shifts.live.live import available_planners

    choices = planner_choices(
        available_planners(settings), settings.model, settings.public, settings.public_live_rounds_per_day
    )
    chosen = next(c["name"] for c in choices if c["selected"])
    return {
        "planner": "offline-planner" if chosen == "offline" else chosen,
        "planners": choices,
        "public": settings.public,
    }


def planner_options(choices: list[dict[str, Any]], words: Words = ENGLISH) -> list[dict[str, Any]]:
    """The planner control's options in the page's language (:func:`planner_choices` names them in
    English)."""
    out = []
    for choice in choices:
        label, why = choice["label"], choice["why"]
        if label == PLANNER_LABELS["offline"]:
            label = words._(label)
        else:
            model, _, kind = label.partition(" · ")
            label = f"{model} · {words._(kind)}" if kind else label
        if why == "public demo: offline only":
            why = words._("public demo: offline only")
        elif why and why.startswith("needs ") and why.endswith(" on the server"):
            why = words._("needs {key} on the server").format(key=why[len("needs ") : -len(" on the server")])
        out.append({**choice, "label": label, "why": why})
    return out


class Pages:
    """The page templates in each language, and what each page shows besides the answer (the planner, the
    mode); pages are drawn with :data:`TOKEN_SLOT` where the request token goes, and the server fills it per
    response."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self._envs: dict[str, Environment] = {}

    def env(self, locale: str) -> Environment:
        """The template environment of one page language (gettext installed once per language)."""
        env = self._envs.get(locale)
        if env is None:
            env = Environment(
                loader=FileSystemLoader(HERE / "templates"),
                autoescape=select_autoescape(["html"]),
                extensions=["jinja2.ext.i18n"],
                trim_blocks=True,
                lstrip_blocks=True,
            )
            env.install_gettext_translations(translations(locale), newstyle=True)  # type: ignore[attr-defined]
            words = Words(locale)
            # static(root, name): a static file's link with its content hash, kept by the browser for good.
            env.globals.update(
                marked=lambda section, numbers=None, bullet=False: marked(section, numbers, bullet, words),
                hours=shift_hours,
                static=lambda root, name: STATIC.url(f"{root}/static", name),
                status_label=lambda status: (
                    words._(STATUS_LABELS[status]) if status in STATUS_LABELS else status
                ),
                words=words,
                # Text the answer's code wrote in English, marked as English on a page in another language
                # (docs/shifts-agent.md, "The page": what is not translated yet).
                en=Markup(' lang="en"') if locale != "en" else Markup(""),
            )
            self._envs[locale] = env
        return env

    def base(self, locale: str = "en") -> dict[str, Any]:
        """What every page shows: the request token's slot, the planner in use, the mode, the language."""
        words = Words(locale)
        return {
            "token": TOKEN_SLOT,
            **self.view,
            "planners": planner_options(self.view["planners"], words),
            "examples": EXAMPLES,
            "periods": [(value, words._(label)) for value, label in PERIODS],
            "placeholder": words._(PLACEHOLDER),
            "max_question": MAX_QUESTION_CHARS,
            "locale": locale,
            "other_locale": "es" if locale == "en" else "en",
        }

    def context(
        self,
        answer: dict[str, Any] | None,
        cards_answer: dict[str, Any] | None,
        report: dict[str, Any] | None,
        scope: Scope,
        form: dict[str, Any],
        days: dict[str, Any],
        root: str = "",
        locale: str = "en",
    ) -> dict[str, Any]:
        """The template context of the page or its fragment in ``locale``; ``root`` is the app's mount path
        (the request's ``root_path``), so every link works wherever the app is mounted."""
        words = Words(locale)
        steps = trace_steps(answer, words) if answer else []
        anchors = {
            f"q{s['number']}-r{i + 1}" for s in steps if s["kind"] == "tool" for i in range(len(s["rows"]))
        }
        queries = {str(s["result_id"]): s["number"] for s in steps if s["kind"] == "tool" and s["result_id"]}
        cards = kpi_groups(cards_answer, words) if cards_answer else []
        if cards_answer is not answer:
            for group in cards:
                for card in group["cards"]:
                    card["anchor"] = None  # another run's citation: not a row of this answer's trace
        parts = split_sections(answer["sections"], answer["status"]) if answer else None
        notice = day_notice(scope, days, root, words)
        if parts is not None and notice is not None and answer and answer["status"] == "unavailable":
            # The day has no records: the notice says so in words; the tools' refusals stay in the trace.
            parts = Parts([], [], [], [])
        headline = None
        if parts is not None:
            # The headline leads the answer, above the cards; the findings under them are its detail.
            headline = next((s for s in parts.lead if s["type"] == "headline"), None)
            parts.lead = [s for s in parts.lead if s is not headline]
        ctx: dict[str, Any] = {
            "answer": answer,
            "read_as": read_as(answer, words) if answer else None,
            "asked": asked(answer, words) if answer else None,
            "parts": parts,
            "headline": headline,
            "groups": finding_groups(parts.lead) if parts else [],
            "charts": chart_views(answer.get("charts", []), queries, words=words) if answer else [],
            "cards": cards,
            "anchors": anchors,
            "steps": steps,
            "report": report,
            "form": form,
            "days": days,
            "scope_text": scope_text(scope, words),
            "reset_href": reset_href(scope, root),
            "root": root,
            "records_line": records_line(days, words),
            "day_notice": notice,
            "weekdays": weekday_names(words),
            # The page's own address, where the language switch comes back to.
            "here": root + answer["address"] if answer and answer.get("address") else reset_href(scope, root),
        }
        if report is not None:
            ctx["heat"] = heatmap_weeks(report["heatmap"], words)
            ctx["report_title"] = report_title(report, scope.shift, words)
            ctx["report_charts"] = chart_views(
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
            ctx["report_tables"] = tables
            ctx["report_pdf_href"] = (
                root
                + "/report?"
                + urlencode(
                    {"period": scope.period, "day": scope.day.isoformat(), "format": "pdf"}
                    | ({"shift": str(scope.shift)} if scope.shift else {})
                )
            )
        return ctx

    def render(self, template: str, ctx: dict[str, Any], locale: str = "en") -> str:
        """``index.html`` (the whole page) or ``_main.html`` (the answer region that htmx swaps in, with the
        controls an answer may move swapped out of band) as text, in ``locale``."""
        extra = {"nav": "ask"} if template == "index.html" else {"after_input": True}
        return self.env(locale).get_template(template).render({**self.base(locale), **ctx, **extra})

    def error(self, status: int, code: str, message: str, root: str = "", locale: str = "en") -> str:
        """The error page a browser gets for a refused or failed request (the envelope's status, code and
        message; ``root``: the app's mount path), in ``locale``."""
        message = error_text(code, message, Words(locale))
        context = {**self.base(locale), "status": status, "code": code, "message": message, "root": root}
        return self.env(locale).get_template("error.html").render(context)

    def guide(self, days: dict[str, Any], root: str = "", locale: str = "en") -> str:
        """The field guide (``root``: the app's mount path), in ``locale``."""
        context = {
            **self.base(locale),
            "days": days,
            "records_line": records_line(days, Words(locale)),
            "nav": "guide",
            "root": root,
            "here": root + "/guide",
        }
        return self.env(locale).get_template("guide.html").render(context)
