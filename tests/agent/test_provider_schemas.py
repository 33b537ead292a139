"""Every generated tool schema meets each provider's strict-mode rules; broken ones are caught."""

from enum import StrEnum
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from shopfloor.agent.providers.profiles import depth, provider_schema_problems
from shopfloor.agent.tools import strict_schema

PROVIDERS = ["anthropic", "openai", "gemini"]


class Grade(StrEnum):
    STANDARD = "Standard"
    FINO = "Fino"
    SUPERFINO = "Superfino"


class Point(BaseModel):
    x: float
    y: float = 0.0


class Line(BaseModel):
    label: str = Field(description="Shown to the person.", min_length=1, max_length=40)
    points: list[Point] = Field(min_length=2)


class Flat(BaseModel):
    name: str
    count: int = Field(ge=1, le=50)
    active: bool


class Nested(BaseModel):
    line: Line
    note: str | None = None


class ListsOfObjects(BaseModel):
    lines: list[Line]
    tags: list[str]


class NullableEnums(BaseModel):
    grade: Grade | None = None
    stage: Literal["Weaving", "Washing", "Bleaching"] | None = None


class Literals(BaseModel):
    kind: Literal["create"]
    confidence: Literal["high", "check"]


class Optionals(BaseModel):
    rows: int | None = None
    ratio: float | None = None
    where: Point | None = None
    choices: list[str] | None = None


MODELS = [Flat, Nested, ListsOfObjects, NullableEnums, Literals, Optionals]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_generated_schemas_meet_each_providers_rules(provider, model):
    assert provider_schema_problems(provider, strict_schema(model)) == []


def test_nullable_enum_and_literal_shapes():
    schema = strict_schema(NullableEnums)
    assert schema["properties"]["grade"] == {
        "anyOf": [{"type": "string", "enum": ["Standard", "Fino", "Superfino"]}, {"type": "null"}]
    }
    assert strict_schema(Literals)["properties"]["kind"] == {"type": "string", "enum": ["create"]}
    where = strict_schema(Optionals)["properties"]["where"]["anyOf"][0]
    assert where["additionalProperties"] is False and where["required"] == ["x", "y"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_open_objects_and_missing_required_are_reported(provider):
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}},
        "required": [],
    }
    problems = provider_schema_problems(provider, schema)
    assert "$: additionalProperties is not false" in problems
    assert "$: required does not list every property" in problems
    assert "$.a: additionalProperties is not false" in problems


@pytest.mark.parametrize("provider", PROVIDERS)
def test_unsupported_keywords_and_non_object_roots_are_reported(provider):
    problems = provider_schema_problems(provider, {"anyOf": [{"type": "string", "minLength": 3}]})
    assert "$: the root of a tool schema must be a plain object" in problems
    assert "$|0: unsupported keywords ['minLength']" in problems


def test_gemini_enums_must_be_strings_and_claude_scalars():
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "enum": [1, 2]}, "o": {"type": "string", "enum": [{"a": 1}]}},
        "required": ["n", "o"],
        "additionalProperties": False,
    }
    assert "$.n: Gemini enums hold strings only" in provider_schema_problems("gemini", schema)
    assert "$.o: Claude enums hold scalar values only" in provider_schema_problems("anthropic", schema)
    assert not [p for p in provider_schema_problems("openai", schema) if "enum" in p]


def test_openai_depth_limit():
    node = {"type": "string"}
    for level in range(11):
        node = {
            "type": "object",
            "properties": {f"l{level}": node},
            "required": [f"l{level}"],
            "additionalProperties": False,
        }
    assert depth(node) == 11
    assert "$: nested deeper than 10 object levels" in provider_schema_problems("openai", node)
    assert not [p for p in provider_schema_problems("gemini", node) if "deeper" in p]


def _spec(name, properties, required=None):
    return {
        "name": name,
        "description": "d",
        "parameters": {
            "type": "object",
            "properties": properties,
            "required": list(properties) if required is None else required,
            "additionalProperties": False,
        },
    }


NULLABLE = {"anyOf": [{"type": "string"}, {"type": "null"}]}


def test_a_registry_within_every_providers_limits_passes(registry):
    from shopfloor.agent.providers.profiles import registry_problems

    for provider in ("anthropic", "openai", "gemini"):
        assert registry_problems(provider, registry.specs()) == []


def test_anthropic_refuses_more_than_20_strict_tools():
    from shopfloor.agent.providers.profiles import registry_problems

    specs = [_spec(f"t{i}", {"a": {"type": "string"}}) for i in range(21)]
    assert registry_problems("anthropic", specs) == ["request: 21 strict tools, Claude accepts at most 20"]
    assert registry_problems("anthropic", specs[:20]) == []
    assert registry_problems("openai", specs) == []


def test_anthropic_refuses_more_than_16_union_parameters():
    from shopfloor.agent.providers.profiles import registry_problems

    # 17 nullable parameters over two tools: 17 union-typed parameters in one request.
    specs = [
        _spec("a", {f"p{i}": NULLABLE for i in range(9)}),
        _spec("b", {f"q{i}": NULLABLE for i in range(8)}),
    ]
    assert registry_problems("anthropic", specs) == [
        "request: 17 parameters with union types, Claude accepts at most 16"
    ]
    assert registry_problems("anthropic", specs[:1]) == []
    type_list = [_spec("c", {f"r{i}": {"type": ["string", "null"]} for i in range(17)})]
    assert "request: 17 parameters with union types, Claude accepts at most 16" in registry_problems(
        "anthropic", type_list
    )


def test_anthropic_refuses_more_than_24_optional_parameters():
    from shopfloor.agent.providers.profiles import registry_problems

    specs = [_spec("a", {f"p{i}": {"type": "string"} for i in range(25)}, required=[])]
    problems = registry_problems("anthropic", specs)
    assert "request: 25 optional parameters, Claude accepts at most 24" in problems


def test_gemini_refuses_integer_enums():
    from shopfloor.agent.providers.profiles import registry_problems

    specs = [_spec("a", {"size": {"type": "integer", "enum": [1, 2, 3]}})]
    problems = registry_problems("gemini", specs)
    assert problems and all(p.startswith("a: ") for p in problems)
    assert any("Gemini enums hold strings only" in p for p in problems)
    assert registry_problems("anthropic", specs) == []
