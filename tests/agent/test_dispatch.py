"""Dispatch validates in code and never raises into the loop."""

import logging

from shopfloor.agent.dispatch import HANDLER_FAILED, dispatch, planner_data
from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.tools import Tool, ToolRegistry
from shopfloor.agent.trace import Trace

from .conftest import LookupArgs


def test_valid_call_runs_the_handler_and_records_a_step(registry, ctx):
    trace = Trace()
    result = dispatch(registry, ctx, ToolCall("c1", "lookup", {"name": "Rosa"}), trace)
    assert not result.is_error and result.content == {"matches": ["Rosa"]}
    step = trace.to_list()[0]
    assert step["kind"] == "tool_call" and step["access"] == "read" and step["input"] == {"name": "Rosa"}


def test_unknown_tool_is_an_error_result_naming_the_real_tools(registry, ctx):
    result = dispatch(registry, ctx, ToolCall("c1", "delete_everything", {}))
    assert result.is_error and "lookup" in result.content and "propose" in result.content


def test_invalid_arguments_are_an_error_result(registry, ctx):
    for arguments in ({}, {"name": 5}, "not an object", {"name": "x", "extra": 1}):
        result = dispatch(registry, ctx, ToolCall("c1", "lookup", arguments))
        assert result.is_error, arguments
        assert "lookup" in result.content


def test_tool_error_message_reaches_the_model(registry, ctx):
    result = dispatch(registry, ctx, ToolCall("c1", "propose", {"item": "never-seen"}))
    assert result.is_error and result.content == "Look it up first."


def test_handler_exception_is_logged_not_shown(registry, ctx, caplog):
    logger = logging.getLogger("shopfloor")
    logger.propagate = True
    try:
        with caplog.at_level(logging.ERROR):
            result = dispatch(registry, ctx, ToolCall("c1", "lookup", {"name": "boom"}))
    finally:
        logger.propagate = False
    assert result.is_error and result.content == HANDLER_FAILED
    assert "secret internal detail" not in result.content
    assert any("secret internal detail" in (r.exc_text or "") or r.exc_info for r in caplog.records)


def test_planner_data_reaches_the_handler_only_when_passed(registry, ctx):
    seen = []

    def look(_ctx, _args):
        seen.append(dict(planner_data()))
        return {}

    tools = ToolRegistry([Tool("lookup", "Find things.", "read", LookupArgs, look)])
    attached = ToolCall("c1", "lookup", {"name": "Rosa"}, local={"texts": {"why": {"code": "x"}}})
    dispatch(tools, ctx, attached)  # the call's own ``local`` is never read
    dispatch(tools, ctx, attached, local=attached.local)
    assert seen == [{}, {"texts": {"why": {"code": "x"}}}]
    assert dict(planner_data()) == {}  # nothing outside a handler
    # Planner data is not part of a call's identity.
    assert attached == ToolCall("c1", "lookup", {"name": "Rosa"})
