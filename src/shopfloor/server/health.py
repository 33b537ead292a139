"""What ``/healthz`` and ``/readyz`` check: each store answers, holds the schema this code expects, and its own
tables can be read (docs/security.md, "No half-saved runs").

``SELECT 1`` is not enough: a database recreated empty, left at an older migration, or a file corrupted past its
first page all answer it. So each check reads what the app itself reads:

- the workshop store: its Alembic revision must be the package's newest (:func:`head_revision`), and one row
  of each core table must be readable;
- the shifts record store: opened read-only, its ``schema_version`` must be this code's and one row of each of
  its tables readable.

A store that passes is ``"ok"``; one at another schema is ``schema_mismatch``; one that does not answer or
whose tables cannot be read is named by its fault code (``store_unavailable``, ...), or ``no_store`` for a
record store that was never prepared. The answers are kept ``SHOPFLOOR_HEALTH_CACHE_S`` seconds (2), so a
load balancer's polling costs at most one round of reads per store in that time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from sqlalchemy import text

from shopfloor.settings import Settings
from shopfloor.shifts.records import store as records
from shopfloor.web.store_errors import UNAVAILABLE, store_fault
from shopfloor.workshop.store import Store

SCHEMA_MISMATCH = "schema_mismatch"
CACHE_S = 2.0
# The workshop tables every request path reads; a read of one row each touches their pages and their schema.
WORKSHOP_TABLES = ("workshops", "profiles", "hats", "user_sessions")

HEALTH_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "The process answers; `ok` false names the store that does not"},
}
READY_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "Every store answers"},
    503: {"description": "A store does not answer (`store_unavailable`, with `stores`)"},
}


@cache
def expected_revision() -> str:
    """The workshop store's newest migration, read once from the packaged scripts (Alembic is imported on
    the first check, not when the server starts)."""
    from shopfloor.workshop.store.migrate import head_revision

    return head_revision()


def workshop_store_check(store: Store) -> str:
    """``"ok"`` when the workshop store is at the expected migration and its tables read, else
    ``schema_mismatch`` or its fault code."""
    from alembic.runtime.migration import MigrationContext

    try:
        with store.reading(None) as conn:
            # None for a database without the version table (recreated empty), else the revision it is at.
            if MigrationContext.configure(conn).get_current_revision() != expected_revision():
                return SCHEMA_MISMATCH
            for table in WORKSHOP_TABLES:
                # Only the names above, never input: no injection.
                conn.execute(text(f"SELECT 1 FROM {table} LIMIT 1")).all()
    except Exception as error:  # any failure to answer is the store being down, whatever the driver says
        return (store_fault(error) or UNAVAILABLE).code
    return "ok"


def shifts_store_check(settings: Settings) -> str:
    """``"ok"`` when the shifts record store opens read-only at this code's schema and its tables read,
    ``no_store`` when it was never prepared, else ``schema_mismatch`` or ``store_unavailable``."""
    path = settings.shifts_db_path()
    if not path.is_file():
        return "no_store"
    try:
        conn = records.open_existing(path)
    except records.StoreUnavailable:
        return UNAVAILABLE.code
    try:
        found = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
        if found != [(records.SCHEMA_VERSION,)]:
            return SCHEMA_MISMATCH
        for table in records.TABLES:
            conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchall()  # the store's own table names
    except Exception:  # a missing table, a corrupted block: the store cannot answer the app's reads
        return UNAVAILABLE.code
    finally:
        conn.close()
    return "ok"


class CachedChecks:
    """The stores' checks, run at most once per ``ttl_s`` seconds: one caller runs them, callers
    arriving meanwhile wait for its answer, and later ones get it until it is older than the period."""

    def __init__(self, run: Callable[[], dict[str, str]], ttl_s: float = CACHE_S) -> None:
        self._run = run
        self._ttl_s = ttl_s
        self._lock = threading.Lock()
        self._at = float("-inf")
        self._last: dict[str, str] = {}

    def __call__(self) -> dict[str, str]:
        """Each store's state: ``"ok"`` or why not."""
        with self._lock:
            if time.monotonic() - self._at >= self._ttl_s:
                self._last = self._run()
                self._at = time.monotonic()
            return dict(self._last)
