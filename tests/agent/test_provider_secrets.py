"""A key never shows up in logs (even at DEBUG, SDK loggers included), traces or errors."""

import json
import logging

import pytest

from shopfloor.agent.loop import Outcome, run_loop
from shopfloor.agent.providers.anthropic_provider import AnthropicProvider
from shopfloor.agent.providers.gemini_provider import GeminiProvider
from shopfloor.agent.providers.openai_provider import OpenAIProvider
from shopfloor.agent.providers.replay import Replay
from shopfloor.agent.trace import Trace
from tests.agent.wire import RECORDINGS

KEY = "sk-ant-api03-SECRETSECRETSECRET-0123456789"
ADAPTERS = {
    "gemini": lambda client: GeminiProvider(KEY, http_client=client, retry_initial_delay_s=0.001),
    "anthropic": lambda client: AnthropicProvider(KEY, http_client=client),
    "openai": lambda client: OpenAIProvider(KEY, http_client=client),
}


@pytest.mark.parametrize("provider", sorted(ADAPTERS))
@pytest.mark.parametrize("scenario", ["tool_use", "server_error", "bad_key"])
def test_key_stays_out_of_logs_traces_and_errors(provider, scenario, registry, ctx, caplog):
    replay = Replay.from_file(RECORDINGS / provider / f"{scenario}.json")
    adapter = ADAPTERS[provider](replay.http_client())
    trace = Trace()
    events = []
    ours = logging.getLogger("shopfloor")
    ours.propagate = True  # our JSON-lines logger does not propagate by default; let caplog see it
    try:
        with caplog.at_level(logging.DEBUG):
            outcome = run_loop(
                adapter, "system", "note", registry, ctx, trace, on_event=lambda *e: events.append(e)
            )
    finally:
        ours.propagate = False
    expected = Outcome.END_TURN if scenario == "tool_use" else Outcome.PROVIDER_ERROR
    assert outcome.outcome is expected
    assert caplog.records  # the SDKs did log at DEBUG, so the check below looked at something
    everything = [
        caplog.text,
        json.dumps(trace.to_list(), default=str),
        json.dumps(outcome.error),
        repr(events),
    ]
    for text in everything:
        assert KEY not in text
        assert "SECRETSECRET" not in text
