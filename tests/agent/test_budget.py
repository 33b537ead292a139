"""Spend under a cap in the core loop (docs/pricing.md, "Spend under a cap"): the worst case reserved before
each model call, the real cost settled after it, a call past the cap refused before it is made. The ledger is
the real SQL one, on a SQLite file; expected figures are worked out by hand from the price table."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import create_engine

from shopfloor.agent.budget import BudgetExhausted, to_nano, worst_case_usd
from shopfloor.agent.loop import LoopLimits, Outcome, run_loop
from shopfloor.agent.providers.base import ProviderError, StopReason, Turn, Usage
from shopfloor.agent.providers.scripted import ScriptedProvider, tool_turn
from shopfloor.agent.spend import METADATA, LedgerBudget, SqlLedger
from shopfloor.agent.trace import Trace

FLASH = "gemini-2.5-flash-lite"
TODAY = date(2026, 12, 2)
LIMITS = LoopLimits(max_tokens=1000, max_request_bytes=10_000)


@pytest.fixture
def ledger(tmp_path) -> SqlLedger:
    engine = create_engine(f"sqlite:///{tmp_path / 'spend.db'}")
    METADATA.create_all(engine)
    return SqlLedger(engine)


def budget(ledger: SqlLedger, cap: float | None) -> LedgerBudget:
    return LedgerBudget(ledger, "workshop", "ws-a", cap, today=lambda: TODAY)


def end(usage=Usage(1000, 200), model=FLASH) -> Turn:
    return Turn(StopReason.END_TURN, text="done", usage=usage, model=model)


def run(provider, registry, ctx, spend):
    return run_loop(provider, "sys", "note", registry, ctx, Trace(), limits=LIMITS, budget=spend)


def month(ledger: SqlLedger, cap: float | None = None):
    (total,) = ledger.months("2026-12", cap)
    return total


def test_worst_case_is_the_request_bound_plus_max_tokens_at_the_table_rates():
    # (976 bytes + 1024 overhead) = 2000 tokens at $0.10/M, 1000 output at $0.40/M.
    assert worst_case_usd(FLASH, 976, 1000) == pytest.approx(0.0006)
    # Opus bills cache writes at $5/M, dearer than its $4/M input: 2000 × 5 + 1000 × 20.
    assert worst_case_usd("claude-opus-5-5", 976, 1000) == pytest.approx(0.03)
    # gpt-6.1-terra past 272,000 prompt tokens: input and cache × 2 (the dearer is the write, 2.50), output
    # × 1.5 (7.50).
    assert worst_case_usd("gpt-6.1-terra", 300_000, 1000) == pytest.approx((301_024 * 2.5 + 1000 * 7.5) / 1e6)
    assert worst_case_usd("openai-compatible/llama3", 976, 1000) is None
    assert worst_case_usd("offline-reader", 976, 1000) == 0.0


def test_a_call_is_settled_at_its_real_cost(ledger, registry, ctx):
    provider = ScriptedProvider([end()], model=FLASH)
    outcome = run(provider, registry, ctx, budget(ledger, 1.00))
    assert outcome.outcome is Outcome.END_TURN
    total = month(ledger)
    # 1000 input × $0.10/M + 200 output × $0.40/M = $0.00018; nothing left held.
    assert total.spent_usd == pytest.approx(0.00018)
    assert total.reserved_usd == 0
    (row,) = ledger.by_day("2026-12")
    assert (row.app, row.tenant, row.model, row.day, row.calls) == (
        "workshop",
        "ws-a",
        FLASH,
        "2026-12-02",
        1,
    )
    assert row.charged_usd == pytest.approx(0.00018) and row.open_calls == 0


def test_a_call_past_the_cap_is_never_made(ledger, registry, ctx):
    provider = ScriptedProvider([end()], model=FLASH)
    outcome = run(provider, registry, ctx, budget(ledger, 0.0001))  # below one call's worst case
    assert outcome.outcome is Outcome.BUDGET_EXHAUSTED
    assert outcome.error is not None and outcome.error["type"] == "budget_exhausted"
    assert "monthly model budget is spent" in outcome.error["message"]
    assert provider.requests == []  # refused before the call
    assert month(ledger).spent_usd == 0 and ledger.by_day("2026-12") == []


def test_the_cap_stops_a_run_between_calls(ledger, registry, ctx):
    # The first call's worst case fits; after it, the second does not (cap $0.001, a worst case is about
    # $0.00054 and the first call is charged its real cost of $0.0005 at 3000 input and 500 output tokens).
    first = tool_turn(("lookup", {"name": "a"}), usage=Usage(3000, 500), model=FLASH)
    provider = ScriptedProvider([first, end()], model=FLASH)
    outcome = run(provider, registry, ctx, budget(ledger, 0.001))
    assert outcome.outcome is Outcome.BUDGET_EXHAUSTED
    assert len(provider.requests) == 1 and outcome.iterations == 1
    assert month(ledger).spent_usd == pytest.approx(0.0005)  # 3000 × 0.10 + 500 × 0.40 per million


def test_a_tenant_cap_in_the_table_overrides_the_setting(ledger, registry, ctx):
    ledger.set_cap("workshop", "ws-a", 0.0001)
    outcome = run(ScriptedProvider([end()], model=FLASH), registry, ctx, budget(ledger, 100.0))
    assert outcome.outcome is Outcome.BUDGET_EXHAUSTED
    ledger.set_cap("workshop", "ws-a", None)
    outcome = run(ScriptedProvider([end()], model=FLASH), registry, ctx, budget(ledger, 100.0))
    assert outcome.outcome is Outcome.END_TURN


def test_an_unknown_price_is_refused_under_a_cap_and_counted_unknown_without_one(ledger, registry, ctx):
    local = "openai-compatible/llama3"
    refused = run(ScriptedProvider([end(model=local)], model=local), registry, ctx, budget(ledger, 5.0))
    assert refused.outcome is Outcome.BUDGET_EXHAUSTED
    assert "no known price" in (refused.error or {})["message"]
    served = run(ScriptedProvider([end(model=local)], model=local), registry, ctx, budget(ledger, None))
    assert served.outcome is Outcome.END_TURN
    (row,) = ledger.by_day("2026-12")
    assert (row.model, row.calls, row.unknown_cost_calls, row.charged_usd) == (local, 1, 1, 0.0)


def test_offline_planners_are_never_counted_nor_refused(ledger, registry, ctx):
    class Offline(ScriptedProvider):
        local = True

    outcome = run(
        Offline([end(model="offline-reader")], model="offline-reader"), registry, ctx, budget(ledger, 0.0)
    )
    assert outcome.outcome is Outcome.END_TURN
    assert ledger.months("2026-12", 0.0) == []


def test_a_failed_call_releases_or_keeps_its_hold_by_what_failed(ledger, registry, ctx):
    spend = budget(ledger, 1.0)
    answered = ScriptedProvider([ProviderError("api", "400 bad request", 400)], model=FLASH)
    assert run(answered, registry, ctx, spend).outcome is Outcome.PROVIDER_ERROR
    assert month(ledger).spent_usd == 0 and month(ledger).reserved_usd == 0  # an HTTP error bills nothing
    lost = ScriptedProvider([ProviderError("connection", "reset")], model=FLASH)
    assert run(lost, registry, ctx, spend).outcome is Outcome.PROVIDER_ERROR
    # No answer: it may have been billed, so the worst case stays spent. The request was the system prompt,
    # the tool list and the note (the same bytes the loop measures), so the hold is one worst case.
    total = month(ledger)
    assert total.reserved_usd == 0 and total.spent_usd > 0
    (row,) = [r for r in ledger.by_day("2026-12")]
    assert row.calls == 2 and row.unknown_cost_calls == 1


def test_settling_twice_counts_once(ledger):
    spend = budget(ledger, 1.0)
    hold = spend.reserve(FLASH, 976, 1000)
    assert hold is not None and hold.reserved_nano == to_nano(0.0006)
    spend.settle(hold, 0.0001)
    spend.settle(hold, 0.0001)
    assert month(ledger).spent_usd == pytest.approx(0.0001) and month(ledger).reserved_usd == 0


def test_exhausted_error_names_the_cap(ledger):
    spend = budget(ledger, 0.0001)
    with pytest.raises(BudgetExhausted) as caught:
        spend.reserve(FLASH, 976, 1000)
    assert caught.value.cap_usd == pytest.approx(0.0001)
    assert "of $0.000100 is used" in str(caught.value) and "no call was made" in str(caught.value)
