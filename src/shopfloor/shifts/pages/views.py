"""What the /shifts page shows: small pure functions over an answer, a report and a scope, and the templates.

No figure is computed here: cards, tables and the heatmap show values the tools and the period report
returned; these functions only choose, order and label them (docs/shifts-agent.md, "Flow", step 7).
"""

from __future__ import annotations

import base64
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
from shopfloor.shifts.answers.chart_image import chart_svg
from shopfloor.shifts.answers.findings import cite, cite_text, parts_of
from shopfloor.shifts.planning.plans import AddressError, parse_address
from shopfloor.shifts.planning.reading import MEASURE_WORDS
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS
from shopfloor.shifts.plant.calendar import window_for
from shopfloor.shifts.plant.catalog import SHIFT_MINUTES, SHIFT_STARTS
from shopfloor.shifts.plant.scope import Scope
from shopfloor.web.static import StaticAllowlist, vendor_files

# The reference's example questions, in its order (the page's buttons). "Compare all shifts" also
# switches the include control to every shift.
EXAMPLES: tuple[str, ...] = (
    "Why was this shift slow? Chart downtime by reason.",
    "Compare all shifts",
    "Show downtime by equipment",
    "Was it maintenance or operator downtime?",
    "Summarize performance, downtime and waste. Show supporting charts.",
    "Show orders and quantities",
    "Show speed to target",
    "Show setup matrix",
    "Show rankings",
    "Show shift and downtime notes",
    "Show dry-end quality waste",
    "How can we improve profit on this shift?",
    "Please investigate the stopping causes",
)
DAY_SCOPE_EXAMPLES = frozenset({"Compare all shifts"})
PLACEHOLDER = "Which equipment caused the most downtime?"
PERIODS = (("day", "Day"), ("week", "Week"), ("month", "Month"), ("fiscal", "4-4-5 period"))

# The eleven cards of the reference, in its order: (measure, label).
CARDS: tuple[tuple[str, str], ...] = (
    ("shift_fpm", "Speed"),
    ("speed_to_target_pct", "Speed / target"),
    ("valid_setups", "Setups"),
    ("paper_changes", "Paper changes"),
    ("maintenance_pct", "Maintenance"),
    ("operator_pct", "Operator"),
    ("dry_end_pct", "Dry-end waste"),
    ("trim_pct", "Trim"),
    ("shear_pct", "Shear"),
    ("throughput_in", "Throughput"),
    ("lineal_per_setup", "Lineal / setup"),
)
ROWS_SHOWN = 200
_QUALITY = re.compile(r"\b(excluded|incomplete|withheld|partial|unavailable)\b", re.I)


def shift_hours(shift: int) -> str:
    """A shift's clock hours, "15:00–23:00"."""
    start = datetime.combine(date(2026, 1, 1), SHIFT_STARTS[shift])
    end = start + timedelta(minutes=SHIFT_MINUTES)
    return f"{start:%H:%M}–{end:%H:%M}"


def scope_line(day: date, shift: int | None, include: str, period: str) -> str:
    """The live scope line: "Mon 2026-09-14 · 15:00–23:00 · shift 2 only"."""
    where = f"{day:%a} {day.isoformat()}" if period == "day" else window_for(period, day).label  # type: ignore[arg-type]
    if shift is None:
        return f"{where} · every shift"
    if include == "day":
        return f"{where} · shift {shift} selected · every shift of the day"
    return f"{where} · {shift_hours(shift)} · shift {shift} only"


def marked(section: Mapping[str, Any], numbers: set[int] | None = None, bullet: bool = False) -> Markup:
    """A section as markup, drawn from its parts (``answers/findings.py``): the text escaped, each figure
    bold, each citation of a result's row a link to its trace row; a ``bullet`` without its "- "."""
    out = []
    for index, part in enumerate(parts_of(dict(section))):
        if isinstance(part, str):
            text = part[2:] if index == 0 and bullet and part.startswith("- ") else part
            out.append(html.escape(text, quote=True))
        elif "figure" in part:
            out.append(f"<strong>{html.escape(part['figure'], quote=True)}</strong>")
        else:
            out.append(_cited(part, numbers))
    return Markup("".join(out))


def _cited(part: dict[str, Any], numbers: set[int] | None) -> str:
    """A citation, a link to the query's trace row (or its row) unless ``numbers`` leaves the query out."""
    text = html.escape(cite_text(part), quote=True)
    query, row = part["query"], part.get("row")
    if part.get("of", "row") != "row" or (numbers is not None and query not in numbers):
        return text
    target = f"q{query}-r{row}" if row else f"q{query}"
    label = f"query {query}" + (f", row {row}" if row else "")
    return f"<a class='cite' href='#{target}' aria-label='Evidence: {label}'>{text}</a>"


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


def asked(answer: dict[str, Any]) -> str | None:
    """The question the answer was asked with, or None when it was opened from its address (an address
    answers without its question: the same address answers every question that resolves to it)."""
    question = answer.get("question")
    if not question or question == answer.get("address"):
        return None
    return str(question)


def read_as(answer: dict[str, Any]) -> str | None:
    """The "Read as" line: the reader's own when the answer carries one, else what the plan asked for."""
    own = answer.get("read_as")
    if own:
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
        )
        return f"Read as a question the offline planner does not support · {line}"
    what = MEASURE_WORDS.get(plan["measure"], plan["measure"].replace("_", " "))
    extra = [f"by {plan['by']}"] if plan.get("by") else []
    extra += [f"{plan['kind']} only"] if plan.get("kind") else []
    extra += [f"against shift {plan['other_shift']}"] if plan.get("other_shift") else []
    extra += ["with a chart"] if plan.get("chart") else []
    day = date.fromisoformat(plan.get("anchor") or plan["day"])
    line = scope_line(day, plan.get("shift"), plan.get("include") or "shift", plan.get("window") or "day")
    return f"Read as {what}{' ' + ', '.join(extra) if extra else ''} · {line}"


def kpi_groups(answer: dict[str, Any]) -> list[dict[str, Any]]:
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
                    "label": label,
                    "value": value,
                    "text": card_value(value, row.get("unit", "")),
                    "flag": bool(row.get("flag")),
                    "band_text": row.get("band_text"),
                    "delta": row.get("delta"),
                    "cite": cite(env["query"], index),
                    "anchor": f"q{env['query']}-r{index + 1}",
                }
            )
        shift = env.get("shift")
        window = (env.get("window") or {}).get("label", "")
        title = f"Shift {shift}" if shift else "Every shift"
        groups.append({"title": f"{title} · {window}", "cards": cards, "coverage": env.get("coverage") or {}})
    return groups


def card_value(value: Any, unit: str) -> str:
    """A card's figure with its unit, or "Incomplete" when the figure is withheld."""
    if value is None:
        return "Incomplete"
    if unit == "%":
        return f"{value:,.2f} %"
    if unit in ("ft/min", "in", "ft"):
        return f"{value:,.1f} {unit}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f} {unit}"
    return f"{value:,.0f} {unit}"


def trace_steps(answer: dict[str, Any]) -> list[dict[str, Any]]:
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
                    [_cell(r.get(c)) for c in columns] for r in rows[:ROWS_SHOWN] if isinstance(r, dict)
                ],
                "total": len(rows),
                "result_id": output.get("result_id") if isinstance(output, dict) else None,
            }
        )
    return out


def table_of(rows: list[dict[str, Any]], limit: int = ROWS_SHOWN) -> dict[str, Any]:
    """A collapsible table: labelled columns, at most ``limit`` rows, and how many there were."""
    columns = _columns(rows)
    return {
        "columns": columns,
        "rows": [[_cell(r.get(c)) for c in columns] for r in rows[:limit]],
        "total": len(rows),
    }


def heatmap_weeks(cells: list[dict[str, Any]]) -> list[list[dict[str, Any] | None]]:
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
            weeks[-1][day.weekday()] = {**cell, "tip": heat_tip(cell), "level": heat_level(cell)}
    return weeks


def heat_tip(cell: dict[str, Any]) -> str:
    """A heatmap cell's tooltip, which is also its accessible label."""
    day = date.fromisoformat(cell["day"])
    if cell.get("value") is None:
        return f"{day:%a} {day.isoformat()}: missing or incomplete, no figure"
    return f"{day:%a} {day.isoformat()}: {cell['value']:,.0f} sq ft estimated good output"


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


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
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


def scope_text(scope: Scope) -> str:
    """The scope line of a parsed scope."""
    return scope_line(scope.day, scope.shift, scope.include, scope.period)


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


def chart_views(charts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each chart as the page shows it: the SVG (as an image, so no style or script of its own reaches the
    page), its accessible text and its points."""
    out = []
    for chart in charts:
        svg = chart_svg(chart).encode("utf-8")
        points = ", ".join(f"{p['x']} {p['y']:,.2f}" for p in chart["points"][:12])
        out.append(
            {
                **chart,
                "svg": base64.b64encode(svg).decode("ascii"),
                "alt": f"{chart['title']}: {points}" + (" …" if len(chart["points"]) > 12 else ""),
            }
        )
    return out


REPORT_TABLE_EMPTY = {
    "Shift rankings (1 = best)": "Rankings are withheld: the window is incomplete.",
}


# Stands in for the request token in a kept page; each response gets a fresh token in its place.
TOKEN_SLOT = "@@request-token@@"


PLANNER_LABELS = {
    "offline": "Offline planner (rule-based, no model)",
    "loop": "tool loop",
    "analyst": "analyst plan",
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


class Pages:
    """The page templates, and what each page shows besides the answer (the planner, the mode); pages are
    drawn with :data:`TOKEN_SLOT` where the request token goes, and the server fills it per response."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.env = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(["html"]),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        # static(root, name): a static file's link with its content hash, kept by the browser for good.
        self.env.globals.update(
            marked=marked, hours=shift_hours, static=lambda root, name: STATIC.url(f"{root}/static", name)
        )

    def base(self) -> dict[str, Any]:
        """What every page shows: the request token's slot, the planner in use, the mode."""
        return {
            "token": TOKEN_SLOT,
            **self.view,
            "examples": EXAMPLES,
            "periods": PERIODS,
            "placeholder": PLACEHOLDER,
            "max_question": MAX_QUESTION_CHARS,
        }

    def context(
        self,
        answer: dict[str, Any] | None,
        cards_answer: dict[str, Any] | None,
        report: dict[str, Any] | None,
        scope: Scope,
        form: dict[str, Any],
        days: dict[str, str],
        root: str = "",
    ) -> dict[str, Any]:
        """The template context of the page or its fragment; ``root`` is the app's mount path (the request's
        ``root_path``), so every link works wherever the app is mounted."""
        steps = trace_steps(answer) if answer else []
        anchors = {
            f"q{s['number']}-r{i + 1}" for s in steps if s["kind"] == "tool" for i in range(len(s["rows"]))
        }
        cards = kpi_groups(cards_answer) if cards_answer else []
        if cards_answer is not answer:
            for group in cards:
                for card in group["cards"]:
                    card["anchor"] = None  # another run's citation: not a row of this answer's trace
        parts = split_sections(answer["sections"], answer["status"]) if answer else None
        headline = None
        if parts is not None:
            # The headline leads the answer, above the cards; the findings under them are its detail.
            headline = next((s for s in parts.lead if s["type"] == "headline"), None)
            parts.lead = [s for s in parts.lead if s is not headline]
        ctx: dict[str, Any] = {
            "answer": answer,
            "read_as": read_as(answer) if answer else None,
            "asked": asked(answer) if answer else None,
            "parts": parts,
            "headline": headline,
            "groups": finding_groups(parts.lead) if parts else [],
            "charts": chart_views(answer.get("charts", [])) if answer else [],
            "cards": cards,
            "anchors": anchors,
            "steps": steps,
            "report": report,
            "form": form,
            "days": days,
            "scope_text": scope_text(scope),
            "reset_href": reset_href(scope, root),
            "root": root,
        }
        if report is not None:
            ctx["heat"] = heatmap_weeks(report["heatmap"])
            ctx["report_charts"] = chart_views(
                [{**c, "x": "day", "y": "value"} for c in report["charts"] if c["points"]]
            )
            tables = []
            for table in report["tables"]:
                t = table_of(table["rows"], limit=50)
                t["title"] = table["title"]
                t["empty"] = REPORT_TABLE_EMPTY.get(table["title"], "No rows in this window.")
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

    def render(self, template: str, ctx: dict[str, Any]) -> str:
        """``index.html`` (the whole page) or ``_main.html`` (the answer region that htmx swaps in, with the
        controls an answer may move swapped out of band) as text."""
        extra = {"nav": "ask"} if template == "index.html" else {"after_input": True}
        return self.env.get_template(template).render({**self.base(), **ctx, **extra})

    def error(self, status: int, code: str, message: str, root: str = "") -> str:
        """The error page a browser gets for a refused or failed request (the envelope's status, code and
        message; ``root``: the app's mount path)."""
        context = {**self.base(), "status": status, "code": code, "message": message, "root": root}
        return self.env.get_template("error.html").render(context)

    def guide(self, days: dict[str, str], root: str = "") -> str:
        """The field guide (``root``: the app's mount path)."""
        context = {**self.base(), "days": days, "nav": "guide", "root": root}
        return self.env.get_template("guide.html").render(context)
