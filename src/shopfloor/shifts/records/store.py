"""The record store: one DuckDB file holding the rolling year of production records.

Every table is keyed by production day first. Rows are written one day at a time, in
(day, shift, start) order, so DuckDB's per-row-group min/max statistics (zone maps) let a day or
window filter skip everything outside it; ``sort_tables`` restores that order after days were
re-ingested out of sequence. There are no ART indexes: they slow the bulk load and buy nothing for
range filters on a clustered column.

Tools open the file read-only (``open_read_only``) and run fixed queries through ``bounded_query``:
bound parameters, at most 1,000 rows returned, and a two-second interrupt.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

SCHEMA_VERSION = "1"
MAX_ROWS = 1000
QUERY_TIMEOUT_S = 2.0

# One definition per table: (column, DuckDB type, Arrow type). The DDL, the bulk insert and the
# Parquet export all come from this list, so they cannot drift apart.
Column = tuple[str, str, pa.DataType]

TABLES: dict[str, list[Column]] = {
    "meta": [
        ("key", "VARCHAR", pa.string()),
        ("value", "VARCHAR", pa.string()),
    ],
    "days": [
        ("day", "DATE", pa.date32()),
        ("file", "VARCHAR", pa.string()),
        ("sha256", "VARCHAR", pa.string()),
        ("bytes", "BIGINT", pa.int64()),
        ("generator", "VARCHAR", pa.string()),
        ("seed", "BIGINT", pa.int64()),
        ("shifts", "INTEGER", pa.int32()),
        ("setups", "INTEGER", pa.int32()),
        ("excluded", "INTEGER", pa.int32()),
        ("stops", "INTEGER", pa.int32()),
        ("ingested_at", "TIMESTAMP", pa.timestamp("us")),
    ],
    "shifts": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("crew", "VARCHAR", pa.string()),
        ("supervisor_slot", "VARCHAR", pa.string()),
        ("started", "TIMESTAMP", pa.timestamp("us")),
        ("ended", "TIMESTAMP", pa.timestamp("us")),
        ("scheduled_min", "DOUBLE", pa.float64()),
        ("setups", "INTEGER", pa.int32()),
        ("excluded", "INTEGER", pa.int32()),
        ("coverage", "VARCHAR", pa.string()),
        # Per-shift sums of the valid setups and of the stops, written with the day, so window KPIs
        # are one small aggregation (ratios are formed later, in metrics.kpis).
        ("paper_changes", "INTEGER", pa.int32()),
        ("lineal_ft", "DOUBLE", pa.float64()),
        ("target_ft", "DOUBLE", pa.float64()),
        ("elapsed_min", "DOUBLE", pa.float64()),
        ("stop_min_allocated", "DOUBLE", pa.float64()),
        ("gross_sqft", "DOUBLE", pa.float64()),
        ("trim_sqft", "DOUBLE", pa.float64()),
        ("shear_sqft", "DOUBLE", pa.float64()),
        ("reject_sqft", "DOUBLE", pa.float64()),
        ("maintenance_min", "DOUBLE", pa.float64()),
        ("operator_min", "DOUBLE", pa.float64()),
        ("pm_min", "DOUBLE", pa.float64()),
        ("external_min", "DOUBLE", pa.float64()),
        ("setups_above_trim_flag", "INTEGER", pa.int32()),
    ],
    "wet_end_runs": [
        ("day", "DATE", pa.date32()),
        ("run_id", "VARCHAR", pa.string()),
        ("grade", "VARCHAR", pa.string()),
        ("target_fpm", "DOUBLE", pa.float64()),
        ("width_in", "DOUBLE", pa.float64()),
        ("started", "TIMESTAMP", pa.timestamp("us")),
        ("ended", "TIMESTAMP", pa.timestamp("us")),
        ("first_shift", "INTEGER", pa.int32()),
        ("last_shift", "INTEGER", pa.int32()),
        ("setups", "INTEGER", pa.int32()),
        ("gross_feet", "DOUBLE", pa.float64()),
        ("gross_sqft", "DOUBLE", pa.float64()),
    ],
    "setups": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("record_id", "VARCHAR", pa.string()),
        ("setup_id", "VARCHAR", pa.string()),
        ("run_id", "VARCHAR", pa.string()),
        ("crew", "VARCHAR", pa.string()),
        ("grade", "VARCHAR", pa.string()),
        ("target_fpm", "DOUBLE", pa.float64()),
        ("width_in", "DOUBLE", pa.float64()),
        ("occupied_in", "DOUBLE", pa.float64()),
        ("started", "TIMESTAMP", pa.timestamp("us")),
        ("ended", "TIMESTAMP", pa.timestamp("us")),
        ("elapsed_min", "DOUBLE", pa.float64()),
        ("gross_feet", "DOUBLE", pa.float64()),
        ("net_feet", "DOUBLE", pa.float64()),
        ("gross_sqft", "DOUBLE", pa.float64()),
        ("trim_sqft", "DOUBLE", pa.float64()),
        ("shear_feet", "DOUBLE", pa.float64()),
        ("shear_sqft", "DOUBLE", pa.float64()),
        ("reject_sheets", "INTEGER", pa.int32()),
        ("reject_sqft", "DOUBLE", pa.float64()),
        ("stop_count", "INTEGER", pa.int32()),
        ("stop_min", "DOUBLE", pa.float64()),
        ("knives", "INTEGER", pa.int32()),
        ("continued", "BOOLEAN", pa.bool_()),
    ],
    "knives": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("record_id", "VARCHAR", pa.string()),
        ("setup_id", "VARCHAR", pa.string()),
        ("knife", "VARCHAR", pa.string()),
        ("order_id", "VARCHAR", pa.string()),
        ("grade", "VARCHAR", pa.string()),
        ("width_in", "DOUBLE", pa.float64()),
        ("length_in", "DOUBLE", pa.float64()),
        ("outs", "INTEGER", pa.int32()),
        ("cuts", "INTEGER", pa.int32()),
        ("start_in", "DOUBLE", pa.float64()),
        ("requested_sheets", "INTEGER", pa.int32()),
        ("planned_sheets", "INTEGER", pa.int32()),
        ("produced_sheets", "INTEGER", pa.int32()),
        ("remaining_before", "INTEGER", pa.int32()),
        ("remaining_after", "INTEGER", pa.int32()),
        ("lineal_feet", "DOUBLE", pa.float64()),
    ],
    "stops": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("stop_id", "VARCHAR", pa.string()),
        ("kind", "VARCHAR", pa.string()),
        ("place", "VARCHAR", pa.string()),
        ("reason", "VARCHAR", pa.string()),
        ("started", "TIMESTAMP", pa.timestamp("us")),
        ("ended", "TIMESTAMP", pa.timestamp("us")),
        ("minutes", "DOUBLE", pa.float64()),
        ("notes", "VARCHAR", pa.string()),
    ],
    "stop_allocations": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("stop_id", "VARCHAR", pa.string()),
        ("record_id", "VARCHAR", pa.string()),
        ("kind", "VARCHAR", pa.string()),
        ("place", "VARCHAR", pa.string()),
        ("reason", "VARCHAR", pa.string()),
        ("minutes", "DOUBLE", pa.float64()),
    ],
    "rejects": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("record_id", "VARCHAR", pa.string()),
        ("seq", "INTEGER", pa.int32()),
        ("grade", "VARCHAR", pa.string()),
        ("family", "VARCHAR", pa.string()),
        ("reason", "VARCHAR", pa.string()),
        ("knife", "VARCHAR", pa.string()),
        ("sheets", "INTEGER", pa.int32()),
        ("width_in", "DOUBLE", pa.float64()),
        ("length_in", "DOUBLE", pa.float64()),
        ("sqft", "DOUBLE", pa.float64()),
    ],
    "notes": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("seq", "INTEGER", pa.int32()),
        ("text", "VARCHAR", pa.string()),
    ],
    "excluded_records": [
        ("day", "DATE", pa.date32()),
        ("shift", "INTEGER", pa.int32()),
        ("record_id", "VARCHAR", pa.string()),
        ("kind", "VARCHAR", pa.string()),
        ("error", "VARCHAR", pa.string()),
        ("raw", "VARCHAR", pa.string()),
    ],
}

# Tables whose rows belong to one production day; replacing a day touches exactly these.
DAY_TABLES = [name for name in TABLES if name != "meta"]

# The clustering order of each day table (also the Parquet export order).
SORT_KEYS: dict[str, str] = {
    "days": "day",
    "shifts": "day, shift",
    "wet_end_runs": "day, started",
    "setups": "day, started",
    "knives": "day, shift, record_id, knife DESC",
    "stops": "day, started",
    "stop_allocations": "day, shift, stop_id, record_id",
    "rejects": "day, shift, record_id, seq",
    "notes": "day, shift, seq",
    "excluded_records": "day, shift, record_id",
}


class QueryTimeout(Exception):
    """A bounded query ran past its time limit and was interrupted."""


class StoreUnavailable(Exception):
    """The record store file cannot be opened: not a DuckDB file, or held by another process."""


@dataclass
class QueryResult:
    """Rows of a bounded query; ``truncated`` says more rows existed than were returned."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool

    def dicts(self) -> list[dict[str, Any]]:
        """The rows as dictionaries keyed by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


@dataclass
class DayRows:
    """Every row of one production day, by table, ready to replace that day in the store."""

    day: date
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {t: [] for t in DAY_TABLES})


def ddl() -> list[str]:
    """CREATE TABLE statements for every table of the store."""
    statements = []
    for name, columns in TABLES.items():
        cols = ", ".join(f'"{col}" {kind}' for col, kind, _ in columns)
        statements.append(f"CREATE TABLE IF NOT EXISTS {name} ({cols})")
    return statements


def connect(path: Path | str, *, threads: int = 2) -> duckdb.DuckDBPyConnection:
    """A read-write connection with the schema created (a new file is created if missing)."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = duckdb.connect(str(path), config={"threads": threads})
    for statement in ddl():
        conn.execute(statement)
    if not conn.execute("SELECT count(*) FROM meta WHERE key = 'schema_version'").fetchone()[0]:  # type: ignore[index]
        conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", [SCHEMA_VERSION])
    return conn


def open_read_only(path: Path | str, *, threads: int = 2) -> duckdb.DuckDBPyConnection:
    """A read-only connection for tools: no writes, and no file or network access from SQL."""
    return duckdb.connect(
        str(path),
        read_only=True,
        config={"threads": threads, "enable_external_access": False},
    )


def open_existing(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the store at ``path``; raises ``StoreUnavailable`` with a plain
    message when the file cannot be opened."""
    try:
        return open_read_only(path)
    except duckdb.Error as exc:
        # DuckDB's first line says why (not a database file, a lock held by another process).
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise StoreUnavailable(f"cannot open the record store {path}: {reason}") from None


class _Watchdog:
    """The process's one thread that interrupts a bounded query past its deadline.

    A timer thread per statement cost a thread start and the wait for it to run (about a millisecond a
    statement, several under load, of a daily run's five to nine); here a statement only records its
    deadline, and the thread is woken only when that deadline comes before the one it sleeps until."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._due: dict[int, tuple[float, duckdb.DuckDBPyConnection]] = {}
        self._count = 0
        self._sleeping_until = math.inf
        self._pid: int | None = None

    def watch(self, conn: duckdb.DuckDBPyConnection, timeout_s: float) -> int:
        """Interrupt ``conn`` in ``timeout_s`` seconds unless :meth:`done` is called first with the token."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            if self._pid != os.getpid():  # first use in this process (a worker starts without the thread)
                self._pid = os.getpid()
                self._due.clear()
                self._sleeping_until = math.inf
                threading.Thread(target=self._run, name="query-watchdog", daemon=True).start()
            self._count += 1
            self._due[self._count] = (deadline, conn)
            if deadline < self._sleeping_until:
                self._cond.notify()
            return self._count

    def done(self, token: int) -> None:
        """The statement of ``token`` ended: it is not interrupted."""
        with self._cond:
            self._due.pop(token, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for token in [t for t, (deadline, _) in self._due.items() if deadline <= now]:
                    self._due.pop(token)[1].interrupt()
                self._sleeping_until = min((deadline for deadline, _ in self._due.values()), default=math.inf)
                wait = None if self._sleeping_until == math.inf else self._sleeping_until - now
                self._cond.wait(wait)


_watchdog = _Watchdog()


def bounded_query(
    conn: duckdb.DuckDBPyConnection,
    sql: str,
    params: Sequence[Any] | dict[str, Any] = (),
    *,
    max_rows: int = MAX_ROWS,
    timeout_s: float = QUERY_TIMEOUT_S,
) -> QueryResult:
    """Run one fixed query with bound values, return at most ``max_rows`` rows, interrupt it after
    ``timeout_s`` seconds (raising ``QueryTimeout``)."""
    token = _watchdog.watch(conn, timeout_s)
    try:
        cursor = conn.execute(sql, params)
        columns = [d[0] for d in cursor.description or []]
        rows = cursor.fetchmany(max_rows + 1)
    except duckdb.InterruptException as exc:
        raise QueryTimeout(f"query interrupted after {timeout_s:g} s") from exc
    finally:
        _watchdog.done(token)
    return QueryResult(columns, [tuple(r) for r in rows[:max_rows]], len(rows) > max_rows)


def arrow_table(name: str, rows: list[dict[str, Any]]) -> pa.Table:
    """The rows of ``name`` as an Arrow table with the store's column types."""
    columns = TABLES[name]
    schema = pa.schema([(col, kind) for col, _, kind in columns])
    data = {col: [row.get(col) for row in rows] for col, _, _ in columns}
    return pa.table(data, schema=schema)


@contextmanager
def transaction(conn: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """One transaction: committed when the block ends, rolled back (and re-raised) on any error."""
    conn.execute("BEGIN TRANSACTION")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def replace_day(conn: duckdb.DuckDBPyConnection, day_rows: DayRows) -> None:
    """Replace one production day in every table, in one transaction: all of it or nothing."""
    replace_days(conn, [day_rows])


def replace_days(conn: duckdb.DuckDBPyConnection, batch: Sequence[DayRows]) -> None:
    """Replace several fully validated days in one transaction (one INSERT per table for the batch).

    Each day is written whole or not at all; a bulk load uses this to avoid paying DuckDB's
    per-statement cost for every table of every day."""
    if not batch:
        return
    days = [d.day for d in batch]
    with transaction(conn):
        present = conn.execute("SELECT count(*) FROM days WHERE day = ANY(?)", [days]).fetchone()
        if present and present[0]:
            for name in DAY_TABLES:
                conn.execute(f"DELETE FROM {name} WHERE day = ANY(?)", [days])
        for name in DAY_TABLES:
            rows = [row for d in batch for row in d.tables.get(name) or []]
            if rows:
                _day_batch = arrow_table(name, rows)
                conn.execute(f"INSERT INTO {name} SELECT * FROM _day_batch")


def sort_tables(conn: duckdb.DuckDBPyConnection) -> None:
    """Rewrite each day table in its clustering order (after days were ingested out of order)."""
    with transaction(conn):
        for name, key in SORT_KEYS.items():
            conn.execute(f"CREATE OR REPLACE TEMP TABLE _sorted AS SELECT * FROM {name} ORDER BY {key}")
            conn.execute(f"DELETE FROM {name}")
            conn.execute(f"INSERT INTO {name} SELECT * FROM _sorted")
        conn.execute("DROP TABLE IF EXISTS _sorted")


def set_meta(conn: duckdb.DuckDBPyConnection, values: dict[str, str]) -> None:
    """Set meta keys (generator version, seed, as-of date, ...), replacing earlier values."""
    with transaction(conn):
        for key, value in values.items():
            conn.execute("DELETE FROM meta WHERE key = ?", [key])
            conn.execute("INSERT INTO meta VALUES (?, ?)", [key, value])


def get_meta(conn: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Every meta key and value."""
    return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta").fetchall()}


def export_parquet(
    conn: duckdb.DuckDBPyConnection,
    out_dir: Path,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write every table to ``out_dir/<table>.parquet`` in its clustering order; ``progress(done, total)``
    is called after each table."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in TABLES:
        target = out_dir / f"{name}.parquet"
        order = SORT_KEYS.get(name, "key")
        table = conn.sql(f"SELECT * FROM {name} ORDER BY {order}").to_arrow_table()
        pq.write_table(table, target)
        written.append(target)
        if progress:
            progress(len(written), len(TABLES))
    return written
