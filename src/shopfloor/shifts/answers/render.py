"""An answer or a period report in the terminal, as an HTML page or as a PDF (trusted layout only).

Every string from the records or the question is escaped: it is rendered as text, never as markup (Rich
markup in the terminal, HTML in a page, Paragraph markup in a PDF). The one shape marker is the only
formatting: ``**figure**`` becomes bold, and the rest stays plain. The PDF and chart libraries load only when
a PDF or a page is drawn, so the terminal commands stay quick.
"""

from __future__ import annotations

import base64
import html
import io
import re
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

BOLD = re.compile(r"\*\*([^*]+)\*\*")
# Served at /shifts/answer.css: the server's content security policy allows stylesheets from 'self' only,
# never inline style attributes.
ANSWER_CSS = "h3.label { font-variant: small-caps; }\nimg { max-width: 100%; }\n"


def _marked(text: str, open_tag: str, close_tag: str) -> str:
    """Escape ``text`` and turn its bold markers into tags."""
    return BOLD.sub(lambda m: f"{open_tag}{m.group(1)}{close_tag}", html.escape(text, quote=True))


def answer_html(answer: dict[str, Any]) -> str:
    """A self-contained HTML page (no script) for one answer."""
    from shopfloor.shifts.answers.chart_image import chart_png

    lines = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Shift Investigator answer</title>"
        "<link rel='stylesheet' href='/shifts/answer.css'></head><body>",
        "<p><small>Synthetic records · offline planning</small></p>",
        f"<h1>{html.escape(answer.get('question') or '')}</h1>",
        f"<p>Status: <strong>{html.escape(answer['status'])}</strong> · "
        f"<code>{html.escape(answer.get('address') or '')}</code></p>",
    ]
    for section in answer["sections"]:
        body = _marked(section["text"], "<strong>", "</strong>")
        kind = section["type"]
        if kind == "headline":
            lines.append(f"<h2>{body}</h2>")
        elif kind == "label":
            lines.append(f"<h3 class='label'>{body}</h3>")
        elif kind == "caveat":
            lines.append(f"<p><small>{body}</small></p>")
        else:
            lines.append(f"<p>{body}</p>")
    for chart in answer.get("charts", []):
        image = base64.b64encode(chart_png(chart)).decode("ascii")
        lines.append(f"<h3>{html.escape(chart['title'])}</h3>")
        lines.append(
            f"<img alt='{html.escape(chart['title'], quote=True)}' src='data:image/png;base64,{image}'>"
        )
        lines.append("<table>")
        for point in chart["points"]:
            lines.append(
                f"<tr><td>{html.escape(str(point['x']))}</td><td>{html.escape(str(point['y']))}</td></tr>"
            )
        lines.append("</table>")
    lines.append("</body></html>")
    return "\n".join(lines)


def answer_pdf(answer: dict[str, Any]) -> bytes:
    """A PDF of one answer: its sections, then each chart drawn and its points as a table."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import inch
    from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer, Table

    from shopfloor.shifts.answers.chart_image import HEIGHT_IN, WIDTH_IN, chart_png

    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=letter, title="Shift Investigator answer")
    story: list[Any] = [
        Paragraph("Synthetic records · offline planning", styles["Italic"]),
        Paragraph(html.escape(answer.get("question") or ""), styles["Title"]),
        Paragraph(
            f"Status {html.escape(answer['status'])} · {html.escape(answer.get('address') or '')}",
            styles["Normal"],
        ),
        Spacer(1, 8),
    ]
    style_for = {"headline": "Heading2", "label": "Heading4", "caveat": "Italic"}
    for section in answer["sections"]:
        story.append(
            Paragraph(
                _marked(section["text"], "<b>", "</b>"), styles[style_for.get(section["type"], "Normal")]
            )
        )
    for chart in answer.get("charts", []):
        story.append(Spacer(1, 8))
        story.append(Paragraph(html.escape(chart["title"]), styles["Heading4"]))
        story.append(Image(io.BytesIO(chart_png(chart)), width=WIDTH_IN * inch, height=HEIGHT_IN * inch))
        data = [[chart["x"], chart["y"]]] + [[str(p["x"]), f"{p['y']:,.2f}"] for p in chart["points"][:40]]
        story.append(Table(data))
    doc.build(story)
    return buffer.getvalue()


def report_pdf(report: dict[str, Any], rows_per_table: int = 25) -> bytes:
    """A PDF of a period report: sections, the first rows of each table, coverage and dataset hashes."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table

    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=letter, title="Shift Investigator period report")
    story: list[Any] = [
        Paragraph("Synthetic records · deterministic report (no model)", styles["Italic"]),
        Paragraph(html.escape(report["title"]), styles["Title"]),
        Paragraph(f"Status {html.escape(report['status'])}", styles["Normal"]),
    ]
    for line in report["sections"]:
        story.append(Paragraph(html.escape(line), styles["Normal"]))
    for table in report["tables"]:
        story.append(Spacer(1, 8))
        story.append(Paragraph(html.escape(table["title"]), styles["Heading4"]))
        rows = table["rows"][:rows_per_table]
        if not rows:
            story.append(Paragraph("No rows.", styles["Italic"]))
            continue
        columns = list(rows[0])
        data = [columns] + [[_cell(row.get(c)) for c in columns] for row in rows]
        story.append(Table(data, repeatRows=1))
    coverage = report["coverage"]
    story.append(Spacer(1, 8))
    story.append(
        Paragraph(
            f"Coverage {html.escape(str(coverage['status']))}: {coverage['valid_days']} of "
            f"{coverage['expected_days']} production days valid.",
            styles["Normal"],
        )
    )
    for item in report.get("dataset_hashes", [])[:70]:
        story.append(
            Paragraph(f"{html.escape(str(item['day']))} {html.escape(str(item['sha256']))}", styles["Code"])
        )
    doc.build(story)
    return buffer.getvalue()


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}"
    # Paragraph-free cells are drawn as plain strings; long notes are cut to keep the table on the page.
    return str(value)[:60] if value is not None else ""


def print_answer(answer: dict[str, Any], out: Console) -> None:
    """A readable answer in the terminal (record text is escaped, never rendered as markup)."""
    colour = {"complete": "green", "partial": "yellow"}.get(answer["status"], "red")
    out.print(f"[{colour}]{answer['status']}[/]  {escape(answer.get('address') or '')}")
    for section in answer["sections"]:
        text = escape(section["text"]).replace("\\*\\*", "**")
        parts = text.split("**")
        rendered = "".join(f"[bold]{p}[/bold]" if i % 2 else p for i, p in enumerate(parts))
        kind = section["type"]
        if kind == "headline":
            out.print(f"\n{rendered}")
        elif kind == "label":
            out.print(f"\n[bold dim]{rendered.upper()}[/]")
        elif kind == "caveat":
            out.print(f"[dim]{rendered}[/]")
        else:
            out.print(rendered)
    for chart in answer.get("charts", []):
        out.print(
            f"[dim]chart {escape(chart['title'])}: {len(chart['points'])} points from {chart['source']}[/]"
        )
    usage = answer.get("usage") or {}
    if usage:
        out.print(
            f"[dim]{usage.get('tool_calls')} tool calls, {usage.get('latency_ms')} ms, model {usage.get('model')}[/]"
        )


def print_report(report: dict[str, Any], out: Console) -> None:
    """A period report in the terminal: title, status, sections and the first rows of each table."""
    out.print(f"[bold]{escape(report['title'])}[/]  status {report['status']}")
    for section in report["sections"]:
        out.print(escape(section))
    for table in report["tables"]:
        print_table(table["title"], table["rows"], out)


def print_table(title: str, rows: list[dict[str, Any]], out: Console, limit: int = 10) -> None:
    """The first rows of a report table (record text escaped)."""
    if not rows:
        out.print(f"[dim]{escape(title)}: no rows[/]")
        return
    table = RichTable(title=f"{title} ({len(rows)} rows)" if len(rows) > limit else title)
    for column in rows[0]:
        table.add_column(escape(str(column)))
    for row in rows[:limit]:
        table.add_row(*(escape(f"{v:,.2f}" if isinstance(v, float) else str(v)) for v in row.values()))
    out.print(table)
