"""The investigator's error page: a browser asking for a page gets it, with the envelope's status, code and
message and a way back; API clients and htmx swaps keep the envelope (src/shopfloor/shifts/pages/README.md)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings

BASE = "http://127.0.0.1:8000"
BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
BAD = "/shifts/a?day=2026-09-16&measure=overview;DROP"


@pytest.fixture()
def client(store_path, tmp_path):
    app = create_app(Settings(shifts_db=store_path, var_dir=tmp_path))
    return TestClient(app, raise_server_exceptions=False, base_url=BASE)


def test_a_browser_gets_the_error_page(client):
    r = client.get(BAD, headers=BROWSER)
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
    assert "<code>bad_address</code>" in r.text and 'href="/shifts/"' in r.text
    assert r.headers["cache-control"] == "no-store"
    missing = client.get("/shifts/nowhere", headers=BROWSER)
    assert missing.status_code == 404 and "<h1>Not found</h1>" in missing.text
    # The envelope says only "Not Found", which the heading already says: the page says the code's sentence.
    assert "<p>There is nothing at this address.</p>" in missing.text and "Not Found" not in missing.text
    # An envelope that names its detail is shown as it is.
    assert "measure must be one of overview" in r.text


def test_api_clients_and_htmx_keep_the_envelope(client):
    for headers in ({}, {"accept": "application/json"}, {**BROWSER, "hx-request": "true"}):
        r = client.get(BAD, headers=headers)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_address"


def test_a_browser_without_a_store_gets_the_page_with_retry_after(tmp_path):
    app = create_app(Settings(shifts_db=tmp_path / "none.duckdb", var_dir=tmp_path))
    r = TestClient(app, raise_server_exceptions=False, base_url=BASE).get("/shifts/guide", headers=BROWSER)
    assert r.status_code == 503 and "no_store" in r.text and r.headers["retry-after"] == "1"
