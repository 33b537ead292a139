"""One browser error convention for both apps: an app that installs an error page answers a browser asking
for a page with it (same status and headers); every other client, an htmx swap included, gets the envelope
(src/shopfloor/web/README.md)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from shopfloor.web.errors import ApiError, install_error_handlers

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def page(request: Request, status: int, code: str, message: str) -> str:
    return f"<!doctype html><title>{status}</title><p>{code}: {message}</p>"


def app_with(error_page=page) -> TestClient:
    sub = FastAPI()
    install_error_handlers(sub, page=error_page)

    @sub.get("/busy")
    def busy() -> None:
        raise ApiError(503, "busy", "Busy now.", run_id="r1")

    return TestClient(sub, raise_server_exceptions=False)


def test_a_browser_gets_the_page_and_every_other_client_the_envelope():
    client = app_with()
    r = client.get("/busy", headers=BROWSER)
    assert r.status_code == 503 and r.headers["content-type"].startswith("text/html")
    assert "<p>busy: Busy now.</p>" in r.text
    for headers in ({}, {"accept": "application/json"}, {**BROWSER, "hx-request": "true"}):
        r = client.get("/busy", headers=headers)
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy" and r.json()["run_id"] == "r1"


def test_unknown_routes_and_methods_follow_the_same_convention():
    client = app_with()
    r = client.get("/nowhere", headers=BROWSER)
    assert r.status_code == 404 and "not_found" in r.text
    r = client.post("/busy", headers=BROWSER)
    assert r.status_code == 405 and r.headers["allow"] == "GET" and "method_not_allowed" in r.text
    assert client.get("/nowhere").json()["error"]["code"] == "not_found"


def test_an_app_without_a_page_and_a_page_that_fails_answer_the_envelope():
    def broken(request: Request, status: int, code: str, message: str) -> str:
        raise RuntimeError("no template")

    for client in (app_with(None), app_with(broken)):
        r = client.get("/busy", headers=BROWSER)
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
