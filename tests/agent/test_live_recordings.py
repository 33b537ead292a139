"""Exchanges recorded live with ``--record`` (``recordings/<provider>/live/*.json``) replay cleanly.

The hand-written recordings pin each adapter to the documented wire format; live ones, when present, show
that real answers parse the same way. Without live recordings there is nothing to collect here.
"""

import pytest

from shopfloor.agent.loop import Outcome, run_loop
from shopfloor.agent.providers.anthropic_provider import AnthropicProvider
from shopfloor.agent.providers.gemini_provider import GeminiProvider
from shopfloor.agent.providers.openai_provider import OpenAIProvider
from shopfloor.agent.providers.replay import Replay
from shopfloor.agent.trace import Trace
from tests.agent.wire import FAKE_KEY, RECORDINGS

ADAPTERS = {"gemini": GeminiProvider, "anthropic": AnthropicProvider, "openai": OpenAIProvider}
LIVE = sorted(RECORDINGS.glob("*/live/*.json"))


@pytest.mark.parametrize("path", LIVE, ids=[f"{p.parent.parent.name}/{p.stem}" for p in LIVE])
def test_live_recording_replays_to_a_clean_outcome(path, registry, ctx):
    replay = Replay.from_file(path)
    provider = ADAPTERS[path.parent.parent.name](FAKE_KEY, http_client=replay.http_client(), max_retries=0)
    trace = Trace()
    outcome = run_loop(provider, "You are the test assistant.", "Rosa and Ana came by.", registry, ctx, trace)
    assert outcome.outcome in {Outcome.END_TURN, Outcome.MAX_ITERATIONS}, outcome.error
    assert replay.problems == [] and replay.remaining == 0
    steps = [s for s in trace.to_list() if s["kind"] == "model_call"]
    assert steps and all(s["model"] and s["tokens_in"] > 0 for s in steps)
