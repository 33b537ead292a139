"""PDFs of a day answer and of a period report, drawn from the retained answer or report (never from HTML).

Trusted layout only: every string from the records or the question is escaped into ReportLab's paragraph
markup, and a section's figures (its parts, ``answers/findings.py``) are bold. Each page carries the title, its number and
the synthetic-data footer; each table says how many of its rows it shows. Charts are the page's charts at
print resolution; the heatmap is drawn as vector shapes, missing days hatched.
"""

from __future__ import annotations

import html
import io
from datetime import date
from typing import Any

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import (
    Image,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from shopfloor.shifts.answers.chart_image import HEIGHT_IN, WIDTH_IN, chart_png
from shopfloor.shifts.answers.findings import cite_text, parts_of

FOOTER = "Shift Investigator · synthetic records · read-only tools"
ROWS_PER_TABLE = 25
DEFINITIONS = (
    "Speed: lineal feet over elapsed minutes, stops included. Speed to target: lineal feet over the feet the "
    "grade targets would have made in the same minutes. Downtime, trim, shear and dry-end percentages are "
    "ratios of sums (minutes over scheduled minutes, area over gross area)."
)
LIMITATIONS = (
    "The records are synthetic. A recorded reason is an attribution, not proof of a mechanical cause. Dollars "
    "come from assumed rates. Missing or excluded records are unavailable, never zero, and an incomplete "
    "window is listed, never ranked."
)
TEAL = colors.Color(8 / 255, 127 / 255, 117 / 255)


def _marked(section: dict[str, Any]) -> str:
    """A section as Paragraph markup from its parts: the text escaped, each figure bold."""
    return "".join(
        html.escape(part, quote=True)
        if isinstance(part, str)
        else f"<b>{html.escape(part['figure'], quote=True)}</b>"
        if "figure" in part
        else html.escape(cite_text(part), quote=True)
        for part in parts_of(section)
    )


def _styles() -> dict[str, ParagraphStyle]:
    sheet = getSampleStyleSheet()
    return {
        "title": sheet["Title"],
        "h2": sheet["Heading2"],
        "h3": sheet["Heading4"],
        "body": sheet["Normal"],
        "small": ParagraphStyle("small", parent=sheet["Normal"], fontSize=8, leading=10),
        "caveat": sheet["Italic"],
        "cell": ParagraphStyle("cell", parent=sheet["Normal"], fontSize=7, leading=8.5),
    }


def _document(buffer: io.BytesIO, title: str) -> tuple[SimpleDocTemplate, Any]:
    doc = SimpleDocTemplate(
        buffer, pagesize=letter, title=title, author="Shift Investigator", bottomMargin=0.8 * inch
    )

    def on_page(canvas: Any, document: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.setFillColor(colors.grey)
        number = f"Page {document.page}"
        room = document.width - canvas.stringWidth(number, "Helvetica", 8) - 12
        text = f"{FOOTER} · {title}"
        while canvas.stringWidth(text, "Helvetica", 8) > room and len(text) > 1:
            text = text[:-2] + "…"  # the footer stops short of the page number
        canvas.drawString(document.leftMargin, 0.5 * inch, text)
        canvas.drawRightString(letter[0] - document.rightMargin, 0.5 * inch, number)
        canvas.restoreState()

    return doc, on_page


def table_flowables(
    title: str, rows: list[dict[str, Any]], styles: dict[str, ParagraphStyle], limit: int = ROWS_PER_TABLE
) -> list[Any]:
    """A titled table of at most ``limit`` rows that says how many of how many it shows."""
    out: list[Any] = [Paragraph(html.escape(title), styles["h3"])]
    if not rows:
        out.append(Paragraph("No rows.", styles["caveat"]))
        return out
    columns = [c for c in rows[0] if not isinstance(rows[0][c], (dict, list))][:8]
    shown = rows[:limit]
    data = [[Paragraph(html.escape(str(c)), styles["cell"]) for c in columns]]
    data += [[Paragraph(html.escape(_cell(r.get(c))), styles["cell"]) for c in columns] for r in shown]
    table = Table(data, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.92, 0.94, 0.96)),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    out.append(table)
    out.append(
        Paragraph(
            f"{len(shown)} of {len(rows)} {'row' if len(rows) == 1 else 'rows'} shown.", styles["small"]
        )
    )
    return out


def comparison_flowables(section: dict[str, Any], styles: dict[str, ParagraphStyle]) -> list[Any]:
    """A comparison's side-by-side table (``answers/comparison.py``): its caption, one column per group with
    the row each column cites, one row per measure, each figure bold with its end of the row in words."""
    window = (section.get("window") or {}).get("label", "")
    plural = "Crews" if section.get("group_by") == "crew" else "Shifts"
    note = (
        "Each row names its best and worst in words."
        if section.get("ranked")
        else "Not ranked: the evidence is incomplete, so no row names a best or a worst."
    )
    out: list[Any] = [
        Paragraph(html.escape(f"{plural} side by side, {window}"), styles["h3"]),
        Paragraph(html.escape(note), styles["small"]),
    ]
    head = [Paragraph("<b>Measure</b>", styles["cell"])]
    for column in section["columns"]:
        cite = html.escape(cite_text({"query": column["query"], "row": column["row"]}))
        head.append(Paragraph(f"<b>{html.escape(str(column['group']))}</b><br/>{cite}", styles["cell"]))
    data = [head]
    for row in section["rows"]:
        better = f"<br/>{html.escape(row['better'])} is better" if row.get("better") else ""
        cells = [Paragraph(f"{html.escape(str(row['label']))}{better}", styles["cell"])]
        for cell in row["cells"]:
            end = f"<br/>{html.escape(cell['end'].upper())}" if cell.get("end") else ""
            cells.append(Paragraph(f"<b>{html.escape(str(cell['figure']))}</b>{end}", styles["cell"]))
        data.append(cells)
    table = Table(data, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.92, 0.94, 0.96)),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    out += [table, Spacer(1, 6)]
    return out


def _chart(chart: dict[str, Any], styles: dict[str, ParagraphStyle]) -> list[Any]:
    # The caption stays on the page of its figure.
    return [
        Spacer(1, 6),
        KeepTogether(
            [
                Paragraph(f"Figure: {html.escape(str(chart['title']))}", styles["h3"]),
                Image(
                    io.BytesIO(chart_png(chart, for_pdf=True)), width=WIDTH_IN * inch, height=HEIGHT_IN * inch
                ),
            ]
        ),
    ]


def heading(answer: dict[str, Any]) -> str:
    """The answer's title: the question it was asked with; opened from its address, a plain title (its
    "Read as" line follows it), never the address."""
    question = answer.get("question")
    if question and question != answer.get("address"):
        return str(question)
    return "Shift Investigator answer"


def pdf_title(answer: dict[str, Any]) -> str:
    """The PDF's own title (its metadata, what a viewer's tab shows): the app, then the question, or opened
    from its address what it was read as ("Shift Investigator answer: shift diagnosis, shift 2, …"); the
    plain title once, never twice."""
    question = answer.get("question")
    if question and question != answer.get("address"):
        return f"Shift Investigator answer: {question}"
    read_as = str(answer.get("read_as") or "").removeprefix("Read as:").strip()
    return f"Shift Investigator answer: {read_as}" if read_as else "Shift Investigator answer"


def answer_pdf(answer: dict[str, Any]) -> bytes:
    """A day answer: title, scope, status, its sections (findings, then charts, then caveats), the evidence
    tables, definitions and limitations."""
    styles = _styles()
    buffer = io.BytesIO()
    title = pdf_title(answer)
    doc, on_page = _document(buffer, title)
    scope = answer.get("scope") or {}
    usage = answer.get("usage") or {}
    story: list[Any] = [
        Paragraph(
            f"Synthetic records · planner: {html.escape(str(usage.get('planner') or 'offline'))}",
            styles["caveat"],
        ),
        Paragraph(html.escape(heading(answer)), styles["title"]),
        Paragraph(
            f"Scope: {html.escape(_scope_text(scope))} · Status {html.escape(str(answer.get('status')))} · "
            f"{html.escape(answer.get('address') or '')}",
            styles["body"],
        ),
    ]
    if answer.get("read_as"):
        story.append(Paragraph(html.escape(str(answer["read_as"])), styles["caveat"]))
    story.append(Spacer(1, 6))
    sections = answer.get("sections", [])
    lead = [
        s
        for s in sections
        if s["type"] in ("headline", "finding", "label", "comparison") and s["text"] != "Where to look"
    ]
    rest = [s for s in sections if s not in lead and s["type"] != "where" and s["text"] != "Where to look"]
    where = [s for s in sections if s["type"] == "where"]
    for s in lead:
        if s["type"] == "comparison":
            story.extend(comparison_flowables(s, styles))
            continue
        style = {"headline": "h2", "label": "h3"}.get(s["type"], "body")
        story.append(Paragraph(_marked(s), styles[style]))
    for chart in answer.get("charts", []):
        story.extend(_chart(chart, styles))
    for s in rest:
        story.append(Paragraph(_marked(s), styles["caveat" if s["type"] == "caveat" else "body"]))
    if where:
        story.append(Paragraph("Where to look", styles["h3"]))
        story.extend(Paragraph(_marked(s), styles["body"]) for s in where)
    for env in answer.get("evidence", []):
        story.append(Spacer(1, 6))
        story.extend(table_flowables(f"Query {env['query']}: {env['tool']}", env.get("rows", []), styles))
    usage = answer.get("usage") or {}
    story += [
        Spacer(1, 8),
        Paragraph("Definitions", styles["h3"]),
        Paragraph(DEFINITIONS, styles["small"]),
        Paragraph("Limitations", styles["h3"]),
        Paragraph(LIMITATIONS, styles["small"]),
        Paragraph(
            f"Planner {html.escape(str(usage.get('model', 'offline-planner')))}, "
            f"{usage.get('tool_calls', 0)} tool calls, model cost ${float(usage.get('cost_usd') or 0):.2f}.",
            styles["small"],
        ),
    ]
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def heatmap_drawing(cells: list[dict[str, Any]], cell: float = 28.0) -> Drawing:
    """The heatmap as vector shapes: one square per production day, Monday to Friday across, weeks down;
    shade = the report's alpha, missing or incomplete days hatched."""
    weeks: dict[date, int] = {}
    for c in cells:
        d = date.fromisoformat(c["day"])
        monday = date.fromordinal(d.toordinal() - d.weekday())
        weeks.setdefault(monday, len(weeks))
    height = (len(weeks) + 1) * cell
    drawing = Drawing(5 * cell + 10, height + 4)
    for i, name in enumerate(("Mon", "Tue", "Wed", "Thu", "Fri")):
        drawing.add(String(i * cell + 4, height - 12, name, fontSize=7))
    for c in cells:
        d = date.fromisoformat(c["day"])
        if d.weekday() > 4:
            continue
        row = weeks[date.fromordinal(d.toordinal() - d.weekday())]
        x, y = d.weekday() * cell, height - (row + 2) * cell + 2
        if c.get("value") is None:
            drawing.add(Rect(x, y, cell - 2, cell - 2, fillColor=colors.white, strokeColor=colors.grey))
            for k in range(0, int(2 * cell), 5):
                x0, y0 = x + max(0, k - cell + 2), y + min(k, cell - 2)
                x1, y1 = x + min(k, cell - 2), y + max(0, k - cell + 2)
                drawing.add(Line(x0, y0, x1, y1, strokeColor=colors.grey, strokeWidth=0.5))
        else:
            alpha = float(c.get("alpha") or 1.0)
            fill = colors.Color(TEAL.red, TEAL.green, TEAL.blue, alpha=alpha)
            drawing.add(Rect(x, y, cell - 2, cell - 2, fillColor=fill, strokeColor=colors.grey))
        drawing.add(String(x + 3, y + 3, c["day"][8:], fontSize=6))
    return drawing


def report_pdf(report: dict[str, Any]) -> bytes:
    """A period report: title, window, status, sections, the heatmap and charts as figures, its tables
    (rows shown of total), coverage, definitions, limitations and the per-day dataset hashes."""
    styles = _styles()
    buffer = io.BytesIO()
    doc, on_page = _document(buffer, str(report["title"]))
    coverage = report["coverage"]
    story: list[Any] = [
        Paragraph("Synthetic records · deterministic report (no model)", styles["caveat"]),
        Paragraph(html.escape(str(report["title"])), styles["title"]),
        Paragraph(
            f"Window {html.escape(str(report['window'].get('label')))} · Status "
            f"{html.escape(str(report['status']))} · coverage {coverage['valid_days']} of "
            f"{coverage['expected_days']} production days",
            styles["body"],
        ),
    ]
    story.extend(Paragraph(html.escape(str(line)), styles["body"]) for line in report["sections"])
    story.append(
        Paragraph("Figure: estimated good output per production day (hatched: no figure)", styles["h3"])
    )
    story.append(heatmap_drawing(report["heatmap"]))
    for chart in report["charts"]:
        if chart["points"]:
            story.extend(_chart({**chart, "x": "day", "y": "value"}, styles))
    for table in report["tables"]:
        story.append(Spacer(1, 6))
        story.extend(table_flowables(str(table["title"]), table["rows"], styles))
    story += [
        Spacer(1, 8),
        Paragraph("Definitions", styles["h3"]),
        Paragraph(DEFINITIONS, styles["small"]),
        Paragraph("Limitations", styles["h3"]),
        Paragraph(LIMITATIONS, styles["small"]),
        Paragraph("Dataset hashes", styles["h3"]),
    ]
    hashes = report.get("dataset_hashes", [])
    story.extend(
        Paragraph(f"{html.escape(str(h['day']))} {html.escape(str(h['sha256']))}", styles["small"])
        for h in hashes[:70]
    )
    story.append(Paragraph(f"{min(len(hashes), 70)} of {len(hashes)} day hashes shown.", styles["small"]))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def _scope_text(scope: dict[str, Any]) -> str:
    parts = [str(scope.get("day", ""))]
    parts.append(f"shift {scope['shift']}" if scope.get("shift") else "every shift")
    if scope.get("include") == "day" and scope.get("shift"):
        parts.append("every shift of the day")
    if scope.get("period") and scope["period"] != "day":
        parts.append(str(scope["period"]))
    return " · ".join(parts)


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)[:80]
