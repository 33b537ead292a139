"""The model names in the recordings existed on the day each was recorded (docs/providers.md, "Replay and
record").

Every recording says the day it stands for (``recorded``, YYYY-MM-DD; a live one writes the day it was made).
Each model name a response carries (``model``, ``modelVersion``, at any depth: a fallback block names its
model too) must be a row of the model table or one of the dated snapshots that row lists, released on or
before that day, not yet retired then, and a dated snapshot's own date must not come after it. A response's
own timestamp (``created_at``, ``created``) falls on the recorded day. A local server's model name is
whatever the server was started with, so ``openai-compatible/`` recordings name no row and are left out.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from shopfloor.agent.capabilities import MODELS, ModelInfo

TESTS = Path(__file__).parents[1]
FOLDERS = ("agent/recordings", "shifts/live/recordings", "workshop/agent/recordings")
RECORDINGS = sorted(
    path
    for folder in FOLDERS
    for path in (TESTS / folder).rglob("*.json")
    if "openai-compatible" not in path.relative_to(TESTS / folder).parts
)
_DATED = re.compile(r"-(\d{4})-?(\d{2})-?(\d{2})$")


def row_for(name: str) -> ModelInfo | None:
    """The row whose name or listed snapshot is exactly ``name`` (no prefix matching: a made-up suffix is not
    a snapshot)."""
    for info in MODELS:
        if name == info.name or name in info.snapshots:
            return info
    return None


def model_names(value: Any) -> list[str]:
    """Every ``model`` / ``modelVersion`` string in a response body, at any depth."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("model", "modelVersion") and isinstance(item, str):
                found.append(item)
            else:
                found.extend(model_names(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(model_names(item))
    return found


def problems(recording: dict[str, Any]) -> list[str]:
    """Why the recording's model names could not have answered on its recorded day (empty: they could)."""
    if not isinstance(recording.get("recorded"), str):
        return ["no recorded day"]
    day = date.fromisoformat(recording["recorded"])
    found: list[str] = []
    for index, exchange in enumerate(recording["exchanges"]):
        body = exchange.get("response")
        if isinstance(body, dict):
            for field in ("created_at", "created"):
                if isinstance(body.get(field), int):
                    stamped = datetime.fromtimestamp(body[field], UTC).date()
                    if stamped != day:
                        found.append(f"#{index}: {field} is {stamped}, recorded {day}")
        for name in model_names(body):
            info = row_for(name)
            if info is None:
                found.append(f"#{index}: {name} is no row of the model table nor a snapshot it lists")
                continue
            if info.released is None or info.released > day:
                found.append(f"#{index}: {name} released {info.released}, after the recorded day {day}")
            if info.retires is not None and info.retires <= day and not info.routed:
                found.append(f"#{index}: {name} was retired on {info.retires}, before the recorded day {day}")
            dated = _DATED.search(name)
            if dated and date(*map(int, dated.groups())) > day:
                found.append(f"#{index}: snapshot {name} is dated after the recorded day {day}")
    return found


def name(path: Path) -> str:
    return str(path.relative_to(TESTS))


def test_there_are_recordings_with_model_names():
    named = [p for p in RECORDINGS if any(model_names(e.get("response")) for e in _load(p)["exchanges"])]
    assert len(named) > 40


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", RECORDINGS, ids=name)
def test_every_model_name_existed_on_the_recorded_day(path):
    assert problems(_load(path)) == []


def test_every_row_a_recording_names_says_where_its_release_date_was_read():
    named = {
        row_for(n) for p in RECORDINGS for e in _load(p)["exchanges"] for n in model_names(e.get("response"))
    }
    for info in named:
        assert info is not None and info.released is not None
        assert "https://" in info.released_source, info.name


def exchange(**response: Any) -> dict[str, Any]:
    return {"method": "POST", "path": "/v1/responses", "status": 200, "response": response}


@pytest.mark.parametrize(
    ("recording", "why"),
    [
        # A dated snapshot the vendor never listed (the one model page lists gpt-6.1-terra alone).
        ({"recorded": "2026-11-30", "exchanges": [exchange(model="gpt-6.1-terra-2026-10-02")]}, "no row"),
        # Released 2026-10-26: a recording of 2026-10-01 cannot have been answered by it.
        ({"recorded": "2026-10-01", "exchanges": [exchange(model="gpt-6.1-terra")]}, "released 2026-10-26"),
        # Retired 2026-11-30 and not routed.
        ({"recorded": "2026-12-01", "exchanges": [exchange(model="claude-sonnet-4-5")]}, "retired"),
        # A fallback block deep in the body names its model too.
        (
            {
                "recorded": "2026-11-30",
                "exchanges": [exchange(content=[{"model": "claude-sonnet-5-5-20261015"}])],
            },
            "no row",
        ),
        (
            {
                "recorded": "2026-11-30",
                "exchanges": [exchange(model="gpt-5-mini", created_at=1796032800 - 86400)],
            },
            "2026-11-29",
        ),
        ({"exchanges": [exchange(model="gpt-5-mini")]}, "no recorded day"),
    ],
)
def test_the_check_finds_a_name_that_did_not_exist_then(recording, why):
    found = problems(recording)
    assert found and why in " ".join(found), found


def test_a_listed_snapshot_and_its_alias_both_pass():
    for model in ("gpt-5-mini", "gpt-5-mini-2025-08-07"):
        assert problems({"recorded": "2026-11-30", "exchanges": [exchange(model=model)]}) == []
