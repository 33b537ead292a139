"""Local OpenAI-compatible servers, one behaviour per test, over real HTTP through the real openai SDK.

Each case plays one server quirk (tests/agent/chat_server.py) through ``make_provider`` with the settings a
user would set, and runs the tool loop to its end: a covered behaviour ends the turn with both names looked
up; the rest fail as a provider error (the apps' ``model_error``) whose message names the setting to change.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from shopfloor.agent.loop import LoopLimits, Outcome, run_loop
from shopfloor.agent.providers import chat_completions_provider, make_provider
from shopfloor.agent.providers.base import ModelRequest, ProviderError, UserText
from shopfloor.agent.providers.profiles.chat_completions import SERVER_PROFILES, ServerProfile
from shopfloor.agent.trace import Trace
from shopfloor.settings import Settings
from tests.agent.chat_server import FINAL_TEXT, Behaviour, ChatServer

SYSTEM = "You are the test assistant."
NOTE = "Rosa and Ana came by. " * 100  # about 2,200 bytes: with max_tokens 8000 it passes an 8k context

COVERED = [
    (Behaviour("documented"), {}),
    (Behaviour("no_type", call_type=None), {}),
    (Behaviour("missing_id", ids=None), {}),
    (Behaviour("empty_id", ids=("", "")), {}),
    (Behaviour("null_id", ids=(None, None)), {}),
    (Behaviour("repeated_id", ids=("call_0", "call_0")), {}),
    (Behaviour("finish_tool_call", tool_finish="tool_call"), {}),
    (Behaviour("finish_function_calls", tool_finish="function_calls"), {}),
    (Behaviour("finish_eos_token", tool_finish="eos_token", end_finish="eos_token"), {}),
    (Behaviour("finish_eos", tool_finish="eos", end_finish="eos"), {}),
    (Behaviour("finish_null", tool_finish=None), {}),
    (Behaviour("finish_stop_with_calls", tool_finish="stop"), {}),
    (Behaviour("arguments_object", arguments_as_object=True), {}),
    (Behaviour("content_parts", content_parts=True), {}),
    (Behaviour("no_usage", usage=False), {}),
    (Behaviour("no_model", model=False), {}),
    (Behaviour("reasoning_content", reasoning_content=True), {}),
    (Behaviour("refuses_strict", refuse_strict=True), {"server_profile": "no-strict"}),
    (Behaviour("refuses_strict_override", refuse_strict=True), {"server_strict": False}),
    (
        Behaviour("refuses_tool_choice", refuse_strict=True, refuse_tool_choice=True),
        {"server_profile": "minimal"},
    ),
    (Behaviour("context_8k", context_tokens=8192), {"server_context_tokens": 8192}),
]

UNCOVERED = [
    (Behaviour("refuses_strict_default", refuse_strict=True), "SHOPFLOOR_SERVER_STRICT"),
    (Behaviour("refuses_tool_choice_default", refuse_tool_choice=True), "SHOPFLOOR_SERVER_TOOL_CHOICE"),
    (Behaviour("context_8k_default", context_tokens=8192), "SHOPFLOOR_SERVER_CONTEXT_TOKENS"),
    (Behaviour("no_tool_support", refuse_tools=True), "SHOPFLOOR_MODEL"),
]


def settings_for(server: ChatServer, **overrides: object) -> Settings:
    return Settings(provider="openai-compatible", base_url=server.url, provider_max_retries=0, **overrides)


def run(server: ChatServer, registry, ctx, **overrides: object):
    provider = make_provider("qwen3-8b", settings_for(server, **overrides))
    trace = Trace()
    outcome = run_loop(provider, SYSTEM, NOTE, registry, ctx, trace, LoopLimits(max_tokens=8000))
    return outcome, trace


@pytest.mark.parametrize(("behaviour", "overrides"), COVERED, ids=[b.name for b, _ in COVERED])
def test_a_covered_behaviour_ends_the_turn(behaviour, overrides, registry, ctx):
    with ChatServer(behaviour) as server:
        outcome, trace = run(server, registry, ctx, **overrides)
    assert outcome.error is None, outcome.error
    assert outcome.outcome is Outcome.END_TURN
    assert outcome.text == FINAL_TEXT
    assert ctx.seen == {"Rosa", "Ana"}
    assert server.seen.answered == 2
    second = server.seen.bodies[-1]["messages"]
    assistant = second[2]
    ids = [call["id"] for call in assistant["tool_calls"]]
    # Every call goes back with a distinct non-empty id, type function and JSON-string arguments, and each
    # result answers its call in order.
    assert len(set(ids)) == 2 and all(isinstance(i, str) and i for i in ids)
    assert [c["type"] for c in assistant["tool_calls"]] == ["function", "function"]
    assert [c["function"]["arguments"] for c in assistant["tool_calls"]] in (
        ['{"name": "Rosa"}', '{"name": "Ana"}'],
        ['{"name":"Rosa"}', '{"name":"Ana"}'],
    )
    assert [m["tool_call_id"] for m in second[3:]] == ids
    assert "reasoning_content" not in assistant
    assert trace.cost_usd is None  # a local model has no price, never zero


@pytest.mark.parametrize(("behaviour", "setting"), UNCOVERED, ids=[b.name for b, _ in UNCOVERED])
def test_an_uncovered_behaviour_fails_naming_the_setting(behaviour, setting, registry, ctx):
    with ChatServer(behaviour) as server:
        outcome, _trace = run(server, registry, ctx)
    assert outcome.outcome is Outcome.PROVIDER_ERROR
    assert outcome.error is not None and outcome.error["status"] == 400
    assert setting in outcome.error["message"]
    # Only the setting that helps is named, not every server setting.
    others = {s for _, s in UNCOVERED} - {setting}
    assert not any(other in outcome.error["message"] for other in others), outcome.error["message"]
    assert server.seen.answered == 0


@pytest.mark.parametrize(
    ("detail", "setting"),
    [
        # Refusals as servers word them (the stand-in's, and vLLM's and Ollama's own phrasing).
        ("This model's maximum context length is 8192 tokens. However, you requested 8500 tokens", "CONTEXT"),
        ("registry.ollama.ai/library/gemma:2b does not support tools", "SHOPFLOOR_MODEL"),
        ("Unrecognized request argument supplied: strict", "SHOPFLOOR_SERVER_STRICT"),
        ("tool_choice is not supported", "SHOPFLOOR_SERVER_TOOL_CHOICE"),
    ],
)
def test_a_refusal_names_the_setting_its_text_points_to(detail, setting):
    hint = chat_completions_provider.refusal_hint(detail)
    assert setting in hint
    assert hint.count("SHOPFLOOR_") <= 2


def test_a_refusal_that_names_nothing_known_lists_every_server_setting():
    hint = chat_completions_provider.refusal_hint("bad request")
    for name in ("PROFILE", "STRICT", "TOOL_CHOICE", "CONTEXT_TOKENS"):
        assert f"SHOPFLOOR_SERVER_{name}" in hint


def test_the_profiles_send_what_they_say(registry):
    with ChatServer(Behaviour("documented")) as server:
        for overrides, strict, choice in (
            ({}, True, True),
            ({"server_profile": "no-strict"}, False, True),
            ({"server_profile": "minimal"}, False, False),
            ({"server_profile": "minimal", "server_tool_choice": True}, False, True),
        ):
            provider = make_provider("qwen3-8b", settings_for(server, **overrides))
            provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText("n")], 8000, 10.0))
            body = server.seen.bodies[-1]
            assert ("strict" in body["tools"][0]["function"]) is strict, overrides
            assert ("tool_choice" in body) is choice, overrides
            assert body["max_tokens"] == 8000  # no context size known: as the loop asks


def test_a_known_context_bounds_max_tokens(registry):
    with ChatServer(Behaviour("documented")) as server:
        provider = make_provider("qwen3-8b", settings_for(server, server_context_tokens=4096))
        provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText("n")], 8000, 10.0))
    body = server.seen.bodies[0]
    assert 3000 < body["max_tokens"] < 4096 - 256


def test_a_prompt_the_context_cannot_hold_is_refused_before_the_call(registry):
    with ChatServer(Behaviour("documented")) as server:
        provider = make_provider("qwen3-8b", settings_for(server, server_context_tokens=1024))
        with pytest.raises(ProviderError, match="SHOPFLOOR_SERVER_CONTEXT_TOKENS"):
            provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText(NOTE)], 8000, 10.0))
    assert server.seen.bodies == []


def test_the_request_is_measured_only_when_the_context_is_known(registry, monkeypatch):
    # Serializing the whole request to measure it costs a copy of every message on every call: only a known
    # context size needs the measure.
    measured: list[object] = []

    class CountingJson:
        @staticmethod
        def dumps(obj: object, **options: object) -> str:
            if isinstance(obj, dict) and "messages" in obj:
                measured.append(obj)
            return json.dumps(obj, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(chat_completions_provider, "json", CountingJson)
    request = ModelRequest(SYSTEM, registry.specs(), [UserText(NOTE)], 8000, 10.0)
    for name in SERVER_PROFILES:
        assert chat_completions_provider.build_params(request, SERVER_PROFILES[name])["max_tokens"] == 8000
    assert measured == []
    known = replace(SERVER_PROFILES["openai"], context_tokens=8192)
    assert chat_completions_provider.build_params(request, known)["max_tokens"] < 8000
    assert len(measured) == 1


def test_output_budget_arithmetic():
    profile = ServerProfile("t", context_tokens=8192)
    # 3,000 bytes → 1,000 tokens at 3 bytes a token, plus 256 for the template: 6,936 left.
    assert profile.output_budget(3000, 8000) == 6936
    assert profile.output_budget(3000, 2000) == 2000
    assert profile.output_budget(23_500, 8000) is None  # 7,834 + 256 leaves 102 < 256
    assert SERVER_PROFILES["openai"].output_budget(10**9, 8000) == 8000


def test_an_unknown_server_profile_is_a_config_error():
    from shopfloor.agent.providers import ProviderConfigError

    with pytest.raises(ProviderConfigError, match="no-strict"):
        make_provider(
            "qwen3-8b", Settings(provider="openai-compatible", base_url="http://x/v1", server_profile="nope")
        )
