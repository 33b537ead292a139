"""Choosing a planner on `shopfloor shifts ask` and `shopfloor eval shifts` (--model / SHOPFLOOR_MODEL)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from shopfloor.cli import app
from shopfloor.settings import get_settings

runner = CliRunner()
ASK = ["shifts", "ask", "why was second shift slow", "--day", "2026-09-16", "--shift", "2"]


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for var in (
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "GEMINI_API_KEY",
        "SHOPFLOOR_MODEL",
        "SHOPFLOOR_PROVIDER",
    ):
        monkeypatch.delenv(var, raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def said(output: str) -> str:
    """The error text without the panel's frame and line breaks."""
    return " ".join(output.replace("│", " ").split())


@pytest.mark.parametrize(
    ("model", "message"),
    [
        ("llama-3", "cannot tell which provider serves model 'llama-3'"),
        ("analyst:gpt-6.1-terra", "the analyst plans on a Claude model"),
        ("claude-opus-5-5", "needs ANTHROPIC_API_KEY in the environment"),
        ("claude-sonnet-4-5", "use claude-sonnet-5-5 instead"),
    ],
)
def test_a_planner_that_cannot_run_is_a_bad_parameter(store_path, model, message):
    result = runner.invoke(app, [*ASK, "--db", str(store_path), "--model", model])
    assert result.exit_code == 2
    assert message in said(result.output)
    evals = runner.invoke(app, ["eval", "shifts", "--model", model])
    assert evals.exit_code == 2


def test_the_environment_chooses_the_planner_too(store_path, monkeypatch):
    monkeypatch.setenv("SHOPFLOOR_MODEL", "gemini-2.5-flash-lite")
    get_settings.cache_clear()
    result = runner.invoke(app, [*ASK, "--db", str(store_path)])
    assert result.exit_code == 2 and "GEMINI_API_KEY" in said(result.output)


def test_offline_stays_the_default(store_path):
    result = runner.invoke(app, [*ASK, "--db", str(store_path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["usage"]["model"] == "offline-planner"
