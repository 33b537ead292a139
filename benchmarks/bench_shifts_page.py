"""Shift Investigator page: the HTML answer with its charts in process, answers per second with 16 clients
over loopback, and the workshop's latency under a flood of /shifts requests (docs/shifts-agent.md, "The page").

Uses the prepared store (``var/shifts.duckdb``) when it holds data, otherwise the store the investigation
benchmark builds.
"""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from shopfloor.bench import Figure

STATE: dict[str, Any] = {}
DAYS = ("2026-09-14", "2026-09-15", "2026-09-16", "2026-09-17", "2026-09-18")
ADDRESSES = [
    f"/shifts/a?day={d}&shift={s}&measure={m}"
    for d in DAYS
    for s in (1, 2, 3)
    for m in ("overview", "downtime&by=reason&chart=1", "fpm")
]


def _store() -> Path:
    if "store" not in STATE:
        from shopfloor.settings import get_settings

        path = get_settings().shifts_db_path()
        if not path.is_file():
            sys.path.insert(0, str(Path(__file__).parent))
            import bench_shifts_investigation as investigation

            investigation.conn()
            found = sorted(Path(tempfile.gettempdir()).glob("bench-investigation-*/shifts.duckdb"))
            path = found[-1]
        STATE["store"] = path
    return Path(STATE["store"])


def _percentiles(samples: list[float]) -> dict[str, float]:
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return {"median": statistics.median(samples), "p95": p95}


def in_process() -> dict[str, float]:
    """Every address once to warm, then each ten times through the whole app in process."""
    from fastapi.testclient import TestClient

    from shopfloor.server.app import create_app
    from shopfloor.settings import Settings

    var = Path(tempfile.mkdtemp(prefix="bench-page-"))
    settings = Settings(
        shifts_db=_store(),
        var_dir=var,
        shifts_rate_limit_per_minute=1_000_000,
        shifts_max_requests_per_s=100_000,
    )
    client = TestClient(create_app(settings), base_url="http://127.0.0.1")
    for address in ADDRESSES:
        assert client.get(address).status_code == 200
    samples = []
    for _ in range(10):
        for address in ADDRESSES:
            t0 = time.perf_counter()
            assert client.get(address).status_code == 200
            samples.append((time.perf_counter() - t0) * 1000)
    return _percentiles(samples)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server(var: Path, **extra: str) -> tuple[subprocess.Popen[bytes], int]:
    port = _port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHOPFLOOR_")}
    env.update(
        {
            "SHOPFLOOR_VAR_DIR": str(var),
            "SHOPFLOOR_SHIFTS_DB": str(_store()),
            "SHOPFLOOR_WORKSHOP_DB": f"sqlite:///{var / 'w.db'}",
            "SHOPFLOOR_SHIFTS_RATE_LIMIT_PER_MINUTE": "1000000",
            **extra,
        }
    )
    command = [str(Path(sys.executable).with_name("shopfloor")), "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.1)


def _get(conn: http.client.HTTPConnection, path: str) -> int:
    conn.request("GET", path)
    r = conn.getresponse()
    r.read()
    return int(r.status)


def loopback() -> dict[str, float]:
    """16 clients for five seconds over loopback: answers per second (median = rate), errors as p95."""
    process, port = _server(Path(tempfile.mkdtemp(prefix="bench-page-")))
    try:
        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for address in ADDRESSES:
            _get(warm, address)
        counts = {"ok": 0, "errors": 0}
        stop = time.monotonic() + 5.0

        def client(i: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            n = i
            while time.monotonic() < stop:
                status = _get(conn, ADDRESSES[n % len(ADDRESSES)])
                counts["ok" if status == 200 else "errors"] += 1
                n += 5

        threads = [threading.Thread(target=client, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return {"median": counts["ok"] / 5.0, "p95": float(counts["errors"])}
    finally:
        process.terminate()
        process.wait(timeout=120)


# The flood's own process (so the timing client never waits for the flood's threads in its interpreter):
# 48 clients on the answer pages until stdin closes, then the answers and other statuses on stdout.
FLOOD = """
import http.client, sys, threading
port, addresses = int(sys.argv[1]), sys.argv[2:]
counts = {"ok": 0, "other": 0}
stop = threading.Event()
def client(i):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    n = i
    while not stop.is_set():
        conn.request("GET", addresses[n % len(addresses)])
        r = conn.getresponse()
        r.read()
        counts["ok" if r.status == 200 else "other"] += 1
        n += 7
for i in range(48):
    threading.Thread(target=client, args=(i,), daemon=True).start()
sys.stdin.read()
stop.set()
print(counts["ok"], counts["other"])
"""
FLOOR_MS = 2.0  # the quiet median is counted as at least this (tests/shifts/pages/test_isolation.py)


def workshop_under_flood(cache: int) -> dict[str, float]:
    """/workshop/auth/me while 48 clients ask /shifts answers (``cache``: the answer cache's size; one makes
    nearly every request a first visit), timed in turn with an identical server that gets no flood (the
    quiet value under the same load of the machine): loaded over quiet, of the medians and of the 95th
    percentiles (the quiet one counted as at least 2 ms)."""
    servers = [
        _server(Path(tempfile.mkdtemp(prefix="bench-page-")), SHOPFLOOR_SHIFTS_ANSWER_CACHE=str(cache))
        for _ in range(2)
    ]
    try:
        if cache > 1:
            warm = http.client.HTTPConnection("127.0.0.1", servers[0][1], timeout=60)
            for address in ADDRESSES:  # kept answers: each address visited once before the flood
                _get(warm, address)
            warm.close()
        conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _, port in servers]

        def paired(count: int) -> tuple[dict[str, float], dict[str, float]]:
            out: tuple[list[float], list[float]] = ([], [])
            for _ in range(count):
                for conn, samples in zip(conns, out, strict=True):
                    t0 = time.perf_counter()
                    _get(conn, "/workshop/auth/me")
                    samples.append((time.perf_counter() - t0) * 1000)
                    time.sleep(0.005)
            return _percentiles(out[0]), _percentiles(out[1])

        paired(20)
        command = [sys.executable, "-c", FLOOD, str(servers[0][1]), *ADDRESSES]
        flood = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        time.sleep(2.0)
        loaded, quiet = paired(200)
        out, _ = flood.communicate("", timeout=120)
        ok, other = (int(v) for v in out.split())
        if ok == 0:
            raise RuntimeError(f"the flood got no answers ({other} other statuses)")
        return {k: loaded[k] / max(quiet[k], FLOOR_MS) for k in ("median", "p95")}
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=120)


FIGURES = [
    Figure("HTML answer with charts, in process (goal: p95)", measure=in_process, goal=60.0, goal_on="p95"),
    Figure(
        "answers/s with 16 clients over loopback (p95 column: errors)",
        measure=loopback,
        unit="/s",
        goal=150.0,
        higher_is_better=True,
    ),
    Figure(
        "workshop /auth/me under a 48-client /shifts flood of kept answers: loaded over quiet median"
        " (p95 column: of the 95th percentiles)",
        measure=lambda: workshop_under_flood(256),
        unit="x",
        goal=2.0,
    ),
    Figure(
        "the same, every request a first visit (answer cache of one)",
        measure=lambda: workshop_under_flood(1),
        unit="x",
        goal=2.0,
    ),
]
