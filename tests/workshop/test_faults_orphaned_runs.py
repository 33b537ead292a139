"""Runs orphaned by a crash: a server killed mid-run (a real SIGKILL) leaves runs `running`; they become
`failed` (`interrupted`) at start-up, periodically and as their user starts a run, and stop counting toward
the hourly limit (docs/security.md, "No half-saved runs")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent.persistence import StoreAgentStore, fail_orphaned_runs
from shopfloor.workshop.agent.run import RunRow
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow
from tests.web.live import free_port, serve_command, wait_until_up

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
AGENT = "/workshop/functions/v1/workshop-agent"
NOTE = {"note": "El TQ-7F3K2 pasó a lavado.", "input_mode": "typed"}
LIMIT = 3
# Further back than the run budget plus its margin (two minutes): what a wait after the crash would give.
LONG_AGO = timedelta(minutes=3)

ANSWER = {
    "id": "chatcmpl-held",
    "object": "chat.completion",
    "created": 1796032800,
    "model": "held-model",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Nothing to change."},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 14},
}


class HeldModel:
    """A Chat Completions server that holds every call until released (then answers at once)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0
        held = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", "0")))
                held.calls += 1
                held.release.wait(60)
                body = json.dumps(ANSWER).encode()
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the caller was killed while the call was held

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def held_model() -> Iterator[HeldModel]:
    model = HeldModel()
    yield model
    model.close()


def start_server(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        serve_command(port), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_until_up(server, port)
    return server


def runs_of(owner: Store, workshop_id: str = WORKSHOP_A) -> list[m.AgentRun]:
    with owner.transaction(workshop_id, write=False) as s:
        query = select(m.AgentRun).where(m.AgentRun.workshop_id == workshop_id)
        return list(s.scalars(query.order_by(m.AgentRun.created_at)).all())


def wait_for(check: Any, within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@pytest.mark.slow
def test_runs_in_flight_at_a_sigkill_are_failed_after_restart_and_free_the_limit(
    store: Store, owner: Store, tmp_path: Path, held_model: HeldModel
):
    token = accounts.issue_token(store, ANA)
    headers = {"authorization": f"Bearer {token}"}
    port = free_port()
    env = {
        **os.environ,
        "SHOPFLOOR_VAR_DIR": str(tmp_path / "var"),
        "SHOPFLOOR_WORKSHOP_DB": store.engine.url.render_as_string(hide_password=False),
        "SHOPFLOOR_SHIFTS_DB": str(tmp_path / "no-shifts.duckdb"),
        "SHOPFLOOR_MODEL": "held-model",
        "SHOPFLOOR_PROVIDER": "openai-compatible",
        "SHOPFLOOR_BASE_URL": held_model.url,
        "SHOPFLOOR_PROVIDER_MAX_RETRIES": "0",
        "SHOPFLOOR_WORKSHOP_RATE_LIMIT_PER_HOUR": str(LIMIT),
        "SHOPFLOOR_SECRET_KEY": "test-secret-key-for-sessions-0123456789",
    }
    base = f"http://127.0.0.1:{port}"
    server = start_server(env, port)
    try:

        def post() -> None:
            try:
                httpx2.post(base + AGENT, json=NOTE, headers=headers, timeout=60)
            except httpx2.TransportError:
                pass  # the server is killed under this request

        clients = [threading.Thread(target=post, daemon=True) for _ in range(LIMIT)]
        for client in clients:
            client.start()
        wait_for(lambda: held_model.calls == LIMIT, 30, "the runs did not reach the model")
        assert [r.status for r in runs_of(owner)] == ["running"] * LIMIT
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        for client in clients:
            client.join(timeout=30)
        assert [r.status for r in runs_of(owner)] == ["running"] * LIMIT  # nothing finished them

        with owner.transaction(WORKSHOP_A) as s:
            for run in runs_of(owner):
                moved = run.created_at - LONG_AGO
                s.execute(update(m.AgentRun).where(m.AgentRun.id == run.id).values(created_at=moved))
        held_model.release.set()
        server = start_server(env, port)
        if store.is_sqlite:  # the start-up sweep sees every workshop (PostgreSQL: see the next request)
            wait_for(
                lambda: {r.status for r in runs_of(owner)} == {"failed"}, 15, "the start-up sweep did not run"
            )
        answer = httpx2.post(base + AGENT, json=NOTE, headers=headers, timeout=60)
        assert answer.status_code == 200, answer.text  # the limit is free again
        runs = runs_of(owner)
        assert [r.status for r in runs] == ["failed"] * LIMIT + ["proposed"]
        assert {r.error["type"] for r in runs[:LIMIT] if r.error} == {"interrupted"}
    finally:
        server.kill()
        server.wait(timeout=30)


def insert_running(store: Store, actor: domain.Actor, started_ago: timedelta) -> str:
    run_id = f"run-{started_ago.total_seconds():.0f}-{actor.workshop_id}"
    row = RunRow(run_id, actor, "nota", "typed", None, "req_test", "offline", utcnow() - started_ago)
    assert StoreAgentStore(store).insert_run(row, [], limit=1000, window=timedelta(hours=1))
    return run_id


def statuses(owner: Store, workshop_id: str) -> dict[str, tuple[str, str | None]]:
    return {r.id: (r.status, (r.error or {}).get("type")) for r in runs_of(owner, workshop_id)}


def test_a_sweep_fails_only_runs_long_past_the_run_budget(store: Store, owner: Store):
    pedro = domain.Actor("u-pedro", WORKSHOP_B, "member", "Pedro")
    lucia = domain.Actor("u-admin", WORKSHOP_A, "admin", "Lucía")
    old_a = insert_running(store, ANA, timedelta(minutes=5))
    young_a = insert_running(store, lucia, timedelta(seconds=50))  # past the budget, inside the margin
    old_b = insert_running(store, pedro, timedelta(minutes=5))
    assert fail_orphaned_runs(store, WORKSHOP_A) == 1
    assert statuses(owner, WORKSHOP_A) == {old_a: ("failed", "interrupted"), young_a: ("running", None)}
    assert statuses(owner, WORKSHOP_B) == {old_b: ("running", None)}  # another workshop is not touched
    assert fail_orphaned_runs(store, WORKSHOP_A) == 0  # and a failed run is not swept twice


def test_starting_a_run_sweeps_the_users_orphans_and_they_stop_counting(store: Store, owner: Store):
    agent = StoreAgentStore(store)
    orphans = [insert_running(store, ANA, timedelta(minutes=4 + i)) for i in range(2)]
    row = RunRow("run-new", ANA, "nota", "typed", None, "req_new", "offline", utcnow())
    assert agent.insert_run(row, [], limit=2, window=timedelta(hours=1))
    found = statuses(owner, WORKSHOP_A)
    assert [found[o] for o in orphans] == [("failed", "interrupted")] * 2
    assert found["run-new"] == ("running", None)
    # A run that failed otherwise still counts: the limit is reached at two ordinary runs.
    late = RunRow("run-late", ANA, "nota", "typed", None, "req_late", "offline", utcnow())
    assert agent.insert_run(late, [], limit=2, window=timedelta(hours=1))
    refused = RunRow("run-refused", ANA, "nota", "typed", None, "req_x", "offline", utcnow())
    assert not agent.insert_run(refused, [], limit=2, window=timedelta(hours=1))


def test_the_running_app_sweeps_periodically(sqlite_store: Store, tmp_path: Path):
    settings = Settings(
        workshop_db=sqlite_store.engine.url.render_as_string(hide_password=False),
        var_dir=tmp_path,
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        workshop_orphan_sweep_s=0.2,
    )
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        run_id = insert_running(sqlite_store, ANA, timedelta(minutes=10))  # after the start-up sweep
        wait_for(
            lambda: statuses(sqlite_store, WORKSHOP_A)[run_id] == ("failed", "interrupted"),
            10,
            "the periodic sweep did not run",
        )
