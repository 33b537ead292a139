"""The Gemini adapter through the real google-genai SDK, answered by recorded exchanges."""

import json
from datetime import date

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
from shopfloor.agent.providers.gemini_provider import GeminiProvider, build_contents
from shopfloor.agent.providers.scripted import tool_turn
from shopfloor.agent.tools import ToolResult
from shopfloor.agent.trace import Trace
from tests.agent.wire import FAKE_KEY, SYSTEM, ask, open_wire, run_tool_use


def gemini(request, scenario, live_ok=True):
    wire = open_wire(request.config, "gemini", scenario, live_ok)
    provider = GeminiProvider(wire.key, http_client=wire.http_client, retry_initial_delay_s=0.001)
    return provider, wire


def test_tool_use_turn_runs_tools_and_echoes_model_parts(request, registry, ctx):
    provider, wire = gemini(request, "tool_use")
    replay, trace = run_tool_use(provider, wire, registry, ctx)

    first, second = replay.bodies()
    declarations = first["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == ["lookup", "propose"]
    assert declarations[0]["parameters_json_schema"] == {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    }
    assert "parameters" not in declarations[0]  # the OpenAPI-subset field is not used
    assert first["contents"] == [{"role": "user", "parts": [{"text": "Rosa and Ana came by."}]}]

    # The model's parts go back unchanged (thought signature included), then one user message with
    # every function response in call order; only the id the model gave is echoed.
    recorded = wire.replay.exchanges[0].response["candidates"][0]["content"]
    assert second["contents"][1] == recorded
    assert second["contents"][2] == {
        "role": "user",
        "parts": [
            {"functionResponse": {"name": "lookup", "response": {"output": {"matches": ["Rosa"]}}}},
            {
                "functionResponse": {
                    "id": "fc-7f3a",
                    "name": "lookup",
                    "response": {"output": {"matches": ["Ana"]}},
                }
            },
        ],
    }
    model_calls = [s for s in trace.to_list() if s["kind"] == "model_call"]
    assert [s["model"] for s in model_calls] == ["gemini-2.5-flash-lite", "gemini-2.5-flash-lite"]
    # (412 + 520) input at 0.10 and (31 + 12) output at 0.40 per million.
    assert trace.cost_usd == pytest.approx((932 * 0.10 + 43 * 0.40) / 1e6)


def test_missing_call_ids_are_synthesized_and_stable(request, registry):
    provider, _wire = gemini(request, "tool_use", live_ok=False)
    turn = ask(provider, registry)
    assert turn.stop_reason is StopReason.TOOL_USE
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [
        ("gF1aZ-2xBOmVmtkP0vWx4Q4-call-0", "lookup", {"name": "Rosa"}),
        ("fc-7f3a", "lookup", {"name": "Ana"}),
    ]
    assert turn.raw_id == "gF1aZ-2xBOmVmtkP0vWx4Q4"


def test_end_turn_reads_cached_and_thought_tokens(request, registry):
    provider, _wire = gemini(request, "end_turn_cached", live_ok=False)
    turn = ask(provider, registry)
    assert turn.stop_reason is StopReason.END_TURN
    assert turn.text == "I understood: nothing to record."
    # promptTokenCount 2150 includes 2048 cached; output is 9 candidates + 40 thoughts.
    assert turn.usage == Usage(input_tokens=102, output_tokens=49, cache_read=2048, cache_write=0)
    assert turn.usage.prompt_tokens == 2150
    assert turn.model == "gemini-2.5-flash-lite"
    trace = Trace()
    trace.record_model_call(turn, 1, 5)
    assert trace.cost_usd == pytest.approx((102 * 0.10 + 49 * 0.40 + 2048 * 0.01) / 1e6)


def test_max_tokens(request, registry):
    provider, _wire = gemini(request, "max_tokens", live_ok=False)
    turn = ask(provider, registry)
    assert turn.stop_reason is StopReason.MAX_TOKENS
    assert turn.raw_stop_reason == "MAX_TOKENS"
    assert turn.text == "I understood: Rosa finished three fino hats and"


def test_safety_stop_is_a_refusal_with_its_reason(request, registry, ctx):
    provider, _wire = gemini(request, "safety", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.REFUSAL
    assert outcome.error == {"type": "refusal", "category": "SAFETY"}
    assert ctx.seen == set()


def test_blocked_prompt_is_a_refusal(request, registry):
    provider, _wire = gemini(request, "prompt_blocked", live_ok=False)
    turn = ask(provider, registry)
    assert turn.stop_reason is StopReason.REFUSAL
    assert turn.refusal_category == "PROHIBITED_CONTENT"
    assert turn.usage.input_tokens == 95


def test_malformed_function_call_is_an_unexpected_stop(request, registry, ctx):
    provider, _wire = gemini(request, "malformed_call", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.UNEXPECTED_STOP
    assert outcome.error == {"type": "unexpected_stop", "stop_reason": "MALFORMED_FUNCTION_CALL"}


def test_the_sdk_makes_no_retry(request, registry):
    provider, wire = gemini(request, "rate_limit_then_ok", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert (caught.value.kind, caught.value.status) == ("rate_limit", 429)
    assert caught.value.retry_after_s is None  # no Retry-After and no RetryInfo in this answer
    assert len(wire.replay.calls) == 1


def test_rate_limit_is_retried_by_the_loop_not_the_sdk(request, registry, ctx):
    provider, wire = gemini(request, "rate_limit_then_ok", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.END_TURN and outcome.text == "I understood: done."
    assert len(wire.replay.calls) == 2 and wire.replay.remaining == 0


def test_server_error_exhausts_retries_with_a_clear_error(request, registry, ctx):
    provider, wire = gemini(request, "server_error", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.PROVIDER_ERROR
    assert (outcome.error["type"], outcome.error["status"]) == ("api", 500)
    assert outcome.error["message"].startswith(
        "Gemini API error 500 INTERNAL: An internal error has occurred."
    )
    assert len(wire.replay.calls) == 3  # the first attempt and max_retries=2


def test_rejected_key_is_not_retried_and_never_echoed(request, registry):
    provider, wire = gemini(request, "bad_key", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert caught.value.status == 400 and caught.value.kind == "api"
    assert "API key not valid" in str(caught.value)
    assert FAKE_KEY not in json.dumps(caught.value.as_dict())
    assert len(wire.replay.calls) == 1


def test_key_goes_in_the_header_only(registry):
    seen = []

    def handler(req):
        seen.append(req)
        return httpx2.Response(
            200,
            json={
                "candidates": [
                    {"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}
                ]
            },
        )

    provider = GeminiProvider(FAKE_KEY, http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))
    turn = ask(provider, registry)
    assert turn.text == "ok" and turn.model == "gemini-2.5-flash-lite"  # no modelVersion: the requested one
    assert seen[0].headers["x-goog-api-key"] == FAKE_KEY
    assert FAKE_KEY not in str(seen[0].url) and FAKE_KEY.encode() not in seen[0].content


def test_timeout_becomes_a_timeout_error(registry):
    calls = []

    def handler(req):
        calls.append(req)
        raise httpx2.ReadTimeout("read timed out", request=req)

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    provider = GeminiProvider(FAKE_KEY, http_client=client, max_retries=1, retry_initial_delay_s=0.001)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert caught.value.kind == "timeout"
    assert len(calls) == 1  # the SDK makes no retry (and the loop's policy does not retry a timeout)


def test_request_timeout_reaches_the_wire(request, registry):
    provider, wire = gemini(request, "max_tokens", live_ok=False)
    provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText("x")], 500, 12.5))
    assert wire.replay.calls[0].headers["x-server-timeout"] == "13"
    assert wire.replay.bodies()[0]["generationConfig"]["maxOutputTokens"] == 500


def test_results_are_plain_json_and_errors_say_error(registry):
    turn = tool_turn(("lookup", {"name": "Rosa"}), ("lookup", {"name": ""}))
    results = ToolResults(
        (
            ToolResult("c1", "lookup", {"on": date(2026, 11, 30), "n": 1}),
            ToolResult("c2", "lookup", "name must be 1 to 60 characters.", True),
        )
    )
    request = ModelRequest(SYSTEM, registry.specs(), [UserText("n"), AssistantTurn(turn), results])
    contents = [c.model_dump(mode="json", exclude_none=True) for c in build_contents(request)]
    # A turn with no native parts (an offline planner's) is rebuilt from its neutral fields.
    assert contents[1] == {
        "role": "model",
        "parts": [
            {"function_call": {"name": "lookup", "args": {"name": "Rosa"}}},
            {"function_call": {"name": "lookup", "args": {"name": ""}}},
        ],
    }
    assert contents[2]["parts"] == [
        {"function_response": {"name": "lookup", "response": {"output": {"on": "2026-11-30", "n": 1}}}},
        {"function_response": {"name": "lookup", "response": {"error": "name must be 1 to 60 characters."}}},
    ]


def test_an_unreadable_answer_is_a_provider_error_not_a_crash(request, registry):
    provider, _wire = gemini(request, "unreadable_answer", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert caught.value.kind == "bad_response"
    assert str(caught.value).startswith("Gemini answered in an unexpected shape")


def test_function_calling_mode_is_validated_where_the_model_accepts_it(registry):
    from shopfloor.agent.providers.gemini_provider import build_config

    request = ModelRequest(SYSTEM, registry.specs(), [UserText("n")])
    mode = build_config(request, "gemini-2.5-flash-lite").tool_config.function_calling_config.mode
    assert mode.value == "VALIDATED"
    # A model missing from the model table keeps AUTO.
    mode = build_config(request, "gemini-next-unknown").tool_config.function_calling_config.mode
    assert mode.value == "AUTO"
