"""The hand-written recordings look like what each vendor sends (docs/providers.md, "Replay and record"): each
says it is hand-written, no two responses share a message, response or request id (each real answer has its
own), and every usage block carries the fields its vendor sends, the cache counts included, except in the
scenarios whose point is a usage that leaves them out."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

TESTS = Path(__file__).parents[1]
RECORDINGS = sorted(
    path
    for folder in ("agent/recordings", "shifts/live/recordings", "workshop/agent/recordings")
    for path in (TESTS / folder).rglob("*.json")
    if "live" not in path.relative_to(TESTS / folder).parts  # captured from a live API, not hand-written
)
LABEL = "Hand-written in the provider's documented wire format (not captured live)."
# Scenarios about a usage block that leaves fields out (read as 0) or an answer that cannot be read.
SHORT_USAGE = {"usage_minimal", "unreadable_answer", "usage_without_cache_write"}
USAGE_FIELDS = {
    "anthropic": {
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "cache_creation",
        "service_tier",
    },
    "openai": {
        "input_tokens",
        "input_tokens_details",
        "output_tokens",
        "output_tokens_details",
        "total_tokens",
    },
    "gemini": {"promptTokenCount", "totalTokenCount", "promptTokensDetails"},
}


def family(path: Path) -> str:
    return path.parent.name


def exchanges(path: Path) -> list[dict]:
    return json.loads(path.read_text())["exchanges"]


def name(path: Path) -> str:
    return str(path.relative_to(TESTS))


def test_there_are_recordings_to_check():
    assert len(RECORDINGS) > 50


@pytest.mark.parametrize("path", RECORDINGS, ids=name)
def test_every_hand_written_recording_says_so(path):
    assert json.loads(path.read_text())["description"].startswith(LABEL)


def test_no_two_answers_share_an_id():
    seen: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in RECORDINGS:
        for index, exchange in enumerate(exchanges(path)):
            where = f"{name(path)}#{index}"
            for header in ("request-id", "x-request-id"):
                if header in (exchange.get("headers") or {}):
                    seen[(header, exchange["headers"][header])].append(where)
            body = exchange["response"]
            if isinstance(body, dict):
                for field in ("id", "responseId"):
                    if isinstance(body.get(field), str):
                        seen[(field, body[field])].append(where)
    shared = {f"{kind} {value}": places for (kind, value), places in seen.items() if len(places) > 1}
    assert shared == {}


@pytest.mark.parametrize("path", [p for p in RECORDINGS if family(p) in USAGE_FIELDS], ids=name)
def test_usage_blocks_carry_the_vendors_fields(path):
    if path.stem in SHORT_USAGE:
        pytest.skip("the scenario is a usage block that leaves fields out")
    wanted = USAGE_FIELDS[family(path)]
    for index, exchange in enumerate(exchanges(path)):
        body = exchange["response"]
        usage = body.get("usage") or body.get("usageMetadata") if isinstance(body, dict) else None
        if exchange["status"] != 200 or usage is None:
            continue
        assert wanted - set(usage) == set(), f"exchange {index}"
        if family(path) == "openai":
            assert "cached_tokens" in usage["input_tokens_details"], f"exchange {index}"
            assert "reasoning_tokens" in usage["output_tokens_details"], f"exchange {index}"
        if family(path) == "anthropic":
            assert set(usage["cache_creation"]) == {"ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"}
