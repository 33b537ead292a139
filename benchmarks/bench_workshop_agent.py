"""Workshop agent with the offline note reader: note-to-response time in process (the sample note, and every
note of the eval corpus), and runs per second over
HTTP with 16 concurrent keep-alive clients against ``shopfloor serve`` on 127.0.0.1 (two worker processes,
as on a two-core machine, and one for comparison), on SQLite and on PostgreSQL (a throw-away database on
``SHOPFLOOR_TEST_POSTGRES_URL``, used as the non-owner app role), each with the server's CPU per run (user plus
system time of the server and its workers over the round, from /proc, per request). The rounds start once
every worker listens on its own socket (docs/deploy.md, "Several server processes"). The load generator runs
on the same cores as the server. ``BENCH_SMOKE=1``: one round of 16 requests.

The HTTP figure raises the per-user limit with ``SHOPFLOOR_WORKSHOP_RATE_LIMIT_PER_HOUR`` semantics
(``Settings.workshop_rate_limit_per_hour = BENCH_RATE_LIMIT``): the limit is still counted in the database on
every request, just set high enough for a load test. Errors (any non-200) are reported, and should be zero.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.exc import OperationalError

from shopfloor.bench import Figure, smoke, wait_until_up, wait_until_workers_listen
from shopfloor.logs import new_request_id
from shopfloor.web.errors import ApiError
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent.evals import case_body, load_workshop_cases
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
REQUESTS = 480  # per round
ROUNDS = 3

_dir = Path(tempfile.mkdtemp(prefix="bench-workshop-agent-"))
_state: dict[str, object] = {}


def _in_process_setup() -> None:
    store = fresh_sample_store(_dir / "in-process.db")
    _state["agent_store"] = StoreAgentStore(store)


def one_note_in_process() -> None:
    agent_store = _state["agent_store"]
    assert isinstance(agent_store, StoreAgentStore)
    run_agent(agent_store, ANA, {"note": SAMPLE_NOTE}, OfflineReader(), new_request_id(), BENCH_RATE_LIMIT)


def corpus_in_process() -> dict[str, float]:
    """Every note of the eval corpus (``evals/workshop*.yaml``) to response in process, once each on one seeded
    database, with the page language each case gives: the p50, p95 and slowest note in ms."""
    store = fresh_sample_store(_dir / "corpus.db")
    agent_store = StoreAgentStore(store)
    cases = load_workshop_cases()
    timings: list[float] = []
    try:
        for case in cases:
            body = case_body(case)
            spanish = case.data.get("language") == "es"
            started = time.perf_counter()
            try:
                run_agent(
                    agent_store,
                    ANA,
                    body,
                    OfflineReader(),
                    new_request_id(),
                    BENCH_RATE_LIMIT,
                    language="es" if spanish else "en",
                )
            except ApiError:
                pass  # a case may expect a refused request; its time still counts
            timings.append((time.perf_counter() - started) * 1000)
    finally:
        store.dispose()
    timings.sort()
    return {
        "median": statistics.median(timings),
        "p95": timings[round(0.95 * (len(timings) - 1))],
        "slowest ms": timings[-1],
        "notes": float(len(timings)),
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(url: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    """``shopfloor serve`` in its own process(es) on loopback, configured through the environment."""
    env = {
        **os.environ,
        "SHOPFLOOR_WORKSHOP_DB": url,
        "SHOPFLOOR_VAR_DIR": str(_dir),
        "SHOPFLOOR_WORKSHOP_RATE_LIMIT_PER_HOUR": str(BENCH_RATE_LIMIT),
        "SHOPFLOOR_MODEL": "offline",
    }
    command = [
        str(Path(sys.executable).with_name("shopfloor")),
        "serve",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def _client(port: int, request: bytes, count: int, latencies: list[float], failures: list[str]) -> None:
    """One keep-alive HTTP/1.1 connection sending ``count`` notes one after the other.

    A few lines of asyncio instead of a full HTTP client: the load generator shares the machine's cores
    with the server, and every millisecond it spends is one the server does not get."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for _ in range(count):
            started = time.perf_counter()
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            body = await reader.readexactly(int(length.group(1))) if length else b""
            latencies.append((time.perf_counter() - started) * 1000)
            status = head.split(b" ", 2)[1]
            if status != b"200" or len(json.loads(body)["proposals"]) != 4:
                failures.append(f"{status.decode()} {body[:200]!r}")
    finally:
        writer.close()


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its children (the server's workers), from /proc."""
    total = 0.0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            for task in Path(f"/proc/{current}/task").iterdir():
                pids += [int(child) for child in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


async def _load(port: int, request: bytes, per_client: int) -> tuple[float, list[float], list[str]]:
    latencies: list[float] = []
    failures: list[str] = []
    started = time.perf_counter()
    await asyncio.gather(*(_client(port, request, per_client, latencies, failures) for _ in range(CLIENTS)))
    return time.perf_counter() - started, latencies, failures


@contextmanager
def _sqlite(workers: int) -> Iterator[tuple[str, str]]:
    """A seeded SQLite file: its URL and a bearer token of Ana's."""
    path = _dir / f"http-{workers}.db"
    store = fresh_sample_store(path)
    token = accounts.issue_token(store, ANA)
    store.dispose()
    yield f"sqlite:///{path}", token


@contextmanager
def _postgres(workers: int) -> Iterator[tuple[str, str]]:
    """A throw-away seeded PostgreSQL database on ``SHOPFLOOR_TEST_POSTGRES_URL``, used as the non-owner app
    role (``bench_workshop_approvals.postgres_store``): its URL and a bearer token of Ana's."""
    sys.path.insert(0, str(Path(__file__).parent))
    import bench_workshop_approvals as approvals

    with approvals.postgres_store() as store:
        token = accounts.issue_token(store, ANA)
        yield store.engine.url.render_as_string(hide_password=False), token


def runs_per_second_over_http(workers: int = 2, database: str = "sqlite") -> dict[str, float]:
    """Start ``shopfloor serve --workers N`` on loopback over a seeded ``database`` (sqlite or postgres),
    send REQUESTS notes over CLIENTS keep-alive connections (three rounds), report the median throughput,
    the server's CPU per run, request latencies and errors."""
    backend = _postgres if database == "postgres" else _sqlite
    try:
        with backend(workers) as (url, token):
            return _runs_over_http(url, token, workers)
    except (OSError, OperationalError) as exc:  # the PostgreSQL server may be absent on a laptop
        print(f"skipped: {type(exc).__name__}: {exc}"[:200])
        return {"median": float("nan")}


def _runs_over_http(url: str, token: str, workers: int) -> dict[str, float]:
    port = _free_port()
    server = _serve(url, port, workers)
    body = json.dumps({"note": SAMPLE_NOTE, "input_mode": "voice"}).encode()
    request = (
        "POST /workshop/functions/v1/workshop-agent HTTP/1.1\r\n"
        f"host: 127.0.0.1:{port}\r\nauthorization: Bearer {token}\r\n"
        f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
    ).encode() + body
    rates: list[float] = []
    cpu_ms: list[float] = []
    latencies: list[float] = []
    failures: list[str] = []
    rounds, requests = (1, CLIENTS) if smoke() else (ROUNDS, REQUESTS)
    try:
        wait_until_up(server, port)
        wait_until_workers_listen(server, port, workers)
        asyncio.run(_load(port, request, 2))  # warm-up: every worker imports, connects and caches
        for _ in range(rounds):
            cpu_before = _cpu_seconds(server.pid)
            wall, round_latencies, round_failures = asyncio.run(_load(port, request, requests // CLIENTS))
            cpu_ms.append((_cpu_seconds(server.pid) - cpu_before) * 1000 / len(round_latencies))
            rates.append(len(round_latencies) / wall)
            latencies += round_latencies
            failures += round_failures
    finally:
        server.terminate()
        try:
            server.wait(timeout=120)  # a loaded machine has taken over 30 s to stop both workers
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    latencies.sort()
    if failures:
        print(f"{len(failures)} failed requests, first: {failures[0]}", file=sys.stderr)
    return {
        "median": statistics.median(rates),
        "errors": float(len(failures)),
        "server CPU ms per run": statistics.median(cpu_ms),
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
        "offline reader, every note of the eval corpus to response (in process)",
        unit="ms",
        goal=50.0,
        goal_on="p95",
        measure=corpus_in_process,
    ),
    Figure(
        "runs/s over HTTP, 16 clients, `serve --workers 2` on loopback, SQLite",
        unit="runs/s",
        goal=200.0,
        higher_is_better=True,
        measure=runs_per_second_over_http,
    ),
    Figure(
        "runs/s over HTTP, 16 clients, `serve --workers 2` on loopback, PostgreSQL",
        unit="runs/s",
        goal=150.0,
        higher_is_better=True,
        measure=lambda: runs_per_second_over_http(database="postgres"),
    ),
    Figure(
        "runs/s over HTTP, 16 clients, one server process (for comparison)",
        unit="runs/s",
        measure=lambda: runs_per_second_over_http(workers=1),
    ),
]
