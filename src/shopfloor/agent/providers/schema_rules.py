"""Each provider's documented rules for strict tool schemas, on top of the shared strict checker.

``tools.schema_problems`` holds what all three share (every property required, closed objects, only the
kept keywords). The checks here add what one provider documents on its own; see docs/providers.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from shopfloor.agent.tools import schema_problems

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

# OpenAI strict mode: nesting depth, total properties and total enum values are capped.
OPENAI_MAX_DEPTH = 10
OPENAI_MAX_PROPERTIES = 5000
OPENAI_MAX_ENUM_VALUES = 1000


def provider_schema_problems(provider: str, schema: dict[str, Any]) -> list[str]:
    """Everything in a tool's parameter ``schema`` that ``provider``'s strict mode would reject."""
    problems = schema_problems(schema)
    if schema.get("type") != "object" or "anyOf" in schema:
        problems.append("$: the root of a tool schema must be a plain object")
    for path, node in walk(schema):
        node_type = node.get("type")
        if node_type is not None and node_type not in JSON_TYPES:
            problems.append(f"{path}: type must be one JSON type name, got {node_type!r}")
        enum = node.get("enum")
        if enum is not None:
            if not enum:
                problems.append(f"{path}: empty enum")
            if provider == "gemini" and not all(isinstance(v, str) for v in enum):
                problems.append(f"{path}: Gemini enums hold strings only")
            if provider == "anthropic" and not all(
                v is None or isinstance(v, str | int | float | bool) for v in enum
            ):
                problems.append(f"{path}: Claude enums hold scalar values only")
    if provider == "openai":
        if depth(schema) > OPENAI_MAX_DEPTH:
            problems.append(f"$: nested deeper than {OPENAI_MAX_DEPTH} object levels")
        nodes = [node for _path, node in walk(schema)]
        if sum(len(n.get("properties", {})) for n in nodes) > OPENAI_MAX_PROPERTIES:
            problems.append(f"$: more than {OPENAI_MAX_PROPERTIES} properties")
        if sum(len(n.get("enum", [])) for n in nodes) > OPENAI_MAX_ENUM_VALUES:
            problems.append(f"$: more than {OPENAI_MAX_ENUM_VALUES} enum values")
    return problems


def walk(node: dict[str, Any], path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every sub-schema with its path."""
    yield path, node
    for name, sub in node.get("properties", {}).items():
        yield from walk(sub, f"{path}.{name}")
    if isinstance(node.get("items"), dict):
        yield from walk(node["items"], f"{path}[]")
    for index, sub in enumerate(node.get("anyOf", [])):
        yield from walk(sub, f"{path}|{index}")


def depth(node: dict[str, Any]) -> int:
    """Object nesting levels (the root object is level 1)."""
    children = list(node.get("properties", {}).values()) + list(node.get("anyOf", []))
    if isinstance(node.get("items"), dict):
        children.append(node["items"])
    below = max((depth(child) for child in children), default=0)
    return below + (1 if node.get("type") == "object" else 0)
