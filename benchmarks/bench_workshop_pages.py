"""Page figures of Toquilla Trace: what a phone downloads for the dashboard, how soon it paints on a slow
phone, and the server time of one card decision.

The slow phone is ``shopfloor.bench.slow_phone``: Chromium's emulation of a 400 ms round trip, 400 kbit/s
down and up, and a CPU four times slower; the browser cache is off, so every load is a first load. Both
browser figures are medians of the same five loads (one with ``BENCH_SMOKE=1``).

- Bytes: everything the dashboard's first load transfers (HTML with four cards, CSS, htmx, our script, the
  icon), compressed as sent, headers included. Goal 30 KB. Service workers are blocked, as on a first visit
  (the offline worker's own fetches after it installs are not counted).
- First contentful paint of the same loads. Goal 1.2 s.
- First contentful paint of the dashboard opened with no connection after one online visit, answered by the
  service worker from its cache (each load checked as the worker's answer). Goal 1 s.
- Server time of one decision (``POST /workshop/cards/{id}``, reject or approve, answered with the card's HTML),
  in process through the ASGI app on a fresh sample store. Goal p95 20 ms.

The browser figures need Debian's chromium (``/usr/bin/chromium``) and report NaN without it.
"""

from __future__ import annotations

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
from typing import Any

from playwright.sync_api import ViewportSize

from shopfloor.bench import CHROMIUM, CHROMIUM_ARGS, Figure, percentiles, slow_phone, smoke, wait_until_up

NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo "
    "y el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)
RUNS = 5  # uncached loads per figure
PHONE: ViewportSize = {"width": 390, "height": 844}
NAN = float("nan")
# The page's first contentful paint (ms from the navigation's start), waited for inside the page.
_FCP = (
    "() => new Promise(r => { const f = () => { const e = performance.getEntriesByName("
    "'first-contentful-paint')[0]; e ? r(e.startTime) : setTimeout(f, 20); }; f(); })"
)
_loads: dict[str, dict[str, list[float]]] = {}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _server() -> Iterator[str]:
    """A workshop server in a subprocess with its own var dir (sample data, offline reader)."""
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as var:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("SHOPFLOOR_") and not k.endswith("_API_KEY")
        }
        env.update({"SHOPFLOOR_VAR_DIR": var, "SHOPFLOOR_MODEL": "offline"})
        cli = str(Path(sys.executable).with_name("shopfloor"))
        subprocess.run([cli, "workshop", "init"], env=env, check=True, capture_output=True)
        port = _port()
        proc = subprocess.Popen([cli, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(proc, port)
            yield base
        finally:
            proc.terminate()
            proc.wait(timeout=60)


@contextmanager
def _dashboard(workers: bool = False) -> Iterator[tuple[Any, Any, str]]:
    """A signed-in phone-sized page and the dashboard URL showing the sample note's four cards (with the
    offline service worker only when ``workers``)."""
    from playwright.sync_api import sync_playwright

    with _server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        # No service worker: on a first visit there is none yet, and one installed by the sign-in would answer
        # the timed loads from its cache, out of the page's sight.
        context = browser.new_context(
            viewport=PHONE,
            extra_http_headers={"accept-language": "es-EC"},
            service_workers="allow" if workers else "block",
        )
        page = context.new_page()
        page.goto(base + "/workshop/signin")
        page.fill("#email", "ana@taller.example")
        page.fill("#password", "ana-toquilla-demo")
        page.click("form button[type=submit]")
        page.wait_for_url("**/workshop/")
        page.fill("#note", NOTE)
        page.click("#composer button[type=submit]")
        page.wait_for_selector("#result .bubble")
        for _ in range(50):
            if "run=" in page.url:
                break
            page.wait_for_timeout(50)
        try:
            yield context, page, page.url
        finally:
            browser.close()


def _slow_phone_loads() -> dict[str, list[float]]:
    """Uncached loads of the dashboard on the slow phone: KB on the wire and first contentful paint (ms) of
    each (kept, so both figures come from the same loads)."""
    if "loads" in _loads:
        return _loads["loads"]
    with _dashboard() as (context, page, url):
        wire = slow_phone(context, page)
        kb: list[float] = []
        paint: list[float] = []
        requests: list[float] = []
        for _ in range(1 if smoke() else RUNS):
            page.goto("about:blank")  # a real load each time, even when the address ends in a fragment
            wire.reset()
            page.goto(url, wait_until="networkidle")
            assert page.locator("article.card").count() == 4
            kb.append(wire.kb())
            requests.append(float(len(wire.sizes)))
            paint.append(float(page.evaluate(_FCP)))
    _loads["loads"] = {"kb": kb, "paint": paint, "requests": requests}
    return _loads["loads"]


def first_load_bytes() -> dict[str, float]:
    """KB transferred (compressed, headers included) for an uncached load of the dashboard with its cards."""
    if not Path(CHROMIUM).is_file():
        return {"median": NAN}
    loads = _slow_phone_loads()
    return {
        **percentiles(list(loads["kb"])),
        "requests": statistics.median(loads["requests"]),
        "loads": float(len(loads["kb"])),
    }


def first_paint_slow() -> dict[str, float]:
    """First contentful paint (ms) of the same uncached loads on the slow phone."""
    if not Path(CHROMIUM).is_file():
        return {"median": NAN}
    return percentiles(_slow_phone_loads()["paint"])


def offline_first_paint() -> dict[str, float]:
    """First contentful paint (ms) of the dashboard opened offline from the worker's cache, ten loads."""
    if not Path(CHROMIUM).is_file():
        return {"median": NAN}
    with _dashboard(workers=True) as (context, page, url):
        # One online visit under the worker: it controls the page and has kept the dashboard.
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        page.reload()
        page.wait_for_selector("body[data-pages-kept]", state="attached")
        dashboard = url.split("?")[0]
        context.set_offline(True)
        samples = []
        for _ in range(10):
            answer = page.goto(dashboard, wait_until="load")
            assert answer is not None and answer.from_service_worker, "not answered by the worker"
            assert page.locator("article.card").count() == 4
            samples.append(float(page.evaluate(_FCP)))
        samples.sort()
        return {"median": statistics.median(samples), "p95": samples[-1]}


def decision_time() -> dict[str, float]:
    """Server time (ms) of one card decision through the page route, over 60 cards."""
    from fastapi.testclient import TestClient

    from shopfloor.server.app import create_app
    from shopfloor.settings import Settings
    from shopfloor.workshop import domain
    from shopfloor.workshop.agent.persistence import save_proposed_run
    from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store
    from shopfloor.workshop.store import open_store

    with tempfile.TemporaryDirectory(prefix="bench-decide-") as var:
        fresh_sample_store(Path(var) / "workshop.db").dispose()
        settings = Settings(var_dir=Path(var), model="offline")
        client = TestClient(create_app(settings))
        form = client.get("/workshop/signin").text
        signin = re.search(r'name="signin_token" value="([^"]+)"', form)
        assert signin, "no token on the sign-in form"
        client.post(
            "/workshop/signin",
            data={
                "email": "ana@taller.example",
                "password": "ana-toquilla-demo",
                "signin_token": signin.group(1),
            },
        )
        page = client.get("/workshop/").text
        found = re.search(r"x-csrf-token&#34;: &#34;([^&]+)&#34;|\"x-csrf-token\": \"([^\"]+)\"", page)
        assert found, "no CSRF token on the dashboard"
        csrf = found.group(1) or found.group(2)
        ana = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana")
        card = {
            "type": "advance_stage",
            "payload": {"hat_code": "TQ-7F3K2", "to_stage": "Washing"},
            "status": "pending",
            "why": "bench",
            "quote": "pasó a lavado",
        }
        store = open_store(settings.workshop_db_url())
        ids = [pid for _ in range(12) for pid in save_proposed_run(store, ana, [card] * 5)]
        store.dispose()
        samples = []
        for n, pid in enumerate(ids):
            action = "approve" if n % 12 == 0 else "reject"
            t0 = time.perf_counter()
            r = client.post(f"/workshop/cards/{pid}", data={"action": action}, headers={"x-csrf-token": csrf})
            samples.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200 and "outcome" in r.text, r.text[:200]
        samples.sort()
        return {"median": statistics.median(samples), "p95": samples[round(0.95 * (len(samples) - 1))]}


FIGURES = [
    Figure("dashboard first load on the wire, slow phone (KB)", measure=first_load_bytes, unit="KB", goal=30),
    Figure("dashboard first contentful paint, slow phone", measure=first_paint_slow, goal=1200),
    Figure(
        "offline dashboard first contentful paint, from the worker's cache",
        measure=offline_first_paint,
        goal=1000,
        goal_on="p95",
    ),
    Figure("one card decision, server time", measure=decision_time, goal=20, goal_on="p95"),
]
