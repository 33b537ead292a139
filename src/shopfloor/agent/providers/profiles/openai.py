"""OpenAI (Responses API): strict mode caps nesting depth, total properties and total enum values."""

from __future__ import annotations

from shopfloor.agent.providers.profiles.base import ModelProfile, StrictLimits

OPENAI_STRICT = StrictLimits(max_depth=10, max_properties=5000, max_enum_values=1000)

OPENAI = ModelProfile(
    family="openai",
    label="OpenAI",
    strict=OPENAI_STRICT,
    max_request_bytes=24 * 1024,
    default_model="gpt-6.1-terra",
    model_pattern=r"gpt|o\d",
)
