"""Claude (Messages API): per-request caps on strict tools, optional and union-typed parameters."""

from __future__ import annotations

from shopfloor.agent.providers.profiles.base import ModelProfile, StrictLimits

ANTHROPIC = ModelProfile(
    family="anthropic",
    label="Claude",
    strict=StrictLimits(
        max_strict_tools=20, max_optional_params=24, max_union_params=16, enum_scalars_only=True
    ),
    max_request_bytes=64 * 1024,
    default_model="claude-opus-5-5",
    model_pattern=r"claude",
)
