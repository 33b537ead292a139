"""A live planner stopped by the plant's monthly cap, replayed through the real SDKs on the recorded complete
diagnosis (``recordings/<provider>/complete.json``, hand-written) with the real SQL ledger
(``shopfloor.agent.spend``; docs/pricing.md, "Spend under a cap"): the answer is ``budget_exhausted``, shows
only what the tools really returned before the refusal, and writes no figure of its own."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import create_engine, text

from shopfloor.agent.providers.replay import REPLAY_MODELS as MODELS
from shopfloor.agent.spend import METADATA, LedgerBudget, SqlLedger
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.live.live import investigate_live, parse_planner
from tests.shifts.live.conftest import PROVIDERS, SHIFT2, replay, sdk_provider

QUESTION = "why was second shift slow"
TODAY = date(2026, 12, 2)
# The first call of each recording, priced by hand from its usage and the published rates (docs/pricing.md).
FIRST_CALL_USD = {
    "anthropic": (900 * 4 + 2900 * 5 + 120 * 20) / 1e6,  # Opus 5.5: input, 5-minute cache write, output
    "openai": (3400 * 1 + 150 * 5) / 1e6,  # gpt-6.1-terra: nothing cached, reasoning billed as output
    "gemini": (3300 * 0.10 + 60 * 0.40) / 1e6,  # 2.5 Flash-Lite
}


def ledger_at(tmp_path, name: str) -> SqlLedger:
    engine = create_engine(f"sqlite:///{tmp_path / name}")
    METADATA.create_all(engine)
    return SqlLedger(engine)


def budget(ledger: SqlLedger, cap_usd: float) -> LedgerBudget:
    ledger.set_cap("shifts", "plant", cap_usd)
    return LedgerBudget(ledger, "shifts", "plant", None, today=lambda: TODAY)


def ask(conn, provider: str, plant_budget: LedgerBudget):
    wire = replay(provider, "complete")
    sdk = sdk_provider(provider, wire)
    answer = investigate_live(
        QUESTION, SHIFT2, conn, parse_planner(MODELS[provider]), sdk, narrative=sdk, budget=plant_budget
    )
    assert wire.problems == []
    return answer, wire


def calls(ledger: SqlLedger) -> list[tuple[int, int | None]]:
    with ledger.engine.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                text("SELECT reserved_nano, cost_nano FROM spend_calls ORDER BY created_at")
            )
        ]


def cited_queries(answer) -> set[int]:
    return {int(n) for s in answer.sections for n in re.findall(r"\(query (\d+) · row \d+\)", s["text"])}


@pytest.mark.slow
@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_cap_stops_a_live_planner_between_calls(conn, tmp_path, provider):
    # First the whole run under a generous cap, to learn what the ledger holds for the first call (its worst
    # case); then a fresh month whose cap lets that call through but not, after its real cost, the next one.
    roomy = ledger_at(tmp_path, "roomy.db")
    full, _wire = ask(conn, provider, budget(roomy, 10.0))
    assert full.status == "complete"
    (first_hold, first_cost), *_ = calls(roomy)
    assert first_cost == round(FIRST_CALL_USD[provider] * 1e9)

    tight = ledger_at(tmp_path, "tight.db")
    answer, wire = ask(conn, provider, budget(tight, (first_hold + first_cost // 2) / 1e9))

    assert answer.status == "budget_exhausted"
    assert len(wire.calls) == 1 and wire.remaining == 2  # neither the finish nor the narrative was asked for
    (month,) = tight.months("2026-12", None)
    assert month.spent_usd == pytest.approx(FIRST_CALL_USD[provider]) and month.reserved_usd == 0
    assert len(calls(tight)) == 1  # the refused call left no row: nothing was held for it

    assert answer.sections[1]["text"].startswith("The plant's monthly model budget is spent")
    assert "no answer was written" in answer.sections[1]["text"]
    # Only the three tools the first answer asked for ran; every figure shown cites one of their rows.
    assert [e["tool"] for e in answer.evidence] == [
        "get_shift_overview",
        "get_downtime_breakdown",
        "get_wet_end_performance",
    ]
    assert cited_queries(answer) <= {e["query"] for e in answer.evidence}
    assert not any(s["type"] == "interpretation" for s in answer.sections)  # no model-written narrative
    assert invariants(answer.as_dict()) == []


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_spent_budget_makes_no_call_and_shows_no_figure(conn, tmp_path, provider):
    ledger = ledger_at(tmp_path, "spent.db")
    answer, wire = ask(conn, provider, budget(ledger, 0.0001))
    assert answer.status == "budget_exhausted"
    assert wire.calls == [] and calls(ledger) == []
    assert answer.evidence == [] and answer.tables == [] and answer.charts == []
    assert not any("**" in s["text"] for s in answer.sections)  # bold marks a figure; there is none
    assert "no answer was written" in answer.sections[1]["text"]
