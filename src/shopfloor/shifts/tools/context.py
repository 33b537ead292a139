"""The run context of one investigation and the evidence envelope every tool returns.

Every tool result is an envelope: a result id valid for this run only, the window and previous window, the
coverage, the rows, how many source rows they stand on, and each SQL statement with its bound parameters for
the trace. Scope is enforced here, in code, whatever a plan asks for: under the selected-shift scope only that
shift is read, and under a Week, Month or 4-4-5 control the daily tools refuse.
"""

from __future__ import annotations

import math
import re
import secrets
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Annotated, Any, Literal

import duckdb
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.plant.calendar import Coverage, Window, coverage, previous_window, window_for
from shopfloor.shifts.plant.catalog import STOP_REASONS
from shopfloor.shifts.plant.metrics import FIGURE_DIGITS
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.records.store import MAX_ROWS, QueryTimeout, bounded_query


@dataclass
class RunContext:
    """What the tools of one run share: the read-only store, the scope and the results so far."""

    conn: duckdb.DuckDBPyConnection
    scope: Scope
    run_tag: str = field(default_factory=lambda: secrets.token_hex(3))
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    charts: list[dict[str, Any]] = field(default_factory=list)
    issued: int = 0
    # Facts read once per run and shared by its tools (a shift's coverage does not change mid-run).
    memo: dict[Any, Any] = field(default_factory=dict)
    # The rows of each statement run, by its text and bound values: this run's own, or shared by the runs of
    # one job over one read-only connection (the store does not change while it is open).
    statements: dict[Any, Any] = field(default_factory=dict)

    def new_result_id(self) -> str:
        """A result id that only this run knows (``r<n>-<run tag>``)."""
        self.issued += 1
        return f"r{self.issued}-{self.run_tag}"


@dataclass
class Sql:
    """Statements a tool ran, kept for the trace with their bound parameters."""

    statements: list[dict[str, Any]] = field(default_factory=list)
    source_rows: int = 0

    def rows(self, ctx: RunContext, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        """Run one fixed statement with bound values (1,000-row limit, two-second interrupt).

        A statement already run with the same values over this connection (in this run, or in another run
        of the same job: ``ctx.statements``) is read from there (the store does not change while it is open);
        it is still listed in this tool's trace, and callers get fresh row dicts.
        """
        text, used = _statement(sql)
        params = {k: v for k, v in params.items() if k in used}
        key = ("sql", text, repr(sorted(params.items())))
        if key not in ctx.statements:
            try:
                result = bounded_query(ctx.conn, sql, params)
            except QueryTimeout:
                raise ToolError("The query took longer than two seconds and was stopped.") from None
            rows = [{k: _jsonable(v) for k, v in row.items()} for row in result.dicts()]
            ctx.statements[key] = (rows, result.truncated)
        rows, truncated = ctx.statements[key]
        self.statements.append(
            {"sql": text, "params": {k: _jsonable(v) for k, v in params.items()}, "truncated": truncated}
        )
        return [dict(row) for row in rows]


@lru_cache(maxsize=512)
def _statement(sql: str) -> tuple[str, frozenset[str]]:
    """A fixed template's one-line form for the trace and the names of the values it binds."""
    return " ".join(sql.split()), frozenset(re.findall(r"\$(\w+)", sql))


def _jsonable(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return round(value, FIGURE_DIGITS)
    return value


def scoped_shift(ctx: RunContext, shift: int | None) -> int | None:
    """The shift a call may read: under the selected-shift scope only that one (null becomes it)."""
    if shift is not None and shift not in (1, 2, 3):
        raise ToolError("shift must be 1, 2 or 3.")
    if ctx.scope.include == "shift":
        if shift is not None and shift != ctx.scope.shift:
            raise ToolError(
                f"Shift {shift} is outside the selected scope: only shift {ctx.scope.shift} may be read."
            )
        return ctx.scope.shift
    return shift


def require_day_control(ctx: RunContext, tool: str) -> None:
    """Daily tools refuse under a Week, Month or 4-4-5 control and name the window form to use."""
    if ctx.scope.period != "day":
        window = window_for(ctx.scope.period, ctx.scope.day)
        raise ToolError(
            f"{tool} is a daily tool and the Period control is {ctx.scope.period} "
            f"({window.start.isoformat()}..{window.end.isoformat()}); use the period tools with "
            f'{{"period": "{ctx.scope.period}", "anchor": "{ctx.scope.day.isoformat()}"}} instead.'
        )


def window_coverage(sql: Sql, ctx: RunContext, window: Window, shift: int | None) -> Coverage:
    """Coverage of ``window`` for the shift scope: days present, and days with excluded records (each with
    what was excluded, so a partial window can say why, docs/METRICS.md "Windows")."""
    rows = sql.rows(
        ctx,
        """
        WITH ex AS (
          SELECT day, count(*) AS excluded, string_agg(DISTINCT kind, ', ' ORDER BY kind) AS kinds,
                 string_agg(DISTINCT CAST(shift AS VARCHAR), ', ' ORDER BY CAST(shift AS VARCHAR)) AS on_shifts,
                 string_agg(DISTINCT error, '; ' ORDER BY error) AS errors
          FROM excluded_records
          WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
          GROUP BY day)
        SELECT s.day, count(*) AS n, bool_or(s.coverage <> 'complete' OR s.excluded > 0) AS incomplete,
               any_value(ex.excluded) AS excluded, any_value(ex.kinds) AS kinds,
               any_value(ex.on_shifts) AS on_shifts, any_value(ex.errors) AS errors
        FROM shifts s LEFT JOIN ex USING (day)
        WHERE s.day BETWEEN $start AND $end AND ($shift IS NULL OR s.shift = $shift)
        GROUP BY s.day ORDER BY s.day
        """,
        {"start": window.start, "end": window.end, "shift": shift},
    )
    need = 1 if shift is not None else 3
    present = [date.fromisoformat(r["day"]) for r in rows]
    invalid = {date.fromisoformat(r["day"]) for r in rows if r["incomplete"] or r["n"] < need}
    why = {date.fromisoformat(r["day"]): incomplete_why(r, need) for r in rows}
    return coverage(window, present, invalid, {d: text for d, text in why.items() if text and d in invalid})


def incomplete_why(row: dict[str, Any], need: int) -> str:
    """Why a stored day is incomplete for the scope, in words: its excluded records, or its missing shifts."""
    parts = []
    if row.get("excluded"):
        n = int(row["excluded"])
        noun = str(row["kinds"] or "record")
        many = "s" if n > 1 else ""
        shifts = str(row["on_shifts"])
        where = f"shift {shifts}" if "," not in shifts else f"shifts {shifts}"
        parts.append(f"{'one' if n == 1 else n} excluded {noun}{many} on {where} ({row['errors']})")
    if int(row.get("n") or 0) < need:
        parts.append(f"{row['n']} of {need} shifts in the store")
    return " and ".join(parts)


def envelope(
    ctx: RunContext,
    tool: str,
    sql: Sql,
    rows: list[dict[str, Any]],
    *,
    window: Window | None = None,
    previous: Window | None = None,
    cover: Coverage | dict[str, Any] | None = None,
    shift: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Wrap rows in the evidence envelope and remember it under a fresh result id."""
    if len(rows) > MAX_ROWS:
        rows = rows[:MAX_ROWS]
        extra["truncated"] = True
    cov: Any = cover.as_dict() if isinstance(cover, Coverage) else cover
    result = {
        "result_id": ctx.new_result_id(),
        "tool": tool,
        "window": window.as_dict() if window else None,
        "previous_window": previous.as_dict() if previous else None,
        "shift": shift,
        "coverage": cov,
        "source_rows": sql.source_rows,
        "rows": rows,
        **extra,
        "truncated": bool(extra.get("truncated")) or any(s.get("truncated") for s in sql.statements),
        "sql": sql.statements,
    }
    ctx.results[result["result_id"]] = result
    return result


def resolve_window(period: str, anchor: date) -> tuple[Window, Window]:
    """The window of ``period`` containing ``anchor`` and its previous window."""
    window = window_for(period, anchor)  # type: ignore[arg-type]
    return window, previous_window(window)


PeriodName = Literal["day", "week", "month", "fiscal"]
EARLIEST, LATEST = date(2000, 1, 1), date(2100, 12, 31)


class WindowArg(BaseModel):
    """A window: the period kind and any date inside it."""

    model_config = ConfigDict(extra="forbid")
    period: PeriodName = Field(description="day, week (Mon–Fri), month (calendar) or fiscal (4-4-5 period).")
    anchor: date = Field(description="Any date inside the window, YYYY-MM-DD.")


class PeriodArgs(BaseModel):
    """A window and an optional shift (null = all three shifts)."""

    model_config = ConfigDict(extra="forbid")
    window: WindowArg
    shift: Literal[1, 2, 3] | None = Field(description="One shift, or null for all three.")


def args_window(arg: WindowArg) -> tuple[Window, Window]:
    """The window an argument names and its previous window (anchors outside 2000..2100 refused)."""
    if not EARLIEST <= arg.anchor <= LATEST:
        raise ToolError("anchor must be a date between 2000 and 2100.")
    return resolve_window(arg.period, arg.anchor)


# --- catalogue filters: a tool argument that keeps one reason, place or kind, or ``any`` -------------------

ANY = "any"


def reason_filter(reason: str) -> str | None:
    """The one value a catalogue filter keeps, a stop reason or kind (``any``: every one)."""
    return None if reason == ANY else reason


def filters_of(reason: str, kind: str = ANY) -> dict[str, Any]:
    """The envelope's ``filters`` when a reason or kind filter is set, so the answer can say it was applied."""
    filters = {name: value for name, value in (("reason", reason), ("kind", kind)) if value != ANY}
    return {"filters": filters} if filters else {}


def one_of(allowed: tuple[str, ...], name: str) -> Any:
    """A catalogue identifier or ``any``: an enum in the schema, refused in code when it is neither. Not
    nullable, so the live catalogs stay within the providers' limits on union parameters."""

    def check(value: str) -> str:
        if value != ANY and value not in allowed:
            raise ValueError(f"{name} must be {ANY} or one of {', '.join(allowed)}")
        return value

    return AfterValidator(check)


def any_or(allowed: tuple[str, ...]) -> Any:
    """The schema's enum of a catalogue filter: ``any`` or one of ``allowed``."""
    return Field(json_schema_extra={"enum": [ANY, *allowed]})


Reason = Annotated[str, one_of(STOP_REASONS, "reason"), any_or(STOP_REASONS)]
