"""Tool definitions: a name, a description, an access level, a pydantic argument model and a handler.

The JSON schema sent to a provider is generated once from the argument model and made *strict*: every
property required, ``additionalProperties: false`` on every object, nullable fields as
``anyOf [..., {"type": "null"}]``, enums kept, and keywords strict modes reject (lengths, ranges,
formats, defaults) dropped. Ranges strict mode cannot express are re-checked by the handler.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, Literal, NoReturn, TypeVar

from pydantic import BaseModel

Access = Literal["read", "propose"]
# The app's run context (the workshop's agent context, the investigator's evidence context): the core passes it
# through untouched, and the type parameter lets mypy check that each handler gets its own app's context.
CtxT = TypeVar("CtxT")
ArgsT = TypeVar("ArgsT", bound=BaseModel)

# Keywords every provider's strict mode accepts. Everything else (title, default, minLength, maximum,
# minItems, pattern, format, ...) is removed from the generated schema.
_KEPT_KEYWORDS = {
    "type",
    "description",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
}


class ToolError(Exception):
    """Raised by a handler for a bad call the model can fix; the message is shown to the model as-is."""


@dataclass(frozen=True)
class ToolResult:
    """What a tool call returns to the model: JSON-able content, or a plain error message."""

    call_id: str
    name: str
    content: Any
    is_error: bool = False


@dataclass(frozen=True)
class Tool(Generic[CtxT, ArgsT]):
    """One tool. ``handler(ctx, args)`` returns JSON-able content or raises :class:`ToolError`.

    ``CtxT`` is the app's run context, ``ArgsT`` the argument model.
    """

    name: str
    description: str
    access: Access
    args: type[ArgsT]
    handler: Callable[[CtxT, ArgsT], Any]
    # A hand-written schema overrides the generated one where the app's docs fix the exact wording.
    schema_override: dict[str, Any] | None = field(default=None, compare=False)

    @cached_property
    def parameters(self) -> dict[str, Any]:
        """The strict JSON schema of the arguments (generated once)."""
        if self.schema_override is not None:
            return copy.deepcopy(self.schema_override)
        return strict_schema(self.args)

    def spec(self) -> dict[str, Any]:
        """Provider-neutral description: name, description and strict parameters."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


class ToolRegistry(Generic[CtxT]):
    """Tools of one app in a fixed order (the order is part of the cached prompt prefix)."""

    def __init__(self, tools: Iterable[Tool[CtxT, Any]]) -> None:
        self._tools: dict[str, Tool[CtxT, Any]] = {}
        for tool in tools:
            if tool.name in self._tools:
                raise ValueError(f"duplicate tool name {tool.name!r}")
            self._tools[tool.name] = tool
        self._specs: tuple[dict[str, Any], ...] = tuple(_frozen(tool.spec()) for tool in self._tools.values())

    def __iter__(self) -> Iterator[Tool[CtxT, Any]]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def get(self, name: str) -> Tool[CtxT, Any] | None:
        """The tool called ``name``, or None."""
        return self._tools.get(name)

    @property
    def names(self) -> list[str]:
        """Tool names in registry order."""
        return list(self._tools)

    def specs(self) -> Sequence[dict[str, Any]]:
        """Neutral specs in registry order, built once and read-only, so callers share them without copying."""
        return self._specs

    def subset(self, names: Iterable[str]) -> ToolRegistry[CtxT]:
        """A registry of the named tools, keeping this registry's order."""
        wanted = set(names)
        return ToolRegistry(t for t in self._tools.values() if t.name in wanted)


def _refuse(*_args: object, **_kwargs: object) -> NoReturn:
    raise TypeError("tool specs are read-only")


class _FrozenDict(dict[str, Any]):
    """A dict that refuses changes; still a dict, so JSON encoders and SDKs take it as one."""

    __setitem__ = __delitem__ = _refuse  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = __ior__ = _refuse  # type: ignore[assignment]

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class _FrozenList(list[Any]):
    """A list that refuses changes (see :class:`_FrozenDict`)."""

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse  # type: ignore[assignment]

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(value, memo) for value in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def _frozen(node: Any) -> Any:
    """A read-only copy of a JSON-like tree."""
    if isinstance(node, dict):
        return _FrozenDict({key: _frozen(value) for key, value in node.items()})
    if isinstance(node, list):
        return _FrozenList(_frozen(value) for value in node)
    return node


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The strict JSON schema for ``model``: refs inlined, every object closed and fully required."""
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    return _strictify(_inline_refs(raw, defs))


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[-1]]
            merged = {**_inline_refs(target, defs), **{k: v for k, v in node.items() if k != "$ref"}}
            return _inline_refs(merged, defs)
        return {key: _inline_refs(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    return node


def _strictify(node: dict[str, Any]) -> dict[str, Any]:
    if "allOf" in node and len(node["allOf"]) == 1:
        # pydantic wraps a described reference in allOf; a single entry is the referenced schema itself.
        inner = node.pop("allOf")[0]
        node = {**inner, **node}
    if "const" in node:
        node = {**node, "enum": [node.pop("const")]}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key not in _KEPT_KEYWORDS:
            continue
        if key == "properties":
            out[key] = {name: _strictify(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = _strictify(value)
        elif key == "anyOf":
            out[key] = [_strictify(sub) for sub in value]
        else:
            out[key] = value
    if out.get("type") == "object" or "properties" in out:
        out["type"] = "object"
        out.setdefault("properties", {})
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def schema_problems(schema: dict[str, Any], path: str = "$") -> list[str]:
    """Everything in ``schema`` that a strict provider mode would reject (empty list when it is strict)."""
    problems: list[str] = []
    extra = set(schema) - _KEPT_KEYWORDS
    if extra:
        problems.append(f"{path}: unsupported keywords {sorted(extra)}")
    if "anyOf" not in schema and "type" not in schema:
        problems.append(f"{path}: no type")
    if schema.get("type") == "object":
        props = schema.get("properties")
        if props is None:
            problems.append(f"{path}: object without properties")
            props = {}
        if schema.get("additionalProperties") is not False:
            problems.append(f"{path}: additionalProperties is not false")
        if sorted(schema.get("required", [])) != sorted(props):
            problems.append(f"{path}: required does not list every property")
        for name, sub in props.items():
            problems.extend(schema_problems(sub, f"{path}.{name}"))
    if schema.get("type") == "array":
        if "items" not in schema:
            problems.append(f"{path}: array without items")
        else:
            problems.extend(schema_problems(schema["items"], f"{path}[]"))
    for i, sub in enumerate(schema.get("anyOf", [])):
        problems.extend(schema_problems(sub, f"{path}|{i}"))
    return problems
