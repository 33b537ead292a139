"""Strict schema generation and the registry."""

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from shopfloor.agent.tools import Tool, ToolRegistry, schema_problems, strict_schema


class Choice(BaseModel):
    label: str
    weaver_id: str | None


class Args(BaseModel):
    name: str = Field(description="Name as heard.", min_length=1, max_length=60)
    stage: Literal["Weaving", "Washing"] | None
    count: int = Field(ge=1, le=20)
    choices: list[Choice]
    open_only: bool = True


def test_strict_schema_closes_every_object_and_requires_every_property():
    schema = strict_schema(Args)
    assert schema["additionalProperties"] is False
    assert sorted(schema["required"]) == ["choices", "count", "name", "open_only", "stage"]
    item = schema["properties"]["choices"]["items"]
    assert item["additionalProperties"] is False and sorted(item["required"]) == ["label", "weaver_id"]
    assert schema_problems(schema) == []


def test_strict_schema_keeps_enums_and_nullable_as_anyof_null():
    stage = strict_schema(Args)["properties"]["stage"]
    assert {"type": "null"} in stage["anyOf"]
    assert {"type": "string", "enum": ["Weaving", "Washing"]} in stage["anyOf"]


def test_strict_schema_drops_keywords_strict_modes_reject():
    props = strict_schema(Args)["properties"]
    assert props["name"] == {"type": "string", "description": "Name as heard."}
    assert props["count"] == {"type": "integer"}
    assert "default" not in props["open_only"] and "title" not in props["open_only"]


def test_schema_problems_finds_open_objects_and_missing_required():
    bad = {"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}, "required": []}
    problems = schema_problems(bad)
    assert any("additionalProperties" in p for p in problems)
    assert any("required" in p for p in problems)
    assert any("minLength" in p for p in problems)


def test_registry_keeps_order_and_refuses_duplicates():
    def handler(ctx, args):
        return {}

    tools = [Tool(n, "d", "read", Args, handler) for n in ("b_tool", "a_tool", "c_tool")]
    registry = ToolRegistry(tools)
    assert registry.names == ["b_tool", "a_tool", "c_tool"]
    assert [s["name"] for s in registry.specs()] == ["b_tool", "a_tool", "c_tool"]
    with pytest.raises(ValueError):
        ToolRegistry([tools[0], tools[0]])


def test_schemas_are_generated_once_and_callers_cannot_corrupt_them(monkeypatch):
    from shopfloor.agent import tools as tools_module

    calls = []
    real = tools_module.strict_schema
    monkeypatch.setattr(tools_module, "strict_schema", lambda model: calls.append(model) or real(model))
    registry = ToolRegistry([Tool("t", "d", "read", Args, lambda ctx, args: {})])
    first = registry.specs()
    with pytest.raises(TypeError):
        first[0]["parameters"]["properties"].clear()
    with pytest.raises(TypeError):
        first[0]["parameters"]["required"].append("x")
    with pytest.raises(TypeError):
        first[0]["name"] = "other"
    for _ in range(5):
        assert registry.specs()[0]["parameters"]["properties"] != {}
    assert calls == [Args]


def test_a_hand_written_schema_overrides_the_generated_one():
    override = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
    tool = Tool("t", "d", "read", Args, lambda ctx, args: {}, schema_override=override)
    assert tool.parameters == override and tool.parameters is not override
