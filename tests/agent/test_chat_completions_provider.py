"""OpenAI-compatible local servers through the real openai SDK (Chat Completions), answered by recordings."""

import pytest

from shopfloor.agent.loop import Outcome, run_loop
from shopfloor.agent.providers import ProviderConfigError, make_provider
from shopfloor.agent.providers.chat_completions_provider import ChatCompletionsProvider
from shopfloor.agent.providers.replay import Replay
from shopfloor.agent.trace import Trace
from shopfloor.settings import Settings
from tests.agent.wire import RECORDINGS, SYSTEM, open_wire, run_tool_use

BASE_URL = "http://127.0.0.1:8080/v1"


def local(request, scenario):
    wire = open_wire(request.config, "openai-compatible", scenario, live_ok=False)
    return ChatCompletionsProvider(BASE_URL, "qwen3-8b", http_client=wire.http_client), wire


def test_tool_use_turn_runs_tools_and_echoes_the_assistant_message(request, registry, ctx):
    provider, wire = local(request, "tool_use")
    replay, trace = run_tool_use(provider, wire, registry, ctx)
    first, second = replay.bodies()
    assert replay.calls[0].path == "/v1/chat/completions"
    assert first["model"] == "qwen3-8b"
    assert first["messages"] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Rosa and Ana came by."},
    ]
    assert first["tools"][0] == {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": "Find things.",
            "parameters": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    }
    recorded = replay.exchanges[0].response["choices"][0]["message"]
    assert second["messages"][2] == recorded
    assert second["messages"][3:] == [
        {"role": "tool", "tool_call_id": "call_lc1Rosa9f2b7", "content": '{"matches": ["Rosa"]}'},
        {"role": "tool", "tool_call_id": "call_lc2Ana4k8d1q", "content": '{"matches": ["Ana"]}'},
    ]
    steps = [s for s in trace.to_list() if s["kind"] == "model_call"]
    assert [s["model"] for s in steps] == ["openai-compatible/qwen3-8b-instruct-q4_k_m"] * 2
    # A local model has no price: the cost is unknown, never zero.
    assert trace.cost_usd is None


def test_usage_with_cached_prompt_tokens(request, registry):
    from shopfloor.agent.providers.base import ModelRequest, Usage, UserText

    provider, _wire = local(request, "tool_use")
    # prompt_tokens 520 includes the 400 cached; the first exchange has no details at all.
    provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText("n")]))
    turn = provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText("n")]))
    assert turn.usage == Usage(input_tokens=120, output_tokens=12, cache_read=400)


def test_length_is_max_tokens(request, registry, ctx):
    provider, _wire = local(request, "max_tokens")
    outcome = run_loop(provider, SYSTEM, "note", registry, ctx, Trace())
    assert outcome.outcome is Outcome.MAX_TOKENS
    assert outcome.text == "I understood: Rosa moved the"


def test_the_factory_builds_it_from_settings(monkeypatch, registry):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ProviderConfigError, match="SHOPFLOOR_BASE_URL"):
        make_provider("qwen3-8b", Settings(provider="openai-compatible"))
    replay = Replay.from_file(RECORDINGS / "openai-compatible" / "max_tokens.json")
    settings = Settings(provider="openai-compatible", base_url=BASE_URL)
    provider = make_provider("qwen3-8b", settings, http_client=replay.http_client())
    assert isinstance(provider, ChatCompletionsProvider)
    from shopfloor.agent.providers.base import ModelRequest, UserText

    turn = provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText("n")]))
    assert turn.raw_stop_reason == "length"
    assert "authorization" not in replay.calls[0].headers  # never captured, key or placeholder


def test_a_local_server_has_no_default_model(monkeypatch):
    from shopfloor.agent.providers import default_live_model

    monkeypatch.setenv("OPENAI_API_KEY", "test-key-value")
    assert default_live_model(Settings(provider="openai-compatible", base_url=BASE_URL)) is None
