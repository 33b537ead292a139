"""Every column a tool can emit is named in the page's glossary (``pages/columns.py``), so no table of a
Spanish page (the trace's, a chart's data, the PDF's) heads a column with the tool's English field.

Each tool of the catalog is called over the hand-built store (tests/shifts/investigation/conftest.py) with
each value of each of its arguments in turn (the others at their first value), on a complete day and on the
day with an excluded record, and every field of its rows, its chart components' rows and the other lists of
rows in its envelope (flags, details, the weekday profile, the stop notes, the largest losses) is collected."""

from __future__ import annotations

import typing
from datetime import date, timedelta
from pathlib import Path
from types import UnionType
from typing import Any

import pytest
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.answers.cells import MEASURE_FIELDS
from shopfloor.shifts.catalog import ENTRIES
from shopfloor.shifts.pages.columns import COLUMN_WORDS
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.records.store import open_read_only
from shopfloor.shifts.tools.context import RunContext
from shopfloor.shifts.tools.sums import UNITS

DAYS = (date(2026, 9, 16), date(2026, 9, 21))  # a complete Wednesday; the Monday with an excluded record
PERIODS = ("day", "week", "month", "fiscal")
# Lists in an envelope that are not rows: the trace's statements and the chart components (their rows are).
NOT_ROWS = {"sql", "components"}


def _values(name: str, field: FieldInfo, day: date) -> list[Any]:
    """The values an argument is called with, its first the one the other arguments' variants keep."""
    if name in ("window", "current_window"):
        return [{"period": p, "anchor": day.isoformat()} for p in PERIODS]
    if name == "previous_window":
        return [{"period": "week", "anchor": (day - timedelta(days=7)).isoformat()}]
    if name in ("anchor", "other_anchor"):
        return [day.isoformat()]
    if name == "weeks":
        return [4]
    extra = field.json_schema_extra
    if isinstance(extra, dict) and "enum" in extra:
        return list(extra["enum"])  # type: ignore[arg-type]
    return _of(field.annotation)


def _of(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return list(typing.get_args(annotation))
    if origin in (typing.Union, UnionType):
        out: list[Any] = []
        for arg in typing.get_args(annotation):
            out += [None] if arg is type(None) else _of(arg)
        return out
    if origin is list:
        return [[1, 2], [2]]
    if annotation is bool:
        return [False, True]
    return []


def _variants(model: type[BaseModel], day: date) -> list[dict[str, Any]]:
    """The base call (every argument at its first value), then each argument's other values in turn."""
    options = {name: _values(name, field, day) for name, field in model.model_fields.items()}
    base = {name: values[0] for name, values in options.items() if values}
    out = [base]
    for name, values in options.items():
        out += [{**base, name: value} for value in values[1:]]
    return out


def _fields(rows: Any, into: dict[str, set[str]], where: str) -> None:
    if not isinstance(rows, list):
        return
    for row in rows:
        if not isinstance(row, dict):
            continue
        for key, value in row.items():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                _fields(value, into, f"{where}.{key}")
            elif not isinstance(value, (dict, list)):
                into.setdefault(key, set()).add(where)


@pytest.fixture(scope="module")
def emitted(store_path: Path) -> dict[str, set[str]]:
    """Every field a tool emitted, with the tools (and lists) it came from."""
    conn = open_read_only(store_path)
    found: dict[str, set[str]] = {}
    calls = 0
    try:
        for entry in ENTRIES:
            if entry.grain == "chart":
                continue
            for day in DAYS:
                for args in _variants(entry.tool.args, day):
                    parsed = entry.tool.args.model_validate(args)
                    try:
                        out = entry.tool.handler(RunContext(conn, Scope(day=day)), parsed)
                    except ToolError:
                        continue
                    calls += 1
                    _fields(out["rows"], found, entry.name)
                    for key, value in out.items():
                        if key == "components":
                            for component in value:
                                _fields(component["rows"], found, f"{entry.name}:{component['id']}")
                        elif key not in NOT_ROWS and key != "rows":
                            _fields(value, found, f"{entry.name}:{key}")
    finally:
        conn.close()
    assert calls > 150
    return found


def test_every_column_a_tool_emits_is_named(emitted):
    assert {field: sorted(where) for field, where in emitted.items() if field not in COLUMN_WORDS} == {}


def test_the_columns_reached_include_each_tools_own(emitted):
    # A few fields only one tool emits, so a tool the calls stop reaching fails here.
    for field in ("min_per_stop", "trim_flag", "opportunity_hours", "pct_of_nominal", "weekday", "mix_ft"):
        assert field in emitted, field


def test_every_kpi_a_row_names_as_its_measure_is_named_as_a_column():
    # A KPI row's measure ("lineal_ft") is a field's name: a page says it as the column glossary names it.
    assert set(UNITS) <= MEASURE_FIELDS <= COLUMN_WORDS
