"""The OpenAI adapter through the real openai SDK (Responses API), answered by recorded exchanges."""

import json

import httpx2
import pytest

from shopfloor.agent.loop import Outcome, run_loop
from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    ProviderError,
    StopReason,
    ToolResults,
    Usage,
    UserText,
)
from shopfloor.agent.providers.openai_provider import OpenAIProvider, build_input, is_reasoning_model
from shopfloor.agent.providers.scripted import tool_turn
from shopfloor.agent.tools import ToolResult
from shopfloor.agent.trace import Trace
from tests.agent.wire import FAKE_KEY, SYSTEM, ask, open_wire, run_tool_use


def gpt(request, scenario, live_ok=True, model="gpt-5-mini"):
    wire = open_wire(request.config, "openai", scenario, live_ok)
    return OpenAIProvider(wire.key, model=model, http_client=wire.http_client), wire


def test_tool_use_turn_runs_tools_and_echoes_output_items(request, registry, ctx):
    provider, wire = gpt(request, "tool_use")
    replay, trace = run_tool_use(provider, wire, registry, ctx)

    first, second = replay.bodies()
    assert first["instructions"] == SYSTEM
    assert first["store"] is False
    assert first["tools"][0] == {
        "type": "function",
        "name": "lookup",
        "description": "Find things.",
        "parameters": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    assert first["input"] == [{"role": "user", "content": "Rosa and Ana came by."}]

    # Output items (the reasoning item with its encrypted content, the calls) go back unchanged,
    # followed by one function_call_output per call, in call order.
    recorded = replay.exchanges[0].response["output"]
    assert second["input"][1:4] == recorded
    assert second["input"][4:] == [
        {
            "type": "function_call_output",
            "call_id": "call_Xk3p9Qm2Lr7Tn4Vb8Wc1Yd6Z",
            "output": '{"matches": ["Rosa"]}',
        },
        {
            "type": "function_call_output",
            "call_id": "call_Hj5s2Ft8Gk1Lm4Np7Qr0Sv3W",
            "output": '{"matches": ["Ana"]}',
        },
    ]
    assert second["store"] is False
    models = [s["model"] for s in trace.to_list() if s["kind"] == "model_call"]
    assert models == ["gpt-5-mini-2025-08-07"] * 2
    # gpt-5-mini: input 0.25, output 2.00 per million; no cache in this exchange.
    assert trace.cost_usd == pytest.approx(((420 + 610) * 0.25 + (150 + 20) * 2.00) / 1e6)


def test_malformed_arguments_become_an_error_result_not_a_crash(request, registry, ctx):
    provider, wire = gpt(request, "malformed_arguments", live_ok=False, model="gpt-4.1-mini")
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.END_TURN
    assert ctx.seen == set()
    first, second = wire.replay.bodies()
    assert not {"include", "reasoning"} & set(first)  # not a reasoning model
    output = json.loads(second["input"][-1]["output"])
    assert second["input"][-1]["call_id"] == "call_Bad1Args2Json3Str4ing5"
    assert "expected a JSON object" in output["error"]


def test_end_turn_reads_cached_and_written_tokens(request, registry):
    provider, _wire = gpt(request, "end_turn_cached", live_ok=False)
    turn = ask(provider, registry)
    assert turn.stop_reason is StopReason.END_TURN
    assert turn.text == "I understood: nothing to record."
    # input_tokens 2200 includes 1920 cached and 180 written; output includes reasoning.
    assert turn.usage == Usage(input_tokens=100, output_tokens=64, cache_read=1920, cache_write=180)
    assert turn.usage.prompt_tokens == 2200
    trace = Trace()
    trace.record_model_call(turn, 1, 3)
    # Cache writes bill at the input rate; reads at 0.025.
    assert trace.cost_usd == pytest.approx(((100 + 180) * 0.25 + 64 * 2.00 + 1920 * 0.025) / 1e6)


def test_incomplete_at_max_output_tokens_is_max_tokens(request, registry, ctx):
    provider, _wire = gpt(request, "max_tokens", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.MAX_TOKENS
    assert outcome.last_turn.raw_stop_reason == "max_output_tokens"


def test_refusal_part_is_a_refusal(request, registry):
    provider, _wire = gpt(request, "refusal", live_ok=False)
    turn = ask(provider, registry)
    assert turn.stop_reason is StopReason.REFUSAL
    assert turn.text is None and turn.tool_calls == ()


def test_the_sdk_makes_no_retry_and_says_when_to_retry(request, registry):
    provider, wire = gpt(request, "rate_limit_then_ok", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert (caught.value.kind, caught.value.status, caught.value.retry_after_s) == ("rate_limit", 429, 0.001)
    assert len(wire.replay.calls) == 1


def test_rate_limit_is_retried_by_the_loop_not_the_sdk(request, registry, ctx):
    provider, wire = gpt(request, "rate_limit_then_ok", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.END_TURN and outcome.text == "I understood: done."
    assert [c.headers["x-stainless-retry-count"] for c in wire.replay.calls] == ["0", "0"]


def test_server_error_exhausts_retries_with_a_clear_error(request, registry, ctx):
    provider, wire = gpt(request, "server_error", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.PROVIDER_ERROR
    assert (outcome.error["type"], outcome.error["status"]) == ("api", 500)
    assert outcome.error["message"].startswith("OpenAI API error 500 server_error: The server had an error")
    assert len(wire.replay.calls) == 3  # the first attempt and max_retries=2


def test_rejected_key_is_not_retried_and_not_even_masked_in_the_error(request, registry):
    provider, wire = gpt(request, "bad_key", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    message = str(caught.value)
    assert caught.value.status == 401
    assert "Incorrect API key provided: [redacted]" in message
    assert "sk-test" not in message and FAKE_KEY not in message
    assert len(wire.replay.calls) == 1


def test_timeout_becomes_a_timeout_error(registry):
    def handler(req):
        raise httpx2.ReadTimeout("read timed out", request=req)

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    provider = OpenAIProvider(FAKE_KEY, http_client=client, max_retries=0)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert caught.value.kind == "timeout"


@pytest.mark.parametrize(
    ("model", "expected"),
    # From the model table; a model missing from it is not treated as reasoning (nothing it could refuse).
    [("gpt-5-mini", True), ("gpt-6.1-terra", True), ("gpt-4.1-mini", False), ("o4-mini", False)],
)
def test_reasoning_models(model, expected):
    assert is_reasoning_model(model) is expected


def test_error_results_and_turns_without_native_items(registry):
    turn = tool_turn(("lookup", {"name": "boom"}))
    results = ToolResults((ToolResult("c1", "lookup", "The tool failed.", True),))
    request = ModelRequest(SYSTEM, registry.specs(), [UserText("n"), AssistantTurn(turn), results])
    items = build_input(request)
    assert items[1] == {
        "type": "function_call",
        "call_id": "c1",
        "name": "lookup",
        "arguments": '{"name": "boom"}',
    }
    assert items[2] == {
        "type": "function_call_output",
        "call_id": "c1",
        "output": '{"error": "The tool failed."}',
    }


def test_usage_without_cache_write_tokens_reads_as_zero(request, registry):
    # Real Responses payloads and OpenAI-compatible servers may leave cache_write_tokens out.
    provider, _wire = gpt(request, "usage_without_cache_write", live_ok=False)
    turn = ask(provider, registry)
    assert turn.text == "I understood: nothing to record."
    assert turn.usage == Usage(input_tokens=220, output_tokens=40, cache_read=1280, cache_write=0)


def test_an_unreadable_answer_is_a_provider_error_not_a_crash(request, registry, ctx):
    provider, _wire = gpt(request, "unreadable_answer", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert caught.value.kind == "bad_response"
    assert str(caught.value).startswith("OpenAI answered in an unexpected shape")
    provider, _wire = gpt(request, "unreadable_answer", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.PROVIDER_ERROR
    assert outcome.error["type"] == "bad_response"
