"""POST /functions/v1/workshop-agent over HTTP (the whole app and its middleware) and the same run from the CLI."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from shopfloor.agent.providers.base import ModelRequest, StopReason
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.server.app import create_app
from shopfloor.settings import Settings, get_settings
from shopfloor.workshop import accounts
from shopfloor.workshop.agent import api as agent_api
from shopfloor.workshop.sample import fresh_sample_store
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

from .conftest import ANA, SAMPLE_NOTE

URL = "/workshop/functions/v1/workshop-agent"


@pytest.fixture
def db_path(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "workshop.db"
    store = fresh_sample_store(path)
    store.dispose()
    yield path


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    from shopfloor.workshop.store import open_store

    store = open_store(f"sqlite:///{db_path}")
    yield store
    store.dispose()


def make_client(db_path: Path, tmp_path: Path, **settings: object) -> TestClient:
    config = Settings(workshop_db=f"sqlite:///{db_path}", var_dir=tmp_path, **settings)
    return TestClient(create_app(config))


@pytest.fixture
def client(db_path: Path, tmp_path: Path) -> Iterator[TestClient]:
    with make_client(db_path, tmp_path) as client:
        yield client


@pytest.fixture
def token(store: Store) -> str:
    return accounts.issue_token(store, ANA)


def post(client: TestClient, token: str | None, body: object, request_id: str = "req_aaaaaaaaaaaa"):
    headers = {"x-request-id": request_id, "content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return client.post(URL, content=json.dumps(body), headers=headers)


def rows(store: Store, model: type) -> list:
    with store.session("ws-sigsig") as session:
        return list(session.scalars(select(model)))


def test_sample_note_returns_the_four_cards(client, token, store):
    response = post(client, token, {"note": SAMPLE_NOTE, "input_mode": "voice"})
    assert response.status_code == 200, response.text
    assert response.headers["x-request-id"] == "req_aaaaaaaaaaaa"
    body = response.json()
    # The CLI prints with body_json; the route's bytes are the same serialisation.
    from shopfloor.workshop.agent.cli import body_json

    assert response.text == body_json(body)
    assert set(body) == {"run_id", "summary", "proposals", "meta"}
    assert set(body["meta"]) == {"tool_calls", "latency_ms", "tokens_in", "tokens_out", "cost_usd"}
    cards = {(p["type"], p["payload"].get("hat_code")): p for p in body["proposals"]}
    assert len(body["proposals"]) == 4
    create = cards[("create_hat", None)]
    assert create["status"] == "pending"
    assert (create["payload"]["weaver_id"], create["payload"]["quantity"]) == ("w1", 3)
    assert (create["payload"]["grade"], create["payload"]["rows_per_inch"]) == ("Fino", 18)
    assert cards[("advance_stage", "TQ-7F3K2")]["status"] == "pending"
    blocked = cards[("advance_stage", "TQ-2C5P0")]
    assert blocked["status"] == "blocked"
    assert blocked["rule_result"]["code"] == "stage_skip"
    assert blocked["rule_result"]["fix"] == {"to_stage": "Bleaching"}
    flag = cards[("flag_issue", "TQ-4K9D1")]
    assert (flag["status"], flag["payload"]["kind"]) == ("pending", "grade_mismatch")
    assert flag["rule_result"]["confirmed_by_record"] is True
    for card in body["proposals"]:
        assert card["quote"] in SAMPLE_NOTE
        assert set(card) == {"id", "type", "status", "payload", "why", "quote", "confidence", "rule_result"}
    (run,) = rows(store, m.AgentRun)
    assert (run.id, run.status, run.request_id) == (body["run_id"], "proposed", "req_aaaaaaaaaaaa")
    assert sorted(p.id for p in rows(store, m.Proposal)) == sorted(p["id"] for p in body["proposals"])
    logs = rows(store, m.AppLog)
    assert {x.request_id for x in logs} == {"req_aaaaaaaaaaaa"}


def test_without_credentials_401(client):
    response = post(client, None, {"note": "hola"})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"
    assert response.json()["error"]["request_id"] == "req_aaaaaaaaaaaa"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ('{"note": "   "}', "note must be 1 to 1000 characters after trimming."),
        ('{"note": "' + "x" * 1001 + '"}', "note must be 1 to 1000 characters after trimming."),
        ("not json", "The body must be JSON."),
        ("[1, 2]", "The body must be a JSON object with a note."),
        ('{"note": "hola", "input_mode": "fax"}', 'input_mode must be "voice" or "typed".'),
    ],
)
def test_bad_bodies_400_and_no_run(client, token, store, raw, message):
    headers = {
        "authorization": f"Bearer {token}",
        "x-request-id": "req_bbbbbbbbbbbb",
        "content-type": "application/json",
    }
    response = client.post(URL, content=raw, headers=headers)
    assert response.status_code == 400
    assert response.json() == {
        "error": {"code": "bad_request", "message": message, "request_id": "req_bbbbbbbbbbbb"}
    }
    assert rows(store, m.AgentRun) == []


def test_rate_limit_429(db_path, tmp_path, token, store):
    with make_client(db_path, tmp_path, workshop_rate_limit_per_hour=2) as client:
        assert post(client, token, {"note": "hola"}).status_code == 200
        assert post(client, token, {"note": "hola"}).status_code == 200
        third = post(client, token, {"note": "hola"}, request_id="req_cccccccccccc")
    assert third.status_code == 429
    assert third.json()["error"] == {
        "code": "rate_limited",
        "message": "At most 2 notes per hour. Try again later.",
        "request_id": "req_cccccccccccc",
    }
    assert len(rows(store, m.AgentRun)) == 2


def test_model_failure_502_carries_the_run_id(client, token, store, monkeypatch):
    provider = ScriptedProvider(
        [tool_turn(("find_weaver", {"name": "Rosa"})), text_turn("", stop=StopReason.REFUSAL)]
    )
    monkeypatch.setattr(agent_api, "choose_provider", lambda option, settings: provider)
    response = post(client, token, {"note": "Rosa entregó 2 finos de 16 hileras"})
    assert response.status_code == 502
    body = response.json()
    (run,) = rows(store, m.AgentRun)
    assert body["run_id"] == run.id
    assert body["error"]["code"] == "model_error"
    assert run.status == "failed"
    assert rows(store, m.Proposal) == []


def test_client_disconnect_stops_the_run(db_path, tmp_path, token, store, monkeypatch):
    def slow(request: ModelRequest):
        time.sleep(0.6)
        return tool_turn(("find_weaver", {"name": "Rosa"}))

    provider = ScriptedProvider(
        [tool_turn(("find_weaver", {"name": "Rosa"})), slow, text_turn("I understood.")]
    )
    monkeypatch.setattr(agent_api, "choose_provider", lambda option, settings: provider)
    app = create_app(Settings(workshop_db=f"sqlite:///{db_path}", var_dir=tmp_path))
    body = json.dumps({"note": "Rosa entregó 2 finos de 16 hileras"}).encode()
    sent: list[dict] = []

    async def scenario() -> None:
        delivered_at: list[float] = []

        async def receive() -> dict:
            if not delivered_at:
                delivered_at.append(time.monotonic())
                return {"type": "http.request", "body": body, "more_body": False}
            # The client hangs up 0.2 s after sending, while the model is still working.
            waited = time.monotonic() - delivered_at[0]
            if waited < 0.2:
                await anyio.sleep(0.2 - waited)
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": URL,
            "raw_path": URL.encode(),
            "root_path": "",
            "query_string": b"",
            "headers": [
                (b"authorization", f"Bearer {token}".encode()),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
            "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 80),
        }
        await app(scope, receive, send)

    anyio.run(scenario)
    (run,) = rows(store, m.AgentRun)
    assert run.status == "stopped"
    assert rows(store, m.Proposal) == []
    assert sent[0]["status"] == 499


@pytest.fixture
def cli_env(db_path, tmp_path, monkeypatch):
    monkeypatch.setenv("SHOPFLOOR_WORKSHOP_DB", f"sqlite:///{db_path}")
    monkeypatch.setenv("SHOPFLOOR_VAR_DIR", str(tmp_path))
    for key in ("GEMINI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SHOPFLOOR_MODEL"):
        monkeypatch.delenv(key, raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_cli_note_prints_the_http_body(cli_env, store):
    from shopfloor.cli import app

    result = CliRunner().invoke(
        app, ["workshop", "note", SAMPLE_NOTE, "--as", "ana@taller.example", "--json"]
    )
    assert result.exit_code == 0, result.output
    line = result.stdout.strip().splitlines()[-1]
    body = json.loads(line)
    from shopfloor.workshop.agent.cli import body_json

    assert line == body_json(body)  # the route's exact serialisation (see the HTTP sample-note test)
    assert set(body) == {"run_id", "summary", "proposals", "meta"}
    assert sorted(p["status"] for p in body["proposals"]) == ["blocked", "pending", "pending", "pending"]
    (run,) = rows(store, m.AgentRun)
    assert run.id == body["run_id"]


def test_cli_errors_print_the_envelope_and_exit_non_zero(cli_env, store):
    from shopfloor.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["workshop", "note", "   ", "--as", "ana@taller.example", "--json"])
    assert result.exit_code == 1
    envelope = json.loads(result.stdout.strip().splitlines()[-1])
    assert envelope["error"]["code"] == "bad_request"
    assert envelope["error"]["message"] == "note must be 1 to 1000 characters after trimming."
    assert envelope["error"]["request_id"].startswith("req_")
    unknown = runner.invoke(app, ["workshop", "note", "hola", "--as", "nobody@example.com", "--json"])
    assert unknown.exit_code == 1
    assert json.loads(unknown.stdout.strip().splitlines()[-1])["error"]["code"] == "unauthorized"
    assert rows(store, m.AgentRun) == []


def test_cli_note_shows_cards_as_a_table(cli_env, store):
    from shopfloor.cli import app

    result = CliRunner().invoke(
        app, ["workshop", "note", "El TQ-7F3K2 pasó a blanqueo", "--as", "ana@taller.example"]
    )
    assert result.exit_code == 0, result.output
    assert "I understood: TQ-7F3K2 to Bleaching (blocked by the rules)." in result.stdout
    assert "stage_skip" in result.stdout and "blocked" in result.stdout


def test_two_notes_moving_one_hat_approve_once_then_conflict(client, token):
    """End to end: the agent's cards carry the hat's version, so the second approval is a clear conflict."""
    cards = []
    for request_id in ("req_aaaaaaaaaaa1", "req_aaaaaaaaaaa2"):
        response = post(
            client, token, {"note": "El TQ-7F3K2 pasó a lavado", "input_mode": "typed"}, request_id
        )
        assert response.status_code == 200, response.text
        [card] = response.json()["proposals"]
        assert card["status"] == "pending" and card["payload"]["hat_version"] == 1
        cards.append(card["id"])
    headers = {"authorization": f"Bearer {token}"}

    def approve(card_id: str):
        body = {"decisions": [{"proposal_id": card_id, "action": "approve"}]}
        return client.post("/functions/v1/apply-proposals", json=body, headers=headers)

    first = approve(cards[0])
    assert first.status_code == 200, first.text
    second = approve(cards[1])
    assert second.status_code == 409, second.text
    assert "changed since this proposal was made" in second.text


def test_offline_runs_take_turns_on_a_few_threads(db_path, tmp_path, token, monkeypatch):
    """A local (offline) provider is pure CPU: concurrent requests queue for LOCAL_RUN_THREADS threads instead
    of crowding the interpreter lock; every request still gets its answer."""
    busy = 0
    most = 0
    lock = threading.Lock()

    class LocalProvider:
        name = "offline"
        model = "offline-test"
        local = True

        def complete(self, request: ModelRequest):
            nonlocal busy, most
            with lock:
                busy += 1
                most = max(most, busy)
            time.sleep(0.05)
            with lock:
                busy -= 1
            return text_turn("I understood: nothing to record.")

    monkeypatch.setattr(agent_api, "choose_provider", lambda option, settings: LocalProvider())
    with make_client(db_path, tmp_path) as client, ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(lambda i: post(client, token, {"note": f"nota {i}"}).status_code, range(6)))
    assert statuses == [200] * 6
    assert most == agent_api.LOCAL_RUN_THREADS


def test_a_live_model_without_its_key_answers_500_only_after_authentication(
    db_path, tmp_path, token, store, monkeypatch
):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    with make_client(db_path, tmp_path, model="gemini-2.5-flash-lite") as client:
        stranger = post(client, None, {"note": SAMPLE_NOTE})
        member = post(client, token, {"note": SAMPLE_NOTE})
    assert stranger.status_code == 401
    assert member.status_code == 500 and member.json()["error"]["code"] == "model_not_configured"
    assert "GEMINI_API_KEY" in member.json()["error"]["message"]
    assert rows(store, m.AgentRun) == []
