"""An answer or a period report in the terminal, or as a PDF (trusted layout only); the page is
:mod:`shopfloor.shifts.pages`.

Every string from the records or the question is escaped: it is rendered as text, never as markup (Rich
markup in the terminal, Paragraph markup in a PDF). A section's figures (its parts,
``answers/findings.py``) are the only formatting: bold, and the rest stays plain. The PDF and chart libraries load only when a PDF is
drawn, so the terminal commands stay quick.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from shopfloor.shifts.answers.findings import cite_text, parts_of


def answer_pdf(answer: dict[str, Any]) -> bytes:
    """A PDF of one answer (see :mod:`shopfloor.shifts.answers.pdf`)."""
    from shopfloor.shifts.answers import pdf

    return pdf.answer_pdf(answer)


def report_pdf(report: dict[str, Any]) -> bytes:
    """A PDF of a period report (see :mod:`shopfloor.shifts.answers.pdf`)."""
    from shopfloor.shifts.answers import pdf

    return pdf.report_pdf(report)


def print_answer(answer: dict[str, Any], out: Console) -> None:
    """A readable answer in the terminal (record text is escaped, never rendered as markup)."""
    colour = {"complete": "green", "partial": "yellow"}.get(answer["status"], "red")
    out.print(f"[{colour}]{answer['status']}[/]  {escape(answer.get('address') or '')}")
    for section in answer["sections"]:
        rendered = "".join(
            escape(part)
            if isinstance(part, str)
            else f"[bold]{escape(part['figure'])}[/bold]"
            if "figure" in part
            else escape(cite_text(part))
            for part in parts_of(section)
        )
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
