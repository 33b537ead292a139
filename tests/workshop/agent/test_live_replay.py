"""The sample note through a live provider's real SDK, answered by a recording (docs/workshop-agent.md, "Live models").

With ``GEMINI_API_KEY`` and ``SHOPFLOOR_RECORD=1`` the test records the exchange live instead (and skips its
checks, so the new recording can be reviewed first).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shopfloor.agent.providers.gemini_provider import GeminiProvider
from shopfloor.agent.providers.replay import Recorder, Replay
from shopfloor.agent.tools import schema_problems
from shopfloor.settings import provider_key
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.prompt import SYSTEM_PROMPT, UserMessage, build_user_message
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.agent.tools import REGISTRY

from .conftest import ANA, SAMPLE_NOTE

RECORDINGS = Path(__file__).parent / "recordings"
FAKE_KEY = "sk-test-0123456789abcdef-not-a-real-key"


def test_sample_note_through_gemini(agent_store: StoreAgentStore):
    path = RECORDINGS / "gemini" / "sample_note.json"
    key = provider_key("gemini")
    if key and os.environ.get("SHOPFLOOR_RECORD") == "1":
        recorder = Recorder(path, secret=key)
        run_agent(
            agent_store,
            ANA,
            {"note": SAMPLE_NOTE},
            GeminiProvider(key, http_client=recorder.http_client()),
            "req_rec",
            20,
        )
        recorder.save()
        pytest.skip(f"recorded {path.name}; review it, then replay")
    replay = Replay.from_file(path)
    provider = GeminiProvider(FAKE_KEY, http_client=replay.http_client(), retry_initial_delay_s=0.001)
    body = run_agent(agent_store, ANA, {"note": SAMPLE_NOTE}, provider, "req_gemini00000", 20)
    assert replay.problems == [] and replay.remaining == 0

    statuses = {(p["type"], p["payload"].get("hat_code")): p["status"] for p in body["proposals"]}
    assert statuses == {
        ("create_hat", None): "pending",
        ("advance_stage", "TQ-7F3K2"): "pending",
        ("advance_stage", "TQ-2C5P0"): "blocked",
        ("flag_issue", "TQ-4K9D1"): "pending",
    }
    assert body["summary"].startswith("I understood: Rosa Pillco delivered 3 Fino hats")
    # Usage: Gemini's prompt count includes cached tokens, so tokens_in is the prompt total.
    assert body["meta"]["tokens_in"] == 2310 + 3105 + 3890
    assert body["meta"]["tokens_out"] == 88 + 410 + 52
    expected_cost = ((2310 + 3105 - 2048 + 3890 - 3072) * 0.10 + (2048 + 3072) * 0.01 + 550 * 0.40) / 1e6
    assert body["meta"]["cost_usd"] == pytest.approx(expected_cost, abs=1e-8)

    first = replay.bodies()[0]
    assert first["systemInstruction"]["parts"][0]["text"] == SYSTEM_PROMPT
    assert first["contents"][0]["parts"][0]["text"] == build_user_message(
        UserMessage(SAMPLE_NOTE, "typed", None)
    )
    declarations = first["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == REGISTRY.names
    for declaration in declarations:
        assert declaration["parameters_json_schema"] == REGISTRY.get(declaration["name"]).spec()["parameters"]
        assert schema_problems(declaration["parameters_json_schema"]) == []
