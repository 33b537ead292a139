"""The bounded loop with a scripted provider: its stop reasons, bounds and errors (docs/architecture.md)."""

import threading
import time

from shopfloor.agent.dispatch import planner_data
from shopfloor.agent.loop import TRIMMED, LoopLimits, Outcome, fit_request, run_loop
from shopfloor.agent.providers.base import (
    AssistantTurn,
    ProviderError,
    StopReason,
    ToolCall,
    ToolResults,
    Turn,
    Usage,
    UserText,
)
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.agent.tools import Tool, ToolRegistry, ToolResult
from shopfloor.agent.trace import Trace

from .conftest import LookupArgs


def run(provider, registry, ctx, **kw):
    trace = Trace()
    outcome = run_loop(provider, "system", "note", registry, ctx, trace, **kw)
    return outcome, trace


def test_tool_use_then_end_turn(registry, ctx):
    provider = ScriptedProvider(
        [
            tool_turn(("lookup", {"name": "Rosa"}), ("lookup", {"name": "Ana"})),
            tool_turn(("propose", {"item": "Rosa"})),
            text_turn("I understood: one action."),
        ]
    )
    outcome, trace = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.END_TURN and outcome.text == "I understood: one action."
    assert ctx.proposals == ["Rosa"]
    # All results of a turn go back in one message, in call order, after the assistant turn unchanged.
    second = provider.requests[1].messages
    assert isinstance(second[1], AssistantTurn) and isinstance(second[2], ToolResults)
    assert [r.call_id for r in second[2].results] == ["c1", "c2"]
    kinds = [s["kind"] for s in trace.to_list()]
    assert kinds == ["model_call", "tool_call", "tool_call", "model_call", "tool_call", "model_call"]
    assert [s["i"] for s in trace.to_list()] == list(range(6))


def test_refusal_reports_refusal_and_runs_nothing(registry, ctx):
    turn = Turn(StopReason.REFUSAL, refusal_category="cyber", raw_stop_reason="refusal", model="m")
    outcome, trace = run(ScriptedProvider([turn]), registry, ctx)
    assert outcome.outcome is Outcome.REFUSAL and outcome.error == {"type": "refusal", "category": "cyber"}
    assert ctx.proposals == []
    assert trace.to_list()[-1]["kind"] == "error"


def test_max_tokens_never_runs_tools_from_the_truncated_turn(registry, ctx):
    truncated = Turn(
        StopReason.MAX_TOKENS,
        tool_calls=tool_turn(("lookup", {"name": "Rosa"})).tool_calls,
        raw_stop_reason="max_tokens",
    )
    provider = ScriptedProvider([tool_turn(("lookup", {"name": "A"})), truncated])
    outcome, _trace = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.MAX_TOKENS
    assert ctx.seen == {"A"}  # the truncated turn's lookup of Rosa never ran


def test_seven_tool_use_turns_stop_at_six_model_calls(registry, ctx):
    provider = ScriptedProvider([tool_turn(("lookup", {"name": f"n{i}"})) for i in range(7)])
    outcome, trace = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.MAX_ITERATIONS
    assert len(provider.requests) == 6
    assert sum(1 for s in trace.to_list() if s["kind"] == "model_call") == 6


def test_api_error_after_a_proposal_reports_provider_error(registry, ctx):
    provider = ScriptedProvider(
        [
            tool_turn(("lookup", {"name": "A"})),
            tool_turn(("propose", {"item": "A"})),
            ProviderError("api", "upstream 500", status=500),
        ]
    )
    outcome, _ = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.PROVIDER_ERROR
    assert outcome.error == {"type": "api", "message": "upstream 500", "status": 500}
    assert ctx.proposals == ["A"]  # buffered in the app's context; the app decides not to save them


def test_abort_during_a_model_call_reports_aborted_quickly(registry, ctx):
    abort = threading.Event()

    def slow(request):
        time.sleep(2)
        return text_turn("late")

    provider = ScriptedProvider([slow])
    threading.Timer(0.1, abort.set).start()
    t0 = time.monotonic()
    outcome, _ = run(provider, registry, ctx, abort=abort)
    assert outcome.outcome is Outcome.ABORTED
    assert time.monotonic() - t0 < 1.5


def test_abort_before_start_makes_no_call(registry, ctx):
    abort = threading.Event()
    abort.set()
    provider = ScriptedProvider([text_turn("x")])
    outcome, _ = run(provider, registry, ctx, abort=abort)
    assert outcome.outcome is Outcome.ABORTED and provider.requests == []


def test_tool_exception_becomes_error_result_and_loop_continues(registry, ctx):
    provider = ScriptedProvider([tool_turn(("lookup", {"name": "boom"})), text_turn("done")])
    outcome, _trace = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.END_TURN
    result = provider.requests[1].messages[2].results[0]
    assert result.is_error and "boom" not in str(result.content)


def test_unexpected_stop_reason(registry, ctx):
    turn = Turn(StopReason.OTHER, raw_stop_reason="pause_turn")
    outcome, _ = run(ScriptedProvider([turn]), registry, ctx)
    assert outcome.outcome is Outcome.UNEXPECTED_STOP
    assert outcome.error == {"type": "unexpected_stop", "stop_reason": "pause_turn"}


def test_tool_call_limit(registry, ctx):
    provider = ScriptedProvider([tool_turn(*[("lookup", {"name": f"n{i}"}) for i in range(5)])])
    outcome, trace = run(provider, registry, ctx, limits=LoopLimits(max_tool_calls=3))
    assert outcome.outcome is Outcome.TOOL_LIMIT
    assert trace.tool_calls == 3


def test_run_budget_spent_gives_timeout(registry, ctx):
    def slow(request):
        time.sleep(0.05)
        return tool_turn(("lookup", {"name": "x"}))

    provider = ScriptedProvider([slow, slow, slow])
    outcome, _ = run(provider, registry, ctx, limits=LoopLimits(run_budget_s=0.04))
    assert outcome.outcome is Outcome.TIMEOUT


def test_usage_and_cost_totals_follow_the_price_table(registry, ctx):
    usage = Usage(input_tokens=1000, output_tokens=100, cache_read=2000, cache_write=0)
    turn = Turn(StopReason.END_TURN, text="ok", usage=usage, model="gemini-2.5-flash-lite")
    _, trace = run(ScriptedProvider([turn]), registry, ctx)
    # 1000 * 0.10 + 100 * 0.40 + 2000 * 0.01 per million
    assert trace.cost_usd == (100 + 40 + 20) / 1e6
    assert trace.tokens_in == 3000 and trace.tokens_out == 100


def test_unknown_model_price_is_none_not_zero(registry, ctx):
    turn = Turn(StopReason.END_TURN, text="ok", usage=Usage(10, 10), model="mystery-model")
    _, trace = run(ScriptedProvider([turn]), registry, ctx)
    assert trace.cost_usd is None


def test_oldest_tool_results_are_trimmed_first():
    big = "x" * 500
    messages = [
        UserText("note"),
        ToolResults((ToolResult("c1", "lookup", big),)),
        ToolResults((ToolResult("c2", "lookup", big),)),
    ]
    assert fit_request(messages, "s", [], limit=700)
    assert messages[1].results[0].content == TRIMMED
    assert messages[2].results[0].content == big
    assert not fit_request([UserText("y" * 1000)], "s", [], limit=100)


def test_request_too_large_is_refused(registry, ctx):
    provider = ScriptedProvider([text_turn("x")])
    trace = Trace()
    outcome = run_loop(provider, "s" * 5000, "note", registry, ctx, trace, LoopLimits(max_request_bytes=100))
    assert outcome.outcome is Outcome.REQUEST_TOO_LARGE and provider.requests == []


def test_max_tokens_after_two_proposals_keeps_them_and_leaves_the_summary_to_the_app(registry, ctx):
    # A truncated turn after two buffered proposals: the loop reports MAX_TOKENS with no text of its
    # own (the app writes its fallback summary), both proposals stay buffered, and the truncated
    # turn's third proposal never runs.
    truncated = Turn(
        StopReason.MAX_TOKENS,
        tool_calls=tool_turn(("propose", {"item": "C"})).tool_calls,
        raw_stop_reason="max_tokens",
    )
    provider = ScriptedProvider(
        [
            tool_turn(("lookup", {"name": "A"}), ("lookup", {"name": "B"}), ("lookup", {"name": "C"})),
            tool_turn(("propose", {"item": "A"}), ("propose", {"item": "B"})),
            truncated,
        ]
    )
    outcome, trace = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.MAX_TOKENS and outcome.text is None and outcome.error is None
    assert ctx.proposals == ["A", "B"]
    assert outcome.last_turn is truncated and outcome.iterations == 3
    assert [s["tool"] for s in trace.to_list() if s["kind"] == "tool_call"][-2:] == ["propose", "propose"]


def test_only_a_local_providers_calls_hand_their_planner_data_on(ctx):
    seen = []

    def look(_ctx, _args):
        seen.append(dict(planner_data()))
        return {}

    registry = ToolRegistry([Tool("lookup", "Find things.", "read", LookupArgs, look)])
    call = ToolCall("c1", "lookup", {"name": "Rosa"}, local={"texts": {"why": {"code": "x"}}})
    turn = Turn(stop_reason=StopReason.TOOL_USE, tool_calls=(call,), usage=Usage(), model="m")

    class Local(ScriptedProvider):
        local = True

    run(ScriptedProvider([turn, text_turn("done")]), registry, ctx)  # a model's calls: ignored
    run(Local([turn, text_turn("done")]), registry, ctx)
    assert seen == [{}, {"texts": {"why": {"code": "x"}}}]
