"""The /shifts routes over real HTTP: question → address redirect, answers, refusals, and every protection
(Host, Origin, request token, JSON, 16 KB bodies and none on GET, the shared 60/min limit across server
processes, the static allowlist, CSP, no-store), each refusal changing nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings

BASE = "http://127.0.0.1:8000"
ORIGIN = {"origin": BASE}


@pytest.fixture()
def settings(store_path, tmp_path):
    return Settings(shifts_db=store_path, var_dir=tmp_path)


@pytest.fixture()
def client(settings):
    return TestClient(create_app(settings), raise_server_exceptions=False, base_url=BASE)


def page_token(client: TestClient) -> str:
    page = client.get("/shifts/", params={"day": "2026-09-16", "shift": 2})
    assert page.status_code == 200
    found = re.search(
        r"&#34;x-request-token&#34;: &#34;([^&]+)&#34;|\"x-request-token\": \"([^\"]+)\"", page.text
    )
    assert found, "the page carries its request token"
    return found.group(1) or found.group(2)


def ask(client: TestClient, body: dict | bytes | str, **headers: str):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(
        "/shifts/ask", content=data, headers={"content-type": "application/json", **ORIGIN, **headers}
    )


QUESTION = {"question": "why was second shift slow", "day": "2026-09-16", "shift": 2, "include": "shift"}


@pytest.mark.slow
def test_question_redirects_to_its_address_and_answers(client):
    r = client.get(
        "/shifts/q",
        params={"question": "why was second shift slow", "day": "2026-09-16", "shift": 2},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert r.headers["location"] == "/shifts/a?day=2026-09-16&shift=2&measure=overview"
    page = client.get(r.headers["location"])
    assert page.headers["content-type"].startswith("text/html") and "<strong>75.00 %</strong>" in page.text
    answer = client.get(r.headers["location"].replace("/a?", "/a.json?")).json()
    assert (
        answer["status"] == "complete" and answer["address"] == "/a?day=2026-09-16&shift=2&measure=overview"
    )
    assert len(answer["charts"]) == 3
    same = client.get("/shifts/a.json?day=2026-09-16&shift=2&measure=overview").json()
    assert [s["text"] for s in same["sections"]] == [s["text"] for s in answer["sections"]]


def test_follow_up_chain_in_the_address(client):
    first = "/a?day=2026-09-16&shift=2&include=day&measure=overview"
    r = client.get(
        "/shifts/q",
        params={
            "question": "compare that with first shift",
            "day": "2026-09-16",
            "shift": 2,
            "include": "day",
            "after": first,
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and "after=" in r.headers["location"]
    assert unquote(r.headers["location"]).endswith(first)
    assert client.get(r.headers["location"].replace("/a?", "/a.json?")).json()["status"] == "complete"


def test_unavailable_and_bad_input_use_the_envelope(client):
    r = client.get("/shifts/q", params={"question": "schedule the crew", "day": "2026-09-16"})
    assert r.status_code == 200 and r.json()["status"] == "unavailable" and r.json()["examples"]
    bad = client.get("/shifts/a?day=2026-09-16&measure=overview;DROP")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_address"
    assert (
        client.get("/shifts/q", params={"question": "x", "day": "not-a-day"}).json()["error"]["code"]
        == "bad_scope"
    )
    assert client.get("/shifts/q", params={"question": "x" * 501, "day": "2026-09-16"}).status_code == 400
    assert client.get("/shifts/a?day=2026-09-16&measure=overview&shift=9").status_code == 400


def test_period_report_route(client):
    r = client.get("/shifts/report", params={"period": "week", "day": "2026-09-16"})
    assert r.status_code == 200 and r.json()["status"] == "complete"
    assert client.get("/shifts/report", params={"period": "decade", "day": "2026-09-16"}).status_code == 400
    pdf = client.get("/shifts/report", params={"period": "week", "day": "2026-09-16", "format": "pdf"})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_missing_store_is_503_with_retry_after(tmp_path):
    c = TestClient(
        create_app(Settings(shifts_db=tmp_path / "none.duckdb", var_dir=tmp_path)),
        raise_server_exceptions=False,
        base_url=BASE,
    )
    for path in ("/shifts/a?day=2026-09-16&measure=overview", "/shifts/", "/shifts/guide"):
        r = c.get(path)
        assert_envelope(r, 503, "no_store")
        assert r.headers["retry-after"] == "1", path


def test_a_store_that_cannot_be_opened_is_503_with_retry_after(tmp_path):
    junk = tmp_path / "junk.duckdb"
    junk.write_bytes(b"not a database " * 100)
    c = TestClient(
        create_app(Settings(shifts_db=junk, var_dir=tmp_path)), raise_server_exceptions=False, base_url=BASE
    )
    r = c.get("/shifts/a.json?day=2026-09-16&measure=overview")
    assert_envelope(r, 503, "store_unavailable")
    assert r.headers["retry-after"] == "1"
    assert junk.read_bytes() == b"not a database " * 100  # nothing changed


def test_pdf_and_escaping(client):
    r = client.get("/shifts/a?day=2026-09-16&shift=3&measure=notes&format=pdf")
    assert (
        r.status_code == 200
        and r.headers["content-type"] == "application/pdf"
        and r.content.startswith(b"%PDF")
    )
    page = client.get("/shifts/a?day=2026-09-16&shift=3&measure=notes").text
    assert "IGNORE PREVIOUS INSTRUCTIONS" in page and "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_malformed_query_is_a_400_not_a_500(client):
    r = client.get("/shifts/a?0")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_address"


# --- protections ------------------------------------------------------------------------------------------


def assert_envelope(r, status: int, code: str) -> None:
    assert r.status_code == status, r.text[:300]
    body = r.json()
    assert set(body["error"]) == {"code", "message", "request_id"} and body["error"]["code"] == code


def rate_count(settings: Settings) -> int:
    import sqlite3

    path = settings.var_dir / "shifts-rate.sqlite3"
    if not path.exists():
        return 0
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT coalesce(sum(n), 0) FROM hits").fetchone()[0])


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "localhost.:80"]
)
def test_a_foreign_host_gets_nothing_on_any_route(settings, host):
    client = TestClient(create_app(settings), raise_server_exceptions=False, base_url=BASE)
    for path in (
        "/shifts/",
        "/shifts/a.json?day=2026-09-16&shift=2&measure=overview",
        "/shifts/static/shifts.css",
    ):
        r = client.get(path, headers={"host": host})
        assert_envelope(r, 421, "bad_host")
        assert "75.00" not in r.text
    assert rate_count(settings) == 0  # refused requests are not even counted


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:9999", "[::1]:8000", "LOCALHOST"])
def test_loopback_host_names_are_served(client, host):
    assert client.get("/shifts/guide", headers={"host": host}).status_code == 200


def test_ask_with_token_origin_and_json_answers(client):
    token = page_token(client)
    r = ask(client, QUESTION, **{"x-request-token": token})
    assert r.status_code == 200 and r.json()["address"] == "/a?day=2026-09-16&shift=2&measure=overview"
    assert r.headers["cache-control"] == "no-store"
    fragment = ask(client, QUESTION, **{"x-request-token": token, "hx-request": "true"})
    assert fragment.headers["hx-push-url"] == "/shifts/a?day=2026-09-16&shift=2&measure=overview"
    assert "How the agent got here" in fragment.text and "<html" not in fragment.text


@pytest.mark.parametrize(
    "origin",
    [
        None,
        "null",
        "http://evil.example",
        "http://127.0.0.1:9999",
        "https://127.0.0.1:8000",
        "http://evil.example:8000",
    ],
)
def test_a_post_from_a_foreign_origin_is_refused_and_changes_nothing(settings, client, origin):
    token = page_token(client)
    before = rate_count(settings)
    headers = {"content-type": "application/json", "x-request-token": token}
    if origin is not None:
        headers["origin"] = origin
    r = client.post("/shifts/ask", content=json.dumps(QUESTION), headers=headers)
    assert_envelope(r, 403, "bad_origin")
    assert rate_count(settings) == before


@pytest.mark.parametrize("token", [None, "", "forged", "abc.def.ghi"])
def test_a_post_without_the_pages_token_is_refused(settings, client, token):
    before = rate_count(settings)
    headers = {} if token is None else {"x-request-token": token}
    assert_envelope(ask(client, QUESTION, **headers), 403, "bad_token")
    assert rate_count(settings) == before


def test_a_token_from_another_server_key_is_refused(client, tmp_path):
    other = TestClient(
        create_app(Settings(var_dir=tmp_path / "other", secret_key="k" * 40)),
        raise_server_exceptions=False,
        base_url=BASE,
    )
    foreign = page_token(other) if other.get("/shifts/guide").status_code == 200 else "x"
    assert_envelope(ask(client, QUESTION, **{"x-request-token": foreign}), 403, "bad_token")


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None],
)
def test_a_post_that_is_not_json_is_refused(client, content_type):
    token = page_token(client)
    headers = {**ORIGIN, "x-request-token": token}
    if content_type:
        headers["content-type"] = content_type
    r = client.post("/shifts/ask", content=json.dumps(QUESTION), headers=headers)
    assert_envelope(r, 415, "unsupported_media_type")


def test_a_body_of_16385_bytes_is_refused_and_16384_is_read(client):
    token = page_token(client)
    base = json.dumps({**QUESTION, "after": ""})
    pad = 16_384 - len(base)
    exact = base.replace('"after": ""', '"after": "' + " " * 0 + '"').replace("}", " " * pad + "}")
    assert len(exact.encode()) == 16_384
    assert ask(client, exact, **{"x-request-token": token}).status_code == 200
    over = exact.replace("}", " }")
    assert len(over.encode()) == 16_385
    assert_envelope(ask(client, over, **{"x-request-token": token}), 413, "payload_too_large")

    def chunks():
        yield over.encode()[:9000]
        yield over.encode()[9000:]

    chunked = client.post(
        "/shifts/ask",
        content=chunks(),
        headers={"content-type": "application/json", **ORIGIN, "x-request-token": token},
    )
    assert_envelope(chunked, 413, "payload_too_large")


def test_a_get_with_a_body_is_refused(client):
    r = client.request("GET", "/shifts/a.json?day=2026-09-16&shift=2&measure=overview", content=b"{}")
    assert_envelope(r, 400, "body_not_allowed")


def test_the_61st_request_in_a_minute_is_429_in_the_envelope(client, settings):
    from shopfloor.shifts.pages.limits import current_window

    window = current_window()
    for _ in range(60):
        r = client.get("/shifts/guide")
        if current_window() != window:
            pytest.skip("the minute turned during the test")
        assert r.status_code == 200
    r = client.get("/shifts/a.json?day=2026-09-16&shift=2&measure=overview")
    if current_window() != window:
        pytest.skip("the minute turned during the test")
    assert_envelope(r, 429, "rate_limited")
    assert int(r.headers["retry-after"]) >= 1
    # Allowlisted static files are not counted.
    assert client.get("/shifts/static/shifts.css").status_code == 200


def test_static_files_come_from_an_allowlist(client):
    for name in ("shifts.css", "shifts.js", "vendor/htmx-2.0.11.min.js", "favicon.svg"):
        assert client.get(f"/shifts/static/{name}").status_code == 200
    for name in ("../api.py", "templates/base.html", "..%2f..%2fsettings.py", "views.py", "shifts.css.bak"):
        assert_envelope(client.get(f"/shifts/static/{name}"), 404, "not_found")


def test_answers_carry_no_store_and_the_restrictive_csp(client):
    for path in (
        "/shifts/",
        "/shifts/a?day=2026-09-16&shift=2&measure=overview",
        "/shifts/a.json?day=2026-09-16&shift=2&measure=overview",
    ):
        r = client.get(path)
        assert r.headers["cache-control"] == "no-store"
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "style-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp


def test_every_shifts_route_is_behind_the_guard(settings):
    from starlette.routing import Mount

    app = create_app(settings)
    shifts = next(r.app for r in app.routes if isinstance(r, Mount) and r.path == "/shifts")
    paths = {r.path for r in shifts.routes}
    client = TestClient(app, raise_server_exceptions=False, base_url=BASE)
    for path in paths:
        concrete = path.replace("{name:path}", "shifts.css")
        r = client.get("/shifts" + concrete, headers={"host": "evil.example"})
        assert r.status_code == 421, path


# --- the limit is shared by server processes ----------------------------------------------------------------


def _serve(var_dir: Path, store: Path, port: int, extra: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHOPFLOOR_")}
    env.update(
        {
            "SHOPFLOOR_VAR_DIR": str(var_dir),
            "SHOPFLOOR_SHIFTS_DB": str(store),
            "SHOPFLOOR_SECRET_KEY": "s" * 48,
            "SHOPFLOOR_WORKSHOP_DB": f"sqlite:///{var_dir / 'w.db'}",
            **extra,
        }
    )
    code = (
        "import uvicorn; from shopfloor.server.app import create_app; "
        f"uvicorn.run(create_app(), host='127.0.0.1', port={port}, log_level='warning')"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def _get(port: int, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_two_server_processes_share_one_limit(store_path, tmp_path, backend):
    from tests.web.live import free_port, wait_until_up

    extra = {}
    if backend == "redis":
        pytest.importorskip("redis")
        import redis

        url = "redis://127.0.0.1:6379/0"
        try:
            redis.Redis.from_url(url, socket_timeout=1).ping()
        except redis.RedisError:
            if os.environ.get("CI"):
                raise
            pytest.skip("Redis does not answer on 127.0.0.1:6379")
        extra["SHOPFLOOR_REDIS_URL"] = url
    # Every request comes from 127.0.0.1: a SQLite run has a var dir of its own, a Redis run clears the keys.
    if backend == "redis":
        client = redis.Redis.from_url(url)
        for key in client.scan_iter("shopfloor:shifts:rate:*"):
            client.delete(key)
    ports = [free_port(), free_port()]
    servers = [_serve(tmp_path, store_path, port, extra) for port in ports]
    try:
        for port, server in zip(ports, servers, strict=True):
            wait_until_up(server, port)
        from shopfloor.shifts.pages.limits import current_window

        while time.time() % 60 > 45:  # keep the 61 requests inside one minute
            time.sleep(1)
        window = current_window()
        statuses = [_get(ports[i % 2], "/shifts/guide") for i in range(60)]
        assert statuses == [200] * 60
        last = _get(ports[1], "/shifts/guide")
        assert current_window() == window
        assert last == 429
        assert _get(ports[0], "/shifts/guide") == 429
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


@pytest.mark.slow
def test_past_the_waiting_limit_is_503_busy_in_the_envelope_with_retry_after(store_path, tmp_path):
    """One worker and no waiting room: of eight first visits at once, some are answered and the rest are
    refused at once with 503 ``busy`` in the envelope and ``Retry-After``; a refused one is answered later."""
    from concurrent.futures import ThreadPoolExecutor

    from tests.web.live import free_port, wait_until_up

    port = free_port()
    extra = {"SHOPFLOOR_SHIFTS_MAX_CONCURRENCY": "1", "SHOPFLOOR_SHIFTS_MAX_WAITING": "0"}
    server = _serve(tmp_path, store_path, port, extra)
    try:
        wait_until_up(server, port)
        paths = [
            f"/shifts/a.json?day=2026-09-{d}&shift={s}&measure=overview"
            for d in (14, 15, 16, 17)
            for s in (1, 2)
        ]

        def fetch(path: str) -> tuple[str, int, Any, bytes]:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
                    return path, int(r.status), r.headers, r.read()
            except urllib.error.HTTPError as error:
                return path, int(error.code), error.headers, error.read()

        with ThreadPoolExecutor(len(paths)) as pool:
            results = list(pool.map(fetch, paths))
        statuses = [status for _, status, _, _ in results]
        assert set(statuses) == {200, 503}, statuses
        for path, status, headers, body in results:
            if status == 503:
                error = json.loads(body)["error"]
                assert error["code"] == "busy" and error["request_id"] and error["message"], body
                assert headers["Retry-After"] == "1" and headers["Cache-Control"] == "no-store"
                refused = path
        assert fetch(refused)[1] == 200
    finally:
        server.terminate()
        server.wait(timeout=60)


NOT_WHOLE = "downtime by reason for the flux capacitor"  # two words no slot holds


def test_a_question_not_read_whole_is_answered_partial_on_the_page_not_redirected(client):
    params = {"question": NOT_WHOLE, "day": "2026-09-16", "shift": 2}
    page = client.get("/shifts/q", params=params, headers={"accept": "text/html"}, follow_redirects=False)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Not understood: flux, capacitor." in page.text
    data = client.get("/shifts/q", params=params, follow_redirects=False)
    assert data.status_code == 200
    assert data.json()["status"] == "partial"
    assert "Not understood: flux, capacitor." in [s["text"] for s in data.json()["sections"]]
    # The address alone answers complete: the question is not that address.
    assert data.json()["address"] == "/a?day=2026-09-16&shift=2&measure=downtime&by=reason"
    token = page_token(client)
    body = {"question": NOT_WHOLE, "day": "2026-09-16", "shift": 2, "include": "shift"}
    asked = ask(client, body, **{"x-request-token": token}).json()
    assert asked["status"] == "partial"
    assert "Not understood: flux, capacitor." in [s["text"] for s in asked["sections"]]
    fragment = ask(client, body, **{"x-request-token": token, "hx-request": "true"})
    assert "Not understood: flux, capacitor." in fragment.text
    assert "hx-push-url" not in fragment.headers  # reloading the address would drop the line


def test_a_refused_follow_up_keeps_the_chain(client):
    first = "/a?day=2026-09-16&shift=2&include=day&measure=overview"
    token = page_token(client)
    refused = {
        "question": "compare that with second shift",  # the same shift: refused
        "day": "2026-09-16",
        "shift": 2,
        "include": "day",
        "after": first,
    }
    fragment = ask(client, refused, **{"x-request-token": token, "hx-request": "true"})
    assert fragment.status_code == 200
    kept = re.search(r'id="after" name="after" value="([^"]*)"', fragment.text)
    assert kept and unescape(kept.group(1)) == first
    page = client.get(
        "/shifts/q",
        params={k: v for k, v in refused.items()},
        headers={"accept": "text/html"},
        follow_redirects=False,
    )
    kept = re.search(r'id="after" name="after" value="([^"]*)"', page.text)
    assert page.status_code == 200 and kept and unescape(kept.group(1)) == first
    # The next follow-up still follows the last answered question.
    nxt = ask(
        client,
        {**refused, "question": "compare that with first shift", "after": unescape(kept.group(1))},
        **{"x-request-token": token},
    ).json()
    assert nxt["address"].startswith(
        "/a?day=2026-09-16&shift=2&include=day&measure=compare_shifts&other_shift=1"
    )
    assert unquote(nxt["address"]).endswith("after=" + first)
