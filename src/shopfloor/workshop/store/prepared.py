"""Hot statements compiled once and, on SQLite, run on the driver's cursor.

Every agent run and every bearer request runs the same dozen selects. Through SQLAlchemy's statement
machinery each costs far more than SQLite takes to answer it (events, parameter processing, a result object;
docs/workshop-agent.md, "Benchmarks"). On SQLite such a statement is compiled once by SQLAlchemy
(the same SQL it would send), and then sent straight to the driver with the same bind and result processing
the column types ask for (a write whose compiled form needs more, such as a Python-side column default to
compute, still goes through SQLAlchemy); a driver error is raised as SQLAlchemy's own wrapper, so every caller sees the
exceptions it saw before. On PostgreSQL the statement goes through ``Connection.execute`` as before: the
connection handling (pre-ping, reconnects) stays SQLAlchemy's.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Dialect, Executable
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

_Processor = Callable[[Any], Any] | None


class _Compiled:
    """A statement compiled for SQLite: its SQL, how to build its positional parameters, how to read a row."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, keys: tuple[str, ...] | None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=None if keys is None else list(keys))
        assert isinstance(compiled, SQLCompiler)
        self.sql = compiled.string
        binds = compiled.binds
        processors = compiled._bind_processors
        names = compiled.positiontup or []
        self.params: list[tuple[str, Any, Any]] = [
            (binds[name].key, binds[name].value, processors.get(name)) for name in names
        ]
        columns = compiled._result_columns or []
        self.readers: list[_Processor] = [
            column[3]._cached_result_processor(dialect, None) for column in columns
        ]
        self.row: Any = namedtuple("Row", [column[0] for column in columns], rename=True)  # type: ignore[misc]
        # What only SQLAlchemy's execution does: parameters rendered into the SQL at execution, Python-side
        # defaults computed for the missing columns, a RETURNING clause.
        self.plain = not (
            compiled.post_compile_params
            or compiled.literal_execute_params
            or compiled.insert_prefetch
            or compiled.update_prefetch
            or compiled.effective_returning
        )

    def values(self, given: Mapping[str, Any]) -> list[Any]:
        out = []
        for key, default, process in self.params:
            value = given.get(key, default)
            out.append(process(value) if process is not None else value)
        return out

    def read(self, raw: Sequence[Any]) -> Any:
        return self.row._make(
            value if reader is None else reader(value)
            for reader, value in zip(self.readers, raw, strict=True)
        )


# By statement (and, for a write, the keys of its parameters): the module-level statements of the hot paths,
# compiled for SQLite on first use (None: one SQLite runs through SQLAlchemy, such as a text() without typed
# columns). The statement itself is kept so its id is never reused.
_COMPILED: dict[tuple[int, tuple[str, ...] | None], tuple[Executable, _Compiled | None]] = {}
_COMPILED_LOCK = threading.Lock()


def _on_sqlite(
    conn: Connection, statement: Executable, keys: tuple[str, ...] | None = None
) -> _Compiled | None:
    if conn.dialect.name != "sqlite":
        return None
    found = _COMPILED.get((id(statement), keys))
    if found is None:
        compiled = None
        readable = keys is not None or getattr(statement, "selected_columns", None) is not None
        if isinstance(statement, ClauseElement) and readable:
            compiled = _Compiled(statement, conn.dialect, keys)
            if not compiled.plain and keys is None:
                raise ValueError("a prepared select cannot have parameters rendered at execution")
        with _COMPILED_LOCK:
            found = _COMPILED.setdefault((id(statement), keys), (statement, compiled))
    compiled = found[1]
    return compiled if compiled is not None and compiled.plain else None


def _driver(conn: Connection) -> sqlite3.Connection:
    driver: sqlite3.Connection = conn.connection.driver_connection  # type: ignore[assignment]
    return driver


def _fetch(conn: Connection, statement: Executable, params: Mapping[str, Any], one: bool) -> list[Any]:
    compiled = _on_sqlite(conn, statement)
    if compiled is None:
        result = conn.execute(statement, dict(params))
        if one:
            row = result.first()
            return [] if row is None else [row]
        return list(result.all())
    values = compiled.values(params)
    try:
        cursor = _driver(conn).execute(compiled.sql, values)
        try:
            raw = cursor.fetchmany(1) if one else cursor.fetchall()
        finally:
            cursor.close()
    except sqlite3.Error as error:
        raise DBAPIError.instance(compiled.sql, values, error, sqlite3.Error) from error
    return [compiled.read(row) for row in raw]


def all_rows(conn: Connection, statement: Executable, params: Mapping[str, Any]) -> list[Any]:
    """Every row of a select: tuples with the columns' names as attributes on both backends (SQLAlchemy's
    ``Row`` on PostgreSQL, a named tuple on SQLite)."""
    return _fetch(conn, statement, params, one=False)


def first_row(conn: Connection, statement: Executable, params: Mapping[str, Any]) -> Any:
    """The first row of a select, or None."""
    rows = _fetch(conn, statement, params, one=True)
    return rows[0] if rows else None


def scalar(conn: Connection, statement: Executable, params: Mapping[str, Any]) -> Any:
    """The first column of the first row of a select, or None."""
    row = first_row(conn, statement, params)
    return None if row is None else row[0]


def write(
    conn: Connection, statement: Executable, params: Mapping[str, Any] | Sequence[Mapping[str, Any]]
) -> int:
    """Run an ``INSERT`` or ``UPDATE`` with one set of parameters, or with many (every set with the same keys,
    as an ``executemany``); returns the rows it matched. Nothing is read back (no inserted key, no RETURNING)."""
    many = not isinstance(params, Mapping)
    rows: Sequence[Mapping[str, Any]] = params if many else [params]  # type: ignore[assignment, list-item]
    if not rows:
        return 0
    keys = rows[0].keys()
    compiled = _on_sqlite(conn, statement, tuple(keys))
    if compiled is None or any(row.keys() != keys for row in rows):
        return int(conn.execute(statement, [dict(row) for row in rows] if many else dict(rows[0])).rowcount)
    values = [compiled.values(row) for row in rows]
    try:
        if len(values) > 1:  # as SQLAlchemy: one set of parameters is a plain execute
            cursor = _driver(conn).executemany(compiled.sql, values)
        else:
            cursor = _driver(conn).execute(compiled.sql, values[0])
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()
    except sqlite3.Error as error:
        raise DBAPIError.instance(compiled.sql, values, error, sqlite3.Error) from error
