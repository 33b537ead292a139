"""Workshop agent with the offline note reader: note-to-response time in process, and runs per second over
HTTP with 16 concurrent clients against a uvicorn server on 127.0.0.1.

The HTTP figure raises the per-user limit with ``SHOPFLOOR_WORKSHOP_RATE_LIMIT_PER_HOUR`` semantics
(``Settings.workshop_rate_limit_per_hour = BENCH_RATE_LIMIT``): the limit is still counted in the database on
every request, just set high enough for a load test. Errors (any non-200) are reported, and should be zero.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2

from shopfloor.bench import Figure
from shopfloor.logs import new_request_id
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store

SAMPLE_NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo y "
    "el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)
ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
BENCH_RATE_LIMIT = 1_000_000  # documented bench setting: the limit is raised, not removed
CLIENTS = 16
REQUESTS = 480

_dir = Path(tempfile.mkdtemp(prefix="bench-workshop-agent-"))
_state: dict[str, object] = {}


def _in_process_setup() -> None:
    store = fresh_sample_store(_dir / "in-process.db")
    _state["agent_store"] = StoreAgentStore(store)


def one_note_in_process() -> None:
    agent_store = _state["agent_store"]
    assert isinstance(agent_store, StoreAgentStore)
    run_agent(agent_store, ANA, {"note": SAMPLE_NOTE}, OfflineReader(), new_request_id(), BENCH_RATE_LIMIT)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(path: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    """``uvicorn`` in its own process on loopback, configured through the environment like ``shopfloor serve``."""
    env = {
        **os.environ,
        "SHOPFLOOR_WORKSHOP_DB": f"sqlite:///{path}",
        "SHOPFLOOR_VAR_DIR": str(_dir),
        "SHOPFLOOR_WORKSHOP_RATE_LIMIT_PER_HOUR": str(BENCH_RATE_LIMIT),
        "SHOPFLOOR_MODEL": "offline",
    }
    command = [
        sys.executable, "-m", "uvicorn", "--factory", "shopfloor.web.app:create_app",
        "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
        "--log-level", "warning", "--no-access-log",
    ]  # fmt: skip
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_until_up(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the benchmark server did not start")


def runs_per_second_over_http(workers: int = 1) -> dict[str, float]:
    """Start uvicorn on loopback, send REQUESTS notes from CLIENTS threads, report throughput and errors."""
    path = _dir / f"http-{workers}.db"
    store = fresh_sample_store(path)
    token = accounts.issue_token(store, ANA)
    store.dispose()
    port = _free_port()
    server = _serve(path, port, workers)
    url = f"http://127.0.0.1:{port}/workshop/functions/v1/workshop-agent"
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    payload = json.dumps({"note": SAMPLE_NOTE, "input_mode": "voice"})
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def client_loop(count: int) -> None:
        nonlocal errors
        with httpx2.Client(timeout=60) as client:
            for _ in range(count):
                t0 = time.perf_counter()
                response = client.post(url, content=payload, headers=headers)
                elapsed = (time.perf_counter() - t0) * 1000
                ok = response.status_code == 200 and len(response.json()["proposals"]) == 4
                with lock:
                    latencies.append(elapsed)
                    errors += 0 if ok else 1

    try:
        _wait_until_up(port)
        with ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(client_loop, [1] * CLIENTS))  # warm-up: every worker imports and connects
            latencies.clear()
            started = time.perf_counter()
            list(pool.map(client_loop, [REQUESTS // CLIENTS] * CLIENTS))
            wall = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=20)
    latencies.sort()
    rate = (REQUESTS // CLIENTS * CLIENTS) / wall
    return {
        "median": rate,
        "p95": rate,
        "errors": float(errors),
        "request p50 ms": statistics.median(latencies),
        "request p95 ms": latencies[int(0.95 * (len(latencies) - 1))],
    }


FIGURES = [
    Figure(
        "offline reader, sample note to response (in process)",
        one_note_in_process,
        repeat=60,
        unit="ms",
        goal=50.0,
        goal_on="p95",
        setup=_in_process_setup,
    ),
    Figure(
        "runs/s over HTTP, 16 clients, loopback uvicorn",
        unit="runs/s",
        goal=100.0,
        higher_is_better=True,
        measure=runs_per_second_over_http,
    ),
]
