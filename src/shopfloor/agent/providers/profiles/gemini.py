"""Gemini (google-genai): string-only enums, so enums on other types are rewritten into words."""

from __future__ import annotations

from typing import Any

from shopfloor.agent.providers.profiles.base import ModelProfile, StrictLimits


def gemini_schema(node: Any) -> Any:
    """``node`` with every enum on a non-string type replaced by the type alone and its values in words
    (Gemini's strict mode takes string enums only; dispatch still validates the argument model)."""
    if isinstance(node, list):
        return [gemini_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: gemini_schema(value) for key, value in node.items()}
    enum = out.get("enum")
    if enum is not None and (
        out.get("type") not in (None, "string") or not all(isinstance(v, str) for v in enum)
    ):
        out.pop("enum")
        values = ", ".join(str(v) for v in enum)
        text = out.get("description", "")
        out["description"] = f"{text} One of: {values}.".strip()
    return out


def _gemini_tool_schema(schema: dict[str, Any]) -> dict[str, Any]:
    rewritten: dict[str, Any] = gemini_schema(schema)
    return rewritten


GEMINI = ModelProfile(
    family="gemini",
    label="Gemini",
    strict=StrictLimits(enum_strings_only=True),
    max_request_bytes=64 * 1024,  # the same cap as Claude's
    default_model="gemini-2.5-flash-lite",
    model_pattern=r"gemini",
    schema_transformer=_gemini_tool_schema,
)
