"""More of the loop's contract: odd stop reasons, timeouts, what each request carries, events."""

import threading
import time
from contextlib import contextmanager

from shopfloor.agent.loop import LoopLimits, Outcome, run_loop
from shopfloor.agent.providers.base import AssistantTurn, ProviderError, StopReason, ToolCall, Turn, Usage
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.agent.tools import Tool, ToolRegistry
from shopfloor.agent.trace import Trace
from tests.agent.conftest import LookupArgs


def run(provider, registry, ctx, **kw):
    trace = Trace()
    return run_loop(provider, "system", "note", registry, ctx, trace, **kw), trace


def test_tool_use_stop_without_calls_is_unexpected(registry, ctx):
    turn = Turn(StopReason.TOOL_USE, raw_stop_reason="tool_use", model="m")
    outcome, _ = run(ScriptedProvider([turn]), registry, ctx)
    assert outcome.outcome is Outcome.UNEXPECTED_STOP
    assert outcome.error == {"type": "unexpected_stop", "stop_reason": "tool_use"}


def test_a_call_timeout_with_budget_left_is_a_provider_error(registry, ctx):
    provider = ScriptedProvider([ProviderError("timeout", "Gemini did not answer within the call timeout")])
    outcome, trace = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.PROVIDER_ERROR
    assert outcome.error == {"type": "timeout", "message": "Gemini did not answer within the call timeout"}
    assert trace.to_list()[-1] == {"i": 0, "kind": "error", "error": outcome.error}


def test_each_call_gets_the_smaller_of_call_timeout_and_budget_left(registry, ctx):
    def slow_tool_turn(request):
        time.sleep(0.3)
        return tool_turn(("lookup", {"name": "a"}))

    provider = ScriptedProvider([slow_tool_turn, text_turn("done")])
    limits = LoopLimits(call_timeout_s=25.0, run_budget_s=1.0, max_tokens=1234)
    outcome, _ = run(provider, registry, ctx, limits=limits, model="gemini-2.5-flash")
    assert outcome.outcome is Outcome.END_TURN
    first, second = provider.requests
    assert 0.9 < first.timeout_s <= 1.0
    assert second.timeout_s < 0.75  # the first call used 0.3 s of the 1 s budget
    assert first.max_tokens == 1234 and first.model == "gemini-2.5-flash"
    assert [t["name"] for t in first.tools] == ["lookup", "propose"]


def test_the_models_turn_goes_back_as_the_same_object(registry, ctx):
    native = [{"type": "thinking", "thinking": "…", "signature": "sig"}, {"type": "tool_use", "id": "t1"}]
    turn = Turn(
        StopReason.TOOL_USE,
        tool_calls=(ToolCall("t1", "lookup", {"name": "Rosa"}),),
        native=native,
        model="claude-haiku-4-5",
    )
    provider = ScriptedProvider([turn, text_turn("done")])
    run(provider, registry, ctx)
    echoed = provider.requests[1].messages[1]
    assert isinstance(echoed, AssistantTurn) and echoed.turn is turn and echoed.turn.native is native


def test_events_report_calls_without_the_models_text(registry, ctx):
    events = []
    provider = ScriptedProvider(
        [
            tool_turn(("lookup", {"name": "Rosa"}), ("propose", {"item": "nobody"})),
            text_turn("secret summary"),
        ]
    )
    run(
        provider, registry, ctx, on_event=lambda event, level, payload: events.append((event, level, payload))
    )
    names = [(e, level) for e, level, _ in events]
    assert names == [
        ("agent.model.call", "info"),
        ("agent.tool.call", "info"),
        ("agent.tool.call", "warn"),  # propose before lookup of that item: an is_error result
        ("agent.model.call", "info"),
    ]
    assert all("secret summary" not in repr(payload) for _, _, payload in events)
    assert events[1][2]["tool"] == "lookup" and events[2][2]["is_error"] is True


def test_max_tokens_without_text_reports_no_text(registry, ctx):
    turn = Turn(StopReason.MAX_TOKENS, usage=Usage(10, 8000), raw_stop_reason="max_tokens", model="m")
    outcome, trace = run(ScriptedProvider([turn]), registry, ctx)
    assert outcome.outcome is Outcome.MAX_TOKENS and outcome.text is None
    assert trace.to_list()[0]["stop_reason"] == "max_tokens"


def test_a_failed_call_consumes_an_iteration_and_adds_no_model_step(registry, ctx):
    provider = ScriptedProvider([tool_turn(("lookup", {"name": "a"})), ProviderError("api", "boom", 500)])
    outcome, trace = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.PROVIDER_ERROR and outcome.iterations == 2
    assert [s["kind"] for s in trace.to_list()] == ["model_call", "tool_call", "error"]
    assert outcome.error == {"type": "api", "message": "boom", "status": 500}


def test_a_tool_batch_wraps_each_turns_tool_calls_and_is_left_before_the_next_model_call(registry, ctx):
    timeline: list[str] = []

    @contextmanager
    def batch():
        timeline.append("enter")
        yield
        timeline.append("exit")

    def turn_logged(turn):
        def answer(request):
            timeline.append("model")
            return turn

        return answer

    def lookup_logged(name):
        return turn_logged(tool_turn(("lookup", {"name": name}), ("lookup", {"name": name + "2"})))

    def lookup(_ctx, args):
        timeline.append("tool")
        return {"matches": [args.name]}

    logged = ToolRegistry([Tool("lookup", "Find things.", "read", LookupArgs, lookup)])
    provider = ScriptedProvider([lookup_logged("a"), lookup_logged("b"), turn_logged(text_turn("done"))])
    outcome, _ = run(provider, logged, ctx, tool_batch=batch)
    assert outcome.outcome is Outcome.END_TURN
    assert timeline == ["model", "enter", "tool", "tool", "exit"] * 2 + ["model"]


def test_a_local_provider_is_called_on_the_loops_own_thread(registry, ctx):
    threads: list[str] = []

    class Local(ScriptedProvider):
        local = True

        def complete(self, request):
            threads.append(threading.current_thread().name)
            return super().complete(request)

    outcome, _ = run(Local([text_turn("done")]), registry, ctx, abort=threading.Event())
    assert outcome.outcome is Outcome.END_TURN
    assert threads == [threading.current_thread().name]


def test_each_message_is_measured_once_per_run(registry, ctx, monkeypatch):
    """The request-size check serializes a message the first time it is sent, not on every later call."""
    from shopfloor.agent import loop

    measured: list[object] = []
    real = loop._message_bytes

    def counting(message):
        measured.append(message)
        return real(message)

    monkeypatch.setattr(loop, "_message_bytes", counting)
    provider = ScriptedProvider(
        [tool_turn(("lookup", {"name": "a"})), tool_turn(("lookup", {"name": "b"})), text_turn("done")]
    )
    outcome, _ = run(provider, registry, ctx)
    assert outcome.outcome is Outcome.END_TURN
    # Three calls send 1, 3 and 5 messages: five distinct messages, each measured once.
    assert len(measured) == 5 and len({id(m) for m in measured}) == 5
