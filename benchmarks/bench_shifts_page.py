"""Shift Investigator page: the HTML answer with its charts in process, answers per second with 16 clients
over loopback, the workshop's latency under a flood of /shifts requests, the server time of a day's overview
answer over HTTP (first visits and kept answers), and the pages on a slow phone (docs/shifts-agent.md,
"Speed").

- First visits: two servers (each keeps its own answers), warmed with four addresses at once (one per worker
  process) so every worker has run a job and the record span is kept; then each of twenty overview
  addresses none of them has answered, ``/shifts/a?day=D&shift=S&measure=overview`` as the page on one server
  and with ``format=json`` on the other, in turn, timed by the client over loopback (the whole response
  read). Then the same addresses again: the kept answers. The ratio is of the two first-visit medians.
- Slow phone (``shopfloor.bench.slow_phone``: 400 ms round trip, 400 kbit/s, CPU 4x, browser cache off):
  five answer pages of addresses not answered before, bytes on the wire (compressed, headers included) and
  fully loaded (the load event's end); then five example buttons, each on its own day's page, from the press
  until the frame that shows the answer.

Uses the prepared store (``var/shifts.duckdb``) when it holds data, otherwise the store the investigation
benchmark builds. ``BENCH_SMOKE=1``: two first visits and one load and press each.
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

from shopfloor.bench import CHROMIUM, CHROMIUM_ARGS, Figure, percentiles, slow_phone, smoke, wait_until_up

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
    return percentiles(samples)


def _overview_addresses() -> list[str]:
    """A day's overview address for every production day of the store and each shift, newest day first."""
    from shopfloor.shifts.records.store import open_read_only

    conn = open_read_only(_store())
    try:
        days = [
            str(row[0])
            for row in conn.execute("SELECT DISTINCT day FROM shifts ORDER BY day DESC").fetchall()
        ]
    finally:
        conn.close()
    return [f"/shifts/a?day={day}&shift={shift}&measure=overview" for day in days for shift in (2, 1, 3)]


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
    try:
        wait_until_up(process, port)
    except RuntimeError:
        process.kill()
        raise
    return process, port


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


FIRST_VISITS = 20
WARM = 4  # addresses each server answers at once before the timed visits: one per worker process (default 4)


def _timed(conn: http.client.HTTPConnection, path: str) -> float:
    t0 = time.perf_counter()
    status = _get(conn, path)
    elapsed = (time.perf_counter() - t0) * 1000
    if status != 200:
        raise RuntimeError(f"{path}: {status}")
    return elapsed


def _warm(port: int, addresses: list[str]) -> None:
    """Every address at once, one client each: distinct addresses are distinct jobs (one address asked twice
    at once runs once), so each of the pool's workers runs a job first."""

    def client(path: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        _timed(conn, path)
        conn.close()

    threads = [threading.Thread(target=client, args=(a,)) for a in addresses]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _visits() -> dict[str, list[float]]:
    """Server time (ms) of the overview page and its JSON, first visits and kept, per address (kept)."""
    if "visits" in STATE:
        return dict(STATE["visits"])
    count = 2 if smoke() else FIRST_VISITS
    addresses = _overview_addresses()
    if len(addresses) < WARM + count:
        raise RuntimeError(f"the store has {len(addresses)} overview addresses, fewer than {WARM + count}")
    warm, visited = addresses[:WARM], addresses[WARM : WARM + count]
    page_server, json_server = (_server(Path(tempfile.mkdtemp(prefix="bench-page-"))) for _ in range(2))
    try:
        _warm(page_server[1], warm)
        _warm(json_server[1], [a + "&format=json" for a in warm])
        page = http.client.HTTPConnection("127.0.0.1", page_server[1], timeout=120)
        json_ = http.client.HTTPConnection("127.0.0.1", json_server[1], timeout=120)
        found: dict[str, list[float]] = {"first page": [], "first json": [], "kept page": [], "kept json": []}
        for kind in ("first", "kept"):
            for address in visited:
                found[f"{kind} page"].append(_timed(page, address))
                found[f"{kind} json"].append(_timed(json_, address + "&format=json"))
    finally:
        for process, _ in (page_server, json_server):
            process.terminate()
            process.wait(timeout=120)
    STATE["visits"] = found
    return dict(found)


def visit(kind: str) -> dict[str, float]:
    """Median and p95 of one of the four series of :func:`_visits`."""
    samples = list(_visits()[kind])
    return {**_percentiles(samples), "visits": float(len(samples))}


def first_visit_ratio() -> dict[str, float]:
    """The first-visit page median over the first-visit JSON median of the same addresses."""
    found = _visits()
    page, json_ = statistics.median(found["first page"]), statistics.median(found["first json"])
    return {"median": page / json_, "page ms": page, "json ms": json_}


PHONE_RUNS = 5
# In the page: press the n-th example button and resolve with the ms until the frame showing its answer.
PRESS = """(n) => new Promise((resolve, reject) => {
  const buttons = document.querySelectorAll("#ask button.example");
  const button = buttons[n % buttons.length];
  const main = document.getElementById("main");
  main.querySelectorAll(".answer").forEach((e) => { e.dataset.benchOld = "1"; });
  let t0 = 0;
  const observer = new MutationObserver(() => {
    if (main.querySelector(".answer:not([data-bench-old])")) {
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - t0));
    }
  });
  observer.observe(main, { childList: true, subtree: true });
  setTimeout(() => reject(new Error("no answer in 60 s")), 60000);
  t0 = performance.now();
  button.click();
})"""


def _phone() -> dict[str, list[float]]:
    """Answer pages and example presses on the slow phone (kept, so the three figures share one browser)."""
    if "phone" in STATE:
        return dict(STATE["phone"])
    from playwright.sync_api import sync_playwright

    runs = 1 if smoke() else PHONE_RUNS
    # The oldest days: addresses no other figure of this module asks.
    oldest = _overview_addresses()[::-1]
    addresses, warm = oldest[: 2 * runs], oldest[2 * runs]
    process, port = _server(Path(tempfile.mkdtemp(prefix="bench-page-")))
    base = f"http://127.0.0.1:{port}"
    found: dict[str, list[float]] = {"kb": [], "loaded": [], "pressed": []}
    try:
        _warm(port, [warm])
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
            page = context.new_page()
            wire = slow_phone(context, page)
            for address in addresses[:runs]:
                wire.reset()
                page.goto(base + address, wait_until="networkidle", timeout=120_000)
                if page.locator("#main .answer").count() != 1:
                    raise RuntimeError(f"{address}: no answer on the page")
                found["kb"].append(wire.kb())
                end = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
                found["loaded"].append(float(end))
            for n, address in enumerate(addresses[runs:]):
                day = address.split("day=")[1].split("&")[0]
                page.goto(f"{base}/shifts/?day={day}&shift=2&include=shift&period=day", timeout=120_000)
                page.wait_for_function("() => window.htmx !== undefined")
                found["pressed"].append(float(page.evaluate(PRESS, n)))
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=120)
    STATE["phone"] = found
    return dict(found)


def phone(kind: str) -> dict[str, float]:
    """Median and p95 of one series of :func:`_phone` (NaN without Debian's chromium)."""
    if not Path(CHROMIUM).is_file():
        return {"median": float("nan")}
    return _percentiles(list(_phone()[kind]))


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
    Figure(
        "day overview answer page over HTTP, first visit (nothing kept, workers warm)",
        measure=lambda: visit("first page"),
        goal=100.0,
    ),
    Figure("its JSON (format=json), first visit", measure=lambda: visit("first json")),
    Figure("first visits: page median over JSON median", measure=first_visit_ratio, unit="x", goal=2.0),
    Figure("day overview answer page over HTTP, kept answer", measure=lambda: visit("kept page")),
    Figure("its JSON, kept answer", measure=lambda: visit("kept json")),
    Figure(
        "slow phone: first answer page on the wire (KB)", measure=lambda: phone("kb"), unit="KB", goal=60.0
    ),
    Figure("slow phone: first answer page fully loaded", measure=lambda: phone("loaded"), goal=2500.0),
    Figure(
        "slow phone: an example button's answer on screen after the press",
        measure=lambda: phone("pressed"),
        goal=1500.0,
    ),
]
