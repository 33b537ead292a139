"""Choosing the live provider for a model name, and keys read from the environment only."""

from datetime import date

import pytest

from shopfloor.agent.providers import ProviderConfigError, default_live_model, make_provider
from shopfloor.agent.providers.anthropic_provider import AnthropicProvider
from shopfloor.agent.providers.base import ModelRequest, UserText
from shopfloor.agent.providers.factory import provider_for_model
from shopfloor.agent.providers.gemini_provider import GeminiProvider
from shopfloor.agent.providers.openai_provider import OpenAIProvider
from shopfloor.agent.providers.replay import Replay
from shopfloor.settings import Settings
from tests.agent.wire import RECORDINGS

KEYS = ("GEMINI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in KEYS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("SHOPFLOOR_PROVIDER", raising=False)


@pytest.mark.parametrize(
    ("model", "provider"),
    [
        ("gemini-2.5-flash-lite", "gemini"),
        ("models/gemini-2.5-flash", "gemini"),
        ("claude-opus-5-5", "anthropic"),
        ("claude-haiku-4-5-20251001", "anthropic"),
        ("gpt-5-mini", "openai"),
        ("gpt-4.1-mini", "openai"),
        ("o4-mini", "openai"),
    ],
)
def test_model_names_pick_their_provider(model, provider):
    assert provider_for_model(model) == provider


def test_unknown_model_family_is_a_clear_error():
    with pytest.raises(ProviderConfigError, match="cannot tell which provider serves model 'llama-3'"):
        provider_for_model("llama-3")
    with pytest.raises(ProviderConfigError, match="offline"):
        make_provider("offline", Settings())


def test_settings_provider_overrides_the_name():
    assert provider_for_model("my-tuned-model", Settings(provider="anthropic")) == "anthropic"
    with pytest.raises(ProviderConfigError, match="unknown provider 'mistral'"):
        provider_for_model("x", Settings(provider="mistral"))


@pytest.mark.parametrize(
    ("model", "env"),
    [
        ("gemini-2.5-flash-lite", "GEMINI_API_KEY"),
        ("claude-opus-5-5", "ANTHROPIC_API_KEY"),
        ("gpt-5-mini", "OPENAI_API_KEY"),
    ],
)
def test_missing_key_names_the_variable_to_set(model, env):
    with pytest.raises(ProviderConfigError) as caught:
        make_provider(model, Settings())
    assert str(caught.value) == f"model {model!r} needs {env} in the environment"


def test_each_family_builds_its_adapter(monkeypatch):
    for name in KEYS:
        monkeypatch.setenv(name, "test-key-value")
    settings = Settings(provider_max_retries=1)
    assert isinstance(make_provider("gemini-2.5-flash-lite", settings), GeminiProvider)
    assert isinstance(make_provider("claude-haiku-4-5", settings), AnthropicProvider)
    claude = make_provider("claude-haiku-4-5", settings)
    # The setting is the loop's retry policy; the SDK client makes no retries of its own.
    assert claude.retry.max_retries == 1 and claude._client.max_retries == 0
    gpt = make_provider("gpt-4.1-mini", settings, today=date(2026, 12, 1))  # it retires 2027-01-14
    assert isinstance(gpt, OpenAIProvider) and gpt.model == "gpt-4.1-mini"


def test_default_live_model_prefers_gemini_then_the_others(monkeypatch):
    assert default_live_model(Settings()) is None
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert default_live_model(Settings()) == "gpt-6.1-terra"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert default_live_model(Settings()) == "claude-opus-5-5"
    monkeypatch.setenv("GEMINI_API_KEY", "k")
    assert default_live_model(Settings()) == "gemini-2.5-flash-lite"
    assert default_live_model(Settings(provider="openai")) == "gpt-6.1-terra"


def test_factory_provider_answers_through_a_given_http_client(monkeypatch, registry):
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-value")
    replay = Replay.from_file(RECORDINGS / "gemini" / "max_tokens.json")
    provider = make_provider("gemini-2.5-flash-lite", Settings(), http_client=replay.http_client())
    turn = provider.complete(ModelRequest("s", registry.specs(), [UserText("n")]))
    assert turn.raw_stop_reason == "MAX_TOKENS" and len(replay.calls) == 1
