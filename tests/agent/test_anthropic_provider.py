"""The Claude adapter through the real anthropic SDK, answered by recorded exchanges."""

import json

import httpx2
import pytest

from shopfloor.agent.loop import Outcome, run_loop
from shopfloor.agent.providers.anthropic_provider import AnthropicProvider, ClaudeOptions, build_params
from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    ProviderError,
    StopReason,
    ToolResults,
    Usage,
    UserText,
)
from shopfloor.agent.providers.scripted import tool_turn
from shopfloor.agent.tools import ToolResult
from shopfloor.agent.trace import Trace
from tests.agent.wire import FAKE_KEY, SYSTEM, ask, open_wire, run_tool_use


def claude(request, scenario, live_ok=True, **kw):
    wire = open_wire(request.config, "anthropic", scenario, live_ok)
    return AnthropicProvider(wire.key, http_client=wire.http_client, **kw), wire


def test_tool_use_turn_runs_tools_and_echoes_thinking(request, registry, ctx):
    provider, wire = claude(request, "tool_use")
    replay, trace = run_tool_use(provider, wire, registry, ctx)

    first, second = replay.bodies()
    assert first["system"] == [{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}]
    assert first["tools"][0] == {
        "name": "lookup",
        "description": "Find things.",
        "input_schema": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    assert [t["name"] for t in first["tools"]] == ["lookup", "propose"]
    assert all(t["strict"] is True for t in first["tools"])
    assert not {"temperature", "top_p", "top_k"} & set(first)  # the 2026-10-21 API answers 400 to them
    headers = replay.calls[0].headers
    assert "server-side-fallback-2026-07-01" in headers["anthropic-beta"]
    assert headers["anthropic-version"]

    # The assistant content goes back unchanged (thinking signature included), then one user message
    # holding every tool result in call order.
    recorded = replay.exchanges[0].response["content"]
    assert second["messages"][1] == {"role": "assistant", "content": recorded}
    assert second["messages"][2] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
                "content": '{"matches": ["Rosa"]}',
                "is_error": False,
            },
            {
                "type": "tool_result",
                "tool_use_id": "toolu_01B18r81rx81mr826724mr8",
                "content": '{"matches": ["Ana"]}',
                "is_error": False,
            },
        ],
    }
    assert [s["model"] for s in trace.to_list() if s["kind"] == "model_call"] == ["claude-opus-5-5"] * 2
    # claude-opus-5-5: input 4, output 20, cache read 0.20, cache write 5 per million.
    expected = (310 * 4 + 96 * 20 + 1840 * 5) + (180 * 4 + 14 * 20 + 1840 * 0.20)
    assert trace.cost_usd == pytest.approx(expected / 1e6)
    assert trace.tokens_in == 310 + 1840 + 180 + 1840


def test_error_results_are_flagged(registry):
    turn = tool_turn(("lookup", {"name": "boom"}))
    results = ToolResults((ToolResult("c1", "lookup", "The tool failed.", True),))
    request = ModelRequest(SYSTEM, registry.specs(), [UserText("n"), AssistantTurn(turn), results])
    messages = build_params(request, "claude-opus-5-5", ClaudeOptions())["messages"]
    # A turn with no native content (an offline planner's) is rebuilt from its neutral fields.
    assert messages[1]["content"] == [
        {"type": "tool_use", "id": "c1", "name": "lookup", "input": {"name": "boom"}}
    ]
    assert messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": "The tool failed.", "is_error": True}
    ]


def test_options_can_be_switched_off(registry):
    request = ModelRequest(SYSTEM, registry.specs(), [UserText("n")])
    params = build_params(
        request, "claude-opus-5-5", ClaudeOptions(thinking=False, effort=None, fallbacks=False)
    )
    assert not {"thinking", "output_config", "betas", "fallbacks"} & set(params)


def test_end_turn_reads_cache_tokens(request, registry):
    provider, _wire = claude(request, "end_turn_cached", live_ok=False)
    turn = ask(provider, registry)
    assert turn.stop_reason is StopReason.END_TURN
    assert turn.text == "I understood: nothing to record."
    # Claude's input_tokens already excludes cache reads and writes.
    assert turn.usage == Usage(input_tokens=52, output_tokens=38, cache_read=1840, cache_write=120)
    assert turn.usage.prompt_tokens == 2012
    assert turn.raw_id == "msg_01Q2w3E4r5T6y7U8i9O0pAsD"
    assert turn.native[0]["type"] == "thinking"


def test_max_tokens_runs_no_tools(request, registry, ctx):
    provider, _wire = claude(request, "max_tokens", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.MAX_TOKENS
    assert outcome.last_turn.stop_reason is StopReason.MAX_TOKENS
    assert len(outcome.last_turn.tool_calls) == 1 and ctx.seen == set()


def test_refusal_carries_its_category(request, registry, ctx):
    provider, _wire = claude(request, "refusal", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.REFUSAL
    assert outcome.error == {"type": "refusal", "category": "cyber"}


def test_fallback_model_is_recorded_and_priced(request, registry):
    provider, _wire = claude(request, "fallback_served", live_ok=False)
    turn = ask(provider, registry)
    assert turn.model == "claude-sonnet-5-5"
    # Only the serving model's text counts; the declined model's partial words stay in native content.
    assert turn.text == "I understood: one hat moved to Washing."
    assert [b["type"] for b in turn.native] == ["text", "fallback", "text"]
    trace = Trace()
    trace.record_model_call(turn, 1, 10)
    assert trace.model == "claude-sonnet-5-5"
    assert trace.cost_usd == pytest.approx((400 * 2.00 + 30 * 10.00) / 1e6)


def test_the_sdk_makes_no_retry_and_says_when_to_retry(request, registry):
    provider, wire = claude(request, "rate_limit_then_ok", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert (caught.value.kind, caught.value.status) == ("rate_limit", 429)
    assert caught.value.retry_after_s == 0.001  # the recording's retry-after-ms: 1
    assert len(wire.replay.calls) == 1


def test_rate_limit_is_retried_by_the_loop_not_the_sdk(request, registry, ctx):
    provider, wire = claude(request, "rate_limit_then_ok", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.END_TURN and outcome.text == "I understood: done."
    # Both are first attempts to the SDK: the retry is the loop's.
    assert [c.headers["x-stainless-retry-count"] for c in wire.replay.calls] == ["0", "0"]


def test_server_error_exhausts_retries_with_a_clear_error(request, registry, ctx):
    provider, wire = claude(request, "server_error", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.PROVIDER_ERROR
    assert outcome.error == {
        "type": "api",
        "message": "Claude API error 500 api_error: Internal server error",
        "status": 500,
    }
    assert len(wire.replay.calls) == 3  # the first attempt and max_retries=2


def test_rejected_key_is_not_retried_and_never_echoed(request, registry):
    provider, wire = claude(request, "bad_key", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert (caught.value.kind, caught.value.status) == ("api", 401)
    assert FAKE_KEY not in json.dumps(caught.value.as_dict())
    assert len(wire.replay.calls) == 1
    assert "authorization" not in wire.replay.calls[0].headers  # captured requests drop credentials


def test_timeout_becomes_a_timeout_error(registry):
    def handler(req):
        raise httpx2.ReadTimeout("read timed out", request=req)

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    provider = AnthropicProvider(FAKE_KEY, http_client=client, max_retries=0)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert caught.value.kind == "timeout"


def test_usage_without_cache_fields_reads_as_zero(request, registry):
    provider, _wire = claude(request, "usage_minimal", live_ok=False)
    turn = ask(provider, registry)
    assert turn.text == "I understood: nothing to record."
    assert turn.usage == Usage(input_tokens=52, output_tokens=38, cache_read=0, cache_write=0)


def test_an_unreadable_answer_is_a_provider_error_not_a_crash(request, registry, ctx):
    provider, _wire = claude(request, "unreadable_answer", live_ok=False)
    with pytest.raises(ProviderError) as caught:
        ask(provider, registry)
    assert caught.value.kind == "bad_response"
    assert str(caught.value).startswith("Claude answered in an unexpected shape")


def test_models_without_adaptive_thinking_get_the_budget_form_and_no_effort(request, registry):
    # Haiku 4.5 (and the other 4.5 models) only know thinking with a token budget and may refuse effort.
    provider, wire = claude(request, "end_turn_cached", live_ok=False, model="claude-haiku-4-5")
    ask(provider, registry)
    (body,) = wire.replay.bodies()
    assert body["model"] == "claude-haiku-4-5"
    assert body["thinking"]["type"] == "enabled"
    assert body["thinking"]["budget_tokens"] == 4000  # ClaudeOptions' budget, under max_tokens 8000
    assert "output_config" not in body


@pytest.mark.parametrize(
    ("model", "max_tokens", "thinking", "effort"),
    [
        ("claude-opus-5-5", 8000, "adaptive", "medium"),
        ("claude-sonnet-5-5-20260301", 8000, "adaptive", "medium"),
        ("claude-sonnet-4-5", 8000, "enabled", None),
        ("claude-haiku-4-5", 3000, "enabled", None),  # budget cut to 1500, under max_tokens
        ("claude-haiku-4-5", 2000, None, None),  # no budget of at least 1024 fits under 2000: no thinking
        ("claude-next-unknown", 8000, None, None),  # not in the table: nothing it could refuse
    ],
)
def test_thinking_form_and_effort_come_from_the_model_table(registry, model, max_tokens, thinking, effort):
    request = ModelRequest(SYSTEM, registry.specs(), [UserText("n")], max_tokens=max_tokens)
    params = build_params(request, model, ClaudeOptions())
    assert params.get("thinking", {}).get("type") == thinking
    if thinking == "enabled":
        assert 1024 <= params["thinking"]["budget_tokens"] < max_tokens
    assert params.get("output_config", {}).get("effort") == effort


def test_the_turn_after_a_fallback_is_echoed_by_the_documented_rules(request, registry, ctx):
    # The next request keeps the fallback block and what follows it, and drops the declining model's
    # thinking and client tool_use blocks before it.
    provider, wire = claude(request, "fallback_then_tool_use", live_ok=False)
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.END_TURN
    assert ctx.seen == {"Rosa"}  # only the serving model's call ran
    _first, second = wire.replay.bodies()
    echoed = second["messages"][1]
    assert echoed["role"] == "assistant"
    assert [b["type"] for b in echoed["content"]] == ["fallback", "thinking", "tool_use"]
    assert echoed["content"][2]["id"] == "toolu_01Served0a1b2c3d4e5f6g7h"
    assert second["messages"][2]["content"][0]["tool_use_id"] == "toolu_01Served0a1b2c3d4e5f6g7h"


def test_text_before_a_fallback_block_is_kept_when_echoed(registry):
    native = [
        {"type": "text", "text": "I underst"},
        {"type": "redacted_thinking", "data": "abc"},
        {"type": "fallback", "from": {"model": "a"}, "to": {"model": "b"}},
        {"type": "text", "text": "Done."},
    ]
    from shopfloor.agent.providers.base import Turn

    turn = Turn(StopReason.END_TURN, text="Done.", native=native)
    request = ModelRequest(SYSTEM, registry.specs(), [UserText("n"), AssistantTurn(turn), UserText("more")])
    content = build_params(request, "claude-opus-5-5", ClaudeOptions())["messages"][1]["content"]
    assert [b["type"] for b in content] == ["text", "fallback", "text"]
