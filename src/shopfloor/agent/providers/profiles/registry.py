"""The profiles of every family, in the order a live default is looked for (Gemini first)."""

from __future__ import annotations

from shopfloor.agent.providers.profiles.anthropic import ANTHROPIC
from shopfloor.agent.providers.profiles.base import ModelProfile
from shopfloor.agent.providers.profiles.chat_completions import LOCAL
from shopfloor.agent.providers.profiles.gemini import GEMINI
from shopfloor.agent.providers.profiles.openai import OPENAI

PROFILES: dict[str, ModelProfile] = {p.family: p for p in (GEMINI, ANTHROPIC, OPENAI, LOCAL)}


def profile_named(family: str) -> ModelProfile:
    """The profile of ``family`` (``gemini``, ``anthropic``, ``openai`` or ``openai-compatible``); KeyError
    for any other name."""
    return PROFILES[family]


def family_serving(model: str) -> str | None:
    """The family whose model names match ``model``, or None when no family's do."""
    for profile in PROFILES.values():
        if profile.serves(model):
            return profile.family
    return None
