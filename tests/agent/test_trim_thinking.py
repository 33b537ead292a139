"""Trimming old tool results to fit the byte cap, with thinking blocks in the conversation."""

from pydantic import BaseModel

from shopfloor.agent.loop import TRIMMED, LoopLimits, Outcome, fit_request, run_loop
from shopfloor.agent.providers.anthropic_provider import AnthropicProvider
from shopfloor.agent.providers.base import AssistantTurn, StopReason, ToolCall, ToolResults, Turn, UserText
from shopfloor.agent.tools import Tool, ToolRegistry, ToolResult
from shopfloor.agent.trace import Trace
from tests.agent.wire import SYSTEM, open_wire

LOG = "line of the day's log; " * 150  # 3450 bytes


class DayArgs(BaseModel):
    day: str


def read_log(ctx, args: DayArgs):
    return {"day": args.day, "log": LOG}


def test_the_size_estimate_counts_thinking_blocks_and_signatures():
    thinking = {"type": "thinking", "thinking": "t" * 3000, "signature": "S" * 2000}
    call = {"type": "tool_use", "id": "c1", "name": "read_log", "input": {"day": "monday"}}
    turn = Turn(
        StopReason.TOOL_USE,
        tool_calls=(ToolCall("c1", "read_log", {"day": "monday"}),),
        native=[thinking, call],
    )
    messages = [UserText("n"), AssistantTurn(turn), ToolResults((ToolResult("c1", "read_log", "r" * 2000),))]
    # Counting only the call's arguments, this would fit in 6000 bytes untouched; with the 5000 bytes of
    # thinking and signature it only fits once the result is trimmed.
    assert fit_request(messages, "s", [], limit=6000)
    assert messages[2].results[0].content == TRIMMED
    assert not fit_request(list(messages), "s", [], limit=4000)


def test_trimming_a_result_before_a_thinking_block_lets_the_api_drop_that_block(request, ctx):
    wire = open_wire(request.config, "anthropic", "thinking_after_trim", live_ok=False)
    provider = AnthropicProvider(wire.key, http_client=wire.http_client)
    registry = ToolRegistry([Tool("read_log", "Read one day's log.", "read", DayArgs, read_log)])
    # The third request (two long results, two thinking turns) is over 7000 bytes; trimming the first
    # result brings it under.
    limits = LoopLimits(max_request_bytes=7000)
    outcome = run_loop(provider, SYSTEM, "Read Monday and Tuesday.", registry, ctx, Trace(), limits)
    replay = wire.replayed()
    assert outcome.outcome is Outcome.END_TURN, outcome.error
    third = replay.bodies()[2]
    results = [m for m in third["messages"] if m["role"] == "user" and isinstance(m["content"], list)]
    assert results[0]["content"][0]["content"] == TRIMMED
    assert LOG in results[1]["content"][0]["content"]
    # The second turn's thinking block was made after the untrimmed first result: it is still sent, and the
    # request tells the API to drop it rather than refuse the request (the default is a 400).
    assert third["messages"][3]["content"][0]["type"] == "thinking"
    assert third["thinking"]["block_binding"] == {"prefix_mismatch_behavior": "drop_block"}
    assert replay.problems == []
