"""The sample note through Claude and OpenAI's real SDKs, answered by hand-written recordings in each
provider's documented wire format (``recordings/<provider>/sample_note.json``), and the benchmark that reports
model calls and cost per run for every provider (docs/workshop-agent.md, "Benchmarks").

The expected costs are worked out here by hand from the recordings' usage and the published prices
(docs/pricing.md), not by the pricing code.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from shopfloor.agent.providers.replay import recording, replayed_provider
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.prompt import SYSTEM_PROMPT, UserMessage, build_user_message
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.agent.tools import REGISTRY

from .conftest import ANA, SAMPLE_NOTE

RECORDINGS = Path(__file__).parent / "recordings"
BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_workshop_live.py"
CARDS = {
    ("create_hat", None): "pending",
    ("advance_stage", "TQ-7F3K2"): "pending",
    ("advance_stage", "TQ-2C5P0"): "blocked",
    ("flag_issue", "TQ-4K9D1"): "pending",
}
# Claude Opus 5.5: $4 input, $20 output, $0.20 cache read, $5 cache write per million tokens.
CLAUDE_USD = ((420 + 900 + 1300) * 4 + 2600 * 5 + 2 * 2600 * 0.20 + (180 + 620 + 90) * 20) / 1e6
# gpt-6.1-terra: $1 input, $5 output, $0.05 cache read, $1.25 cache write; input_tokens includes both.
OPENAI_USD = (
    ((3010 - 2560) + (3720 - 2560) + (4480 - 2560)) * 1
    + 2560 * 1.25
    + 2 * 2560 * 0.05
    + (240 + 700 + 110) * 5
) / 1e6
# Gemini 2.5 Flash-Lite: $0.10 input, $0.40 output, $0.01 cache read.
GEMINI_USD = ((2310 + 3105 - 2048 + 3890 - 3072) * 0.10 + (2048 + 3072) * 0.01 + (88 + 410 + 52) * 0.40) / 1e6


def test_every_workshop_recording_says_it_is_hand_written():
    for path in sorted(RECORDINGS.glob("*/sample_note.json")):
        assert "Hand-written" in json.loads(path.read_text(encoding="utf-8"))["description"], path


@pytest.mark.parametrize(
    ("provider", "tokens_in", "tokens_out", "cost"),
    [
        ("anthropic", 420 + 2600 + 900 + 2600 + 1300 + 2600, 180 + 620 + 90, CLAUDE_USD),
        ("openai", 3010 + 3720 + 4480, 240 + 700 + 110, OPENAI_USD),
    ],
)
def test_the_sample_note_through_the_real_sdk(
    agent_store: StoreAgentStore, provider, tokens_in, tokens_out, cost
):
    wire = recording(RECORDINGS, provider, "sample_note")
    body = run_agent(
        agent_store, ANA, {"note": SAMPLE_NOTE}, replayed_provider(provider, wire), "req_live0000000", 20
    )
    assert wire.problems == [] and wire.remaining == 0 and len(wire.calls) == 3

    assert {(p["type"], p["payload"].get("hat_code")): p["status"] for p in body["proposals"]} == CARDS
    assert body["summary"].startswith("I understood: Rosa Pillco delivered 3 Fino hats")
    assert body["meta"]["tool_calls"] == 7
    assert body["meta"]["tokens_in"] == tokens_in
    assert body["meta"]["tokens_out"] == tokens_out
    assert body["meta"]["cost_usd"] == pytest.approx(cost, abs=1e-9)

    first, second = wire.bodies()[0], wire.bodies()[1]
    if provider == "anthropic":
        assert first["system"][0]["text"] == SYSTEM_PROMPT
        assert first["messages"][0]["content"] in (
            build_user_message(UserMessage(SAMPLE_NOTE, "typed", None)),
            [{"type": "text", "text": build_user_message(UserMessage(SAMPLE_NOTE, "typed", None))}],
        )
        assert [t["name"] for t in first["tools"]] == REGISTRY.names
        assert all(t["strict"] is True for t in first["tools"])
        # The thinking block goes back unchanged, with its signature, before the tool results.
        assert second["messages"][1]["content"][0]["type"] == "thinking"
        assert second["messages"][1]["content"][0]["signature"].startswith("EqQB")
        results = second["messages"][2]["content"]
        assert [r["type"] for r in results] == ["tool_result"] * 3
    else:
        assert first["instructions"] == SYSTEM_PROMPT
        assert [t["name"] for t in first["tools"]] == REGISTRY.names
        assert all(t["strict"] is True for t in first["tools"])
        kinds = [item.get("type") for item in second["input"]]
        assert kinds.count("function_call_output") == 3
        reasoning = [item for item in second["input"] if item.get("type") == "reasoning"]
        assert reasoning and reasoning[0]["encrypted_content"].startswith("gAAAA")


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_workshop_live", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_bench_reports_calls_and_cost_of_the_sample_note_per_provider():
    bench = _bench_module()
    names = [figure.name for figure in bench.FIGURES]
    for provider in ("gemini", "anthropic", "openai"):
        assert any(f"sample note, {provider} " in name and "model calls" in name for name in names)
    figures = {figure.name: figure.measure() for figure in bench.FIGURES}
    calls = {name.split(",")[1].split()[0]: value for name, value in figures.items() if "model calls" in name}
    assert {provider: value["median"] for provider, value in calls.items()} == {
        "gemini": 3.0,
        "anthropic": 3.0,
        "openai": 3.0,
    }
    assert calls["gemini"]["cost_cents"] == pytest.approx(GEMINI_USD * 100)
    assert calls["anthropic"]["cost_cents"] == pytest.approx(CLAUDE_USD * 100)
    assert calls["openai"]["cost_cents"] == pytest.approx(OPENAI_USD * 100)
    # The goal for the default provider: at most 3 model calls and under $0.002 per note.
    assert calls["gemini"]["median"] <= 3 and GEMINI_USD < 0.002
    (cost,) = [value for name, value in figures.items() if "gemini" in name and "cost per run" in name]
    assert cost["median"] == pytest.approx(GEMINI_USD * 100)
