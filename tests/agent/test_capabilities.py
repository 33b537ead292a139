"""The model table: defaults, retirement, reasoning items and the docs generated from it."""

from datetime import date
from pathlib import Path

import pytest

from shopfloor.agent.capabilities import MODELS, capability_table_markdown, model_info
from shopfloor.agent.pricing import cost_usd, price_table_markdown
from shopfloor.agent.providers import ProviderConfigError, default_live_model, make_provider
from shopfloor.agent.providers.base import ModelRequest, Usage, UserText
from shopfloor.agent.providers.openai_provider import OpenAIOptions, build_params
from shopfloor.settings import Settings

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("GEMINI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("SHOPFLOOR_PROVIDER", raising=False)


def test_default_openai_model_is_gpt_6_1_terra(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-value")
    assert default_live_model(Settings()) == "gpt-6.1-terra"
    assert make_provider("gpt-6.1-terra", Settings()).model == "gpt-6.1-terra"


@pytest.mark.parametrize(
    ("model", "today", "replacement"),
    [
        ("gpt-5-mini", date(2026, 12, 11), "gpt-6.1-terra"),
        ("gpt-5-mini-2025-08-07", date(2027, 3, 1), "gpt-6.1-terra"),
        # OpenAI's help centre names GPT-6 Luna as the starting point for GPT-4.x (docs/pricing.md).
        ("gpt-4.1-mini", date(2027, 1, 14), "gpt-6-luna"),
        # The vendor: "retires on November 30, 2026".
        ("claude-sonnet-4-5", date(2026, 12, 1), "claude-sonnet-5-5"),
    ],
)
def test_a_retired_model_is_refused_naming_its_replacement(monkeypatch, model, today, replacement):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-value")
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-value")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key-value")
    with pytest.raises(ProviderConfigError) as caught:
        make_provider(model, Settings(), today=today)
    message = str(caught.value)
    assert f"model {model!r} was retired" in message
    assert f"use {replacement} instead" in message


def test_a_model_is_served_until_its_retirement_day(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-value")
    assert make_provider("gpt-5-mini", Settings(), today=date(2026, 12, 10)).model == "gpt-5-mini"


def test_no_default_model_is_retired_or_unpriced():
    from shopfloor.agent.providers import DEFAULT_MODELS

    for model in DEFAULT_MODELS.values():
        info = model_info(model)
        assert info is not None and info.retires is None and info.price is not None, model


def test_every_reasoning_model_asks_for_encrypted_reasoning():
    request = ModelRequest("s", [], [UserText("n")])
    for info in MODELS:
        if info.provider != "openai":
            continue
        params = build_params(request, info.name, OpenAIOptions())
        if info.reasoning:
            assert params["include"] == ["reasoning.encrypted_content"], info.name
            assert params["reasoning"] == {"effort": "medium"}, info.name
        else:
            assert "include" not in params and "reasoning" not in params, info.name


def test_an_effort_the_model_does_not_accept_is_not_sent():
    request = ModelRequest("s", [], [UserText("n")])
    params = build_params(request, "gpt-5-mini", OpenAIOptions(effort="max"))
    assert "reasoning" not in params
    assert params["include"] == ["reasoning.encrypted_content"]
    assert build_params(request, "gpt-6.1-terra", OpenAIOptions(effort="max"))["reasoning"] == {
        "effort": "max"
    }


def test_gpt_6_1_terra_bills_cache_writes_and_long_prompts():
    # $1.00 input, $5.00 output, $0.05 cached, $1.25 cache write per million.
    assert cost_usd("gpt-6.1-terra", Usage(1000, 200, 3000, 400)) == pytest.approx(
        (1000 * 1.00 + 200 * 5.00 + 3000 * 0.05 + 400 * 1.25) / 1e6
    )
    # Above 272K prompt tokens: input × 2, output × 1.5.
    assert cost_usd("gpt-6.1-terra", Usage(280_000, 1000)) == pytest.approx(
        (280_000 * 2.0 + 1000 * 7.5) / 1e6
    )
    # "2x input and cache rates": cache read 0.05 → 0.10, cache write 1.25 → 2.50.
    assert cost_usd("gpt-6.1-terra", Usage(200_000, 1000, 70_000, 10_000)) == pytest.approx(
        (200_000 * 2.0 + 1000 * 7.5 + 70_000 * 0.10 + 10_000 * 2.50) / 1e6
    )
    # $0.30 input, $2.50 output (Google's pricing page); no cache-read rate found: a cached read is unknown.
    assert cost_usd("gemini-3.5-flash-lite", Usage(1000, 100)) == pytest.approx(
        (1000 * 0.30 + 100 * 2.50) / 1e6
    )
    assert cost_usd("gemini-3.5-flash-lite", Usage(1000, 100, cache_read=50)) is None


def test_a_routed_model_is_served_after_its_shutdown(monkeypatch):
    # Google's latest text: from 2026-12-01 gemini-2.5-flash requests are routed to gemini-3.5-flash-lite.
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-value")
    assert make_provider("gemini-2.5-flash", Settings(), today=date(2026, 12, 2)).model == "gemini-2.5-flash"


def test_every_row_has_a_source_and_a_check_date():
    from shopfloor.agent.capabilities import stale_rows

    for info in MODELS:
        assert info.source.startswith("https://"), info.name
        assert info.checked == date(2026, 12, 1), info.name
        assert info.context_tokens and info.max_output_tokens, info.name
    assert stale_rows(date(2027, 1, 30)) == []  # 60 days later
    assert [i.name for i in stale_rows(date(2027, 1, 31))] == [i.name for i in MODELS]


def test_the_corrected_facts():
    luna, sol = model_info("gpt-6-luna"), model_info("gpt-6.1-sol")
    assert luna is not None and luna.reasoning and luna.price is not None
    assert (luna.price.input, luna.price.output, luna.price.cache_read) == (0.10, 0.50, 0.01)
    assert sol is not None and sol.reasoning and "none" not in sol.efforts
    sonnet, opus = model_info("claude-sonnet-4-5"), model_info("claude-opus-4-5")
    assert sonnet is not None and sonnet.price is not None and sonnet.price.input == 3.00
    assert (
        opus is not None and opus.price is not None and (opus.price.input, opus.price.output) == (5.0, 25.0)
    )


def test_docs_show_the_tables_generated_from_the_model_table():
    assert price_table_markdown() in (DOCS / "pricing.md").read_text(encoding="utf-8")
    assert capability_table_markdown() in (DOCS / "providers.md").read_text(encoding="utf-8")
