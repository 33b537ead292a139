"""One profile per provider family: what apps ask instead of a provider name."""

from __future__ import annotations

import pytest

from shopfloor.agent.providers import DEFAULT_MODELS, ProviderConfigError, profile_for
from shopfloor.agent.providers.profiles import PROFILES, profile_named
from shopfloor.settings import Settings


def test_each_model_family_has_its_profile():
    assert profile_for("gemini-2.5-flash-lite").family == "gemini"
    assert profile_for("models/gemini-2.5-flash-lite").family == "gemini"
    assert profile_for("claude-opus-5-5").family == "anthropic"
    assert profile_for("gpt-6.1-terra").family == "openai"
    assert profile_for("o4-mini").family == "openai"
    assert profile_for("qwen3-8b", Settings(provider="openai-compatible")).family == "openai-compatible"
    with pytest.raises(ProviderConfigError):
        profile_for("llama3")


def test_the_default_models_come_from_the_profiles_gemini_first():
    assert list(DEFAULT_MODELS) == ["gemini", "anthropic", "openai"]
    assert all(PROFILES[family].default_model == model for family, model in DEFAULT_MODELS.items())


def test_request_caps_and_strict_limits_per_family():
    assert profile_named("openai").max_request_bytes == 24 * 1024
    assert profile_named("openai-compatible").max_request_bytes == 24 * 1024
    assert profile_named("anthropic").max_request_bytes == 64 * 1024
    assert profile_named("gemini").max_request_bytes == 64 * 1024
    assert profile_named("anthropic").strict.max_strict_tools == 20
    assert profile_named("openai-compatible").strict == profile_named("openai").strict


def test_only_gemini_rewrites_integer_enums_into_words_and_the_original_is_kept():
    schema = {
        "type": "object",
        "properties": {"shift": {"type": "integer", "enum": [1, 2, 3], "description": "Shift."}},
        "required": ["shift"],
        "additionalProperties": False,
    }
    rewritten = profile_named("gemini").tool_schema(schema)
    assert rewritten["properties"]["shift"] == {"type": "integer", "description": "Shift. One of: 1, 2, 3."}
    assert schema["properties"]["shift"]["enum"] == [1, 2, 3]
    for family in ("anthropic", "openai", "openai-compatible"):
        assert profile_named(family).tool_schema(schema) == schema
