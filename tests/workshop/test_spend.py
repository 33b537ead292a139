"""Toquilla Trace under the monthly spend cap (docs/pricing.md, "Spend under a cap"), on SQLite and
PostgreSQL: a run whose next model call would pass the workshop's cap fails with ``budget_exhausted`` and
saves nothing; spend is settled at the real cost; admins read the month's spend at ``GET /workshop/spend``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from shopfloor.agent.providers.base import Usage
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.agent.spend import month_of
from shopfloor.settings import get_settings
from shopfloor.web.errors import ApiError
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B
from shopfloor.workshop.spend import ledger_of
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

from .helpers import ANA, assert_envelope, bearer

FLASH = "gemini-2.5-flash-lite"
NOTE = {"note": "Doña Rosa Pillco terminó 3 finos de 18 hileras."}
FIND_ROSA = ("find_weaver", {"name": "Doña Rosa Pillco"})
MONTH = month_of(datetime.now(UTC).date())


def priced(*turns):
    return ScriptedProvider(list(turns), model=FLASH)


def run(store: Store, provider) -> dict:
    return run_agent(StoreAgentStore(store), ANA, NOTE, provider, "req_0123456789ab", rate_limit_per_hour=50)


def runs(owner: Store) -> list[m.AgentRun]:
    with owner.transaction(WORKSHOP_A, write=False) as s:
        return list(s.scalars(select(m.AgentRun)))


def proposals(owner: Store) -> int:
    with owner.transaction(WORKSHOP_A, write=False) as s:
        return len(s.scalars(select(m.Proposal)).all())


def test_a_run_past_the_workshop_cap_fails_and_saves_nothing(store: Store, owner: Store) -> None:
    ledger_of(store).set_cap("workshop", WORKSHOP_A, 0.0001)  # below one call's worst case
    before = proposals(owner)
    provider = priced(tool_turn(FIND_ROSA, model=FLASH), text_turn("done", model=FLASH))
    with pytest.raises(ApiError) as caught:
        run(store, provider)
    assert (caught.value.status, caught.value.code) == (402, "budget_exhausted")
    assert provider.requests == []  # no model call was made
    (row,) = runs(owner)
    assert row.status == "failed" and row.error is not None and row.error["type"] == "budget_exhausted"
    assert proposals(owner) == before
    assert ledger_of(store).by_day(MONTH) == []


def test_a_run_under_the_cap_is_charged_its_real_cost(store: Store) -> None:
    ledger_of(store).set_cap("workshop", WORKSHOP_A, 1.0)
    provider = priced(
        tool_turn(FIND_ROSA, usage=Usage(2000, 100), model=FLASH),
        text_turn("done", model=FLASH),  # Usage(100, 20)
    )
    body = run(store, provider)
    assert body["summary"] == "done"
    (total,) = ledger_of(store).months(MONTH, None, app="workshop", tenant=WORKSHOP_A)
    # (2000 × 0.10 + 100 × 0.40) + (100 × 0.10 + 20 × 0.40) per million = 240 + 18 microdollars.
    assert total.spent_usd == pytest.approx(0.000258)
    assert total.reserved_usd == 0 and total.cap_usd == pytest.approx(1.0)


def test_the_setting_caps_every_workshop_without_a_row(store: Store, monkeypatch) -> None:
    monkeypatch.setenv("SHOPFLOOR_MONTHLY_CAP_USD", "0.0001")
    get_settings.cache_clear()
    try:
        with pytest.raises(ApiError) as caught:
            run(store, priced(text_turn("done", model=FLASH)))
        assert caught.value.code == "budget_exhausted"
        ledger_of(store).set_cap("workshop", WORKSHOP_A, 1.0)  # the workshop's own row wins
        assert run(store, priced(text_turn("done", model=FLASH)))["summary"] == "done"
    finally:
        get_settings.cache_clear()


def test_offline_runs_are_never_refused_nor_counted(client: TestClient, store: Store) -> None:
    ledger_of(store).set_cap("workshop", WORKSHOP_A, 0.0)
    headers = bearer(client, "ana@taller.example")
    r = client.post("/functions/v1/workshop-agent", json=NOTE, headers=headers)
    assert r.status_code == 200, r.text
    assert ledger_of(store).by_day(MONTH) == []


def test_admins_read_their_workshops_spend(client: TestClient, store: Store) -> None:
    run(store, priced(text_turn("done", model=FLASH)))
    other = ledger_of(store)
    hold = other.reserve("workshop", WORKSHOP_B, datetime.now(UTC).date(), FLASH, 5000, None)
    other.settle("workshop", WORKSHOP_B, hold, 5000)  # another workshop's call, never shown here
    headers = bearer(client, "admin@taller.example")
    r = client.get("/workshop/spend", headers=headers)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["month"] == MONTH
    (total,) = body["totals"]
    assert total["tenant"] == WORKSHOP_A and total["spent_usd"] == pytest.approx(
        0.000018
    )  # 100 × 0.1 + 20 × 0.4
    (row,) = body["rows"]
    assert (row["app"], row["model"], row["day"], row["calls"]) == (
        "workshop",
        FLASH,
        datetime.now(UTC).date().isoformat(),
        1,
    )
    assert client.get("/workshop/spend?month=2020-01", headers=headers).json()["rows"] == []
    assert_envelope(client.get("/workshop/spend?month=12-2026", headers=headers), 400, "bad_request")
    member = bearer(client, "ana@taller.example")
    assert_envelope(client.get("/workshop/spend", headers=member), 403)
    assert_envelope(client.get("/workshop/spend"), 401, "unauthorized")
