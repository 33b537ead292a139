"""What ``/healthz`` and ``/readyz`` check: each store answers (docs/security.md, "No half-saved runs").

A check is one short read: ``SELECT 1`` on the workshop store, opening the shifts record store read-only. A
store that answers is ``"ok"``; one that does not is named by its fault code (``store_unavailable``, ...), or
``no_store`` for a record store that was never prepared.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from shopfloor.settings import Settings
from shopfloor.shifts.records import store as records
from shopfloor.web.store_errors import UNAVAILABLE, store_fault
from shopfloor.workshop.store import Store

HEALTH_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "The process answers; `ok` false names the store that does not"},
}
READY_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "Every store answers"},
    503: {"description": "A store does not answer (`store_unavailable`, with `stores`)"},
}


def workshop_store_check(store: Store) -> str:
    """``"ok"`` when the workshop store answers a read, else its fault code."""
    try:
        with store.reading(None) as conn:
            conn.execute(text("SELECT 1"))
    except Exception as error:  # any failure to answer is the store being down, whatever the driver says
        return (store_fault(error) or UNAVAILABLE).code
    return "ok"


def shifts_store_check(settings: Settings) -> str:
    """``"ok"`` when the shifts record store opens read-only, ``no_store`` when it was never prepared."""
    path = settings.shifts_db_path()
    if not path.is_file():
        return "no_store"
    try:
        records.open_existing(path).close()
    except records.StoreUnavailable:
        return UNAVAILABLE.code
    return "ok"
