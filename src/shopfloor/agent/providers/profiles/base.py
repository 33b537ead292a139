"""What a profile holds: the facts about one provider family that both apps and the adapters rely on."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SchemaTransformer = Callable[[dict[str, Any]], dict[str, Any]]


def same_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema unchanged: for a family whose strict mode takes our strict schemas as they are."""
    return schema


@dataclass(frozen=True)
class StrictLimits:
    """What one request with strict tools may hold; None or False means no documented limit."""

    max_strict_tools: int | None = None
    max_optional_params: int | None = None
    max_union_params: int | None = None
    enum_strings_only: bool = False
    enum_scalars_only: bool = False
    max_depth: int | None = None
    max_properties: int | None = None
    max_enum_values: int | None = None


@dataclass(frozen=True)
class ModelProfile:
    """One provider family: its name, the models it serves, its strict-schema limits, how a tool schema is
    rewritten for it, and how large a serialized live request may grow (docs/providers.md).

    Apps ask a profile (``profile_for(model, settings)``) instead of testing a provider name."""

    family: str  # "gemini", "anthropic", "openai" or "openai-compatible"
    label: str  # how messages name it: "Gemini", "Claude", "OpenAI", "the server"
    strict: StrictLimits
    max_request_bytes: int  # the serialized request a live tool loop is held to
    default_model: str | None = None  # None: no default (a local server serves what SHOPFLOOR_MODEL names)
    model_pattern: str | None = None  # model names this family serves; None: chosen only by setting
    schema_transformer: SchemaTransformer = field(default=same_schema)

    def serves(self, model: str) -> bool:
        """Whether ``model`` (``models/`` prefix allowed) names a model of this family."""
        name = model.removeprefix("models/")
        return self.model_pattern is not None and re.match(self.model_pattern, name) is not None

    def tool_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """A copy of a tool's strict parameter ``schema`` as this family's strict mode takes it."""
        return self.schema_transformer(copy.deepcopy(schema))
