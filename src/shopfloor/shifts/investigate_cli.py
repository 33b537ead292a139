"""`shopfloor shifts ask`, `shopfloor shifts report` and the body of `shopfloor eval shifts`."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from shopfloor.settings import get_settings
from shopfloor.shifts.planning.plans import AddressError, Scope
from shopfloor.shifts.plant.calendar import PERIODS
from shopfloor.shifts.records import store

out = Console(soft_wrap=True)
err = Console(stderr=True)


def _open(db: Path | None) -> Any:
    path = db or get_settings().shifts_db_path()
    if not Path(path).is_file():
        raise typer.BadParameter(f"no record store at {path}; run `shopfloor prepare` first")
    return store.open_read_only(path)


def _scope(day: str, shift: int | None, include: str | None, period: str) -> Scope:
    try:
        the_day = date.fromisoformat(day)
    except ValueError:
        raise typer.BadParameter(f"--day {day!r} is not a date (YYYY-MM-DD)") from None
    if shift is not None and shift not in (1, 2, 3):
        raise typer.BadParameter("--shift must be 1, 2 or 3")
    if period not in PERIODS:
        raise typer.BadParameter(f"--period must be one of {', '.join(PERIODS)}")
    chosen = include or ("shift" if shift is not None else "day")
    if chosen not in ("shift", "day"):
        raise typer.BadParameter("--include must be shift or day")
    if chosen == "shift" and shift is None:
        raise typer.BadParameter("--include shift needs --shift")
    return Scope(day=the_day, shift=shift, include=chosen, period=period)  # type: ignore[arg-type]


def ask(
    question: str = typer.Argument(..., help="The question, e.g. “why was second shift slow”."),
    day: str = typer.Option(..., "--day", help="Production day (YYYY-MM-DD)."),
    shift: int = typer.Option(None, "--shift", help="Selected shift 1, 2 or 3."),
    include: str = typer.Option(None, "--include", help="shift (selected shift only) or day (every shift)."),
    period: str = typer.Option("day", "--period", help="Period control: day, week, month or fiscal."),
    after: str = typer.Option(None, "--after", help="Address of the answer a follow-up refers to."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole answer as JSON."),
    db: Path = typer.Option(None, "--db", help="DuckDB record store (default: var/shifts.duckdb)."),
) -> None:
    """Answer one question offline: status, sections, evidence, charts, trace and its address."""
    from shopfloor.shifts.investigation import investigate

    scope = _scope(day, shift, include, period)
    conn = _open(db)
    try:
        answer = investigate(question, scope, conn, after=after)
    except AddressError as error:
        raise typer.BadParameter(f"--after: {error}") from None
    finally:
        conn.close()
    if as_json:
        typer.echo(json.dumps(answer.as_dict(), indent=1, default=str))
        return
    print_answer(answer.as_dict())


def print_answer(answer: dict[str, Any]) -> None:
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


def report(
    period: str = typer.Option("month", "--period", help="week, month or fiscal."),
    day: str = typer.Option(..., "--day", help="Any date inside the window (YYYY-MM-DD)."),
    shift: int = typer.Option(None, "--shift", help="One shift, or every shift when omitted."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    pdf: Path = typer.Option(None, "--pdf", help="Also write the report as a PDF to this path."),
    db: Path = typer.Option(None, "--db", help="DuckDB record store (default: var/shifts.duckdb)."),
) -> None:
    """The deterministic period report (no model): sections, tables, heatmap, charts, coverage, hashes."""
    from shopfloor.shifts.answers.reports import period_report

    if period not in ("week", "month", "fiscal"):
        raise typer.BadParameter("--period must be week, month or fiscal")
    scope = _scope(day, shift, None, period)
    conn = _open(db)
    try:
        data = period_report(conn, period, scope.day, scope.shift)  # type: ignore[arg-type]
    finally:
        conn.close()
    if pdf is not None:
        from shopfloor.shifts.answers.render import report_pdf

        pdf.write_bytes(report_pdf(data))
        err.print(f"Wrote {pdf}")
    if as_json:
        typer.echo(json.dumps(data, indent=1, default=str))
        return
    out.print(f"[bold]{escape(data['title'])}[/]  status {data['status']}")
    for section in data["sections"]:
        out.print(escape(section))
    for table in data["tables"]:
        print_table(table["title"], table["rows"])


def print_table(title: str, rows: list[dict[str, Any]], limit: int = 10) -> None:
    """The first rows of a report table (record text escaped)."""
    if not rows:
        out.print(f"[dim]{escape(title)}: no rows[/]")
        return
    table = Table(title=f"{title} ({len(rows)} rows)" if len(rows) > limit else title)
    for column in rows[0]:
        table.add_column(escape(str(column)))
    for row in rows[:limit]:
        table.add_row(*(escape(f"{v:,.2f}" if isinstance(v, float) else str(v)) for v in row.values()))
    out.print(table)


def eval_shifts(golden: Path | None = None, as_json: bool = False, db: Path | None = None) -> None:
    """Run the golden set offline against the record store; exit 1 when the bar is not met."""
    from shopfloor.shifts.evals import run_golden

    path = golden or Path("evals/shifts.yaml")
    if not path.is_file():
        raise typer.BadParameter(f"no golden file at {path}")
    conn = _open(db)
    try:
        report = run_golden(conn, path, show_progress=not as_json)
    finally:
        conn.close()
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=1, default=str))
    else:
        from shopfloor.agent.evals import render_table

        render_table(report, "Shift Investigator golden set", err)
    if not report.ok:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add `ask` and `report` to the shifts command group."""
    app.command("ask")(ask)
    app.command("report")(report)
