"""``shopfloor models`` prints the model table with sources and check dates and warns about old rows; an
unknown OpenAI model never fails on its second call."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    StopReason,
    ToolResults,
    Turn,
    UserText,
)
from shopfloor.agent.providers.openai_provider import OpenAIOptions, build_input, build_params
from shopfloor.agent.tools import ToolResult
from shopfloor.cli import app


def test_models_prints_every_row_with_its_source_and_date():
    result = CliRunner().invoke(app, ["models", "--json", "--today", "2026-12-01"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["stale"] == []
    rows = {row["model"]: row for row in data["models"]}
    assert rows["claude-sonnet-4-5"]["retires"] == "2026-11-30 (use claude-sonnet-5-5)"
    assert rows["gemini-2.5-flash"]["retires"] == "2026-12-01 (routed to gemini-3.5-flash-lite)"
    assert rows["gpt-4.1-mini"]["retires"] == "2027-01-14 (use gpt-6-luna)"
    assert rows["gemini-3.5-flash-lite"]["input"] == "0.3"
    assert rows["gemini-3.5-flash-lite"]["cache_read"] == "unknown"
    assert rows["gpt-6.1-sol"]["context"] == "1,050,000"
    assert all(row["checked"] == "2026-12-01" and "https://" in row["source"] for row in rows.values())
    assert "warning" not in result.stderr
    # Release dates and listed snapshots, as the vendors' pages give them (docs/providers.md, "Replay and record").
    assert rows["gpt-6.1-terra"]["released"] == "2026-10-26" and rows["gpt-6.1-terra"]["snapshots"] == ""
    assert rows["gpt-5-mini"]["snapshots"] == "gpt-5-mini-2025-08-07"


def test_models_warns_about_rows_older_than_60_days():
    result = CliRunner().invoke(app, ["models", "--today", "2027-02-15"])
    assert result.exit_code == 0
    assert "claude-opus-5-5" in result.stdout and "https://platform.claude.com" in result.stdout
    assert "warning: checked more than 60 days before 2027-02-15" in result.stderr
    assert "gpt-6.1-terra" in result.stderr


def test_models_refuses_a_bad_day():
    result = CliRunner().invoke(app, ["models", "--today", "soon"])
    assert result.exit_code == 2
    assert "2026-12-01" in result.output


def test_an_unknown_openai_model_drops_reasoning_it_could_not_send_back():
    # gpt-7-nova is no row of the table: no include is asked, so its reasoning items come without
    # encrypted content and would be refused ("Item with id 'rs_...' not found") if sent back.
    first = ModelRequest("s", [], [UserText("n")], model="gpt-7-nova")
    assert "include" not in build_params(first, "gpt-7-nova", OpenAIOptions())
    native = [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": "{}"},
    ]
    turn = Turn(StopReason.TOOL_USE, native=native)
    second = ModelRequest(
        "s", [], [UserText("n"), AssistantTurn(turn), ToolResults((ToolResult("c1", "lookup", {"ok": 1}),))]
    )
    items = build_input(second)
    assert [item.get("type") for item in items] == [None, "function_call", "function_call_output"]
    # A reasoning item with its encrypted content (a known reasoning model) goes back unchanged.
    kept = [{"type": "reasoning", "id": "rs_2", "summary": [], "encrypted_content": "gAAA"}]
    again = ModelRequest("s", [], [UserText("n"), AssistantTurn(Turn(StopReason.TOOL_USE, native=kept))])
    assert build_input(again)[1] == kept[0]
