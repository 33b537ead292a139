"""Each family's documented rules for strict tool schemas, on top of the shared strict checker.

``tools.schema_problems`` holds what every family shares (every property required, closed objects, only the
kept keywords). The checks here add what one family's :class:`StrictLimits` documents on its own; see
docs/providers.md, "Strict schemas, per provider".
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from shopfloor.agent.providers.profiles.base import ModelProfile
from shopfloor.agent.providers.profiles.registry import profile_named
from shopfloor.agent.tools import schema_problems

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


def _profile(provider: ModelProfile | str) -> ModelProfile:
    return provider if isinstance(provider, ModelProfile) else profile_named(provider)


def provider_schema_problems(provider: ModelProfile | str, schema: dict[str, Any]) -> list[str]:
    """Everything in a tool's parameter ``schema`` that ``provider``'s strict mode would reject
    (``provider``: a profile or its family name)."""
    profile = _profile(provider)
    limits = profile.strict
    problems = schema_problems(schema)
    if schema.get("type") != "object" or "anyOf" in schema:
        problems.append("$: the root of a tool schema must be a plain object")
    for path, node in walk(schema):
        node_type = node.get("type")
        if node_type is not None and (not isinstance(node_type, str) or node_type not in JSON_TYPES):
            problems.append(f"{path}: type must be one JSON type name, got {node_type!r}")
        enum = node.get("enum")
        if enum is not None:
            if not enum:
                problems.append(f"{path}: empty enum")
            if limits.enum_strings_only and (
                not all(isinstance(v, str) for v in enum) or node_type not in (None, "string")
            ):
                problems.append(f"{path}: {profile.label} enums hold strings only")
            if limits.enum_scalars_only and not all(
                v is None or isinstance(v, str | int | float | bool) for v in enum
            ):
                problems.append(f"{path}: {profile.label} enums hold scalar values only")
    nodes = [node for _path, node in walk(schema)]
    if limits.max_depth is not None and depth(schema) > limits.max_depth:
        problems.append(f"$: nested deeper than {limits.max_depth} object levels")
    if limits.max_properties is not None and (
        sum(len(n.get("properties", {})) for n in nodes) > limits.max_properties
    ):
        problems.append(f"$: more than {limits.max_properties} properties")
    if limits.max_enum_values is not None and (
        sum(len(n.get("enum", [])) for n in nodes) > limits.max_enum_values
    ):
        problems.append(f"$: more than {limits.max_enum_values} enum values")
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


def registry_problems(provider: ModelProfile | str, specs: Sequence[dict[str, Any]]) -> list[str]:
    """Everything ``provider`` would refuse in one request offering the tool ``specs`` (``registry.specs()``):
    each tool's schema problems, prefixed with the tool's name, and the family's per-request strict limits
    (Claude: at most 20 strict tools, 24 optional parameters, 16 parameters with union types).

    Apps call this on the registries they offer a live model; an empty list means the request is accepted.
    """
    profile = _profile(provider)
    problems = [
        f"{spec['name']}: {p}"
        for spec in specs
        for p in provider_schema_problems(profile, spec["parameters"])
    ]
    limits = profile.strict
    params = [param for spec in specs for param in parameters(spec["parameters"])]
    optional = sum(1 for _schema, required in params if not required)
    unions = sum(1 for schema, _required in params if is_union(schema))
    for count, limit, what in (
        (len(specs), limits.max_strict_tools, "strict tools"),
        (optional, limits.max_optional_params, "optional parameters"),
        (unions, limits.max_union_params, "parameters with union types"),
    ):
        if limit is not None and count > limit:
            problems.append(f"request: {count} {what}, {profile.label} accepts at most {limit}")
    return problems


def parameters(node: dict[str, Any]) -> Iterator[tuple[dict[str, Any], bool]]:
    """Every property of every object in a schema, with whether its object lists it as required."""
    required = set(node.get("required", []))
    for name, sub in node.get("properties", {}).items():
        yield sub, name in required
        yield from parameters(sub)
    if isinstance(node.get("items"), dict):
        yield from parameters(node["items"])
    for sub in node.get("anyOf", []):
        yield from parameters(sub)


def is_union(schema: dict[str, Any]) -> bool:
    """A union-typed parameter: ``anyOf`` (our nullable fields) or a list of types."""
    return "anyOf" in schema or isinstance(schema.get("type"), list)
