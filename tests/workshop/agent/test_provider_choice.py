"""Offline by default with no key; Gemini 2.5 Flash-Lite by default when GEMINI_API_KEY is set."""

from __future__ import annotations

import pytest

from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.agent.providers.gemini_provider import GeminiProvider
from shopfloor.settings import Settings
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.provider_choice import choose_provider, chosen_model

KEYS = ("GEMINI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SHOPFLOOR_MODEL", "SHOPFLOOR_PROVIDER")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)


def test_no_key_means_the_offline_reader():
    assert chosen_model(None, Settings()) == "offline"
    assert isinstance(choose_provider(None, Settings()), OfflineReader)


def test_a_gemini_key_makes_flash_lite_the_default(monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    assert chosen_model(None, Settings()) == "gemini-2.5-flash-lite"
    provider = choose_provider(None, Settings())
    assert isinstance(provider, GeminiProvider) and provider.model == "gemini-2.5-flash-lite"


def test_offline_asked_for_wins_over_a_key(monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    assert isinstance(choose_provider("offline", Settings()), OfflineReader)
    assert isinstance(choose_provider(None, Settings(model="offline")), OfflineReader)


def test_a_live_model_without_its_key_is_refused():
    with pytest.raises(ProviderConfigError) as caught:
        choose_provider("claude-opus-5-5", Settings())
    assert "ANTHROPIC_API_KEY" in str(caught.value)


def test_anthropic_or_openai_by_key_or_by_setting(monkeypatch):
    from shopfloor.agent.providers.factory import DEFAULT_MODELS

    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key-not-real")
    assert chosen_model(None, Settings()) == DEFAULT_MODELS["anthropic"]
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    assert chosen_model(None, Settings()) == "gemini-2.5-flash-lite"  # Gemini first when both keys are set
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-real")
    assert chosen_model(None, Settings(provider="openai")) == DEFAULT_MODELS["openai"]
    assert chosen_model(None, Settings(provider="anthropic")) == DEFAULT_MODELS["anthropic"]
