"""Responses to authenticated requests, and responses that set a cookie, are never stored by a cache."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.responses import Response

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.web.middleware import SecurityHeadersMiddleware, needs_no_store
from shopfloor.workshop.sample import fresh_sample_store


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    fresh_sample_store(tmp_path / "w.db").dispose()
    settings = Settings(
        var_dir=tmp_path,
        workshop_db=f"sqlite:///{tmp_path / 'w.db'}",
        secret_key="a-test-key-that-is-long-enough-0123456789",  # type: ignore[arg-type]
    )
    with TestClient(create_app(settings)) as c:
        yield c


def test_sign_in_token_and_user_list_are_no_store(client):
    login = client.post(
        "/workshop/auth/login", json={"email": "admin@taller.example", "password": "admin-toquilla-demo"}
    )
    assert login.status_code == 200 and "set-cookie" in login.headers
    assert login.headers["cache-control"] == "no-store"
    csrf = login.json()["csrf_token"]
    me = client.get("/workshop/auth/me")
    assert me.status_code == 200 and me.headers["cache-control"] == "no-store"
    token = client.post("/workshop/auth/tokens", json={"name": "t"}, headers={"x-csrf-token": csrf})
    assert token.status_code == 200 and token.headers["cache-control"] == "no-store"
    client.cookies.clear()
    bearer = {"authorization": f"Bearer {token.json()['token']}"}
    users = client.get("/workshop/api/users", headers=bearer)
    assert users.status_code == 200 and users.headers["cache-control"] == "no-store"
    # Refusals of credentials are per-user too.
    refused = client.get("/workshop/api/users", headers={"authorization": "Bearer nope"})
    assert refused.status_code == 401 and refused.headers["cache-control"] == "no-store"


def test_an_anonymous_public_response_keeps_its_caching(client):
    assert "cache-control" not in client.get("/").headers
    assert "cache-control" not in client.get("/healthz").headers


def test_no_store_replaces_a_routes_own_cache_control_on_an_authenticated_request():
    app = FastAPI()

    @app.get("/cached")
    def cached() -> Response:
        return Response("x", headers={"cache-control": "public, max-age=3600"})

    c = TestClient(SecurityHeadersMiddleware(app))
    assert c.get("/cached").headers["cache-control"] == "public, max-age=3600"
    assert c.get("/cached", headers={"cookie": "tt_session=x"}).headers["cache-control"] == "no-store"


def test_a_response_made_no_store_carries_no_validators_and_a_304_keeps_its_own(client):
    anonymous = client.get("/workshop/static/app.css")
    assert anonymous.headers["etag"].startswith('W/"')
    signed_in = client.get("/workshop/static/app.css", headers={"cookie": "tt_session=x"})
    assert signed_in.headers["cache-control"] == "no-store"
    assert "etag" not in signed_in.headers and "last-modified" not in signed_in.headers
    again = client.get(
        "/workshop/static/app.css",
        headers={"cookie": "tt_session=x", "if-none-match": anonymous.headers["etag"]},
    )
    assert again.status_code == 304 and "etag" in again.headers


@pytest.mark.parametrize(
    ("request_headers", "response_headers", "expected"),
    [
        ([], [], False),
        ([(b"authorization", b"Bearer t")], [], True),
        ([(b"cookie", b"a=b")], [], True),
        ([], [(b"set-cookie", b"a=b; Path=/")], True),
        ([(b"accept", b"*/*")], [(b"content-type", b"text/css")], False),
    ],
)
def test_needs_no_store(request_headers, response_headers, expected):
    assert needs_no_store(request_headers, response_headers) is expected


def test_a_routes_private_revalidated_caching_is_kept_and_any_other_replaced():
    app = FastAPI()

    @app.get("/form")
    def form() -> Response:
        response = Response("x", headers={"cache-control": "private, no-cache"})
        response.set_cookie("a", "b")
        return response

    @app.get("/private-cached")
    def private_cached() -> Response:
        return Response("x", headers={"cache-control": "private, max-age=60"})

    c = TestClient(SecurityHeadersMiddleware(app))
    assert c.get("/form", headers={"cookie": "tt_session=x"}).headers["cache-control"] == "private, no-cache"
    assert c.get("/private-cached", headers={"cookie": "tt_session=x"}).headers["cache-control"] == "no-store"


def test_the_sign_in_form_is_revalidated_and_the_sign_in_itself_never_stored(client):
    form = client.get("/workshop/signin")
    assert form.status_code == 200 and "tt_signin=" in form.headers["set-cookie"]
    assert form.headers["cache-control"] == "private, no-cache"
    token = form.text.split('name="signin_token" value="')[1].split('"')[0]
    signed_in = client.post(
        "/workshop/signin",
        data={"email": "admin@taller.example", "password": "admin-toquilla-demo", "signin_token": token},
        follow_redirects=False,
    )
    assert signed_in.status_code == 303 and signed_in.headers["cache-control"] == "no-store"
    wrong = client.post(
        "/workshop/signin",
        data={"email": "admin@taller.example", "password": "wrong", "signin_token": token},
        follow_redirects=False,
    )
    assert wrong.status_code in (401, 403) and wrong.headers["cache-control"] == "no-store"
    assert client.get("/workshop/").headers["cache-control"] == "no-store"
