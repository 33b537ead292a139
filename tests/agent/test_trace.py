"""Trace steps and totals: token sums, cost from the price table, the serving model per call."""

import pytest

from shopfloor.agent.pricing import cost_usd, price_for
from shopfloor.agent.providers.base import StopReason, Turn, Usage
from shopfloor.agent.trace import ErrorStep, ProposalStep, RuleCheckStep, ToolCallStep, Trace


def turn(model: str, usage: Usage) -> Turn:
    return Turn(StopReason.END_TURN, text="ok", usage=usage, model=model)


def test_a_separately_billed_cache_write_uses_its_own_rate():
    usage = Usage(input_tokens=1000, output_tokens=100, cache_read=2000, cache_write=400)
    # claude-haiku-4-5: input 1.00, output 5.00, cache read 0.10, cache write 1.25 per million
    assert cost_usd("claude-haiku-4-5", usage) == pytest.approx((1000 + 500 + 200 + 500) / 1e6)


def test_dated_snapshots_take_their_familys_price_and_offline_planners_cost_zero():
    assert price_for("claude-haiku-4-5-20251001") == price_for("claude-haiku-4-5")
    assert price_for("models/gemini-2.5-flash-lite") == price_for("gemini-2.5-flash-lite")
    # the longest matching family wins: flash-lite is not priced as flash
    assert price_for("gemini-2.5-flash-lite-001") != price_for("gemini-2.5-flash")
    assert cost_usd("offline-reader", Usage(5000, 5000, 5000, 5000)) == 0.0
    assert cost_usd("somebody-elses-model", Usage(1, 1)) is None


def test_totals_add_every_call_and_record_the_model_that_served_each():
    trace = Trace()
    trace.record_model_call(turn("gemini-2.5-flash-lite", Usage(100, 10, 50, 0)), 1, 7)
    trace.record_model_call(turn("gpt-5-mini", Usage(200, 20, 0, 0)), 2, 9)
    steps = trace.to_list()
    assert [s["model"] for s in steps] == ["gemini-2.5-flash-lite", "gpt-5-mini"]
    assert [s["duration_ms"] for s in steps] == [7, 9]
    assert trace.model == "gpt-5-mini"
    assert trace.tokens_in == 100 + 50 + 200 and trace.tokens_out == 30
    expected = (100 * 0.10 + 10 * 0.40 + 50 * 0.01) / 1e6 + (200 * 0.25 + 20 * 2.00) / 1e6
    assert trace.cost_usd == pytest.approx(expected)


def test_one_unpriced_call_makes_the_run_cost_unknown_for_good():
    trace = Trace()
    trace.record_model_call(turn("gpt-5-mini", Usage(10, 10)), 1, 1)
    trace.record_model_call(turn("mystery", Usage(10, 10)), 2, 1)
    trace.record_model_call(turn("gpt-5-mini", Usage(10, 10)), 3, 1)
    assert trace.cost_usd is None


def test_every_step_kind_serialises_in_order_with_its_index():
    trace = Trace()
    trace.add(ToolCallStep("lookup", "read", {"q": "x"}, {"n": 1}, False, 3))
    trace.add(RuleCheckStep("advance", "H-1", False, "too_early", "Not yet.", 1))
    trace.add(ProposalStep("p1", "advance", "pending"))
    trace.add(ErrorStep({"type": "timeout"}))
    steps = trace.to_list()
    assert [(s["i"], s["kind"]) for s in steps] == [
        (0, "tool_call"),
        (1, "rule_check"),
        (2, "proposal"),
        (3, "error"),
    ]
    assert next(iter(steps[0])) == "i"
    assert steps[1]["allowed"] is False and steps[3]["error"] == {"type": "timeout"}
    assert trace.tool_calls == 1
