"""`shopfloor serve` refuses bad options before it starts a server."""

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

import httpx2
import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from shopfloor.cli import app as root_app
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store
from shopfloor.workshop.store import models as m
from tests.web.live import free_port, serve_command, wait_until_up

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
AGENT = "/workshop/functions/v1/workshop-agent"


def test_serve_refuses_a_port_out_of_range_before_starting():
    result = CliRunner().invoke(root_app, ["serve", "--port", "99999"])
    assert result.exit_code == 2 and "shopfloor on" not in result.output
    assert "--port" in result.output and "65535" in result.output


def test_serve_refuses_a_worker_count_out_of_range_before_starting():
    for count in ("0", "33"):
        result = CliRunner().invoke(root_app, ["serve", "--workers", count])
        assert result.exit_code == 2 and "shopfloor on" not in result.output
        assert "--workers" in result.output


@pytest.mark.slow
def test_serve_with_two_workers_shares_the_store_and_the_session_key(tmp_path):
    """Two server processes on one SQLite file: concurrent notes all succeed and are all saved, and both
    processes sign sessions with the one key made in the var directory."""
    store = fresh_sample_store(tmp_path / "workshop.db")
    token = accounts.issue_token(store, ANA)
    port = free_port()
    env = {
        **os.environ,
        "SHOPFLOOR_VAR_DIR": str(tmp_path / "var"),
        "SHOPFLOOR_WORKSHOP_DB": f"sqlite:///{tmp_path / 'workshop.db'}",
        "SHOPFLOOR_SHIFTS_DB": str(tmp_path / "no-shifts.duckdb"),
        "SHOPFLOOR_MODEL": "offline",
        "SHOPFLOOR_WORKSHOP_RATE_LIMIT_PER_HOUR": "1000",
    }
    env.pop("SHOPFLOOR_SECRET_KEY", None)
    server = subprocess.Popen(
        serve_command(port, "--workers", "2"), env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(server, port)
        headers = {"authorization": f"Bearer {token}"}
        body = {"note": "El TQ-7F3K2 pasó a lavado.", "input_mode": "typed"}

        def post(_: int) -> int:
            with httpx2.Client(base_url=base, timeout=30) as client:
                return [client.post(AGENT, json=body, headers=headers).status_code for _ in range(4)]

        with ThreadPoolExecutor(6) as pool:
            statuses = [s for batch in pool.map(post, range(6)) for s in batch]
        assert statuses == [200] * 24
        with store.transaction(ANA.workshop_id, write=False) as session:
            runs = session.scalars(select(m.AgentRun)).all()
            assert len(runs) == 24 and {r.status for r in runs} == {"proposed"}
            assert session.scalar(select(func.count()).select_from(m.Proposal)) == 24
        key = (tmp_path / "var" / "secret-key").read_text()
        assert len(key) >= 32 and oct((tmp_path / "var" / "secret-key").stat().st_mode & 0o777) == "0o600"
        assert list((tmp_path / "var").glob(".secret-key.*")) == []
    finally:
        server.terminate()
        server.wait(timeout=30)
        store.dispose()
