"""``shopfloor record`` (docs/providers.md, "Replay and record"): without the provider's key it refuses, naming
the variable, and writes nothing; with one it runs the workshop sample note and a shift question through the
real SDK and writes each exchange beside the hand-written recordings, the key nowhere in the files.

The live API is played by the stand-in server of tests/agent/script_server.py over real HTTP, answering
with the hand-written OpenAI exchanges of both apps, one of them carrying the key back in its body and a kept
header (as an error message or an echoed header might), while the note itself holds the key (a person
pasting one). The server sees the key in the Authorization header, so the test shows it was on the wire.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import httpx2
import pytest
from typer.testing import CliRunner

from shopfloor.agent.providers.replay import LIVE_LABEL
from shopfloor.agent.spend import ledger_at, month_of
from shopfloor.cli import app
from shopfloor.record import SAMPLE_NOTE, record_live
from shopfloor.settings import KEY_ENV, Settings, get_settings
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import open_store
from tests.agent.script_server import Reply, ScriptServer
from tests.shifts.live.conftest import store_path  # noqa: F401 (the hand-built shifts record store)

TESTS = Path(__file__).parents[1]
FAKE = "sk-proj-FAKEfake0123456789abcdefRECORDkey"


@pytest.fixture
def no_keys(monkeypatch):
    for name in KEY_ENV.values():
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize("provider", sorted(KEY_ENV))
def test_without_a_key_it_refuses_naming_the_variable_and_writes_nothing(provider, no_keys, tmp_path):
    result = CliRunner().invoke(app, ["record", "--provider", provider, "--into", str(tmp_path)])
    assert result.exit_code == 2
    assert KEY_ENV[provider] in result.output and "nothing was recorded" in result.output
    assert list(tmp_path.rglob("*")) == []


def test_an_unknown_provider_is_refused(no_keys, tmp_path):
    result = CliRunner().invoke(app, ["record", "--provider", "mistral", "--into", str(tmp_path)])
    assert result.exit_code == 2 and "gemini, anthropic, openai" in result.output


def replies(path: Path) -> list[Reply]:
    exchanges = json.loads(path.read_text(encoding="utf-8"))["exchanges"]
    return [Reply(e["status"], e["response"], e.get("headers", {})) for e in exchanges]


class ToStandIn(httpx2.BaseTransport):
    """Sends every request to the stand-in server instead of the vendor's host."""

    def __init__(self, base: str) -> None:
        self.base = httpx2.URL(base)
        self.inner = httpx2.HTTPTransport()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.url = request.url.copy_with(scheme=self.base.scheme, host=self.base.host, port=self.base.port)
        return self.inner.handle_request(request)


def test_a_recording_holds_no_key_anywhere(store_path, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("OPENAI_API_KEY", FAKE)
    url = f"sqlite:///{tmp_path / 'workshop.db'}"
    store = open_store(url)
    store.migrate()  # the ledger the shift question's calls are held to
    store.dispose()
    note_steps = replies(TESTS / "workshop/agent/recordings/openai/sample_note.json")
    first = note_steps[0]
    # The answer echoes the key in its body and in a header the recorder keeps.
    note_steps[0] = Reply(
        first.status,
        {**first.body, "metadata": {"echo": f"Bearer {FAKE}"}},
        {**first.headers, "x-request-id": f"req_{FAKE}"},
    )
    shift_steps = replies(TESTS / "shifts/live/recordings/openai/complete.json")
    into = tmp_path / "tests"
    with ScriptServer([*note_steps, *shift_steps]) as server:
        written = record_live(
            "openai",
            Settings(workshop_db=url, provider_max_retries=0),
            into,
            shifts_db=store_path,
            note=f"{SAMPLE_NOTE} Mi clave es {FAKE}.",
            inner=ToStandIn(server.url),
        )
    assert server.calls.count() >= 4
    # The key was on the wire: the stand-in saw it in every request's Authorization header, and in the body.
    assert all(h["authorization"] == f"Bearer {FAKE}" for h in server.calls.headers)
    assert FAKE.encode() in server.calls.bodies[0]

    assert [run.path for run in written] == [
        into / "workshop/agent/recordings/openai/live/sample_note.json",
        into / "shifts/live/recordings/openai/live/complete.json",
    ]
    assert written[0].status == "4 cards proposed" and written[0].exchanges == 3
    for run in written:
        text = run.path.read_text(encoding="utf-8")
        assert FAKE not in text and FAKE[8:24] not in text
        assert "authorization" not in text.lower()
        data = json.loads(text)
        assert data["description"].startswith(LIVE_LABEL)
        assert data["recorded"] == datetime.now(UTC).date().isoformat()
        assert len(data["exchanges"]) == run.exchanges
    note = json.loads(written[0].path.read_text(encoding="utf-8"))["exchanges"]
    assert note[0]["headers"]["x-request-id"] == "req_[redacted]"
    assert note[0]["response"]["metadata"] == {"echo": "Bearer [redacted]"}
    assert "Mi clave es [redacted]." in json.dumps(note[0]["request"], ensure_ascii=False)
    # Every call was held to a real cap: the note's three in the real workshop store's ledger (not the
    # throwaway copy's), under the sample workshop, beside the shift question's.
    calls = {
        (row.app, row.tenant): row.calls for row in ledger_at(url).by_day(month_of(datetime.now(UTC).date()))
    }
    assert calls[("workshop", WORKSHOP_A)] == 3
    assert sum(n for (app, _), n in calls.items() if app != "workshop") >= 1
