"""Toquilla Trace's side of the spend cap: each workshop's budget for agent runs, and the admins' spend route.

The ledger and its rules are the core's (``shopfloor.agent.spend``; docs/pricing.md, "Spend under a cap").
Here a workshop is the tenant: its monthly cap is its own row in ``spend_caps``, else
``SHOPFLOOR_MONTHLY_CAP_USD``; the ledger writes go through the workshop store's write queue.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from shopfloor.agent.budget import Budget
from shopfloor.agent.spend import LedgerBudget, SqlLedger, as_json, month_of
from shopfloor.settings import get_settings
from shopfloor.web.errors import ApiError
from shopfloor.web.openapi import error_responses
from shopfloor.workshop.deps import Admin, StoreDep, state_of
from shopfloor.workshop.domain import Actor
from shopfloor.workshop.store import Store

APP = "workshop"
_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def ledger_of(store: Store) -> SqlLedger:
    """The spend ledger in the workshop store; its writes queue with the store's other writers."""
    return SqlLedger(store.engine, begin=lambda: store.writing(None))


def run_budget(agent_store: object, actor: Actor) -> Budget | None:
    """The budget of one agent run in the actor's workshop, or None when the run's store is not the
    workshop's SQL store (a test's own store keeps no ledger)."""
    store = getattr(agent_store, "store", None)
    if not isinstance(store, Store):
        return None
    return LedgerBudget(ledger_of(store), APP, actor.workshop_id, get_settings().monthly_cap_usd)


router = APIRouter()


@router.get("/spend", responses=error_responses(401, 403, 503, 507))
def spend(
    actor: Admin,
    store: StoreDep,
    request: Request,
    month: Annotated[str | None, Query(max_length=7)] = None,
) -> dict[str, Any]:
    """The month's model spend of the admin's workshop, by app, model and day (admins; default: this month,
    UTC). Only the admin's own workshop is shown: the other tenants of the ledger are not theirs to see."""
    if month is None:
        month = month_of(datetime.now(UTC).date())
    elif not _MONTH.match(month):
        raise ApiError(400, "bad_request", "month must look like 2026-12.")
    ledger = ledger_of(store)
    cap = state_of(request).settings.monthly_cap_usd
    totals = ledger.months(month, cap, app=APP, tenant=actor.workshop_id)
    body = as_json(totals, ledger.by_day(month, app=APP, tenant=actor.workshop_id))
    if not totals:  # nothing spent yet: still say which cap is in force
        body["totals"] = [
            {"app": APP, "tenant": actor.workshop_id, "month": month, "spent_usd": 0.0, "reserved_usd": 0.0}
            | {"cap_usd": ledger.cap(APP, actor.workshop_id, cap)}
        ]
    return {"month": month, **body}
