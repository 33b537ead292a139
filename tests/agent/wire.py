"""Replay (or, with ``--record`` and a key, record) provider exchanges through the real SDK clients."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shopfloor.agent.loop import Outcome, run_loop
from shopfloor.agent.providers.base import ModelRequest, Provider, Turn, UserText
from shopfloor.agent.providers.replay import FAKE_KEY, Recorder, Replay
from shopfloor.agent.tools import ToolRegistry
from shopfloor.agent.trace import Trace
from shopfloor.settings import provider_key

RECORDINGS = Path(__file__).parent / "recordings"

SYSTEM = "You are the test assistant."


def ask(provider: Provider, registry: ToolRegistry, text: str = "note") -> Turn:
    """One call with the test system prompt, the registry's tools and one user message."""
    return provider.complete(ModelRequest(SYSTEM, registry.specs(), [UserText(text)], 8000, 25.0))


def run_tool_use(provider: Provider, wire: Wire, registry: ToolRegistry, ctx: Any) -> tuple[Replay, Trace]:
    """Run the ``tool_use`` scenario through the loop and check what every provider must give alike: the
    exchange replayed as recorded, the turn ended with the model's text, and both names looked up."""
    trace = Trace()
    outcome = run_loop(provider, SYSTEM, "Rosa and Ana came by.", registry, ctx, trace)
    replay = wire.replayed()
    assert replay.problems == []
    assert outcome.outcome is Outcome.END_TURN
    assert outcome.text == "I understood: Rosa and Ana were looked up."
    assert ctx.seen == {"Rosa", "Ana"}
    return replay, trace


def recording_requested(config: pytest.Config) -> bool:
    """``--record`` on the command line, or SHOPFLOOR_RECORD=1 in the environment."""
    return bool(config.getoption("--record")) or os.environ.get("SHOPFLOOR_RECORD") == "1"


@dataclass
class Wire:
    """The HTTP client to hand an SDK, and the replay behind it (None while recording live)."""

    provider: str
    scenario: str
    key: str
    http_client: Any
    replay: Replay | None

    def replayed(self) -> Replay:
        """The replay, or skip the rest of the test when the exchange was just recorded live."""
        if self.replay is None:
            pytest.skip(f"recorded {self.provider}/live/{self.scenario}.json; review it, then commit it")
        return self.replay


def open_wire(config: pytest.Config, provider: str, scenario: str, live_ok: bool = True) -> Wire:
    """A replay of ``recordings/<provider>/<scenario>.json``, or a live recorder when recording is asked
    for and the provider's key is in the environment (without a key, ``--record`` still replays).

    Scenarios a live model cannot be made to produce on demand (errors, refusals) pass ``live_ok=False``
    and always replay.
    """
    key = provider_key(provider)
    if live_ok and key and recording_requested(config):
        # Live exchanges go beside the hand-written ones, never over them: test_live_recordings.py
        # replays every file under live/ through the same loop.
        recorder = Recorder(RECORDINGS / provider / "live" / f"{scenario}.json", secret=key)
        return Wire(provider, scenario, key, recorder.http_client(), None)
    replay = Replay.from_file(RECORDINGS / provider / f"{scenario}.json")
    return Wire(provider, scenario, FAKE_KEY, replay.http_client(), replay)
