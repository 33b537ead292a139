"""The Shift Investigator's model calls under the plant's monthly cap (docs/pricing.md, "Spend under a cap"):
a scripted planner with a priced model through ``investigate``'s own loop, and the real SQL ledger."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import create_engine

from shopfloor.agent.providers.base import Usage
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.agent.spend import METADATA, LedgerBudget, SqlLedger
from shopfloor.shifts import Scope, investigate
from tests.shifts.investigation.conftest import conn, store_path  # noqa: F401 - the hand-built record store

FLASH = "gemini-2.5-flash-lite"
SHIFT2 = Scope(day=date(2026, 9, 16), shift=2, include="shift")
TODAY = date(2026, 12, 2)


@pytest.fixture
def plant_budget(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'spend.db'}")
    METADATA.create_all(engine)
    ledger = SqlLedger(engine)

    def make(cap: float) -> LedgerBudget:
        ledger.set_cap("shifts", "plant", cap)
        return LedgerBudget(ledger, "shifts", "plant", None, today=lambda: TODAY)

    return ledger, make


def kpis_then_finish():
    first = tool_turn(("get_shift_kpis", {"shift": 2}), usage=Usage(12_000, 2000), model=FLASH)
    return ScriptedProvider([first, text_turn('{"evidence": []}', model=FLASH)], model=FLASH)


def test_a_spent_budget_refuses_the_first_call_and_writes_no_answer(conn, plant_budget):  # noqa: F811
    _ledger, make = plant_budget
    planner = kpis_then_finish()
    answer = investigate("show the KPIs", SHIFT2, conn, planner=planner, budget=make(0.0001))
    assert answer.status == "budget_exhausted"
    assert planner.requests == []  # no model call was made
    assert answer.evidence == [] and answer.tables == []
    assert answer.sections[0]["type"] == "read_as"  # every answer opens with how it read the question
    assert answer.sections[1]["text"].startswith("The plant's monthly model budget is spent")
    assert "no answer was written" in answer.sections[1]["text"]


def test_the_cap_stops_the_planner_between_calls_and_keeps_only_real_evidence(conn, plant_budget):  # noqa: F811
    ledger, make = plant_budget
    planner = kpis_then_finish()
    # The first call's worst case is about 20 KB of prompt (the catalog and system prompt) at $0.10/M plus
    # 8,000 output tokens at $0.40/M, under $0.006; it then costs $0.002, and no second worst case
    # (its $0.0032 of output plus the same prompt's $0.002) fits in the $0.004 left.
    answer = investigate("show the KPIs", SHIFT2, conn, planner=planner, budget=make(0.006))
    assert answer.status == "budget_exhausted" and len(planner.requests) == 1
    assert [e["tool"] for e in answer.evidence] == ["get_shift_kpis"]  # the one tool call that ran
    assert answer.sections[1]["text"].startswith("The plant's monthly model budget is spent")
    (total,) = ledger.months("2026-12", None)
    assert total.spent_usd == pytest.approx(0.002)  # 12,000 × $0.10/M + 2,000 × $0.40/M


def test_the_offline_planner_is_never_counted(conn, plant_budget):  # noqa: F811
    ledger, make = plant_budget
    answer = investigate("show the KPIs", SHIFT2, conn, budget=make(0.0))
    assert answer.status in ("complete", "partial")
    assert ledger.months("2026-12", None) == []
