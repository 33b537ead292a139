"""The workshop's model choice refuses what it cannot serve with a clear error, before any run: a retired
model (naming its replacement) and a local server without a model name, on the CLI and the agent route
(docs/workshop-agent.md, "Contract" and "Live models")."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from shopfloor.agent.providers.chat_completions_provider import ChatCompletionsProvider
from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.settings import Settings
from shopfloor.workshop.agent.provider_choice import choose_provider
from shopfloor.workshop.store import models as m

from .conftest import SAMPLE_NOTE
from .test_http_cli import cli_env, db_path, make_client, post, rows, store, token  # noqa: F401 - fixtures

# Retired by Anthropic on 2026-11-30 (docs/pricing.md); the replacement the error must name.
RETIRED, REPLACEMENT = "claude-sonnet-4-5", "claude-sonnet-5-5"
LOCAL = {"provider": "openai-compatible", "base_url": "http://127.0.0.1:9/v1"}


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for key in (
        "GEMINI_API_KEY",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "SHOPFLOOR_MODEL",
        "SHOPFLOOR_PROVIDER",
    ):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.delenv("SHOPFLOOR_BASE_URL", raising=False)


def test_a_local_server_without_a_model_name_is_refused_not_served_offline():
    with pytest.raises(ProviderConfigError) as caught:
        choose_provider(None, Settings(**LOCAL))
    assert "SHOPFLOOR_MODEL" in str(caught.value) and "openai-compatible" in str(caught.value)
    served = choose_provider(None, Settings(**LOCAL, model="qwen3-8b"))
    assert isinstance(served, ChatCompletionsProvider) and served.model == "qwen3-8b"
    assert choose_provider("offline", Settings(**LOCAL)).model == "offline-reader"  # asked for by name


def test_a_retired_model_is_refused_naming_its_replacement_even_with_a_key(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key-not-real")
    with pytest.raises(ProviderConfigError) as caught:
        choose_provider(RETIRED, Settings())
    assert "retired" in str(caught.value) and REPLACEMENT in str(caught.value)


@pytest.mark.parametrize(
    ("settings", "words"),
    [({"model": RETIRED}, ("retired", REPLACEMENT)), (LOCAL, ("SHOPFLOOR_MODEL", "model the local server"))],
)
def test_the_route_answers_the_envelope_and_starts_no_run(db_path, tmp_path, token, store, settings, words):  # noqa: F811
    with make_client(db_path, tmp_path, **settings) as client:
        stranger = post(client, None, {"note": SAMPLE_NOTE})
        response = post(client, token, {"note": SAMPLE_NOTE}, request_id="req_bbbbbbbbbbbb")
    assert stranger.status_code == 401  # a stranger learns nothing about the setup
    assert response.status_code == 500
    error = response.json()["error"]
    assert set(error) == {"code", "message", "request_id"}
    assert error["code"] == "model_not_configured" and error["request_id"] == "req_bbbbbbbbbbbb"
    assert all(word in error["message"] for word in words), error["message"]
    assert rows(store, m.AgentRun) == []


def _cli(args: list[str]) -> dict:
    from shopfloor.cli import app

    result = CliRunner().invoke(
        app, ["workshop", "note", SAMPLE_NOTE, "--as", "ana@taller.example", "--json", *args]
    )
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout.strip().splitlines()[-1])["error"]


def test_the_cli_names_the_replacement_of_a_retired_model(cli_env, store, monkeypatch):  # noqa: F811
    typed = _cli(["--model", RETIRED])
    assert typed["code"] == "bad_request"  # the caller's own --model
    assert "retired" in typed["message"] and REPLACEMENT in typed["message"]
    monkeypatch.setenv("SHOPFLOOR_MODEL", RETIRED)
    from shopfloor.settings import get_settings

    get_settings.cache_clear()
    configured = _cli([])
    assert configured["code"] == "model_not_configured"  # the same answer as the route's
    assert REPLACEMENT in configured["message"]
    assert rows(store, m.AgentRun) == []


def test_the_cli_says_a_local_server_needs_a_model_name(cli_env, store, monkeypatch):  # noqa: F811
    from shopfloor.settings import get_settings

    monkeypatch.setenv("SHOPFLOOR_PROVIDER", "openai-compatible")
    monkeypatch.setenv("SHOPFLOOR_BASE_URL", "http://127.0.0.1:9/v1")
    get_settings.cache_clear()
    error = _cli([])
    assert error["code"] == "model_not_configured" and "SHOPFLOOR_MODEL" in error["message"]
    assert rows(store, m.AgentRun) == []
